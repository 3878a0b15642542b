package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxTerminalSecret is the most that combine holds back to check before
// printing a secret on a terminal. More than this is no text to read on a
// screen anyway.
const maxTerminalSecret = 1 << 20

// errNotForTerminal refuses to print a secret that would garble the terminal.
var errNotForTerminal = errors.New("the secret is not printable text and stdout is a terminal;\n" +
	"\twrite it to a file with -o FILE, print it as text with -encode hex or -encode base64,\n" +
	"\tor pipe it to a program; -f prints it anyway")

var errTooBigForTerminal = fmt.Errorf("the secret is over %d MiB and stdout is a terminal;\n"+
	"\twrite it to a file with -o FILE or pipe it to a program; -f prints it anyway", maxTerminalSecret>>20)

// A secretWriter takes the recovered secret and puts it where the user
// asked: into a file, written atomically, or onto stdout, optionally encoded
// as hex or base64 text.
type secretWriter struct {
	w       io.Writer      // the head of the chain that Write feeds
	buf     *bufio.Writer  // batches small writes to the destination
	encoder io.WriteCloser // the base64 encoder to flush, if any
	encoded bool           // add a final newline: the output is a line of text
	set     *outputSet     // when writing a file
	held    *heldBack      // when checking what goes to a terminal
}

// newSecretWriter returns a secretWriter for path (stdout if empty or "-")
// with encoding encode ("", "hex" or "base64"). When the secret goes raw to a
// terminal without force, it is held back until finish has checked it is
// printable text.
func newSecretWriter(path, encode string, force bool) (*secretWriter, error) {
	s := &secretWriter{}
	var dest io.Writer = os.Stdout
	if path != "" && path != "-" {
		s.set = newOutputSet(force)
		f, err := s.set.create(path)
		if err != nil {
			s.set.abort()
			return nil, err
		}
		dest = f
	} else if encode == "" && !force && isTerminal(os.Stdout) {
		s.held = &heldBack{}
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
		if _, err := os.Stdout.Write(s.held.b); err != nil {
			return err
		}
		// End the line, so the shell's prompt does not run on after the
		// secret; on a terminal the newline is only layout.
		if n := len(s.held.b); n > 0 && s.held.b[n-1] != '\n' {
			os.Stdout.WriteString("\n")
		}
	}
	if s.set != nil {
		return s.set.commit()
	}
	return nil
}

// abort drops the output: a file being written is removed. What already went
// to stdout cannot be taken back.
func (s *secretWriter) abort() {
	if s.set != nil {
		s.set.abort()
	}
	if s.held != nil {
		zero(s.held.b)
	}
}

// heldBack collects a secret bound for a terminal, up to maxTerminalSecret.
type heldBack struct{ b []byte }

func (h *heldBack) Write(p []byte) (int, error) {
	if len(h.b)+len(p) > maxTerminalSecret {
		return 0, errTooBigForTerminal
	}
	h.b = append(h.b, p...)
	return len(p), nil
}
