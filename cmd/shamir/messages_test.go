package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// TestNoTerminalHint: a passphrase that no one can type is refused with
// advice that names the command run, not always split (issue 25, item 10).
func TestNoTerminalHint(t *testing.T) {
	if f, err := os.Open("/dev/tty"); err == nil {
		f.Close()
		t.Skip("the tests run with a terminal: no passphrase can be refused for want of one")
	}
	err := askHolderPassphrases([]holder{{name: "bob", recipient: passphraseRecipient, from: "-passphrase"}}, "reprotect")
	if err == nil {
		t.Fatal("a passphrase was read without a terminal")
	}
	hints := strings.Join(hint.All(err), "\n")
	if !strings.Contains(hints, "run shamir reprotect at a terminal") || strings.Contains(hints, "split") {
		t.Errorf("hints: %q", hints)
	}
}

// TestRefusalCounts: a refusal with enough good shares does not say "4
// good shares, 3 needed", as if more were needed (issue 25, item 10).
func TestRefusalCounts(t *testing.T) {
	err := ssmsFailure(&shareSet{}, &shamir.CombineError{Err: shamir.ErrInconsistentShares, Good: 4, Needed: 3})
	if msg := err.Error(); strings.Contains(msg, "needed") || !strings.Contains(msg, "4 shares, threshold 3") {
		t.Errorf("inconsistent shares: %q", msg)
	}
	// No threshold of them gives the key: none is known good, none bad.
	err = ssmsFailure(&shareSet{}, &shamir.CombineError{Err: shamir.ErrInconsistentShares, Good: 0, Needed: 3})
	if msg := err.Error(); strings.Contains(msg, "needed") || strings.Contains(msg, "0 good") || !strings.Contains(msg, "none of them is known good (threshold 3)") {
		t.Errorf("inconsistent shares, none known good: %q", msg)
	}
	err = ssmsFailure(&shareSet{}, &shamir.CombineError{Err: shamir.ErrNotEnoughShares, Good: 2, Needed: 3})
	if msg := err.Error(); !strings.Contains(msg, "2 good shares, 3 needed") {
		t.Errorf("not enough shares: %q", msg)
	}
	if !errors.Is(shamir.ErrNotEnoughShares, shamir.ErrNotEnoughShares) {
		t.Fatal()
	}
}

// TestDidYouMean: a misspelt flag or command is met with the nearest
// one (issue 25, item 10).
func TestDidYouMean(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"split", "-threshhold", "3"}, `shamir: hint: did you mean -threshold?`},
		{[]string{"combine", "-decod", "hex"}, `shamir: hint: did you mean -decode?`},
		{[]string{"splt"}, `shamir: hint: did you mean "shamir split"?`},
		{[]string{"combien"}, `shamir: hint: did you mean "shamir combine"?`},
		{[]string{"help", "verfy"}, `shamir: hint: did you mean "shamir verify"?`},
	} {
		r := runCmd(t, dir, nil, c.args...)
		if r.code != 2 || !strings.Contains(string(r.stderr), c.want+"\n") {
			t.Errorf("shamir %s: %v", strings.Join(c.args, " "), r)
		}
	}
	// Nothing near: no guess.
	r := runCmd(t, dir, nil, "split", "-zzzzzzzz")
	if strings.Contains(string(r.stderr), "did you mean") {
		t.Errorf("split -zzzzzzzz: %v", r)
	}
}
