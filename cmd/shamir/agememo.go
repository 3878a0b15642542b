package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"

	"filippo.io/age"
	"filippo.io/age/armor"
)

// This file lets a command read a holder's age file more than once in one
// run without asking its holder again: refresh reads each share once to
// check it and once to copy it under its new header, and once more to make
// an absent holder's share. The first opening asks for the passphrase, or
// runs the token's plugin; the file key it yields is kept, in memory, for
// the run, by the file's header, and a file opened with a passphrase keeps
// that passphrase as a recipient, so that the holder's refreshed share is
// sealed under the passphrase they typed.

// An ageMemory is what one run remembers of the age files it opened.
type ageMemory struct {
	keys map[[32]byte][]byte
	// opener holds, for a file opened with a passphrase or a native age
	// key, a recipient of that passphrase or key: a present holder's
	// new share is sealed as their file was (they may have re-protected
	// it since the manifest was written).
	opener map[[32]byte]*opener
	last   [32]byte // the header of the file last opened
	// opened holds the header of each file opened, by where it was
	// read from (its quoted path).
	opened map[string][32]byte
}

// note records that the file where was the one last opened.
func (m *ageMemory) note(where string) { m.opened[where] = m.last }

// An opener is the recipient of what opened a file: rcpt, and recipient
// as a holder's line spells it ("passphrase", or an age1… key).
type opener struct {
	rcpt      age.Recipient
	recipient string
}

// openerOf returns the recipient of the passphrase or native age key that
// opened the file where, if one did.
func (m *ageMemory) openerOf(where string) *opener {
	p, ok := m.opened[where]
	if !ok {
		return nil
	}
	return m.opener[p]
}

// openerFor returns the recipient of the identity id, when it is a
// passphrase or a native age key (one in an identity file encrypted with
// a passphrase too).
func openerFor(id age.Identity) *opener {
	switch id := id.(type) {
	case *passphrasePrompt:
		if id.rcpt != nil {
			return &opener{id.rcpt, passphraseRecipient}
		}
	case *age.X25519Identity:
		r := id.Recipient()
		return &opener{r, r.String()}
	case *lockedIdentity:
		return openerFor(id.used)
	case *catching:
		return openerFor(id.id)
	}
	return nil
}

func newAgeMemory() *ageMemory {
	return &ageMemory{keys: map[[32]byte][]byte{}, opener: map[[32]byte]*opener{}, opened: map[string][32]byte{}}
}

// stanzaPrint identifies an age file's header by its stanzas.
func stanzaPrint(stanzas []*age.Stanza) [32]byte {
	h := sha256.New()
	for _, s := range stanzas {
		h.Write([]byte(s.Type))
		for _, a := range s.Args {
			h.Write([]byte{0})
			h.Write([]byte(a))
		}
		h.Write([]byte{1})
		h.Write(s.Body)
		h.Write([]byte{2})
	}
	var p [32]byte
	h.Sum(p[:0])
	return p
}

// identity returns an identity that opens a file with a key remembered,
// or else with ids, remembering the key that opened it.
func (m *ageMemory) identity(ids []age.Identity) age.Identity {
	return &rememberingIdentity{m, ids}
}

type rememberingIdentity struct {
	m   *ageMemory
	ids []age.Identity
}

func (r *rememberingIdentity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	p := stanzaPrint(stanzas)
	r.m.last = p
	if k, ok := r.m.keys[p]; ok {
		return bytes.Clone(k), nil
	}
	for _, id := range r.ids {
		k, err := id.Unwrap(stanzas)
		if errors.Is(err, age.ErrIncorrectIdentity) {
			continue
		}
		if err != nil {
			return nil, err
		}
		r.m.keys[p] = bytes.Clone(k)
		if o := openerFor(id); o != nil {
			r.m.opener[p] = o
		}
		return k, nil
	}
	return nil, age.ErrIncorrectIdentity
}

// openAgeFile opens the age file f (binary or armored), from its start,
// with the keys m remembers: it asks for nothing. f is the pooled share
// file, which is checked to be the file first read each time it is opened.
func (m *ageMemory) openAgeFile(f shareFile) (io.Reader, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(f, 0, 1<<62), copyBufSize)
	var r io.Reader = br
	if head, _ := br.Peek(len(ageHeader)); !bytes.Equal(head, []byte(ageHeader)) {
		r = armor.NewReader(br)
	}
	return age.Decrypt(r, m.identity(nil))
}

// maxAgeHeader bounds the age header hashed for the manifest: a plugin's
// or a post-quantum recipient's stanza takes a few KB.
const maxAgeHeader = 64 << 10

// An ageHeaderHash hashes the header of the age file written through it:
// its bytes up to and including the header's MAC line ("--- …"), for the
// manifest's age_header_sha256. sum is "" until the header is complete.
type ageHeaderHash struct {
	buf  []byte
	sum  string
	done bool
}

func (a *ageHeaderHash) Write(p []byte) (int, error) {
	if !a.done {
		a.buf = append(a.buf, p...)
		if end := ageHeaderEnd(a.buf); end > 0 {
			h := sha256.Sum256(a.buf[:end])
			a.sum, a.done, a.buf = hex.EncodeToString(h[:]), true, nil
		} else if len(a.buf) > maxAgeHeader {
			a.done, a.buf = true, nil
		}
	}
	return len(p), nil
}

// ageHeaderEnd returns the length of the age header at the start of b,
// or 0 if b does not hold a whole one. Stanza bodies are base64, so the
// MAC line is the first to start with "---".
func ageHeaderEnd(b []byte) int {
	i := bytes.Index(b, []byte("\n---"))
	if i < 0 {
		return 0
	}
	j := bytes.IndexByte(b[i+1:], '\n')
	if j < 0 {
		return 0
	}
	return i + 1 + j + 1
}

// ageHeaderSum returns the SHA-256 of the header of the age file at path,
// or "" for an armored file or one whose header cannot be found.
func ageHeaderSum(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxAgeHeader))
	if !bytes.HasPrefix(b, []byte(ageHeader)) {
		return ""
	}
	end := ageHeaderEnd(b)
	if end == 0 {
		return ""
	}
	h := sha256.Sum256(b[:end])
	return hex.EncodeToString(h[:])
}
