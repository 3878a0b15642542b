// Shamir splits a secret into shares, any threshold of which recover it, and
// recovers it from them.
//
// Usage:
//
//	shamir split -n PARTS -t THRESHOLD [flags] [FILE | -]
//	shamir combine [flags] [PATH ... | -]
//	shamir verify [flags] [PATH ... | -]
//	shamir recreate -t T -x X[,X...] [flags] [PATH ... | -]
//	shamir recreate -index I[,I...] [-o FOLDER] [flags] PATH ...
//	shamir extend -t T -k COUNT [-inuse X[,X...]] [flags] [PATH ... | -]
//	shamir extend -k COUNT [-n N] [-o FOLDER] [flags] PATH ...
//	shamir refresh -t T [-n N] [flags] [PATH ... | -]
//	shamir refresh [-n N] [-o FOLDER] [flags] PATH ...
//	shamir reshare -t T -n N -newt NEWT [flags] [PATH ... | -]
//	shamir reshare -n N -newt NEWT [-o FOLDER] [flags] PATH ...
//	shamir attest challenge|answer|check|manifest [flags] [PATH ...]
//	shamir reprotect [-i IDENTITY]... (-r RECIPIENT | -passphrase) FILE
//	shamir version
//
// Shares come in two formats. SSMS share files (NAME.I-of-N.shamir), the
// default for split, carry a header and authenticate the data, and are
// written and read as streams, so files of any size take little memory.
// Vault-format shares are text, one share per line in base64 (as vault
// operator init prints unseal keys) or hex, made with split -encode; they
// are byte-compatible with HashiCorp Vault's shamir package. combine and
// verify take paths of share files and of folders of them, or read shares
// from stdin, and tell the formats apart by the shares.
//
// recreate, extend, refresh and reshare derive new shares from the shares
// of a split, over its life: a lost share made again, shares for new
// holders, every share re-randomized, a new number of shares or threshold.
// They read shares as combine does (holders' age files and paper copies
// included), and write shares of the format they read: Vault-format shares
// as split -encode writes them, SSMS share files into a folder (-o), as
// split writes them; and for people as split does (-r, -R, -paper, and
// the recipients of the manifest, -manifest), so that a split's holders
// stay its holders: refresh makes the shares of holders who are away too,
// and retires only those -retire names.
//
// Run "shamir help COMMAND" or "shamir COMMAND -h" for each command's flags.
//
// SIGINT, SIGTERM, SIGHUP and SIGQUIT stop shamir after it removes the
// files and folders it had begun to write; a signal ignored when it started
// (as nohup ignores SIGHUP) stays ignored.
//
// The exit status is 0 on success, 1 on failure and 2 on a usage error; a
// run stopped by a signal ends as that signal ends a program.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// A command is one of shamir's subcommands.
type command struct {
	name  string
	short string // one line for the overview
	help  string // the full text that -h prints
	run   func(args []string) error
}

var commands []*command

func init() {
	// Assigned here rather than in the declaration because the run functions
	// refer back to the commands for their help texts.
	commands = []*command{cmdSplit, cmdCombine, cmdVerify, cmdRecreate, cmdExtend, cmdRefresh, cmdReshare, cmdAttest, cmdReprotect, cmdResume, cmdVersion}
}

const overview = `Shamir splits a secret into shares, any threshold of which recover it.

Usage:

	shamir COMMAND [flags] [arguments]

Commands:

%s
Run "shamir COMMAND -h" for a command's flags and examples.

SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) stop shamir after it
removes the files and folders it had begun to write; a signal that was
ignored when shamir started (as under nohup) stays ignored.
`

func main() {
	outfile.CatchSignals(reportStop)
	os.Exit(run(os.Args[1:]))
}

