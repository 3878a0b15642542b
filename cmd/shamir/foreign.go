package main

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gf256/shamir/cmd/shamir/internal/ssss"
)

// This file tells shares of other tools from Vault-format ones, so that
// none is read as hex or base64 and turned into a wrong secret: shares of
// ssss (ssss-split, Debian's ssss package), which combine recovers
// (internal/ssss); SLIP-39 mnemonics and other word lists; unseal keys that
// vault operator init -pgp-keys encrypted; OpenPGP messages. The classifier
// calls foreign on every text before it takes its lines for Vault-format
// shares.

// An ssssShare is one share of ssss, and where it was read.
type ssssShare struct {
	where string
	share ssss.Share
}

// foreign tells whether the lines of a text, as readTextShares read them,
// are shares of another tool, and returns what to file if so. An ssss text
// is one where most lines are ssss shares; its other lines are noted.
func foreign(lines []textShare, decode string) (content, bool) {
	if len(lines) == 0 {
		return content{}, false
	}
	if strings.HasPrefix(lines[0].token, "-----BEGIN PGP") {
		return none("an OpenPGP message: decrypt it first (gpg -d), then give shamir what it holds"), true
	}
	if decode == "" {
		var c content
		for _, l := range lines {
			if s, err := ssss.Parse(l.token); err == nil {
				c.ssss = append(c.ssss, ssssShare{l.where, s})
			} else {
				c.ignored = append(c.ignored, problem{l.where, "not an ssss share (" + err.Error() + ")"})
			}
		}
		if 2*len(c.ssss) > len(lines) {
			c.kind = kindSSSS
			return c, true
		}
	}
	words, pgp := 0, 0
	for _, l := range lines {
		if isMnemonic(l.token) {
			words++
		}
		if isPGPKey(l.token) {
			pgp++
		}
	}
	switch {
	case words == len(lines):
		n := len(strings.Fields(lines[0].token))
		what := fmt.Sprintf("a mnemonic of %d words", n)
		if n == 20 || n == 33 {
			what = fmt.Sprintf("a SLIP-39 share, perhaps (%d words, as SLIP-39 shares are)", n)
		}
		return none(what + ": words, not shares shamir reads; recover it with the tool that made it"), true
	case pgp == len(lines):
		return none("unseal keys encrypted with OpenPGP (vault operator init -pgp-keys): decrypt each first, as in: echo KEY | base64 -d | gpg -dq"), true
	}
	return content{}, false
}

// leadingZeros counts the zero bytes that secret starts with, without a
// branch on its bytes: only the count, which the note prints, is told.
func leadingZeros(secret []byte) int {
	k, run := 0, 1
	for _, b := range secret {
		run &= subtle.ConstantTimeByteEq(b, 0)
		k += run
	}
	return k
}

// isMnemonic reports whether line is a list of 12 or more lowercase words,
// as SLIP-39 shares (20 or 33 words) and BIP-39 phrases (12 to 24) are.
func isMnemonic(line string) bool {
	words := strings.Fields(line)
	if len(words) < 12 {
		return false
	}
	for _, w := range words {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			return false
		}
	}
	return true
}

// isPGPKey reports whether tok is base64 of an OpenPGP message, as vault
// operator init -pgp-keys writes each unseal key: it starts with a
// public-key encrypted session key packet (tag 1, in the new or the old
// packet format) and is far longer than a key share.
func isPGPKey(tok string) bool {
	b, err := decodeBase64(tok)
	if err != nil || len(b) < 80 {
		return false
	}
	return b[0] == 0xc1 || b[0] == 0x84 || b[0] == 0x85
}

// ssssNoThreshold is the error for ssss shares without -t.
func ssssNoThreshold(where string) error {
	return withHints(fmt.Errorf("%s: shares of ssss (ssss-split's, \"N-HEX\" a line), which do not record their threshold", where),
		"give it with -t, as to ssss-combine")
}

// ssssElsewhere is the error for ssss shares given to another command
// than combine and verify.
func ssssElsewhere(cmd string) error {
	return withHints(fmt.Errorf("the inputs hold ssss-split's shares (\"N-HEX\" a line): %s reads the shares shamir makes", cmd),
		"shamir combine -t T recovers their secret, shamir verify -t T checks them; shamir split makes shares of it that every command reads")
}

// combineSSSS recovers the secret from shares of ssss, with threshold t
// (-t), as ssss-combine does; the shares beyond the threshold are checked
// against the others.
func combineSSSS(set *shareSet, t int, opts outputOptions) error {
	if t == 0 {
		return ssssNoThreshold(strings.Join(set.ssssFrom, ", "))
	}
	if n := len(set.ssss); n < t {
		return withHints(fmt.Errorf("not enough ssss shares to recover the secret: %s, %d needed (-t %d)", count(n, "share"), t, t), "add shares")
	}
	shares := make([]ssss.Share, len(set.ssss))
	for i, s := range set.ssss {
		shares[i] = s.share
	}
	secret, err := ssss.Combine(shares, t, true)
	switch {
	case errors.Is(err, ssss.ErrInconsistent):
		return withHints(fmt.Errorf("the %d ssss shares do not agree with each other: one is damaged or of another split, or -t %d is not the threshold they were made with", len(shares), t),
			fmt.Sprintf("check the threshold; with %d of them, ssss-combine -t %d would give a wrong secret", t, t))
	case err != nil:
		return errors.New(strings.TrimPrefix(err.Error(), "ssss: "))
	}
	defer zero(secret)
	if len(shares) == t && !opts.quiet {
		sayf(os.Stderr, "note: %s, as many as the threshold (-t %d): there is no spare share to check them against, and a damaged one would make the secret wrong",
			count(t, "ssss share"), t)
	}
	if k := leadingZeros(secret); k > 0 && !opts.quiet {
		// The bytes are kept, as the shares hold them: a key may
		// start with a zero byte, and a padded secret is told by
		// the note.
		sayf(os.Stderr, "note: the secret starts with %s, as a secret shorter than its shares does (ssss-split -s pads it so): they are kept; ssss-combine drops them",
			count(k, "zero byte"))
	}
	w, err := newSecretWriter(opts.path, opts.encode, opts.force, set.seen)
	if err != nil {
		return err
	}
	defer w.abort()
	if _, err := w.Write(secret); err != nil {
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	summarize(len(shares), nil, opts)
	return nil
}

// verifySSSS checks shares of ssss with threshold t against each other:
// those beyond the first t must lie on the polynomial the first t define.
// Which share is bad is not told: the format has no checksum.
func verifySSSS(set *shareSet, t int, quiet bool) error {
	if t == 0 {
		return ssssNoThreshold(strings.Join(set.ssssFrom, ", "))
	}
	n := len(set.ssss)
	if n <= t {
		return withHints(fmt.Errorf("%s (-t %d): any %d shares agree, so there is nothing to check them against",
			count(n, "ssss share"), t, t), fmt.Sprintf("give at least %d shares", t+1))
	}
	shares := make([]ssss.Share, n)
	for i, s := range set.ssss {
		shares[i] = s.share
	}
	secret, err := ssss.Combine(shares, t, true)
	zero(secret)
	switch {
	case errors.Is(err, ssss.ErrInconsistent):
		return withHints(fmt.Errorf("the %d ssss shares do not agree with each other: one is damaged or of another split, or -t %d is not the threshold they were made with", n, t),
			"ssss shares carry no checksum: which is bad cannot be told; try leaving each out in turn")
	case err != nil:
		return errors.New(strings.TrimPrefix(err.Error(), "ssss: "))
	}
	return verdict(n, nil, quiet)
}
