package main

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// This file is the lifecycle commands' -manifest: given the manifest of
// the split, recreate, extend, refresh and reshare replace it, once their
// shares are written, with the manifest of the split as it now is, so that
// verify -manifest and attestation keep working. recreate and extend add
// (or renew) the entries of the shares they made; refresh and reshare make
// a new manifest of the new shares, with the holders' names carried over
// by share number, and every key a holder had before kept as a previous
// key: an answer made with a share from before the refresh is told as
// such ("shamir attest check").

// manifestFlagHelp is the help of -manifest, the same in the four
// commands.
const manifestFlagHelp = `	-manifest FILE       the manifest of the split (split -R wrote it):
	                     replaced, once the new shares are written, by
	                     the manifest with their SHA-256 and attestation
	                     keys; after refresh and reshare, the keys of the
	                     old shares are kept as previous keys, so that an
	                     answer made with an old share is told as one
`

// readLifecycleManifest reads -manifest, if given, before any share is
// read: a bad manifest stops the run before it writes anything.
func (lc *lifecycle) readLifecycleManifest() error {
	if lc.manifestPath == "" {
		return nil
	}
	m, err := readManifest(lc.manifestPath)
	if err != nil {
		return err
	}
	lc.prev = m
	return nil
}

// updateManifest replaces -manifest with the manifest of the split after
// the run: the new shares are those it wrote (lc.written, lc.newShares).
func (lc *lifecycle) updateManifest() error {
	if lc.prev == nil {
		return nil
	}
	held, err := lc.newHeld()
	if err != nil {
		return err
	}
	var m *manifest.Manifest
	switch lc.cmd.name {
	case "refresh", "reshare":
		t := lc.newT
		if t == 0 {
			t = lc.t.t
		}
		if m, err = manifestOf(held, lc.newEnc, t); err != nil {
			return err
		}
		m.Name = lc.prev.Name
		carryOver(m, lc.prev)
	default:
		m = addShares(lc.prev, held)
	}
	set := outfile.New(true)
	defer set.Abort()
	set.ReplaceInPlace()
	if err := writeWhole(set, lc.manifestPath, m.Encode()); err != nil {
		return err
	}
	if err := set.Commit(); err != nil {
		return fmt.Errorf("the new shares are written, but the manifest is not: %v", err)
	}
	if !lc.rf.quiet {
		sayf(os.Stderr, "updated %s: %s of split %s, any %d of which recover the secret", quote(lc.manifestPath),
			count(len(m.Shares), "share"), m.SplitID, m.Threshold)
	}
	return nil
}

// newHeld derives what the manifest records of each new share.
func (lc *lifecycle) newHeld() ([]heldShare, error) {
	var held []heldShare
	for _, p := range lc.written {
		h, err := heldOfFile(p)
		if err != nil {
			return nil, err
		}
		held = append(held, h)
	}
	for _, s := range lc.newShares {
		k, err := attest.DeriveKey(s)
		if err != nil {
			return nil, err
		}
		held = append(held, heldShare{number: int(shareX(s)), key: k,
			sha256: plainSHA256([]byte(encodeTextShare(s, lc.newEnc) + "\n"))})
	}
	return held, nil
}

// heldOfFile reads the SSMS share file at path whole, as attest answer
// reads a share.
func heldOfFile(path string) (heldShare, error) {
	f, err := os.Open(path)
	if err != nil {
		return heldShare{}, fileError(err)
	}
	defer f.Close()
	head := make([]byte, ssmsHeadLen)
	n, _ := io.ReadFull(f, head)
	info, err := shamir.InspectSSMS(head[:n])
	if err != nil {
		return heldShare{}, fmt.Errorf("%s: %v", quote(path), err)
	}
	h := newHeldHasher()
	h.Write(head[:n])
	if _, err := io.Copy(h, f); err != nil {
		return heldShare{}, fmt.Errorf("reading %s: %v", quote(path), unwrapPath(err))
	}
	return h.held(quote(path), info)
}

// addShares returns prev with the shares of held in it (recreate, extend):
// a share it has (by number, or by x for Vault-format shares) renewed, a
// new one added for a holder named share-N.
func addShares(prev *manifest.Manifest, held []heldShare) *manifest.Manifest {
	m := *prev
	m.Shares = slices.Clone(prev.Shares)
	for _, h := range held {
		i := slices.IndexFunc(m.Shares, func(s manifest.Share) bool {
			if h.ssms {
				return s.Share == h.number
			}
			return s.X != 0 && s.X == h.number
		})
		if i >= 0 {
			s := &m.Shares[i]
			if s.PlainSHA256 != h.sha256 {
				// Not the bytes handed out: the encrypted file is
				// no longer theirs.
				s.EncryptedSHA256, s.File, s.Recipient = "", "", ""
			}
			s.PlainSHA256, s.AttestKey = h.sha256, h.key.Public().String()
			continue
		}
		s := manifest.Share{Share: h.number, PlainSHA256: h.sha256, AttestKey: h.key.Public().String()}
		if !h.ssms {
			s.Share, s.X = len(m.Shares)+1, h.number
		}
		s.Holder = fmt.Sprintf("share-%d", s.Share)
		m.Shares = append(m.Shares, s)
	}
	slices.SortFunc(m.Shares, func(a, b manifest.Share) int { return a.Share - b.Share })
	m.Parts = len(m.Shares)
	return &m
}
