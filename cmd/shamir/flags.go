package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// The flags mean the same in every command that has them:
//
//	-n, -parts N        split, reshare: the number of shares to make;
//	                    refresh: the number of shares of the split, all
//	                    to be given
//	-t, -threshold T    the number of shares that recover the secret (of
//	                    the shares read, where shares are read)
//	-newt, -newthreshold T
//	                    reshare: the threshold of the new split
//	-x X[,X...]         recreate, extend: the x coordinates of the shares
//	                    to make
//	-inuse X[,X...]     extend: the x coordinates of shares not given
//	-k, -count K        extend: the number of new shares
//	-o, -output PATH    where the output goes; "-" is stdout where one stream
//	                    is written (combine, split -encode, and the
//	                    lifecycle commands), refused elsewhere (age
//	                    spells it so; -out, as earlier versions did, is
//	                    taken too)
//	-encode ENCODING    what the command writes is text in ENCODING: split
//	                    and the lifecycle commands write Vault-format
//	                    shares, combine writes the secret
//	-decode ENCODING    what the command reads is text in ENCODING: split
//	                    reads the secret, combine, verify and the lifecycle
//	                    commands read Vault-format shares
//	-share SHARE        a Vault-format share itself (where shares are read)
//	-split ID[/GEN]     combine, verify: the SSMS split meant, by its ID or
//	                    the first digits of it, and its generation
//	-i, -identity FILE  where shares are read: an age identity file, to decrypt
//	                    the shares encrypted to it
//	-r, -recipient [NAME:]RECIPIENT
//	                    split and the lifecycle commands: encrypt a share
//	                    to RECIPIENT with age, for the holder NAME (one -r
//	                    per share)
//	-R, -recipients FILE
//	                    split and the lifecycle commands: the holders and
//	                    their recipients, one a line ("NAME: RECIPIENT")
//	-paper DIR          split and the lifecycle commands: write a paper
//	                    copy of each share in DIR
//	-retire NAME        refresh: leave out the holder NAME of -manifest
//	-manifest FILE      verify: check the files against the manifest that
//	                    split wrote with the shares (docs/MANIFEST.md)
//	-name NAME          split: the name in the share files' names
//	-allowempty         split: an empty secret is meant
//	-f, -force          overwrite existing files
//	-q, -quiet          print no progress or summary

