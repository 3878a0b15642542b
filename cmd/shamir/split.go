package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gf256/shamir"
)

var cmdSplit = &command{
	name:  "split",
	short: "split a secret into shares",
	run:   runSplit,
	help: `usage: shamir split -n PARTS -t THRESHOLD [flags] [FILE | -]

Split splits a secret into PARTS shares, any THRESHOLD of which recover it
with "shamir combine"; fewer reveal nothing about it. The secret is FILE, or
stdin if FILE is "-" or absent. On a terminal, the secret is typed (twice)
without being shown; it is then the line typed, without its newline.
Otherwise the secret is the input's bytes exactly, final newline included.

-n and -t have no defaults: how many shares to hand out and how many to
require is a choice about the people who keep them. 2 <= THRESHOLD <= PARTS
<= 255. With THRESHOLD equal to PARTS, losing one share loses the secret.

Formats (-format):

	ssms    the default: one share file per part, NAME.I-of-N.shamir, in the
	        folder -o (default: the current folder), where NAME is FILE's
	        name (or -name; "secret" for stdin). Each file records the
	        threshold and authenticates its data, so combine can tell a bad
	        share from a good one. Any size is fine: the input is streamed.
	base64  Vault-format shares, one per line, in base64 as vault operator
	hex     init prints unseal keys, or in hex, on stdout or into the file -o.
	        Vault's shamir.Combine accepts them. Each share is one byte
	        longer than the secret, so this is for small secrets (at most
	        1 MiB): keys and passwords.

Every file is created with mode 0600, written under a temporary name and
renamed into place once all are complete: a failed or interrupted run leaves
no share behind. Existing files are not overwritten without -f.

Flags:
	-n, -parts PARTS          the number of shares to make
	-t, -threshold THRESHOLD  the number of shares that recover the secret
	-format FORMAT            ssms (the default), base64 or hex
	-o, -out PATH             ssms: the folder for the share files, created if
	                          need be; base64, hex: the file for the shares
	-name NAME                ssms: name the shares NAME.I-of-N.shamir
	-decode ENCODING          the secret is hex or base64 text (as combine
	                          -encode writes it): split the bytes it stands for
	-f, -force                overwrite existing files
	-q, -quiet                no progress bar or summary

Examples:

	shamir split -n 5 -t 3 secret.tar -o backup/
	tar c photos/ | shamir split -n 3 -t 2 -name photos.tar -o /mnt/usb
	shamir split -n 5 -t 3 -format base64     # type a password, get 5 lines
	shamir combine -encode base64 -t 3 old-keys.txt |
		shamir split -decode base64 -n 7 -t 4 -format base64 -o new-keys.txt

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

// maxTextSecret bounds the secrets split into Vault-format text shares, which
// are held in memory and written as one line each.
const maxTextSecret = 1 << 20

func runSplit(args []string) error {
	fs := newFlagSet("split")
	var (
		parts, threshold int
		out, name        string
		force, quiet     bool
		format           = &choice{fmtSSMS, []string{fmtSSMS, encBase64, encHex}}
		decode           = &choice{"", []string{encBase64, encHex}}
	)
	intFlag(fs, &parts, "n", "parts")
	intFlag(fs, &threshold, "t", "threshold")
	stringFlag(fs, &out, "o", "out")
	stringFlag(fs, &name, "name")
	boolFlag(fs, &force, "f", "force")
	boolFlag(fs, &quiet, "q", "quiet")
	valueFlag(fs, format, "format")
	valueFlag(fs, decode, "decode")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case parts == 0 && threshold == 0:
		return usagef("give the number of shares with -n and how many recover the secret with -t, as in -n 5 -t 3")
	case parts == 0:
		return usagef("give the number of shares to make with -n, as in -n 5 -t %d", threshold)
	case threshold == 0:
		return usagef("give the number of shares that recover the secret with -t, as in -n %d -t %d", parts, (parts+2)/2)
	case threshold < 2:
		return usagef("-t %d: the threshold must be at least 2; with 1, every share would be the secret itself", threshold)
	case parts > 255:
		return usagef("-n %d: at most 255 shares can be made", parts)
	case threshold > parts:
		return usagef("-t %d is more than the %d shares of -n: the secret could never be recovered", threshold, parts)
	case len(args) > 1:
		return usagef("one secret at a time; to split several files, tar them first")
	case name != "" && (strings.ContainsRune(name, os.PathSeparator) || name == "." || name == ".."):
		return usagef("-name %q: a name, not a path; the folder is -o", name)
	}
	if format.val != fmtSSMS && name != "" {
		return usagef("-name is for ssms share files; -format %s writes lines of text", format.val)
	}
	input := "-"
	if len(args) == 1 {
		input = args[0]
	}

	in, total, err := openSecret(input)
	if err != nil {
		return err
	}
	defer in.Close()
	if decode.val != "" {
		if in, total, err = decodeSecret(in, decode.val); err != nil {
			return err
		}
		defer in.Close()
	}
	if format.val == fmtSSMS {
		if name == "" {
			name = "secret"
			if input != "-" {
				name = filepath.Base(input)
			}
		}
		return splitSSMS(in, total, input, parts, threshold, out, name, force, quiet)
	}
	return splitText(in, parts, threshold, format.val, out, force, quiet)
}

// openSecret opens the secret to split: a file, stdin, or a secret typed on
// the terminal. total is its size, or -1 if unknown.
func openSecret(input string) (io.ReadCloser, int64, error) {
	if input != "-" {
		f, err := os.Open(input)
		if err != nil {
			return nil, 0, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		if fi.IsDir() {
			f.Close()
			return nil, 0, fmt.Errorf("%s is a folder; to split a folder, make one file of it first (tar c %s | shamir split ... -name NAME.tar)", input, input)
		}
		total := int64(-1)
		if fi.Mode().IsRegular() {
			total = fi.Size()
		}
		return f, total, nil
	}
	if !isTerminal(os.Stdin) {
		return io.NopCloser(os.Stdin), -1, nil
	}
	secret, err := readHidden("Secret: ")
	if err != nil {
		return nil, 0, fmt.Errorf("reading the secret from the terminal: %v", err)
	}
	if len(secret) == 0 {
		return nil, 0, errors.New("the secret is empty")
	}
	again, err := readHidden("Secret again: ")
	if err != nil {
		return nil, 0, fmt.Errorf("reading the secret from the terminal: %v", err)
	}
	defer zero(again)
	if !bytes.Equal(secret, again) {
		zero(secret)
		return nil, 0, errors.New("the two secrets typed differ; nothing was written")
	}
	return &secretBuffer{bytes.NewReader(secret), secret}, int64(len(secret)), nil
}

// decodeSecret reads a secret written as hex or base64 text (as combine
// -encode writes it) and returns its bytes.
func decodeSecret(in io.Reader, enc string) (io.ReadCloser, int64, error) {
	text, err := io.ReadAll(io.LimitReader(in, 4*maxTextSecret+1))
	defer zero(text)
	if err != nil {
		return nil, 0, err
	}
	if len(text) > 4*maxTextSecret {
		return nil, 0, fmt.Errorf("-decode %s: the input is over %d MiB; -decode is for keys and passwords", enc, 4*maxTextSecret>>20)
	}
	// Line breaks and spaces are layout, as in PEM or wrapped base64.
	compact := bytes.Join(bytes.Fields(text), nil)
	defer zero(compact)
	var secret []byte
	if enc == encHex {
		secret = make([]byte, hex.DecodedLen(len(compact)))
		_, err = hex.Decode(secret, compact)
	} else {
		secret, err = decodeBase64(string(compact))
	}
	if err != nil {
		zero(secret)
		return nil, 0, fmt.Errorf("-decode %s: the input is not %s text: %v", enc, enc, err)
	}
	return &secretBuffer{bytes.NewReader(secret), secret}, int64(len(secret)), nil
}

// A secretBuffer reads a secret held in memory and clears it on Close.
type secretBuffer struct {
	*bytes.Reader
	b []byte
}

func (s *secretBuffer) Close() error {
	zero(s.b)
	return nil
}

// splitText splits the secret from in into Vault-format shares, written one
// per line to the file out, or to stdout.
func splitText(in io.Reader, parts, threshold int, enc, out string, force, quiet bool) error {
	secret, err := io.ReadAll(io.LimitReader(in, maxTextSecret+1))
	defer zero(secret)
	if err != nil {
		return err
	}
	switch {
	case len(secret) == 0:
		return errors.New("the secret is empty")
	case len(secret) > maxTextSecret:
		return fmt.Errorf("the secret is over %d MiB: too big for Vault-format shares, which are one line of text each; leave out -format to make ssms share files", maxTextSecret>>20)
	}
	shares, err := shamir.Split(secret, parts, threshold)
	if err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	var set *outputSet
	if out != "" && out != "-" {
		set = newOutputSet(force)
		defer set.abort()
		f, err := set.create(out)
		if err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	for _, s := range shares {
		fmt.Fprintln(bw, encodeTextShare(s, enc))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if set != nil {
		if err := set.commit(); err != nil {
			return err
		}
	}
	if !quiet {
		where := ""
		if set != nil {
			where = " in " + out
		}
		fmt.Fprintf(os.Stderr, "shamir split: %d %s shares%s, one per line; any %d recover the secret\n", parts, enc, where, threshold)
	}
	return nil
}
