//go:build go1.26

package shamir

import (
	"bytes"
	"testing"
	"testing/cryptotest"
)

// TestSetGlobalRandom checks that Split draws all its randomness through
// crypto/rand, so that testing/cryptotest.SetGlobalRandom makes it
// deterministic, even though the generator pool is already keyed.
func TestSetGlobalRandom(t *testing.T) {
	Split([]byte("warm the pool"), 3, 2)
	secret := []byte("deterministic under SetGlobalRandom")
	run := func(seed uint64) [][]byte {
		cryptotest.SetGlobalRandom(t, seed)
		shares, err := Split(secret, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		return shares
	}
	a, b, c := run(1), run(1), run(2)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("share %d differs under the same seed", i)
		}
	}
	if bytes.Equal(a[0], c[0]) {
		t.Fatal("different seeds gave the same share")
	}
}

// TestSetGlobalRandomLifecycle checks that Extend, Refresh and Reshare draw
// all their randomness through crypto/rand too: the same seed gives the same
// shares, another seed others.
func TestSetGlobalRandomLifecycle(t *testing.T) {
	shares, err := Split([]byte("the split to derive from, any one"), 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	for name, op := range map[string]func() ([][]byte, error){
		"Extend":  func() ([][]byte, error) { return Extend(shares[:4], 3, 3, nil) },
		"Refresh": func() ([][]byte, error) { return Refresh(shares, 3) },
		"Reshare": func() ([][]byte, error) { return Reshare(shares, 3, 5, 2) },
	} {
		run := func(seed uint64) [][]byte {
			cryptotest.SetGlobalRandom(t, seed)
			out, err := op()
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		a, b, c := run(1), run(1), run(2)
		for i := range a {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("%s: share %d differs under the same seed", name, i)
			}
		}
		if bytes.Equal(a[0], c[0]) {
			t.Fatalf("%s: different seeds gave the same share", name)
		}
	}
}
