package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"filippo.io/age"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file turns the arguments of combine and verify into shares. The
// grammar guesses nothing: each argument is the path of a file or a folder,
// or "-" for stdin; with none, the shares are read from stdin (typed, without
// echo, on a terminal). Share values themselves come from stdin or from
// -share, never from arguments, where every user of the machine could read
// them (ps). A path that does not exist is an error.
//
// A file is an SSMS share when it starts as one does; it holds Vault-format
// shares when it is text with lines that decode as shares. Any other file is
// no share file: named or found in a folder, it is ignored with a note and
// never counted (except a file named *.shamir, which is taken for a damaged
// SSMS share). Which format the shares are is decided by the inputs that hold
// shares only, and inputs of both formats are an error that lists which is
// which.

// An ssmsShare is an SSMS share to read, open: a file, or stdin.
type ssmsShare struct {
	where  string        // for messages: the quoted path, or "stdin"
	path   string        // "" for stdin
	dir    string        // the folder argument it was found in, if any
	r      *bufio.Reader // positioned at the start of the share
	f      *os.File      // nil for stdin
	size   int64         // -1 if unknown
	info   shamir.SSMSInfo
	hasHdr bool // info holds a header that checks
}

// A problem is an input that cannot be used, and why.
type problem struct {
	where string
	why   string
}

// A shareSet is what the arguments of combine or verify hold.
type shareSet struct {
	ssms     []*ssmsShare    // SSMS shares
	split    *shamir.SplitID // the split -split names, if it does
	text     []textShare     // Vault-format shares, not yet decoded
	textFrom []string        // the inputs that gave Vault-format shares, for messages
	notSSMS  []problem       // files named *.shamir that hold no shares
	ignored  []problem       // inputs that hold no shares

	// threshold is the threshold of the Vault-format shares when the input
	// says it (vault operator init's JSON does), and thresholdFrom says
	// where it was read.
	threshold     int
	thresholdFrom string

	seen []os.FileInfo // the files added, to add each once

	ids []age.Identity // the identities of -i, for shares encrypted with age
}

// sniffLen is how much of a file is read to tell what it holds.
const sniffLen = 512

// gatherShares resolves the arguments of combine or verify (paths, or "-"
// for stdin) and the values of -share into shares. decode, when not empty,
// says that the shares are Vault-format text in that encoding.
func gatherShares(args, values []string, decode string, ids []age.Identity) (*shareSet, error) {
	set := &shareSet{ids: ids}
	if len(args) == 0 && len(values) == 0 {
		args = []string{"-"}
	}
	var errs []error
	usedStdin := false
	for _, arg := range args {
		if arg == "-" {
			if usedStdin {
				set.close()
				return nil, usagef(`"-" (stdin) given twice`)
			}
			usedStdin = true
			if err := set.addStdin(decode); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		fi, err := os.Stat(arg)
		switch {
		case err != nil:
			errs = append(errs, argError(arg, err))
		case fi.IsDir():
			if err := set.addFolder(arg, decode); err != nil {
				errs = append(errs, err)
			}
		default:
			if err := set.addFile(arg, "", fi, decode); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(values) > 0 {
		for i, v := range values {
			set.text = append(set.text, textShare{where: fmt.Sprintf("-share %d", i+1), token: strings.TrimSpace(v)})
		}
		set.textFrom = append(set.textFrom, "-share ("+count(len(values), "value")+")")
	}
	if len(errs) > 0 {
		set.close()
		return nil, joinErrors(errs)
	}
	return set, nil
}

// argError explains why an argument cannot be read.
func argError(arg string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return fileError(err)
	}
	err = fmt.Errorf("%s does not exist", quote(arg))
	switch {
	case strings.ContainsAny(arg, "*?") || strings.Contains(arg, "[") && strings.Contains(arg, "]"):
		return withHints(err, "a pattern is not expanded: name the files, or the folder that holds them")
	case looksLikeShare(arg):
		return withHints(err, "arguments are files and folders: give shares themselves on stdin (one per line),"+
			" typed at the prompt, or with -share (which other users can see in ps)")
	}
	return err
}

// looksLikeShare reports whether an argument that names no file could be a
// Vault-format share: hex, or base64 long enough not to be a mistyped name.
func looksLikeShare(s string) bool {
	return isHex(s) && len(s) >= 4 || len(s) >= 16 && !strings.ContainsAny(s, ". ") && decodesAsShare(s, encBase64)
}

// addFolder adds the share files in the folder dir; the other files in it
// are ignored, with a note. Subfolders are not searched.
func (set *shareSet) addFolder(dir, decode string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fileError(err)
	}
	before := len(set.ssms)
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			set.ignored = append(set.ignored, problem{quote(path), fileError(err).Error()})
			continue
		}
		if fi.IsDir() {
			continue // a link to a folder
		}
		if !fi.Mode().IsRegular() {
			set.ignored = append(set.ignored, problem{quote(path), "not a regular file"})
			continue
		}
		if err := set.addFile(path, dir, fi, decode); err != nil {
			return err
		}
	}
	// A folder may hold the shares of several secrets, as "shamir split -o
	// backup" of several files makes: which is meant is not guessed.
	var names []string
	seen := map[string]bool{}
	for _, s := range set.ssms[before:] {
		if name, ok := secretName(s.path); ok && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	if len(names) > 1 {
		var quoted []string
		for _, n := range names {
			quoted = append(quoted, quote(n))
		}
		return withHints(fmt.Errorf("%s holds the shares of %d secrets (%s)", quote(dir), len(names), strings.Join(quoted, ", ")),
			fmt.Sprintf("name the share files of one, as in %s", filepath.Join(dir, names[0]+".*.shamir")))
	}
	if len(set.ssms) == before && len(ents) == 0 {
		set.ignored = append(set.ignored, problem{quote(dir), "an empty folder"})
	}
	return nil
}

