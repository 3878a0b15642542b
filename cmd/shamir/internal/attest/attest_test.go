package attest

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gf256/shamir"
)

// round is one split for the tests: its shares, their keys, the holders a
// manifest would list, and a challenge.
type round struct {
	shares  [][]byte
	keys    []*Key
	holders []Holder
	c       *Challenge
}

var testTime = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func newRound(t testing.TB, ssms bool, splitID [16]byte) *round {
	t.Helper()
	secret := bytes.Repeat([]byte("k"), 32)
	r := &round{}
	var err error
	if ssms {
		r.shares, err = shamir.SplitSSMS(secret, 5, 3)
	} else {
		r.shares, err = shamir.Split(secret, 5, 3)
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range r.shares {
		k, err := DeriveKey(s)
		if err != nil {
			t.Fatal(err)
		}
		r.keys = append(r.keys, k)
		r.holders = append(r.holders, Holder{Share: number(s, ssms, i), Name: fmt.Sprintf("holder%d", i+1), Key: k.Public()})
	}
	r.c = NewChallenge(splitID, testTime)
	return r
}

// number is the share's number as the command gives it: SSMS shares by
// place, Vault-format shares by x coordinate.
func number(s []byte, ssms bool, i int) int {
	if ssms {
		return i + 1
	}
	return int(s[len(s)-1])
}

func (r *round) answer(t testing.TB, i int, c *Challenge) string {
	t.Helper()
	a, err := r.keys[i].Answer(c, r.holders[i].Share)
	if err != nil {
		t.Fatal(err)
	}
	return a.String()
}

func TestRoundTrip(t *testing.T) {
	for _, ssms := range []bool{true, false} {
		t.Run(fmt.Sprint("ssms=", ssms), func(t *testing.T) {
			r := newRound(t, ssms, [16]byte{1})
			c, err := ParseChallenge(r.c.String())
			if err != nil {
				t.Fatal(err)
			}
			if *c != *r.c {
				t.Fatalf("challenge %+v parsed as %+v", r.c, c)
			}
			var answers []string
			for i := range 3 {
				s := r.answer(t, i, c)
				a, err := ParseAnswer(s)
				if err != nil {
					t.Fatal(err)
				}
				if a.String() != s || !a.Verify(r.c) {
					t.Fatalf("answer %q parsed and written again as %q (verifies: %v)", s, a.String(), a.Verify(r.c))
				}
				answers = append(answers, s)
			}
			answers = append(answers, answers[0]) // counts once
			rep := Check(r.c, r.holders, 3, answers)
			if !rep.Enough() || rep.Attested != 3 || len(rep.Stray) != 0 {
				t.Fatalf("report %+v", rep)
			}
			for i, res := range rep.Results {
				if res.Attested != (i < 3) || res.Answered() != (i < 3) || len(res.Refused) != 0 {
					t.Errorf("holder %d: %+v", i, res)
				}
			}
			rep = Check(r.c, r.holders, 3, answers[:2])
			if rep.Enough() || rep.Attested != 2 {
				t.Fatalf("two answers of three: %+v", rep)
			}
		})
	}
}

// TestDeriveIsHKDF pins the key derivation as HKDF-SHA-256 of the share's
// bytes, streamed or not, and checks that the manifest's SHA-256 of the
// share is not the input keying material.
func TestDeriveIsHKDF(t *testing.T) {
	share := []byte("a share of at least seventeen bytes, longer")
	seed, err := hkdf.Key(sha256.New, share, []byte(keySalt), keyInfo, 32)
	if err != nil {
		t.Fatal(err)
	}
	k, err := DeriveKey(share)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k.priv.Seed(), seed) {
		t.Fatal("DeriveKey is not HKDF-SHA-256 of the share")
	}
	w := NewKeyWriter()
	for _, b := range share {
		w.Write([]byte{b})
	}
	k2, err := w.Key()
	if err != nil || k2.Public() != k.Public() {
		t.Fatalf("KeyWriter byte by byte: %v, key %v, want %v", err, k2, k.Public())
	}
	sum := sha256.Sum256(share)
	k3, _ := DeriveKey(sum[:])
	if k3.Public() == k.Public() {
		t.Fatal("the share's SHA-256 gives its key")
	}
	other := bytes.Clone(share)
	other[0] ^= 1
	if k4, _ := DeriveKey(other); k4.Public() == k.Public() {
		t.Fatal("two shares, one key")
	}
}

func TestShortShare(t *testing.T) {
	if _, err := DeriveKey(make([]byte, MinShareLen-1)); !errors.Is(err, ErrShortShare) {
		t.Fatalf("a share of %d bytes: %v", MinShareLen-1, err)
	}
	if _, err := DeriveKey(make([]byte, MinShareLen)); err != nil {
		t.Fatal(err)
	}
}

