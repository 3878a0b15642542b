package attest

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseAnswer checks that ParseAnswer never panics, and that what it
// accepts it writes back as given (spaces around it aside): one answer has
// one text, so an answer cannot be altered and still parse.
func FuzzParseAnswer(f *testing.F) {
	r := newRound(f, true, [16]byte{1})
	good := r.answer(f, 0, r.c)
	f.Add(good)
	f.Add(" " + good + "\n")
	f.Add(good[:len(good)-1])
	f.Add(strings.Replace(good, ":1:", ":01:", 1))
	f.Add("shamir-answer-1:255:")
	f.Add(AnswerPrefix)
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAnswer(s)
		if err != nil {
			return
		}
		if a.String() != strings.TrimSpace(s) {
			t.Fatalf("%q parsed, written back as %q", s, a.String())
		}
		Check(r.c, r.holders, 3, []string{s})
	})
}

// FuzzParseChallenge is FuzzParseAnswer for challenges.
func FuzzParseChallenge(f *testing.F) {
	good := NewChallenge([16]byte{1}, time.Unix(1_800_000_000, 0)).String()
	f.Add(good)
	f.Add(good + " ")
	f.Add(good[:len(good)-1])
	f.Add(ChallengePrefix)
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseChallenge(s)
		if err != nil {
			return
		}
		if c.String() != strings.TrimSpace(s) {
			t.Fatalf("%q parsed, written back as %q", s, c.String())
		}
	})
}