// secretName returns NAME for a path ending in NAME.I-of-N.shamir.
func secretName(path string) (string, bool) {
	base := strings.TrimSuffix(filepath.Base(path), ".shamir")
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || len(base) == len(filepath.Base(path)) {
		return "", false
	}
	var i, n int
	var rest string
	if k, _ := fmt.Sscanf(base[dot+1:], "%d-of-%d%s", &i, &n, &rest); k != 2 {
		return "", false
	}
	return base[:dot], true
}

// addFile adds the shares in the file at path, found in the folder dir ("" if
// named itself), whose FileInfo is fi.
func (set *shareSet) addFile(path, dir string, fi os.FileInfo, decode string) error {
	// The same file named twice, say by a folder and by its path, is
	// one input.
	for _, s := range set.seen {
		if os.SameFile(s, fi) {
			return nil
		}
	}
	set.seen = append(set.seen, fi)
	where := quote(path)
	f, err := os.Open(path)
	if err != nil {
		return fileError(err)
	}
	br := bufio.NewReaderSize(f, copyBufSize)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		f.Close()
		return fmt.Errorf("reading %s: %v", where, unwrapPath(err))
	}
	isShamir := strings.HasSuffix(path, ".shamir")
	keep := false
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	switch {
	case len(head) == 0:
		set.noShares(where, isShamir, "empty")
	case shamir.IsSSMS(head) && decode == "":
		keep = true
		size := int64(-1)
		if fi.Mode().IsRegular() {
			size = fi.Size()
		}
		set.addSSMS(&ssmsShare{where: where, path: path, dir: dir, r: br, f: f, size: size}, head)
	case shamir.IsSSMS(head):
		set.ignored = append(set.ignored, problem{where, "an SSMS share file; -decode " + decode + " reads Vault-format shares"})
	case isAgeFile(head):
		keep, err = set.addAge(f, br, head, path, dir, where, isShamir, decode)
		return err
	case paper.IsImage(head):
		return set.addImage(br, where, isShamir, decode)
	case isText(head) && paper.IsText(string(head)):
		return set.addPaperText(br, where, decode)
	case isManifest(head):
		set.ignored = append(set.ignored, problem{where, "the manifest of a split (verify -manifest checks files against it)"})
	case !isText(head):
		set.noShares(where, isShamir, "neither an SSMS share nor text")
	default:
		return set.addText(br, where, isShamir, decode)
	}
	return nil
}

// noShares records a file that holds no share.
func (set *shareSet) noShares(where string, isShamir bool, why string) {
	if isShamir {
		set.notSSMS = append(set.notSSMS, problem{where, "not an SSMS share (" + why + ")"})
		return
	}
	set.ignored = append(set.ignored, problem{where, "not a share file (" + why + ")"})
}

func (set *shareSet) addSSMS(s *ssmsShare, head []byte) {
	if info, err := shamir.InspectSSMS(head); err == nil {
		s.info, s.hasHdr = info, true
	}
	set.ssms = append(set.ssms, s)
}

// addText adds the Vault-format shares in the text r, from where.
func (set *shareSet) addText(r io.Reader, where string, isShamir bool, decode string) error {
	shares, t, field, err := readTextShares(r, where)
	if err != nil {
		set.noShares(where, isShamir, err.Error())
		return nil
	}
	n := 0
	for _, s := range shares {
		if decodesAsShare(s.token, decode) {
			n++
		}
	}
	if n == 0 {
		why := "no line is a share"
		if decode != "" {
			why = "no line is a " + decode + " share"
		}
		set.noShares(where, isShamir, why)
		return nil
	}
	if t != 0 {
		from := fmt.Sprintf("%s in %s", field, where)
		if set.threshold != 0 && set.threshold != t {
			return withHints(fmt.Errorf("the thresholds in the inputs differ: %d (%s) and %d (%s)", set.threshold, set.thresholdFrom, t, from),
				"give the threshold with -t")
		}
		set.threshold, set.thresholdFrom = t, from
	}
	set.text = append(set.text, shares...)
	set.textFrom = append(set.textFrom, fmt.Sprintf("%s (%s)", where, count(len(shares), "share")))
	return nil
}

