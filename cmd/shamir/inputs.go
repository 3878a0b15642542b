package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Input formats, the values of combine's and verify's -format.
const (
	fmtAuto = "auto"
	fmtSSMS = "ssms"
)

// A shareSet is what the arguments of combine or verify hold: SSMS share
// files, Vault-format text shares, and the arguments or lines that are
// neither.
type shareSet struct {
	files []ssmsFile    // SSMS shares
	text  []textShare   // Vault-format shares, not yet decoded
	bad   []problem     // inputs that cannot be used
	stdin *bufio.Reader // stdin, when it holds an SSMS share

	// threshold is the threshold of the Vault-format shares when the input
	// says it (vault operator init's JSON does); 0 if unknown or if the
	// inputs disagree.
	threshold    int
	thresholdSet bool

	seen map[string]bool // the files added, by absolute path
}

func (set *shareSet) noteThreshold(t int) {
	if t == 0 {
		return
	}
	if !set.thresholdSet {
		set.threshold, set.thresholdSet = t, true
	} else if set.threshold != t {
		set.threshold = 0 // the inputs disagree: trust neither
	}
}

// An ssmsFile is an SSMS share to read: a file, or stdin.
type ssmsFile struct {
	where string // the name to report
	path  string // "" for stdin
	size  int64  // -1 if unknown

	// What the share's header says, for messages; 0 if it has no header
	// that checks.
	parts, threshold int
}

// newSSMSFile describes the SSMS share that starts with head.
func newSSMSFile(where, path string, size int64, head []byte) ssmsFile {
	f := ssmsFile{where: where, path: path, size: size}
	f.parts, f.threshold = inspectSSMS(head)
	return f
}

// sniffLen is how much of a file gatherShares reads to tell SSMS shares from
// text.
const sniffLen = 512

// gatherShares resolves the arguments of combine or verify into shares. Each
// argument is a share file, a folder (its *.shamir files), a glob pattern
// (for shells that do not expand it, or when quoted), "-" for stdin, or a
// Vault-format share itself. With no arguments, the shares are read from
// stdin: typed, without echo, when it is a terminal. format, when not auto,
// says what the shares are instead of telling it from their contents.
func gatherShares(args []string, format string) (*shareSet, error) {
	set := &shareSet{}
	if len(args) == 0 {
		args = []string{"-"}
	}
	usedStdin := false
	for i, arg := range args {
		if arg == "-" {
			if usedStdin {
				return nil, usagef(`"-" (stdin) given twice`)
			}
			usedStdin = true
			if err := set.addStdin(format); err != nil {
				return nil, err
			}
			continue
		}
		fi, err := os.Stat(arg)
		switch {
		case err == nil && fi.IsDir():
			matches, _ := filepath.Glob(filepath.Join(globEscape(arg), "*.shamir"))
			if len(matches) == 0 {
				set.bad = append(set.bad, problem{arg, "folder without .shamir files"})
			}
			if names := secretNames(matches); len(names) > 1 {
				return nil, fmt.Errorf("%s holds the shares of %d secrets (%s); say which, as in %s",
					arg, len(names), strings.Join(names, ", "), filepath.Join(arg, names[0]+".*.shamir"))
			}
			for _, m := range matches {
				set.addFile(m, format)
			}
		case err == nil:
			set.addFile(arg, format)
		case !errors.Is(err, fs.ErrNotExist):
			set.bad = append(set.bad, problem{arg, err.Error()})
		case strings.ContainsAny(arg, "*?["):
			matches, err := filepath.Glob(arg)
			if err != nil || len(matches) == 0 {
				set.bad = append(set.bad, problem{arg, "no file matches"})
			}
			for _, m := range matches {
				if fi, err := os.Stat(m); err == nil && !fi.IsDir() {
					set.addFile(m, format)
				}
			}
		case format == fmtSSMS || strings.HasSuffix(arg, ".shamir") || strings.ContainsRune(arg, os.PathSeparator) && !looksLikeToken(arg):
			set.bad = append(set.bad, problem{arg, "no such file"})
		default:
			// Not a file: a share given on the command line.
			set.text = append(set.text, textShare{where: fmt.Sprintf("argument %d", i+1), token: arg})
		}
	}
	return set, nil
}

