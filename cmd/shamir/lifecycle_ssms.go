package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gf256/shamir"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// This file holds the lifecycle commands for SSMS share files: each is a
// call of the library's SSMS function of the same name, streaming, with the
// share files read as combine reads them and written as split writes them
// (NAME.I-of-N.shamir, mode 0600, under temporary names renamed into place
// once all are complete). Refresh rewrites the share files in place.
//
// The command numbers SSMS shares as their file names do, from 1: -index I
// is the share NAME.I-of-N.shamir, whose header holds the library's index
// I−1.

// An indexList is a flag.Value holding share numbers, 1 to 255, given as
// numbers separated by commas, or by repeating the flag.
type indexList []int

func (l *indexList) String() string {
	s := make([]string, len(*l))
	for i, n := range *l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func (l *indexList) Set(s string) error {
	ns, ok := numberList(s, 1)
	if !ok {
		return errors.New("share numbers are from 1 to 255, as in NAME.I-of-N.shamir")
	}
	*l = append(*l, ns...)
	return nil
}

// checkIndexes refuses a share number given twice in -index.
func checkIndexes(l indexList) error {
	var seen [256]bool
	for _, n := range l {
		if seen[n] {
			return usagef("-index: share %d given twice", n)
		}
		seen[n] = true
	}
	return nil
}

// checkSSMSFlags refuses, as usage errors, the flags of Vault-format shares
// given with SSMS share files.
func checkSSMSFlags(lc *lifecycle, set *shareSet) error {
	switch {
	case len(lc.xs) > 0:
		return &usageError{msg: "-x: SSMS share files have no x coordinates",
			hints: []string{"name the shares to make by the number in their file name, NAME.I-of-N.shamir: -index I"}}
	case len(lc.inUse) > 0:
		return &usageError{msg: "-inuse: SSMS share files have no x coordinates",
			hints: []string{"give the number of shares of the split with -n: the new shares are numbered after them"}}
	case lc.encode.val != "":
		return usagef("-encode: SSMS shares are written as share files, NAME.I-of-N.shamir")
	case lc.out == "-":
		return usagef("-o -: SSMS shares are written as share files, and -o names their folder")
	case len(set.ssms) == 0:
		reportBad(os.Stderr, set.notSSMS)
		return errors.New("no SSMS share among the inputs can be read")
	}
	return nil
}

// checkPlainFlags refuses, as usage errors, the flags of SSMS share files
// given with Vault-format shares.
func checkPlainFlags(lc *lifecycle) error {
	switch {
	case len(lc.indexes) > 0:
		return &usageError{msg: "-index numbers SSMS share files; Vault-format shares are at x coordinates",
			hints: []string{"give the x coordinates of the shares to make with -x"}}
	case lc.name != "":
		return usagef("-name names SSMS share files; Vault-format shares are written with -o")
	case lc.cmd == extendCmd && lc.parts != 0:
		return &usageError{msg: "-n: Vault-format shares have x coordinates, not numbers",
			hints: []string{"give the x coordinates of the split's other shares with -inuse"}}
	}
	return nil
}

// parseShareName splits a path ending in NAME.I-of-N.shamir.
func parseShareName(path string) (name string, i, n int, ok bool) {
	base := filepath.Base(path)
	rest, found := strings.CutSuffix(base, ".shamir")
	dot := strings.LastIndexByte(rest, '.')
	if !found || dot <= 0 {
		return "", 0, 0, false
	}
	is, ns, found := strings.Cut(rest[dot+1:], "-of-")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !found || err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return rest[:dot], i, n, true
}

// ssmsNaming returns the NAME of the new share files, -name or the one the
// share files given carry, and N, the largest of the N their names carry,
// the numbers of the shares given and top.
func ssmsNaming(lc *lifecycle, set *shareSet, top int) (string, int, error) {
	name, n := lc.name, top
	for _, s := range set.ssms {
		if s.hasHdr {
			n = max(n, s.info.Index+1)
		}
		nm, _, sn, ok := parseShareName(s.path)
		if !ok {
			continue
		}
		n = max(n, sn)
		if lc.name == "" {
			if name != "" && nm != name {
				return "", 0, withHints(fmt.Errorf("the share files given are named for %s and %s: which name the new ones should have is not clear", quote(name), quote(nm)),
					"give it with -name")
			}
			name = nm
		}
	}
	if name == "" && lc.prev != nil {
		name = lc.prev.Name
	}
	if name == "" && lc.forPeople() {
		// Holders' files are named for them; NAME names the paper
		// copies and the files of shares without a holder.
		name = "secret"
	}
	if name == "" {
		return "", 0, withHints(errors.New("the names of the share files given do not tell what to name the new ones"),
			"give the NAME of NAME.I-of-N.shamir with -name")
	}
	return name, n, nil
}

// refuseMixedSplits returns the library's refusal of shares of more than one
// split, as combine reports it, when the headers given are of several: it
// comes before any question about naming the new files.
func refuseMixedSplits(set *shareSet) error {
	if set.split != nil {
		// -split names the split: the shares of others are set aside
		// here, as combine does.
		// -split names the split: the shares of others, and of other
		// generations of it, are set aside here, as combine does.
		kept := set.ssms[:0]
		for _, s := range set.ssms {
			switch {
			case s.hasHdr && s.info.SplitID != set.split.ID:
				sayf(os.Stderr, "set aside %s: of another split than %s", s.where, set.split.ID)
			case s.hasHdr && s.info.Generation < set.split.Generation:
				sayf(os.Stderr, "set aside %s: %s", s.where, olderGeneration(s.info.Generation, set.split.Generation, "the one named with -split"))
			case s.hasHdr && s.info.Generation != set.split.Generation:
				sayf(os.Stderr, "set aside %s: of generation %d of the split, newer than the %d named", s.where, s.info.Generation, set.split.Generation)
			default:
				kept = append(kept, s)
			}
		}
		set.ssms = kept
	}
	var names []shamir.SplitName
	for _, s := range set.ssms {
		if n := (shamir.SplitName{ID: s.info.SplitID, Generation: s.info.Generation}); s.hasHdr && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return nil
	}
	_, err := shamir.NewCombineReader(set.readers())
	if err == nil {
		return nil // unreachable: the library refuses them too
	}
	return ssmsFailure(set, err)
}

// sharesGiven returns the numbers of the SSMS shares given whose headers
// could be read, and for each the first file that has it.
func sharesGiven(set *shareSet) map[int]*ssmsShare {
	m := make(map[int]*ssmsShare)
	for _, s := range set.ssms {
		if s.hasHdr && m[s.info.Index+1] == nil {
			m[s.info.Index+1] = s
		}
	}
	return m
}

// writeNewShares writes the share files paths in dir with fill, which
// reads the shares of set and returns those it found bad: they are
// reported, and the paths kept for -manifest.
func (lc *lifecycle) writeNewShares(set *shareSet, dir string, paths []string, fill func(ws []io.Writer) ([]shamir.BadShare, error)) error {
	var found []shamir.BadShare
	err := writeSSMSFiles(lc.tx.files, dir, paths, func(ws []io.Writer) error {
		var err error
		found, err = fill(ws)
		return err
	})
	if err != nil {
		return ssmsError(set, err)
	}
	reportFound(set, found)
	lc.written = paths
	return nil
}

// writeSSMSFiles makes the share files paths, in the folder dir, with fill,
// which writes share k to ws[k], into out, which the caller commits.
func writeSSMSFiles(out *outfile.Set, dir string, paths []string, fill func(ws []io.Writer) error) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(dir))
	}
	if err := out.MkdirAll(dir); err != nil {
		return err
	}
	bufs := make([]*bufio.Writer, len(paths))
	ws := make([]io.Writer, len(paths))
	for k, p := range paths {
		f, err := out.Create(p)
		if err != nil {
			return err
		}
		bufs[k] = bufio.NewWriterSize(&destWriter{f, p}, copyBufSize)
		ws[k] = bufs[k]
	}
	err := fill(ws)
	for _, b := range bufs {
		if err != nil {
			break
		}
		err = b.Flush()
	}
	return err
}

