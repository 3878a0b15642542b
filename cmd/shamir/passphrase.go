package main

import (
	"bytes"
	"crypto/fips140"
	"errors"
	"fmt"
	"math"
	"os"
	"unicode/utf8"

	"filippo.io/age"
)

// This file is the holders who keep their share under a passphrase of
// their own rather than an age key: at split, each types theirs (twice, not
// shown), and their file is encrypted with age's passphrase recipient
// (scrypt), so that "age -d" alone opens it; combine, verify, attest and
// the lifecycle commands ask for the passphrase of such a file, as age -d
// does.

// passphraseRecipient is what a holder's line gives instead of a
// recipient ("bob: passphrase" in -R, -r bob:passphrase).
const passphraseRecipient = "passphrase"

// scryptWorkFactor is the work factor age's passphrase recipient uses
// (log2 of scrypt's N), which the help's cost of a guess assumes.
const scryptWorkFactor = 18

// askHolderPassphrases asks each passphrase holder of hs for their
// passphrase on the terminal, twice, without echo, and makes their
// recipient of it. cmd is the command run, for advice. Two passphrases
// that differ, or an empty one, are asked for again, up to passphraseTries
// times: one holder's typo loses no one else's work. A very weak
// passphrase is warned of, with what guessing it costs.
func askHolderPassphrases(hs []holder, cmd string) error {
	for i := range hs {
		h := &hs[i]
		if h.recipient != passphraseRecipient {
			continue
		}
		if fips140.Enforced() {
			return fmt.Errorf("%s: %s's share would be encrypted with a passphrase (scrypt), which FIPS 140-3 does not approve", h.from, h.name)
		}
		pass, err := askNewPassphrase(h, cmd)
		if err != nil {
			return err
		}
		if w := weakPassphrase(pass); w != "" {
			warnf(os.Stderr, "%s's passphrase is weak: %s", h.name, w)
		}
		r, err := age.NewScryptRecipient(string(pass))
		zero(pass)
		if err != nil {
			return err
		}
		r.SetWorkFactor(scryptWorkFactor)
		h.rcpt = r
	}
	return nil
}

// askNewPassphrase asks h for a new passphrase, twice, up to
// passphraseTries times until the two agree; cmd is the command run, for
// advice.
func askNewPassphrase(h *holder, cmd string) ([]byte, error) {
	for try := 1; ; try++ {
		pass, err := askPassphrase(fmt.Sprintf("Passphrase for %s: ", h.name))
		if errors.Is(err, errNoTerminal) {
			// reprotect's one holder is the person who runs it, with one
			// file: no name to give.
			who := h.name + " keeps their share under a passphrase, which they type"
			if cmd == "reprotect" {
				who = "the new passphrase is typed"
			}
			return nil, withHints(fmt.Errorf("%s: %s on a terminal, and there is none (no /dev/tty, and stdin is not one)", h.from, who),
				"run shamir "+cmd+" at a terminal")
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s's passphrase from the terminal: %v", h.name, err)
		}
		var problem string
		if len(pass) == 0 {
			problem = fmt.Sprintf("%s typed an empty passphrase", h.name)
		} else {
			again, err := askPassphrase(fmt.Sprintf("Passphrase for %s, again: ", h.name))
			if err != nil {
				zero(pass)
				return nil, fmt.Errorf("reading %s's passphrase from the terminal: %v", h.name, err)
			}
			same := bytes.Equal(pass, again)
			zero(again)
			if same {
				return pass, nil
			}
			problem = fmt.Sprintf("the two passphrases typed for %s differ", h.name)
		}
		zero(pass)
		if try == passphraseTries {
			return nil, fmt.Errorf("%s, %d times; nothing was written", problem, passphraseTries)
		}
		warnf(os.Stderr, "%s; type it again (%s left)", problem, count(passphraseTries-try, "try", "tries"))
	}
}

// weakPassphrase says why pass is very weak, with what guessing it costs
// whoever has the file, or "" when it is not. A guess costs one scrypt at
// work factor 2^18: about a second of a CPU core and 256 MiB. The count of
// guesses is that of every passphrase of its length over the kinds of
// characters it uses, or, for one word of letters, of a large dictionary.
// The adversary is whoever has the holder's file: an outsider who copied
// it, or another holder.
func weakPassphrase(pass []byte) string {
	var lower, upper, digit, other bool
	for _, c := range string(pass) {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		default:
			other = true
		}
	}
	pool := 0.0
	for _, k := range []struct {
		has bool
		n   float64
	}{{lower, 26}, {upper, 26}, {digit, 10}, {other, 33}} {
		if k.has {
			pool += k.n
		}
	}
	guesses := math.Pow(pool, float64(utf8.RuneCount(pass)))
	word := !digit && !other && utf8.RuneCount(pass) <= 12 && guesses > dictionaryWords
	if word {
		guesses = dictionaryWords
	}
	// Below about 2^40 guesses, a few thousand cores find it within a
	// year; four diceware words are 2^51.
	if guesses >= 1<<40 {
		return ""
	}
	what := count(utf8.RuneCount(pass), "character")
	if word {
		what = "one word of " + what + " (a dictionary holds it)"
	}
	return fmt.Sprintf("%s: at most %.3g guesses, which take about %s of one CPU core (a guess costs a second of a core and 256 MiB); whoever has the file can try them all. Four words drawn at random from a list of 7776 (diceware) take tens of millions of core-years",
		what, guesses, coreTime(guesses))
}

