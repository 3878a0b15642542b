package paper

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/gf256/shamir"
)

// testShares makes, at test time, shares of the kinds that go on
// paper: SSMS shares and Vault-format shares of a 32-byte key, and of a
// short password.
func testShares(t *testing.T) map[string][]byte {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	out := map[string][]byte{}
	ssms, err := shamir.SplitSSMS(key, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	out["ssms key"] = ssms[0]
	vault, err := shamir.Split(key, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	out["vault key"] = vault[1]
	pw, err := shamir.Split([]byte("correct horse"), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	out["vault password"] = pw[2]
	return out
}

func TestPaperTextRoundTrip(t *testing.T) {
	for name, share := range testShares(t) {
		for _, text := range []string{Text(share), Compact(share), strings.ToLower(Text(share)), strings.TrimPrefix(Compact(share), Tag)} {
			got, err := Parse(text)
			if err != nil || !bytes.Equal(got, share) {
				t.Errorf("%s: %q decodes to %x, %v", name, text, got, err)
			}
		}
	}
	// Every length up to a few groups' worth, for the padding.
	for n := 0; n < 40; n++ {
		b := make([]byte, n)
		rand.Read(b)
		got, err := Parse(Text(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%d bytes: decode gives %x, %v", n, got, err)
		}
	}
}

// TestPaperTextEveryTypo checks, exhaustively for each share, that every
// single-character substitution (by each other character of the alphabet,
// and by characters outside it) and every swap of two neighbouring
// characters of the text is detected, and that the error names the group
// the change is in (or, for a swap across two groups, the first of them).
func TestPaperTextEveryTypo(t *testing.T) {
	for name, share := range testShares(t) {
		c := strings.Join(groupsOf(share), "")
		located := func(pos int, what string, mutated string) {
			t.Helper()
			got, err := Parse(mutated)
			if err == nil {
				t.Fatalf("%s: %s at %d not detected: decodes to %x", name, what, pos, got)
			}
			pe, ok := err.(*Error)
			if !ok {
				t.Fatalf("%s: %s at %d: error %T %v", name, what, pos, err, err)
			}
			g := pos/5 + 1
			if pe.Group != g && pe.Group2 != g {
				t.Fatalf("%s: %s at %d (group %d): reported %q (groups %d, %d)", name, what, pos, g, pe, pe.Group, pe.Group2)
			}
		}
		subs := 0
		for i := 0; i < len(c); i++ {
			for _, r := range base32Alphabet + "0189" {
				if byte(r) == c[i] {
					continue
				}
				if misreading(byte(r), c[i]) {
					// Read as what it is taken for.
					mutated := c[:i] + string(r) + c[i+1:]
					if got, err := Parse(mutated); err != nil || !bytes.Equal(got, share) {
						t.Fatalf("%s: %c for %c at %d: %x, %v", name, r, c[i], i, got, err)
					}
					continue
				}
				located(i, "substitution "+string(r), c[:i]+string(r)+c[i+1:])
				subs++
			}
		}
		swaps := 0
		for i := 0; i+1 < len(c); i++ {
			if c[i] == c[i+1] {
				continue // the same text
			}
			located(i, "swap", c[:i]+string(c[i+1])+string(c[i])+c[i+2:])
			swaps++
		}
		// The laid-out text too: a swap with a space is harmless, and a
		// swap of two characters is found.
		text := Text(share)
		for i := 0; i+1 < len(text); i++ {
			m := text[:i] + string(text[i+1]) + string(text[i]) + text[i+2:]
			if got, err := Parse(m); err == nil && !bytes.Equal(got, share) {
				t.Fatalf("%s: swap at %d of the laid-out text decodes to another share", name, i)
			}
		}
		t.Logf("%s: %d characters, %d substitutions and %d swaps all detected and located", name, len(c), subs, swaps)
	}
}

func TestPaperTextMissingAndExtra(t *testing.T) {
	share := testShares(t)["ssms key"]
	c := strings.Join(groupsOf(share), "")
	for i := 0; i < len(c); i++ {
		if _, err := Parse(c[:i] + c[i+1:]); err == nil {
			t.Fatalf("character %d left out: not detected", i)
		}
		if _, err := Parse(c[:i] + "A" + c[i:]); err == nil {
			t.Fatalf("A inserted at %d: not detected", i)
		}
	}
	for k := 0; k < len(c)/5; k++ {
		if _, err := Parse(c[:k*5] + c[k*5+5:]); err == nil {
			t.Fatalf("group %d left out: not detected", k+1)
		}
	}
}

// misreading reports whether typed is a misreading that is read as want.
func misreading(typed, want byte) bool {
	switch typed {
	case '0':
		return want == 'O'
	case '8':
		return want == 'B'
	case '1':
		return want == 'I' || want == 'L'
	}
	return false
}