// ssmsError turns an error of the library or of the writes into the
// command's: a file that could not be written is named; shares the library
// found bad are named by file, with why nothing was made.
func ssmsError(set *shareSet, err error) error {
	var we *writeError
	if errors.As(err, &we) {
		return we
	}
	return ssmsFailure(set, err)
}

// reportFound names the shares found bad on the way by a run that
// succeeded, and the files that hold no share.
func reportFound(set *shareSet, found []shamir.BadShare) {
	bad := append(slices.Clone(set.notSSMS), badSSMS(set, found)...)
	reportBad(os.Stderr, bad)
	if len(bad) > 0 {
		sayf(os.Stderr, "the new shares are good (every chunk was authenticated); replace the bad %s", pick(len(bad) == 1, "one", "ones"))
	}
}

// newSSMSShares makes the shares numbered nums (from 1) of the split of the
// SSMS shares set, for recreate and extend.
func newSSMSShares(lc *lifecycle, set *shareSet, nums []int) error {
	if err := refuseMixedSplits(set); err != nil {
		return err
	}
	name, n, err := ssmsNaming(lc, set, slices.Max(nums))
	if err != nil {
		return err
	}
	dir := lc.out
	if dir == "" {
		dir = "."
	}
	paths := make([]string, len(nums))
	idx := make([]int, len(nums))
	for k, i := range nums {
		paths[k] = filepath.Join(dir, shareFileName(name, i, n))
		idx[k] = i - 1
	}
	if lc.forPeople() {
		return lc.newSharesForPeople(set, dir, name, nums, n, func(ws []io.Writer) ([]shamir.BadShare, error) {
			return shamir.RecreateSSMSTo(ws, set.readers(), idx...)
		})
	}
	if err := lc.writeNewShares(set, dir, paths, func(ws []io.Writer) ([]shamir.BadShare, error) {
		return shamir.RecreateSSMSTo(ws, set.readers(), idx...)
	}); err != nil {
		return err
	}
	if !lc.rf.quiet {
		lc.sayAfter("wrote %s: %s", count(len(paths), "share file"), quotes(paths))
	}
	return nil
}

