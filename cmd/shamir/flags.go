package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// A usageError reports a command line that does not make sense; it makes
// shamir exit with status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
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
// still ends the flags. A lone "-" is a positional argument (standard input).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			// The flag package's messages are fine ("flag provided but
			// not defined: -x"), less its "flag: " prefixes.
			return nil, usagef("%s", strings.TrimPrefix(err.Error(), "flag: "))
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

// boolFlag and the functions after it register one variable under a short and a long
// name, as in "-f" and "-force" (the flag package also takes "--force").
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

// parseShareArgs parses the flags of a command that reads shares (combine,
// verify), checks -t and gathers the shares its arguments name.
func parseShareArgs(fs *flag.FlagSet, args []string, threshold *int, format *choice) (*shareSet, error) {
	args, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if t := *threshold; t != 0 && (t < 2 || t > 255) {
		return nil, usagef("-t %d: the threshold is between 2 and 255", t)
	}
	return gatherShares(args, format.val)
}
