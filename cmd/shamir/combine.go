package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gf256/shamir"
)

var cmdCombine = &command{
	name:  "combine",
	short: "recover a secret from shares",
	run:   runCombine,
	help: `usage: shamir combine [flags] [SHARE | FILE | FOLDER | GLOB | - ...]

Combine recovers a secret from enough of its shares and writes it to stdout,
or to a file with -o.

The shares are SSMS share files (NAME.I-of-N.shamir, as split writes them) or
Vault-format shares: text, one share per line, in base64 (as vault operator
init prints unseal keys) or hex. Combine tells which by itself. Each argument
is a share file, a file of text shares (the whole output of vault operator
init will do, and so will its -format=json output, whose unseal_threshold
is then used as -t), a folder (its *.shamir files are used), a glob pattern, "-"
for stdin, or a Vault-format share itself. With no argument, the shares are
read from stdin; on a terminal they are typed without being shown, one per
line, and an empty line ends.

Shares that are damaged, truncated, duplicated or from another secret are
reported by file name or line and set aside; if enough good shares remain,
the secret is still recovered, with a warning. SSMS shares record their
threshold and are authenticated. Vault-format shares record neither: from
fewer shares than the threshold, or with a damaged one, Vault's combine gives
a wrong secret without error. Give the threshold with -t to have the shares
counted and, when there are more than the threshold, checked against each
other (up to (shares-threshold)/2 bad ones are then found and set aside).

A binary secret is not printed on a terminal: use -o, -encode, or -f.

Flags:
	-o, -out FILE        write the secret to FILE (mode 0600, written whole or
	                     not at all) instead of stdout; if FILE is a folder,
	                     into it, under the name the share files carry
	-t, -threshold T     the threshold of Vault-format shares, to check them
	-format FORMAT       the shares' format: auto (the default), ssms, base64, hex
	-encode ENCODING     write the secret as one line of hex or base64 text
	-f, -force           overwrite FILE; print a binary secret on a terminal
	-q, -quiet           no progress bar or summary (warnings still show)

Examples:

	shamir combine backup/secret.tar.1-of-5.shamir backup/secret.tar.4-of-5.shamir \
		backup/secret.tar.5-of-5.shamir -o secret.tar
	shamir combine backup/ -o secret.tar
	shamir combine -t 3 < unseal-keys.txt
	vault operator init | tee init.txt; shamir combine -t 3 -encode base64 init.txt

The exit status is 0 when the secret was recovered, 1 when it was not, and 2
for a usage error.
`,
}

func runCombine(args []string) error {
	fs := newFlagSet("combine")
	var (
		out          string
		threshold    int
		force, quiet bool
		format       = &choice{fmtAuto, []string{fmtAuto, fmtSSMS, encBase64, encHex}}
		encode       = &choice{"", []string{encHex, encBase64}}
	)
	stringFlag(fs, &out, "o", "out")
	intFlag(fs, &threshold, "t", "threshold")
	boolFlag(fs, &force, "f", "force")
	boolFlag(fs, &quiet, "q", "quiet")
	valueFlag(fs, format, "format")
	valueFlag(fs, encode, "encode")
	set, err := parseShareArgs(fs, args, &threshold, format)
	if err != nil {
		return err
	}
	if threshold == 0 {
		threshold = set.threshold
	}
	opts := outputOptions{path: out, encode: encode.val, force: force, quiet: quiet}
	if set.isSSMS(format.val) {
		return combineSSMS("combine", set, opts)
	}
	return combineText("combine", set, format.val, threshold, opts)
}

// outputOptions says where and how combine writes the secret.
type outputOptions struct {
	path   string
	encode string
	force  bool
	quiet  bool
}

// isSSMS decides whether the shares gathered are SSMS shares or Vault-format
// ones; the shares of the other kind are set aside as foreign.
func (set *shareSet) isSSMS(format string) bool {
	ssms := format == fmtSSMS || format == fmtAuto && len(set.files) > 0 && len(set.files) >= len(set.text)
	if ssms {
		for _, t := range set.text {
			set.bad = append(set.bad, problem{t.where, "a Vault-format share among SSMS shares"})
		}
		set.text = nil
	} else {
		for _, f := range set.files {
			set.bad = append(set.bad, problem{f.where, "an SSMS share among Vault-format shares"})
		}
		set.files = nil
	}
	return ssms
}