// quotes spells out paths, quoted: "a", "b" and "c".
func quotes(paths []string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = quote(p)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// recreateSSMS makes the shares -index of the split again.
func recreateSSMS(lc *lifecycle, set *shareSet) error {
	if err := checkSSMSFlags(lc, set); err != nil {
		return err
	}
	given := sharesGiven(set)
	for _, i := range lc.indexes {
		if s := given[i]; s != nil {
			return withHints(fmt.Errorf("-index %d: the share file %s is share %d", i, s.where, i),
				"recreate makes shares that are not among those given; leave it out if it is damaged")
		}
	}
	return newSSMSShares(lc, set, lc.indexes)
}

// extendSSMS makes -k new shares of the split, numbered after -n and the
// shares given, or the shares -index.
func extendSSMS(lc *lifecycle, set *shareSet) error {
	if err := checkSSMSFlags(lc, set); err != nil {
		return err
	}
	if len(lc.indexes) > 0 {
		return recreateSSMS(lc, set)
	}
	top := lc.parts
	for i := range sharesGiven(set) {
		top = max(top, i)
	}
	if top+lc.count > 255 {
		return withHints(fmt.Errorf("-k %d: the shares are numbered up to %d, and a split has at most 255", lc.count, top),
			"to fill gaps in the numbers, name them with -index")
	}
	if lc.parts == 0 && !lc.rf.quiet {
		sayf(os.Stderr, "note: the new shares are numbered after the %s given; if the split has others, give its number of shares with -n",
			count(len(set.ssms), "share"))
	}
	nums := make([]int, lc.count)
	for k := range nums {
		nums[k] = top + 1 + k
	}
	return newSSMSShares(lc, set, nums)
}

// refreshSSMS rewrites the headers of every share file of the split, in
// place or into the folder -o.
func refreshSSMS(lc *lifecycle, set *shareSet) error {
	if err := checkSSMSFlags(lc, set); err != nil {
		return err
	}
	if len(set.notSSMS) > 0 {
		reportBad(os.Stderr, set.notSSMS)
		return fmt.Errorf("%s among the inputs; nothing was written", count(len(set.notSSMS), "bad share file", "bad share files"))
	}
	if lc.prev != nil && lc.parts != 0 && lc.parts != len(lc.prev.Shares) {
		// With a manifest, the shares not given are made for their
		// holders: -n is checked against the holders it lists.
		return fmt.Errorf("-n %d, and %s lists %s", lc.parts, quote(lc.manifestPath), count(len(lc.prev.Shares), "holder"))
	}
	if lc.prev == nil && lc.parts != 0 && lc.parts != len(set.ssms) {
		return withHints(fmt.Errorf("%s given, -n %d: refresh every share of the split", count(len(set.ssms), "share file"), lc.parts),
			"a share left out is not refreshed, and no longer combines with the new ones")
	}
	if lc.refreshForPeople(set) {
		return refreshPeople(lc, set)
	}
	for _, s := range set.ssms {
		if s.f == nil {
			return withHints(errors.New("refresh rewrites share files: a share read from stdin cannot be refreshed"),
				"give the share file itself")
		}
	}
	// RefreshSSMS reads every share whole and opens every chunk, as verify
	// does, and refuses the refresh if any share is bad: a share refreshed
	// with bad records would stay bad.
	rs := make([]io.Reader, len(set.ssms))
	for k, s := range set.ssms {
		rs[k] = io.NewSectionReader(s.f, 0, 1<<62)
	}
	headers, err := shamir.RefreshSSMS(rs)
	var ce *shamir.CombineError
	if errors.As(err, &ce) && len(ce.Bad) > 0 && ce.Splits == nil && ce.Sets == nil && ce.Several == nil {
		reportBad(os.Stderr, badSSMS(set, ce.Bad))
		return withHints(fmt.Errorf("%s among the inputs; nothing was written", count(len(ce.Bad), "bad share file", "bad share files")),
			"replace "+pick(len(ce.Bad) == 1, "it", "them")+" with what shamir recreate makes from the good ones, and run refresh again")
	}
	if err != nil {
		return ssmsError(set, err)
	}
	paths, err := writeRefreshed(lc.tx.files, set, headers, lc.out)
	if err != nil {
		return err
	}
	lc.written = paths
	if !lc.rf.quiet {
		inPlace := lc.out == ""
		lc.sayAfter("refreshed %s%s: the key shares in their headers are new, the rest is unchanged",
			count(len(paths), "share file"), pick(inPlace, " in place", " into "+quote(lc.out)))
		lc.sayAfter("destroy every other copy of the old shares: together they still recover the secret, and they do not combine with the new ones")
	}
	return nil
}

// writeRefreshed writes each share file of set with its new header from
// headers and the rest of it unchanged: in place when out is "" (the old
// files kept until every new one is written, see outfile.ReplaceInPlace),
// else into the folder out, into files, which the caller commits. It
// returns the paths written.
func writeRefreshed(files *outfile.Set, set *shareSet, headers [][]byte, out string) ([]string, error) {
	inPlace := out == ""
	if inPlace {
		files.ReplaceInPlace()
	} else {
		if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
			return nil, fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(out))
		}
		if err := files.MkdirAll(out); err != nil {
			return nil, err
		}
	}
	var paths []string
	for k, s := range set.ssms {
		p := s.path
		if !inPlace {
			p = filepath.Join(out, filepath.Base(s.path))
		}
		f, err := files.Create(p)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriterSize(&destWriter{f, p}, copyBufSize)
		// The new header, then the rest of the old file as it is.
		w.Write(headers[k])
		_, err = io.Copy(w, io.NewSectionReader(s.f, int64(len(headers[k])), 1<<62))
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			var we *writeError
			if errors.As(err, &we) {
				return nil, we
			}
			return nil, fmt.Errorf("reading %s: %v", s.where, unwrapPath(err))
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// reshareSSMS makes a new split of the secret: -n share files, any -newt of
// which recover it, in the folder -o.
func reshareSSMS(lc *lifecycle, set *shareSet) error {
	if err := checkSSMSFlags(lc, set); err != nil {
		return err
	}
	if err := refuseMixedSplits(set); err != nil {
		return err
	}
	name, _, err := ssmsNaming(lc, set, 0)
	if err != nil {
		return err
	}
	dir := lc.out
	if dir == "" {
		dir = "."
	}
	paths := make([]string, lc.parts)
	nums := make([]int, lc.parts)
	for i := range paths {
		paths[i] = filepath.Join(dir, shareFileName(name, i+1, lc.parts))
		nums[i] = i + 1
	}
	if lc.forPeople() {
		err := lc.newSharesForPeople(set, dir, name, nums, lc.parts, func(ws []io.Writer) ([]shamir.BadShare, error) {
			return shamir.ReshareSSMSTo(ws, set.readers(), lc.newT)
		})
		if err == nil && !lc.rf.quiet {
			lc.sayAfter("a new split: any %d of its %d shares recover the secret; destroy the old shares: together they still recover it", lc.newT, lc.parts)
		}
		return err
	}
	if err := lc.writeNewShares(set, dir, paths, func(ws []io.Writer) ([]shamir.BadShare, error) {
		return shamir.ReshareSSMSTo(ws, set.readers(), lc.newT)
	}); err != nil {
		return err
	}
	if !lc.rf.quiet {
		lc.sayAfter("wrote %d shares of a new split, %s to %s; any %d recover the secret",
			lc.parts, quote(paths[0]), quote(paths[len(paths)-1]), lc.newT)
		lc.sayAfter("destroy the old shares: together they still recover the secret")
	}
	return nil
}
