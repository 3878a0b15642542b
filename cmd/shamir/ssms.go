package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	reportProblems(cmd, set.bad)
	readers, closeAll, err := openSSMS(set)
	if err != nil {
		return err
	}
	defer closeAll()
	cr, err := newCombineReader(readers)
	if err != nil {
		return err
	}
	w, err := newSecretWriter(opts.path, opts.encode, opts.force)
	if err != nil {
		return err
	}
	defer w.abort()
	if _, err := io.CopyBuffer(w, cr, make([]byte, copyBufSize)); err != nil {
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	summarize(cmd, len(set.files), set.bad, opts)
	return nil
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
