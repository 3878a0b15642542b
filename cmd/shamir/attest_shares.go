package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"slices"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
)

// A heldShare is one share read by attest answer or attest manifest, with
// what attestation needs of it. The share's bytes are not kept.
type heldShare struct {
	where   string
	ssms    bool
	number  int      // an SSMS share's number (index+1); a Vault-format share's x coordinate
	splitID [16]byte // SSMS shares only
	gen     uint32   // SSMS shares only: the split's generation (one more at each refresh)
	t       int      // SSMS shares only: the threshold in the header
	key     *attest.Key
	sha256  string // of the share as its holder decrypts it (the manifest's plain_sha256)
}

// readHeldShares reads the shares that args name, as combine does (with
// the identities of rf), and derives each one's attestation key. enc is
// the encoding of Vault-format shares, for their SHA-256, and t their
// threshold when -t or the input gives it.
//
// With whole, the shares are a whole split, for attest manifest: they are
// checked against each other first, as verify checks them, and any share
// found bad stops the run. A manifest records what a holder must prove to
// have; recording a share that does not combine with the others (altered,
// or an outsider's under the split's ID) would make every later
// attestation of it worthless. prevT is the threshold of Vault-format
// shares when neither -t nor the input gives it (from the manifest before
// a refresh), or 0.
func readHeldShares(rf *readFlags, args []string, whole bool, prevT int) (shares []heldShare, enc string, t int, err error) {
	set, err := rf.gatherArgs(args)
	if err != nil {
		return nil, "", 0, err
	}
	defer set.close()
	t = cmp.Or(newThreshold(rf.threshold, set).t, prevT)
	ssms, err := rf.format(set, "attest")
	if err != nil {
		return nil, "", 0, err
	}
	if ssms {
		if len(set.notSSMS) > 0 {
			reportBad(os.Stderr, set.notSSMS)
			return nil, "", 0, fmt.Errorf("%s among the inputs", count(len(set.notSSMS), "bad share file", "bad share files"))
		}
		if whole {
			shares, err := readWholeSSMS(set, rf.quiet)
			return shares, "", t, err
		}
		for _, s := range set.ssms {
			h, err := readHeldSSMS(s)
			if err != nil {
				return nil, "", 0, err
			}
			shares = append(shares, h)
		}
		return shares, "", t, nil
	}
	good, bad, err := usableTextShares(set, rf.decode.val)
	if err != nil {
		return nil, "", 0, err
	}
	if len(bad) > 0 {
		reportBad(os.Stderr, bad)
		return nil, "", 0, fmt.Errorf("%s among the inputs", count(len(bad), "bad share", "bad shares"))
	}
	if whole && t > 0 {
		if err := checkWholeText(good, t); err != nil {
			return nil, "", 0, err
		}
	}
	enc = encodingOf(good)
	for _, s := range good {
		k, err := attest.DeriveKey(s.data)
		if err != nil {
			return nil, "", 0, fmt.Errorf("%s: %v", s.where, err)
		}
		shares = append(shares, heldShare{where: s.where, number: int(shareX(s.data)), key: k,
			sha256: plainSHA256([]byte(encodeTextShare(s.data, enc) + "\n"))})
		zero(s.data)
	}
	return shares, enc, t, nil
}

// A heldHasher derives what attestation records of an SSMS share from
// all its bytes, as they are written to it: its key and its SHA-256.
type heldHasher struct {
	kw  *attest.KeyWriter
	sum hash.Hash
}

func newHeldHasher() *heldHasher {
	return &heldHasher{kw: attest.NewKeyWriter(), sum: sha256.New()}
}

func (h *heldHasher) Write(p []byte) (int, error) {
	h.kw.Write(p)
	return h.sum.Write(p)
}

// held returns the share written to h, the share at where whose header
// InspectSSMS read as info.
func (h *heldHasher) held(where string, info shamir.SSMSInfo) (heldShare, error) {
	k, err := h.kw.Key()
	if err != nil {
		return heldShare{}, fmt.Errorf("%s: %v", where, err)
	}
	return heldShare{where: where, ssms: true, number: info.Index + 1, splitID: info.SplitID, gen: info.Generation, t: info.Threshold,
		key: k, sha256: hex.EncodeToString(h.sum.Sum(nil))}, nil
}

// readHeldSSMS reads an SSMS share whole: its key is derived from all its
// bytes, so an answer proves that the holder has the whole file.
func readHeldSSMS(s *ssmsShare) (heldShare, error) {
	if !s.hasHdr {
		return heldShare{}, fmt.Errorf("%s: not an SSMS share: its header does not check", s.where)
	}
	h := newHeldHasher()
	err := checkShareAlone(s.r, h)
	if errors.Is(err, errShareDamaged) {
		// An answer signed with it would be refused as "not this
		// split's": the holder is told now, and what to do.
		return heldShare{}, withHints(fmt.Errorf("%s is %v: no answer is made with it", s.where, err),
			"ask for your share to be made again (shamir recreate, from threshold others), or use another copy of it")
	}
	if err != nil {
		return heldShare{}, fmt.Errorf("reading %s: %v", s.where, unwrapPath(err))
	}
	return h.held(s.where, s.info)
}