func TestPublicKeyText(t *testing.T) {
	k, _ := DeriveKey([]byte("seventeen bytes.."))
	p, err := ParsePublicKey(k.Public().String())
	if err != nil || p != k.Public() {
		t.Fatalf("%v, %v", p, err)
	}
	for _, bad := range []string{"", "00", strings.Repeat("g", 64), strings.Repeat("0", 66)} {
		if _, err := ParsePublicKey(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// refusal checks answers and returns the one refusal for holder i.
func refusal(t *testing.T, r *round, i int, answer string) error {
	t.Helper()
	rep := Check(r.c, r.holders, 3, []string{answer})
	res := rep.Results[i]
	if res.Attested || len(res.Refused) != 1 || len(rep.Stray) != 0 || rep.Attested != 0 {
		t.Fatalf("%q: report %+v", answer, rep)
	}
	return res.Refused[0].Err
}

func TestRefusals(t *testing.T) {
	for _, ssms := range []bool{true, false} {
		t.Run(fmt.Sprint("ssms=", ssms), func(t *testing.T) {
			testRefusals(t, ssms)
		})
	}
}

func testRefusals(t *testing.T, ssms bool) {
	id := [16]byte{7}
	r := newRound(t, ssms, id)
	is := func(name string, err, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}

	// A challenge issued after the answer's.
	old := NewChallenge(id, testTime.Add(-90*24*time.Hour))
	is("replayed", refusal(t, r, 0, r.answer(t, 0, old)), ErrOldChallenge)
	// Another challenge of the same time, or a later one.
	is("other challenge", refusal(t, r, 0, r.answer(t, 0, NewChallenge(id, testTime))), ErrOtherChallenge)
	// A challenge for another split, answered.
	is("other split's challenge", refusal(t, r, 0, r.answer(t, 0, &Challenge{SplitID: [16]byte{8}, Issued: r.c.Issued, Nonce: r.c.Nonce})), ErrOtherChallenge)

	// Another split's share, with the same number.
	other := newRound(t, ssms, id)
	a, _ := other.keys[1].Answer(r.c, r.holders[1].Share)
	is("another split's share", refusal(t, r, 1, a.String()), ErrNotOfSplit)

	// The holder's share from before a refresh, known to the manifest.
	withOld := *r
	withOld.holders = append([]Holder(nil), r.holders...)
	withOld.holders[1].Previous = []PublicKey{other.keys[1].Public()}
	is("stale share", refusal(t, &withOld, 1, a.String()), ErrStale)

	// Another holder's share.
	a, _ = r.keys[2].Answer(r.c, r.holders[1].Share)
	is("another holder's share", refusal(t, r, 1, a.String()), ErrOtherShare)

	// No key in the manifest.
	noKey := *r
	noKey.holders = append([]Holder(nil), r.holders...)
	noKey.holders[1].Key = PublicKey{}
	is("no key", refusal(t, &noKey, 1, r.answer(t, 1, r.c)), ErrNoKey)

	// The signature made again by another key, over the right message,
	// with the right key claimed: forged.
	good, _ := ParseAnswer(r.answer(t, 3, r.c))
	forged, _ := other.keys[3].Answer(r.c, r.holders[3].Share)
	forged.Key = good.Key
	is("forged", refusal(t, r, 3, forged.String()), ErrForged)
	// A good answer for one share number claimed for another (re-encoded,
	// checksum made again).
	moved := *good
	moved.Share = r.holders[4].Share
	is("moved", refusal(t, r, 4, moved.String()), ErrForged)

	// Every single-character edit of a good answer, after the share
	// number: damaged.
	s := r.answer(t, 2, r.c)
	start := strings.LastIndexByte(s, ':') + 1
	for p := start; p < len(s); p++ {
		for _, ch := range []byte{'A', 'z', '-', '!'} {
			if s[p] == ch {
				continue
			}
			edited := s[:p] + string(ch) + s[p+1:]
			is(fmt.Sprintf("edited at %d", p), refusal(t, r, 2, edited), ErrDamaged)
		}
	}
	// A character lost.
	is("shortened", refusal(t, r, 2, s[:len(s)-1]), ErrDamaged)
}

func TestStray(t *testing.T) {
	r := newRound(t, true, [16]byte{1})
	a, _ := r.keys[0].Answer(r.c, 200)
	rep := Check(r.c, r.holders, 3, []string{"hello", a.String(), "shamir-answer-1:0:AAAA"})
	if len(rep.Stray) != 3 || rep.Attested != 0 {
		t.Fatalf("%+v", rep)
	}
	for k, want := range []error{ErrNotAnswer, ErrNoSuchShare, ErrNotAnswer} {
		if st := rep.Stray[k]; st.Answer != k || !errors.Is(st.Err, want) {
			t.Errorf("stray %d: %+v, want %v", k, st, want)
		}
	}
	for _, res := range rep.Results {
		if res.Answered() {
			t.Errorf("%+v", res)
		}
	}
}

func TestParseChallengeRefusals(t *testing.T) {
	c := NewChallenge([16]byte{1, 2, 3}, testTime)
	s := c.String()
	if len(s) != 78 {
		t.Errorf("a challenge is %d characters", len(s))
	}
	got, err := ParseChallenge("  " + s + "\n")
	if err != nil || *got != *c {
		t.Fatalf("%v, %v", got, err)
	}
	for p := len(ChallengePrefix); p < len(s); p++ {
		edited := s[:p] + pick(s[p] == 'B', "C", "B") + s[p+1:]
		if _, err := ParseChallenge(edited); !errors.Is(err, ErrDamaged) {
			t.Errorf("edited at %d: %v", p, err)
		}
	}
	for _, bad := range []string{"", s[1:], s + "A", s[:len(s)-1], strings.ToUpper(s), "shamir-challenge-2:" + s[len(ChallengePrefix):], s + "=", s + " x"} {
		if _, err := ParseChallenge(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestAnswerLength(t *testing.T) {
	r := newRound(t, true, [16]byte{1})
	s := r.answer(t, 4, r.c)
	if len(s) > 180 || strings.ContainsAny(s, " \n=+/") {
		t.Errorf("answer %q: %d characters", s, len(s))
	}
	if _, err := r.keys[0].Answer(r.c, 0); err == nil {
		t.Error("share number 0 answered")
	}
	if _, err := r.keys[0].Answer(r.c, 256); err == nil {
		t.Error("share number 256 answered")
	}
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
