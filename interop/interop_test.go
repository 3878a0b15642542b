// Package interop checks github.com/gf256/shamir against the packages it
// replaces or competes with: HashiCorp Vault's shamir package and
// klauspost/reedsolomon. It is a separate module so that the library's own
// go.mod needs neither.
package interop

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gf256/shamir"
	vault "github.com/hashicorp/vault/shamir"
)

type scheme struct{ parts, threshold int }

// lengths returns secret lengths from 1 to 64 KiB, dense around every
// multiple of 16, 32 and 64 up to 300 (where the vector kernels switch between
// full vectors and tails) and around a few larger powers of two.
func lengths() []int {
	var ls []int
	for n := 1; n <= 300; n++ {
		if n < 20 || n%16 <= 1 || n%16 == 15 {
			ls = append(ls, n)
		}
	}
	for _, p := range []int{1 << 10, 4 << 10, 16 << 10, 64 << 10} {
		ls = append(ls, p-1, p, p+1)
	}
	return ls
}

// schemes returns (parts, threshold) pairs from (2,2) to (255,255). Vault's
// Split costs parts·threshold multiplications per byte, with an allocation
// and a crypto/rand read per byte, so the long secrets only meet the small
// schemes.
func schemes(secretLen int) []scheme {
	s := []scheme{{2, 2}, {3, 2}, {5, 3}, {5, 5}}
	switch {
	case secretLen <= 64:
		s = append(s, scheme{10, 10}, scheme{17, 9}, scheme{255, 2}, scheme{255, 255}, scheme{100, 50})
	case secretLen <= 1024:
		s = append(s, scheme{10, 10}, scheme{17, 9})
	default:
		s = s[:3]
	}
	return s
}

// subsets yields, for each size from threshold to parts, a random subset of
// that size in random order.
func subsets(rng *rand.Rand, shares [][]byte, threshold int, f func([][]byte)) {
	for k := threshold; k <= len(shares); k++ {
		if k > threshold+8 && k < len(shares)-2 && k%17 != 0 {
			continue // enough sizes: the first few, the last few, and a sample between
		}
		perm := rng.Perm(len(shares))[:k]
		sub := make([][]byte, k)
		for i, p := range perm {
			sub[i] = shares[p]
		}
		f(sub)
	}
}

func randomSecret(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func TestVaultSharesCombineInGF256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range lengths() {
		for _, s := range schemes(n) {
			secret := randomSecret(rng, n)
			shares, err := vault.Split(secret, s.parts, s.threshold)
			if err != nil {
				t.Fatal(err)
			}
			subsets(rng, shares, s.threshold, func(sub [][]byte) {
				got, err := shamir.Combine(sub)
				if err != nil {
					t.Fatalf("len %d %v: %v", n, s, err)
				}
				if !bytes.Equal(got, secret) {
					t.Fatalf("len %d %v, %d shares: gf256 combined Vault's shares wrongly", n, s, len(sub))
				}
			})
		}
	}
}

func TestGF256SharesCombineInVault(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range lengths() {
		for _, s := range schemes(n) {
			secret := randomSecret(rng, n)
			shares, err := shamir.Split(secret, s.parts, s.threshold)
			if err != nil {
				t.Fatal(err)
			}
			subsets(rng, shares, s.threshold, func(sub [][]byte) {
				// Vault's Combine costs about 14·k² multiplications per byte
				// for k parts: keep its large cases to short secrets.
				if (n > 1024 && len(sub) > s.threshold+1) || (len(sub) > 20 && (n > 32 || len(sub)%4 != 0)) {
					return
				}
				got, err := vault.Combine(sub)
				if err != nil {
					t.Fatalf("len %d %v: %v", n, s, err)
				}
				if !bytes.Equal(got, secret) {
					t.Fatalf("len %d %v, %d shares: Vault combined gf256's shares wrongly", n, s, len(sub))
				}
			})
		}
	}
}

// TestSplitRefusesWhatVaultRefuses compares the two packages on every
// boundary of Split's parameters.
func TestSplitRefusesWhatVaultRefuses(t *testing.T) {
	for _, secret := range [][]byte{nil, {}, {1}, []byte("secret")} {
		for _, parts := range []int{-1, 0, 1, 2, 3, 254, 255, 256, 1000} {
			for _, threshold := range []int{-1, 0, 1, 2, 3, 254, 255, 256, 1000} {
				if parts*threshold > 255*20 && parts <= 255 {
					continue // valid and slow in Vault; covered by the round trips
				}
				_, verr := vault.Split(secret, parts, threshold)
				_, gerr := shamir.Split(secret, parts, threshold)
				if (verr == nil) != (gerr == nil) {
					t.Errorf("Split(len %d, %d, %d): vault error %v, gf256 error %v", len(secret), parts, threshold, verr, gerr)
				}
				if verr != nil && gerr != nil && verr.Error() != gerr.Error()[len("shamir: "):] {
					t.Errorf("Split(len %d, %d, %d): vault says %q, gf256 says %q", len(secret), parts, threshold, verr, gerr)
				}
			}
		}
	}
}

// TestCombineRefusesWhatVaultRefuses feeds both packages the malformed part
// sets. gf256 refuses exactly what Vault refuses, and in addition a part with
// x coordinate 0.
func TestCombineRefusesWhatVaultRefuses(t *testing.T) {
	good, err := vault.Split([]byte("secret"), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	x0 := bytes.Clone(good[0])
	x0[len(x0)-1] = 0
	cases := map[string][][]byte{
		"nil":             nil,
		"one part":        good[:1],
		"empty parts":     {{}, {}},
		"one-byte parts":  {{1}, {2}},
		"unequal lengths": {good[0], good[1][:4]},
		"duplicate x":     {good[0], good[1], good[0]},
		"three parts":     good[:3],
		"all parts":       good,
		"256 parts":       manyParts(256),
	}
	for name, parts := range cases {
		_, verr := vault.Combine(parts)
		_, gerr := shamir.Combine(parts)
		if (verr == nil) != (gerr == nil) {
			t.Errorf("%s: vault error %v, gf256 error %v", name, verr, gerr)
		}
	}
	if _, err := vault.Combine([][]byte{x0, good[1]}); err != nil {
		t.Errorf("Vault now refuses x = 0 (%v): update the documentation of Combine", err)
	}
	if _, err := shamir.Combine([][]byte{x0, good[1]}); err == nil || !strings.Contains(err.Error(), "x coordinate 0") {
		t.Errorf("x = 0: got %v, want the x = 0 error", err)
	}
}

func manyParts(n int) [][]byte {
	parts := make([][]byte, n)
	for i := range parts {
		parts[i] = []byte{byte(i), byte(i % 255)}
	}
	return parts
}

func Example() {
	secret := []byte("unseal me")
	shares, _ := shamir.Split(secret, 5, 3)
	fromVault, _ := vault.Combine(shares[2:])
	vaultShares, _ := vault.Split(secret, 5, 3)
	fromGF256, _ := shamir.Combine(vaultShares[:3])
	fmt.Printf("%s %s\n", fromVault, fromGF256)
	// Output: unseal me unseal me
}
