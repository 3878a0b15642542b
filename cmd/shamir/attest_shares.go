package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

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
func readHeldShares(rf *readFlags, args []string) (shares []heldShare, enc string, t int, err error) {
	set, err := rf.gatherArgs(args)
	if err != nil {
		return nil, "", 0, err
	}
	defer set.close()
	t = newThreshold(rf.threshold, set).t
	ssms, err := rf.format(set, "attest")
	if err != nil {
		return nil, "", 0, err
	}
	if ssms {
		if len(set.notSSMS) > 0 {
			reportBad(os.Stderr, set.notSSMS)
			return nil, "", 0, fmt.Errorf("%s among the inputs", count(len(set.notSSMS), "bad share file", "bad share files"))
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

// readHeldSSMS reads an SSMS share whole: its key is derived from all its
// bytes, so an answer proves that the holder has the whole file.
func readHeldSSMS(s *ssmsShare) (heldShare, error) {
	if !s.hasHdr {
		return heldShare{}, fmt.Errorf("%s: not an SSMS share: its header does not check", s.where)
	}
	kw := attest.NewKeyWriter()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(kw, h), s.r); err != nil {
		return heldShare{}, fmt.Errorf("reading %s: %v", s.where, unwrapPath(err))
	}
	k, err := kw.Key()
	if err != nil {
		return heldShare{}, fmt.Errorf("%s: %v", s.where, err)
	}
	return heldShare{where: s.where, ssms: true, number: s.info.Index + 1, splitID: s.info.SplitID, gen: s.info.Generation, t: s.info.Threshold, key: k,
		sha256: hex.EncodeToString(h.Sum(nil))}, nil
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
	shares, _, _, err := readHeldShares(&rf, args)
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
