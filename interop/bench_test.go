package interop

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gf256/shamir"
	vault "github.com/hashicorp/vault/shamir"
	"github.com/klauspost/reedsolomon"
)

// The benchmarks name the implementation second, so that benchstat and a
// reader see ours and Vault's side by side:
//
//	BenchmarkSplit/gf256/1MiB_n5_t3
//	BenchmarkSplit/gf256ssms/1MiB_n5_t3   (SplitSSMS: shares of len/3 bytes)
//	BenchmarkSplit/vault/1MiB_n5_t3
//
// Every buffer a benchmark reads, on both sides (this package's and Vault's
// or klauspost's), is filled with random bytes before the timing (fill):
// memory fresh from the operating system that was never written maps the
// kernel's shared zero page, so reads of it hit the cache, and a benchmark
// over such a buffer times far less memory traffic than real data causes.
// klauspost's Encode over never-written shards timed 5–7× faster than over
// shards with data in them.
type benchCase struct {
	size             int
	parts, threshold int
	vault            bool // Vault's package is measured too
}

func (c benchCase) name() string {
	return fmt.Sprintf("%s_n%d_t%d", sizeName(c.size), c.parts, c.threshold)
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

func benchCases() []benchCase {
	var cs []benchCase
	for _, size := range []int{32, 1 << 10, 1 << 20, 16 << 20} {
		for _, s := range []scheme{{5, 3}, {5, 2}, {10, 10}} {
			cs = append(cs, benchCase{size, s.parts, s.threshold, size <= 1<<20})
		}
	}
	// 64 MiB shows what -cpu 2 gains: long inputs are split over goroutines.
	return append(cs, benchCase{32, 255, 255, true}, benchCase{64 << 20, 5, 3, false})
}

// fill fills p with pseudo-random bytes from seed.
func fill(p []byte, seed uint64) []byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	rand.NewChaCha8(s).Read(p)
	return p
}

// random returns n pseudo-random bytes from seed.
func random(n int, seed uint64) []byte { return fill(make([]byte, n), seed) }

type splitFunc func([]byte, int, int) ([][]byte, error)

