package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file is the one place that tells what an input holds: an SSMS share,
// Vault-format text, the text of paper shares, or a layer (an age-encrypted
// file, a picture of a QR code) whose content it tells in turn. It returns
// what it found as a content, and the share set (inputs.go) files the
// contents; no layer calls back into the share set.

// A contentKind is what an input holds.
type contentKind int

const (
	// kindNone is no share: why says what it is instead. A file named
	// *.shamir that holds none is taken for a damaged share.
	kindNone contentKind = iota
	// kindAside is something not to be read as a share, and never
	// counted: a manifest, another holder's share, why says which.
	kindAside
	// kindSSMS is one SSMS share, read from r.
	kindSSMS
	// kindText is Vault-format text: lines that could be shares.
	kindText
	// kindPaper is the text of paper shares, one or several.
	kindPaper
	// kindSSSS is shares of ssss (ssss-split), one a line.
	kindSSSS
)

// A content is what the classifier found in one input.
type content struct {
	kind contentKind
	why  string // kindNone, kindAside: what it is, for the note
	// fips says that kindAside is an age file that FIPS 140-only mode
	// keeps closed.
	fips bool
	// unopened says that kindAside is an age file of the split's that
	// could not be opened (its passphrase was typed wrong three times).
	unopened bool
	// sealed says that kindSSMS was read from inside an age file, whose
	// key the classifier's memory holds.
	sealed bool

	r *bufio.Reader // kindSSMS: positioned at the start of the share
	// plain says that the share is the input's bytes as they are, from
	// its start (not the content of an age file): r only peeked at them.
	plain bool
	// age, for a share in an age file, reads it again.
	age  *ageLayer
	head []byte // kindSSMS: its first bytes
	size int64  // kindSSMS: its length, or -1 if unknown

	text  *vaultText   // kindText
	paper []paperPiece // kindPaper
	ssss  []ssssShare  // kindSSSS
	// ignored are the lines of a kindSSSS text that are no share.
	ignored []problem
}

// A vaultText is a text of Vault-format shares, one per line (or the JSON
// of vault operator init).
type vaultText struct {
	shares []textShare
	// threshold is the threshold the text records (vault operator init's
	// JSON does), and field the name of its field; 0 and "" otherwise.
	threshold int
	field     string
	// note, when not empty, says why the text may be a note rather than
	// shares: it then has no say in the format (see decideFormat).
	note string
}

// A paperPiece is one paper share: the bytes its text or code decoded to,
// or why it did not decode.
type paperPiece struct {
	where string
	data  []byte
	err   error
	ssms  bool // data is an SSMS share; otherwise a Vault-format one
}

// A classifier tells what inputs hold. decode, when not empty, says that
// they are Vault-format text in that encoding; ids open age-encrypted ones.
type classifier struct {
	decode string
	ids    []age.Identity
	// mem, when not nil, remembers how each age file was opened, for
	// the commands that read a file again (ageMemory).
	mem *ageMemory
	// inLayer says that the input is the content of a layer, in which
	// another layer is no share: an age file sealed in an age file could
	// nest as deep as the file is long.
	inLayer bool
}

// sniffLen is how much of an input is read to tell what it holds.
const sniffLen = 512

// classify tells what br holds, named where in messages; size is its
// length, or -1. The error is one that ends the run (an identity that
// cannot be unlocked, an input that cannot be read); everything else is
// a content.
func (c *classifier) classify(br *bufio.Reader, where string, size int64) (content, error) {
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return content{}, fmt.Errorf("reading %s: %v", where, unwrapPath(err))
	}
	switch {
	case len(head) == 0:
		return none("empty"), nil
	case shamir.IsSSMS(head) && c.decode == "":
		return content{kind: kindSSMS, r: br, head: head, size: size, plain: !c.inLayer}, nil
	case shamir.IsSSMS(head):
		return aside("an SSMS share file; -decode " + c.decode + " reads Vault-format shares"), nil
	case c.inLayer && (isAgeFile(head) || isPicture(head)):
		return none("a layer within a layer"), nil
	case isAgeFile(head):
		return c.openAge(br, head, where)
	case isPicture(head):
		return c.readPicture(br, where)
	case isText(head) && isPaperShare(string(head)):
		return c.readPaper(br, where), nil
	case isText(head) && isHTML(head):
		return c.readPage(br, where), nil
	case manifest.IsManifest(head):
		return aside("the manifest of a split (verify -manifest checks files against it)"), nil
	case !isText(head):
		return none("neither an SSMS share nor text"), nil
	}
	return c.readText(br, where)
}

