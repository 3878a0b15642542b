package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file is split for people: each share encrypted with age to the
// holder it is for (-r, -R), a manifest that lists who holds what, and a
// paper copy of each share (-paper).

// holderFileName names the file a holder is handed.
func holderFileName(name string) string { return name + ".shamir.age" }

// A shareOut is one share being written: its destination, and what is
// kept of it on the way for the manifest and the paper copy.
type shareOut struct {
	path    string
	file    *bufio.Writer
	enc     io.WriteCloser // age's encryptor, nil without a recipient
	w       io.Writer      // where the share's bytes go
	plain   hash.Hash      // SHA-256 of the share as the holder decrypts it
	cipher  hash.Hash      // SHA-256 of the file written
	whole   *bytes.Buffer  // the whole share, for the paper copy
	tooLong bool
	key     *attest.KeyWriter // the share's attestation key, for the manifest
}

// capture keeps the first bytes written to it, up to a limit.
type capture struct {
	b     *bytes.Buffer
	limit int
	over  *bool
}

func (c capture) Write(p []byte) (int, error) {
	if room := c.limit - c.b.Len(); room < len(p) {
		*c.over = true
		if room > 0 {
			c.b.Write(p[:room])
		}
		return len(p), nil
	}
	return c.b.Write(p)
}

// newShareOut starts the share file path of set, encrypted to rcpt if not
// nil; forPaper asks for the share's bytes to be kept for its paper copy.
func newShareOut(set *outfile.Set, path string, rcpt age.Recipient, forPaper bool) (*shareOut, error) {
	f, err := set.Create(path)
	if err != nil {
		return nil, err
	}
	s := &shareOut{path: path, plain: sha256.New(), cipher: sha256.New(), whole: new(bytes.Buffer), key: attest.NewKeyWriter()}
	s.file = bufio.NewWriterSize(io.MultiWriter(&destWriter{f, path}, s.cipher), copyBufSize)
	var dst io.Writer = s.file
	if rcpt != nil {
		if s.enc, err = age.Encrypt(s.file, rcpt); err != nil {
			return nil, err
		}
		dst = s.enc
	}
	limit := 128 // enough for an SSMS header
	if forPaper {
		limit = paper.MaxShare
	}
	s.w = io.MultiWriter(dst, s.plain, s.key, capture{s.whole, limit, &s.tooLong})
	return s, nil
}

// finish completes the file: age's last chunk, then the buffer.
func (s *shareOut) finish() error {
	if s.enc != nil {
		if err := s.enc.Close(); err != nil {
			return err
		}
	}
	return s.file.Flush()
}

