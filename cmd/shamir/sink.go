package main

import (
	"bufio"
	"crypto/sha256"
	"hash"
	"io"
	"path/filepath"

	"filippo.io/age"
	"github.com/gf256/shamir/cmd/shamir/internal/attest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file is where split writes each share: a chain of writers built for
// the share from split's options, so that every split (SSMS share files,
// files encrypted to their holders, Vault-format text; with or without a
// manifest and paper copies) takes one path. From the outside in:
//
//	the share file, through the run's output set, buffered
//	  ← the SHA-256 of the file as written (for the manifest)
//	  ← age's encryption to the share's holder (-r, -R)
//	  ← the SHA-256 of the file as its holder decrypts it (for the manifest)
//
// and beside the file, the share itself kept (keptShare): its first bytes
// (an SSMS header for the split ID, or the whole share for its paper copy)
// and its attestation key. A link the options do not ask for is left out.

// A shareSink is one share's way out.
type shareSink struct {
	path   string         // the share file; "" when the share has no file of its own
	file   *bufio.Writer  // nil without a file
	enc    io.WriteCloser // age's encryption, nil without a recipient
	w      io.Writer      // the file's content, as its holder reads it, goes here
	cipher hash.Hash      // SHA-256 of the file as written; nil without a manifest
	header *ageHeaderHash // SHA-256 of its age header; nil without a manifest
	plain  hash.Hash      // SHA-256 of w's bytes; nil without a manifest
	share  *keptShare
}

// A keptShare keeps of a share's bytes written to it: the first ones, up
// to limit, how many there were, the last one (a Vault-format share's x
// coordinate) and, with a manifest, the share's attestation key.
type keptShare struct {
	head  []byte
	limit int
	n     int64
	last  byte
	key   *attest.KeyWriter // nil without a manifest
}

func (k *keptShare) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if room := k.limit - len(k.head); room > 0 {
		k.head = append(k.head, p[:min(room, len(p))]...)
	}
	k.n += int64(len(p))
	k.last = p[len(p)-1]
	if k.key != nil {
		k.key.Write(p)
	}
	return len(p), nil
}

// whole reports whether all the share's bytes were kept.
func (k *keptShare) whole() bool { return k.n == int64(len(k.head)) }

// ssmsHeadLen is enough of an SSMS share file for its header, the
// longest: 184 bytes and 16 more per level of its batch's Merkle tree, up
// to 8 (docs/FORMAT.md, format 4). shamir.SSMSInfo.HeaderSize is a given
// share's.
const ssmsHeadLen = 312

// openSinks starts the ways out of the shares of a split with options o:
// their files in dir, through set. A split to Vault-format text without
// holders writes no file per share: its lines go together to -o or stdout
// (splitLines), and its sinks only keep the shares.
func openSinks(set *outfile.Set, dir string, o *splitOptions) ([]*shareSink, error) {
	sinks := make([]*shareSink, o.parts)
	for i := range sinks {
		var h *holder
		path := ""
		switch {
		case len(o.holders) > 0:
			h = &o.holders[i]
			path = filepath.Join(dir, holderFileName(h.name))
		case o.encode == "":
			path = filepath.Join(dir, shareFileName(o.name, i+1, o.parts))
		}
		s, err := newSink(set, path, h, sinkKeeps{paper: o.paper != "", manifest: len(o.holders) > 0})
		if err != nil {
			return nil, err
		}
		sinks[i] = s
	}
	return sinks, nil
}

// sinkKeeps says what a sink keeps of its share besides the file: enough
// for a paper copy, and what the manifest records.
type sinkKeeps struct {
	paper, manifest bool
}

// newSink starts the way out of one share: the file path in set ("" for
// none), encrypted to the holder h if not nil, keeping what keep asks.
// split and the lifecycle commands make every share's sink with it.
func newSink(set *outfile.Set, path string, h *holder, keep sinkKeeps) (*shareSink, error) {
	s := &shareSink{share: &keptShare{limit: ssmsHeadLen}, w: io.Discard}
	if keep.paper {
		s.share.limit = paper.MaxShare
	}
	if keep.manifest {
		s.share.key = attest.NewKeyWriter()
		s.cipher, s.plain = sha256.New(), sha256.New()
	}
	s.path = path
	if path == "" {
		return s, nil
	}
	var rcpt age.Recipient
	if h != nil {
		rcpt = h.rcpt
	}
	if err := s.open(set, rcpt); err != nil {
		return nil, err
	}
	return s, nil
}

// open creates the share's file in set, encrypted to rcpt if not nil.
func (s *shareSink) open(set *outfile.Set, rcpt age.Recipient) error {
	f, err := set.Create(s.path)
	if err != nil {
		return err
	}
	var w io.Writer = tee(&destWriter{f, s.path}, s.cipher)
	if rcpt != nil && s.cipher != nil {
		s.header = new(ageHeaderHash)
		w = io.MultiWriter(w, s.header)
	}
	s.file = bufio.NewWriterSize(w, copyBufSize)
	s.w = s.file
	if rcpt != nil {
		if s.enc, err = age.Encrypt(s.file, rcpt); err != nil {
			return err
		}
		s.w = s.enc
	}
	s.w = tee(s.w, s.plain)
	return nil
}

// tee is w, and h too if not nil.
func tee(w io.Writer, h hash.Hash) io.Writer {
	if h == nil {
		return w
	}
	return io.MultiWriter(w, h)
}

// close completes the share's file: age's last chunk, then the buffer.
func (s *shareSink) close() error {
	if s.enc != nil {
		if err := s.enc.Close(); err != nil {
			return err
		}
	}
	if s.file != nil {
		return s.file.Flush()
	}
	return nil
}
