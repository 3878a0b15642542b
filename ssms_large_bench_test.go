package shamir

import (
	"testing"
)

// BenchmarkSSMS64MiB times SplitSSMS and CombineSSMS of a 64 MiB secret, (5,
// 3): both spread their chunks over GOMAXPROCS goroutines, so compare -cpu 1
// with -cpu 2.
func BenchmarkSSMS64MiB(b *testing.B) {
	const size = 64 << 20
	secret := testSecret(size, 2)
	shares, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Split_n5_t3", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SplitSSMS(secret, 5, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Combine_n5_t3", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if got, _, _ := CombineSSMS(shares[:3]); got == nil {
				b.Fatal("not recovered")
			}
		}
	})
}

// BenchmarkCombineSSMSForged times CombineSSMS of all 255 shares of a 1000
// byte secret made with threshold 128, one of them forged at index 0 (its
// checksums recomputed): the first 128 shares do not open the chunk, and
// error correction finds the forged one.
func BenchmarkCombineSSMSForged(b *testing.B) {
	secret := testSecret(1000, 3)
	shares, err := SplitSSMS(secret, 255, 128)
	if err != nil {
		b.Fatal(err)
	}
	shares[0] = append([]byte(nil), shares[0]...)
	forgeBytes(shares[0], []int{hl(shares[0]) + 4 + 2}, 0x33)
	b.Run("n255_t128_index0", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if got, bad, _ := CombineSSMS(shares); got == nil || len(bad) != 1 {
				b.Fatal("not recovered")
			}
		}
	})
}

// BenchmarkCombineSSMSCopies times CombineSSMS of 100,000 copies of one
// share of a 32-byte secret and the two other shares of its (3, 2) split:
// copies are grouped in time linear in the input (issue #18, item 4; with
// format 2, 40,000 copies took 7.6 s and 100,000 44.6 s).
func BenchmarkCombineSSMSCopies(b *testing.B) {
	secret := testSecret(32, 5)
	shares, err := SplitSSMS(secret, 3, 2)
	if err != nil {
		b.Fatal(err)
	}
	given := make([][]byte, 0, 100002)
	for range 100000 {
		given = append(given, shares[0])
	}
	given = append(given, shares[1], shares[2])
	b.ReportAllocs()
	for b.Loop() {
		if got, _, _ := CombineSSMS(given); got == nil {
			b.Fatal("not recovered")
		}
	}
}
