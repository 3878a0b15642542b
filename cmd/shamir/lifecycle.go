package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// This file holds the commands for the life of a split after split:
// recreate (a lost share made again), extend (shares for new holders),
// refresh (every share re-randomized) and reshare (a new split of the same
// secret). They read shares as combine does (holders' age files and paper
// included) and write them as split does, for people too
// (lifecycle_people.go), and each is a call of the library's function of
// the same name.
//
// Each command has one function per share format: the Vault-format ones
// here, the SSMS ones in lifecycle_ssms.go. The flags and the reading of
// the inputs are shared; -x and -inuse are for Vault-format shares, -index
// and -name for SSMS share files.

// A lifecycleCmd is one of the four commands.
type lifecycleCmd struct {
	name string // "recreate", …
	// flags registers the command's own flags, and check checks them
	// once parsed (usage errors come before any input is read).
	flags func(fs *flag.FlagSet, lc *lifecycle)
	check func(lc *lifecycle) error
	// checkPlain, if not nil, checks the flags against the Vault-format
	// shares read, before anything is said about them.
	checkPlain func(lc *lifecycle, good []textShare) error
	// plain derives the new Vault-format shares from the good ones, after
	// the shared checks; ssms does the whole work for SSMS shares.
	plain func(lc *lifecycle, good []textShare) ([][]byte, error)
	ssms  func(lc *lifecycle, set *shareSet) error
	// unchecked says what a damaged share does to the result, for the
	// note printed when exactly threshold shares are given.
	unchecked string
	// summary says what was written, for the line printed on success.
	summary func(lc *lifecycle, shares [][]byte, enc, dest string) []string
}

// lifecycle holds the flags of a run of one of the commands, and what it
// learned from the inputs.
type lifecycle struct {
	cmd    *lifecycleCmd
	rf     readFlags
	out    string
	force  bool
	encode *choice
	xs     xList // -x: where the new shares go (recreate, extend)
	inUse  xList // -inuse: x coordinates of shares not given (extend)
	count  int   // -k: how many new shares (extend)
	parts  int   // -n: the split's shares (refresh, SSMS extend), the new split's (reshare)
	newT   int   // -newt: the new split's threshold (reshare)

	indexes indexList // -index: the SSMS shares to make, numbered from 1 (recreate, extend)
	name    string    // -name: the NAME of new SSMS share files (recreate, extend, reshare)

	t threshold // the threshold of the shares given

	// tx is the run's transaction (transaction.go): its locks, the files
	// it read, and every file it writes, committed once.
	tx *change

	// -manifest (lifecycle_manifest.go): its path, the manifest read, and
	// the new shares written, for the manifest that replaces it.
	manifestPath string
	prev         *manifest.Manifest
	written      []string // SSMS share files
	newShares    [][]byte // Vault-format shares
	newEnc       string

	// For people (lifecycle_people.go): the holders of -r and -R,
	// -paper, refresh's -retire, and the shares written for people.
	recipients, recipientFiles list
	holders                    []holder
	paper                      string
	retire                     list
	targets                    []*target
	newManifest                string // the manifest to write for holders, when none was given
}

// An xList is a flag.Value holding x coordinates, given as numbers
// separated by commas, or by repeating the flag: "-x 5,96" or "-x 5 -x 96".
// 0 is kept, to be refused with a message of its own.
type xList []byte

func (l *xList) String() string { return joinXs(*l, ",") }

func (l *xList) Set(s string) error {
	ns, ok := numberList(s, 0)
	if !ok {
		return errors.New("x coordinates are numbers from 1 to 255")
	}
	for _, n := range ns {
		*l = append(*l, byte(n))
	}
	return nil
}

// numberList parses numbers from min to 255 separated by commas, as -x
// and -index take them.
func numberList(s string, min int) ([]int, bool) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < min || n > 255 {
			return nil, false
		}
		ns = append(ns, n)
	}
	return ns, true
}

// joinXs spells out x coordinates for messages: "5", "5, 96", with sep
// between them.
func joinXs(xs []byte, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(int(x))
	}
	return strings.Join(s, sep)
}

// listXs spells out x coordinates in a sentence: "x 5", "x 5 and 96",
// "x 5, 96 and 54".
func listXs(xs []byte) string {
	if len(xs) == 1 {
		return "x " + strconv.Itoa(int(xs[0]))
	}
	return "x " + joinXs(xs[:len(xs)-1], ", ") + " and " + strconv.Itoa(int(xs[len(xs)-1]))
}

// shareX returns the x coordinate of a Vault-format share: its last byte.
func shareX(s []byte) byte { return s[len(s)-1] }

