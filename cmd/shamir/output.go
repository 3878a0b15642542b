package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// maxTerminalSecret is the most that combine holds back to check before
// printing a secret on a terminal. More than this is no text to read on a
// screen anyway.
const maxTerminalSecret = 1 << 20

// errNotForTerminal refuses to print a secret that would garble the
// terminal. No flag but -encode prints it there: raw bytes on a terminal are
// escape codes it obeys and a secret left in its scrollback, which no one
// asks for, and a person who names stdout with -o - has not seen that the
// secret is binary.
var errNotForTerminal = withHints(errors.New("the secret is not printable text, and the output is a terminal"),
	"print it as text with -encode hex or -encode base64, write it to a file with -o FILE, or redirect or pipe stdout to a file or a program")

var errTooBigForTerminal = withHints(fmt.Errorf("the secret is over %d MiB, and the output is a terminal", maxTerminalSecret>>20),
	"write it to a file with -o FILE, or redirect or pipe stdout to a file or a program")

// A secretWriter takes the recovered secret and puts it where the user
// asked: into a file, written atomically, or onto stdout, optionally encoded
// as hex or base64 text.
type secretWriter struct {
	w       io.Writer      // the head of the chain that Write feeds
	buf     *bufio.Writer  // batches small writes to the destination
	encoder io.WriteCloser // the base64 encoder to flush, if any
	encoded bool           // add a final newline: the output is a line of text
	set     *outfile.Set   // when writing a file
	held    *heldBack      // when checking what goes to a terminal
}

// newSecretWriter returns a secretWriter for path with encoding encode ("",
// "hex" or "base64"). An empty path or "-" means stdout. A raw secret bound
// for a terminal, through stdout or any path that names one, is held back
// until finish has checked that it is printable text. A path that is one of
// inputs (the files the shares were read from) is refused, even with force.
func newSecretWriter(path, encode string, force bool, inputs []os.FileInfo) (*secretWriter, error) {
	s := &secretWriter{}
	var dest io.Writer = stdoutWriter{}
	if path != "" && path != "-" {
		s.set = outfile.New(force)
		s.set.Refuse(inputs)
		f, err := s.set.Create(path)
		if err != nil {
			s.set.Abort()
			return nil, err
		}
		dest = &destWriter{f, path}
		// A path that names a terminal (/dev/tty, /dev/stdout,
		// /proc/self/fd/1 on one) is held to what stdout is: -o is no
		// way around the check; only -encode is.
		if file, ok := f.(*os.File); ok && encode == "" && isTerminal(file) {
			s.held = &heldBack{out: dest}
			dest = s.held
		}
	} else if encode == "" && isTerminal(os.Stdout) {
		s.held = &heldBack{out: stdoutWriter{}}
		dest = s.held
	}
	s.buf = bufio.NewWriterSize(dest, 64<<10)
	s.w = s.buf
	switch encode {
	case encHex:
		s.w, s.encoded = hex.NewEncoder(s.buf), true
	case encBase64:
		s.encoder = base64.NewEncoder(base64.StdEncoding, s.buf)
		s.w, s.encoded = s.encoder, true
	}
	return s, nil
}

// toStdout reports whether the secret goes to stdout, or into a device or
// a pipe, as it is written: what is written cannot be taken back.
func (s *secretWriter) toStdout() bool {
	return s.held == nil && (s.set == nil || s.set.Streams())
}

// stdoutWriter writes to stdout, and says so in its errors.
type stdoutWriter struct{}

func (stdoutWriter) Write(p []byte) (int, error) {
	n, err := os.Stdout.Write(p)
	if err != nil {
		err = fmt.Errorf("writing to stdout: %v", unwrapPath(err))
	}
	return n, err
}

func (s *secretWriter) Write(p []byte) (int, error) { return s.w.Write(p) }

// finish completes the output: it flushes the encoder, ends encoded text with
// a newline, prints what was held back if it may go to the terminal, and
// moves a file into place.
func (s *secretWriter) finish() error {
	if s.encoder != nil {
		if err := s.encoder.Close(); err != nil {
			return err
		}
	}
	if s.encoded {
		if err := s.buf.WriteByte('\n'); err != nil {
			return err
		}
	}
	if err := s.buf.Flush(); err != nil {
		return err
	}
	if s.held != nil {
		defer zero(s.held.b)
		if !printable(s.held.b) {
			return errNotForTerminal
		}
		if _, err := s.held.out.Write(s.held.b); err != nil {
			return err
		}
		// End the line, so the shell's prompt does not run on after the
		// secret; on a terminal the newline is only layout.
		if n := len(s.held.b); n > 0 && s.held.b[n-1] != '\n' {
			if _, err := s.held.out.Write([]byte("\n")); err != nil {
				return err
			}
		}
	}
	if s.set != nil {
		return s.set.Commit()
	}
	return nil
}

// abort drops the output: a file being written is removed. What already went
// to stdout cannot be taken back.
func (s *secretWriter) abort() {
	if s.set != nil {
		s.set.Abort()
	}
	if s.held != nil {
		zero(s.held.b)
	}
}

// heldBack collects a secret bound for a terminal, up to maxTerminalSecret,
// to be written to out once checked.
type heldBack struct {
	b   []byte
	out io.Writer
}

func (h *heldBack) Write(p []byte) (int, error) {
	if len(h.b)+len(p) > maxTerminalSecret {
		return 0, errTooBigForTerminal
	}
	h.b = append(h.b, p...)
	return len(p), nil
}
