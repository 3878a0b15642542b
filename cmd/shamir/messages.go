package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// This file holds how shamir words what it prints on stderr. Every line it
// writes there starts with "shamir: ": errors say what failed ("shamir:
// open \"x\": no such file or directory"), each line of a longer one
// prefixed too, warnings start with "warning: ", and advice goes on lines of
// its own that start with "hint: ", as age prints them. Names of files are quoted as Go strings, so that a name that
// holds a terminal's escape sequence is shown, not obeyed. The library's
// errors already start with "shamir: " and are printed as they are.

// prefix starts every line shamir writes on stderr.
const prefix = "shamir: "

// quote quotes a file name for a message.
func quote(name string) string { return strconv.Quote(name) }

// count spells out a number of things: count(1, "share") is "1 share",
// count(3, "share") is "3 shares". With two nouns, the second is the plural:
// count(2, "share is", "shares are").
func count(n int, noun string, plural ...string) string {
	if n == 1 {
		return "1 " + noun
	}
	if len(plural) > 0 {
		return fmt.Sprintf("%d %s", n, plural[0])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// pick returns a if c, else b.
func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// withHints attaches hints to err (internal/hint).
func withHints(err error, hints ...string) error { return hint.With(err, hints...) }

// printError writes err on w, each of its lines prefixed with "shamir: "
// unless it has it (the library's errors start with it), followed by its
// hints.
func printError(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.HasPrefix(line, prefix) {
			line = prefix + line
		}
		fmt.Fprintln(w, line)
	}
	for _, h := range hint.All(err) {
		fmt.Fprintf(w, "%shint: %s\n", prefix, h)
	}
}

// fileError rewords an error from the os package so that it names the file
// quoted, as every message of shamir does: "open \"x\": no such file or
// directory". Other errors are returned as they are.
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &quotedPathError{pe}
	}
	return err
}

type quotedPathError struct{ pe *fs.PathError }

func (e *quotedPathError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.pe.Op, quote(e.pe.Path), e.pe.Err)
}

func (e *quotedPathError) Unwrap() error { return e.pe }

// unwrapPath returns the error inside a *fs.PathError, whose path would be
// a temporary name, or one the message names otherwise.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// warnf prints a warning.
func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, prefix+"warning: "+format+"\n", args...)
}

// sayf prints a line of shamir's own.
func sayf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, prefix+format+"\n", args...)
}
