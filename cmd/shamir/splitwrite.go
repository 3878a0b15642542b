package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file writes a split: the shares down their sinks (sink.go), then
// what is made from them (the paper copies, the manifest, the lines of
// Vault-format text), all through one output set committed at once.

// writeSplit splits the secret from in, which what names, and writes
// everything the options o ask for.
func writeSplit(in io.Reader, total int64, what string, o *splitOptions) error {
	dir, err := shareFolder(o)
	if err != nil {
		return err
	}
	set := outfile.New(o.force)
	defer set.Abort()
	for _, d := range []string{dir, o.paper} {
		if d != "" {
			if err := set.MkdirAll(d); err != nil {
				return err
			}
		}
	}
	sinks, err := openSinks(set, dir, o)
	if err != nil {
		return err
	}
	var shares [][]byte // Vault-format shares, for their lines
	if o.encode == "" {
		err = streamSSMS(in, total, what, sinks, o)
	} else {
		shares, err = splitVault(in, what, sinks, o)
	}
	for _, s := range sinks {
		if err == nil {
			err = s.close()
		}
	}
	if err != nil {
		return err
	}
	splitID, err := splitIDOf(sinks, o)
	if err != nil {
		return err
	}
	if err := writeCopies(set, dir, sinks, splitID, o); err != nil {
		return err
	}
	return finishSplit(set, dir, sinks, shares, splitID, o)
}

// shareFolder returns the folder of the share files ("" when there are
// none: Vault-format text without holders), refusing a file.
func shareFolder(o *splitOptions) (string, error) {
	if o.encode != "" && len(o.holders) == 0 {
		return "", nil
	}
	dir := o.out
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		err := fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(dir))
		if len(o.holders) == 0 {
			err = withHints(err, "to write Vault-format shares into a file, use -encode base64 or -encode hex")
		}
		return "", err
	}
	return dir, nil
}

// streamSSMS streams the secret from in into SSMS shares, one per sink.
func streamSSMS(in io.Reader, total int64, what string, sinks []*shareSink, o *splitOptions) error {
	ws := make([]io.Writer, len(sinks))
	for i, s := range sinks {
		ws[i] = io.MultiWriter(s.w, s.share)
	}
	sw, err := shamir.NewSplitWriter(ws, o.threshold)
	if err != nil {
		return err
	}
	p := startProgress("splitting "+what, total, o.quiet)
	_, err = io.CopyBuffer(sw, p.reader(in), make([]byte, copyBufSize))
	p.stop()
	if err == nil {
		err = sw.Close()
	}
	if err != nil {
		// A share that could not be written is named by its file; the
		// library's message would number it from 0.
		var we *writeError
		if errors.As(err, &we) {
			return we
		}
		return readError(what, err)
	}
	return nil
}

// splitVault splits the secret from in into Vault-format shares, and
// writes each share's line down its sink.
func splitVault(in io.Reader, what string, sinks []*shareSink, o *splitOptions) ([][]byte, error) {
	secret, err := io.ReadAll(io.LimitReader(in, maxTextSecret+1))
	defer zero(secret)
	if err != nil {
		return nil, readError(what, err)
	}
	if len(secret) > maxTextSecret {
		return nil, withHints(fmt.Errorf("the secret is over %d MiB: too big for Vault-format shares, which are one line of text each", maxTextSecret>>20),
			"leave out -encode to make SSMS share files")
	}
	shares, err := shamir.Split(secret, o.parts, o.threshold)
	if err != nil {
		return nil, err
	}
	for i, s := range sinks {
		s.share.Write(shares[i])
		if _, err := io.WriteString(s.w, encodeTextShare(shares[i], o.encode)+"\n"); err != nil {
			return nil, err
		}
	}
	return shares, nil
}

// splitIDOf returns the split's ID: SSMS shares carry one; Vault-format
// shares do not, so one is drawn at random for the manifest and the papers.
func splitIDOf(sinks []*shareSink, o *splitOptions) ([]byte, error) {
	if o.encode != "" {
		id := make([]byte, 16)
		rand.Read(id)
		return id, nil
	}
	info, err := shamir.InspectSSMS(sinks[0].share.head)
	if err != nil {
		return nil, err
	}
	return info.SplitID[:], nil
}

