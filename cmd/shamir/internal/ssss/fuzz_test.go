package ssss

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzCombine feeds Parse and Combine arbitrary lines and thresholds: no
// panic, and a secret only from shares of one length, token and distinct
// numbers. Shares that Split made from the fuzzed secret always combine
// back to it.
func FuzzCombine(f *testing.F) {
	f.Add("1-10cf1315f0\n2-e9e2909d36\n3-9148efe4af", byte(3), []byte("hello"))
	f.Add("tok-01-a91d739361\ntok-02-4f8ed3d5d5", byte(2), []byte("0123456789"))
	f.Add("1-e4c24939d2ba4938\n2-5cf37d4db7dd2496\n3-cb1c6e9e6b000007", byte(2), []byte{0})
	f.Fuzz(func(t *testing.T, text string, th byte, secret []byte) {
		var shares []Share
		for _, line := range strings.Split(text, "\n") {
			if s, err := Parse(line); err == nil {
				shares = append(shares, s)
			}
		}
		if len(shares) > 8 {
			shares = shares[:8]
		}
		if got, err := Combine(shares, int(th), true); err == nil && len(got) != len(shares[0].Y) {
			t.Fatalf("Combine returned %d bytes from shares of %d", len(got), len(shares[0].Y))
		}
		if len(secret) == 0 || len(secret) > 48 {
			return
		}
		t2 := 2 + int(th)%3
		rng := rand.NewChaCha8([32]byte{th})
		made, err := Split(secret, t2+1, t2, "", len(secret)%2 == 0, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range made {
			back, err := Parse(s.String(3))
			if err != nil || back.X != s.X || !bytes.Equal(back.Y, s.Y) {
				t.Fatalf("share %q does not parse back: %v", s.String(3), err)
			}
		}
		got, err := Combine(made[1:], t2, len(secret)%2 == 0)
		if err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("Combine(Split(%x)) = %x, %v", secret, got, err)
		}
	})
}
