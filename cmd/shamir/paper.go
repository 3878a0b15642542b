package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file joins the paper copies of internal/paper to the command:
// split writes them through its output set, and combine reads the lines of
// a share typed from paper at the terminal; classify.go reads shares from
// pictures of the code and from text.

// writePaper writes the paper copy of share (base.png, base.svg and
// base.html) in dir, through set.
func writePaper(set *outfile.Set, dir, base string, share []byte, info paper.Info) error {
	if len(share) > paper.MaxShare {
		return paperTooBig(int64(len(share)))
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

// paperTooBig is the error for shares of n bytes, too big for paper.
func paperTooBig(n int64) error {
	return withHints(fmt.Errorf("the shares are %d bytes, and a paper copy holds at most %d", n, paper.MaxShare),
		"paper copies are for keys and passwords: leave out -paper for larger secrets")
}

// writeWhole writes data as the file path of set.
func writeWhole(set *outfile.Set, path string, data []byte) error {
	f, err := set.Create(path)
	if err != nil {
		return err
	}
	_, err = (&destWriter{f, path}).Write(data)
	return err
}

// addTypedPaper adds the share typed from paper at the terminal, whose
// first line, with the tag, is first. Each line is checked as it is
// typed: a wrong group is named at once, and the line asked for again. The
// share ends when its last group is in, or at an empty line.
func (set *shareSet) addTypedPaper(where, first string) error {
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
	set.addPaper(paperPiece{where: where, data: share, err: err, ssms: err == nil && shamir.IsSSMS(share) && set.decode == ""})
	return nil
}
