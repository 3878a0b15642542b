package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gf256/shamir"
)

var cmdVerify = &command{
	name:  "verify",
	short: "check shares without recovering the secret",
	run:   runVerify,
	help: `usage: shamir verify [flags] [PATH ... | -]

Verify checks that shares are sound and belong together, without writing the
secret anywhere. It takes the same arguments as combine: paths of share files
and of folders of them, "-" for stdin, shares on stdin when no path is
given, and -share.

SSMS share files are checked whole: their headers, and the authentication of
all their data. Shares of more than one split are an error that lists the
splits, unless -split names the one to check. A share of an older
generation of the split (from before a refresh) is named, with the newest
generation, and the advice to destroy it; a file that claims the split's
ID but was not made with its key is named as forged or of another split,
not to be trusted. SSMS shares that disagree beyond what the others can
outvote are refused as combine refuses them, naming the files on each
side. Vault-format shares record neither the threshold nor any
checksum; they can only be checked against each other, which needs the
threshold (-t, or the JSON of vault operator init) and more shares than it:
with T+r shares, up to r bad ones are detected and up to r/2 are named.
Shares of ssss (ssss-split's, "N-HEX" a line) are checked the same way,
with -t, but a disagreement names no share: the format cannot tell which.

Verify names each bad share by file and line, and exits with status 0 when
all the shares given are good, 1 when any is bad or nothing could be
checked, and 2 for a usage error. Files that hold no share are ignored, with
a note, and not counted.

With -i, verify decrypts the shares encrypted to those identities, as
combine does. With -manifest FILE, it checks files against the manifest
that split -r wrote instead, without any key: the manifest is checked whole
first (at most 1 MiB), then each file given (default: the manifest's
folder) gets one verdict, by its bytes or by the share it holds: the file
handed to its holder, or the share in it (decrypted, or read from a picture
of its paper copy's code or from its text); a file or share of another
holder under this one's name (swapped); a holder's name, or share number,
with other bytes (altered); or a share of no holder of the split
(foreign). A holder's encrypted file that is not the one handed out (one
its holder re-encrypted with "shamir reprotect") is decrypted, with the
identities of -i or its passphrase (Enter skips it), and judged by the
share inside; one that none opens is told as re-protected (or replaced),
to be checked by its holder (shamir attest), and not counted as bad,
unless its age header is the one handed out: then it was altered.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT stop verify, which writes no
file; a signal that was ignored when verify started stays ignored.

Flags:
	-t, -threshold T     the threshold of Vault-format shares and of ssss
	                     shares (required for them, unless their JSON
	                     gives it)
` + shareFlagsHelp + `	-split ID[/GEN]      check the SSMS split with this ID (its first
	                     digits will do), when the shares are of several;
	                     /GEN names its generation (0, one more at each
	                     refresh) when the shares hold several
` + identityFlagHelp + `	-manifest FILE       check the files against the manifest FILE
	-q, -quiet           print only problems

Examples:

	shamir verify backup
	shamir verify -manifest shares/manifest.json returned/
	shamir verify -t 3 unseal-keys.txt
`,
}

func runVerify(args []string) error {
	fs := newFlagSet("verify")
	var rf readFlags
	var manifestPath string
	rf.register(fs)
	stringFlag(fs, &manifestPath, "manifest")
	args, err := rf.parse(fs, args)
	if err != nil {
		return err
	}
	if manifestPath != "" {
		ids, err := readIdentities(rf.identities)
		if err != nil {
			return err
		}
		return verifyManifest(manifestPath, args, rf.quiet, ids)
	}
	set, err := rf.gatherArgs(args)
	if err != nil {
		return err
	}
	defer set.close()
	ssms, err := rf.format(set, "verify")
	if err != nil {
		return err
	}
	switch {
	case ssms:
		return verifySSMS(set, rf.quiet)
	case len(set.ssss) > 0:
		return verifySSSS(set, rf.threshold, rf.quiet)
	}
	t := newThreshold(rf.threshold, set)
	if t.t == 0 {
		return usagef("Vault-format shares do not record their threshold: give it with -t")
	}
	good, bad, err := usableTextShares(set, rf.decode.val)
	if err != nil {
		return err
	}
	if len(good) <= t.t {
		reportBad(os.Stderr, bad)
		return withHints(fmt.Errorf("%s (%s): any %d shares agree, so there is nothing to check them against",
			count(len(good), "good share"), t, t.t), fmt.Sprintf("give at least %d shares", t.t+1))
	}
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	found, err := shamir.Verify(parts, t.t)
	if err != nil {
		reportBad(os.Stderr, bad)
		return explainCombineError(err, t, len(good), len(bad))
	}
	for _, b := range found {
		bad = append(bad, problem{good[b.Position].where, disagrees})
	}
	return verdict(len(good)-len(found), bad, rf.quiet)
}

// verdict reports the outcome of verify: success when nothing was bad.
func verdict(good int, bad []problem, quiet bool) error {
	reportBad(os.Stderr, bad)
	if len(bad) > 0 {
		sayf(os.Stderr, "%s bad, %s good; replace the bad %s",
			count(len(bad), "share is", "shares are"), count(good, "share is", "shares are"), pick(len(bad) == 1, "one", "ones"))
		return errSilent
	}
	if !quiet {
		if good == 1 {
			sayf(os.Stderr, "the share is good")
		} else {
			sayf(os.Stderr, "all %d shares are good", good)
		}
	}
	return nil
}

// verifySSMS checks SSMS shares by reading the secret out of them and
// throwing it away: the reader checks every header's signature and every
// record's tag, authenticates every chunk and checks every share's data
// against it.
func verifySSMS(set *shareSet, quiet bool) error {
	if len(set.ssms) == 0 {
		reportBad(os.Stderr, set.notSSMS)
		return errors.New("no SSMS share among the inputs can be read")
	}
	cr, err := set.combineReader()
	if err == nil {
		// A verifier names every share that was changed, including one
		// whose signature or record tags alone were: the secret would not
		// need them, so reading it alone would not.
		cr.CheckAll()
		p := startProgress("verifying", set.secretSize(), quiet)
		_, err = io.Copy(io.Discard, p.reader(cr))
		p.stop()
	}
	if err != nil {
		return ssmsFailure(set, err)
	}
	found := cr.BadShares()
	bad := append(slices.Clone(set.notSSMS), badSSMS(set, set.setAside(found, quiet))...)
	return verdict(len(set.ssms)-len(found), bad, quiet)
}
