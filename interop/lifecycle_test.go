package interop

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gf256/shamir"
	vault "github.com/hashicorp/vault/shamir"
)

// The lifecycle functions against Vault's package: on shares made by
// Vault's Split, shares recreated by gf256 are Vault's own, byte for byte,
// and the shares gf256 adds or refreshes combine in Vault's Combine exactly
// when they should.

// pick returns the shares at positions.
func pick(shares [][]byte, positions []int) [][]byte {
	out := make([][]byte, len(positions))
	for i, p := range positions {
		out[i] = shares[p]
	}
	return out
}

func xOf(share []byte) byte { return share[len(share)-1] }

func xsOf(shares [][]byte) []byte {
	xs := make([]byte, len(shares))
	for i, s := range shares {
		xs[i] = xOf(s)
	}
	return xs
}

// forEachSubset calls f with every subset of 0…m−1 of the given size, in
// increasing order (f must not keep the slice).
func forEachSubset(m, size int, f func([]int)) {
	s := make([]int, size)
	var rec func(pos, start int)
	rec = func(pos, start int) {
		if pos == size {
			f(s)
			return
		}
		for i := start; i < m; i++ {
			s[pos] = i
			rec(pos+1, i+1)
		}
	}
	rec(0, 0)
}

// vaultCombine is Vault's Combine, failing the test on an error.
func vaultCombine(t *testing.T, parts [][]byte) []byte {
	t.Helper()
	secret, err := vault.Combine(parts)
	if err != nil {
		t.Fatalf("vault.Combine: %v", err)
	}
	return secret
}

// TestRecreateVaultShares withholds each share of splits made by Vault's
// Split (a sample of the large ones) and recreates it with gf256 from
// threshold others and from all of them: the bytes are Vault's.
func TestRecreateVaultShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for _, n := range []int{1, 2, 16, 17, 32, 33, 100, 1 << 10, 64<<10 + 1} {
		for _, s := range schemes(n) {
			if s.parts == s.threshold {
				continue // a share of n of n cannot be recreated
			}
			secret := randomSecret(rng, n)
			shares, err := vault.Split(secret, s.parts, s.threshold)
			if err != nil {
				t.Fatal(err)
			}
			for i := range s.parts {
				if s.parts > 17 && i%37 != 0 {
					continue
				}
				var others []int
				for _, j := range rng.Perm(s.parts) {
					if j != i {
						others = append(others, j)
					}
				}
				for _, sel := range [][]int{others[:s.threshold], others} {
					got, err := shamir.Recreate(pick(shares, sel), s.threshold, xOf(shares[i]))
					if err != nil {
						t.Fatalf("len %d %v: Recreate share %d from %d: %v", n, s, i, len(sel), err)
					}
					if !bytes.Equal(got[0], shares[i]) {
						t.Fatalf("len %d %v: share %d recreated from %d differs from Vault's", n, s, i, len(sel))
					}
				}
			}
		}
	}
}

// TestExtendVaultShares extends splits made by Vault's Split, from
// threshold of the shares with the others in use, and combines every
// subset of at least threshold of the old and new shares in Vault's
// Combine.
func TestExtendVaultShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct{ parts, threshold, count int }{
		{2, 2, 3}, {3, 2, 3}, {5, 3, 3}, {4, 4, 3}, {6, 3, 2}, {5, 5, 2},
	} {
		secret := randomSecret(rng, 32)
		shares, err := vault.Split(secret, c.parts, c.threshold)
		if err != nil {
			t.Fatal(err)
		}
		given := rng.Perm(c.parts)
		rest := given[c.threshold:]
		given = given[:c.threshold]
		added, err := shamir.Extend(pick(shares, given), c.threshold, c.count, xsOf(pick(shares, rest)))
		if err != nil {
			t.Fatal(err)
		}
		all := append(append([][]byte(nil), shares...), added...)
		mixtures := 0
		for size := c.threshold; size <= len(all); size++ {
			forEachSubset(len(all), size, func(sel []int) {
				if got := vaultCombine(t, pick(all, sel)); !bytes.Equal(got, secret) {
					t.Fatalf("%+v: Vault combined shares %v (the last %d new) wrongly", c, sel, c.count)
				}
				mixtures++
			})
		}
		t.Logf("%+v: %d mixtures", c, mixtures)
	}
}

// TestRefreshVaultShares refreshes splits made by Vault's Split: every
// threshold of the new shares combines in Vault's Combine to the secret,
// and every mixture of old and new shares to a wrong one.
func TestRefreshVaultShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 15))
	for _, s := range []scheme{{2, 2}, {3, 2}, {5, 3}, {4, 4}, {6, 3}, {7, 5}} {
		secret := randomSecret(rng, 32)
		old, err := vault.Split(secret, s.parts, s.threshold)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := shamir.Refresh(old, s.threshold)
		if err != nil {
			t.Fatal(err)
		}
		forEachSubset(s.parts, s.threshold, func(sel []int) {
			for mask := range 1 << s.threshold {
				parts := make([][]byte, s.threshold)
				for j, i := range sel {
					parts[j] = old[i]
					if mask>>j&1 == 1 {
						parts[j] = fresh[i]
					}
				}
				got := vaultCombine(t, parts)
				mixed := mask != 0 && mask != 1<<s.threshold-1
				if bytes.Equal(got, secret) == mixed {
					t.Fatalf("%v: shares %v, new ones %0*b: Vault recovered the secret: %v", s, sel, s.threshold, mask, !mixed)
				}
			}
		})
	}
}

// TestReshareVaultShares reshares splits made by Vault's Split and combines
// the new shares in Vault's Combine.
func TestReshareVaultShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 16))
	secret := randomSecret(rng, 32)
	old, err := vault.Split(secret, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, to := range []scheme{{3, 2}, {7, 4}, {10, 10}} {
		shares, err := shamir.Reshare(old, 3, to.parts, to.threshold)
		if err != nil {
			t.Fatal(err)
		}
		for _, sel := range [][]int{rng.Perm(to.parts)[:to.threshold], rng.Perm(to.parts)} {
			if got := vaultCombine(t, pick(shares, sel)); !bytes.Equal(got, secret) {
				t.Fatalf("%v: Vault combined %d reshared shares wrongly", to, len(sel))
			}
		}
	}
}

func ExampleRecreate() {
	secret := []byte("unseal me")
	shares, _ := vault.Split(secret, 5, 3)
	lost := shares[1]
	again, _ := shamir.Recreate([][]byte{shares[0], shares[2], shares[4]}, 3, xOf(lost))
	fmt.Println(bytes.Equal(again[0], lost))
	// Output: true
}