// usableTextShares decodes the Vault-format shares of set and sets aside the
// ones that cannot be used. It returns the good ones and reports the others.
func usableTextShares(cmd string, set *shareSet, format string) ([]textShare, []problem, error) {
	enc := ""
	if format == encBase64 || format == encHex {
		enc = format
	}
	good, bad, _ := decodeTextShares(set.text, enc)
	bad = append(set.bad, bad...)
	good, more, err := sortOutTextShares(good)
	bad = append(bad, more...)
	if err != nil {
		reportProblems(cmd, bad)
		return nil, nil, err
	}
	if len(good) == 0 {
		reportProblems(cmd, bad)
		return nil, nil, errors.New("no usable shares; give share files, a folder of them, or Vault-format shares (run \"shamir " + cmd + " -h\" for how)")
	}
	return good, bad, nil
}

// combineText recovers the secret from Vault-format shares.
func combineText(cmd string, set *shareSet, format string, threshold int, opts outputOptions) error {
	good, bad, err := usableTextShares(cmd, set, format)
	if err != nil {
		return err
	}
	if need := max(threshold, 2); len(good) < need {
		reportProblems(cmd, bad)
		hint := ""
		for _, s := range set.text {
			if strings.HasPrefix(s.where, "argument ") {
				hint = "\n\t(an argument that names no file is taken as a share itself)"
				break
			}
		}
		return fmt.Errorf("%s; at least %d are needed%s", countShares(len(good), "usable share"), need, hint)
	}
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	var secret []byte
	used := len(good)
	if threshold == 0 {
		secret, err = shamir.Combine(parts)
	} else {
		var set []shamir.BadShare
		secret, set, err = combineRobust(parts, threshold)
		used -= len(set)
		for _, b := range set {
			bad = append(bad, problem{good[b.Position].where, disagrees})
		}
	}
	reportProblems(cmd, bad)
	if err != nil {
		return explainCombineError(err, threshold, len(good))
	}
	defer zero(secret)
	w, err := newSecretWriter(opts.path, opts.encode, opts.force)
	if err != nil {
		return err
	}
	defer w.abort()
	if _, err := w.Write(secret); err != nil {
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	summarize(cmd, used, bad, opts)
	return nil
}

// disagrees is why a Vault-format share was set aside.
const disagrees = "does not agree with the other shares: damaged, or from another split"

// summarize tells on stderr what combine did, and warns if inputs were set
// aside.
func summarize(cmd string, used int, bad []problem, opts outputOptions) {
	if len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "shamir %s: warning: recovered the secret from %s, but %s set aside (see above): replace %s\n",
			cmd, countShares(used, "share"), countShares(len(bad), "input was", "inputs were"), pick(len(bad) == 1, "it", "them"))
		return
	}
	if !opts.quiet && opts.path != "" && opts.path != "-" {
		fmt.Fprintf(os.Stderr, "shamir %s: recovered the secret from %s into %s\n", cmd, countShares(used, "share"), opts.path)
	}
}

// explainCombineError turns the library's errors into advice.
func explainCombineError(err error, threshold, n int) error {
	switch {
	case errors.Is(err, shamir.ErrInconsistentShares):
		return fmt.Errorf("the %d shares do not agree with each other, and which are bad cannot be told: "+
			"add more shares, or check that -t %d is the threshold they were made with", n, threshold)
	case n < threshold:
		return fmt.Errorf("%s, fewer than the threshold %d", countShares(n, "usable share"), threshold)
	}
	return err
}

// countShares spells out a count: "1 share", "3 shares". With two nouns,
// the second is the plural.
func countShares(n int, noun string, plural ...string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	if len(plural) > 0 {
		return fmt.Sprintf("%d %s", n, plural[0])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
