package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"filippo.io/age"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/ssss"
)

// This file turns the arguments of combine and verify into shares. The
// grammar guesses nothing: each argument is the path of a file or a folder,
// or "-" for stdin; with none, the shares are read from stdin (typed, without
// echo, on a terminal). Share values themselves come from stdin or from
// -share, never from arguments, where every user of the machine could read
// them (ps). A path that does not exist is an error.
//
// What each input holds is told by the classifier (classify.go); this file
// files what it found. An input that holds no share is ignored with a note
// and never counted (except a file named *.shamir, which is taken for a
// damaged SSMS share). Which format the shares are is decided by the inputs
// that hold shares only, a text that may be a note having no say, and
// inputs of both formats are an error that lists which is which.

// An ssmsShare is an SSMS share to read, open: a file, or stdin.
type ssmsShare struct {
	where  string        // for messages: the quoted path, or "stdin"
	path   string        // "" for stdin
	dir    string        // the folder argument it was found in, if any
	r      *bufio.Reader // positioned at the start of the share
	f      shareFile     // nil for stdin and paper
	size   int64         // -1 if unknown
	info   shamir.SSMSInfo
	hasHdr bool // info holds a header that checks
	// sealed says that the share is inside the age file f: a holder's
	// file, which reopen decrypts again.
	sealed bool
	data   []byte // a share read from paper, whole
}

// reopen returns a reader of the share from its start again, for a
// command that reads it twice (refresh): the file read again, an age file
// decrypted again with the key remembered (nothing is asked twice), a
// share from paper from memory. A share from stdin cannot be read again.
func (s *ssmsShare) reopen(mem *ageMemory) (io.Reader, func(), error) {
	switch {
	case s.data != nil:
		return bytes.NewReader(s.data), func() {}, nil
	case s.f == nil:
		return nil, nil, fmt.Errorf("%s cannot be read twice", s.where)
	case s.sealed:
		pf, ok := s.f.(*pooledFile)
		if !ok {
			return nil, nil, fmt.Errorf("%s cannot be read twice", s.where)
		}
		r, err := mem.openAgeFile(pf)
		if err != nil {
			return nil, nil, fmt.Errorf("decrypting %s again: %v", s.where, err)
		}
		return r, func() {}, nil
	}
	return io.NewSectionReader(s.f, 0, 1<<62), func() {}, nil
}

// A problem is an input that cannot be used, and why.
type problem struct {
	where string
	why   string
}

// A shareSet is what the arguments of combine or verify hold.
type shareSet struct {
	ssms     []*ssmsShare      // SSMS shares
	split    *shamir.SplitName // the split and generation -split names, if it does
	text     []textShare       // Vault-format shares, not yet decoded
	textFrom []string          // the inputs that gave Vault-format shares, for messages
	notSSMS  []problem         // files named *.shamir that hold no shares
	mixed    []mixedText       // texts that are not all shares
	ssss     []ssssShare       // shares of ssss (foreign.go)
	ssssFrom []string          // the inputs that gave them, for messages
	ignored  []problem         // inputs that hold no shares

	// ageRefused counts the age files that FIPS 140-only mode kept
	// closed.
	ageRefused int

	// threshold is the threshold of the Vault-format shares when the input
	// says it (vault operator init's JSON does), and thresholdFrom says
	// where it was read.
	threshold     int
	thresholdFrom string

	seen   []os.FileInfo // the files added, to add each once
	read   []readFile    // the files added, for a change to check before its commit
	seenAs []seenPath    // the path each was added as

	// want is the threshold -t gives, 0 if none; onlyStdin says that
	// stdin is the only input (addStdin).
	want      int
	onlyStdin bool

	// files opens the plain SSMS share files as they are read
	// (sharefiles.go).
	files filePool

	classifier
}