// checkXs refuses, as usage errors, x coordinates that no share can have
// (0) and, in -x, one given twice.
func checkXs(flag string, xs []byte, dups bool) error {
	var seen [256]bool
	for _, x := range xs {
		switch {
		case x == 0:
			return &usageError{msg: fmt.Sprintf("%s 0: no share has x coordinate 0", flag),
				hints: []string{"the value of a split at x coordinate 0 is the secret itself; shares are at 1 to 255"}}
		case seen[x] && dups:
			return usagef("%s: x coordinate %d given twice", flag, x)
		}
		seen[x] = true
	}
	return nil
}

// runLifecycle runs the command c with the command line args.
func runLifecycle(c *lifecycleCmd, args []string) error {
	fs := newFlagSet(c.name)
	lc := &lifecycle{cmd: c, encode: &choice{"", []string{encBase64, encHex}}}
	lc.rf.register(fs)
	stringFlag(fs, &lc.out, "o", "output", "out")
	boolFlag(fs, &lc.force, "f", "force")
	valueFlag(fs, lc.encode, "encode")
	stringFlag(fs, &lc.manifestPath, "manifest")
	lc.peopleFlags(fs)
	c.flags(fs, lc)
	args, err := lc.rf.parse(fs, args)
	if err != nil {
		return err
	}
	if err := c.check(lc); err != nil {
		return err
	}
	// One writer at a time: the folders read and written are locked
	// before anything is read.
	lc.tx = newChange(c.name, lc.force)
	defer lc.tx.abort()
	if err := lc.tx.lock(append(slices.Clone(args), lc.out, lc.manifestPath, lc.paper)...); err != nil {
		return err
	}
	if err := lc.readPeople(); err != nil {
		return err
	}
	if err := lc.readLifecycleManifest(); err != nil {
		return err
	}
	lc.tx.readAt(lc.manifestPath)
	// -o is the file for Vault-format shares and the folder for SSMS share
	// files; which, the inputs tell. Unless it is a folder, it is checked
	// as a file before they are read.
	var out *shareOutput
	if fi, err := os.Stat(lc.out); err != nil || !fi.IsDir() {
		if out, err = checkShareOutput(lc.out, lc.force); err != nil {
			return err
		}
	}
	set, err := lc.rf.gatherArgs(args)
	if err != nil {
		return err
	}
	defer set.close()
	if err := lc.tx.readShares(set); err != nil {
		return err
	}
	ssms, err := lc.rf.format(set, c.name)
	if err != nil {
		return err
	}
	if ssms {
		if err := c.ssms(lc, set); err != nil {
			return err
		}
		if err := lc.updateManifest(); err != nil {
			return err
		}
		return lc.tx.commit()
	}
	if err := checkPlainFlags(lc); err != nil {
		return err
	}
	if out == nil && !lc.forPeople() {
		return fmt.Errorf("%s is a folder; name a file to write", quote(lc.out))
	}
	if err := lc.plain(set, out); err != nil {
		return err
	}
	if err := lc.updateManifest(); err != nil {
		return err
	}
	return lc.tx.commit()
}

// plain runs the command on Vault-format shares: it decodes and checks
// them, derives the new shares and writes them.
func (lc *lifecycle) plain(set *shareSet, out *shareOutput) error {
	c := lc.cmd
	lc.t = newThreshold(lc.rf.threshold, set)
	if lc.t.t == 0 && lc.prev != nil {
		lc.t = threshold{t: lc.prev.Threshold, from: quote(lc.manifestPath)}
	}
	if lc.t.t == 0 {
		return usagef("Vault-format shares do not record their threshold: give it with -t")
	}
	good, bad, err := usableTextShares(set, lc.rf.decode.val)
	if err != nil {
		return err
	}
	// Nothing is derived from inputs with a bad share among them: the
	// library would not be given that share, and refresh would leave it
	// out, retired without a word.
	if len(bad) > 0 {
		reportBad(os.Stderr, bad)
		return withHints(fmt.Errorf("%s among the inputs; nothing was written", count(len(bad), "bad share", "bad shares")),
			"leave "+pick(len(bad) == 1, "it", "them")+" out, or replace "+pick(len(bad) == 1, "it", "them")+", and run "+c.name+" again")
	}
	if len(good) < lc.t.t {
		return withHints(fmt.Errorf("not enough shares to %s: %s, %d needed (%s)", c.name, count(len(good), "share"), lc.t.t, lc.t),
			"add shares")
	}
	if c.checkPlain != nil {
		if err := c.checkPlain(lc, good); err != nil {
			return err
		}
	}
	if len(good) == lc.t.t && !lc.rf.quiet {
		sayf(os.Stderr, "note: %s, as many as the threshold (%s): there is no spare share to check them against, and a damaged one would make %s",
			count(len(good), "share"), lc.t, c.unchecked)
	}
	shares, err := c.plain(lc, good)
	if err != nil {
		return lifecycleError(c.name, err, good, lc.t)
	}
	enc := lc.encode.val
	if enc == "" {
		enc = lc.rf.decode.val
	}
	if enc == "" {
		enc = encodingOf(good)
	}
	if lc.forPeople() {
		if lc.cmd == refreshCmd {
			if shares, err = lc.refreshAbsentVault(shares); err != nil {
				return err
			}
		}
		lc.newEnc = enc
		return lc.vaultForPeople(shares, enc, out)
	}
	if err := out.write(lc.tx.files, shares, enc); err != nil {
		return err
	}
	lc.newShares, lc.newEnc = shares, enc
	if !lc.rf.quiet {
		for _, line := range c.summary(lc, shares, enc, out.dest) {
			lc.sayAfter("%s", line)
		}
	}
	return nil
}

