package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gf256/shamir"
)

// This file writes the manifest of a split for people, and checks files
// against it (verify -manifest). The manifest is public: it says who holds
// which share, and the SHA-256 of each file handed out and of the share in
// it, so that anyone can tell, without a key, that a file given back is the
// one handed out. docs/MANIFEST.md describes it.

// manifestVersion names the manifest's format. Version 2 added the
// attestation keys (attest.go); version 1 manifests are still read, and
// their holders cannot attest.
const (
	manifestVersion   = "shamir-manifest/2"
	manifestVersionV1 = "shamir-manifest/1"
)

type manifest struct {
	Version       string          `json:"version"`
	SplitID       string          `json:"split_id"`
	SplitIDSource string          `json:"split_id_source"`
	ShareFormat   string          `json:"share_format"`
	Name          string          `json:"name,omitempty"`
	Parts         int             `json:"parts"`
	Threshold     int             `json:"threshold"`
	Shares        []manifestShare `json:"shares"`
}

type manifestShare struct {
	Share           int    `json:"share"`
	X               int    `json:"x,omitempty"` // Vault-format shares: the x coordinate
	Holder          string `json:"holder"`
	Recipient       string `json:"recipient,omitempty"`
	File            string `json:"file,omitempty"`
	EncryptedSHA256 string `json:"encrypted_sha256,omitempty"`
	PlainSHA256     string `json:"plain_sha256"`
	// The public key of the share's attestation key (attest.go), and those
	// of the holder's shares before a refresh or reshare.
	AttestKey         string   `json:"attest_key,omitempty"`
	PreviousAttestKey []string `json:"previous_attest_keys,omitempty"`
}

func (m *manifest) encode() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings and numbers only
	}
	return append(b, '\n')
}

// readManifest reads and checks a manifest.
func readManifest(path string) (*manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileError(err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s is not a manifest: %v", quote(path), err)
	}
	if m.Version != manifestVersion && m.Version != manifestVersionV1 {
		return nil, withHints(fmt.Errorf("%s is not a manifest of this version (%q, want %q)", quote(path), m.Version, manifestVersion),
			"a newer shamir may read it")
	}
	if len(m.Shares) == 0 {
		return nil, fmt.Errorf("%s lists no shares", quote(path))
	}
	return &m, nil
}

// verifyManifest checks the files the arguments name against the manifest
// at path, from their bytes alone: each is the file handed to its holder,
// the share in it (decrypted), a file handed to another holder (swapped),
// one that bears a holder's name but not their bytes (altered or
// replaced), or none of the split's (foreign).
func verifyManifest(path string, args []string, quiet bool) error {
	m, err := readManifest(path)
	if err != nil {
		return err
	}
	byFile := map[string]*manifestShare{}
	for i := range m.Shares {
		byFile[m.Shares[i].File] = &m.Shares[i]
	}
	if len(args) == 0 {
		args = []string{filepath.Dir(path)}
	}
	mfi, _ := os.Stat(path)
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return argError(a, err)
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return fileError(err)
		}
		for _, e := range ents {
			if e.Type().IsRegular() {
				files = append(files, filepath.Join(a, e.Name()))
			}
		}
	}
	var bad, ignored []problem
	good := 0
	seen := map[int]bool{}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && mfi != nil && os.SameFile(fi, mfi) {
			continue
		}
		h, data, err := hashFile(f)
		if err != nil {
			bad = append(bad, problem{quote(f), err.Error()})
			continue
		}
		base := filepath.Base(f)
		named := byFile[base]
		var match *manifestShare
		plain := false
		for i := range m.Shares {
			s := &m.Shares[i]
			if s.EncryptedSHA256 == h || s.PlainSHA256 == h {
				match, plain = s, s.PlainSHA256 == h
				break
			}
		}
		switch {
		case match != nil && (named == match || plain):
			good++
			seen[match.Share] = true
			if !quiet {
				sayf(os.Stderr, "%s: share %d, %s's, %s", quote(f), match.Share, match.Holder,
					pick(plain, "decrypted, as handed out", "as handed out"))
			}
		case match != nil && named != nil:
			seen[match.Share] = true
			bad = append(bad, problem{quote(f), fmt.Sprintf("swapped: this is %s's file (share %d, handed out as %s), not %s's",
				match.Holder, match.Share, quote(match.File), named.Holder)})
		case match != nil:
			good++
			seen[match.Share] = true
			if !quiet {
				sayf(os.Stderr, "%s: share %d, %s's (handed out as %s), as handed out", quote(f), match.Share, match.Holder, quote(match.File))
			}
		case named != nil:
			bad = append(bad, problem{quote(f), fmt.Sprintf("altered: not the file handed to %s (share %d): its SHA-256 differs", named.Holder, named.Share)})
		case looksLikeShareFile(data):
			bad = append(bad, problem{quote(f), "foreign: not a file of this split (split ID " + m.SplitID + ")" + otherSplit(data, m)})
		default:
			ignored = append(ignored, problem{quote(f), "not a share file"})
		}
	}
	if !quiet {
		noteIgnored(os.Stderr, ignored)
		var missing []string
		for _, s := range m.Shares {
			if !seen[s.Share] {
				missing = append(missing, s.Holder)
			}
		}
		if len(missing) > 0 && len(missing) < len(m.Shares) {
			sayf(os.Stderr, "not given: the files of %s", strings.Join(missing, ", "))
		}
	}
	if good == 0 && len(bad) == 0 {
		return errors.New("no file of the split among the inputs")
	}
	return verdict(good, bad, quiet)
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

// looksLikeShareFile reports whether data is a file that could be a share:
// encrypted with age, an SSMS share, a QR picture or paper text.
func looksLikeShareFile(data []byte) bool {
	head := data[:min(len(data), sniffLen)]
	return isAgeFile(head) || shamir.IsSSMS(head) || isImage(head) || isPaperText(string(head))
}

// otherSplit says which split an SSMS share belongs to, when it is not the
// manifest's.
func otherSplit(data []byte, m *manifest) string {
	if info, err := shamir.InspectSSMS(data); err == nil {
		id := hex.EncodeToString(info.SplitID[:])
		if id != m.SplitID {
			return ": an SSMS share of split " + id
		}
	}
	return ""
}

// isManifest reports whether head starts a manifest, which combine and
// verify note as such in a folder of shares.
func isManifest(head []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) &&
		(bytes.Contains(head, []byte(`"version": "`+manifestVersion+`"`)) || bytes.Contains(head, []byte(`"version": "`+manifestVersionV1+`"`)))
}