// writeCopies writes, through set, the paper copies of -paper and, for
// holders, the manifest in dir.
func writeCopies(set *outfile.Set, dir string, sinks []*shareSink, splitID []byte, o *splitOptions) error {
	if o.paper != "" {
		for i, s := range sinks {
			if !s.share.whole() {
				return paperTooBig(s.share.n)
			}
			base, info := paperInfo(i, splitID, o)
			if err := writePaper(set, o.paper, base, s.share.head, info); err != nil {
				return err
			}
		}
	}
	if len(o.holders) == 0 {
		return nil
	}
	m, err := splitManifest(sinks, splitID, o)
	if err != nil {
		return err
	}
	return writeWhole(set, filepath.Join(dir, manifest.FileName), m.Encode())
}

// paperInfo returns the base name and the page's details of the paper copy
// of share i (from 0).
func paperInfo(i int, splitID []byte, o *splitOptions) (string, paper.Info) {
	info := paper.Info{Index: i + 1, Parts: o.parts, Threshold: o.threshold, SplitID: hex.EncodeToString(splitID),
		Format: pick(o.encode == "", "SSMS", "Vault-format"), Command: recombineCommand(o)}
	base := fmt.Sprintf("share.%d-of-%d", i+1, o.parts)
	if o.encode == "" {
		base = strings.TrimSuffix(shareFileName(o.name, i+1, o.parts), ".shamir")
	}
	if len(o.holders) > 0 {
		base, info.Holder = o.holders[i].name, o.holders[i].name
	}
	return base, info
}

// splitManifest makes the manifest of a split for holders: who holds
// which share, the hashes of their files and each share's attestation key.
func splitManifest(sinks []*shareSink, splitID []byte, o *splitOptions) (*manifest.Manifest, error) {
	ssms := o.encode == ""
	m := &manifest.Manifest{
		Version:       manifest.Version,
		SplitID:       hex.EncodeToString(splitID),
		SplitIDSource: pick(ssms, "ssms", "random"),
		ShareFormat:   pick(ssms, "ssms", "vault-"+o.encode),
		Name:          pick(ssms, o.name, ""),
		Parts:         o.parts,
		Threshold:     o.threshold,
	}
	short := false
	for i, s := range sinks {
		ms := manifest.Share{
			Share:           i + 1,
			Holder:          o.holders[i].name,
			Recipient:       o.holders[i].recipient,
			File:            filepath.Base(s.path),
			EncryptedSHA256: hex.EncodeToString(s.cipher.Sum(nil)),
			HeaderSHA256:    s.header.sum,
			PlainSHA256:     hex.EncodeToString(s.plain.Sum(nil)),
		}
		if !ssms {
			ms.X = int(s.share.last)
		}
		k, err := s.share.key.Key()
		switch {
		case errors.Is(err, attest.ErrShortShare):
			short = true
		case err != nil:
			return nil, err
		default:
			ms.AttestKey = k.Public().String()
		}
		m.Shares = append(m.Shares, ms)
	}
	if short && !o.quiet {
		sayf(os.Stderr, "note: the shares are too short for attestation (a secret of at least %d bytes is needed): the manifest records no keys",
			attest.MinShareLen-1)
	}
	return m, nil
}

// finishSplit writes the lines of Vault-format shares without holders to
// the file -o, commits set, then writes those lines to stdout if they go
// there (nothing is printed for files that failed), and says what was
// written.
func finishSplit(set *outfile.Set, dir string, sinks []*shareSink, shares [][]byte, splitID []byte, o *splitOptions) error {
	lines := o.encode != "" && len(o.holders) == 0
	toStdout := lines && (o.out == "" || o.out == "-")
	if lines && !toStdout {
		f, err := set.Create(o.out)
		if err != nil {
			return err
		}
		if err := writeLines(&destWriter{f, o.out}, shares, o.encode); err != nil {
			return err
		}
	}
	if err := set.Commit(); err != nil {
		return err
	}
	if toStdout {
		if err := writeLines(os.Stdout, shares, o.encode); err != nil {
			return fmt.Errorf("writing to stdout: %v", unwrapPath(err))
		}
	}
	if o.quiet {
		return nil
	}
	switch {
	case len(o.holders) > 0:
		sayf(os.Stderr, "wrote %s in %s, each encrypted to its holder, and %s; any %d recover the secret",
			count(o.parts, "share file"), quote(dir), quote(filepath.Join(dir, manifest.FileName)), o.threshold)
	case lines:
		sayf(os.Stderr, "wrote %s to %s, one per line; any %d recover the secret",
			count(o.parts, o.encode+" share"), pick(toStdout, "stdout", quote(o.out)), o.threshold)
	default:
		sayf(os.Stderr, "wrote %d shares, %s to %s, of split %x; any %d recover the secret",
			o.parts, quote(sinks[0].path), quote(sinks[o.parts-1].path), splitID, o.threshold)
	}
	if o.paper != "" {
		sayPaper(o, splitID)
	}
	return nil
}
