package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// splitSSMS splits the secret from in into parts SSMS share files in the
// folder dir, any threshold of which recover it.
func splitSSMS(in io.Reader, total int64, input string, parts, threshold int, dir, name string, force, quiet bool) error {
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is a file; with ssms shares, -o names the folder to write them in", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	set := newOutputSet(force)
	defer set.abort()
	bufs := make([]*bufio.Writer, parts)
	ws := make([]io.Writer, parts)
	for i := range parts {
		f, err := set.create(filepath.Join(dir, shareFileName(name, i+1, parts)))
		if err != nil {
			return err
		}
		bufs[i] = bufio.NewWriterSize(f, copyBufSize)
		ws[i] = bufs[i]
	}
	sw, err := newSplitWriter(ws, threshold)
	if err != nil {
		return err
	}
	label := "splitting " + pick(input == "-", "stdin", input)
	p := startProgress(label, total, quiet)
	_, err = io.CopyBuffer(sw, p.reader(in), make([]byte, copyBufSize))
	p.stop()
	if err != nil {
		return err
	}
	if err := sw.Close(); err != nil {
		return err
	}
	for _, b := range bufs {
		if err := b.Flush(); err != nil {
			return err
		}
	}
	if err := set.commit(); err != nil {
		return err
	}
	if !quiet {
		first := filepath.Join(dir, shareFileName(name, 1, parts))
		fmt.Fprintf(os.Stderr, "shamir split: wrote %d shares: %s … %s; any %d recover the secret\n",
			parts, first, shareFileName(name, parts, parts), threshold)
	}
	return nil
}

// combineSSMS recovers the secret from SSMS share files.
func combineSSMS(cmd string, set *shareSet, opts outputOptions) error {
	if len(set.files) == 0 {
		reportProblems(cmd, set.bad)
		return errors.New("no usable shares; give share files, a folder of them, or Vault-format shares (run \"shamir " + cmd + " -h\" for how)")
	}
	if err := intoFolder(set, &opts); err != nil {
		return err
	}
	readers, closeAll, err := openSSMS(set)
	if err != nil {
		return err
	}
	defer closeAll()
	cr, err := newCombineReader(readers)
	if err != nil {
		return ssmsFailure(cmd, set, err)
	}
	p := startProgress("combining", set.secretSize(), opts.quiet)
	r := p.reader(cr)
	w, err := newSecretWriter(opts.path, opts.encode, opts.force)
	if err != nil {
		p.stop()
		return err
	}
	defer w.abort()
	n, err := io.CopyBuffer(w, r, make([]byte, copyBufSize))
	p.stop()
	if err != nil {
		if n > 0 && w.held == nil && (opts.path == "" || opts.path == "-") {
			err = fmt.Errorf("%w\n\tthe secret written to stdout is incomplete: discard it", ssmsFailure(cmd, set, err))
		} else {
			err = ssmsFailure(cmd, set, err)
		}
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	// The whole secret was read, so it is good; the shares found bad on
	// the way are to be replaced.
	found := cr.BadShares()
	set.bad = append(set.bad, badSSMS(set, found)...)
	reportProblems(cmd, set.bad)
	summarize(cmd, len(set.files)-len(found), set.bad, opts)
	return nil
}

// secretSize estimates the size of the secret from the first share's, for
// the progress bar: each share holds about 1/threshold of it. It returns -1
// when that is not known.
func (set *shareSet) secretSize() int64 {
	f := set.files[0]
	if f.size < 0 || f.threshold == 0 {
		return -1
	}
	return f.size * int64(f.threshold)
}

// intoFolder lets -o name a folder: the secret is written in it under the
// name its share files carry, as in "shamir combine backup/ -o restored/".
func intoFolder(set *shareSet, opts *outputOptions) error {
	if opts.path == "" || opts.path == "-" {
		return nil
	}
	if fi, err := os.Stat(opts.path); err != nil || !fi.IsDir() {
		return nil
	}
	var paths []string
	for _, f := range set.files {
		paths = append(paths, f.where)
	}
	names := secretNames(paths)
	if len(names) != 1 {
		return fmt.Errorf("%s is a folder, and the names of the share files do not tell the secret's; name a file with -o", opts.path)
	}
	opts.path = filepath.Join(opts.path, names[0])
	return nil
}

// badSSMS names the share files the library found bad, with its reasons.
func badSSMS(set *shareSet, found []shamir.BadShare) []problem {
	var bad []problem
	for _, b := range found {
		why := reasons[b.Reason]
		if why == "" {
			why = b.Reason.String()
		}
		if b.Err != nil {
			why += ": " + b.Err.Error()
		}
		bad = append(bad, problem{set.files[b.Position].where, "bad share: " + why})
	}
	return bad
}

// reasons says in words why the library found an SSMS share bad.
var reasons = map[shamir.Reason]string{
	shamir.Damaged:      "damaged (its checksums do not match)",
	shamir.Truncated:    "truncated",
	shamir.Extended:     "has data past its end",
	shamir.Inconsistent: "disagrees with the other shares (altered, checksums and all)",
	shamir.OtherSplit:   "belongs to another split",
	shamir.Duplicate:    "a duplicate of another share given",
	shamir.NotSSMS:      "not an SSMS share",
	shamir.Unsupported:  "made by a newer version of the format, or names a cipher this version does not know",
	shamir.Unreadable:   "could not be read",
}

// ssmsFailure reports the shares found bad and explains why the secret could
// not be recovered from SSMS shares.
func ssmsFailure(cmd string, set *shareSet, err error) error {
	var ce *shamir.CombineError
	if !errors.As(err, &ce) {
		reportProblems(cmd, set.bad)
		return err
	}
	set.bad = append(set.bad, badSSMS(set, ce.Bad)...)
	reportProblems(cmd, set.bad)
	msg := ce.Err.Error()
	if ce.Needed > 0 {
		msg += fmt.Sprintf(": %s, %d needed", countShares(ce.Good, "good share"), ce.Needed)
	}
	if errors.Is(err, shamir.ErrNotEnoughShares) {
		msg += "\n\tadd shares"
		if len(set.bad) > 0 {
			msg += ", or replace the bad ones"
		}
	}
	return errors.New(msg)
}

// openSSMS opens the SSMS shares of set for reading. closeAll closes them.
func openSSMS(set *shareSet) (readers []io.Reader, closeAll func(), err error) {
	var files []*os.File
	closeAll = func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, sf := range set.files {
		if sf.path == "" {
			readers = append(readers, set.stdin)
			continue
		}
		f, err := os.Open(sf.path)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		files = append(files, f)
		readers = append(readers, bufio.NewReaderSize(f, copyBufSize))
	}
	return readers, closeAll, nil
}
