package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file checks files against the manifest of a split (verify
// -manifest); internal/manifest holds the manifest's format, its
// validation and the verdicts. Here each file given is read, without any
// key, for what the verdicts need: its bytes' hash, and the share in it
// when one can be read (a share file in the clear, a paper copy's picture
// or text, a decrypted Vault-format share).

// readManifest reads and checks the manifest at path (manifest.Read).
func readManifest(path string) (*manifest.Manifest, error) {
	// A change stopped halfway in its folder: the manifest may not go
	// with the shares beside it until it is finished or undone.
	if err := outfile.Interrupted(filepath.Dir(path)); err != nil {
		return nil, err
	}
	m, err := manifest.Read(path)
	if err != nil {
		return nil, fileError(err)
	}
	return m, nil
}

// verifyManifest checks the files the arguments name (default: the
// manifest's folder) against the manifest at path: each gets one verdict.
//
// A holder's age file whose bytes are not those handed out (re-encrypted
// by shamir reprotect) is decrypted with ids, or its passphrase, when it
// opens, and judged by the share inside.
func verifyManifest(path string, args []string, quiet bool, ids []age.Identity) error {
	m, err := readManifest(path)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{filepath.Dir(path)}
	}
	if errs := interrupted(args); len(errs) > 0 {
		return joinErrors(errs)
	}
	files, ignored, err := manifestInputs(path, args)
	if err != nil {
		return err
	}
	if md := filepath.Dir(path); !slices.ContainsFunc(args, func(a string) bool { return sameDir(a, md) }) {
		ignored = append(ignored, leftoversIn(md)...)
	}
	var bad []problem
	good, unchecked := 0, 0
	given := map[*manifest.Share]bool{}
	for _, f := range files {
		j, err := judgeFile(f, m, ids)
		if err != nil {
			bad = append(bad, problem{quote(f), err.Error()})
			continue
		}
		for _, s := range j.Given() {
			given[s] = true
		}
		switch j.Verdict {
		case manifest.NotShare:
			ignored = append(ignored, problem{quote(f), j.String()})
		case manifest.Good:
			good++
			if !quiet {
				sayf(os.Stderr, "%s: %s", quote(f), j)
			}
		case manifest.Unchecked:
			// Not bad: only its holder can tell, and is asked to.
			unchecked++
			sayf(os.Stderr, "%s: %s", quote(f), j)
		default:
			bad = append(bad, problem{quote(f), j.String()})
		}
	}
	if !quiet {
		noteIgnored(os.Stderr, ignored)
		if missing := notGiven(m, given); len(missing) > 0 && len(missing) < len(m.Shares) {
			sayf(os.Stderr, "not given: the files of %s", strings.Join(missing, ", "))
		}
	}
	if good == 0 && len(bad) == 0 && unchecked == 0 {
		return errors.New("no file of the split among the inputs")
	}
	if unchecked > 0 && len(bad) == 0 {
		if !quiet {
			sayf(os.Stderr, "%s good; %s checked only by %s (shamir attest)", count(good, "share is", "shares are"),
				count(unchecked, "file is", "files are"), pick(unchecked == 1, "its holder", "their holders"))
		}
		return nil
	}
	return verdict(good, bad, quiet)
}

// judgeFile judges the file f against the manifest m. A file that may
// hold a share, whose bytes are not those handed out, is opened (with ids,
// or its passphrase) and judged by the share inside.
func judgeFile(f string, m *manifest.Manifest, ids []age.Identity) (manifest.Judgement, error) {
	mf, err := inspectForManifest(f, m)
	if err == nil && mf.MayHoldShare && mf.ShareSHA256 == "" && m.Judge(mf).Verdict != manifest.Good {
		err = openForManifest(&mf, f, ids)
	}
	if err != nil {
		return manifest.Judgement{}, err
	}
	return m.Judge(mf), nil
}

// notGiven returns the quoted names of the holders of m whose shares are
// not in given.
func notGiven(m *manifest.Manifest, given map[*manifest.Share]bool) []string {
	var missing []string
	for i := range m.Shares {
		if s := &m.Shares[i]; !given[s] {
			missing = append(missing, quote(s.Holder))
		}
	}
	return missing
}

// manifestInputs lists the files the arguments name, those in the folders
// among them: every regular file but the manifest itself and what an
// interrupted run left, which are noted.
func manifestInputs(path string, args []string) (files []string, ignored []problem, err error) {
	mfi, _ := os.Stat(path)
	add := func(f string, fi os.FileInfo) {
		switch {
		case mfi != nil && os.SameFile(fi, mfi):
		case outfile.IsLockInfo(f):
		case outfile.IsLeftover(f):
			ignored = append(ignored, problem{quote(f), leftover})
		default:
			files = append(files, f)
		}
	}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, nil, argError(a, err)
		}
		if !fi.IsDir() {
			add(a, fi)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, nil, fileError(err)
		}
		for _, e := range ents {
			if e.Type().IsRegular() {
				if fi, err := e.Info(); err == nil {
					add(filepath.Join(a, e.Name()), fi)
				}
			}
		}
	}
	return files, ignored, nil
}