// gatherShares resolves the arguments of combine or verify (paths, or "-"
// for stdin) and the values of -share into shares. decode, when not empty,
// says that the shares are Vault-format text in that encoding.
//
// want, when not 0, is the threshold -t gives: typed shares are then asked
// for with the progress shown ("Share 2/3"), and, when the terminal is the
// only input, until that many are given.
func gatherShares(args, values []string, decode string, ids []age.Identity, want int) (*shareSet, error) {
	set := &shareSet{classifier: classifier{decode: decode, ids: ids, mem: newAgeMemory()}, want: want}
	if len(args) == 0 && len(values) == 0 {
		args = []string{"-"}
	}
	set.onlyStdin = len(args) == 1 && args[0] == "-" && len(values) == 0
	var errs []error
	usedStdin := false
	for _, arg := range args {
		var err error
		if arg == "-" {
			if usedStdin {
				set.close()
				return nil, usagef(`"-" (stdin) given twice`)
			}
			usedStdin = true
			err = set.addStdin()
		} else {
			err = set.addArg(arg)
		}
		if err != nil {
			errs = append(errs, err)
		}
		// An identity that cannot be unlocked (a wrong passphrase)
		// would fail every other input the same way: said once.
		if ie := (*identityError)(nil); errors.As(err, &ie) {
			break
		}
	}
	linked := set.linkedFolders()
	errs = append(errs, interrupted(append(args, linked...))...)
	for _, d := range linked {
		set.ignored = append(set.ignored, leftoversIn(d)...)
	}
	if len(values) > 0 {
		n := 0
		for i, v := range values {
			where := fmt.Sprintf("-share %d", i+1)
			if sh, err := ssss.Parse(v); err == nil && decode == "" {
				// A share of ssss: never read as base64 (its
				// dash is in base64's URL alphabet).
				set.ssss = append(set.ssss, ssssShare{where, sh})
				continue
			}
			set.text = append(set.text, textShare{where: where, token: strings.TrimSpace(v)})
			n++
		}
		if n > 0 {
			set.textFrom = append(set.textFrom, "-share ("+count(n, "value")+")")
		}
		if k := len(values) - n; k > 0 {
			set.ssssFrom = append(set.ssssFrom, "-share ("+count(k, "value")+")")
		}
	}
	if len(errs) > 0 {
		set.close()
		return nil, joinErrors(errs)
	}
	return set, nil
}

// addArg adds the shares in the file or folder arg.
func (set *shareSet) addArg(arg string) error {
	fi, err := os.Stat(arg)
	switch {
	case err != nil:
		return argError(arg, err)
	case fi.IsDir():
		return set.addFolder(arg)
	}
	return set.addFile(arg, "", fi)
}

