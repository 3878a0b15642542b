package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"filippo.io/age"
	"filippo.io/age/agessh"
	"filippo.io/age/armor"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"golang.org/x/crypto/ssh"
)

// This file encrypts shares to the people who hold them, with age
// (age-encryption.org), and reads the identities given to combine and
// verify, with which classify.go decrypts them. Recipients and identities are parsed by age's own
// packages: native age1… keys (X25519, and age1pq1… post-quantum hybrid
// keys) by package age, SSH public and private keys by agessh, so that
// whatever age -r and age -i accept for these kinds, shamir accepts.
// Plugin recipients and identities (age1yubikey1…, AGE-PLUGIN-YUBIKEY-1…)
// run age's plugin programs: see plugin.go. Holders who keep their share under a passphrase are in
// passphrase.go.

// A holder is one person who keeps a share: a name for messages and file
// names, and the age recipient the share is encrypted to.
type holder struct {
	name      string
	recipient string // as given
	rcpt      age.Recipient
	from      string // where it was given, for messages
}

// ageHeader and ageArmor start an age file, binary or armored (age -a).
const (
	ageHeader = "age-encryption.org/v1\n"
	ageArmor  = "-----BEGIN AGE ENCRYPTED FILE-----"
)

// isAgeFile reports whether head starts an age-encrypted file.
func isAgeFile(head []byte) bool {
	return bytes.HasPrefix(head, []byte(ageHeader)) || bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(ageArmor))
}

// parseRecipient parses one recipient as age does: age1… keys with
// package age, ssh-ed25519 and ssh-rsa keys with agessh.
func parseRecipient(s string) (age.Recipient, error) {
	switch {
	case strings.HasPrefix(s, "ssh-"):
		return agessh.ParseRecipient(s)
	case isPluginRecipient(s):
		return newPluginRecipient(s)
	case strings.HasPrefix(s, "age1"):
		rs, err := age.ParseRecipients(strings.NewReader(s))
		if err != nil {
			// age quotes the whole key, 2,000 characters for a
			// post-quantum one: its first characters name it.
			msg := strings.TrimPrefix(err.Error(), "error at line 1: ")
			return nil, errors.New(strings.ReplaceAll(msg, strconv.Quote(s), quote(shortKey(s))))
		}
		return rs[0], nil
	case strings.HasPrefix(s, "AGE-SECRET-KEY-"):
		// Not quoted back: it is a private key.
		return nil, errors.New("a private key (AGE-SECRET-KEY-…), where a recipient (age1…) is wanted")
	}
	return nil, errors.New("not an age recipient (age1…) or an SSH public key (ssh-ed25519 …, ssh-rsa …)")
}

// splitHolder splits "NAME: RECIPIENT" into its name and recipient. The
// name is the part before the first colon when that part is one word; a
// recipient never has a colon before a space, so "ssh-ed25519 AAAA… me@host"
// and "age1…" have no name.
func splitHolder(s string) (name, rcpt string) {
	s = strings.TrimSpace(s)
	before, after, ok := strings.Cut(s, ":")
	if !ok || strings.ContainsFunc(before, unicode.IsSpace) || strings.TrimSpace(after) == "" {
		return "", s
	}
	return strings.TrimSpace(before), strings.TrimSpace(after)
}

// checkHolderName checks that a holder's name can be a file name: the
// share file and the paper copy are named for the holder.
func checkHolderName(name string) error { return manifest.CheckHolder(name) }

// maxRecipientsFile bounds a recipients file: a line per holder.
const maxRecipientsFile = 1 << 20

