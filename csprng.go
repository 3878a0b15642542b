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
// Each call that needs randomness is one request. A request takes a generator
// from a pool and gets its own AES-256-CTR stream under the generator's key,
// from counter zero; the first 32 bytes of that stream become the generator's
// next key before any output is produced (fast key erasure). So every key is
// used for exactly one stream, no (key, counter) pair repeats, and a later
// compromise of a generator's state reveals nothing of earlier requests: the
// key that produced them is gone. Go cannot promise that a discarded key's
// memory is overwritten; the generator clears what it owns.

// A generator holds the key for its next request.
type generator struct {
	key [32]byte
}

var generators = sync.Pool{New: func() any {
	g := new(generator)
	if _, err := io.ReadFull(rand.Reader, g.key[:]); err != nil {
		// crypto/rand.Read never fails on supported platforms (Go 1.24+
		// crashes the program instead), and a generator without a key must
		// not exist.
		panic("shamir: crypto/rand failed: " + err.Error())
	}
	return g
}}

// systemReader is crypto/rand.Reader as the program started. Tests that make
// crypto/rand deterministic (testing/cryptotest.SetGlobalRandom) replace
// rand.Reader; then every request is keyed from it directly, so that the
// package's output becomes as deterministic as crypto/rand's.
var systemReader = rand.Reader

// newRandom returns the stream of one request, as an io.Reader for the
// routines that draw from it. The stream must not be shared between
// goroutines.
func newRandom() io.Reader {
	if rand.Reader != systemReader {
		var key [32]byte
		if _, err := io.ReadFull(rand.Reader, key[:]); err != nil {
			return errReader{err}
		}
		g := generator{key: key}
		clear(key[:])
		return g.begin()
	}
	g := generators.Get().(*generator)
	s := g.begin()
	generators.Put(g)
	return s
}

// begin starts a request: it returns the stream under g.key from counter
// zero, after replacing g.key with the stream's first 32 bytes.
func (g *generator) begin() *keystream {
	s := newKeystream(&g.key)
	s.Read(g.key[:])
	return s
}

// A keystream is an io.Reader of a stream cipher's keystream.
type keystream struct {
	ctr cipher.Stream
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

func newAESCTR(key *[32]byte, iv *[aes.BlockSize]byte) *keystream {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic("shamir: " + err.Error()) // unreachable: the key is 32 bytes
	}
	return &keystream{ctr: cipher.NewCTR(block, iv[:])}
}

// zeros is the plaintext the keystream is XORed into: reading it from the
// cache is cheaper than clearing p first, a second pass over p.
var zeros [4096]byte

// Read fills p with keystream. It never fails.
func (s *keystream) Read(p []byte) (int, error) {
	for i := 0; i < len(p); i += len(zeros) {
		n := min(len(zeros), len(p)-i)
		s.ctr.XORKeyStream(p[i:i+n], zeros[:n])
	}
	return len(p), nil
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
