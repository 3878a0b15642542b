package main

import (
	"bytes"
	"crypto/fips140"
	"errors"
	"fmt"

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
// recipient of it. cmd is the command run, for advice.
func askHolderPassphrases(hs []holder, cmd string) error {
	for i := range hs {
		h := &hs[i]
		if h.recipient != passphraseRecipient {
			continue
		}
		if fips140.Enforced() {
			return fmt.Errorf("%s: %s's share would be encrypted with a passphrase (scrypt), which FIPS 140-3 does not approve", h.from, h.name)
		}
		pass, err := askPassphrase(fmt.Sprintf("Passphrase for %s: ", h.name))
		if errors.Is(err, errNoTerminal) {
			// reprotect's one holder is the person who runs it, with one
			// file: no name to give.
			who := h.name + " keeps their share under a passphrase, which they type"
			if cmd == "reprotect" {
				who = "the new passphrase is typed"
			}
			return withHints(fmt.Errorf("%s: %s on a terminal, and there is none (no /dev/tty, and stdin is not one)", h.from, who),
				"run shamir "+cmd+" at a terminal")
		}
		if err != nil {
			return fmt.Errorf("reading %s's passphrase from the terminal: %v", h.name, err)
		}
		if len(pass) == 0 {
			return fmt.Errorf("%s typed an empty passphrase; nothing was written", h.name)
		}
		again, err := askPassphrase(fmt.Sprintf("Passphrase for %s, again: ", h.name))
		if err != nil {
			zero(pass)
			return fmt.Errorf("reading %s's passphrase from the terminal: %v", h.name, err)
		}
		same := bytes.Equal(pass, again)
		zero(again)
		if !same {
			zero(pass)
			return fmt.Errorf("the two passphrases typed for %s differ; nothing was written", h.name)
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

// A passphrasePrompt opens a file encrypted with a passphrase (age -p, or a
// passphrase holder's file): it asks for the passphrase on the terminal
// (/dev/tty, as age does: see askPassphrase) when the file is one, and says
// nothing of other files.
type passphrasePrompt struct {
	where string // the file, for the prompt
}

func (p *passphrasePrompt) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	if len(stanzas) != 1 || stanzas[0].Type != "scrypt" {
		return nil, age.ErrIncorrectIdentity
	}
	if fips140.Enforced() {
		return nil, &identityError{fmt.Errorf("%s is encrypted with a passphrase (scrypt), which FIPS 140-3 does not approve", p.where)}
	}
	pass, err := askPassphrase(fmt.Sprintf("Passphrase for %s: ", p.where))
	if errors.Is(err, errNoTerminal) {
		return nil, err
	}
	if err != nil {
		return nil, &identityError{fmt.Errorf("reading the passphrase for %s: %v", p.where, err)}
	}
	defer zero(pass)
	id, err := age.NewScryptIdentity(string(pass))
	if err != nil {
		return nil, err
	}
	key, err := id.Unwrap(stanzas)
	if errors.Is(err, age.ErrIncorrectIdentity) {
		return nil, &identityError{fmt.Errorf("%s: wrong passphrase", p.where)}
	}
	return key, err
}
