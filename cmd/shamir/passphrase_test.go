package main

import (
	"strings"
	"testing"
)

// TestWeakPassphrase checks which passphrases are called very weak, and
// that the cost of guessing them is said.
func TestWeakPassphrase(t *testing.T) {
	for _, c := range []struct {
		pass string
		want string // "" for not weak
	}{
		{"x", "1 character: at most 26 guesses, which take about 26 seconds"},
		{"1234", "4 characters: at most 1e+04 guesses, which take about 3 hours"},
		{"sunshine", "one word of 8 characters (a dictionary holds it): at most 1e+06 guesses, which take about 12 days"},
		{"Tr0ub4dor", ""}, // 62^9 guesses: over the bound
		{"correct horse battery staple", ""},
		{"bob rows the boat", ""},
		{"tr0ub4dor&3", ""},
	} {
		got := weakPassphrase([]byte(c.pass))
		switch {
		case c.want == "" && got != "":
			t.Errorf("%q called weak: %s", c.pass, got)
		case c.want != "" && !strings.HasPrefix(got, c.want):
			t.Errorf("%q: %q, want it to start %q", c.pass, got, c.want)
		}
	}
}
