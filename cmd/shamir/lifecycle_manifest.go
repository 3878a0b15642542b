package main

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
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
	                     replaced, in the same commit as the new shares,
	                     by the manifest with their SHA-256 and attestation
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
	path := lc.manifestPath
	var m *manifest.Manifest
	switch {
	case lc.targets != nil && (lc.prev != nil || lc.newManifest != ""):
		var err error
		if m, err = lc.peopleManifest(); err != nil {
			return err
		}
		if lc.prev == nil {
			path = lc.newManifest
		}
	case lc.prev == nil:
		return nil
	default:
		held, err := lc.newHeld()
		if err != nil {
			return err
		}
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
	}
	// The manifest goes in the same commit as the shares: both, or
	// neither. A new one (the shares' first, beside their holders' files)
	// replaces none unless -f.
	create := lc.tx.files.CreateReplacing
	if lc.prev == nil {
		create = lc.tx.files.Create
	}
	f, err := create(path)
	if err != nil {
		return err
	}
	if _, err := (&destWriter{f, path}).Write(m.Encode()); err != nil {
		return err
	}
	if !lc.rf.quiet {
		lc.sayAfter("%s %s: %s of split %s, any %d of which recover the secret", pick(lc.prev != nil, "updated", "wrote"), quote(path),
			count(len(m.Shares), "share"), m.SplitID, m.Threshold)
	}
	return nil
}

// newHeld derives what the manifest records of each new share.
func (lc *lifecycle) newHeld() ([]heldShare, error) {
	var held []heldShare
	for _, p := range lc.written {
		// Not committed yet: the new file is under its temporary name.
		read := p
		if tmp := lc.tx.files.TempName(p); tmp != "" {
			read = tmp
		}
		h, err := heldOfFile(read)
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
				s.EncryptedSHA256, s.File, s.Recipient, s.HeaderSHA256 = "", "", "", ""
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

// peopleManifest returns the manifest of the split after a run that wrote
// for people (lc.targets): refresh and reshare make the manifest of the
// new shares, which are the whole split, with the holders' earlier keys
// kept as previous ones; recreate and extend renew or add the entries of
// the shares they made.
func (lc *lifecycle) peopleManifest() (*manifest.Manifest, error) {
	ssms := lc.newEnc == ""
	entries := lc.targetsManifest(ssms)
	whole := lc.cmd.name == "refresh" || lc.cmd.name == "reshare"
	var m *manifest.Manifest
	if whole || lc.prev == nil {
		m = &manifest.Manifest{Version: manifest.Version, SplitIDSource: "ssms", ShareFormat: "ssms"}
		if ssms {
			info, err := shamir.InspectSSMS(lc.targets[0].sink.share.head)
			if err != nil {
				return nil, err
			}
			m.SplitID, m.Threshold = hex.EncodeToString(info.SplitID[:]), info.Threshold
		} else {
			id := make([]byte, 16)
			rand.Read(id)
			m.SplitID, m.SplitIDSource, m.ShareFormat = hex.EncodeToString(id), "random", "vault-"+lc.newEnc
			m.Threshold = cmp.Or(lc.newT, lc.t.t)
			if lc.cmd.name == "refresh" && lc.prev != nil {
				m.SplitID, m.SplitIDSource = lc.prev.SplitID, lc.prev.SplitIDSource
			}
		}
		if lc.prev != nil {
			m.Name = lc.prev.Name
		} else if ssms {
			m.Name = lc.name
		}
		m.Shares = entries
		if !ssms {
			// A Vault-format share is numbered as its holder's was
			// (by x), or after the others.
			used := map[int]bool{}
			for i := range m.Shares {
				m.Shares[i].Share = 0
				if e := lc.manifestEntry(m.Shares[i].X, false); e != nil && lc.cmd == refreshCmd && !used[e.Share] {
					m.Shares[i].Share, used[e.Share] = e.Share, true
				}
			}
			next := 1
			for i := range m.Shares {
				for m.Shares[i].Share == 0 {
					if !used[next] {
						m.Shares[i].Share, used[next] = next, true
					}
					next++
				}
			}
		}
		if lc.prev != nil {
			carryOver(m, lc.prev)
		}
	} else {
		c := *lc.prev
		m = &c
		m.Shares = slices.Clone(lc.prev.Shares)
		for _, e := range entries {
			i := slices.IndexFunc(m.Shares, func(s manifest.Share) bool {
				return ssms && s.Share == e.Share || !ssms && s.X != 0 && s.X == e.X
			})
			if i < 0 {
				if !ssms {
					e.Share = len(m.Shares) + 1
				}
				m.Shares = append(m.Shares, e)
				continue
			}
			if !ssms {
				e.Share = m.Shares[i].Share
			}
			m.Shares[i] = e
		}
	}
	slices.SortFunc(m.Shares, func(a, b manifest.Share) int { return a.Share - b.Share })
	m.Parts = len(m.Shares)
	return m, nil
}