// inspectForManifest reads the file at path for Judge: its SHA-256, and
// the share it holds when one can be read without a key.
func inspectForManifest(path string, m *manifest.Manifest) (manifest.File, error) {
	mf := manifest.File{Name: path}
	sum, head, err := hashFile(path)
	if err != nil {
		return mf, err
	}
	mf.SHA256 = sum
	switch {
	case shamir.IsSSMS(head):
		mf.ShareSHA256, mf.How = sum, "decrypted"
		mf.SplitID, mf.Number = headerOf(head)
	case isAgeFile(head), manifest.IsManifest(head):
		mf.MayHoldShare = isAgeFile(head)
	case paper.IsImage(head), isText(head):
		share, how, found := readShareCopy(path, head, m)
		if found {
			mf.ShareSHA256, mf.How = plainSum(share, m), how
			mf.SplitID, mf.Number = headerOf(share)
		}
		mf.MayHoldShare = paper.IsImage(head) || paper.IsText(string(head))
	}
	return mf, nil
}

// openForManifest decrypts the age file at path with ids (or its
// passphrase, asked on the terminal) for Judge: the SHA-256 of the share
// inside, as plain_sha256 hashes it, and its header. A file none opens is
// left as it was; a wrong passphrase is the file's problem.
func openForManifest(mf *manifest.File, path string, ids []age.Identity) error {
	f, err := os.Open(path)
	if err != nil {
		return fileError(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if head, _ := br.Peek(len(ageHeader)); !bytes.Equal(head, []byte(ageHeader)) {
		r = armor.NewReader(br)
	}
	d, err := age.Decrypt(r, append(slices.Clip(ids), &passphrasePrompt{where: quote(path), skippable: true})...)
	if ie := (*identityError)(nil); errors.As(err, &ie) {
		return ie.err
	}
	// A well-formed age file that no key at hand opens: its holder's
	// to check (a file re-protected since the split is one).
	var nm *age.NoIdentityMatchError
	if errors.As(err, &nm) || errors.Is(err, errNoTerminal) || errors.Is(err, errPassphraseTries) || errors.Is(err, errPassphraseSkipped) {
		mf.Sealed = true
		mf.HeaderSHA256 = ageHeaderSum(path)
		return nil
	}
	if err != nil {
		return nil
	}
	h := sha256.New()
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(d, head)
	h.Write(head[:n])
	if _, err := io.Copy(h, d); err != nil {
		return fmt.Errorf("decrypting it: %v", err)
	}
	mf.ShareSHA256, mf.How = hex.EncodeToString(h.Sum(nil)), "decrypted"
	mf.SplitID, mf.Number = headerOf(head[:n])
	return nil
}

// headerOf returns the split ID (hex) and the share number of an SSMS
// share's header, or nothing.
func headerOf(b []byte) (string, int) {
	if info, err := shamir.InspectSSMS(b); err == nil {
		return hex.EncodeToString(info.SplitID[:]), info.Index + 1
	}
	return "", 0
}

// plainSum hashes a share as plain_sha256 does: an SSMS share as it is, a
// Vault-format one as its line of text.
func plainSum(share []byte, m *manifest.Manifest) string {
	if enc, ok := strings.CutPrefix(m.ShareFormat, "vault-"); ok && !shamir.IsSSMS(share) {
		share = []byte(encodeTextShare(share, enc) + "\n")
	}
	s := sha256.Sum256(share)
	return hex.EncodeToString(s[:])
}

// paperInText finds the paper text in a text file: typed (where dashes and
// dots are layout, and 0, 8 and 1 stand for letters), or in the page split
// -paper wrote (up to the end of its <pre>).
var paperInText = regexp.MustCompile(`(?i)` + paper.Tag + `[A-Za-z0-9\s.\-]*`)

// readShareCopy reads the share in a copy of it that is not a share file:
// a picture of its paper copy's code, the paper text, typed or in the page,
// or a line of Vault-format text as age -d gives it. How says which.
func readShareCopy(path string, head []byte, m *manifest.Manifest) (share []byte, how string, ok bool) {
	limit := int64(maxTextInput)
	if paper.IsImage(head) {
		limit = paper.MaxImageBytes
	}
	data, err := readAtMost(path, limit, "the bound of a share's copy")
	if err != nil {
		return nil, "", false
	}
	if paper.IsImage(head) {
		text, err := paper.ReadQR(data)
		if err != nil {
			return nil, "", false
		}
		data, how = []byte(text), "from a picture of its paper copy's code"
	}
	if loc := paperInText.FindIndex(data); loc != nil {
		b, err := paper.Parse(string(data[loc[0]:loc[1]]))
		return b, pick(how != "", how, "from its paper copy's text"), err == nil
	}
	enc, vault := strings.CutPrefix(m.ShareFormat, "vault-")
	if tok := strings.TrimSpace(string(data)); vault && decodesAsShare(tok, enc) {
		b, err := decodeToken(tok, enc)
		return b, pick(how != "", how, "decrypted"), err == nil
	}
	return nil, "", false
}

// hashFile returns the SHA-256 of the file at path and its first bytes,
// to tell what it is: the file is streamed, not held.
func hashFile(path string) (sum string, head []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, fileError(err)
	}
	defer f.Close()
	h := sha256.New()
	head = make([]byte, sniffLen)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return "", nil, fmt.Errorf("reading it: %v", unwrapPath(err))
	}
	return hex.EncodeToString(h.Sum(nil)), head, nil
}