// splitPeople splits the secret from in for the holders of o (encrypted
// to each, with a manifest) and, with -paper, writes a paper copy of each
// share. Without holders, the share files are those of splitSSMS (or the
// text of splitText) and -paper adds the paper copies.
func splitPeople(in io.Reader, total int64, what string, o splitOptions) error {
	dir := o.out
	if dir == "" || o.encode != "" && len(o.holders) == 0 {
		dir = "."
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() && (o.encode == "" || len(o.holders) > 0) {
		return fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(dir))
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
	outs := make([]*shareOut, o.parts)
	for i := range outs {
		var rcpt age.Recipient
		path := filepath.Join(dir, shareFileName(o.name, i+1, o.parts))
		if len(o.holders) > 0 {
			rcpt = o.holders[i].rcpt
			path = filepath.Join(dir, holderFileName(o.holders[i].name))
		}
		if o.encode != "" && len(o.holders) == 0 {
			path = "" // the text goes where splitText puts it
			continue
		}
		var err error
		if outs[i], err = newShareOut(set, path, rcpt, o.paper != ""); err != nil {
			return err
		}
	}
	var shares [][]byte // Vault-format shares, as written
	if o.encode == "" {
		ws := make([]io.Writer, o.parts)
		for i, s := range outs {
			ws[i] = s.w
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
			var we *writeError
			if errors.As(err, &we) {
				return we
			}
			return readError(what, err)
		}
	} else {
		secret, err := io.ReadAll(io.LimitReader(in, maxTextSecret+1))
		defer zero(secret)
		if err != nil {
			return readError(what, err)
		}
		if len(secret) > maxTextSecret {
			return fmt.Errorf("the secret is over %d MiB: too big for Vault-format shares", maxTextSecret>>20)
		}
		if shares, err = shamir.Split(secret, o.parts, o.threshold); err != nil {
			return err
		}
		for i, s := range outs {
			if s == nil {
				continue
			}
			if _, err := io.WriteString(s.w, encodeTextShare(shares[i], o.encode)+"\n"); err != nil {
				return err
			}
		}
	}
	for _, s := range outs {
		if s == nil {
			continue
		}
		if err := s.finish(); err != nil {
			return err
		}
	}

	// The split ID: SSMS shares carry one; Vault-format shares do not,
	// so one is drawn at random for the manifest and the papers.
	splitID := make([]byte, 16)
	format := "SSMS"
	if o.encode == "" {
		info, err := shamir.InspectSSMS(outs[0].whole.Bytes())
		if err != nil {
			return err
		}
		copy(splitID, info.SplitID[:])
	} else {
		format = "Vault-format"
		rand.Read(splitID)
	}

	if o.paper != "" {
		for i := range o.parts {
			var share []byte
			if o.encode == "" {
				if outs[i].tooLong {
					return withHints(fmt.Errorf("the shares are over %d bytes: too big for paper", paper.MaxShare),
						"paper copies are for keys and passwords: leave out -paper for larger secrets")
				}
				share = outs[i].whole.Bytes()
			} else {
				share = shares[i]
			}
			base := fmt.Sprintf("share.%d-of-%d", i+1, o.parts)
			if o.encode == "" {
				base = strings.TrimSuffix(shareFileName(o.name, i+1, o.parts), ".shamir")
			}
			info := paper.Info{Index: i + 1, Parts: o.parts, Threshold: o.threshold, SplitID: hex.EncodeToString(splitID), Format: format}
			if len(o.holders) > 0 {
				base, info.Holder = o.holders[i].name, o.holders[i].name
			}
			info.Command = recombineCommand(o)
			if err := writePaper(set, o.paper, base, share, info); err != nil {
				return err
			}
		}
	}
	if len(o.holders) > 0 {
		m := &manifest.Manifest{
			Version:       manifest.Version,
			SplitID:       hex.EncodeToString(splitID),
			SplitIDSource: pick(o.encode == "", "ssms", "random"),
			ShareFormat:   pick(o.encode == "", "ssms", "vault-"+o.encode),
			Name:          pick(o.encode == "", o.name, ""),
			Parts:         o.parts,
			Threshold:     o.threshold,
		}
		for i, s := range outs {
			m.Shares = append(m.Shares, manifest.Share{
				Share:           i + 1,
				Holder:          o.holders[i].name,
				Recipient:       o.holders[i].recipient,
				File:            filepath.Base(s.path),
				EncryptedSHA256: hex.EncodeToString(s.cipher.Sum(nil)),
				PlainSHA256:     hex.EncodeToString(s.plain.Sum(nil)),
			})
		}
		if err := recordAttestKeys(m, outs, shares, o.quiet); err != nil {
			return err
		}
		if err := writeWhole(set, filepath.Join(dir, manifest.FileName), m.Encode()); err != nil {
			return err
		}
	}
	if o.encode != "" && len(o.holders) == 0 {
		// The text shares go to stdout or -o as without -paper; the
		// papers are committed first, so that nothing is printed for
		// papers that failed.
		if err := set.Commit(); err != nil {
			return err
		}
		if !o.quiet {
			sayPaper(o, splitID)
		}
		return writeShareLines(shares, o)
	}
	if err := set.Commit(); err != nil {
		return err
	}
	if !o.quiet {
		switch {
		case len(o.holders) > 0:
			sayf(os.Stderr, "wrote %s in %s, each encrypted to its holder, and %s; any %d recover the secret",
				count(o.parts, "share file"), quote(dir), quote(filepath.Join(dir, manifest.FileName)), o.threshold)
		default:
			sayf(os.Stderr, "wrote %d shares, %s to %s; any %d recover the secret",
				o.parts, quote(outs[0].path), quote(outs[o.parts-1].path), o.threshold)
		}
		if o.paper != "" {
			sayPaper(o, splitID)
		}
	}
	return nil
}

// sayPaper says where the paper copies of split splitID are.
func sayPaper(o splitOptions, splitID []byte) {
	sayf(os.Stderr, "wrote a paper copy of each share of split %x in %s: PNG and SVG QR codes, and an HTML page to print", splitID, quote(o.paper))
}

// recombineCommand is the command a paper page gives for recombining.
func recombineCommand(o splitOptions) string {
	files := "PHOTO1.jpg PHOTO2.png …"
	if o.encode != "" {
		return fmt.Sprintf("shamir combine -t %d -encode %s %s", o.threshold, o.encode, files)
	}
	return fmt.Sprintf("shamir combine -o %s %s", quoteShell(o.name), files)
}

// quoteShell quotes a name for a command line when it needs it.
func quoteShell(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' || r == '/') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
