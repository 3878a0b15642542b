package shamir

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"golang.org/x/crypto/chacha20poly1305"
)

// Secret Sharing Made Short (Krawczyk, CRYPTO '93): the secret is encrypted
// under a fresh random key, the ciphertext is dispersed with a systematic
// Reed–Solomon code so that any threshold fragments rebuild it, and only the
// 32-byte key is shared with Shamir's scheme. A share is about
// len(secret)/threshold bytes instead of len(secret).
//
// The encryption is chunked in the manner of age's STREAM: the secret is cut
// into chunks of chunkSize bytes, each sealed with an AEAD under a nonce made
// of the chunk's number and a flag set only on the last chunk (for AEAD 3,
// whose nonces are random, the associated data carries them), so that
// reordering, dropping, truncating or extending chunks is detected. Each
// sealed chunk is dispersed on its own, so the streaming forms need memory
// for one chunk per share, whatever the size of the secret.
//
// The byte layout of a share is in docs/FORMAT.md.

var (
	// errClosed reports a Write to a split writer after Close.
	errClosed = errors.New("shamir: write to closed SSMS writer")
	// errUnknownAEAD reports an AEAD the format does not name.
	errUnknownAEAD = errors.New("shamir: unknown SSMS AEAD")
)

// The share format. See docs/FORMAT.md.
const (
	ssmsMagic   = "GFSSMS"
	ssmsVersion = 4

	// Header fields, by offset (docs/FORMAT.md). The header's length
	// depends on the size of its batch: the Merkle path at hdrPath has
	// depth(size) nodes, and the key share and the CRC follow it.
	hdrVersion    = 6
	hdrAEAD       = 7
	hdrThreshold  = 8
	hdrChunkSize  = 9
	hdrSplitID    = 13
	hdrIndex      = 29 // the first field that differs between shares
	hdrGeneration = 30 // the first field a refresh changes
	hdrBatchFirst = 34 // the first index of the share's batch
	hdrBatchSize  = 35 // the number of indexes of the batch, 1…255
	hdrKeyCheck   = 36
	hdrPublicKey  = 52
	hdrSignature  = 84  // over the batch statement (batchStatement)
	hdrPath       = 148 // depth(size) nodes, from the leaf's sibling up

	// hdrPrefix is how much of a header tells its length.
	hdrPrefix = hdrBatchSize + 1
	// minHeaderSize is the length of the header of a batch of one, whose
	// path is empty; maxHeaderSize that of a batch of 129 to 255.
	minHeaderSize = hdrPath + keySize + 4
	maxHeaderSize = minHeaderSize + maxDepth*nodeSize

	nodeSize = 16 // a Merkle tree node: SHA-256, truncated
	maxDepth = 8  // of the tree of a batch of 255

	adSize       = hdrIndex // the fields every share of a split has in common
	splitIDSize  = 16
	keySize      = 32
	keyCheckSize = 16
	sigSize      = ed25519.SignatureSize

	// maxGeneration is the last generation a refresh can make.
	maxGeneration = 1<<32 - 1

	// maxIndex is the largest share index: the key share of index i is at
	// x = i+1, and x is a non-zero byte.
	maxIndex = 254

	// recordOverhead is what a record adds to its fragment: the length
	// word before it, the tag (ssms_tag.go) and the CRC after it.
	recordOverhead = 4 + tagSize + 4
	lastFlag       = 1 << 31

	defaultChunkSize = 64 << 10
	// maxChunkSize bounds what a reader accepts, and so the memory a share
	// header can make a reader allocate before it has read that much.
	maxChunkSize = 1 << 20

	// The AEADs, by their id in the header (docs/FORMAT.md).
	aesGCM           = 1 // AES-256-GCM, the chunk's counter nonce
	chaCha20Poly1305 = 2 // ChaCha20-Poly1305, the chunk's counter nonce
	aesGCMRandom     = 3 // AES-256-GCM, a random nonce before each chunk (fips.go)

	maxOverhead = 12 + 16 // the most an AEAD adds to a chunk: AEAD 3's nonce and tag
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// defaultAEAD is the AEAD the writers seal with: AEAD 3 in FIPS 140-3 mode,
// whatever the CPU.
func defaultAEAD() byte {
	if fipsMode {
		return aesGCMRandom
	}
	if hasAESHardware {
		return aesGCM
	}
	return chaCha20Poly1305
}

// knownAEAD reports whether id names an AEAD of the format.
func knownAEAD(id byte) bool { return id == aesGCM || id == chaCha20Poly1305 || id == aesGCMRandom }

// aeadOverhead is the number of bytes the AEAD id adds to a chunk: its
// 16-byte tag, and for AEAD 3 the 12-byte nonce before the ciphertext.
func aeadOverhead(id byte) int {
	if id == aesGCMRandom {
		return maxOverhead
	}
	return 16
}

// newAEAD returns the AEAD id under key. Every one takes the chunk's 12-byte
// counter nonce (chunkNum.nonce) and the 29 common header bytes as
// associated data; AEAD 3 adds the nonce to the associated data instead.
func newAEAD(id byte, key []byte) (cipher.AEAD, error) {
	switch id {
	case aesGCM:
		return newAESGCM(key) // gcm.go: assembly where the CPU has it
	case chaCha20Poly1305:
		return chacha20poly1305.New(key)
	case aesGCMRandom:
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		g, err := cipher.NewGCMWithRandomNonce(b)
		if err != nil {
			return nil, err
		}
		return &randomNonceGCM{gcm: g}, nil
	}
	return nil, fmt.Errorf("shamir: unknown SSMS AEAD %d", id)
}

// A chunkNum holds the number of a chunk in the forms the format uses. It
// lives in the long-lived structures, so that the slices of it given to the
// AEAD and to crc32 do not cost an allocation per chunk.
type chunkNum struct {
	be    [8]byte  // the number, big-endian, as the record CRCs cover it
	nonce [12]byte // the number as an 11-byte big-endian number, then 1 for the last chunk and 0 for the others
}

func (c *chunkNum) set(i uint64, last bool) {
	binary.BigEndian.PutUint64(c.be[:], i)
	c.nonce = [12]byte{}
	binary.BigEndian.PutUint64(c.nonce[3:11], i)
	if last {
		c.nonce[11] = 1
	}
}

// fragSize is the length of each of the threshold fragments of a sealed chunk
// of n plaintext bytes: the n+overhead bytes the AEAD makes of it, padded
// with zeros to a multiple of threshold.
func fragSize(n, threshold, overhead int) int {
	return (n + overhead + threshold - 1) / threshold
}

// shareSize is the length of each share of a secret of n bytes, of a
// split of parts shares (one batch, whose header length is
// headerLen(parts)):
//
//	headerLen(parts) + Σ over chunks (recordOverhead + fragSize(chunk length))
//
// where the chunks are n/chunkSize full ones and, when n is not a multiple,
// one shorter; a secret of zero bytes has one empty chunk. overhead is the
// AEAD's (aeadOverhead).
func shareSize(n, parts, threshold, chunkSize, overhead int) int {
	full, rest := n/chunkSize, n%chunkSize
	if rest == 0 && full > 0 {
		full, rest = full-1, chunkSize
	}
	return headerLen(parts) + full*(recordOverhead+fragSize(chunkSize, threshold, overhead)) +
		recordOverhead + fragSize(rest, threshold, overhead)
}

// sealedBufs recycles buffers for one sealed chunk of the default size,
// padded (t·fragSize(C, t, overhead) < C+overhead+t): without them each
// one-shot call allocates, and the runtime clears, one more chunk-sized
// buffer. They only ever hold ciphertext.
var sealedBufs = sync.Pool{New: func() any { return new([defaultChunkSize + maxOverhead + 255]byte) }}

// sealedBuf returns a buffer of n bytes, and the function that gives it back.
func sealedBuf(n int) ([]byte, func()) {
	if n > defaultChunkSize+maxOverhead+255 {
		return make([]byte, n), func() {}
	}
	b := sealedBufs.Get().(*[defaultChunkSize + maxOverhead + 255]byte)
	return b[:n], func() { sealedBufs.Put(b) }
}

// checkSSMS checks the parameters of an SSMS split, as newEncoder is given
// them or a header holds them: the AEAD first (errUnknownAEAD: a reader
// that does not know it can tell nothing else), then the parts and the
// threshold as Split checks them (checkScheme; SSMS takes secrets of any
// length, even empty), then the chunk size.
func checkSSMS(parts, threshold, chunkSize int, aeadID byte) error {
	if !knownAEAD(aeadID) {
		return errUnknownAEAD
	}
	if err := checkScheme(parts, threshold); err != nil {
		return err
	}
	if chunkSize < 1 || chunkSize > maxChunkSize {
		return fmt.Errorf("shamir: invalid SSMS chunk size %d", chunkSize)
	}
	return nil
}

// SplitSSMS splits secret into parts shares, any threshold of which recover
// it with [CombineSSMS]; fewer reveal nothing about it but its length.
// Unlike [Split], each share is only about len(secret)/threshold bytes: a
// header of 184 + 16·⌈log2 parts⌉ bytes, and at most 33 bytes (39 in FIPS 140-3 mode) more than
// 1/threshold of each 64 KiB chunk (docs/FORMAT.md has the exact size). The
// secret may be empty.
//
// The secret is encrypted with AES-256-GCM where the CPU has AES instructions
// and ChaCha20-Poly1305 elsewhere, under a key drawn for this call only; all
// the format's AEADs are always readable (but see [ErrNotApproved]). In FIPS
// 140-3 mode ([crypto/fips140.Enabled]) it is always AES-256-GCM with random
// nonces, and the key and every other random byte come from crypto/rand. It
// requires 2 <= threshold <= parts <= 255.
//
// The shares' headers are signed together, with one Ed25519 signature over
// a Merkle tree of their key shares, under a key derived from
// the split's key, to which the split ID commits (docs/FORMAT.md), so that
// readers tell an outsider's shares from the genuine ones one by one: about
// 30 µs per split (a key derivation and a signature) and a few hashes per
// share, whatever the secret's size. Each record (a share's part of a
// chunk) carries a 16-byte tag under a key derived from the split's key,
// so that readers tell records altered by anyone who does not hold it (an
// outsider who can write a share's file, or fewer than threshold holders)
// from genuine ones: the tags cover parts/threshold times the secret's
// bytes (GHASH with AES-256-GCM, about 100 µs per MiB split into 5 of 3;
// Poly1305 with ChaCha20-Poly1305, about 0.4 ms; HMAC-SHA256 in FIPS 140-3
// mode, about 0.9 ms).
//
// The shares are those [NewSplitWriter] writes; either may be read by
// [CombineSSMS] or [NewCombineReader].
func SplitSSMS(secret []byte, parts, threshold int) ([][]byte, error) {
	r := newRandom()
	defer r.release()
	return splitSSMS(secret, parts, threshold, defaultChunkSize, defaultAEAD(), r)
}

// splitSSMS is SplitSSMS with the chunk size, the AEAD and the randomness
// given.
//
// The chunks are sealed independently (each has its own nonce, from its
// number), so a long secret's chunks are sealed on GOMAXPROCS goroutines,
// in groups of about parallelChunk bytes, each goroutine with a sealer of
// its own. Every chunk but the last is full, so where its records go in
// the shares follows from its number alone.
func splitSSMS(secret []byte, parts, threshold, chunkSize int, aeadID byte, rng io.Reader) ([][]byte, error) {
	e, err := newEncoder(parts, threshold, chunkSize, aeadID, rng)
	if err != nil {
		return nil, err
	}
	defer e.release()
	size := shareSize(len(secret), parts, threshold, chunkSize, e.overhead)
	hl := headerLen(parts)
	buf := make([]byte, parts*size)
	shares := make([][]byte, parts)
	for i := range shares {
		shares[i] = buf[i*size : (i+1)*size : (i+1)*size]
		copy(shares[i], e.headers[i])
	}
	chunks := max(1, (len(secret)+chunkSize-1)/chunkSize)
	fullRecord := recordOverhead + fragSize(chunkSize, threshold, e.overhead)
	sealChunks := func(s *sealer, recs [][]byte, from, to int) {
		for c := from; c < to; c++ {
			p := secret[c*chunkSize : min((c+1)*chunkSize, len(secret))]
			off := hl + c*fullRecord
			rl := recordOverhead + fragSize(len(p), threshold, e.overhead)
			for i, sh := range shares {
				recs[i] = sh[off : off+rl]
			}
			e.seal(s, uint64(c), p, c == chunks-1, recs)
		}
	}
	group := max(1, parallelChunk/chunkSize)
	if inOrder(aeadID) {
		group = chunks
	}
	forChunksOf(chunks, group, func() (func(i, lo, hi int), func()) {
		s := e.newSealer()
		recs := make([][]byte, parts)
		return func(_, lo, hi int) { sealChunks(s, recs, lo, hi) }, s.release
	})
	return shares, nil
}

// An encoder holds what the chunks of one split share: the headers, the
// code and the key.
type encoder struct {
	parts, threshold int
	chunkSize        int
	aeadID           byte
	overhead         int      // the AEAD's (aeadOverhead)
	headers          [][]byte // each share's header
	seeds            []uint32 // where each share's record CRCs start (recordSeed)
	key              [keySize]byte
	code             *rsCode
}

// A sealer seals and disperses chunks of an encoder's split: one per
// goroutine, each with its own AEAD and scratch.
type sealer struct {
	aead         cipher.AEAD
	tags         *tagger // the records' tags, under the record key
	num          chunkNum
	ct           []byte // a sealed chunk, padded to threshold fragments
	release      func() // erases the AEAD's key and gives ct back
	data, parity [][]byte
}

// newEncoder draws the key and the split ID from rng, shares the key, and
// prepares the headers.
func newEncoder(parts, threshold, chunkSize int, aeadID byte, rng io.Reader) (*encoder, error) {
	if err := checkSSMS(parts, threshold, chunkSize, aeadID); err != nil {
		return nil, err
	}
	if err := checkApproved(aeadID); err != nil {
		return nil, err
	}
	e := &encoder{
		parts:     parts,
		threshold: threshold,
		chunkSize: chunkSize,
		aeadID:    aeadID,
		overhead:  aeadOverhead(aeadID),
		seeds:     make([]uint32, parts),
		code:      newRSCode(parts, threshold),
	}
	if _, err := io.ReadFull(rng, e.key[:]); err != nil {
		return nil, fmt.Errorf("shamir: reading randomness: %w", err)
	}
	keys := deriveKeys(&e.key)
	defer keys.release()
	kbuf := make([]byte, parts*keySize)
	defer clear(kbuf)
	keyShares := make([][]byte, parts)
	for i := range keyShares {
		keyShares[i] = kbuf[i*keySize : (i+1)*keySize]
	}
	if err := shareKey(e.key[:], keyShares, threshold, rng); err != nil {
		clear(e.key[:])
		return nil, err
	}
	var ad [adSize]byte
	copy(ad[:], ssmsMagic)
	ad[hdrVersion] = ssmsVersion
	ad[hdrAEAD] = aeadID
	ad[hdrThreshold] = byte(threshold)
	binary.BigEndian.PutUint32(ad[hdrChunkSize:], uint32(chunkSize))
	id := keys.splitID()
	copy(ad[hdrSplitID:], id[:])
	// The split's shares are one batch, [0, parts): one signature.
	idx := make([]int, parts)
	for i := range idx {
		idx[i] = i
	}
	e.headers = keys.batchHeaders(&ad, 0, 0, keyShares, idx)
	for i, h := range e.headers {
		e.seeds[i] = recordSeed(h)
	}
	return e, nil
}

// The keys a split's key K derives for its headers (docs/FORMAT.md):
//
//	key check  SHA-256("GFSSMS key check" ‖ K)[0:16]
//	signing    the Ed25519 key pair whose seed is HKDF-SHA256(K, no salt, "GFSSMS header signing key"), 32 bytes
//	split ID   SHA-256("GFSSMS split ID" ‖ public key ‖ key check)[0:16]
//
// The split ID commits to the public key and the key check, which every
// header carries: anyone can check, share by share and without K, that a
// header's public key is the split's and that its signature holds (so
// that an outsider's headers are set aside before any decoding), and a
// key recovered from key shares is accepted only if it gives the key
// check, a cheap hash where deriving the public key again would cost a
// scalar multiplication. One key pair serves every generation: the split
// ID, which commits to it, is the same in all of them, and the generation
// is under the signature.
//
// The key check is stored, though a reader who decodes K could compute
// it: without it the split ID would not tell, without K, which public key
// is the split's, and an outsider's key pair would pass for a holder's.
// Checking a decoded K by deriving the public key instead would cost
// about 14 µs a try (HKDF and a scalar multiplication), several times what
// combining a 32-byte secret takes; two hashes cost 0.2 µs.
const (
	labelKeyCheck = "GFSSMS key check"
	labelSigning  = "GFSSMS header signing key"
	labelSplitID  = "GFSSMS split ID"
)

// keyCheckOf returns the key check of the split key key. Like the split
// ID of format 3 it is a public function of a uniform 256-bit key: it
// gives nothing towards the key short of inverting SHA-256.
func keyCheckOf(key *[keySize]byte) [keyCheckSize]byte { return hash16(labelKeyCheck, key) }

// hash16 returns SHA-256(label ‖ secret)[0:16], clearing its copies of
// secret. SHA-256 takes the same time whatever the bytes it hashes.
func hash16(label string, secret *[keySize]byte) [16]byte {
	var b [64]byte // the labels are shorter than 32 bytes
	n := copy(b[:], label)
	n += copy(b[n:], secret[:])
	sum := sha256.Sum256(b[:n])
	clear(b[:])
	defer clear(sum[:])
	return [16]byte(sum[:16])
}

// splitIDOf returns the split ID that commits to the public key pub and
// the key check check. Another public key or key check with the same ID
// is a second preimage of 128-bit truncated SHA-256, about 2^128 work
// for anyone who did not choose the key (docs/FORMAT.md).
func splitIDOf(pub *[ed25519.PublicKeySize]byte, check *[keyCheckSize]byte) SplitID {
	var b [len(labelSplitID) + ed25519.PublicKeySize + keyCheckSize]byte
	copy(b[:], labelSplitID)
	copy(b[len(labelSplitID):], pub[:])
	copy(b[len(labelSplitID)+ed25519.PublicKeySize:], check[:])
	sum := sha256.Sum256(b[:])
	return SplitID(sum[:splitIDSize])
}

// splitKeys are what a split's key derives to write headers: the key
// check and the signing key pair. Only holders of the key (the dealer,
// and the lifecycle functions once they recovered it) have them.
type splitKeys struct {
	check [keyCheckSize]byte
	pub   [ed25519.PublicKeySize]byte
	priv  ed25519.PrivateKey
}

// deriveKeys derives the split keys of key. Like the AEADs, Ed25519
// signing keeps the private key expanded in memory the package cannot
// clear (docs/SECURITY.md); release clears the package's copy.
func deriveKeys(key *[keySize]byte) *splitKeys {
	seed, err := hkdf.Key(sha256.New, key[:], nil, labelSigning, ed25519.SeedSize)
	if err != nil {
		// Unreachable: HKDF refuses only outputs too long, or in FIPS
		// 140-3 mode keys shorter than 112 bits.
		panic("shamir: deriving the header signing key: " + err.Error())
	}
	defer clear(seed)
	k := &splitKeys{check: keyCheckOf(key), priv: ed25519.NewKeyFromSeed(seed)}
	copy(k.pub[:], k.priv[ed25519.SeedSize:])
	return k
}

// splitID returns the split's ID.
func (k *splitKeys) splitID() SplitID { return splitIDOf(&k.pub, &k.check) }

// release clears the private key.
func (k *splitKeys) release() { clear(k.priv) }

// keyX is the x coordinate of the key share of the share with the given
// index. Deriving it from the index, rather than storing it, binds it: a
// share whose index was changed has its key share off the key's polynomial
// at the new x, and is told from the others (docs/FORMAT.md).
func keyX(index int) byte { return byte(index + 1) }

// shareKey sets ys[i] to the key share of index i: the value at keyX(i) of a
// polynomial of degree < t with constant term key and the other t−1
// coefficients drawn from rng, as the engine's product with a Vandermonde
// matrix computes it (the coefficients are random rows, cleared after use).
func shareKey(key []byte, ys [][]byte, t int, rng io.Reader) error {
	xs := make([]byte, len(ys))
	for i := range xs {
		xs[i] = keyX(i)
	}
	ins := make([][]byte, t)
	ins[0] = key
	p := &product{coef: vandermonde(nil, xs, t), ins: ins, outs: ys, n: len(key), random: t - 1}
	return p.run(rng)
}

// release clears the key. The sealers' AEADs hold it expanded: each
// sealer's release erases its own where the package owns that memory
// (wipeAEAD), not where it is crypto/cipher's (see docs/SECURITY.md).
func (e *encoder) release() { clear(e.key[:]) }

// newSealer returns a sealer for e's chunks. The caller releases it.
func (e *encoder) newSealer() *sealer {
	aead, err := newAEAD(e.aeadID, e.key[:])
	if err != nil {
		panic("shamir: " + err.Error()) // unreachable: newEncoder checked the AEAD
	}
	s := &sealer{
		aead:   aead,
		tags:   newTagger(e.aeadID, &e.key),
		data:   make([][]byte, e.threshold),
		parity: make([][]byte, e.parts-e.threshold),
	}
	ct, giveBack := sealedBuf(e.threshold * fragSize(e.chunkSize, e.threshold, e.overhead))
	s.ct = ct
	s.release = func() {
		wipeAEAD(s.aead)
		s.tags.release()
		giveBack()
	}
	return s
}

// seal encrypts p, chunk number count and the last one if last is set, with
// s, and writes its record for share i to recs[i], which must be
// recordOverhead+fragSize(len(p), t, e.overhead) bytes long.
// Share i has index i.
func (e *encoder) seal(s *sealer, count uint64, p []byte, last bool, recs [][]byte) {
	t := e.threshold
	f := fragSize(len(p), t, e.overhead)
	ct := s.ct[:t*f]
	s.num.set(count, last)
	s.aead.Seal(ct[:0], s.num.nonce[:], p, e.headers[0][:adSize])
	clear(ct[len(p)+e.overhead:])
	for j := range t {
		s.data[j] = ct[j*f : (j+1)*f]
	}
	for r := range s.parity {
		s.parity[r] = recs[t+r][4 : 4+f]
	}
	e.code.encode(s.data, s.parity, 0, f)
	for i, rec := range recs {
		frag := rec[4 : 4+f] // a parity fragment, encoded in place
		if i < t {
			frag = s.data[i]
		}
		putRecord(rec, len(p), last, frag, e.seeds[i], &s.num, s.tags, i)
	}
}

// putRecord writes into rec, recordOverhead+len(frag) bytes, the record
// of index index of a chunk of n plaintext bytes, the last if last is set,
// whose fragment is frag (which may be rec's own fragment bytes): its
// length word, the fragment, its tag under tags (ssms_tag.go) and its CRC,
// which continues seed (recordSeed) with the chunk number num. It is the
// one record writer: SplitSSMS, the split writer, and the lifecycle
// functions that make new shares all write records through it.
func putRecord(rec []byte, n int, last bool, frag []byte, seed uint32, num *chunkNum, tags *tagger, index int) {
	length := uint32(n)
	if last {
		length |= lastFlag
	}
	f := len(frag)
	end := len(rec) - 4 // where the CRC goes, after the tag
	binary.BigEndian.PutUint32(rec, length)
	copy(rec[4:4+f], frag)
	tags.put(rec[4+f:end], rec[:4+f], index, num)
	binary.BigEndian.PutUint32(rec[end:], recordCRC(seed, num, rec[:end]))
}

// recordSeed is where the record CRCs of the share with header h start:
// the CRC-32C of the header up to the generation, that is of the split's
// parameters and the share's index. The generation and the key share are
// left out so that refreshing the key shares rewrites headers only, never
// records.
func recordSeed(h []byte) uint32 { return crc32.Checksum(h[:hdrGeneration], castagnoli) }

// recordCRC continues seed (recordSeed) with the chunk number as 8
// big-endian bytes and the record up to its CRC, its tag included. Binding the split, the
// index and the number makes a record moved within a share, into another
// share, or into a share of another split, fail its check.
func recordCRC(hcrc uint32, num *chunkNum, rec []byte) uint32 {
	return crc32.Update(crc32.Update(hcrc, castagnoli, num.be[:]), castagnoli, rec)
}

// A header is the parsed header of a share.
type header struct {
	aead      byte
	overhead  int // the AEAD's (aeadOverhead)
	threshold int
	chunkSize int
	index     int
	gen       uint32            // the generation: 0, and one more at each refresh
	x         byte              // keyX(index)
	first     int               // the batch's first index
	size      int               // the batch's number of indexes
	length    int               // the header's length: headerLen(size)
	ad        [adSize]byte      // the fields common to the split
	id        [splitIDSize]byte // the split ID, a part of ad
	keyShare  [keySize]byte
	check     [keyCheckSize]byte
	pub       [ed25519.PublicKeySize]byte
	sig       [sigSize]byte
	path      [maxDepth]node // depth(size) of them: the leaf's siblings, up
	seed      uint32         // recordSeed
	verified  sigState       // whether the signature was checked, and how it went
}

// A sigState is what is known of a header's signature.
type sigState uint8

const (
	sigUnchecked sigState = iota
	sigGood
	sigBad
)

// statement returns the batch statement the header's signature must
// cover: its common fields, and the root its leaf (a hash of its index
// and key share) reaches through its path: depth(size)+1 hashes, in a
// time that depends on no byte's value. The leaf is a one-way function of
// the key share that may be treated as public (docs/FORMAT.md; most leaves
// are in their siblings' paths): what follows it, the path and the
// signature, may take a time that depends on it.
func (h *header) statement() [stmtSize]byte {
	root := rootOf(leafOf(h.index, &h.keyShare), h.index-h.first, h.path[:depth(h.size)])
	var ad [adSize]byte
	copy(ad[:], h.ad[:])
	return batchStatement(&ad, h.gen, h.first, h.size, &h.check, &h.pub, &root)
}

// statementHolds reports whether stmt, a header's statement, holds for h:
// its public key and key check give its split ID, and the signature
// verifies under the public key. A signature verification: about 35 µs.
func (h *header) statementHolds(stmt *[stmtSize]byte) bool {
	return splitIDOf(&h.pub, &h.check) == h.id && ed25519.Verify(h.pub[:], stmt[:], h.sig[:])
}

// samePublic reports whether h and o have the same public bytes from the
// index on, the generation aside: the index, the batch, the signature and
// the path. Two headers that also have the same common fields, generation
// and key share are copies of one header.
func (h *header) samePublic(o *header) bool {
	return h.index == o.index && h.first == o.first && h.size == o.size && h.sig == o.sig && h.path == o.path
}

// signatureHolds reports whether the header was made by a holder of its
// split's key: its public key and key check give its split ID, and its
// leaf (its index and key share) reaches through its path a root whose
// batch statement the signature covers. It needs no key, and judges each
// header on its own: an outsider, who can copy every public field but not
// sign, fails it. The combiner asks only where the answer decides
// something, and checks each distinct statement once (combiner.holds):
// verify checks a statement, as statementHolds does.
//
// Constant time as far as the key share goes: it enters only the leaf's
// hash (statement); the path and the signature are then checked on the
// leaf, a public value, and on public bytes (crypto/ed25519 verifies in
// variable time).
func (h *header) signatureHolds(verify func(h *header, stmt *[stmtSize]byte) bool) bool {
	if h.verified == sigUnchecked {
		stmt := h.statement()
		h.verified = sigBad
		if verify(h, &stmt) {
			h.verified = sigGood
		}
	}
	return h.verified == sigGood
}

// parseHeader parses and checks the header at the start of a share. It
// returns the header, or nil and why it is bad.
func parseHeader(b []byte) (*header, Reason) {
	h := new(header)
	if why := parseHeaderTo(h, b); why != 0 {
		return nil, why
	}
	return h, 0
}

// parseHeaderTo is parseHeader into h. The header's length follows from
// its batch size, a byte: at most maxHeaderSize bytes are looked at,
// whatever b holds, and a batch size of 0, whose header has no length, is
// Damaged.
func parseHeaderTo(h *header, b []byte) Reason {
	if len(b) < len(ssmsMagic) || string(b[:len(ssmsMagic)]) != ssmsMagic {
		if len(b) < len(ssmsMagic) && string(b) == ssmsMagic[:len(b)] {
			return Truncated
		}
		return NotSSMS
	}
	if len(b) <= hdrVersion {
		return Truncated
	}
	if b[hdrVersion] != ssmsVersion {
		return Unsupported
	}
	if len(b) < hdrPrefix {
		return Truncated
	}
	if b[hdrBatchSize] == 0 {
		return Damaged
	}
	size := int(b[hdrBatchSize])
	d, hl := depth(size), headerLen(size)
	if len(b) < hl {
		return Truncated
	}
	ks := hdrPath + d*nodeSize // where the key share is
	*h = header{
		aead:      b[hdrAEAD],
		overhead:  aeadOverhead(b[hdrAEAD]),
		threshold: int(b[hdrThreshold]),
		chunkSize: int(binary.BigEndian.Uint32(b[hdrChunkSize:])),
		index:     int(b[hdrIndex]),
		gen:       binary.BigEndian.Uint32(b[hdrGeneration:]),
		first:     int(b[hdrBatchFirst]),
		size:      size,
		length:    hl,
		seed:      recordSeed(b),
	}
	if crc32.Checksum(b[:ks+keySize], castagnoli) != binary.BigEndian.Uint32(b[ks+keySize:]) {
		return Damaged
	}
	copy(h.ad[:], b[:adSize])
	copy(h.id[:], b[hdrSplitID:])
	copy(h.check[:], b[hdrKeyCheck:hdrPublicKey])
	copy(h.pub[:], b[hdrPublicKey:hdrSignature])
	copy(h.sig[:], b[hdrSignature:hdrPath])
	for i := range d {
		copy(h.path[i][:], b[hdrPath+i*nodeSize:])
	}
	copy(h.keyShare[:], b[ks:ks+keySize])
	if err := checkSSMS(maxIndex+1, h.threshold, h.chunkSize, h.aead); errors.Is(err, errUnknownAEAD) {
		return Unsupported
	} else if err != nil || h.index > maxIndex || h.first+h.size-1 > maxIndex || h.index < h.first || h.index >= h.first+h.size {
		return Damaged
	}
	h.x = keyX(h.index)
	return 0
}

// IsSSMS reports whether b, the start of a file or a message, starts as an
// SSMS share does: with the format's magic, "GFSSMS" (docs/FORMAT.md). It
// checks nothing else; [InspectSSMS] reads the header.
func IsSSMS(b []byte) bool {
	return len(b) >= len(ssmsMagic) && string(b[:len(ssmsMagic)]) == ssmsMagic
}

// An SSMSInfo is what the header of an SSMS share says of it.
type SSMSInfo struct {
	// Any Threshold shares of the split recover the secret.
	Threshold int
	// Index is the share's place in the split, from 0: SplitSSMS numbers
	// the shares it makes 0 to parts−1, and a split may be extended with
	// more, up to index 254. The header does not record how many shares
	// were made, so that extending a split changes no existing share.
	Index int
	// SplitID is the same in every share of one split, and commits to
	// the split's header signing key and, through its key check, to the
	// split's key (docs/FORMAT.md).
	SplitID SplitID
	// Generation is 0 for the shares a split is made with, and one more
	// after each refresh ([RefreshSSMS]): shares of different generations
	// do not combine.
	Generation uint32
	// HeaderSize is the length of the share's header, 184 to 312 bytes:
	// it grows with the number of shares the operation that made the share
	// made with it (its batch, docs/FORMAT.md). The records follow it.
	HeaderSize int
}

// InspectSSMS reads the header of an SSMS share, for which the share's first
// 312 bytes suffice (fewer for most: [SSMSInfo.HeaderSize]), and checks the
// header's own checksum; it does not look
// at the rest of the share. It fails, saying why, for a header that
// [CombineSSMS] would report with the reason [NotSSMS], [Truncated],
// [Unsupported] or [Damaged]. It does not check the header's signature:
// what it returns is what the header claims, which an outsider can copy
// from any share; the combining functions check signatures, and name
// [Forged] the headers that fail.
func InspectSSMS(share []byte) (SSMSInfo, error) {
	h, why := parseHeader(share)
	if h == nil {
		return SSMSInfo{}, fmt.Errorf("shamir: SSMS share header: %v", why)
	}
	return SSMSInfo{Threshold: h.threshold, Index: h.index, SplitID: h.id, Generation: h.gen, HeaderSize: h.length}, nil
}

// A record is one share's part of a sealed chunk.
type record struct {
	n    int  // the plaintext length of the chunk
	last bool // the chunk is the last one
	frag []byte
	body []byte // the record's bytes the tag covers: the length word and frag
	tag  []byte
}

// parseRecord checks the record rec of the share with header h for the chunk
// num; rec must have the length its first word implies (see recordSize).
func parseRecord(h *header, num *chunkNum, rec []byte) (record, Reason) {
	n, last, why := recordLength(h, binary.BigEndian.Uint64(num.be[:]), rec)
	if why != 0 {
		return record{}, why
	}
	f := fragSize(n, h.threshold, h.overhead)
	if len(rec) != recordOverhead+f {
		return record{}, Truncated
	}
	end := 4 + f + tagSize // where the CRC is
	if recordCRC(h.seed, num, rec[:end]) != binary.BigEndian.Uint32(rec[end:]) {
		return record{}, Damaged
	}
	return record{n: n, last: last, frag: rec[4 : 4+f], body: rec[:4+f], tag: rec[4+f : end]}, 0
}

// recordLength reads the length word of a record: every chunk but the last
// is full, and the last is empty only when it is the first (the secret is
// empty).
func recordLength(h *header, count uint64, rec []byte) (n int, last bool, why Reason) {
	if len(rec) < 4 {
		return 0, false, Truncated
	}
	v := binary.BigEndian.Uint32(rec)
	n, last = int(v&^lastFlag), v&lastFlag != 0
	if n > h.chunkSize || !last && n != h.chunkSize || n == 0 && count > 0 {
		return 0, false, Damaged
	}
	return n, last, 0
}

// recordSize is the length of a record whose first word is valid.
func recordSize(h *header, n int) int {
	return recordOverhead + fragSize(n, h.threshold, h.overhead)
}
