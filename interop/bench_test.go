package interop

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
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

type splitFunc func([]byte, int, int) ([][]byte, error)

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
				secret := make([]byte, c.size)
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
				shares, err := split(make([]byte, c.size), c.parts, c.threshold)
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

// BenchmarkParity measures the multiply-add work of Combine with threshold t
// in a form klauspost/reedsolomon also computes: one output row from t input
// rows of 1 MiB. gf256's Combine is the same work plus the Lagrange weights
// and the allocation of the secret (and the garbage collections it brings
// about); gf256append, AppendCombine into a reused buffer, is without the
// allocation.
func BenchmarkParity(b *testing.B) {
	const size = 1 << 20
	for _, t := range []int{3, 10} {
		b.Run(fmt.Sprintf("klauspost/%dx1MiB_1", t), func(b *testing.B) {
			enc, err := reedsolomon.New(t, 1)
			if err != nil {
				b.Fatal(err)
			}
			shards := make([][]byte, t+1)
			for i := range shards {
				shards[i] = make([]byte, size)
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
			shares, err := shamir.Split(make([]byte, size), t, t)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, size)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := shamir.AppendCombine(buf[:0], shares); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gf256/%dx1MiB_1", t), func(b *testing.B) {
			shares, err := shamir.Split(make([]byte, size), t, t)
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

// BenchmarkSplitFloor measures what Split of 1 MiB with (5,3) cannot avoid:
// (threshold-1)·1 MiB of AES-256-CTR keystream for the random rows, the
// multiply-adds of interpolation, (parts-threshold+1)·threshold row products,
// here at klauspost/reedsolomon's speed (3 data rows into 3 parity rows), and
// the allocation of the 5 shares it returns (Go zeroes it).
func BenchmarkSplitFloor(b *testing.B) {
	const size = 1 << 20
	b.Run("alloc/5MiB", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			sink = make([]byte, 5*(size+1))
		}
	})
	b.Run("aes256ctr/2MiB", func(b *testing.B) {
		block, _ := aes.NewCipher(make([]byte, 32))
		ctr := cipher.NewCTR(block, make([]byte, 16))
		buf := make([]byte, 2*size)
		b.SetBytes(size) // per byte of secret
		for b.Loop() {
			ctr.XORKeyStream(buf, buf)
		}
	})
	b.Run("klauspost/3x1MiB_3", func(b *testing.B) {
		enc, err := reedsolomon.New(3, 3)
		if err != nil {
			b.Fatal(err)
		}
		shards := make([][]byte, 6)
		for i := range shards {
			shards[i] = make([]byte, size)
		}
		b.SetBytes(size)
		for b.Loop() {
			if err := enc.Encode(shards); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var sink []byte

// BenchmarkRS measures klauspost/reedsolomon on the shapes of the
// Reed–Solomon part of SplitSSMS and CombineSSMS with (5, 3): 1 MiB of data
// in 3 shards and 2 parity shards; encoding, and rebuilding data shards 0
// and 1 from shards 2, 3 and 4. The package's own code for the same work is
// internal: BenchmarkRSEncode and BenchmarkRSDecode in the root package.
func BenchmarkRS(b *testing.B) {
	const size = 1 << 20
	shard := (size + 2) / 3
	shards := func() [][]byte {
		s := make([][]byte, 5)
		for i := range s {
			s[i] = make([]byte, shard)
			for j := range s[i] {
				s[i][j] = byte(i*31 + j)
			}
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
