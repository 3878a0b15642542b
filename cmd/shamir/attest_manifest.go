package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"os"
	"path/filepath"
	"sort"
)

// attestManifest makes a manifest from a full set of shares: for shares
// that have none (Vault unseal keys), or after a refresh (-previous).
func attestManifest(args []string) error {
	fs := newFlagSet("attest manifest")
	var rf readFlags
	var prevPath, out string
	var force bool
	rf.register(fs)
	stringFlag(fs, &prevPath, "previous")
	stringFlag(fs, &out, "o", "out")
	boolFlag(fs, &force, "f", "force")
	args, err := rf.parse(fs, args)
	if err != nil {
		return err
	}
	if out == "" {
		out = manifest.FileName
	}
	// One writer at a time: the folder of the manifest written, and those
	// of the shares and of -previous, are locked before anything is read.
	tx := newChange("attest manifest", force)
	defer tx.abort()
	if out != "-" {
		if err := tx.lock(append([]string{out, prevPath}, args...)...); err != nil {
			return err
		}
		tx.readAt(prevPath)
	}
	var prev *manifest.Manifest
	if prevPath != "" {
		if prev, err = readManifest(prevPath); err != nil {
			return err
		}
	}
	prevT := 0
	if prev != nil {
		prevT = prev.Threshold
	}
	shares, enc, t, err := readHeldShares(&rf, args, true, prevT)
	if err != nil {
		return err
	}
	m, err := manifestOf(shares, enc, t)
	if err != nil {
		return err
	}
	if prev != nil {
		carryOver(m, prev)
	}
	if out == "-" {
		_, err := os.Stdout.Write(m.Encode())
		return err
	}
	set := tx.files
	if dir := filepath.Dir(out); dir != "." {
		if err := set.MkdirAll(dir); err != nil {
			return err
		}
	}
	if err := writeWhole(set, out, m.Encode()); err != nil {
		return err
	}
	if err := set.Commit(); err != nil {
		return err
	}
	if !rf.quiet {
		sayf(os.Stderr, "wrote %s: %s of split %s, any %d of which recover the secret, with their SHA-256 and attestation keys",
			quote(out), count(len(m.Shares), "share"), m.SplitID, m.Threshold)
	}
	return nil
}

// manifestOf makes the manifest of a full set of shares, any t of which
// recover the secret.
func manifestOf(shares []heldShare, enc string, t int) (*manifest.Manifest, error) {
	ssms := shares[0].ssms
	m := &manifest.Manifest{Version: manifest.Version, Parts: len(shares)}
	if ssms {
		m.SplitIDSource, m.ShareFormat, m.Threshold = "ssms", "ssms", shares[0].t
		m.SplitID = hex.EncodeToString(shares[0].splitID[:])
		for _, s := range shares[1:] {
			if s.splitID != shares[0].splitID {
				return nil, withHints(fmt.Errorf("%s is a share of the split %x, %s of the split %x", shares[0].where, shares[0].splitID, s.where, s.splitID),
					"give the shares of one split")
			}
			if s.gen != shares[0].gen {
				return nil, withHints(fmt.Errorf("%s is a share of generation %d of the split, %s of generation %d: each refresh makes a new generation, whose shares do not combine with the old ones",
					shares[0].where, shares[0].gen, s.where, s.gen),
					"give the shares of one generation: shamir verify tells which is the newest, once it can check it")
			}
		}
		sort.Slice(shares, func(i, j int) bool { return shares[i].number < shares[j].number })
	} else {
		if t == 0 {
			return nil, usagef("Vault-format shares do not record their threshold: give it with -t")
		}
		id := make([]byte, 16)
		rand.Read(id)
		m.SplitID, m.SplitIDSource, m.ShareFormat, m.Threshold = hex.EncodeToString(id), "random", "vault-"+enc, t
	}
	if m.Threshold > len(shares) {
		return nil, withHints(fmt.Errorf("%s given, and the threshold is %d: a manifest is made from every share of the split", count(len(shares), "share"), m.Threshold),
			"give all the shares, once, while they are together")
	}
	seen := map[int]string{}
	for i, s := range shares {
		if w, ok := seen[s.number]; ok {
			return nil, fmt.Errorf("%s and %s are the same share (%d)", w, s.where, s.number)
		}
		seen[s.number] = s.where
		ms := manifest.Share{Share: s.number, PlainSHA256: s.sha256, AttestKey: s.key.Public().String()}
		if !ssms {
			ms.Share, ms.X = i+1, s.number
		}
		ms.Holder = fmt.Sprintf("share-%d", ms.Share)
		m.Shares = append(m.Shares, ms)
	}
	return m, nil
}

// carryOver takes from the manifest prev of the split, made before a
// refresh, the holders' names and their keys then, as previous keys: an
// answer made with a share from before is told as such. A share is the
// same holder's when it has the same number (an SSMS share's, or a
// Vault-format share's x coordinate). A Vault-format split keeps its ID.
func carryOver(m, prev *manifest.Manifest) {
	ssms := m.ShareFormat == "ssms"
	if ssms != (prev.ShareFormat == "ssms") {
		return
	}
	if !ssms {
		m.SplitID, m.SplitIDSource = prev.SplitID, prev.SplitIDSource
	}
	for i := range m.Shares {
		s := &m.Shares[i]
		for _, p := range prev.Shares {
			if ssms && s.Share != p.Share || !ssms && (p.X == 0 || s.X != p.X) {
				continue
			}
			s.Holder = p.Holder
			for _, k := range append([]string{p.AttestKey}, p.PreviousAttestKey...) {
				if k != "" && k != s.AttestKey {
					s.PreviousAttestKey = append(s.PreviousAttestKey, k)
				}
			}
		}
	}
}
