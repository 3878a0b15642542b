package shamir

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"hash"
)

// Record tags (docs/FORMAT.md, Records). A record's CRC guards against
// accidents only: anyone can recompute it. Its tag is a MAC under a key
// derived from the split's key K, so that a record altered by anyone who
// does not know K (an outsider who can write a genuine share's file, or
// fewer than threshold holders) is told from a genuine one, once K is
// known, on its own: such a record is set aside before the chunk is
// decoded, and never counts in the decoding bound.
//
// The tag, 16 bytes, is a MAC under the record key
// K_r = HKDF-SHA256(K, no salt, "GFSSMS record key") over the record's
// index i, chunk number k and last flag, and its bytes up to the tag (its
// length word and fragment). For AEADs 1 and 2 it is the split's own AEAD
// sealing the empty plaintext with the record's bytes as associated data:
// GMAC (AES-256-GCM) or Poly1305 (ChaCha20-Poly1305), with the nonce
//
//	N_r = i (1 byte) ‖ k (10 bytes, big-endian) ‖ 1 for the last chunk, else 0
//
// unique per record under K_r: K_r serves one split (its key is drawn for
// it alone; a reshare draws a new one), and the record at (i, k) of a
// split is a function of the sealed chunk k, sealed once, so every record
// tagged under one nonce has the same bytes (a share made again is the same
// record, and the same tag). For AEAD 3 (FIPS 140-3 mode) it is
// HMAC-SHA256(K_r, N_r ‖ the record's bytes) truncated to 16 bytes:
// crypto/cipher's approved GCM draws its nonces at random, which would make
// a share made again differ from the original, and HMAC needs no nonce.
//
// The record key depends on K alone, not on the generation, so a refresh,
// which rewrites headers only, keeps every record and its tag.

// labelRecordKey is the HKDF info of the record key.
const labelRecordKey = "GFSSMS record key"

// tagSize is the length of a record's tag.
const tagSize = 16

// A tagger computes and checks the tags of one split's records. It is not
// safe for concurrent use: each sealer and decoder has its own, with its
// own nonce and scratch, so that computing a tag allocates nothing.
type tagger struct {
	aead  cipher.AEAD // AEADs 1 and 2: under the record key
	mac   hash.Hash   // AEAD 3: HMAC-SHA256 under the record key
	nonce [12]byte    // N_r
	sum   [sha256.Size]byte
}

// newTagger returns the tagger of the records of a split sealed with the
// AEAD id under key.
func newTagger(id byte, key *[keySize]byte) *tagger {
	rk := recordKey(key)
	defer clear(rk[:])
	return taggerOf(id, &rk)
}

// recordKey returns the record key of the split key key.
func recordKey(key *[keySize]byte) [keySize]byte {
	rk, err := hkdf.Key(sha256.New, key[:], nil, labelRecordKey, keySize)
	if err != nil {
		// Unreachable: HKDF refuses only outputs too long, or in FIPS
		// 140-3 mode keys shorter than 112 bits.
		panic("shamir: deriving the record key: " + err.Error())
	}
	defer clear(rk)
	return [keySize]byte(rk)
}

// taggerOf returns the tagger of the records of a split sealed with the
// AEAD id, under its record key rk.
func taggerOf(id byte, rk *[keySize]byte) *tagger {
	if id == aesGCMRandom {
		return &tagger{mac: hmac.New(sha256.New, rk[:])}
	}
	return &tagger{aead: mustAEAD(id, rk[:])}
}

// release erases the AEAD's expanded key where the package owns it (not
// crypto/hmac's or crypto/cipher's: docs/SECURITY.md).
func (g *tagger) release() {
	if g.aead != nil {
		wipeAEAD(g.aead)
	}
	if g.mac != nil {
		g.mac.Reset()
	}
	g.aead, g.mac = nil, nil
	clear(g.sum[:])
}

// setNonce sets N_r for the record of index index of the chunk num (whose
// nonce holds the chunk's number and last flag).
func (g *tagger) setNonce(index int, num *chunkNum) {
	// num.nonce is k in bytes 0…10, big-endian, and the last flag in byte
	// 11; k < 2^64, so byte 0 is 0 and N_r is the same with i there.
	g.nonce = num.nonce
	g.nonce[0] = byte(index)
}

// put writes into tag (tagSize bytes) the tag of the record body (its
// length word and fragment) of index index for chunk num. tag must not
// overlap body.
func (g *tagger) put(tag, body []byte, index int, num *chunkNum) {
	g.setNonce(index, num)
	if g.mac != nil {
		g.hmac(body)
		copy(tag, g.sum[:tagSize])
		return
	}
	g.aead.Seal(tag[:0], g.nonce[:], nil, body)
}

// hmac sets g.sum to HMAC-SHA256(K_r, N_r ‖ body).
func (g *tagger) hmac(body []byte) {
	g.mac.Reset()
	g.mac.Write(g.nonce[:])
	g.mac.Write(body)
	g.mac.Sum(g.sum[:0])
}

// holds reports whether tag is the tag of the record body of index index
// for chunk num, in constant time (the AEADs' Open; a constant-time
// comparison for HMAC).
func (g *tagger) holds(tag, body []byte, index int, num *chunkNum) bool {
	g.setNonce(index, num)
	if g.mac != nil {
		g.hmac(body)
		return subtle.ConstantTimeCompare(g.sum[:tagSize], tag) == 1
	}
	_, err := g.aead.Open(nil, g.nonce[:], tag, body)
	return err == nil
}
