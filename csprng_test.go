package shamir

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"sync"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestKeystreamNIST checks the AES-256-CTR keystream, key erasure aside,
// against NIST SP 800-38A, appendix F.5.5 (CTR-AES256.Encrypt).
func TestKeystreamNIST(t *testing.T) {
	var key [32]byte
	var iv [16]byte
	copy(key[:], unhex(t, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
	copy(iv[:], unhex(t, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"))
	plain := unhex(t, "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"+
		"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
	want := unhex(t, "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"+
		"2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")
	s := newAESCTR(&key, &iv)
	// Read in uneven pieces: the stream must not depend on how it is read.
	got := make([]byte, len(plain))
	for _, r := range [][2]int{{0, 5}, {5, 16}, {16, 47}, {47, 64}} {
		s.Read(got[r[0]:r[1]])
	}
	for i := range got {
		got[i] ^= plain[i]
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("CTR-AES256 ciphertext\n got %x\nwant %x", got, want)
	}
}

// TestKeyErasure checks the generator: its output is the keystream under its
// key after the first 32 bytes, those 32 bytes become its next key, and the
// bytes it hands out are erased from its buffer.
func TestKeyErasure(t *testing.T) {
	t.Run("aes", func(t *testing.T) { testKeyErasure(t, true) })
	t.Run("chacha20", func(t *testing.T) { testKeyErasure(t, false) })
}

func testKeyErasure(t *testing.T, aes bool) {
	defer func(saved bool) { hasAESHardware = saved }(hasAESHardware)
	hasAESHardware = aes
	var key [32]byte
	copy(key[:], "fast key erasure test key 32 byt")
	g := generator{key: key}
	g.pos = len(g.buf)
	raw := make([]byte, 32+len(g.buf))
	newKeystream(&key).Read(raw)
	var zero [16]byte
	if aes {
		// The stream is AES-256-CTR from counter zero.
		block := make([]byte, 16)
		newAESCTR(&key, &zero).Read(block)
		if !bytes.Equal(block, raw[:16]) {
			t.Fatal("the keystream is not AES-256-CTR from counter zero")
		}
	}

	out := make([]byte, 100)
	g.read(out)
	if !bytes.Equal(out, raw[32:132]) {
		t.Fatal("the output is not the keystream after the next key")
	}
	if !bytes.Equal(g.key[:], raw[:32]) {
		t.Fatal("the next key is not the keystream's first 32 bytes")
	}
	if !bytes.Equal(g.buf[:100], make([]byte, 100)) {
		t.Fatal("bytes handed out are still in the buffer")
	}
	// Reading past the buffer refills it under the next key.
	rest := make([]byte, len(g.buf))
	g.read(rest)
	if !bytes.Equal(rest[:len(g.buf)-100], raw[132:]) {
		t.Fatal("the buffer was not read to its end")
	}
	next := make([]byte, 32+100)
	newKeystream((*[32]byte)(raw[:32])).Read(next)
	if !bytes.Equal(rest[len(g.buf)-100:], next[32:]) {
		t.Fatal("the refill is not the keystream under the next key")
	}
	if bytes.Equal(g.key[:], raw[:32]) {
		t.Fatal("the key was not replaced at the refill")
	}
}

// TestRequestLargeReads checks that a request's large reads come from a
// stream of its own, and that requests never repeat each other.
func TestRequestLargeReads(t *testing.T) {
	skipIfFIPS(t, "requests read crypto/rand, not a generator's streams")
	a, b := newRandom(), newRandom()
	defer a.release()
	defer b.release()
	small := make([]byte, 40)
	big := make([]byte, 3*smallRead)
	big2 := make([]byte, 3*smallRead)
	io.ReadFull(a, small)
	io.ReadFull(a, big)
	io.ReadFull(b, big2)
	if bytes.Equal(big, big2) || bytes.Equal(big[:40], small) {
		t.Fatal("requests repeated output")
	}
	if a.stream == nil {
		t.Fatal("a large read did not give the request its own stream")
	}
}

func TestGeneratorsDiffer(t *testing.T) {
	seen := make(map[string]bool)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				b := make([]byte, 32)
				if _, err := io.ReadFull(newRandom(), b); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[string(b)] {
					t.Error("two requests returned the same bytes")
				}
				seen[string(b)] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestRandomBytesLookUniform is a coarse sanity check of the generator's
// output: every byte value occurs about equally often in 1 MiB.
func TestRandomBytesLookUniform(t *testing.T) {
	b := make([]byte, 1<<20)
	io.ReadFull(newRandom(), b)
	var count [256]int
	for _, v := range b {
		count[v]++
	}
	// Expected 4096 per value, standard deviation 64: ±8σ never fails by chance.
	for v, c := range count {
		if c < 4096-512 || c > 4096+512 {
			t.Fatalf("byte %#x occurs %d times in 1 MiB", v, c)
		}
	}
}

// TestKeystreamChaCha20 checks the stream used where AES is not in hardware
// against RFC 8439, appendix A.1, test vector #1 (zero key, zero nonce,
// counter 0).
func TestKeystreamChaCha20(t *testing.T) {
	defer func(saved bool) { hasAESHardware = saved }(hasAESHardware)
	hasAESHardware = false
	var key [32]byte
	got := make([]byte, 64)
	newKeystream(&key).Read(got)
	want := unhex(t, "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"+
		"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586")
	if !bytes.Equal(got, want) {
		t.Fatalf("ChaCha20 keystream\n got %x\nwant %x", got, want)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errFailing }

var errFailing = errors.New("entropy source failed")

// TestRandomnessFailure checks that a failing crypto/rand.Reader (as a test
// or a program may install) makes Split and SplitSSMS fail cleanly.
func TestRandomnessFailure(t *testing.T) {
	defer func(saved io.Reader) { rand.Reader = saved }(rand.Reader)
	rand.Reader = failingReader{}
	if _, err := Split([]byte("secret"), 3, 2); !errors.Is(err, errFailing) {
		t.Errorf("Split with failing randomness: %v", err)
	}
	if _, err := SplitSSMS([]byte("secret"), 3, 2); !errors.Is(err, errFailing) {
		t.Errorf("SplitSSMS with failing randomness: %v", err)
	}
	// Reads of a keystream, unlike those of crypto/rand, cannot fail: a long
	// secret derives its chunk keys first, and fails there.
	if _, err := Split(make([]byte, 3*parallelChunk), 3, 2); !errors.Is(err, errFailing) {
		t.Errorf("Split of a long secret with failing randomness: %v", err)
	}
}
