package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file joins the paper copies of internal/paper to the command:
// split writes them through its output set, and combine reads shares from
// pictures of the code and from the text typed.

// writePaper writes the paper copy of share (base.png, base.svg and
// base.html) in dir, through set.
func writePaper(set *outputSet, dir, base string, share []byte, info paper.Info) error {
	if len(share) > paper.MaxShare {
		return withHints(fmt.Errorf("the shares are %d bytes, and a paper copy holds at most %d", len(share), paper.MaxShare),
			"paper copies are for keys and passwords: leave out -paper for larger secrets")
	}
	c, err := paper.Make(share, info)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".png", c.PNG}, {".svg", c.SVG}, {".html", c.HTML}} {
		if err := writeWhole(set, filepath.Join(dir, base+f.ext), f.data); err != nil {
			return err
		}
	}
	return nil
}

// writeWhole writes data as the file path of set.
func writeWhole(set *outputSet, path string, data []byte) error {
	f, err := set.create(path)
	if err != nil {
		return err
	}
	_, err = (&destWriter{f, path}).Write(data)
	return err
}

// addPaperText adds the paper shares typed into the text r, one or several,
// each starting with the tag.
func (set *shareSet) addPaperText(r io.Reader, where, decode string) error {
	data, err := io.ReadAll(io.LimitReader(r, maxTextInput+1))
	if err != nil {
		set.ignored = append(set.ignored, problem{where, "reading it: " + unwrapPath(err).Error()})
		return nil
	}
	if len(data) > maxTextInput {
		set.ignored = append(set.ignored, problem{where, "more text than paper shares could be"})
		return nil
	}
	texts := paper.Split(string(data))
	for i, text := range texts {
		w := where
		if len(texts) > 1 {
			w = fmt.Sprintf("%s share %d", where, i+1)
		}
		set.addPaperString(w, text, decode)
	}
	return nil
}

// addPaperString adds the paper share in text, from where.
func (set *shareSet) addPaperString(where, text, decode string) {
	b, err := paper.Parse(text)
	if err != nil {
		set.notSSMS = append(set.notSSMS, problem{where, "mistyped: " + err.Error()})
		return
	}
	set.addShareBytes(where, b, decode)
}

// addShareBytes adds a share read from paper: an SSMS share, or a
// Vault-format one.
func (set *shareSet) addShareBytes(where string, b []byte, decode string) {
	if shamir.IsSSMS(b) && decode == "" {
		set.addSSMS(&ssmsShare{where: where, r: bufio.NewReader(bytes.NewReader(b)), size: int64(len(b))}, b)
		return
	}
	set.text = append(set.text, textShare{where: where, data: b})
	set.textFrom = append(set.textFrom, where+" (paper)")
}

// addImage adds the share in the QR code of a picture.
func (set *shareSet) addImage(r io.Reader, where string, isShamir bool, decode string) error {
	data, err := io.ReadAll(io.LimitReader(r, paper.MaxImageBytes+1))
	if err != nil {
		set.ignored = append(set.ignored, problem{where, "reading it: " + unwrapPath(err).Error()})
		return nil
	}
	if len(data) > paper.MaxImageBytes {
		set.noShares(where, isShamir, "a picture over 64 MiB")
		return nil
	}
	text, err := paper.ReadQR(data)
	if err != nil {
		set.noShares(where, isShamir, "a picture: "+err.Error())
		return nil
	}
	if paper.IsText(text) {
		set.addPaperString(where, text, decode)
		return nil
	}
	// A code made of a Vault-format share, as qrencode makes from an
	// unseal key.
	return set.addText(strings.NewReader(text), where, isShamir, decode)
}

// addTypedPaper adds the share typed from paper at the terminal, whose
// first line, with the tag, is first. Each line is checked as it is
// typed: a wrong group is named at once, and the line asked for again. The
// share ends when its last group is in, or at an empty line.
func (set *shareSet) addTypedPaper(where, first, decode string) error {
	var e paper.Entry
	take := func(line string) {
		if err := e.Line(line); err != nil {
			fmt.Fprintf(os.Stderr, "  %v: type that line again\n", err)
		}
	}
	take(first)
	for !e.Done() {
		b, err := readHidden("  " + e.Prompt())
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		line := strings.TrimSpace(string(b))
		if line != "" {
			take(line)
		}
		if line == "" || err != nil {
			break
		}
	}
	share, err := e.Share()
	if err != nil {
		set.notSSMS = append(set.notSSMS, problem{where, "mistyped: " + err.Error()})
		return nil
	}
	set.addShareBytes(where, share, decode)
	return nil
}
