package shamir

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"io"
	"sync"

	"golang.org/x/crypto/chacha20"
)

// Every random byte the package uses — polynomial coefficients, x
// coordinates, SSMS keys — comes from AES-256-CTR keyed from crypto/rand.
// Where the CPU has no AES instructions (and in purego builds), the standard
// library's AES is table-driven software whose timing depends on the key;
// the stream is then ChaCha20 instead, which is constant time in plain Go.
// crypto/rand alone would do, but it costs a system call per read and runs at
// a fraction of AES-NI's speed; Split of a large secret needs
// (threshold-1)·len(secret) random bytes.
//
// The generators are fast-key-erasure generators (after Bernstein, 2017). A
// generator holds a key and a buffer of keystream not yet handed out. To
// refill the buffer it runs the stream under its key from counter zero: the
// first 32 bytes become its next key, before anything else, and the rest fill
// the buffer; bytes are erased from the buffer as they are handed out. So
// every key is used for exactly one stream, no (key, counter) pair repeats,
// and a later compromise of a generator's state reveals nothing it has
// already handed out. Go cannot promise that a discarded key's memory is
// overwritten; the generator clears what it owns, and a keystream clears its
// round keys when it ends (wipe) where they are the package's own (the
// amd64 assembly, aesctr_amd64.go), not crypto/aes's or chacha20's.
//
// Each call that needs randomness is one request. A request takes a
// generator from a pool and serves small reads (x coordinates, a key, the
// coefficients of a short secret) from its buffer, which spares a cipher
// set-up per call; its first large read instead draws a 32-byte key from the
// generator for a stream of the request's own, which serves the rest. The
// request gives the generator back when it ends.
//
// In FIPS 140-3 mode (fips.go) there is no generator: a request reads
// crypto/rand, the Go Cryptographic Module's DRBG, for every byte.

// A generator is one fast-key-erasure generator, and the state of the
// request it serves. It is not safe for concurrent use; the pool hands each
// to one request at a time.
type generator struct {
	key [32]byte
	buf [4096]byte
	pos int // buf[pos:] is not handed out yet

	// The request the generator serves.
	stream *keystream // the request's own stream, after its first large read
	src    io.Reader  // FIPS mode: crypto/rand.Reader, read for every byte
	err    error      // why the request has no randomness
	pooled bool
}

// smallRead is the largest read a request serves from its generator's
// buffer: a key, x coordinates, the coefficients of a secret of a few dozen
// bytes. A larger read pays for a cipher of its own once, which then serves
// the rest of the request.
const smallRead = 128

var generators = sync.Pool{New: func() any {
	g := &generator{pooled: true}
	g.pos = len(g.buf)
	if _, err := io.ReadFull(rand.Reader, g.key[:]); err != nil {
		// crypto/rand.Read never fails on supported platforms (Go 1.24+
		// crashes the program instead), and a generator without a key must
		// not exist.
		panic("shamir: crypto/rand failed: " + err.Error())
	}
	return g
}}

// read fills p with the generator's output.
func (g *generator) read(p []byte) {
	for len(p) > 0 {
		if g.pos == len(g.buf) {
			s := newKeystream(&g.key)
			s.Read(g.key[:]) // the next key, first
			s.Read(g.buf[:])
			s.wipe()
			g.pos = 0
		}
		n := copy(p, g.buf[g.pos:])
		clear(g.buf[g.pos : g.pos+n])
		g.pos += n
		p = p[n:]
	}
}

// systemReader is crypto/rand.Reader as the program started. Tests that make
// crypto/rand deterministic (testing/cryptotest.SetGlobalRandom) replace
// rand.Reader; then every request is keyed from it directly, so that the
// package's output becomes as deterministic as crypto/rand's.
var systemReader = rand.Reader

// drbgRequest is every FIPS-mode request while crypto/rand.Reader is
// systemReader: it holds no state, so goroutines may share it.
var drbgRequest = &generator{src: systemReader}