// secretNames returns the names of the secrets whose shares are among the
// files: NAME for NAME.I-of-N.shamir.
func secretNames(files []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, f := range files {
		name, ok := secretName(f)
		if ok && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
}

// secretName returns NAME for a path ending in NAME.I-of-N.shamir.
func secretName(path string) (string, bool) {
	base := strings.TrimSuffix(filepath.Base(path), ".shamir")
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return "", false
	}
	var i, n int
	var rest string
	if k, _ := fmt.Sscanf(base[dot+1:], "%d-of-%d%s", &i, &n, &rest); k != 2 {
		return "", false
	}
	return base[:dot], true
}

// looksLikeToken reports whether s could be a base64 or hex share rather than
// a mistyped path: base64 has "/" in its alphabet, but no dots.
func looksLikeToken(s string) bool {
	return len(s) >= 4 && !strings.ContainsAny(s, ".\\ ")
}

// globEscape quotes the glob metacharacters of a folder name.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// addFile adds the share or shares in the file at path: an SSMS share, or
// Vault-format shares as lines of text.
func (set *shareSet) addFile(path, format string) {
	// The same file named twice, say by a folder and a glob, is one share.
	if set.seen == nil {
		set.seen = map[string]bool{}
	}
	if abs, err := filepath.Abs(path); err == nil {
		if set.seen[abs] {
			return
		}
		set.seen[abs] = true
	}
	f, err := os.Open(path)
	if err != nil {
		set.bad = append(set.bad, problem{path, err.Error()})
		return
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(sniffLen)
	switch {
	case format == fmtSSMS || format == fmtAuto && isSSMS(head):
		size := int64(-1)
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		set.files = append(set.files, newSSMSFile(path, path, size, head))
	case format == fmtAuto && !isText(head):
		set.bad = append(set.bad, problem{path, "neither an SSMS share file nor text with Vault-format shares"})
	default:
		shares, t, err := readTextShares(br, path)
		set.noteThreshold(t)
		if err != nil {
			set.bad = append(set.bad, problem{path, err.Error()})
			return
		}
		if len(shares) == 0 {
			set.bad = append(set.bad, problem{path, "no shares in it"})
		}
		set.text = append(set.text, shares...)
	}
}

// addStdin adds the shares on stdin: typed on a terminal, one per line, or
// piped: an SSMS share stream or lines of text.
func (set *shareSet) addStdin(format string) error {
	if isTerminal(os.Stdin) {
		fmt.Fprintln(os.Stderr, "Type or paste the shares, one per line (they are not shown); an empty line ends.")
		for n := 1; ; n++ {
			line, err := readHidden(fmt.Sprintf("Share %d: ", n))
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			tok := strings.TrimSpace(string(line))
			if m := labelled.FindStringSubmatch(tok); m != nil {
				tok = m[1]
			}
			if tok == "" {
				return nil
			}
			set.text = append(set.text, textShare{where: fmt.Sprintf("share %d typed", n), token: tok})
			if err != nil {
				return nil
			}
		}
	}
	br := bufio.NewReaderSize(os.Stdin, 64<<10)
	head, _ := br.Peek(sniffLen)
	if format == fmtSSMS || format == fmtAuto && isSSMS(head) {
		set.files = append(set.files, newSSMSFile("stdin", "", -1, head))
		set.stdin = br
		return nil
	}
	shares, t, err := readTextShares(br, "stdin")
	set.noteThreshold(t)
	if err != nil {
		return err
	}
	set.text = append(set.text, shares...)
	return nil
}

// isText reports whether b, the start of a file, looks like text: no NUL
// bytes or other control characters besides line ends and tabs.
func isText(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// reportProblems prints a warning for each unusable input on stderr.
func reportProblems(cmd string, bad []problem) {
	for _, p := range bad {
		fmt.Fprintf(os.Stderr, "shamir %s: warning: %s: %s\n", cmd, p.where, p.why)
	}
}