// readHolders reads the holders of -r values and of -R files, in order:
// the -R files first, one holder a line ("alice: age1…", or a bare
// recipient; blank lines and lines starting with # are skipped), then the
// -r values. A holder without a name is called share-I, I its share's
// number.
func readHolders(values, files []string) ([]holder, error) {
	var hs []holder
	for _, path := range files {
		got, err := holdersIn(path)
		if err != nil {
			return nil, err
		}
		hs = append(hs, got...)
	}
	for i, v := range values {
		name, rcpt := splitHolder(v)
		hs = append(hs, holder{name: name, recipient: rcpt, from: fmt.Sprintf("-r %d", i+1)})
	}
	names := map[string]string{}
	rcpts := map[string]string{}
	for i := range hs {
		h := &hs[i]
		if h.name == "" {
			h.name = fmt.Sprintf("share-%d", i+1)
		}
		if err := h.parse(); err != nil {
			return nil, err
		}
		if prev, ok := names[strings.ToLower(h.name)]; ok {
			return nil, withHints(fmt.Errorf("%s: the holder name %s is also in %s", h.from, quote(h.name), prev),
				"each holder gets a file named for them: give each a name of their own")
		}
		names[strings.ToLower(h.name)] = h.from
		if prev, ok := rcpts[h.recipient]; ok && h.recipient != passphraseRecipient {
			return nil, withHints(fmt.Errorf("%s: the same recipient as %s", h.from, prev),
				"one recipient per share: a person with two shares counts twice towards the threshold")
		}
		rcpts[h.recipient] = h.from
	}
	return hs, nil
}

// holdersIn reads the holders of the recipients file path.
func holdersIn(path string) ([]holder, error) {
	data, err := readAtMost(path, maxRecipientsFile, "1 MiB: a recipients file has one line per holder")
	if err != nil {
		return nil, err
	}
	var hs []holder
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rcpt := splitHolder(line)
		hs = append(hs, holder{name: name, recipient: rcpt, from: fmt.Sprintf("%s line %d", quote(path), n)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %v", quote(path), err)
	}
	return hs, nil
}

// parse checks the holder's name and parses their recipient (a
// passphrase is asked for at the split).
func (h *holder) parse() error {
	if err := checkHolderName(h.name); err != nil {
		return fmt.Errorf("%s: %v", h.from, err)
	}
	if h.recipient == passphraseRecipient {
		return nil
	}
	if err := refuseAgeInFIPS(fmt.Sprintf("%s: %s's recipient %s", h.from, h.name, shortKey(h.recipient))); err != nil {
		return err
	}
	r, err := parseRecipient(h.recipient)
	if err != nil {
		return fmt.Errorf("%s: %w", h.from, err)
	}
	h.rcpt = r
	return nil
}

// maxIdentityFile bounds an identity file, as age does.
const maxIdentityFile = 1 << 24

// readIdentities reads the identity files of -i, as age -d -i does: a file
// of age identities (AGE-SECRET-KEY-1…, one a line, # comments), such a file
// encrypted with a passphrase (age -p, binary or armored: the passphrase is
// asked for, without echo, the first time a share needs it), or an SSH
// private key (its passphrase, if it has one, asked for likewise).
func readIdentities(paths []string) ([]age.Identity, error) {
	var ids []age.Identity
	for _, path := range paths {
		if path == "-" {
			return nil, usagef("-i -: give the identity file by its path (stdin is for shares)")
		}
		if err := refuseAgeInFIPS("-i " + quote(path)); err != nil {
			return nil, err
		}
		data, err := readAtMost(path, maxIdentityFile, "16 MiB: not an identity file")
		if err != nil {
			return nil, err
		}
		trimmed := bytes.TrimSpace(data)
		switch {
		case isAgeFile(data):
			ids = append(ids, &lockedIdentity{path: path, contents: data})
		case bytes.HasPrefix(trimmed, []byte("-----BEGIN")):
			id, err := sshIdentity(path, data)
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		default:
			got, err := parseIdentityFile(data, path)
			if err != nil {
				return nil, withHints(fmt.Errorf("%s: not an identity file: %v", quote(path), err),
					"-i takes a file of age identities (AGE-SECRET-KEY-1…, as age-keygen writes, or AGE-PLUGIN-NAME-1… of a token's plugin), one encrypted with age -p, or an SSH private key")
			}
			ids = append(ids, got...)
		}
	}
	return ids, nil
}

// sshIdentity parses an SSH private key; one protected by a passphrase asks
// for it when a share needs it.
func sshIdentity(path string, pem []byte) (age.Identity, error) {
	id, err := agessh.ParseIdentity(pem)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		pub := missing.PublicKey
		if pub == nil {
			data, err := os.ReadFile(path + ".pub")
			if err != nil {
				return nil, withHints(fmt.Errorf("%s is an SSH key protected by a passphrase, and its public key is needed beside it: %v", quote(path), unwrapPath(err)),
					fmt.Sprintf("put the public key in %s", quote(path+".pub")))
			}
			if pub, _, _, _, err = ssh.ParseAuthorizedKey(data); err != nil {
				return nil, fmt.Errorf("%s: %v", quote(path+".pub"), err)
			}
		}
		return agessh.NewEncryptedSSHIdentity(pub, pem, func() ([]byte, error) {
			return askPassphrase(fmt.Sprintf("Passphrase for the SSH key %s: ", quote(path)))
		})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not an SSH private key age can use: %v", quote(path), err)
	}
	return id, nil
}

