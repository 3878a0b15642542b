package shamir

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The AES-256-CTR keystream must be crypto/cipher's, byte for byte, however
// it is produced and however it is read: the test vectors of Split are made
// with it.

// aesCTRImpls are the constructors of AES-256-CTR keystreams to test:
// newAESCTR as the package uses it (the assembly where the CPU has it) and
// the crypto/cipher path it falls back to.
var aesCTRImpls = []struct {
	name string
	new  func(key *[32]byte, iv *[16]byte) *keystream
}{
	{"newAESCTR", newAESCTR},
	{"stdlib", newAESCTRStdlib},
}

// ctrReference returns n bytes of keystream from crypto/cipher directly.
func ctrReference(key *[32]byte, iv *[16]byte, n int) []byte {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err)
	}
	out := make([]byte, n)
	cipher.NewCTR(block, iv[:]).XORKeyStream(out, out)
	return out
}

// makeIV returns the counter block with high and low 64 bits hi and lo.
func makeIV(hi, lo uint64) *[16]byte {
	var iv [16]byte
	binary.BigEndian.PutUint64(iv[:8], hi)
	binary.BigEndian.PutUint64(iv[8:], lo)
	return &iv
}

// testIVs returns counters that start the stream at random, at zero, and at
// the wraps: of the low 64 bits (carrying into the high ones) at every block
// of the first two 16-block groups and of the tail, and of all 128 bits.
func testIVs(rng *rand.Rand) []*[16]byte {
	ivs := []*[16]byte{
		makeIV(rng.Uint64(), rng.Uint64()),
		makeIV(0, 0),
		makeIV(rng.Uint64(), 0),
		makeIV(^uint64(0), ^uint64(0)), // the 128-bit wrap after one block
		makeIV(^uint64(0), ^uint64(0)-20),
		makeIV(^uint64(0)-1, ^uint64(0)),
	}
	for _, k := range []uint64{0, 1, 2, 7, 14, 15, 16, 17, 18, 31, 32, 33, 36, 37} {
		ivs = append(ivs, makeIV(rng.Uint64(), ^uint64(0)-k))
	}
	return ivs
}

func randomKey(rng *rand.Rand) *[32]byte {
	var key [32]byte
	for i := range key {
		key[i] = byte(rng.Uint32())
	}
	return &key
}

// readPieces reads len(p) bytes from s in random pieces, often of zero or
// one byte or a block's length give or take one.
func readPieces(rng *rand.Rand, s *keystream, p []byte, maxPiece int) {
	for len(p) > 0 {
		var n int
		switch rng.IntN(4) {
		case 0:
			n = rng.IntN(3)
		case 1:
			n = 15 + rng.IntN(3)
		default:
			n = rng.IntN(maxPiece + 1)
		}
		n = min(n, len(p))
		s.Read(p[:n])
		p = p[n:]
	}
}

// TestAESCTRPath checks that newAESCTR takes the assembly exactly when this
// build and CPU have it, and says which path it took.
func TestAESCTRPath(t *testing.T) {
	want, why := aesCTRAsmExpected()
	s := newAESCTR(new([32]byte), new([16]byte))
	got := s.ctr == nil
	path := "crypto/cipher (" + why + ")"
	if got {
		path = aesCTRAsm + " assembly (" + why + ")"
	}
	fmt.Printf("shamir: active AES-256-CTR %s\n", path)
	t.Logf("newAESCTR uses %s", path)
	if got != want {
		t.Fatalf("newAESCTR uses the assembly: %v, want %v", got, want)
	}
	// Without the assembly, it falls back to crypto/cipher.
	defer func(saved bool) { useAESCTRAsm = saved }(useAESCTRAsm)
	useAESCTRAsm = false
	if newAESCTR(new([32]byte), new([16]byte)).ctr == nil {
		t.Fatal("newAESCTR uses the assembly when told not to")
	}
}

