package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/gf256/shamir"
)

var cmdCombine = &command{
	name:  "combine",
	short: "recover a secret from shares",
	run:   runCombine,
	help: `usage: shamir combine [flags] [PATH ... | -]

Combine recovers a secret from enough of its shares and writes it to stdout,
or to a file with -o.

Each PATH is a share file or a folder of share files; "-" is stdin. With no
PATH and no -share, the shares are read from stdin; on a terminal they are
typed without being shown, one per line, and an empty line ends. A PATH that
does not exist is an error. Shares themselves are never arguments, where
every user of the machine could read them: they come from stdin, or from
-share.

The shares are SSMS share files (NAME.I-of-N.shamir, as split writes them) or
Vault-format shares: text, one share per line, in base64 (as vault operator
init prints unseal keys) or hex. The whole output of vault operator init
will do, and so will its -format=json output, whose unseal_threshold is then
the threshold. Which format the shares are is told from the inputs that hold
shares; inputs of both formats are an error that lists which is which. A
file that holds no share (a README beside the shares, say) is ignored, with
a note, and never counted; a text has a say in the format only when every
line of it could be a share, and one is long enough (5 bytes) to be told
from a word: beside SSMS shares, any other text is a note. -decode says the
shares are Vault-format text in that encoding, and nothing is told.

Shares of ssss (ssss-split, "N-HEX" or "TOKEN-N-HEX" a line) are combined
as ssss-combine does (its diffusion layer undone, as ssss-split's default
applies it to secrets of 8 bytes or more: shares made with ssss-split -D
give a wrong secret); they do not record their threshold, so -t is
required, and shares beyond it are checked against the others. Other
forms are named rather than misread: SLIP-39 and other mnemonics, unseal
keys that vault operator init -pgp-keys encrypted, OpenPGP messages.

Shares that are damaged, truncated, duplicated or from another secret are
named, by file and line, and set aside; if enough good shares remain, the
secret is still recovered, with a warning. SSMS shares of more than one
split (an old split beside a new one, say) recover nothing: combine lists
the splits, with their IDs, thresholds and shares, and -split names the one
meant; the other splits' shares are then named and set aside. Each
refresh makes a new generation of a split, whose shares do not combine with
the old ones: a share from before a refresh among refreshed ones is named,
with the advice to destroy it, the generations listed, and -split ID/GEN
recovers the one meant. A file that claims the split's ID but was not made
with its key (forged, or of another split) is named and never used. SSMS shares
altered on purpose, checksums and all, are found by error correction while
at most (shares-threshold)/2 are; beyond that nothing is recovered, and
combine names the files that agree with one another, those that disagree
with them, and the files that hold different versions of one share: which
side is the dealer's the files cannot tell. Many files bad for one reason
are listed under it, one a line. SSMS shares record their
threshold and are authenticated. Vault-format shares record neither: from
fewer shares than the threshold, or with a damaged one, Vault's combine gives
a wrong secret without error. Give the threshold with -t to have the shares
counted and, when there are more than the threshold, checked against each
other (up to (shares-threshold)/2 bad ones are then found and set aside).

Shares encrypted with age (as split -r writes them, or as a holder
re-encrypted one with age -r) are decrypted with the identities of -i; the
ones none of them opens are another holder's: named, and not counted. A
token's plugin runs within a budget: its output read at most 4 KiB a line
and 1 MiB in all, its messages shown with control characters escaped, its
process group killed when it is done and when combine is stopped; one that
fails (a wrong PIN, or it floods, crashes or hangs) is not run again, and
its files are named as not opened while combine goes on with the others.
Encrypted and plain shares mix freely. A PNG or JPEG picture of a paper
share's QR code is read, and so is the text printed under it, in a file or
typed at the prompt: a mistyped character is found and its group named, at
the prompt as soon as its line is entered, and the line is asked for again.
A picture is read within a budget of work counted, not timed: up to 100
megapixels (twice a 50-megapixel photo) and 512 MiB decoded (1 to 8 bytes a
pixel by its colours), checked from its header before any pixel is decoded;
a JPEG of at most 64 scans (a progressive one has some 10) and 1,024 pixels
a byte of its file, counted before it is decoded; then a search for the
code at 2000 pixels a side at most, of at most 72 passes and 5,000 pixels
looked at a byte of the file, each pass stopped at 400 candidate corners of
codes. A picture so takes at most about 750 MB of memory and a few seconds
of one core. A picture over the budget is noted and skipped, as a file
without a share.

A secret that is not printable text is never written to a terminal, whatever
names it (stdout, -o -, -o /dev/tty, /dev/stdout, /proc/self/fd/1): combine
refuses, and -encode hex or base64 prints it as text.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop combine after it
removes the file it had begun to write; a signal that was ignored when
combine started (as under nohup) stays ignored.

Flags:
	-o, -output FILE     write the secret to FILE (mode 0600, written whole
	                     or not at all) instead of stdout; if FILE is a
	                     folder, into it, under the name the share files
	                     carry; a character device or a named pipe is
	                     written into, as the shell does, and never
	                     replaced; never one of the share files read; "-"
	                     is stdout
	-t, -threshold T     the threshold of Vault-format shares, to check them,
	                     and of ssss shares, which need it (SSMS shares
	                     record theirs); typed shares are then asked for
	                     with the progress shown, up to T
` + shareFlagsHelp + `	-split ID[/GEN]      recover the SSMS split with this ID (its first
	                     digits will do), when the shares are of several;
	                     /GEN names its generation (0, one more at each
	                     refresh) when the shares hold several
` + identityFlagHelp + `	-encode ENCODING     write the secret as one line of base64 or hex text
	-f, -force           overwrite FILE
	-q, -quiet           no progress bar, notes or summary (warnings and
	                     errors still show)

Examples:

	shamir combine backup/secret.tar.1-of-5.shamir backup/secret.tar.4-of-5.shamir \
		backup/secret.tar.5-of-5.shamir -o secret.tar
	shamir combine backup -o secret.tar
	shamir combine -split 3f2a9c backup -o secret.tar
	shamir combine -t 3 < unseal-keys.txt
	shamir combine -i alice.key shares/alice.shamir.age bob.jpg carol.txt -o key.bin
	vault operator init | tee init.txt; shamir combine -t 3 -encode base64 init.txt
	shamir combine -t 3 ssss-shares.txt        # shares of ssss-split -t 3

The exit status is 0 when the secret was recovered, 1 when it was not, and 2
for a usage error.
`,
}