// encodingOf tells the encoding the shares were read in, for the new shares
// to be written in the same: hex when every one is hex, as decodeTextShares
// decides it.
func encodingOf(good []textShare) string {
	for _, s := range good {
		if !isHex(s.token) {
			return encBase64
		}
	}
	return encHex
}

// lifecycleError turns the library's refusal of shares that disagree into
// the messages of combine: each bad share named by file and line, then why
// nothing was written.
func lifecycleError(cmd string, err error, good []textShare, t threshold) error {
	var ce *shamir.CombineError
	if errors.As(err, &ce) && len(ce.Bad) > 0 {
		var bad []problem
		for _, b := range ce.Bad {
			bad = append(bad, problem{good[b.Position].where, disagrees})
		}
		reportBad(os.Stderr, bad)
		n := len(bad)
		return withHints(fmt.Errorf("%s bad, %s good (%s): %s derives nothing from shares that disagree; nothing was written",
			count(n, "share is", "shares are"), count(len(good)-n, "share is", "shares are"), t, cmd),
			"leave the bad "+pick(n == 1, "share", "shares")+" out, or replace "+pick(n == 1, "it", "them")+
				" with what shamir recreate makes from the good ones, and run "+cmd+" again")
	}
	return explainCombineError(err, t, len(good), 0)
}

// A shareOutput is where the new shares go, as split -encode writes them:
// the file -o (mode 0600, whole or not at all, not over an existing file
// without -f), or stdout when -o is "" or "-".
type shareOutput struct {
	path  string // "" for stdout
	force bool
	dest  string // for messages
}

// checkShareOutput refuses an output file that exists (without -f) or is
// a folder. It is called before any input is read, so that no one types
// shares, or waits, for a run that would fail; the file itself is created
// only once the shares are made, so that a temporary file never shows up
// among the inputs (-o in a folder of shares given). write checks again.
func checkShareOutput(out string, force bool) (*shareOutput, error) {
	if out == "" || out == "-" {
		return &shareOutput{dest: "stdout"}, nil
	}
	if err := outfile.CheckDest(out, force); err != nil {
		return nil, err
	}
	return &shareOutput{path: out, force: force, dest: quote(out)}, nil
}

// write writes the shares one per line, in enc: into the file of set,
// which the caller commits, or to stdout.
func (o *shareOutput) write(set *outfile.Set, shares [][]byte, enc string) error {
	if o.path != "" {
		f, err := set.Create(o.path)
		if err != nil {
			return err
		}
		return writeLines(&destWriter{f, o.path}, shares, enc)
	}
	if err := writeLines(os.Stdout, shares, enc); err != nil {
		return fmt.Errorf("writing to stdout: %v", unwrapPath(err))
	}
	return nil
}

// writeLines writes shares to w one per line, in enc.
func writeLines(w io.Writer, shares [][]byte, enc string) error {
	bw := bufio.NewWriter(w)
	for _, s := range shares {
		fmt.Fprintln(bw, encodeTextShare(s, enc))
	}
	return bw.Flush()
}

// partsOf returns the bytes of the shares, for the library.
func partsOf(good []textShare) [][]byte {
	parts := make([][]byte, len(good))
	for i, s := range good {
		parts[i] = s.data
	}
	return parts
}

// checkFree refuses new x coordinates that a share given already has,
// naming that share: the library would refuse them too, without saying
// which.
func checkFree(xs []byte, good []textShare) error {
	for _, x := range xs {
		for _, s := range good {
			if shareX(s.data) == x {
				return withHints(fmt.Errorf("-x %d: the share %s is at x coordinate %d", x, s.where, x),
					"new shares go at x coordinates that none of the shares given has")
			}
		}
	}
	return nil
}