// BenchmarkSplit times Split, SplitSSMS and Vault's Split of a secret of
// random bytes, filled so that no implementation reads the zero page.
func BenchmarkSplit(b *testing.B) {
	impls := []struct {
		name  string
		split splitFunc
	}{{"gf256", shamir.Split}, {"gf256ssms", shamir.SplitSSMS}, {"vault", vault.Split}}
	for _, c := range benchCases() {
		for _, impl := range impls {
			if impl.name == "vault" && !c.vault || impl.name == "gf256ssms" && c.size < 1<<20 {
				continue
			}
			b.Run(impl.name+"/"+c.name(), func(b *testing.B) {
				secret := random(c.size, 1)
				b.SetBytes(int64(c.size))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := impl.split(secret, c.parts, c.threshold); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// combineSSMS is CombineSSMS with Combine's signature: an error when it did
// not recover the secret.
func combineSSMS(shares [][]byte) ([]byte, error) {
	secret, _, err := shamir.CombineSSMS(shares)
	return secret, err
}

// BenchmarkCombine times Combine, CombineSSMS and Vault's Combine of the
// shares of a secret of random bytes; the shares are written by Split, so
// no implementation reads the zero page.
func BenchmarkCombine(b *testing.B) {
	impls := []struct {
		name    string
		combine func([][]byte) ([]byte, error)
	}{{"gf256", shamir.Combine}, {"gf256ssms", combineSSMS}, {"vault", vault.Combine}}
	for _, c := range benchCases() {
		for _, impl := range impls {
			if impl.name == "vault" && !c.vault || impl.name == "gf256ssms" && c.size < 1<<20 {
				continue
			}
			split := shamir.Split
			if impl.name == "gf256ssms" {
				split = shamir.SplitSSMS
			}
			b.Run(impl.name+"/"+c.name(), func(b *testing.B) {
				shares, err := split(random(c.size, 1), c.parts, c.threshold)
				if err != nil {
					b.Fatal(err)
				}
				shares = shares[:c.threshold]
				b.SetBytes(int64(c.size))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := impl.combine(shares); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkParity times the multiply-add work of Combine with threshold t
// in a form klauspost/reedsolomon also computes: one output row from t input
// rows of 1 MiB. gf256's Combine is the same work plus the Lagrange weights
// and the allocation of the secret (and the garbage collections it brings
// about); gf256append, AppendCombine into a reused buffer, is without the
// allocation. klauspost's shards, the parity shard too, are filled with
// random bytes, as the shares are (by Split, of a random secret) and
// AppendCombine's buffer is: before they were, klauspost read the zero page
// and timed 5–7× faster than over data.
func BenchmarkParity(b *testing.B) {
	const size = 1 << 20
	for _, t := range []int{3, 5, 10, 16} {
		b.Run(fmt.Sprintf("klauspost/%dx1MiB_1", t), func(b *testing.B) {
			enc, err := reedsolomon.New(t, 1)
			if err != nil {
				b.Fatal(err)
			}
			shards := make([][]byte, t+1)
			for i := range shards {
				shards[i] = random(size, uint64(10+i))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if err := enc.Encode(shards); err != nil {
					b.Fatal(err)
				}
			}
		})
		// AppendCombine into a buffer that is reused, as klauspost's Encode
		// writes into a parity shard that is: the same work with no
		// allocation.
		b.Run(fmt.Sprintf("gf256append/%dx1MiB_1", t), func(b *testing.B) {
			shares, err := shamir.Split(random(size, 1), t, t)
			if err != nil {
				b.Fatal(err)
			}
			buf := random(size, 2)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := shamir.AppendCombine(buf[:0], shares); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gf256/%dx1MiB_1", t), func(b *testing.B) {
			shares, err := shamir.Split(random(size, 1), t, t)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := shamir.Combine(shares); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSplitFloor/klauspost times klauspost/reedsolomon on the shape
// of Split's multiply-adds for 1 MiB with (5, 3): 3 data shards (Split's
// secret and 2 random rows) into 3 parity shards (the other 3 shares).
// Every shard, the parity ones too, is filled with random bytes, as Split's
// rows are. The other parts of Split's floor (the allocation of the shares,
// the package's own keystream and its own multiply-adds) are unexported,
// so BenchmarkSplitFloor in the root package times them, and Split itself,
// under the same name: go test -bench SplitFloor there.
func BenchmarkSplitFloor(b *testing.B) {
	const size = 1 << 20
	b.Run("klauspost/3x1MiB_3", func(b *testing.B) {
		enc, err := reedsolomon.New(3, 3)
		if err != nil {
			b.Fatal(err)
		}
		shards := make([][]byte, 6)
		for i := range shards {
			shards[i] = random(size, uint64(20+i))
		}
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if err := enc.Encode(shards); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRS times klauspost/reedsolomon on the shapes of the
// Reed–Solomon part of SplitSSMS and CombineSSMS with (5, 3): 1 MiB of data
// in 3 shards and 2 parity shards; encoding, and rebuilding data shards 0
// and 1 from shards 2, 3 and 4. The package's own code for the same work is
// internal: BenchmarkRSEncode and BenchmarkRSDecode in the root package.
// Every shard, parity and lost ones too, is filled with random bytes, as
// the root benchmarks' fragments are.
func BenchmarkRS(b *testing.B) {
	const size = 1 << 20
	shard := (size + 2) / 3
	shards := func() [][]byte {
		s := make([][]byte, 5)
		for i := range s {
			s[i] = random(shard, uint64(30+i))
		}
		return s
	}
	enc, err := reedsolomon.New(3, 2)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("klauspost/encode_1MiB_n5_t3", func(b *testing.B) {
		s := shards()
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if err := enc.Encode(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("klauspost/decode_1MiB_n5_t3", func(b *testing.B) {
		s := shards()
		if err := enc.Encode(s); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			// ReconstructData reuses the capacity of lost shards, as the
			// root benchmark reuses its output rows.
			s[0], s[1] = s[0][:0], s[1][:0]
			if err := enc.ReconstructData(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