func runCombine(args []string) error {
	fs := newFlagSet("combine")
	var (
		rf     readFlags
		out    string
		force  bool
		encode = &choice{"", []string{encBase64, encHex}}
	)
	rf.register(fs)
	stringFlag(fs, &out, "o", "output", "out")
	boolFlag(fs, &force, "f", "force")
	valueFlag(fs, encode, "encode")
	set, err := rf.gather(fs, args)
	if err != nil {
		return err
	}
	defer set.close()
	opts := outputOptions{path: out, encode: encode.val, force: force, quiet: rf.quiet}
	ssms, err := rf.format(set, "combine")
	if err != nil {
		return err
	}
	switch {
	case ssms:
		return combineSSMS(set, opts)
	case len(set.ssss) > 0:
		return combineSSSS(set, rf.threshold, opts)
	}
	return combineText(set, rf.decode.val, newThreshold(rf.threshold, set), opts)
}

// outputOptions says where and how combine writes the secret.
type outputOptions struct {
	path   string
	encode string
	force  bool
	quiet  bool
}

// A threshold is the threshold of Vault-format shares, and where it came
// from: -t, or the JSON of vault operator init.
type threshold struct {
	t    int
	from string // "" for -t
}

func newThreshold(flag int, set *shareSet) threshold {
	if flag != 0 {
		return threshold{t: flag}
	}
	return threshold{t: set.threshold, from: set.thresholdFrom}
}

