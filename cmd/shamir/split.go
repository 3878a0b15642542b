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
An empty secret is refused, whatever the format, unless -allowempty says it
is meant.

-n and -t have no defaults: how many shares to hand out and how many to
require is a choice about the people who keep them. 2 <= THRESHOLD <= PARTS
<= 255. With THRESHOLD equal to PARTS, losing one share loses the secret.

The shares are SSMS share files by default: one file per share,
NAME.I-of-N.shamir, in the folder -o (default: the current folder, made if
need be), where NAME is FILE's name (or -name; "secret" for stdin). Each
file records the threshold and authenticates its data, so combine can tell
a bad share from a good one. Any size is fine: the input is streamed.

With -encode base64 or -encode hex, the shares are Vault-format text
instead, one per line, in base64 as vault operator init prints unseal keys,
or in hex: on stdout, or in the file -o. Vault's shamir.Combine accepts
them. Each share is one byte longer than the secret, so this is for small
secrets (at most 1 MiB): keys and passwords. Vault-format shares cannot hold
an empty secret.

For people: with -r or -R, each share is encrypted with age to the person
who keeps it (an age1… recipient, an SSH public key, or a hardware
token's plugin recipient such as age1yubikey1…, which runs the program
age-plugin-NAME, as age -r takes them), one recipient per share (-n may then be left out), and written as
HOLDER.shamir.age in the folder -o (default: the current folder), with
manifest.json beside them: the split ID, the threshold, and each holder's
name, recipient, and the SHA-256 of the file and of the share in it, for
"shamir verify -manifest" (docs/MANIFEST.md), and a public key derived from
the share, with which its holder proves they still hold it ("shamir
attest"). A holder named nowhere is share-I. This works for SSMS shares
and for -encode; -o is then the folder.

A holder given as "NAME: passphrase" (-r NAME:passphrase) keeps their share
under a passphrase of their own instead of a key: at the split, each such
holder types theirs on the terminal, twice, without it being shown, and
their file is encrypted with age's passphrase encryption (scrypt, work
factor 2^18), so that "age -d FILE" opens it with the passphrase alone;
combine, verify and attest ask for it. Whoever has the file can guess at
the passphrase, at about a second of a CPU core and 256 MiB of memory a
guess: four words drawn at random from a list of 7776 (diceware) take tens
of millions of core-years to search, a word from a dictionary a day.

With -paper DIR, a paper copy of each share goes in DIR: a QR code (PNG and
SVG) and a page to print (HTML) with the split ID, the threshold, the
holder, the code, the share as text in checked groups of five, and the
command that recombines; named for the holder, or NAME.I-of-N (share.I-of-N
with -encode). Paper is for small secrets: shares of at most 1200 bytes.
The page of a key's share (up to a 64-byte key and more) prints on one
sheet of A4 or US Letter; a longer share's every sheet names its share and
split.

Every file is created with mode 0600, written under a temporary name and
renamed into place once all are complete: a failed run leaves no share
behind, and no folder it made. Existing files are not overwritten without -f.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop split after it
removes the files and folders it had begun to write; a signal that was
ignored when split started (as under nohup) stays ignored.

Flags:
	-n, -parts PARTS          the number of shares to make
	-t, -threshold THRESHOLD  the number of shares that recover the secret
	-o, -output PATH          SSMS shares: the folder for the share files
	                          ("-" is refused: they are files); with -encode:
	                          the file for the shares, or "-" for stdout
	                          (the default)
	-encode ENCODING          write Vault-format shares in ENCODING, base64
	                          or hex, instead of SSMS share files
	-decode ENCODING          the secret is base64 or hex text (as combine
	                          -encode writes it): split the bytes it stands for
	-name NAME                SSMS shares: name them NAME.I-of-N.shamir
	-allowempty               an empty secret is meant: split it
	-r, -recipient [NAME:]RECIPIENT
	                          encrypt a share to RECIPIENT with age, for
	                          the holder NAME (repeat: one per share)
	-R, -recipients FILE      the holders, one a line: "NAME: RECIPIENT",
	                          or "NAME: passphrase"; blank lines and #
	                          comments are skipped
	-paper DIR                write a paper copy of each share in DIR
	-f, -force                overwrite existing files
	-q, -quiet                no progress bar or summary

Examples:

	shamir split -n 5 -t 3 secret.tar -o backup
	tar c photos | shamir split -n 3 -t 2 -name photos.tar -o /mnt/usb
	shamir split -n 5 -t 3 -encode base64     # type a password, get 5 lines
	shamir split -t 3 -R holders.txt -paper paper -o shares key.bin
	shamir combine -encode base64 -t 3 old-keys.txt > key.b64
	shamir split -decode base64 -n 7 -t 4 -encode base64 -o new-keys.txt key.b64

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