// interrupted returns, for each folder among args and the folders of the
// files among them, the error that tells of a replacement in place that was
// stopped halfway there: its new and old files do not go together.
func interrupted(args []string) []error {
	var errs []error
	seen := map[string]bool{}
	for _, arg := range args {
		dir := arg
		if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
			dir = filepath.Dir(arg)
		}
		if arg == "-" || seen[filepath.Clean(dir)] {
			continue
		}
		seen[filepath.Clean(dir)] = true
		if err := outfile.Interrupted(dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// linkedFolders returns the folders that the share files which are
// symbolic links point into: a change there, stopped halfway, concerns
// them too.
func (set *shareSet) linkedFolders() []string {
	var dirs []string
	for _, r := range set.read {
		if lfi, err := os.Lstat(r.path); err != nil || lfi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		t, err := filepath.EvalSymlinks(r.path)
		if err != nil {
			continue
		}
		d := filepath.Dir(t)
		if !slices.Contains(dirs, d) && !sameDir(d, filepath.Dir(r.path)) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// sameDir reports whether the paths a and b name one folder.
func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// leftoversIn returns, as inputs to ignore, what a run stopped without
// cleaning up left in the folder dir (its temporary files): for the
// folders a run touches without reading them whole, those of the files
// symbolic links point to and of the manifest, so that what is left there
// is told too. The journals of a change stopped halfway are told by
// interrupted.
func leftoversIn(dir string) []problem {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var left []problem
	why := leftoverWhy(dir)
	for _, e := range ents {
		if n := e.Name(); outfile.IsLeftover(n) && strings.HasSuffix(n, ".tmp") {
			left = append(left, problem{quote(filepath.Join(dir, n)), why})
		}
	}
	return left
}

// leftoverWhy is why the temporary files in the folder dir are ignored:
// left by a run that was stopped, or, while another process holds the
// folder's lock, being written by it, and not to be removed.
func leftoverWhy(dir string) string {
	if who, ok := outfile.LockedBy(dir); ok {
		return "being written now by " + who + ": not a share; leave it"
	}
	return leftover
}

// leftover is why a file an interrupted run left is ignored.
const leftover = "left by a run of shamir that was stopped without cleaning up (killed, or a power cut): not a share; remove it"

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
// share: Vault-format (hex, or base64 long enough not to be a mistyped
// name), or ssss's.
func looksLikeShare(s string) bool {
	return isHex(s) && len(s) >= 4 || len(s) >= 16 && !strings.ContainsAny(s, ". ") && decodesAsShare(s, encBase64) ||
		ssss.IsShare(s)
}

// addFolder adds the share files in the folder dir; the other files in it
// are ignored, with a note. Subfolders are not searched.
func (set *shareSet) addFolder(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fileError(err)
	}
	before := len(set.ssms)
	left := leftoverWhy(dir)
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			continue
		}
		if outfile.IsLockInfo(e.Name()) {
			continue // says who is changing the folder: not a share
		}
		if outfile.IsLeftover(e.Name()) {
			set.ignored = append(set.ignored, problem{quote(path), left})
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
		if err := set.addFile(path, dir, fi); err != nil {
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
func (set *shareSet) addFile(path, dir string, fi os.FileInfo) error {
	// The same file named twice, say by a folder and by its path, is
	// one input: named, and counted once.
	for i, s := range set.seen {
		if os.SameFile(s, fi) {
			why := "given twice; counted once"
			switch first := set.seenAs[i]; {
			case first.path != path:
				why = fmt.Sprintf("given twice (as %s); counted once", quote(first.path))
			case first.dir != dir:
				why = fmt.Sprintf("given twice (%s, and by its path); counted once", pick(first.dir != "", "in the folder "+quote(first.dir), "in the folder "+quote(dir)))
			}
			set.ignored = append(set.ignored, problem{quote(path), why})
			return nil
		}
	}
	set.seen = append(set.seen, fi)
	set.seenAs = append(set.seenAs, seenPath{path, dir})
	set.read = append(set.read, readFile{path, fi})
	if outfile.IsLeftover(path) {
		set.ignored = append(set.ignored, problem{quote(path), leftover})
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fileError(err)
	}
	size := int64(-1)
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	in := input{where: quote(path), path: path, dir: dir, f: f, fi: fi, isShamir: strings.HasSuffix(path, ".shamir")}
	c, err := set.classify(bufio.NewReaderSize(f, copyBufSize), in.where, size)
	keep := false
	if err == nil {
		keep, err = set.file(in, c)
	}
	if !keep {
		f.Close()
	}
	return err
}

// A seenPath is a path a file was added as, and the folder argument it
// was found in ("" if named itself).
type seenPath struct{ path, dir string }

// An input is a file or stdin, as the share set files what it holds.
type input struct {
	where    string      // for messages: the quoted path, or "stdin"
	path     string      // "" for stdin
	dir      string      // the folder argument it was found in, if any
	f        *os.File    // nil for stdin
	fi       os.FileInfo // f's, when f is not nil
	isShamir bool        // named *.shamir: holding no share, it is a bad one
}

// file files the content c of the input in. It reports whether in's file
// stays open: it holds an SSMS share, to be read later, that cannot be
// opened again when it is (see sharefiles.go).
func (set *shareSet) file(in input, c content) (keep bool, err error) {
	switch c.kind {
	case kindNone:
		set.noShares(in.where, in.isShamir, c.why)
	case kindAside:
		if c.fips {
			set.ageRefused++
		}
		set.ignored = append(set.ignored, problem{in.where, c.why})
	case kindSSMS:
		s := &ssmsShare{where: in.where, path: in.path, dir: in.dir, r: c.r, size: c.size, sealed: c.sealed}
		switch {
		case in.f != nil && c.plain && in.fi.Mode().IsRegular():
			// Read again when the shares are read, from the
			// start: the classifier only peeked at it.
			pf := set.files.add(in.path, in.fi)
			s.f, s.r = pf, bufio.NewReaderSize(io.NewSectionReader(pf, 0, 1<<62), 64<<10)
		case in.f != nil && c.age != nil && c.age.key != nil && in.fi.Mode().IsRegular():
			// An age file: decrypted again, with the file key that
			// opened it, when the shares are read.
			pf := set.files.add(in.path, in.fi)
			s.f, s.r = pf, bufio.NewReaderSize(&ageReopen{f: pf, layer: c.age}, 64<<10)
		case in.f != nil:
			// A pipe or a device, read once as it comes: kept open.
			s.f, keep = in.f, true
		}
		set.addSSMS(s, c.head)
	case kindText:
		return false, set.addText(in.where, c.text)
	case kindPaper:
		for _, p := range c.paper {
			set.addPaper(p)
		}
	case kindSSSS:
		set.ssss = append(set.ssss, c.ssss...)
		set.ssssFrom = append(set.ssssFrom, fmt.Sprintf("%s (%s)", in.where, count(len(c.ssss), "share")))
		set.ignored = append(set.ignored, c.ignored...)
	}
	return keep, nil
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

// addText adds the Vault-format shares of the text t, from where.
func (set *shareSet) addText(where string, t *vaultText) error {
	if t.threshold != 0 {
		from := fmt.Sprintf("%s in %s", t.field, where)
		if set.threshold != 0 && set.threshold != t.threshold {
			return withHints(fmt.Errorf("the thresholds in the inputs differ: %d (%s) and %d (%s)", set.threshold, set.thresholdFrom, t.threshold, from),
				"give the threshold with -t")
		}
		set.threshold, set.thresholdFrom = t.threshold, from
	}
	if t.note != "" {
		// A note, perhaps, which has no say in the format (see
		// decideFormat).
		set.mixed = append(set.mixed, mixedText{where, t.note, t.shares, len(set.ignored), len(set.text), len(set.textFrom)})
		return nil
	}
	set.text = append(set.text, t.shares...)
	set.textFrom = append(set.textFrom, fmt.Sprintf("%s (%s)", where, count(len(t.shares), "share")))
	return nil
}

// A mixedText is a text that could be Vault-format shares, but may be a
// note: some of its lines cannot be shares, or none is long enough to be
// told from a word.
type mixedText struct {
	where  string
	why    string // why it may be a note
	shares []textShare
	// Its places among the inputs ignored, the shares and the inputs
	// that gave them, to keep the inputs' order in messages.
	at, textAt, fromAt int
}

// addPaper adds a share read from paper: an SSMS share, or a Vault-format
// one. One that does not decode is a bad share.
func (set *shareSet) addPaper(p paperPiece) {
	switch {
	case p.err != nil:
		set.notSSMS = append(set.notSSMS, problem{p.where, "mistyped: " + p.err.Error()})
	case p.ssms:
		set.addSSMS(&ssmsShare{where: p.where, r: bufio.NewReader(bytes.NewReader(p.data)), size: int64(len(p.data)), data: p.data}, p.data)
	default:
		set.text = append(set.text, textShare{where: p.where, data: p.data})
		set.textFrom = append(set.textFrom, p.where+" (paper)")
	}
}

// addStdin adds the shares on stdin: typed on a terminal, one per line, or
// piped: an SSMS share, or lines of text.
func (set *shareSet) addStdin() error {
	if isTerminal(os.Stdin) {
		// With the threshold known, the prompt shows the progress, as
		// Vault's does, and stops at the threshold when nothing else
		// gives shares.
		stop := 0
		if set.want != 0 && set.onlyStdin {
			stop = set.want
			fmt.Fprintf(os.Stderr, "Type or paste %d shares, one per line (they are not shown).\n", stop)
		} else {
			fmt.Fprintln(os.Stderr, "Type or paste the shares, one per line (they are not shown); an empty line ends.")
		}
		n := 0
		for i := 1; stop == 0 || n < stop; i++ {
			prompt := fmt.Sprintf("Share %d: ", i)
			if set.want != 0 && n < set.want {
				prompt = fmt.Sprintf("Share %d/%d: ", n+1, set.want)
			}
			line, err := readHidden(prompt)
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
			if isPaperShare(tok) {
				// A share from paper spans lines, each checked as
				// it is typed.
				if err := set.addTypedPaper(fmt.Sprintf("typed share %d", i), tok); err != nil {
					return fmt.Errorf("reading shares from the terminal: %v", err)
				}
				n++
				continue
			}
			if s, perr := ssss.Parse(tok); perr == nil && set.decode == "" {
				// A share of ssss, as ssss-combine takes them.
				set.ssss = append(set.ssss, ssssShare{fmt.Sprintf("typed share %d", i), s})
				if len(set.ssss) == 1 {
					set.ssssFrom = append(set.ssssFrom, "the terminal")
				}
			} else {
				set.text = append(set.text, textShare{where: fmt.Sprintf("typed share %d", i), token: tok})
			}
			n++
			if err != nil {
				break
			}
		}
		if n > len(set.ssss) {
			set.textFrom = append(set.textFrom, "the terminal ("+count(n-len(set.ssss), "typed share")+")")
		} else if n == 0 {
			set.ignored = append(set.ignored, problem{"the terminal", "no share typed"})
		}
		return nil
	}
	c, err := set.classify(bufio.NewReaderSize(os.Stdin, copyBufSize), "stdin", -1)
	if err != nil {
		return err
	}
	_, err = set.file(input{where: "stdin"}, c)
	return err
}

// close closes the share files left open.
func (set *shareSet) close() {
	for _, s := range set.ssms {
		if s.f != nil {
			s.f.Close()
		}
	}
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
	// A text that may be a note is a note beside SSMS shares, and never
	// a vote for the Vault format; alone, or beside other Vault-format
	// shares, its lines are shares, and those that are not are named as
	// bad ones (a stray line in a file of keys).
	for i := len(set.mixed) - 1; i >= 0; i-- { // last first, for m.at
		m := set.mixed[i]
		if len(set.ssms) > 0 || len(set.ssss) > 0 {
			set.ignored = slices.Insert(set.ignored, m.at, problem{m.where, "not a share file (" + m.why + ")"})
			continue
		}
		set.text = slices.Insert(set.text, m.textAt, m.shares...)
		set.textFrom = slices.Insert(set.textFrom, m.fromAt, fmt.Sprintf("%s (%s)", m.where, count(len(m.shares), "line")))
	}
	set.mixed = nil
	if len(set.ssss) > 0 {
		return false, set.decideSSSS(cmd)
	}
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
	if set.ageRefused > 0 {
		return false, fmt.Errorf("no shares among the inputs: %s encrypted with age, which FIPS 140-only mode (GODEBUG=fips140=only) cannot open",
			count(set.ageRefused, "file is", "files are"))
	}
	return false, withHints(errors.New("no shares among the inputs"),
		fmt.Sprintf("give share files, folders of them, or Vault-format shares on stdin; run \"shamir %s -h\" for how", cmd))
}

// decideSSSS checks that the shares gathered are ssss shares alone, for
// combine and verify, the commands that read them.
func (set *shareSet) decideSSSS(cmd string) error {
	var others []string
	if len(set.ssms) > 0 {
		var files []string
		for _, s := range set.ssms {
			files = append(files, s.where)
		}
		sort.Strings(files)
		others = append(others, "SSMS shares: "+strings.Join(files, ", "))
	}
	if len(set.text) > 0 {
		others = append(others, "Vault-format shares: "+strings.Join(set.textFrom, ", "))
	}
	if len(others) > 0 {
		return withHints(fmt.Errorf("the inputs hold shares of two formats:\nssss shares: %s\n%s",
			strings.Join(set.ssssFrom, ", "), strings.Join(others, "\n")),
			"give the shares of one secret, of one format")
	}
	// Files named *.shamir that hold no share are noted, not counted.
	set.ignored = append(set.ignored, set.notSSMS...)
	set.notSSMS = nil
	if cmd != "combine" && cmd != "verify" {
		return ssssElsewhere(cmd)
	}
	return nil
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

// readAtMost reads the file at path, refusing one over limit bytes with
// "PATH is over OVER", over saying how much that is and why it is too much.
func readAtMost(path string, limit int64, over string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", quote(path), unwrapPath(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is over %s", quote(path), over)
	}
	return data, nil
}