// A lockedIdentity is an identity file encrypted with a passphrase (age -p
// key.txt > key.age). It asks for the passphrase the first time a share
// needs it, and keeps the identities it unlocked for the others.
type lockedIdentity struct {
	path     string
	contents []byte
	ids      []age.Identity
	err      error
	tried    bool
	used     age.Identity // the identity that opened the last file
}

func (l *lockedIdentity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	if !l.tried {
		l.tried = true
		l.ids, l.err = l.unlock()
	}
	if l.err != nil {
		return nil, l.err
	}
	for _, id := range l.ids {
		key, err := id.Unwrap(stanzas)
		if errors.Is(err, age.ErrIncorrectIdentity) {
			continue
		}
		l.used = id
		return key, err
	}
	return nil, age.ErrIncorrectIdentity
}

// unlock asks for the identity file's passphrase, up to passphraseTries
// times, and reads the identities in it.
func (l *lockedIdentity) unlock() ([]age.Identity, error) {
	var d io.Reader
	for try := 1; d == nil; try++ {
		pass, err := askPassphrase(fmt.Sprintf("Passphrase for the identity file %s: ", quote(l.path)))
		if err != nil {
			return nil, &identityError{fmt.Errorf("the identity file %s is encrypted: %v", quote(l.path), err)}
		}
		sid, err := age.NewScryptIdentity(string(pass))
		zero(pass)
		if err != nil {
			return nil, err
		}
		var r io.Reader = bytes.NewReader(l.contents)
		if !bytes.HasPrefix(l.contents, []byte(ageHeader)) {
			r = armor.NewReader(r)
		}
		d, err = age.Decrypt(r, sid)
		var nm *age.NoIdentityMatchError
		switch {
		case errors.As(err, &nm) && try < passphraseTries:
			warnf(os.Stderr, "wrong passphrase for the identity file %s; try again (%s left)", quote(l.path), count(passphraseTries-try, "try", "tries"))
		case errors.As(err, &nm):
			return nil, &identityError{fmt.Errorf("the identity file %s: wrong passphrase, or not encrypted with one", quote(l.path))}
		case err != nil:
			return nil, &identityError{fmt.Errorf("the identity file %s: %v", quote(l.path), err)}
		}
	}
	all, err := io.ReadAll(io.LimitReader(d, maxIdentityFile))
	if err != nil {
		return nil, &identityError{fmt.Errorf("the identity file %s: %v", quote(l.path), err)}
	}
	ids, err := parseIdentityFile(all, l.path)
	if err != nil {
		return nil, &identityError{fmt.Errorf("the identity file %s, decrypted: %v", quote(l.path), err)}
	}
	return ids, nil
}

// An identityError is an identity that could not be used at all (a wrong
// passphrase): combine stops, rather than take every share for another
// holder's.
type identityError struct{ err error }

func (e *identityError) Error() string { return e.err.Error() }
func (e *identityError) Unwrap() error { return e.err }
