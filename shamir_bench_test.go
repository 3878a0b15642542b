package shamir

import "testing"

// The shapes the package is tuned for: a short secret (a key) with Vault's
// default 5 of 3, and 1 MiB with 5 of 3 and 10 of 10. Throughput counts the
// secret's bytes. interop/ has the same against Vault's package.
var splitBenchCases = []struct {
	name             string
	size             int
	parts, threshold int
}{
	{"32B_n5_t3", 32, 5, 3},
	{"1MiB_n5_t3", 1 << 20, 5, 3},
	{"1MiB_n10_t10", 1 << 20, 10, 10},
}

func BenchmarkSplit(b *testing.B) {
	for _, c := range splitBenchCases {
		b.Run(c.name, func(b *testing.B) {
			secret := make([]byte, c.size)
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Split(secret, c.parts, c.threshold); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCombine(b *testing.B) {
	for _, c := range splitBenchCases {
		b.Run(c.name, func(b *testing.B) {
			shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
			if err != nil {
				b.Fatal(err)
			}
			shares = shares[:c.threshold]
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Combine(shares); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendCombine writes the secret into a buffer with room: the
// engine's work with no allocation.
func BenchmarkAppendCombine(b *testing.B) {
	for _, c := range splitBenchCases {
		b.Run(c.name, func(b *testing.B) {
			shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
			if err != nil {
				b.Fatal(err)
			}
			shares = shares[:c.threshold]
			buf := make([]byte, 0, c.size)
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := AppendCombine(buf, shares); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
