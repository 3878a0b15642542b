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

// FuzzCheckShareAlone checks that checkShareAlone never panics, passes on
// every byte it reads, and accepts the shares the library makes: each
// input is taken as a share, and as the secret of a split whose share is
// checked.
func FuzzCheckShareAlone(f *testing.F) {
	shares, _ := shamir.SplitSSMS([]byte("seed secret"), 3, 2)
	f.Add(shares[0])
	f.Add(shares[0][:90])
	f.Add([]byte("GFSSMS"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var seen bytes.Buffer
		checkShareAlone(bytes.NewReader(b), &seen)
		if !bytes.HasPrefix(b, seen.Bytes()) {
			t.Fatal("passed on bytes it did not read")
		}
		if len(b) > 1<<16 {
			return
		}
		ss, err := shamir.SplitSSMS(b, 2, 2)
		if err != nil {
			return
		}
		if err := checkShareAlone(bytes.NewReader(ss[1]), io.Discard); err != nil {
			t.Fatalf("a share the library made: %v", err)
		}
	})
}

// FuzzAgeHeaderEnd checks that ageHeaderEnd never panics and ends a
// header at a line end.
func FuzzAgeHeaderEnd(f *testing.F) {
	f.Add([]byte("age-encryption.org/v1\n-> X25519 abc\ndef\n--- mac\npayload"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if end := ageHeaderEnd(b); end > 0 && (end > len(b) || b[end-1] != '\n') {
			t.Fatalf("header end %d of %q", end, b)
		}
	})
}
