package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gf256/shamir"
)

var cmdVerify = &command{
	name:  "verify",
	short: "check shares without recovering the secret",
	run:   runVerify,
	help: `usage: shamir verify [flags] [SHARE | FILE | FOLDER | GLOB | - ...]

Verify checks that shares are sound and belong together, without writing the
secret anywhere. It takes the same arguments as combine.

SSMS share files are checked whole: their headers, and the authentication of
all their data. Vault-format shares record neither the threshold nor any
checksum; they can only be checked against each other, which needs the
threshold (-t) and more shares than it: with T+r shares, up to r bad ones
are detected and up to r/2 are named.

Verify names each bad share by file name or line, and exits with status 0
when all the shares given are good, 1 when any is bad or nothing could be
checked, and 2 for a usage error.

Flags:
	-t, -threshold T     the threshold of Vault-format shares (required for them)
	-format FORMAT       the shares' format: auto (the default), ssms, base64, hex
	-q, -quiet           print only problems

Examples:

	shamir verify backup/
	shamir verify -t 3 unseal-keys.txt
`,
}

func runVerify(args []string) error {
	fs := newFlagSet("verify")
	var (
		threshold int
		quiet     bool
		format    = &choice{fmtAuto, []string{fmtAuto, fmtSSMS, encBase64, encHex}}
	)
	intFlag(fs, &threshold, "t", "threshold")
	boolFlag(fs, &quiet, "q", "quiet")
	valueFlag(fs, format, "format")
	set, err := parseShareArgs(fs, args, &threshold, format)
	if err != nil {
		return err
	}
	if set.isSSMS(format.val) {
		return verifySSMS(set, quiet)
	}
	if threshold == 0 {
		threshold = set.threshold
	}
	if threshold == 0 {
		return usagef("Vault-format shares do not record their threshold: give it with -t")
	}
	good, bad, err := usableTextShares("verify", set, format.val)
	if err != nil {
		return err
	}
	if len(good) <= threshold {
		reportProblems("verify", bad)
		return fmt.Errorf("%s: any %d shares agree, so there is nothing to check them against; give at least %d",
			countShares(len(good), "usable share"), threshold, threshold+1)
	}
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	found, err := verifyParts(parts, threshold)
	if errors.Is(err, shamir.ErrInconsistentShares) {
		reportProblems("verify", bad)
		return fmt.Errorf("the %d shares do not agree with each other, and which are bad cannot be told: "+
			"give more shares, or check that -t %d is the threshold they were made with", len(good), threshold)
	}
	if err != nil {
		reportProblems("verify", bad)
		return err
	}
	for _, b := range found {
		bad = append(bad, problem{good[b.Position].where, disagrees})
	}
	return verdict(len(good)-len(bad), bad, quiet)
}

// verdict reports the outcome of verify: success when nothing was bad.
func verdict(ok int, bad []problem, quiet bool) error {
	for _, p := range bad {
		fmt.Fprintf(os.Stderr, "shamir verify: BAD %s: %s\n", p.where, p.why)
	}
	if len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "shamir verify: %s bad, %s good; replace the bad ones\n",
			countShares(len(bad), "input is", "inputs are"), countShares(ok, "share is", "shares are"))
		return errSilent
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "shamir verify: all %s good\n", countShares(ok, "share is", "shares are"))
	}
	return nil
}

// verifySSMS checks SSMS shares by reading the secret out of them and
// throwing it away: the reader checks the headers, authenticates every chunk
// and checks every share's data against it.
func verifySSMS(set *shareSet, quiet bool) error {
	if len(set.files) == 0 {
		reportProblems("verify", set.bad)
		return errors.New("no usable shares")
	}
	readers, closeAll, err := openSSMS(set)
	if err != nil {
		return err
	}
	defer closeAll()
	cr, err := newCombineReader(readers)
	if err == nil {
		p := startProgress("verifying", set.secretSize(), quiet)
		_, err = io.Copy(io.Discard, p.reader(cr))
		p.stop()
	}
	if err != nil {
		return ssmsFailure("verify", set, err)
	}
	set.bad = append(set.bad, badSSMS(set, cr.BadShares())...)
	return verdict(len(set.files)-len(set.bad), set.bad, quiet)
}