// run runs the command line args and returns the exit status.
func run(args []string) int {
	if len(args) == 0 {
		printOverview(os.Stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(rest) > 0 {
			if c := lookup(rest[0]); c != nil {
				fmt.Fprint(os.Stdout, layoutHelp(c.help))
				return 0
			}
			printError(os.Stderr, withHints(fmt.Errorf("unknown command %q", rest[0]), append(didYouMean(rest[0]), `run "shamir help" for the list`)...))
			return 2
		}
		printOverview(os.Stdout)
		return 0
	case "-version", "--version":
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		hints := append(didYouMean(name), `run "shamir help" for the list of commands`)
		printError(os.Stderr, withHints(fmt.Errorf("unknown command %q", name), hints...))
		return 2
	}
	err := c.run(rest)
	outfile.Unlock()
	// After a signal, the handler removes the output and ends shamir;
	// what failed meanwhile is of no interest.
	outfile.WaitIfStopping()
	var uerr *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		fmt.Fprint(os.Stdout, layoutHelp(c.help))
		return 0
	case errors.As(err, &uerr):
		hints := append(uerr.hints, fmt.Sprintf(`run "shamir %s -h" for usage`, c.name))
		printError(os.Stderr, withHints(errors.New(uerr.msg), hints...))
		return 2
	case errors.Is(err, errSilent):
		return 1
	default:
		printError(os.Stderr, err)
		return 1
	}
}

// reportStop says that a stop signal ended shamir, after it restores the
// terminal.
func reportStop(sig os.Signal, removed bool) {
	killPlugins()
	restoreTerminal()
	lead := ""
	if isTerminal(os.Stderr) {
		lead = "\n" // after the ^C the terminal echoed
	}
	fmt.Fprintf(os.Stderr, "%s%s%s: stopped%s\n", lead, prefix, outfile.SignalName(sig), pick(removed, "; removed the unfinished output", ""))
}

// didYouMean returns the hint that names the command nearest to name, if
// one is near enough to be what was meant.
func didYouMean(name string) []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	if near := nearest(name, names); near != "" {
		return []string{fmt.Sprintf("did you mean %q?", "shamir "+near)}
	}
	return nil
}

// layoutHelp orders a command's help for someone at a terminal: the usage
// lines and the paragraph that says what the command does, then the flags
// and the examples, which fit the first screen or nearly, then the rest of
// the prose, and the exit status last. Each help text is written in the
// order it reads best in the source (prose, flags, examples); the layout
// is made here, once for every command.
func layoutHelp(help string) string {
	paras := strings.Split(strings.TrimRight(help, "\n"), "\n\n")
	if len(paras) < 3 {
		return help
	}
	// The synopsis is the paragraph after the usage lines, with the one
	// it announces if it ends with a colon (a list of steps).
	n := 2
	if strings.HasSuffix(paras[1], ":") && len(paras) > 3 {
		n = 3
	}
	head := paras[:n]
	var flags, examples, prose, exit []string
	inExamples := false
	for _, p := range paras[n:] {
		switch {
		case strings.HasPrefix(p, "Flags:"):
			flags = append(flags, p)
			inExamples = false
		case strings.HasPrefix(p, "Examples:"):
			examples = append(examples, p)
			inExamples = true
		case inExamples && strings.HasPrefix(p, "\t"):
			examples = append(examples, p)
		case strings.HasPrefix(p, "The exit status"):
			exit = append(exit, p)
			inExamples = false
		default:
			prose = append(prose, p)
			inExamples = false
		}
	}
	out := slices.Concat(head, flags, examples, prose, exit)
	return strings.Join(out, "\n\n") + "\n"
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printOverview(w io.Writer) {
	list := ""
	for _, c := range commands {
		list += fmt.Sprintf("\t%-9s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, overview, list)
}

// errSilent is returned by a command that has already said on stderr what
// went wrong, to exit with status 1 without another message.
var errSilent = errors.New("failed")

var cmdVersion = &command{
	name:  "version",
	short: "print the version of shamir",
	help: `usage: shamir version

Version prints the version of the shamir command and the Go toolchain that
built it.
`,
	run: func(args []string) error {
		if len(args) > 0 {
			if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
				return errHelp
			}
			return usagef("version takes no arguments")
		}
		fmt.Println("shamir", version())
		return nil
	},
}

// version reports the module version that go install recorded in the binary,
// or "(devel)" for a binary built from a work tree.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	return v + " " + bi.GoVersion
}