// readWholeSSMS reads the SSMS shares of set, a whole split, through the
// library's reader, which checks every header's signature, every record's
// tag, every chunk and every share against the others (the secret it recovers is thrown away, as by verify), and derives
// each share's key and SHA-256 from its bytes as they pass. With -split,
// the shares of other splits and of newer generations are set aside.
func readWholeSSMS(set *shareSet, quiet bool) ([]heldShare, error) {
	hs := make([]*heldHasher, len(set.ssms))
	rs := make([]io.Reader, len(set.ssms))
	for i, s := range set.ssms {
		if !s.hasHdr {
			return nil, fmt.Errorf("%s: not an SSMS share: its header does not check", s.where)
		}
		hs[i] = newHeldHasher()
		rs[i] = io.TeeReader(s.r, hs[i])
	}
	cr, err := set.combineReaderOf(rs)
	if err == nil {
		cr.CheckAll() // a manifest records no share whose signature or tags were changed
		_, err = io.Copy(io.Discard, cr)
	}
	if err != nil {
		return nil, ssmsFailure(set, err)
	}
	found := cr.BadShares()
	if bad := set.setAside(found, quiet); len(bad) > 0 {
		reportBad(os.Stderr, badSSMS(set, bad))
		return nil, withHints(fmt.Errorf("%s bad: a manifest records only shares that agree with each other",
			count(len(bad), "share is", "shares are")),
			"leave the bad shares out, and make new ones for their holders with shamir recreate")
	}
	var shares []heldShare
	for i, s := range set.ssms {
		if slices.ContainsFunc(found, func(b shamir.BadShare) bool { return b.Position == i }) {
			continue // of another split or a newer generation than -split names
		}
		// The reader stops at each share's last chunk: what follows (none,
		// as it found no share extended) is hashed too.
		if _, err := io.Copy(io.Discard, rs[i]); err != nil {
			return nil, fmt.Errorf("reading %s: %v", s.where, unwrapPath(err))
		}
		h, err := hs[i].held(s.where, s.info)
		if err != nil {
			return nil, err
		}
		shares = append(shares, h)
	}
	return shares, nil
}

// checkWholeText checks Vault-format shares, a whole split made with
// threshold t, against each other as verify does: with more than t of
// them, a share altered or replaced is found (up to all but t of them).
func checkWholeText(good []textShare, t int) error {
	if len(good) <= t {
		return nil // any t shares agree: nothing to check
	}
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	found, err := shamir.Verify(parts, t)
	if err != nil {
		return explainCombineError(err, threshold{t: t}, len(good), 0)
	}
	if len(found) > 0 {
		var bad []problem
		for _, b := range found {
			bad = append(bad, problem{good[b.Position].where, disagrees})
		}
		reportBad(os.Stderr, bad)
		return withHints(fmt.Errorf("%s bad: a manifest records only shares that agree with each other", count(len(found), "share is", "shares are")),
			"leave the bad shares out, and make new ones for their holders with shamir recreate")
	}
	return nil
}

func attestAnswer(args []string) error {
	fs := newFlagSet("attest answer")
	var rf readFlags
	var cv string
	rf.register(fs)
	stringFlag(fs, &cv, "c", "challenge")
	args, err := rf.parse(fs, args)
	if err != nil {
		return err
	}
	c, err := readChallenge(cv)
	if err != nil {
		return err
	}
	shares, _, _, err := readHeldShares(&rf, args, false, 0)
	if err != nil {
		return err
	}
	for _, s := range shares {
		if s.ssms && s.splitID != c.SplitID {
			return withHints(fmt.Errorf("%s is a share of the split %x, and the challenge is for the split %x", s.where, s.splitID, c.SplitID),
				"answer with your share of the split the challenge names")
		}
	}
	for _, s := range shares {
		a, err := s.key.Answer(c, s.number)
		if err != nil {
			return fmt.Errorf("%s: %v", s.where, err)
		}
		fmt.Println(a)
		if !rf.quiet {
			which := fmt.Sprintf("share %d", s.number)
			if !s.ssms {
				which = fmt.Sprintf("the share at x %d", s.number)
			}
			sayf(os.Stderr, "answered the challenge issued %s with %s (%s); send the line above to the coordinator",
				c.Issued.Format("2006-01-02 15:04 UTC"), which, s.where)
		}
	}
	return nil
}