// maxTextSecret bounds the secrets split into Vault-format text shares, which
// are held in memory and written as one line each.
const maxTextSecret = 1 << 20

// splitOptions are the flags of split.
type splitOptions struct {
	parts, threshold int
	out, name        string
	encode, decode   string
	allowEmpty       bool
	force, quiet     bool

	// For people (people.go): the holders of -r and -R, and -paper.
	recipients, recipientFiles list
	holders                    []holder
	paper                      string
}

func runSplit(args []string) error {
	o, args, err := parseSplitFlags(args)
	if err != nil {
		return err
	}
	if err := o.checkCounts(); err != nil {
		return err
	}
	if err := o.checkPlaces(args); err != nil {
		return err
	}
	input := "-"
	if len(args) == 1 {
		input = args[0]
	}
	if err := askHolderPassphrases(o.holders, "split"); err != nil {
		return err
	}
	in, total, what, err := openSecret(input, o.allowEmpty)
	if err != nil {
		return err
	}
	defer in.Close()
	if o.decode != "" {
		if in, total, err = decodeSecret(in, o.decode); err != nil {
			return err
		}
		defer in.Close()
		what = fmt.Sprintf("the %s text of %s", o.decode, what)
	}
	br, err := o.peekSecret(in, what)
	if err != nil {
		return err
	}
	if o.encode == "" && o.name == "" {
		o.name = "secret"
		if input != "-" {
			o.name = filepath.Base(input)
		}
	}
	return writeSplit(br, total, what, o)
}

// parseSplitFlags parses split's flags, and reads the holders of -r and -R.
func parseSplitFlags(args []string) (*splitOptions, []string, error) {
	fs := newFlagSet("split")
	o := new(splitOptions)
	encode := &choice{"", []string{encBase64, encHex}}
	decode := &choice{"", []string{encBase64, encHex}}
	intFlag(fs, &o.parts, "n", "parts")
	intFlag(fs, &o.threshold, "t", "threshold")
	stringFlag(fs, &o.out, "o", "output", "out")
	stringFlag(fs, &o.name, "name")
	valueFlag(fs, encode, "encode")
	valueFlag(fs, decode, "decode")
	boolFlag(fs, &o.allowEmpty, "allowempty")
	boolFlag(fs, &o.force, "f", "force")
	boolFlag(fs, &o.quiet, "q", "quiet")
	valueFlag(fs, &o.recipients, "r", "recipient")
	valueFlag(fs, &o.recipientFiles, "R", "recipients")
	stringFlag(fs, &o.paper, "paper")
	args, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil, err
	}
	o.encode, o.decode = encode.val, decode.val
	if len(o.recipients)+len(o.recipientFiles) == 0 {
		return o, args, nil
	}
	if o.holders, err = readHolders(o.recipients, o.recipientFiles); err != nil {
		return nil, nil, err
	}
	// One share per holder: -n may be left out.
	if o.parts == 0 {
		o.parts = len(o.holders)
	} else if o.parts != len(o.holders) {
		return nil, nil, usagef("-n %d, but %s given: one share per holder", o.parts, count(len(o.holders), "recipient"))
	}
	return o, args, nil
}

// checkCounts refuses a -n and a -t that make no split.
func (o *splitOptions) checkCounts() error {
	switch {
	case o.parts == 0 && o.threshold == 0:
		return usagef("give the number of shares with -n and how many recover the secret with -t, as in -n 5 -t 3")
	case o.parts == 0:
		return usagef("give the number of shares to make with -n, as in -n 5 -t %d", o.threshold)
	case o.parts < 2:
		// Before any comparison with -t, which would speak of "the -1
		// shares of -n".
		return usagef("-n %d: a split has 2 to 255 shares", o.parts)
	case o.threshold == 0:
		return usagef("give the number of shares that recover the secret with -t, as in -n %d -t %d", o.parts, (o.parts+2)/2)
	case o.threshold < 2:
		return usagef("-t %d: the threshold must be at least 2; with 1, every share would be the secret itself", o.threshold)
	case o.parts > 255:
		return usagef("-n %d: at most 255 shares can be made", o.parts)
	case o.threshold > o.parts:
		return usagef("-t %d is more than the %d shares of -n: the secret could never be recovered", o.threshold, o.parts)
	}
	return nil
}

