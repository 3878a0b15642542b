package manifest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A File is what is known of a file given back, for Judge: its bytes'
// hash, and the share it holds when that could be read without a key.
type File struct {
	Name   string // its name; only the last element counts
	SHA256 string // of its bytes, in hex
	// ShareSHA256 is the SHA-256 of the share the file holds, hashed as
	// plain_sha256 hashes it (docs/MANIFEST.md), when the share could be
	// read: an SSMS share file, a decrypted Vault-format share, a paper
	// copy (a picture of its code, its text). How says which, for the
	// verdict: "decrypted", "from a paper copy".
	ShareSHA256, How string
	// SplitID and Number are those in the share's SSMS header, if it has
	// one: a share altered past its header is still known by them.
	SplitID string
	Number  int
	// MayHoldShare says that the file could hold a share that could not
	// be read without a key (an age file) or at all (a damaged one).
	MayHoldShare bool
	// Sealed says that the file is a well-formed age file that no key at
	// hand opens: under a holder's name, one its holder may have
	// re-protected (shamir reprotect) since the split, whose share only
	// the holder's key can check.
	Sealed bool
	// HeaderSHA256 is, for a Sealed file, the SHA-256 of its age header.
	HeaderSHA256 string
}

// A Verdict is what a file given back is.
type Verdict int

const (
	NotShare Verdict = iota // no share, and no holder's name: not judged
	Good                    // the file handed to a holder, or the share in it
	Swapped                 // another holder's, under this holder's name
	Altered                 // a holder's name or share, other bytes
	Foreign                 // a share, or what may hold one, of no holder
	// Unchecked is a holder's file, well-formed age but not the bytes
	// handed out, that no key at hand opens: re-protected by its holder
	// since the split, or replaced; only the holder's key can tell.
	Unchecked
)

// A Judgement is Judge's verdict on one file, and why.
type Judgement struct {
	Verdict Verdict
	// Of is the entry of the share the file is (Good, Swapped), or whose
	// name or share number it bears (Altered).
	Of *Share
	// Named is the entry whose file name the file bears, if any.
	Named *Share
	file  File
	split string
}

// Judge tells what f is, by its bytes or, if they are not those handed
// out, by the share it holds: a paper copy or a decrypted share is judged
// as the share in it. Every file gets exactly one verdict.
func (m *Manifest) Judge(f File) Judgement {
	j := Judgement{file: f, split: m.SplitID, Named: m.namedFor(f.Name)}
	for i := range m.Shares {
		s := &m.Shares[i]
		if s.EncryptedSHA256 == f.SHA256 || s.PlainSHA256 == f.SHA256 || f.ShareSHA256 != "" && s.PlainSHA256 == f.ShareSHA256 {
			j.Of = s
			break
		}
	}
	switch {
	case j.Of != nil && (j.Named == nil || j.Named == j.Of):
		j.Verdict = Good
	case j.Of != nil:
		j.Verdict = Swapped
	case j.Named != nil && f.Sealed && (j.Named.HeaderSHA256 == "" || f.HeaderSHA256 != j.Named.HeaderSHA256):
		// Another age header: its holder's new protection, or a
		// replacement; the same header with other bytes is altered.
		j.Verdict, j.Of = Unchecked, j.Named
	case j.Named != nil:
		j.Verdict, j.Of = Altered, j.Named
	case f.SplitID == m.SplitID && m.byNumber(f.Number) != nil:
		j.Verdict, j.Of = Altered, m.byNumber(f.Number)
	case f.ShareSHA256 != "" || f.SplitID != "" || f.MayHoldShare:
		j.Verdict = Foreign
	}
	return j
}

// Given returns the entries a judgement accounts for: a holder whose file
// was given, altered or not, is not missing.
func (j Judgement) Given() []*Share {
	var g []*Share
	for _, s := range []*Share{j.Of, j.Named} {
		if s != nil && (len(g) == 0 || g[0] != s) {
			g = append(g, s)
		}
	}
	return g
}

// copyExts are the endings of a holder's name that name a copy of their
// share: the share file decrypted (age -d alice.shamir.age > alice.shamir),
// their paper copy's picture and page, a text file of it.
var copyExts = []string{".shamir", ".png", ".jpg", ".jpeg", ".txt", ".html"}

// namedFor returns the entry whose holder's file, or a copy of it, the
// file name names.
func (m *Manifest) namedFor(name string) *Share {
	base := filepath.Base(name)
	for i := range m.Shares {
		s := &m.Shares[i]
		if base == s.File {
			return s
		}
		for _, ext := range copyExts {
			if strings.EqualFold(base, s.Holder+ext) {
				return s
			}
		}
	}
	return nil
}

func (m *Manifest) byNumber(n int) *Share {
	for i := range m.Shares {
		if m.Shares[i].Share == n {
			return &m.Shares[i]
		}
	}
	return nil
}

// String says what the file is, for a message that names it first.
func (j Judgement) String() string {
	f, of := j.file, j.Of
	switch j.Verdict {
	case Good:
		s := fmt.Sprintf("share %d, of holder %s", of.Share, quote(of.Holder))
		switch {
		case f.SHA256 == of.EncryptedSHA256 && filepath.Base(f.Name) != of.File:
			return s + ", as handed out (as " + quote(of.File) + ")"
		case f.SHA256 == of.EncryptedSHA256:
			return s + ", as handed out"
		}
		return s + ": the share in the file handed out, " + pick(f.How != "", f.How, "decrypted")
	case Swapped:
		return fmt.Sprintf("swapped: this is the share of holder %s (share %d, handed out as %s), not of %s",
			quote(of.Holder), of.Share, quote(of.File), quote(j.Named.Holder))
	case Altered:
		if j.Named == nil {
			return fmt.Sprintf("altered: share %d of this split (holder %s) by its header, but neither the file handed out nor the share in it: its SHA-256 differs",
				of.Share, quote(of.Holder))
		}
		return fmt.Sprintf("altered: not the file handed to holder %s (share %d), nor the share in it: its SHA-256 differs", quote(of.Holder), of.Share)
	case Unchecked:
		return fmt.Sprintf("holder %s's file (share %d), not the one handed out: re-protected since the split (or replaced), and no key given opens it; its share can be checked only with the holder's key; ask the holder to run attest",
			quote(of.Holder), of.Share)
	case Foreign:
		s := "foreign: not a file of this split (split ID " + j.split + ")"
		if f.SplitID != "" && f.SplitID != j.split {
			s += ": an SSMS share of split " + f.SplitID
		}
		return s
	}
	return "not a share file"
}
