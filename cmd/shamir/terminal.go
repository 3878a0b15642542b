package main

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// echoOff remembers the terminal state that readHidden changed, so that the
// signal handler can give the user back a terminal that echoes.
var echoOff struct {
	sync.Mutex
	fd    int
	state *term.State
}

// restoreTerminal undoes readHidden's change to the terminal, if one is in
// force.
func restoreTerminal() {
	echoOff.Lock()
	defer echoOff.Unlock()
	if echoOff.state != nil {
		term.Restore(echoOff.fd, echoOff.state)
		echoOff.state = nil
	}
}

// readHidden prints prompt on stderr and reads a line from the terminal on
// stdin without echoing it, so that the secret or share typed does not stay
// on the screen or in the terminal's scrollback.
func readHidden(prompt string) ([]byte, error) {
	return readHiddenOn(os.Stdin, os.Stderr, prompt)
}

// readHiddenOn prints prompt on out and reads a line from the terminal in
// without echoing it.
func readHiddenOn(in, out *os.File, prompt string) ([]byte, error) {
	fd := int(in.Fd())
	st, err := term.GetState(fd)
	if err != nil {
		return nil, err
	}
	echoOff.Lock()
	echoOff.fd, echoOff.state = fd, st
	echoOff.Unlock()
	defer restoreTerminal()

	fmt.Fprint(out, prompt)
	line, err := term.ReadPassword(fd)
	fmt.Fprintln(out) // the Enter that ended the line was not echoed
	return line, err
}

// errNoTerminal is a passphrase asked for where no one can type it.
var errNoTerminal = errors.New("its passphrase is typed on a terminal, and there is none (no /dev/tty, and stdin is not one)")

// askPassphrase asks for a passphrase without echo, as age does: on the
// terminal of the session (/dev/tty), whatever stdin is, so that shares
// can be piped in while a person types the passphrase; on stdin where
// there is no /dev/tty but stdin is a terminal.
func askPassphrase(prompt string) ([]byte, error) {
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer tty.Close()
		if isTerminal(tty) {
			return readHiddenOn(tty, tty, prompt)
		}
	}
	if isTerminal(os.Stdin) {
		return readHidden(prompt)
	}
	return nil, errNoTerminal
}

// printable reports whether b is text that can be shown on a terminal as it
// is: valid UTF-8 without control characters other than tab and line ends.
// Anything else could garble the terminal, or run its escape sequences.
func printable(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if r != '\n' && r != '\t' && r != '\r' && !unicode.IsGraphic(r) {
			return false
		}
		b = b[size:]
	}
	return true
}

// zero overwrites a buffer that held secret material. It is no guarantee,
// since the garbage collector may have copied it, but it shortens the time a
// secret lingers in memory.
func zero(b []byte) { clear(b) }