func none(why string) content  { return content{kind: kindNone, why: why} }
func aside(why string) content { return content{kind: kindAside, why: why} }

// isText reports whether b, the start of a file, looks like text: no NUL
// bytes or other control characters besides line ends and tabs.
func isText(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// openAge tells what the age-encrypted file br holds, if an identity of -i
// opens it. One that none opens is another holder's: set aside.
func (c *classifier) openAge(br *bufio.Reader, head []byte, where string) (content, error) {
	if fipsOnly() {
		return content{kind: kindAside, why: errAgeFIPS.Error(), fips: true}, nil
	}
	var r io.Reader = br
	if !bytes.HasPrefix(head, []byte(ageHeader)) {
		r = armor.NewReader(br)
	}
	// A file encrypted with a passphrase asks for it (passphrase.go). The
	// file key is kept, to read the share again (agereopen.go); the run's
	// memory, when it has one, also remembers what opened the file (a
	// holder's passphrase or key, to seal their new share as it was), and
	// opens a file with the same header without asking again (agememo.go).
	var keys keyCatcher
	ids := keys.wrap(append(slices.Clip(c.ids), &passphrasePrompt{where: where}))
	if c.mem != nil {
		ids = []age.Identity{&catching{c.mem.identity(ids), &keys}}
	}
	d, err := age.Decrypt(r, ids...)
	if err != nil {
		var nm *age.NoIdentityMatchError
		var ie *identityError
		switch {
		case errors.As(err, &ie):
			return content{}, ie
		case errors.Is(err, errPassphraseTries):
			return content{kind: kindAside, why: "could not be opened: " + errPassphraseTries.Error(), unopened: true}, nil
		case errors.Is(err, errNoTerminal):
			return aside("encrypted with a passphrase: " + errNoTerminal.Error()), nil
		case errors.As(err, &nm) && len(c.ids) == 0:
			return aside("encrypted with age, and no identity was given: give yours with -i"), nil
		case errors.As(err, &nm):
			return aside("not ours: encrypted to another holder, none of the identities given (-i) opens it"), nil
		}
		return none("encrypted with age, but cannot be decrypted: " + err.Error()), nil
	}
	if c.mem != nil {
		c.mem.note(where)
	}
	layer := *c
	layer.inLayer = true
	inner, err := layer.classify(bufio.NewReaderSize(d, copyBufSize), where, -1)
	if bt := (*badJSONThreshold)(nil); errors.As(err, &bt) {
		return content{}, err
	}
	if err != nil {
		return none("encrypted with age, but cannot be decrypted: " + unwrapPath(err).Error()), nil
	}
	switch inner.kind {
	case kindNone, kindAside:
		// Only shares are sealed inside an age file; anything else is
		// no share, and a *.shamir.age file is named as a bad one.
		return none("encrypted with age, but what it holds is no share"), nil
	case kindSSMS:
		inner.age = &ageLayer{key: keys.key, armored: r != io.Reader(br)}
	}
	inner.sealed = true
	return inner, nil
}

// readPicture tells what the QR code in the picture r holds: a paper
// share, or a Vault-format share (as qrencode makes from an unseal key).
func (c *classifier) readPicture(r io.Reader, where string) (content, error) {
	data, err := io.ReadAll(io.LimitReader(r, paper.MaxImageBytes+1))
	if err != nil {
		return aside("reading it: " + unwrapPath(err).Error()), nil
	}
	if len(data) > paper.MaxImageBytes {
		return none("a picture over 64 MiB"), nil
	}
	text, err := pictureText(data)
	if err != nil {
		return none("a picture: " + err.Error()), nil
	}
	if isPaperShare(text) {
		return content{kind: kindPaper, paper: []paperPiece{c.paperPiece(where, text)}}, nil
	}
	return c.readText(strings.NewReader(text), where)
}

// readPaper reads the paper shares typed into the text r, one or several,
// each starting with the tag.
func (c *classifier) readPaper(r io.Reader, where string) content {
	data, err := io.ReadAll(io.LimitReader(r, maxTextInput+1))
	if err != nil {
		return aside("reading it: " + unwrapPath(err).Error())
	}
	if len(data) > maxTextInput {
		return aside("more text than paper shares could be")
	}
	texts := splitPaper(string(data))
	pieces := make([]paperPiece, len(texts))
	for i, text := range texts {
		w := where
		if len(texts) > 1 {
			w = fmt.Sprintf("%s share %d", where, i+1)
		}
		pieces[i] = c.paperPiece(w, text)
	}
	return content{kind: kindPaper, paper: pieces}
}

// isHTML reports whether head starts an HTML page, as split -paper writes
// one beside each share's pictures.
func isHTML(head []byte) bool {
	h := strings.ToLower(strings.TrimSpace(string(head)))
	return strings.HasPrefix(h, "<!doctype html") || strings.HasPrefix(h, "<html")
}

// readPage reads the paper share printed on the HTML page r, as split
// -paper writes it: the text under the code.
func (c *classifier) readPage(r io.Reader, where string) content {
	data, err := io.ReadAll(io.LimitReader(r, maxTextInput+1))
	switch {
	case err != nil:
		return aside("reading it: " + unwrapPath(err).Error())
	case len(data) > maxTextInput:
		return none("an HTML page over 16 MiB")
	}
	text := paperInText.Find(data)
	if text == nil {
		return none("an HTML page without a paper share")
	}
	return c.readPaper(bytes.NewReader(text), where)
}

// paperPiece decodes the paper share in text, from where.
func (c *classifier) paperPiece(where, text string) paperPiece {
	b, err := parsePaper(text)
	return paperPiece{where: where, data: b, err: err, ssms: err == nil && shamir.IsSSMS(b) && c.decode == ""}
}

// readText reads the text r as Vault-format shares, and tells whether it
// could be: a text of which no line could be a share is none; one that
// may be a note says why (see shareSize and minVotingShare). The error is
// JSON whose threshold cannot be one: vault operator init's output, damaged,
// which ends the run rather than being taken for a note.
func (c *classifier) readText(r io.Reader, where string) (content, error) {
	shares, t, field, err := readTextShares(r, where)
	if bt := (*badJSONThreshold)(nil); errors.As(err, &bt) {
		return content{}, err
	}
	if err != nil {
		return none(err.Error()), nil
	}
	if c, ok := foreign(shares, c.decode); ok {
		return c, nil
	}
	n, long, note := 0, 0, ""
	for _, s := range shares {
		switch size := shareSize(s.token, c.decode); {
		case size >= minVotingShare || c.decode != "" && size > 0:
			long++
			fallthrough
		case size > 0:
			n++
		case note == "":
			note = "a note: " + strings.TrimPrefix(s.where, where+" ") + " is no share"
		}
	}
	switch {
	case n == 0 && c.decode != "":
		return none("no line is a " + c.decode + " share"), nil
	case n == 0:
		return none("no line is a share"), nil
	case note == "" && long == 0:
		note = "a note: " + count(n, "line") + ", too short to be told from words beside SSMS shares"
	}
	return content{kind: kindText, text: &vaultText{shares: shares, threshold: t, field: field, note: note}}, nil
}

// The paper codec and the QR reader (internal/paper) are reached through
// these functions only.

// isPicture reports whether head starts a PNG or a JPEG file.
func isPicture(head []byte) bool { return paper.IsImage(head) }

// pictureText returns the text of the QR code in the picture data, within
// the picture budget.
func pictureText(data []byte) (string, error) { return paper.ReadQR(data) }

// isPaperShare reports whether s starts with the tag of a paper share.
func isPaperShare(s string) bool { return paper.IsText(s) }

// parsePaper decodes the text of one paper share.
func parsePaper(s string) ([]byte, error) { return paper.Parse(s) }

// splitPaper splits a text into the texts of the paper shares in it, each
// starting with the tag.
func splitPaper(s string) []string { return paper.Split(s) }
