package attest

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"
)

// The reasons an answer is refused. [Check] returns errors that wrap one of
// them (or ErrDamaged, or ErrNotAnswer), with the details.
var (
	// ErrOldChallenge: the answer is to a challenge issued before this
	// one: an old answer sent again (a replay), or an old challenge
	// answered.
	ErrOldChallenge = errors.New("an answer to an older challenge")
	// ErrOtherChallenge: the answer is to another challenge, not older.
	ErrOtherChallenge = errors.New("an answer to another challenge")
	// ErrForged: the signature does not verify: the answer was altered
	// (and its checksum made again), or made without the share.
	ErrForged = errors.New("its signature does not verify: altered or forged")
	// ErrStale: a good signature, by the key of a share the holder had
	// before the split was refreshed or reshared: the holder kept the old
	// share, and the manifest's is not what they hold.
	ErrStale = errors.New("made with the holder's old share, from before a refresh or reshare")
	// ErrOtherShare: a good signature, by the key of another holder's
	// share of this split.
	ErrOtherShare = errors.New("made with another holder's share")
	// ErrNotOfSplit: a good signature, by a key that is no share's of this
	// split: another split's share, or one replaced since (a refresh).
	ErrNotOfSplit = errors.New("made with a share that is not this split's (another split's, or one replaced by a refresh)")
	// ErrNoSuchShare: no holder has the share number the answer gives.
	ErrNoSuchShare = errors.New("no holder has this share number")
	// ErrNoKey: the holder's key is not known (a manifest made before
	// attestation), so their answer cannot be checked.
	ErrNoKey = errors.New("no public key is recorded for this share")
)

// A Holder is one share of the split, as the manifest records it.
type Holder struct {
	Share int       // the share's number, as the share records it (see Key.Answer)
	Name  string    // for the caller's messages
	Key   PublicKey // the key derived from the share; zero if not recorded
	// Previous are the keys of the holder's earlier shares, replaced by a
	// refresh or a reshare, so that an answer made with one is told as
	// such (ErrStale).
	Previous []PublicKey
}

// A Refusal is one answer refused, and why.
type Refusal struct {
	Answer int   // its index in the answers given to Check
	Err    error // wraps one of the Err… values of this package
}

// A Result is what Check found for one holder.
type Result struct {
	Holder   Holder
	Attested bool      // a good answer was given
	Answer   int       // the index of the first good answer, if Attested
	Refused  []Refusal // the holder's answers that were refused
}

// Answered reports whether the holder gave any answer, good or not.
func (r *Result) Answered() bool { return r.Attested || len(r.Refused) > 0 }

// A Report is the outcome of one round of attestation.
type Report struct {
	Results   []Result  // one per holder, in the order given
	Stray     []Refusal // answers that are no holder's
	Attested  int       // how many holders gave a good answer
	Threshold int
}

// Enough reports whether the holders who proved they hold their shares
// are at least the threshold: together they could recover the secret.
func (r *Report) Enough() bool { return r.Attested >= r.Threshold }

// Check checks the answers (texts, as ParseAnswer takes them) to the
// challenge c against the holders of the split, any threshold of whom
// recover the secret. An answer counts for the holder whose share number
// it gives; a damaged one also counts against that holder when its number
// can be read. Several good answers from one holder count once.
func Check(c *Challenge, holders []Holder, threshold int, answers []string) *Report {
	r := &Report{Threshold: threshold, Results: make([]Result, len(holders))}
	byShare := map[int]int{}
	byKey := map[PublicKey]int{}
	for i, h := range holders {
		r.Results[i] = Result{Holder: h, Answer: -1}
		byShare[h.Share] = i
		if h.Key != (PublicKey{}) {
			byKey[h.Key] = i
		}
	}
	for n, s := range answers {
		a, claimed, err := parseAnswer(s)
		i, known := byShare[claimed]
		if err == nil {
			err = judge(c, a, holders, byKey, known, i)
		}
		if !known {
			r.Stray = append(r.Stray, Refusal{n, err})
			continue
		}
		res := &r.Results[i]
		switch {
		case err != nil:
			res.Refused = append(res.Refused, Refusal{n, err})
		case !res.Attested:
			res.Attested, res.Answer = true, n
			r.Attested++
		}
	}
	return r
}

// judge checks a parsed answer, for holders[i] when known.
func judge(c *Challenge, a *Answer, holders []Holder, byKey map[PublicKey]int, known bool, i int) error {
	if !known {
		return fmt.Errorf("share %d: %w", a.Share, ErrNoSuchShare)
	}
	if ref := c.ref(); a.ref() != ref {
		issued := a.ChallengeIssued.Format(time.RFC3339)
		if ref.issued > a.ref().issued {
			return fmt.Errorf("%w (issued %s): a replayed answer, not one to this challenge", ErrOldChallenge, issued)
		}
		return fmt.Errorf("%w (issued %s), not to this one", ErrOtherChallenge, issued)
	}
	if !ed25519.Verify(a.Key[:], message(c, a.Share), a.Signature[:]) {
		return ErrForged
	}
	h := holders[i]
	if h.Key == (PublicKey{}) {
		return ErrNoKey
	}
	if a.Key == h.Key {
		return nil
	}
	for _, p := range h.Previous {
		if a.Key == p {
			return ErrStale
		}
	}
	if j, ok := byKey[a.Key]; ok {
		return fmt.Errorf("%w (share %d, %s)", ErrOtherShare, holders[j].Share, holders[j].Name)
	}
	return ErrNotOfSplit
}
