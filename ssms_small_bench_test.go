package shamir

import "testing"

// BenchmarkSSMS32B times SplitSSMS and CombineSSMS of a 32-byte secret into
// 5 shares of threshold 3: where the costs per split (drawing and sharing
// the key, its signing key and the one signature of the batch, the
// headers) are nearly all the cost. It uses the exported API only, so the
// same file measures older commits too.
func BenchmarkSSMS32B(b *testing.B) {
	secret := make([]byte, 32)
	for i := range secret {
		secret[i] = byte(i*7 + 1)
	}
	b.Run("Split_n5_t3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SplitSSMS(secret, 5, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
	shares, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Combine_n5_t3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if got, _, err := CombineSSMS(shares[:3]); err != nil || len(got) != len(secret) {
				b.Fatal(err)
			}
		}
	})
}