// A usageError reports a command line that does not make sense; it makes
// shamir exit with status 2.
type usageError struct {
	msg   string
	hints []string
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errHelp asks for the command's help text on stdout and exit status 0.
var errHelp = errors.New("help requested")

// newFlagSet returns a flag set that reports errors to the caller instead of
// printing the flag package's own usage, since each command has a hand-written
// help text.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args with fs and returns the positional arguments. Unlike
// fs.Parse it lets flags follow positional arguments, since people write
// "shamir split secret.tar -n 5 -t 3" as often as the other way round; "--"
// ends the flags. A lone "-" is a positional argument (standard input).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "format" && fs.Lookup("format") == nil {
			return nil, formatGone(fs.Name())
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			// The flag package's messages are fine ("flag provided but
			// not defined: -x"), less its "flag: " prefixes; a misspelt
			// flag gets the nearest one.
			e := &usageError{msg: strings.TrimPrefix(err.Error(), "flag: ")}
			if name, ok := strings.CutPrefix(e.msg, "flag provided but not defined: -"); ok {
				var names []string
				fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
				if near := nearest(name, names); near != "" {
					e.hints = []string{"did you mean -" + near + "?"}
				}
			}
			return nil, e
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// nearest returns the word of words nearest to w, if it is near enough to
// be what was meant: within an edit distance of 1, or of 2 for words of 5
// letters or more, where two typos are as common as one.
func nearest(w string, words []string) string {
	best, bestD := "", 3
	if len(w) < 5 {
		bestD = 2
	}
	for _, c := range words {
		if d := editDistance(w, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) between a and b: insertions, deletions, substitutions and
// swaps of neighbours each cost 1.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// formatGone explains where the -format of earlier versions went.
func formatGone(cmd string) error {
	e := &usageError{msg: "-format is gone: it meant the output in split and the input elsewhere"}
	if cmd == "split" {
		e.hints = []string{"Vault-format shares are written with -encode base64 or -encode hex; SSMS share files are the default"}
	} else {
		e.hints = []string{"the format of the shares is told from the shares; -decode base64 or -decode hex says they are Vault-format text"}
	}
	return e
}

// choice is a flag.Value that accepts one of a fixed set of words.
type choice struct {
	val     string
	allowed []string
}

func (c *choice) String() string { return c.val }

func (c *choice) Set(s string) error {
	for _, a := range c.allowed {
		if s == a {
			c.val = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(c.allowed, ", "))
}

// list is a flag.Value that collects the values of a flag given several
// times.
type list []string

func (l *list) String() string { return strings.Join(*l, " ") }

func (l *list) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// boolFlag and the functions after it register one variable under a short
// and a long name, as in "-f" and "-force". Flags are written with one dash,
// as Go's commands write theirs; the flag package takes two as well.
func boolFlag(fs *flag.FlagSet, p *bool, names ...string) {
	for _, n := range names {
		fs.BoolVar(p, n, *p, "")
	}
}

func intFlag(fs *flag.FlagSet, p *int, names ...string) {
	for _, n := range names {
		fs.IntVar(p, n, *p, "")
	}
}

func stringFlag(fs *flag.FlagSet, p *string, names ...string) {
	for _, n := range names {
		fs.StringVar(p, n, *p, "")
	}
}

func valueFlag(fs *flag.FlagSet, v flag.Value, names ...string) {
	for _, n := range names {
		fs.Var(v, n, "")
	}
}

// shareFlagsHelp and identityFlagHelp are the help of flags that combine
// and verify share, written once so that both print the same.
const (
	shareFlagsHelp = `	-decode ENCODING     the shares are Vault-format text in ENCODING,
	                     base64 or hex
	-share SHARE         a Vault-format share itself (may be repeated);
	                     other users can read it in ps: prefer stdin
`
	identityFlagHelp = `	-i, -identity FILE   an age identity file, as age -d -i takes it: age
	                     keys (age-keygen), a token's plugin identities
	                     (AGE-PLUGIN-NAME-1…, run by age-plugin-NAME, which
	                     asks for its PIN or touch on the terminal), such a
	                     file encrypted with a
	                     passphrase (age -p), or an SSH private key (may be
	                     repeated); a passphrase is asked for on the
	                     terminal (/dev/tty), without echo, whatever stdin is
`
)

// readFlags are the flags of the commands that read shares, combine and
// verify.
type readFlags struct {
	threshold  int
	decode     *choice
	shares     list
	split      string
	identities list
	quiet      bool
}

func (r *readFlags) register(fs *flag.FlagSet) {
	r.decode = &choice{"", []string{encBase64, encHex}}
	intFlag(fs, &r.threshold, "t", "threshold")
	valueFlag(fs, r.decode, "decode")
	valueFlag(fs, &r.shares, "share")
	stringFlag(fs, &r.split, "split")
	valueFlag(fs, &r.identities, "i", "identity")
	boolFlag(fs, &r.quiet, "q", "quiet")
}

// gather parses args with fs, checks the flags, and gathers the shares the
// arguments name.
func (r *readFlags) gather(fs *flag.FlagSet, args []string) (*shareSet, error) {
	args, err := r.parse(fs, args)
	if err != nil {
		return nil, err
	}
	return r.gatherArgs(args)
}

// parse parses args with fs, checks the flags, and returns the
// positional arguments.
func (r *readFlags) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	args, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if t := r.threshold; t != 0 && (t < 2 || t > 255) {
		return nil, usagef("-t %d: the threshold is between 2 and 255", t)
	}
	return args, nil
}

// gatherArgs gathers the shares that the positional arguments args name.
func (r *readFlags) gatherArgs(args []string) (*shareSet, error) {
	ids, err := readIdentities(r.identities)
	if err != nil {
		return nil, err
	}
	return gatherShares(args, r.shares, r.decode.val, ids, r.threshold)
}

// format decides which format the gathered shares are, as combine and
// verify both do: it notes the files ignored (unless -q), and checks a -t
// given with SSMS shares against their headers.
func (r *readFlags) format(set *shareSet, cmd string) (ssms bool, err error) {
	ssms, err = set.decideFormat(cmd)
	if !r.quiet {
		noteIgnored(os.Stderr, set.ignored)
	}
	if err != nil {
		return false, err
	}
	if ssms {
		if err := checkSSMSThreshold(set, r.threshold); err != nil {
			return false, err
		}
		if r.split != "" {
			name, err := set.findSplit(r.split)
			if err != nil {
				return false, err
			}
			set.split = &name
		}
	} else if r.split != "" {
		return false, usagef("-split %s: only SSMS shares belong to splits with IDs; these are Vault-format shares", r.split)
	}
	return ssms, nil
}