// TestAESCTRLengths compares every length from 0 to 600 bytes, read in one
// piece and in random pieces into the middle of a larger buffer, with
// crypto/cipher, for random keys and counters around the wraps.
func TestAESCTRLengths(t *testing.T) {
	const maxLen = 600
	rng := rand.New(rand.NewPCG(1, 2))
	keys := 8
	if testing.Short() {
		keys = 2
	}
	for _, impl := range aesCTRImpls {
		t.Run(impl.name, func(t *testing.T) {
			buf := make([]byte, maxLen+64)
			for range keys {
				key := randomKey(rng)
				for _, iv := range testIVs(rng) {
					want := ctrReference(key, iv, maxLen)
					for n := 0; n <= maxLen; n++ {
						for pieces := range 2 {
							for i := range buf {
								buf[i] = 0xa5
							}
							got := buf[32 : 32+n]
							s := impl.new(key, iv)
							if pieces == 0 {
								s.Read(got)
							} else {
								readPieces(rng, s, got, 70)
							}
							if !bytes.Equal(got, want[:n]) {
								t.Fatalf("key %x iv %x: %d bytes (pieces %v)\n got %x\nwant %x", key[:], iv[:], n, pieces == 1, got, want[:n])
							}
							for i, b := range buf {
								if (i < 32 || i >= 32+n) && b != 0xa5 {
									t.Fatalf("key %x iv %x: reading %d bytes wrote at offset %d of the buffer", key[:], iv[:], n, i-32)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestAESCTRLong reads a long stream in random pieces, up to some blocks of
// 16, from random counters and from ones whose low 64 bits wrap within one
// large read.
func TestAESCTRLong(t *testing.T) {
	const size = 1<<20 + 123
	rng := rand.New(rand.NewPCG(3, 4))
	ivs := []*[16]byte{
		makeIV(rng.Uint64(), rng.Uint64()),
		makeIV(rng.Uint64(), ^uint64(0)-40000), // wraps 640 KiB in
		makeIV(^uint64(0), ^uint64(0)-1000),    // wraps all 128 bits 16 KiB in
	}
	for _, impl := range aesCTRImpls {
		t.Run(impl.name, func(t *testing.T) {
			for _, iv := range ivs {
				key := randomKey(rng)
				want := ctrReference(key, iv, size)
				for _, maxPiece := range []int{100, 3000, 300000} {
					got := make([]byte, size)
					readPieces(rng, impl.new(key, iv), got, maxPiece)
					if i := firstDifference(got, want); i >= 0 {
						t.Fatalf("iv %x, pieces up to %d bytes: the stream differs from byte %d", iv[:], maxPiece, i)
					}
				}
				// One read of it all.
				got := make([]byte, size)
				impl.new(key, iv).Read(got)
				if i := firstDifference(got, want); i >= 0 {
					t.Fatalf("iv %x, one read: the stream differs from byte %d", iv[:], i)
				}
			}
		})
	}
}

func firstDifference(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestKeystreamWipe checks that wipe erases the assembly's round keys,
// counter and unread keystream, and that a wiped keystream is not read.
func TestKeystreamWipe(t *testing.T) {
	for _, impl := range aesCTRImpls {
		t.Run(impl.name, func(t *testing.T) {
			key := randomKey(rand.New(rand.NewPCG(5, 6)))
			s := impl.new(key, makeIV(1, 2))
			s.Read(make([]byte, 21)) // leaves 11 bytes of a block unread
			s.wipe()
			if s.ctr != nil || s.asm != (aesCTR{}) {
				t.Fatal("wipe left state behind")
			}
			defer func() {
				if recover() == nil {
					t.Fatal("a wiped keystream was read")
				}
			}()
			s.Read(make([]byte, 1))
		})
	}
}

// BenchmarkKeystream measures AES-256-CTR keystream by implementation and
// read size. The stdlib one is crypto/cipher's CTR XORed into zeros, as
// keystream.Read does without the assembly. Neither reads the output
// buffer (the stdlib one reads the package's zeros instead), but it is
// filled with random bytes first all the same, so that its pages are
// mapped before the timing starts.
func BenchmarkKeystream(b *testing.B) {
	impls := []struct {
		name string
		new  func(key *[32]byte, iv *[16]byte) *keystream
	}{
		{aesCTRAsm, newAESCTR},
		{"stdlib", newAESCTRStdlib},
	}
	for _, impl := range impls {
		for _, size := range []struct {
			name string
			n    int
		}{{"64B", 64}, {"4KiB", 4 << 10}, {"1MiB", 1 << 20}} {
			b.Run(impl.name+"/"+size.name, func(b *testing.B) {
				if impl.name == aesCTRAsm && !useAESCTRAsm {
					b.Skip("no AES-CTR assembly on this CPU or build")
				}
				s := impl.new(new([32]byte), new([16]byte))
				buf := make([]byte, size.n)
				benchFill(buf, 6)
				b.SetBytes(int64(size.n))
				for b.Loop() {
					s.Read(buf)
				}
			})
		}
	}
}
