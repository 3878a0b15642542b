package shamir

import "testing"

// The lifecycle functions on the shapes of splitBenchCases. Recreate and
// Extend make one share from threshold shares, which costs what Combine
// costs (a Lagrange row at x instead of at 0), and, with the suffix
// "_checked", from every other share, which adds Verify's check. Refresh is
// given every share of the split, so for 5 of 3 it checks them first.
// Throughput counts the secret's bytes.

func BenchmarkRecreate(b *testing.B) {
	for _, c := range splitBenchCases {
		if c.parts == c.threshold {
			continue // a lost share of n of n cannot be made again
		}
		shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
		if err != nil {
			b.Fatal(err)
		}
		x := shares[0][c.size]
		for _, given := range []struct {
			suffix string
			parts  [][]byte
		}{{"", shares[1 : 1+c.threshold]}, {"_checked", shares[1:]}} {
			b.Run(c.name+given.suffix, func(b *testing.B) {
				b.SetBytes(int64(c.size))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Recreate(given.parts, c.threshold, x); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkExtend(b *testing.B) {
	for _, c := range splitBenchCases {
		shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
		if err != nil {
			b.Fatal(err)
		}
		var inUse []byte
		for _, s := range shares[c.threshold:] {
			inUse = append(inUse, s[c.size])
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extend(shares[:c.threshold], c.threshold, 1, inUse); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRefresh(b *testing.B) {
	for _, c := range splitBenchCases {
		shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Refresh(shares, c.threshold); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReshare(b *testing.B) {
	for _, c := range splitBenchCases {
		shares, err := Split(make([]byte, c.size), c.parts, c.threshold)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Reshare(shares[:c.threshold], c.threshold, c.parts, c.threshold); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