// newRandom starts a request: the generator it returns is the request's
// until release. It must not be shared between goroutines.
//
// In FIPS mode, the request reads crypto/rand.Reader directly: the module's
// DRBG, or the reader a test put in its place.
func newRandom() *generator {
	if fipsMode {
		if randomIsSystem() {
			return drbgRequest
		}
		return &generator{src: rand.Reader}
	}
	if rand.Reader != systemReader {
		g := new(generator)
		var key [32]byte
		if _, err := io.ReadFull(rand.Reader, key[:]); err != nil {
			g.err = err
			return g
		}
		defer clear(key[:])
		g.stream = newKeystream(&key)
		return g
	}
	return generators.Get().(*generator)
}

// randomIsSystem reports whether crypto/rand.Reader is the one the program
// started with, not a test's (testing/cryptotest.SetGlobalRandom replaces
// it, and the module's DRBG with it).
func randomIsSystem() bool { return rand.Reader == systemReader }

// readsDRBG reports whether rng is a request that reads the module's DRBG
// directly, which is safe for concurrent use.
func readsDRBG(rng io.Reader) bool {
	g, ok := rng.(*generator)
	return ok && g.src == systemReader
}

// Read fills p with the request's random bytes. It fails only if crypto/rand
// did.
func (g *generator) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if g.stream == nil {
		if g.src != nil {
			return io.ReadFull(g.src, p)
		}
		if len(p) <= smallRead {
			g.read(p)
			return len(p), nil
		}
		var key [32]byte
		g.read(key[:])
		g.stream = newKeystream(&key)
		clear(key[:])
	}
	return g.stream.Read(p)
}

// release ends the request and gives the generator back to the pool. A
// request that is not released only costs the pool a generator.
func (g *generator) release() {
	if g.stream != nil {
		g.stream.wipe()
		g.stream = nil
	}
	if g.pooled {
		generators.Put(g)
	}
}

// A keystream is an io.Reader of a stream cipher's keystream.
type keystream struct {
	ctr cipher.Stream // ChaCha20, or AES-256-CTR from crypto/cipher; nil if asm is used
	asm aesCTR        // AES-256-CTR in assembly (aesctr_amd64.go), if ctr is nil
}

// newKeystream returns the keystream of AES-256-CTR under key from counter
// zero, or of ChaCha20 with a zero nonce where AES is not in hardware. Each
// key must be used for one keystream only.
func newKeystream(key *[32]byte) *keystream {
	if !hasAESHardware {
		c, err := chacha20.NewUnauthenticatedCipher(key[:], make([]byte, chacha20.NonceSize))
		if err != nil {
			panic("shamir: " + err.Error()) // unreachable: the sizes are right
		}
		return &keystream{ctr: c}
	}
	return newAESCTR(key, new([aes.BlockSize]byte))
}

// newAESCTR returns the keystream of AES-256-CTR under key from counter iv:
// the assembly where this CPU runs it, crypto/cipher otherwise. Both make
// the same stream.
func newAESCTR(key *[32]byte, iv *[aes.BlockSize]byte) *keystream {
	if useAESCTRAsm {
		s := new(keystream)
		s.asm.init(key, iv)
		return s
	}
	return newAESCTRStdlib(key, iv)
}

// newAESCTRStdlib is newAESCTR with crypto/aes and crypto/cipher.NewCTR.
func newAESCTRStdlib(key *[32]byte, iv *[aes.BlockSize]byte) *keystream {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic("shamir: " + err.Error()) // unreachable: the key is 32 bytes
	}
	return &keystream{ctr: cipher.NewCTR(block, iv[:])}
}

// zeros is the plaintext the keystream is XORed into: reading it from the
// cache is cheaper than clearing p first, a second pass over p.
var zeros [4096]byte

// Read fills p with keystream. It never fails; it panics after wipe.
func (s *keystream) Read(p []byte) (int, error) {
	if s.ctr == nil {
		s.asm.read(p)
		return len(p), nil
	}
	for i := 0; i < len(p); i += len(zeros) {
		n := min(len(zeros), len(p)-i)
		s.ctr.XORKeyStream(p[i:i+n], zeros[:n])
	}
	return len(p), nil
}

// wipe ends the keystream: it erases the round keys and unread keystream the
// package holds (those of the assembly), and drops crypto/cipher's stream,
// whose memory Go does not let the package clear. Read panics after it.
func (s *keystream) wipe() {
	s.ctr = nil
	s.asm.wipe()
}
