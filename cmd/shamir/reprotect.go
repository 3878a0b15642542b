package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

var cmdReprotect = &command{
	name:  "reprotect",
	short: "re-encrypt a holder's share file to a new passphrase, key or token",
	run:   runReprotect,
	help: `usage: shamir reprotect [-i IDENTITY]... (-r RECIPIENT | -passphrase) FILE

Reprotect is for one holder alone: it decrypts their share file FILE (with
the identities of -i, or the passphrase it is encrypted with, asked on the
terminal) and encrypts the same share again, to the recipient -r (an age1…
key, an SSH public key, or a token's plugin recipient such as age1yubikey1…)
or, with -passphrase, to a new passphrase typed twice on the terminal. FILE
is replaced in place, once the new file is complete: a failed run leaves
the old one as it was. The share inside does not change, so the manifest
still recognises it ("shamir verify -manifest" judges a file by the share
inside it) and "shamir attest answer" still proves it; no other holder's
file is touched, and no one else is needed.

A holder changes their passphrase with -passphrase, moves their share to a
new key with -r, or from a file to a token with -r age1NAME1….

Flags:
	-i, -identity FILE   an age identity file that opens FILE (repeat)
	-r, -recipient RECIPIENT
	                     encrypt the share to RECIPIENT
	-passphrase          encrypt the share with a new passphrase, typed
	                     on the terminal (/dev/tty) twice, without echo
	-q, -quiet           no summary

Examples:

	shamir reprotect -passphrase bob.shamir.age
	shamir reprotect -i old.key -r age1yubikey1q… alice.shamir.age

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

func runReprotect(args []string) error {
	fs := newFlagSet("reprotect")
	var ids list
	var rcpt string
	var pass, quiet bool
	valueFlag(fs, &ids, "i", "identity")
	stringFlag(fs, &rcpt, "r", "recipient")
	boolFlag(fs, &pass, "passphrase")
	boolFlag(fs, &quiet, "q", "quiet")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(args) != 1 || args[0] == "-":
		return usagef("reprotect takes one share file, which it replaces")
	case (rcpt == "") == !pass:
		return usagef("give the new protection: -r RECIPIENT or -passphrase, one of them")
	}
	path := args[0]
	h := holder{name: quote(path) + " (new)", recipient: rcpt, from: "-r"}
	if pass {
		h.recipient, h.from = passphraseRecipient, "-passphrase"
	}
	identities, err := readIdentities(ids)
	if err != nil {
		return err
	}
	return reprotect(path, identities, &h, quiet)
}

// reprotect replaces the age-encrypted share file path by the same share
// encrypted to h (its recipient, or a passphrase asked for now).
func reprotect(path string, ids []age.Identity, h *holder, quiet bool) error {
	if err := refuseAgeInFIPS(quote(path)); err != nil {
		return err
	}
	// One writer at a time: the file's folder is locked before it is
	// read, and the file checked again before its commit.
	tx := newChange("reprotect", false)
	defer tx.abort()
	if err := tx.lock(path); err != nil {
		return err
	}
	tx.readAt(path)
	f, err := os.Open(path)
	if err != nil {
		return fileError(err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, copyBufSize)
	head, _ := br.Peek(len(ageArmor) + 64)
	if !isAgeFile(head) {
		return withHints(fmt.Errorf("%s is not encrypted with age: not a holder's share file", quote(path)),
			"reprotect re-encrypts a share file that split -r or -R wrote")
	}
	armored := !bytes.HasPrefix(head, []byte(ageHeader))
	var in io.Reader = br
	if armored {
		in = armor.NewReader(br)
	}
	d, err := age.Decrypt(in, append(ids, &passphrasePrompt{where: quote(path)})...)
	if err != nil {
		return openError(path, err, len(ids))
	}
	dr := bufio.NewReaderSize(d, copyBufSize)
	if _, err := dr.Peek(ssmsHeadLen); err != nil && err != io.EOF {
		return fmt.Errorf("decrypting %s: %v", quote(path), err)
	}
	what, err := shareKind(dr)
	if err != nil {
		return fmt.Errorf("%s, decrypted: %v", quote(path), err)
	}
	if err := newProtection(h); err != nil {
		return err
	}
	set := tx.files
	set.ReplaceInPlace()
	if err := writeEncrypted(set, path, armored, h.rcpt, dr); err != nil {
		return err
	}
	if err := set.Commit(); err != nil {
		return err
	}
	if !quiet {
		to := "a new passphrase"
		if h.recipient != passphraseRecipient {
			to = shortKey(h.recipient)
		}
		sayf(os.Stderr, "re-encrypted %s (%s) to %s; the share in it is unchanged", quote(path), what, to)
	}
	return nil
}

// writeEncrypted starts the replacement of path in set: what r holds,
// encrypted to rcpt, armored if the old file was.
func writeEncrypted(set *outfile.Set, path string, armored bool, rcpt age.Recipient, r io.Reader) error {
	w, err := set.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(&destWriter{w, path}, copyBufSize)
	var out io.Writer = bw
	var aw io.WriteCloser
	if armored {
		aw = armor.NewWriter(bw)
		out = aw
	}
	enc, err := age.Encrypt(out, rcpt)
	if err != nil {
		return err
	}
	if _, err := io.CopyBuffer(enc, r, make([]byte, copyBufSize)); err != nil {
		if we := (*writeError)(nil); errors.As(err, &we) {
			return we
		}
		return fmt.Errorf("decrypting %s: %v", quote(path), unwrapPath(err))
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if aw != nil {
		if err := aw.Close(); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// newProtection makes h's recipient: of its -r, or of a new passphrase
// asked for now, after the old one opened the file.
func newProtection(h *holder) error {
	if h.recipient == passphraseRecipient {
		hs := []holder{*h}
		if err := askHolderPassphrases(hs, "reprotect"); err != nil {
			return err
		}
		*h = hs[0]
		return nil
	}
	if err := refuseAgeInFIPS("-r " + shortKey(h.recipient)); err != nil {
		return err
	}
	r, err := parseRecipient(h.recipient)
	if err != nil {
		return fmt.Errorf("-r: %w", err)
	}
	h.rcpt = r
	return nil
}

// openError words a share file that could not be decrypted.
func openError(path string, err error, ids int) error {
	var ie *identityError
	var nm *age.NoIdentityMatchError
	switch {
	case errors.As(err, &ie):
		return ie
	case errors.Is(err, errNoTerminal):
		return fmt.Errorf("%s is encrypted with a passphrase: %v", quote(path), err)
	case errors.As(err, &nm) && ids == 0:
		return withHints(fmt.Errorf("%s is encrypted to a key, and no identity was given", quote(path)), "give yours with -i")
	case errors.As(err, &nm):
		return fmt.Errorf("%s: none of the identities given (-i) opens it", quote(path))
	}
	return fmt.Errorf("%s: %v", quote(path), err)
}

// shareKind checks that what r starts with is a share, without consuming
// it, and says which: an SSMS share file, or a Vault-format share (a line
// of text).
func shareKind(r *bufio.Reader) (string, error) {
	head, _ := r.Peek(ssmsHeadLen)
	if info, err := shamir.InspectSSMS(head); err == nil {
		return fmt.Sprintf("SSMS share %d of split %v", info.Index+1, info.SplitID), nil
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if len(bytes.TrimSpace(line)) > 0 && printable(head) {
		return "a Vault-format share", nil
	}
	return "", errors.New("not a share")
}