// addStdin adds the shares on stdin: typed on a terminal, one per line, or
// piped: an SSMS share, or lines of text.
func (set *shareSet) addStdin(decode string) error {
	if isTerminal(os.Stdin) {
		fmt.Fprintln(os.Stderr, "Type or paste the shares, one per line (they are not shown); an empty line ends.")
		n := 0
		for i := 1; ; i++ {
			line, err := readHidden(fmt.Sprintf("Share %d: ", i))
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("reading shares from the terminal: %v", err)
			}
			tok := strings.TrimSpace(string(line))
			if m := labelled.FindStringSubmatch(tok); m != nil {
				tok = m[1]
			}
			if tok == "" {
				break
			}
			if paper.IsText(tok) {
				// A share from paper spans lines, each checked as
				// it is typed.
				if err := set.addTypedPaper(fmt.Sprintf("typed share %d", i), tok, decode); err != nil {
					return fmt.Errorf("reading shares from the terminal: %v", err)
				}
				n++
				continue
			}
			set.text = append(set.text, textShare{where: fmt.Sprintf("typed share %d", i), token: tok})
			n++
			if err != nil {
				break
			}
		}
		if n > 0 {
			set.textFrom = append(set.textFrom, "the terminal ("+count(n, "typed share")+")")
		} else {
			set.ignored = append(set.ignored, problem{"the terminal", "no share typed"})
		}
		return nil
	}
	br := bufio.NewReaderSize(os.Stdin, copyBufSize)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return fmt.Errorf("reading stdin: %v", err)
	}
	switch {
	case len(head) == 0:
		set.ignored = append(set.ignored, problem{"stdin", "empty"})
	case shamir.IsSSMS(head) && decode == "":
		set.addSSMS(&ssmsShare{where: "stdin", r: br, size: -1}, head)
	case isAgeFile(head):
		_, err := set.addAge(nil, br, head, "", "", "stdin", false, decode)
		return err
	case paper.IsImage(head):
		return set.addImage(br, "stdin", false, decode)
	case isText(head) && paper.IsText(string(head)):
		return set.addPaperText(br, "stdin", decode)
	case !isText(head) && decode == "":
		set.ignored = append(set.ignored, problem{"stdin", "not a share (neither an SSMS share nor text)"})
	default:
		return set.addText(br, "stdin", false, decode)
	}
	return nil
}

// close closes the share files left open.
func (set *shareSet) close() {
	for _, s := range set.ssms {
		if s.f != nil {
			s.f.Close()
		}
	}
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

// noteIgnored prints a note for each input that holds no share.
func noteIgnored(w io.Writer, ignored []problem) {
	for _, p := range ignored {
		sayf(w, "ignored %s: %s", p.where, p.why)
	}
}

// decideFormat tells whether the shares gathered are SSMS shares (true) or
// Vault-format ones, from the inputs that hold shares. Inputs of both
// formats are an error that lists which is which.
func (set *shareSet) decideFormat(cmd string) (ssms bool, err error) {
	switch {
	case len(set.ssms) > 0 && len(set.text) > 0:
		var files []string
		for _, s := range set.ssms {
			files = append(files, s.where)
		}
		sort.Strings(files)
		return false, withHints(fmt.Errorf("the inputs hold shares of two formats:\nSSMS shares: %s\nVault-format shares: %s",
			strings.Join(files, ", "), strings.Join(set.textFrom, ", ")),
			"give the shares of one secret, of one format")
	case len(set.ssms) > 0:
		return true, nil
	case len(set.text) > 0:
		// Files named *.shamir that hold no share are not shares of
		// the Vault format either: they are noted, not counted.
		set.ignored = append(set.ignored, set.notSSMS...)
		set.notSSMS = nil
		return false, nil
	case len(set.notSSMS) > 0:
		return true, nil
	}
	return false, withHints(errors.New("no shares among the inputs"),
		fmt.Sprintf("give share files, folders of them, or Vault-format shares on stdin; run \"shamir %s -h\" for how", cmd))
}

// A multiError is several errors, printed one per line.
type multiError []error

func (m multiError) Error() string {
	var lines []string
	for _, e := range m {
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

func (m multiError) Unwrap() []error { return m }

func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return multiError(errs)
}