// dictionaryWords is the size of a large dictionary, with its common
// variations: the guesses a word of letters costs at most.
const dictionaryWords = 1e6

// coreTime says how long n guesses of a second each take on one core.
func coreTime(n float64) string {
	switch {
	case n < 120:
		return fmt.Sprintf("%.0f seconds", n)
	case n < 2*3600:
		return fmt.Sprintf("%.0f minutes", n/60)
	case n < 2*86400:
		return fmt.Sprintf("%.0f hours", n/3600)
	case n < 2*365*86400:
		return fmt.Sprintf("%.0f days", n/86400)
	}
	return fmt.Sprintf("%.3g years", n/(365*86400))
}

// passphraseTries is how many times a passphrase is asked for before the
// file is taken for one that could not be opened (or, at split, before
// the split stops): one mistyped passphrase loses no one's work.
const passphraseTries = 3

// errPassphraseTries is a file whose passphrase was typed wrong
// passphraseTries times: the file could not be opened. Unlike an
// identityError it does not stop a command that reads several files:
// combine goes on with the others, and says which it could not open.
var errPassphraseTries = errors.New("the passphrase typed was wrong three times")

// errPassphraseSkipped is a file whose passphrase was not typed, for it
// to be left closed.
var errPassphraseSkipped = errors.New("its passphrase was not typed")

// A passphrasePrompt opens a file encrypted with a passphrase (age -p, or a
// passphrase holder's file): it asks for the passphrase on the terminal
// (/dev/tty, as age does: see askPassphrase) when the file is one, and says
// nothing of other files. A wrong passphrase is asked for again, up to
// passphraseTries times in all.
type passphrasePrompt struct {
	where string // the file, for the prompt
	// skippable says that the file may be left closed: an empty
	// passphrase skips it (errPassphraseSkipped), for one who checks
	// files they may not hold (verify -manifest).
	skippable bool
	// rcpt is, once the file is open, a recipient of the passphrase
	// that opened it: a share made again for the same holder is sealed
	// under the passphrase they typed (ageMemory).
	rcpt age.Recipient
}

func (p *passphrasePrompt) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	if len(stanzas) != 1 || stanzas[0].Type != "scrypt" {
		return nil, age.ErrIncorrectIdentity
	}
	if fips140.Enforced() {
		return nil, &identityError{fmt.Errorf("%s is encrypted with a passphrase (scrypt), which FIPS 140-3 does not approve", p.where)}
	}
	for try := 1; ; try++ {
		key, err := p.try(stanzas)
		if !errors.Is(err, age.ErrIncorrectIdentity) {
			return key, err
		}
		if try == passphraseTries {
			return nil, fmt.Errorf("%s: %w", p.where, errPassphraseTries)
		}
		warnf(os.Stderr, "wrong passphrase for %s; try again (%s left)", p.where, count(passphraseTries-try, "try", "tries"))
	}
}

// try asks for the passphrase once and opens the file's key with it.
func (p *passphrasePrompt) try(stanzas []*age.Stanza) ([]byte, error) {
	prompt := fmt.Sprintf("Passphrase for %s: ", p.where)
	if p.skippable {
		prompt = fmt.Sprintf("Passphrase for %s (Enter to skip): ", p.where)
	}
	pass, err := askPassphrase(prompt)
	if errors.Is(err, errNoTerminal) {
		return nil, err
	}
	if err != nil {
		return nil, &identityError{fmt.Errorf("reading the passphrase for %s: %v", p.where, err)}
	}
	defer zero(pass)
	if p.skippable && len(pass) == 0 {
		return nil, errPassphraseSkipped
	}
	id, err := age.NewScryptIdentity(string(pass))
	if err != nil {
		return nil, err
	}
	key, err := id.Unwrap(stanzas)
	if err == nil {
		if r, err := age.NewScryptRecipient(string(pass)); err == nil {
			r.SetWorkFactor(scryptWorkFactor)
			p.rcpt = r
		}
	}
	return key, err
}
