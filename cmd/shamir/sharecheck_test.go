package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gf256/shamir"
)

// TestCheckShareAlone checks that a share made by the library passes, and
// that a flipped byte anywhere, a cut anywhere and a byte appended are each
// found, from the one share.
func TestCheckShareAlone(t *testing.T) {
	secret := bytes.Repeat([]byte("a secret of some length "), 7000) // 3 chunks
	shares, err := shamir.SplitSSMS(secret, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := shares[1]
	var seen bytes.Buffer
	if err := checkShareAlone(bytes.NewReader(s), &seen); err != nil {
		t.Fatalf("a good share: %v", err)
	}
	if !bytes.Equal(seen.Bytes(), s) {
		t.Fatal("not every byte was passed on")
	}
	for _, i := range []int{0, 40, 85, 86, 90, 1000, len(s) / 2, len(s) - 5, len(s) - 1} {
		b := bytes.Clone(s)
		b[i] ^= 0x20
		if err := checkShareAlone(bytes.NewReader(b), io.Discard); !errors.Is(err, errShareDamaged) {
			t.Errorf("byte %d flipped: %v", i, err)
		}
	}
	for _, n := range []int{0, 50, 86, 89, 100, len(s) / 2, len(s) - 1} {
		if err := checkShareAlone(bytes.NewReader(s[:n]), io.Discard); !errors.Is(err, errShareDamaged) {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
	err = checkShareAlone(bytes.NewReader(append(bytes.Clone(s), 0)), io.Discard)
	if !errors.Is(err, errShareDamaged) || !strings.Contains(err.Error(), "after its last record") {
		t.Errorf("a byte appended: %v", err)
	}
}
