package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gf256/shamir"
)

// This file holds the SSMS share-file workflow: split streams the secret into
// one file per share, combine streams the secret back out of them. Memory use
// does not grow with the size of the secret.

// copyBufSize is the size of the reads from the input; the share files are
// written through buffers of the same size.
const copyBufSize = 256 << 10

// shareFileName names share i (from 1) of parts of the secret called name.
func shareFileName(name string, i, parts int) string {
	return fmt.Sprintf("%s.%d-of-%d.shamir", name, i, parts)
}

// checkSSMSThreshold checks a -t given with SSMS shares, which record their
// threshold, against their headers.
func checkSSMSThreshold(set *shareSet, t int) error {
	if t == 0 {
		return nil
	}
	for _, s := range set.ssms {
		if s.hasHdr && s.info.Threshold != t {
			return withHints(fmt.Errorf("-t %d, but the SSMS share %s was made with threshold %d", t, s.where, s.info.Threshold),
				"SSMS shares record their threshold: leave out -t")
		}
	}
	return nil
}

// combineSSMS recovers the secret from SSMS shares.
func combineSSMS(set *shareSet, opts outputOptions) error {
	if len(set.ssms) == 0 {
		reportBad(os.Stderr, set.notSSMS)
		return errors.New("no SSMS share among the inputs can be read")
	}
	if err := intoFolder(set, &opts); err != nil {
		return err
	}
	cr, err := set.combineReader()
	if err != nil {
		return ssmsFailure(set, err)
	}
	p := startProgress("combining", set.secretSize(), opts.quiet)
	r := p.reader(cr)
	w, err := newSecretWriter(opts.path, opts.encode, opts.force, set.seen)
	if err != nil {
		p.stop()
		return err
	}
	defer w.abort()
	n, err := io.CopyBuffer(w, r, make([]byte, copyBufSize))
	p.stop()
	if err != nil {
		var we *writeError
		if errors.As(err, &we) {
			return we
		}
		err = ssmsFailure(set, err)
		if n > 0 && w.toStdout() {
			err = withHints(err, "the secret written to "+pick(opts.path == "" || opts.path == "-", "stdout", quote(opts.path))+" is incomplete: discard it")
		}
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	// The whole secret was read, so it is good; the shares found bad on
	// the way are to be replaced.
	found := cr.BadShares()
	others := set.setAside(cr.BadShares(), opts.quiet)
	bad := append(slices.Clone(set.notSSMS), badSSMS(set, others)...)
	reportBad(os.Stderr, bad)
	summarize(len(set.ssms)-len(found), bad, opts)
	return nil
}

// setAside notes (unless quiet) the shares of other splits than the one
// -split named, and of newer generations of it, which are not bad but not
// the ones meant, and returns the other shares found bad: among them the
// shares of older generations, from before a refresh.
func (set *shareSet) setAside(found []shamir.BadShare, quiet bool) []shamir.BadShare {
	if set.split == nil {
		return found
	}
	var rest []shamir.BadShare
	for _, b := range found {
		s := set.ssms[b.Position]
		switch {
		case b.Reason == shamir.OtherGeneration && s.info.Generation < set.split.Generation:
			rest = append(rest, b)
		case b.Reason == shamir.OtherGeneration:
			if !quiet {
				sayf(os.Stderr, "set aside %s: of generation %d of the split, newer than the %d named", s.where, s.info.Generation, set.split.Generation)
			}
		case b.Reason == shamir.OtherSplit:
			if !quiet {
				sayf(os.Stderr, "set aside %s: of another split than %s", s.where, set.split.ID)
			}
		default:
			rest = append(rest, b)
		}
	}
	return rest
}

// combineReader returns the library's reader of the secret of the SSMS
// shares: of the split -split named, if it did.
func (set *shareSet) combineReader() (*shamir.CombineReader, error) {
	return set.combineReaderOf(set.readers())
}

// combineReaderOf is combineReader reading the shares through rs, one
// reader for each, in order.
func (set *shareSet) combineReaderOf(rs []io.Reader) (*shamir.CombineReader, error) {
	if set.split != nil {
		return shamir.NewCombineReaderSplit(rs, *set.split)
	}
	return shamir.NewCombineReader(rs)
}

// splitsHint lists the splits of the SSMS shares, as a hint.
func splitsHint(set *shareSet) string {
	var ids []string
	for _, s := range set.ssms {
		if s.hasHdr && !slices.Contains(ids, s.info.SplitID.String()) {
			ids = append(ids, s.info.SplitID.String())
		}
	}
	if len(ids) == 0 {
		return "no SSMS share among the inputs has a readable header"
	}
	return "the splits among the inputs: " + strings.Join(ids, ", ")
}

// readers returns the readers of the SSMS shares, in order.
func (set *shareSet) readers() []io.Reader {
	rs := make([]io.Reader, len(set.ssms))
	for i, s := range set.ssms {
		rs[i] = s.r
	}
	return rs
}

// secretSize estimates the size of the secret from the first share's, for
// the progress bar: each share holds about 1/threshold of it. It returns -1
// when that is not known.
func (set *shareSet) secretSize() int64 {
	s := set.ssms[0]
	if s.size < 0 || !s.hasHdr {
		return -1
	}
	return s.size * int64(s.info.Threshold)
}

// intoFolder lets -o name a folder: the secret is written in it under the
// name its share files carry, as in "shamir combine backup -o restored".
func intoFolder(set *shareSet, opts *outputOptions) error {
	if opts.path == "" || opts.path == "-" {
		return nil
	}
	if fi, err := os.Stat(opts.path); err != nil || !fi.IsDir() {
		return nil
	}
	name := ""
	for _, s := range set.ssms {
		n, ok := secretName(s.path)
		if !ok || name != "" && n != name {
			return withHints(fmt.Errorf("%s is a folder, and the names of the share files do not tell the secret's", quote(opts.path)),
				"name a file with -o")
		}
		name = n
	}
	opts.path = filepath.Join(opts.path, name)
	return nil
}

// badSSMS names the share files the library found bad, with its reasons.
func badSSMS(set *shareSet, found []shamir.BadShare) []problem {
	var bad []problem
	for _, b := range found {
		why := reasons[b.Reason]
		if b.Reason == shamir.Duplicate {
			if other := set.duplicated(b.Position, found); other != "" {
				why = "a duplicate of " + other + " (counted once)"
			}
		}
		if b.Reason == shamir.OtherGeneration && set.split != nil {
			why = olderGeneration(set.ssms[b.Position].info.Generation, set.split.Generation, "the one named with -split")
		}
		if why == "" {
			why = b.Reason.String()
		}
		if b.Err != nil {
			why += ": " + unwrapPath(b.Err).Error()
		}
		bad = append(bad, problem{set.ssms[b.Position].where, why})
	}
	return bad
}

// duplicated returns where the share that the share at pos duplicates
// was read: another share of the same split, generation and index, not
// itself found bad; "" if none is.
func (set *shareSet) duplicated(pos int, found []shamir.BadShare) string {
	s := set.ssms[pos]
	if !s.hasHdr {
		return ""
	}
	bad := map[int]bool{}
	for _, b := range found {
		bad[b.Position] = true
	}
	for i, o := range set.ssms {
		if i != pos && !bad[i] && o.hasHdr && o.info.SplitID == s.info.SplitID &&
			o.info.Generation == s.info.Generation && o.info.Index == s.info.Index {
			return o.where
		}
	}
	return ""
}

// reasons says in words why the library found an SSMS share bad.
var reasons = map[shamir.Reason]string{
	shamir.Damaged:         "damaged (its checksums do not match)",
	shamir.Truncated:       "truncated",
	shamir.Extended:        "has data past its end",
	shamir.Inconsistent:    "disagrees with the other shares (altered, checksums and all)",
	shamir.OtherSplit:      "belongs to another split",
	shamir.Duplicate:       "a duplicate of another share given",
	shamir.NotSSMS:         "not an SSMS share",
	shamir.Unsupported:     "made by a newer version of the format, or names a cipher this version does not know",
	shamir.Unreadable:      "could not be read",
	shamir.Forged:          forgedWhy,
	shamir.OtherGeneration: "of another generation of the split (each refresh makes a new one)",
}

// forgedWhy is why a share not made with the split's key is bad. The
// advice about such shares is said once after the list (reportBad), not on
// each of the 50 lines an outsider's planted files may take.
const forgedWhy = "not made with the split's key: forged, or of another split under this split's ID"

// ssmsFailure reports the shares found bad and explains why the secret could
// not be recovered from SSMS shares.
func ssmsFailure(set *shareSet, err error) error {
	var ce *shamir.CombineError
	if !errors.As(err, &ce) {
		reportBad(os.Stderr, set.notSSMS)
		return err
	}
	// The shares of other splits, and of newer generations, than the one
	// -split named are set aside, as when the secret is recovered.
	rest, unchecked := set.notProvenOlder(set.setAside(ce.Bad, false))
	bad := append(slices.Clone(set.notSSMS), badSSMS(set, rest)...)
	reportBad(os.Stderr, append(bad, unchecked...))
	if errors.Is(ce, shamir.ErrMixedSplits) {
		return mixedSplits(set, ce.Splits)
	}
	msg := "the secret was not recovered"
	switch {
	case errors.Is(ce.Err, shamir.ErrInconsistentShares):
		// The shares named bad above are not among those that
		// disagree: "which are bad cannot be told" is of the others.
		msg = pick(len(bad) > 0, "the other shares", "the shares") + " disagree, and which are bad cannot be told"
	case ce.Err != nil:
		msg = ce.Err.Error()
	}
	noneKnown := errors.Is(ce.Err, shamir.ErrInconsistentShares) && ce.Good == 0
	switch {
	case ce.Needed > 0 && noneKnown:
		// No threshold of them gives the split's key, so none is known
		// good, and none was named bad: "0 good shares, 3 needed" would
		// count as bad the shares that may be the genuine ones.
		msg += fmt.Sprintf(": none of them is known good (threshold %d)", ce.Needed)
	case ce.Needed > 0 && ce.Good < ce.Needed:
		msg += fmt.Sprintf(": %s, %d needed", count(ce.Good, "good share"), ce.Needed)
	case ce.Needed > 0:
		// Enough shares, refused all the same: no count of what is
		// "needed", which would read as a call for more.
		msg += fmt.Sprintf(": %s, threshold %d", count(ce.Good, "share"), ce.Needed)
	}
	// The files that disagree, by name: the library gives positions.
	files := set.disagreeingFiles(ce)
	err = errors.New(joinLines(msg, files))
	if len(files) > 0 {
		err = withHints(err, disagreeHint)
	}
	if noneKnown && ce.Needed > 0 {
		// Shares made without the key (an outsider's) or altered, checksums
		// and all, hide the key: any threshold of genuine ones give it back,
		// and it tells the others apart.
		err = withHints(err, fmt.Sprintf("add other shares of the split: any %d made with its key name the ones that were not", ce.Needed))
	}
	if errors.Is(ce, shamir.ErrNotEnoughShares) {
		err = withHints(err, "add shares"+pick(len(bad) > 0, ", or replace the bad ones", ""))
	}
	return err
}

// reportBad prints a line for each bad share, then once the advice about
// the forged ones, if any. Shares bad for one reason are listed under it,
// one file a line, when there are groupAt or more of them, so that 50
// planted files do not make 50 lines that say the same.
func reportBad(w io.Writer, bad []problem) {
	same := map[string]int{}
	forged := 0
	for _, p := range bad {
		same[p.why]++
		if p.why == forgedWhy {
			forged++
		}
	}
	listed := map[string]bool{}
	for _, p := range bad {
		switch {
		case same[p.why] < groupAt:
			sayf(w, "bad share %s: %s", p.where, p.why)
		case !listed[p.why]:
			listed[p.why] = true
			sayf(w, "%d bad shares, each %s:", same[p.why], p.why)
			for _, q := range bad {
				if q.why == p.why {
					sayf(w, "  %s", q.where)
				}
			}
		}
	}
	if forged > 0 {
		sayf(w, "do not trust %s not made with the split's key, nor where %s from",
			pick(forged == 1, "the share", "the "+count(forged, "share")), pick(forged == 1, "it came", "they came"))
	}
}

// groupAt is how many shares bad for one reason reportBad lists under it.
const groupAt = 4