// checkPlaces refuses inputs, names and outputs that do not go together.
func (o *splitOptions) checkPlaces(args []string) error {
	switch {
	case len(args) > 1:
		return &usageError{msg: fmt.Sprintf("%d files given: one secret at a time", len(args)),
			hints: []string{"to split several files, make one of them first, as in: tar c FILES | shamir split ... -name NAME.tar"}}
	case o.name != "" && !isPlainName(o.name):
		return usagef("-name %s: a name, not a path; the folder is -o", quote(o.name))
	case o.encode != "" && o.name != "":
		return usagef("-name is for SSMS share files; -encode %s writes lines of text", o.encode)
	case len(o.holders) > 0 && o.out == "-":
		return usagef("-o -: each holder's share is a file of its own, and -o names their folder")
	case o.paper == "-":
		return usagef("-paper -: the paper copies are files, and -paper names their folder")
	case o.encode == "" && o.out == "-":
		return &usageError{msg: "-o -: SSMS shares are files, one per share, and -o names their folder",
			hints: []string{"to write Vault-format shares on stdout, use -encode base64 or -encode hex"}}
	}
	return nil
}

// isPlainName reports whether name is a file's name, not a path.
func isPlainName(name string) bool {
	return !strings.ContainsRune(name, os.PathSeparator) && !strings.ContainsRune(name, '/') && name != "." && name != ".."
}

// peekSecret refuses an empty secret before anything is written, unless
// -allowempty says it is meant (and the shares can hold it).
func (o *splitOptions) peekSecret(in io.Reader, what string) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(in, copyBufSize)
	_, err := br.Peek(1)
	switch {
	case err == io.EOF && !o.allowEmpty:
		return nil, withHints(fmt.Errorf("the secret is empty: no bytes in %s", what), "if an empty secret is meant, use -allowempty")
	case err == io.EOF && o.encode != "":
		return nil, withHints(errors.New("the secret is empty, and Vault-format shares cannot hold an empty secret"),
			"leave out -encode to make SSMS share files, which can")
	case err != nil && err != io.EOF:
		return nil, readError(what, err)
	}
	return br, nil
}

// readError reports a failure to read the secret from what.
func readError(what string, err error) error {
	return fmt.Errorf("reading %s: %v", what, unwrapPath(err))
}

// openSecret opens the secret to split: a file, stdin, or a secret typed on
// the terminal. total is its size, or -1 if unknown; what names it in
// messages.
func openSecret(input string, allowEmpty bool) (r io.ReadCloser, total int64, what string, err error) {
	if input != "-" {
		what = quote(input)
		f, err := os.Open(input)
		if err != nil {
			return nil, 0, "", fileError(err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, "", fileError(err)
		}
		if fi.IsDir() {
			f.Close()
			return nil, 0, "", withHints(fmt.Errorf("%s is a folder", what),
				fmt.Sprintf("to split a folder, make one file of it first, as in: tar c %s | shamir split ... -name NAME.tar", input))
		}
		total := int64(-1)
		if fi.Mode().IsRegular() {
			total = fi.Size()
		}
		return f, total, what, nil
	}
	if !isTerminal(os.Stdin) {
		return io.NopCloser(os.Stdin), -1, "stdin", nil
	}
	what = "the secret typed"
	secret, err := readHidden("Secret: ")
	if err != nil {
		return nil, 0, "", fmt.Errorf("reading the secret from the terminal: %v", err)
	}
	if len(secret) == 0 && !allowEmpty {
		return nil, 0, "", withHints(errors.New("the secret is empty: nothing was typed"), "if an empty secret is meant, use -allowempty")
	}
	again, err := readHidden("Secret again: ")
	if err != nil {
		return nil, 0, "", fmt.Errorf("reading the secret from the terminal: %v", err)
	}
	defer zero(again)
	if !bytes.Equal(secret, again) {
		zero(secret)
		return nil, 0, "", errors.New("the two secrets typed differ; nothing was written")
	}
	return &secretBuffer{bytes.NewReader(secret), secret}, int64(len(secret)), what, nil
}

// decodeSecret reads a secret written as hex or base64 text (as combine
// -encode writes it) and returns its bytes.
func decodeSecret(in io.Reader, enc string) (io.ReadCloser, int64, error) {
	text, err := io.ReadAll(io.LimitReader(in, 4*maxTextSecret+1))
	defer zero(text)
	if err != nil {
		return nil, 0, fmt.Errorf("-decode %s: reading the input: %v", enc, unwrapPath(err))
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

// A destWriter writes a file of an outputSet, and names the destination,
// not the temporary file, in its errors.
type destWriter struct {
	f    io.Writer
	dest string
}

func (w *destWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &writeError{w.dest, unwrapPath(err)}
	}
	return n, err
}

// A writeError is a failure to write the file dest.
type writeError struct {
	dest string
	err  error
}

func (e *writeError) Error() string { return fmt.Sprintf("writing %s: %v", quote(e.dest), e.err) }
func (e *writeError) Unwrap() error { return e.err }
