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
// operator init -pgp-keys writes each unseal key (and gpg -e a file): a
// public-key encrypted session key packet (RFC 9580 5.1: tag 1, in the new
// or the old packet format, version 3) whose fields fill it exactly,
// followed by another packet that such a message holds (a session key, or
// the encrypted data). A Vault-format share is random bytes, whose first
// byte is such a packet's 1 time in 85: the whole shape is checked, which
// random bytes pass about once in 10^11.
func isPGPKey(tok string) bool {
	b, err := decodeBase64(tok)
	if err != nil || len(b) < 80 {
		return false
	}
	tag, body, n, ok := pgpPacket(b)
	if !ok || tag != 1 || body+n >= len(b) || !pgpSessionKeyV3(b[body:body+n]) {
		return false
	}
	next, _, _, ok := pgpPacket(b[body+n:])
	// Another session key (1, 3), or the data: encrypted (9), integrity
	// protected (18), AEAD (20).
	return ok && (next == 1 || next == 3 || next == 9 || next == 18 || next == 20)
}

// pgpSessionKeyV3 reports whether p is the body of a version 3 public-key
// encrypted session key packet: the version, a key ID, the algorithm, and
// the encrypted key in that algorithm's fields, which end where p does.
func pgpSessionKeyV3(p []byte) bool {
	if len(p) < 10 || p[0] != 3 {
		return false
	}
	algo, rest := p[9], p[10:]
	switch algo {
	case 1, 2: // RSA: one MPI
		rest = pgpMPI(rest)
	case 16: // Elgamal: two
		rest = pgpMPI(pgpMPI(rest))
	case 18: // ECDH: a point, then the wrapped key with its length
		rest = pgpShort(pgpMPI(rest))
	case 25, 26: // X25519, X448: the ephemeral key, then the wrapped key
		size := map[byte]int{25: 32, 26: 56}[algo]
		if len(rest) < size {
			return false
		}
		rest = pgpShort(rest[size:])
	default:
		return false
	}
	return rest != nil && len(rest) == 0
}

// pgpMPI returns what follows the multiprecision integer p starts with (a
// count of bits, then the integer), or nil if p does not start with one.
// The count is not held to the integer's top bit: Go's openpgp, which
// Vault used, counts 8 bits a byte of an RSA ciphertext, leading zeros and
// all.
func pgpMPI(p []byte) []byte {
	if len(p) < 3 {
		return nil
	}
	bits := int(p[0])<<8 | int(p[1])
	size := (bits + 7) / 8
	if bits == 0 || len(p) < 2+size {
		return nil
	}
	return p[2+size:]
}

// pgpShort returns what follows the field of one octet of length and as
// many octets that p starts with, or nil.
func pgpShort(p []byte) []byte {
	if len(p) < 1 || len(p) < 1+int(p[0]) {
		return nil
	}
	return p[1+int(p[0]):]
}

// pgpPacket reads the header of the OpenPGP packet that b starts with: its
// tag, where its body starts and its length (a partial length, which the
// data packets may have, counts as its first part, which is enough to tell
// the packet). ok is false if b starts no packet header.
func pgpPacket(b []byte) (tag, body, n int, ok bool) {
	if len(b) < 2 || b[0]&0x80 == 0 {
		return 0, 0, 0, false
	}
	if b[0]&0x40 == 0 { // the old format: the tag in bits 5-2, then 1, 2 or 4 octets of length
		tag = int(b[0]>>2) & 0xf
		switch b[0] & 3 {
		case 0:
			return tag, 2, int(b[1]), true
		case 1:
			if len(b) < 3 {
				return 0, 0, 0, false
			}
			return tag, 3, int(b[1])<<8 | int(b[2]), true
		case 2:
			if len(b) < 5 {
				return 0, 0, 0, false
			}
			return tag, 5, int(b[1])<<24 | int(b[2])<<16 | int(b[3])<<8 | int(b[4]), true
		}
		return tag, 1, 0, true // an indeterminate length
	}
	tag = int(b[0] & 0x3f)
	switch l := int(b[1]); {
	case l < 192:
		return tag, 2, l, true
	case l < 224:
		if len(b) < 3 {
			return 0, 0, 0, false
		}
		return tag, 3, (l-192)<<8 + int(b[2]) + 192, true
	case l < 255:
		return tag, 2, 1 << (l & 0x1f), true // a partial length
	default:
		if len(b) < 6 {
			return 0, 0, 0, false
		}
		return tag, 6, int(b[2])<<24 | int(b[3])<<16 | int(b[4])<<8 | int(b[5]), true
	}
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
	if err := writeSecret(secret, set, opts); err != nil {
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