// String says what the threshold is and where it came from, for messages.
func (t threshold) String() string {
	if t.from == "" {
		return fmt.Sprintf("-t %d", t.t)
	}
	return fmt.Sprintf("threshold %d, from %s", t.t, t.from)
}

// usableTextShares decodes the Vault-format shares of set and sets aside
// those that cannot be used. It returns the good ones and the bad ones.
func usableTextShares(set *shareSet, enc string) (good []textShare, bad []problem, err error) {
	good, bad = decodeTextShares(set.text, enc)
	good, more, err := sortOutTextShares(good)
	bad = append(bad, more...)
	if err != nil {
		reportBad(os.Stderr, bad)
		return nil, nil, err
	}
	return good, bad, nil
}

// combineText recovers the secret from Vault-format shares.
func combineText(set *shareSet, enc string, t threshold, opts outputOptions) error {
	good, bad, err := usableTextShares(set, enc)
	if err != nil {
		return err
	}
	if need := max(t.t, 2); len(good) < need {
		reportBad(os.Stderr, bad)
		msg := fmt.Sprintf("not enough good shares to recover the secret: %s, %d needed", count(len(good), "good share"), need)
		if t.t != 0 {
			msg += " (" + t.String() + ")"
		}
		return withHints(errors.New(msg), "add shares"+pick(len(bad) > 0, ", or replace the bad ones", ""))
	}
	if len(good) == t.t && !opts.quiet {
		sayf(os.Stderr, "note: %s, as many as the threshold (%s): there is no spare share to check them against, and a damaged one would make the secret wrong",
			count(len(good), "share"), t)
	}
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	var secret []byte
	used := len(good)
	if t.t == 0 {
		secret, err = shamir.Combine(parts)
	} else {
		var found []shamir.BadShare
		secret, found, err = shamir.CombineRobust(parts, t.t)
		used -= len(found)
		for _, b := range found {
			bad = append(bad, problem{good[b.Position].where, disagrees})
		}
	}
	reportBad(os.Stderr, bad)
	if err != nil {
		return explainCombineError(err, t, len(good), len(bad))
	}
	defer zero(secret)
	if err := writeSecret(secret, set, opts); err != nil {
		return err
	}
	summarize(used, bad, opts)
	return nil
}

// disagrees is why a Vault-format share was set aside.
const disagrees = "does not agree with the other shares: damaged, or from another split"

// summarize tells on stderr what combine did, and warns if shares were set
// aside.
// writeSecret writes the recovered secret where opts says, whole or not at
// all: the output of combine for every kind of share.
func writeSecret(secret []byte, set *shareSet, opts outputOptions) error {
	w, err := newSecretWriter(opts.path, opts.encode, opts.force, set.seen)
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
	return nil
}

func summarize(used int, bad []problem, opts outputOptions) {
	if len(bad) > 0 {
		warnf(os.Stderr, "recovered the secret from %s, but %s bad: replace %s",
			count(used, "good share"), count(len(bad), "share is", "shares are"), pick(len(bad) == 1, "it", "them"))
		return
	}
	if !opts.quiet && opts.path != "" && opts.path != "-" {
		sayf(os.Stderr, "recovered the secret from %s into %s", count(used, "share"), quote(opts.path))
	}
}

// explainCombineError turns the library's errors about n shares into
// advice; listed is how many other shares were named as bad before.
func explainCombineError(err error, t threshold, n, listed int) error {
	if errors.Is(err, shamir.ErrInconsistentShares) {
		// The shares named bad are not among those that disagree:
		// "which are bad cannot be told" is said of the others.
		subject := "the " + count(n, "share")
		if listed > 0 {
			subject = "the other " + count(n, "share")
		}
		reason := fmt.Sprintf("more than %d of them are bad", (n-t.t)/2)
		if n-t.t < 2 {
			reason = pick(n == t.t+1, "one spare share shows that a share is bad, not which", "there is no spare share")
		}
		return withHints(fmt.Errorf("%s disagree, and which are bad cannot be told: %s, or %s is not the threshold they were made with", subject, reason, t),
			"add shares, or check that "+t.String()+" is the threshold they were made with")
	}
	return err
}
