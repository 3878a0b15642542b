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