// xsOf returns the x coordinates of shares.
func xsOf(shares [][]byte) []byte {
	xs := make([]byte, len(shares))
	for i, s := range shares {
		xs[i] = shareX(s)
	}
	return xs
}

// Each command's definition follows: its help, its flags and the function
// per format.

// lifecycleFlags is the help of the flags the four commands share, written
// once so that each prints the same.
const lifecycleFlags = `	-o, -output FILE     write the shares to FILE instead of stdout; "-" is
	                     stdout; SSMS share files: the folder for the new
	                     files (default: the current folder; refresh
	                     rewrites the files in place)
	-encode ENCODING     write the shares in base64 or hex (default: as read)
	-decode ENCODING     the shares read are base64 or hex text
	-share SHARE         a share itself (may be repeated); other users can
	                     read it in ps: prefer stdin
	-f, -force           overwrite FILE
	-q, -quiet           no notes or summary
` + peopleFlagsHelp + manifestFlagHelp

var cmdRecreate = &command{
	name:  "recreate",
	short: "make lost shares again, from threshold others",
	run:   func(args []string) error { return runLifecycle(recreateCmd, args) },
	help: `usage: shamir recreate -t T -x X[,X...] [flags] [PATH ... | -]
       shamir recreate -index I[,I...] [-o FOLDER] [flags] PATH ...

Recreate makes Vault-format shares of a split again, byte for byte, from T
or more of its other shares: the share at x coordinate X is the one that
split made there. The secret is never computed: each new share is a sum of
T shares weighted for X. At an x coordinate that no share of the split has,
the share is a new one, which combines with the others as theirs do (shamir
extend picks such x coordinates).

A Vault-format share's x coordinate is its last byte, 1 to 255: a lost
share can only be made again at its own, so keep a record of them (they are
not secret). Recreate, extend, refresh and reshare name the x coordinates
of the shares they write.

The shares are read as combine reads them: each PATH is a file or a folder
of shares, "-" is stdin; with no PATH and no -share, stdin (typed without
being shown on a terminal). Shares themselves are never arguments. The new
shares are written as split -encode writes them, one per line, in the order
of -x, in the encoding of the shares read: to stdout, or to the file -o
(mode 0600, written whole or not at all).

Consistency first: given more than T shares, recreate checks them against
each other, and refuses shares that disagree, naming each by file and line;
nothing is derived from them. With exactly T shares there is nothing to
check them against, and a damaged share would make every new share wrong:
recreate says so.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop recreate after it
removes the file it had begun to write.

SSMS share files (split's default) are numbered as their names are,
NAME.I-of-N.shamir, from 1: -index I makes share I again, byte for byte,
from any T others (the headers say T), as a file of that name in the
folder -o (default: the current folder; NAME and N are those of the files
read, or -name). At a number no share of the split has, the share is a new
one (extend picks such numbers). The shares are read as combine reads them,
with its checks and error correction, and every chunk is authenticated
before the new shares' part of it is written: that decrypts it, in memory,
a chunk at a time (never written anywhere). Shares found bad on the way
are named; the new shares are good all the same. Any size is fine: the
shares are streamed.

` + forPeopleHelp + `
Flags:
	-t, -threshold T     the threshold of the shares (required, unless the
	                     JSON of vault operator init gives it; SSMS share
	                     files record it)
	-x X[,X...]          the x coordinates of the shares to make (1 to 255;
	                     may be repeated)
	-index I[,I...]      SSMS share files: the numbers of the shares to make,
	                     the I of NAME.I-of-N.shamir (1 to 255; may be
	                     repeated)
	-name NAME           SSMS share files: name the new ones
	                     NAME.I-of-N.shamir (default: as the files read)
` + lifecycleFlags + `
Examples:

	shamir recreate -t 3 -x 5 other-keys.txt > key-at-5.txt
	shamir recreate -t 3 -x 5,96 -o lost.txt keys.txt
	shamir recreate -index 3 -o backup backup
	shamir recreate -index 4 -manifest shares/manifest.json -i alice.key -o new shares

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

var recreateCmd = &lifecycleCmd{
	name: "recreate",
	flags: func(fs *flag.FlagSet, lc *lifecycle) {
		valueFlag(fs, &lc.xs, "x")
		valueFlag(fs, &lc.indexes, "index")
		stringFlag(fs, &lc.name, "name")
	},
	check: func(lc *lifecycle) error {
		switch {
		case len(lc.xs) > 0 && len(lc.indexes) > 0:
			return usagef("-x and -index: -x is for Vault-format shares, -index for SSMS share files")
		case len(lc.indexes) > 0:
			return checkIndexes(lc.indexes)
		case len(lc.xs) == 0:
			return usagef("give the x coordinates of the shares to make with -x, as in -x 5 or -x 5,96 (or, for SSMS share files, their numbers with -index)")
		}
		return checkXs("-x", lc.xs, true)
	},
	checkPlain: func(lc *lifecycle, good []textShare) error {
		return checkFree(lc.xs, good)
	},
	plain: func(lc *lifecycle, good []textShare) ([][]byte, error) {
		return shamir.Recreate(partsOf(good), lc.t.t, lc.xs...)
	},
	ssms:      recreateSSMS,
	unchecked: "every new share wrong",
	summary: func(lc *lifecycle, shares [][]byte, enc, dest string) []string {
		if len(shares) == 1 {
			return []string{fmt.Sprintf("wrote the %s share at %s to %s", enc, listXs(lc.xs), dest)}
		}
		return []string{fmt.Sprintf("wrote %s, at %s in that order, to %s, one per line", count(len(shares), enc+" share"), listXs(lc.xs), dest)}
	},
}

// sharesReadWritten is the paragraph of extend's and reshare's help on
// how they read shares and write the new ones.
const sharesReadWritten = `The shares are read as combine reads them: each PATH is a file or a folder
of shares, "-" is stdin; with no PATH and no -share, stdin (typed without
being shown on a terminal). The new shares are written as split -encode
writes them, one per line, in the encoding of the shares read: to stdout,
or to the file -o (mode 0600, written whole or not at all).
`

var cmdExtend = &command{
	name:  "extend",
	short: "make new shares of a split, for new holders",
	run:   func(args []string) error { return runLifecycle(extendCmd, args) },
	help: `usage: shamir extend -t T -k COUNT [-inuse X[,X...]] [flags] [PATH ... | -]
       shamir extend -t T -x X[,X...] [flags] [PATH ... | -]
       shamir extend -k COUNT [-n N] [-o FOLDER] [flags] PATH ...

Extend makes COUNT new Vault-format shares of a split from T or more of its
shares, at x coordinates drawn at random among those left: they combine with
the split's shares, in any mixture, as the split's own do, and no one can
tell them from the shares split made. The secret is never computed. With
-x, the new shares are at those x coordinates instead.

The new shares' x coordinates differ from those of the shares given, and
from those of -inuse: give there the x coordinates of the split's other
shares, which are not given. A new share at the x coordinate of one of those
would be a copy of it, and the split would have fewer distinct shares than
its holders believe; without -inuse, extend notes that. (A share's x coordinate is its last byte; split does
not print them, but recreate, extend, refresh and reshare do.) The holders
of the other shares are not told that the split grew: keep a record of who
holds which x coordinate, or use reshare, which changes every share.

` + sharesReadWritten + `
Consistency first: given more than T shares, extend checks them against
each other, and refuses shares that disagree, naming each by file and line.
With exactly T shares there is nothing to check them against, and a
damaged share would make every new share wrong: extend says so.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop extend after it
removes the file it had begun to write.

SSMS share files (split's default) are numbered as their names are,
NAME.I-of-N.shamir, from 1, and extend makes the new ones as recreate does,
numbered after the split's N shares (-n) and after every share given:
with -n 5, shares 6, 7, ..., in files NAME.6-of-7.shamir and so on for two.
A share's header does not say how many shares its split has: without -n,
a new share could take the number of one not given, and be a copy of it;
extend notes that. -index I names the numbers instead.

` + forPeopleHelp + `
Flags:
	-t, -threshold T     the threshold of the shares (required, unless the
	                     JSON of vault operator init gives it; SSMS share
	                     files record it)
	-k, -count COUNT     the number of new shares to make
	-n, -parts N         SSMS share files: the number of shares of the
	                     split, numbered 1 to N, which the new ones follow
	-index I[,I...]      SSMS share files: make the new shares with these
	                     numbers instead (as recreate does)
	-name NAME           SSMS share files: name the new ones
	                     NAME.I-of-N.shamir (default: as the files read)
	-inuse X[,X...]      the x coordinates of the split's shares not given,
	                     which the new shares must not take
	-x X[,X...]          make the new shares at these x coordinates instead
	                     (as recreate does)
` + lifecycleFlags + `
Examples:

	shamir extend -t 3 -k 2 -inuse 96,54 three-keys.txt -o new-keys.txt
	shamir extend -t 3 -x 200 keys.txt
	shamir extend -k 2 -n 5 -o backup backup

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

var extendCmd = &lifecycleCmd{
	name: "extend",
	flags: func(fs *flag.FlagSet, lc *lifecycle) {
		intFlag(fs, &lc.count, "k", "count")
		valueFlag(fs, &lc.inUse, "inuse")
		valueFlag(fs, &lc.xs, "x")
		valueFlag(fs, &lc.indexes, "index")
		intFlag(fs, &lc.parts, "n", "parts")
		stringFlag(fs, &lc.name, "name")
	},
	check: func(lc *lifecycle) error {
		if n := lc.parts; n != 0 && (n < 2 || n > 255) {
			return usagef("-n %d: a split has 2 to 255 shares", n)
		}
		switch {
		case len(lc.xs) > 0 && len(lc.indexes) > 0:
			return usagef("-x and -index: -x is for Vault-format shares, -index for SSMS share files")
		case len(lc.indexes) > 0:
			if lc.count != 0 && lc.count != len(lc.indexes) {
				return usagef("-k %d, but -index gives %s", lc.count, count(len(lc.indexes), "share number"))
			}
			if lc.parts != 0 {
				return usagef("-n and -index: -index names the new shares, -n numbers them after the split's")
			}
			return checkIndexes(lc.indexes)
		case len(lc.xs) > 0:
			if lc.count != 0 && lc.count != len(lc.xs) {
				return usagef("-k %d, but -x gives %s", lc.count, count(len(lc.xs), "x coordinate"))
			}
			if err := checkXs("-x", lc.xs, true); err != nil {
				return err
			}
			for _, x := range lc.xs {
				for _, u := range lc.inUse {
					if x == u {
						return usagef("-x %d is also in -inuse", x)
					}
				}
			}
		case lc.count == 0:
			return usagef("give the number of new shares with -k, as in -k 2, or their x coordinates with -x")
		case lc.count < 1:
			return usagef("-k %d: the number of new shares is at least 1", lc.count)
		case lc.count > 254:
			return usagef("-k %d: a split has at most 255 shares", lc.count)
		}
		return checkXs("-inuse", lc.inUse, false)
	},
	checkPlain: func(lc *lifecycle, good []textShare) error {
		return checkFree(lc.xs, good)
	},
	plain: func(lc *lifecycle, good []textShare) ([][]byte, error) {
		if len(lc.xs) > 0 {
			return shamir.Recreate(partsOf(good), lc.t.t, lc.xs...)
		}
		if len(lc.inUse) == 0 && !lc.rf.quiet {
			// Nothing here can know of the split's other shares, and a
			// new share drawn at one of their x coordinates would be a
			// silent copy of it.
			sayf(os.Stderr, "note: the new shares avoid only the x coordinates of the %s given; if the split has others, name theirs with -inuse",
				count(len(good), "share"))
		}
		return shamir.Extend(partsOf(good), lc.t.t, lc.count, lc.inUse)
	},
	ssms:      extendSSMS,
	unchecked: "every new share wrong",
	summary: func(lc *lifecycle, shares [][]byte, enc, dest string) []string {
		return []string{fmt.Sprintf("wrote %s, at %s, to %s%s; with the split's shares, any %d recover the secret",
			count(len(shares), "new "+enc+" share"), listXs(xsOf(shares)), dest, pick(len(shares) > 1, ", one per line", ""), lc.t.t)}
	},
}

var cmdRefresh = &command{
	name:  "refresh",
	short: "re-randomize every share of a split, keeping the secret",
	run:   func(args []string) error { return runLifecycle(refreshCmd, args) },
	help: `usage: shamir refresh -t T [-n N] [flags] [PATH ... | -]
       shamir refresh [-n N] [-o FOLDER] [flags] PATH ...

Refresh makes new Vault-format shares of the same secret, at the same x
coordinates, from every share of a split: each new share is its old one
plus a random polynomial that is zero at x = 0, so any T new shares recover
the secret, while old and new shares together do not (a mixture gives a
wrong secret). A share that leaked before the refresh is then of no use
with shares made after it. The secret is never computed.

Give every share of the split: a share left out is not refreshed, and no
longer combines with the new ones (which retires a lost share). -n says how
many shares the split has, and refresh then refuses any other number.

Refresh protects only as well as the old shares are destroyed: old shares
still combine with each other, and whoever recovered the secret before
still has it. Against a secret that was exposed, change the secret.

The shares are read as combine reads them: each PATH is a file or a folder
of shares, "-" is stdin; with no PATH and no -share, stdin (typed without
being shown on a terminal). The new shares are written as split -encode
writes them, one per line, in the order read and the encoding of the shares
read: to stdout, or to the file -o (mode 0600, written whole or not at all;
-o with -f may name the file read, which is then replaced whole).

Consistency first: given more than T shares, refresh checks them against
each other, and refuses shares that disagree, naming each by file and line.
With exactly T shares there is nothing to check them against: a damaged
share stays damaged, and refresh says so.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop refresh after it
removes the file it had begun to write.

SSMS share files (split's default) are refreshed in place: only the key
shares in their headers change, and their generation, one more at
each refresh, so a share of any size costs a copy of its file. With -o,
the refreshed files go into that folder instead. Every share file is first
read whole and checked as verify checks them, which decrypts the secret a
chunk at a time in memory; each must be good, or nothing is refreshed. The
encrypted data is unchanged: whoever recovered the secret, or the key,
before still can; reshare draws a new key.

A refresh is one transaction, shares, holders' files, paper copies and
-manifest together, whatever folders they are in (a share file that is a symbolic link is refreshed
where it points). Each folder is locked for the whole run, and another
writer is refused, told which process holds it. Every new file is written
whole under a temporary name (.shamir-….tmp) beside its old one, which is
untouched; the plan is written as a journal in each folder
(.shamir-ID.journal), and the line that ends the first one, once every
folder is synced, is the commit point, once no file read is found
changed; then the new
files are renamed over the old ones, and the journals removed. Cut short
(a kill, a power cut), it leaves a state that verify, combine and every
command that changes shares recognise, saying which files are new and
which old, and the one way on: undo before the commit point, finish after
it. shamir resume FOLDER does it, in every folder the refresh touched.

` + forPeopleHelp + `
Flags:
	-t, -threshold T     the threshold of the shares (required, unless the
	                     JSON of vault operator init gives it; SSMS share
	                     files record it)
	-n, -parts N         the number of shares of the split: refuse to
	                     refresh any other number
	-retire NAME         with -manifest: leave out the holder NAME, whose
	                     share is not refreshed (may be repeated); no
	                     holder is retired otherwise
` + lifecycleFlags + `
Examples:

	shamir refresh -t 3 -n 5 keys.txt -o new-keys.txt
	shamir refresh -t 3 -f -o keys.txt keys.txt
	shamir refresh -n 5 backup
	shamir refresh -manifest shares/manifest.json -i alice.key meeting

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

var refreshCmd = &lifecycleCmd{
	name: "refresh",
	flags: func(fs *flag.FlagSet, lc *lifecycle) {
		intFlag(fs, &lc.parts, "n", "parts")
		valueFlag(fs, &lc.retire, "retire")
	},
	check: func(lc *lifecycle) error {
		if n := lc.parts; n != 0 && (n < 2 || n > 255) {
			return usagef("-n %d: a split has 2 to 255 shares", n)
		}
		if len(lc.retire) > 0 && lc.manifestPath == "" {
			return usagef("-retire names holders of the manifest: give it with -manifest")
		}
		return nil
	},
	checkPlain: func(lc *lifecycle, good []textShare) error {
		if lc.parts != 0 && lc.parts != len(good) {
			return withHints(fmt.Errorf("%s given, -n %d: refresh every share of the split", count(len(good), "share"), lc.parts),
				"a share left out is not refreshed, and no longer combines with the new ones")
		}
		return nil
	},
	plain: func(lc *lifecycle, good []textShare) ([][]byte, error) {
		return shamir.Refresh(partsOf(good), lc.t.t)
	},
	ssms:      refreshSSMS,
	unchecked: "its new share wrong too",
	summary: func(lc *lifecycle, shares [][]byte, enc, dest string) []string {
		return []string{
			fmt.Sprintf("wrote %s, at %s, to %s, one per line; any %d recover the secret",
				count(len(shares), "refreshed "+enc+" share"), listXs(xsOf(shares)), dest, lc.t.t),
			"destroy the old shares: together they still recover the secret, and they do not combine with the new ones",
		}
	},
}

var cmdReshare = &command{
	name:  "reshare",
	short: "make a new split: a new number of shares or threshold",
	run:   func(args []string) error { return runLifecycle(reshareCmd, args) },
	help: `usage: shamir reshare -t T -n N -newt NEWT [flags] [PATH ... | -]
       shamir reshare -n N -newt NEWT [-o FOLDER] [flags] PATH ...

Reshare makes a new split of the secret that T or more Vault-format shares
recover: N new shares, any NEWT of which recover it, at fresh x coordinates
and with fresh randomness. The new shares do not combine with the old ones.

A new threshold needs a new polynomial, and with Vault-format shares that
means the secret itself: reshare recovers it in memory, splits it, and
clears it; it is never written anywhere. (Go cannot promise that no copy is
left in the process's memory.) To keep the threshold and the x coordinates,
refresh does without the secret; to add shares, extend. The old shares still
recover the secret until they are destroyed.

` + sharesReadWritten + `
Consistency first: given more than T shares, reshare checks them against
each other, and refuses shares that disagree, naming each by file and line.
With exactly T shares there is nothing to check them against, and a
damaged share would make the new split one of a wrong secret: reshare says
so.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop reshare after it
removes the file it had begun to write.

SSMS share files (split's default) are reshared into N new share files,
NAME.I-of-N.shamir in the folder -o (default: the current folder), as split
writes them: the secret is decrypted a chunk at a time and encrypted again
under a new key, in a new split that the old key cannot read, even with the
same threshold. It is streamed, in memory only.

` + forPeopleHelp + `
Flags:
	-t, -threshold T     the threshold of the shares read (required, unless
	                     the JSON of vault operator init gives it; SSMS
	                     share files record it)
	-n, -parts N         the number of shares of the new split
	-newt, -newthreshold NEWT
	                     the number of new shares that recover the secret
	-name NAME           SSMS share files: name the new ones
	                     NAME.I-of-N.shamir (default: as the files read)
` + lifecycleFlags + `
Examples:

	shamir reshare -t 3 -n 7 -newt 4 old-keys.txt -o new-keys.txt
	shamir reshare -n 3 -newt 2 -o new-backup backup
	shamir reshare -n 3 -newt 2 -R holders.txt -o new -i alice.key shares

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

var reshareCmd = &lifecycleCmd{
	name: "reshare",
	flags: func(fs *flag.FlagSet, lc *lifecycle) {
		intFlag(fs, &lc.parts, "n", "parts")
		intFlag(fs, &lc.newT, "newt", "newthreshold")
		stringFlag(fs, &lc.name, "name")
	},
	check: func(lc *lifecycle) error {
		n, t := lc.parts, lc.newT
		switch {
		case n == 0 && t == 0:
			return usagef("give the number of new shares with -n and how many recover the secret with -newt, as in -n 5 -newt 3")
		case n == 0:
			return usagef("give the number of new shares with -n, as in -n 5 -newt %d", t)
		case n < 2:
			return usagef("-n %d: a split has 2 to 255 shares", n)
		case t == 0:
			return usagef("give the number of new shares that recover the secret with -newt, as in -n %d -newt %d", n, (n+2)/2)
		case t < 2:
			return usagef("-newt %d: the threshold must be at least 2; with 1, every share would be the secret itself", t)
		case n > 255:
			return usagef("-n %d: at most 255 shares can be made", n)
		case t > n:
			return usagef("-newt %d is more than the %d shares of -n: the secret could never be recovered", t, n)
		}
		return nil
	},
	plain: func(lc *lifecycle, good []textShare) ([][]byte, error) {
		return shamir.Reshare(partsOf(good), lc.t.t, lc.parts, lc.newT)
	},
	ssms:      reshareSSMS,
	unchecked: "the new split one of a wrong secret",
	summary: func(lc *lifecycle, shares [][]byte, enc, dest string) []string {
		return []string{
			fmt.Sprintf("wrote %s of a new split, at %s, to %s, one per line; any %d recover the secret",
				count(len(shares), enc+" share"), listXs(xsOf(shares)), dest, lc.newT),
			"destroy the old shares: together they still recover the secret",
		}
	},
}

// forPeopleHelp is the paragraph of the four commands' help on writing for
// people.
const forPeopleHelp = `For people, as split writes: the shares are read from the holders' age
files (HOLDER.shamir.age, opened with -i, or their passphrase asked on the
terminal) and from paper copies, as combine reads them, and each new share
is encrypted with age to its holder: one -r or -R line per new share, or,
with -manifest, the recipient the manifest records for that share (-r
NAME:... replaces NAME's), written as HOLDER.shamir.age in the folder -o;
-paper DIR writes a paper copy of each. A passphrase holder whose file was
opened is sealed again under the passphrase typed. The manifest is updated
with the new files (reshare and refresh with -R and no -manifest write
manifest.json beside them). With -manifest, refresh makes a share of the
new generation for every holder it lists: those given are refreshed, the
shares of those absent are made from them (as recreate makes a share) and
sealed to their recipients, to hand over later; a holder is retired only
when -retire names them; what the split becomes is said before anything
is written. A passphrase holder who is absent cannot have their share
sealed: the run stops first. The holders' files, the paper copies and the
manifest are one transaction with the other shares: all of them, or none.
`
