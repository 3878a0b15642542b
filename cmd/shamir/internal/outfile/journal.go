package outfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A set with a journal (Set.Journal, and Set.ReplaceInPlace, which implies
// it) is committed as one transaction, whatever folders its files are in:
// the share files of a refresh, those reached through symbolic links into
// other folders, and the manifest. Its commit has one commit point:
//
//  1. in each folder, the journal .shamir-ID.journal is made before the
//     first new file, holding the beginning of the plan (the folders
//     known: see journalFor), and every new file is written under a
//     temporary name after it (.shamir-ID-RANDOM.tmp) beside the file it
//     replaces, which is untouched: a file a stopped change left is
//     always one its journal answers for;
//  2. the plan (every folder, and in each the temporary name and the
//     file's name) is written over it, in one write each, in the first
//     folder of the set, the primary, then in each of the others, each
//     ending with a line of spaces, room for the commit line; the others'
//     journals are synced, then every folder, which makes the names of the
//     new files and of the journals durable, then every new file;
//  3. the commit point: the line "commit" and the SHA-256 of the plan
//     above it is written over the room in the primary's journal, and
//     that journal is synced;
//  4. each new file is renamed over its old one, and the folders synced;
//  5. the journals in the other folders are removed (and their folders
//     synced), then the primary's.
//
// So a run stopped anywhere (a kill, a power cut) leaves either
//
//   - no journal: nothing was changed, or the change is whole (step 5
//     removes the primary's last);
//   - journals, and none in the primary folder that ends with its commit
//     line (the journal is missing there, or without that line, or holds
//     only the beginning of the plan, or, cut by a power cut, less):
//     stopped before the commit point, every old file is untouched;
//     undoing it (removing the temporary files, those the plan names and
//     those named after the journal, and the journals) is the only way on;
//   - the primary's journal whole, with its commit line: stopped after it,
//     every new file is whole, its name durable (step 2 synced the
//     folders before the line was written), and each is either under its
//     temporary name or in place; finishing it (renaming the temporary
//     files that are left, then removing the journals) is the only way on.
//
// The commit point costs two syncs beyond those of the files themselves
// and of their folders after the renames (which any replacement makes):
// the folders' at step 2 and the primary journal's at step 3. Neither can
// go: without the first, a power cut could keep the commit line and lose
// the name of a new file; without the second, keep a renamed file and
// lose the commit line. Both are cheap: the first is made before the new
// files' own syncs, whose blocks it commits with the journals' (on ext4),
// and the second rewrites one block of a file whose size and blocks it
// does not change, with no record of the file system's to commit.
//
// Interrupted tells which, for a folder, with every folder the run
// touched; Resume carries it out. The lock of every folder (Lock) is held
// through the commit, so no other writer sees a state between.

// Journal makes Commit a transaction with one commit point over every
// file of the set (see above), for the command named command. Files whose
// destination exists are replaced only with force or ReplaceInPlace, as
// without a journal.
func (s *Set) Journal(command string) {
	if !TestHookNoJournal {
		s.journal = command
	}
}

// TestHookNoJournal, set, makes sets commit without a journal, each file
// renamed over its old one and the folders synced, as a set without one
// does: it is for the benchmark that measures what the journal costs, and
// for nothing else, since a run stopped in such a commit can leave new and
// old files that do not go together, and nothing says so.
var TestHookNoJournal bool

// BeforeCommit makes Commit call check once every folder of the set is
// locked, before the commit point: a check that the files the run read are
// still those it read. An error from it stops the commit, which then
// changes nothing.
func (s *Set) BeforeCommit(check func() error) { s.check = check }

// TempName returns the temporary name of the file of the set being written
// to dest, or "" for none: what a command reads back before the commit
// (the SHA-256 of a new share, for the manifest of the same commit).
func (s *Set) TempName(dest string) string {
	live.Lock()
	defer live.Unlock()
	for _, p := range s.pending {
		if p.dest == dest {
			return p.tmp
		}
	}
	return ""
}

// TestHookStep, when not nil, is called before each step of a commit that
// changes the disk (each sync, write, rename and removal), with what it is
// about to do. It is for tests, which stop the process there as a power
// cut would.
var TestHookStep func(op, path string)

func step(op, path string) {
	if TestHookStep != nil {
		TestHookStep(op, path)
	}
}

const (
	extJournal   = ".journal"
	extCommitted = ".committed" // a journal's name after its commit point, in development versions of shamir
	extLock      = ".lock"
	journalMagic = "shamir journal 2"
	commitWord   = "commit"
)

// A plan is what a journal holds: the folders of a commit, the primary
// first, and the renames in each.
type plan struct {
	id      string // the RANDOM of .shamir-RANDOM.journal
	command string
	folders []string
	renames [][]rename // per folder
	commit  bool       // the journal ends with its commit line
	torn    bool       // the journal was cut short by a power cut, or is empty: it holds no plan
}

// A rename is one file of a plan: base names in one folder.
type rename struct{ tmp, dest string }

// journalName returns the name of the journal of plan id in dir.
func journalName(dir, id string) string {
	return filepath.Join(dir, namePrefix+id+extJournal)
}

// body returns the plan as its journal holds it, without the commit line.
func (p *plan) body() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ncommand %s\n", journalMagic, strconv.Quote(p.command))
	for i, dir := range p.folders {
		fmt.Fprintf(&b, "folder %s\n", strconv.Quote(dir))
		for _, r := range p.renames[i] {
			fmt.Fprintf(&b, "rename %s %s\n", strconv.Quote(r.tmp), strconv.Quote(r.dest))
		}
	}
	return b.Bytes()
}

// commitLine returns the commit line of a journal whose plan is body.
func commitLine(body []byte) []byte {
	sum := sha256.Sum256(body)
	return []byte(commitWord + " " + hex.EncodeToString(sum[:]) + "\n")
}

// room is the last line of a journal before its commit point: spaces, as
// long as the commit line that is written over it, so that the commit
// changes neither the journal's size nor its blocks, and its sync writes
// one block, with no change to the file system's own records.
var room = append(bytes.Repeat([]byte(" "), len(commitLine(nil))-1), '\n')

// commitJournal is Commit for a set with a journal. It is called with
// every file written, and syncs and closes them.
func (s *Set) commitJournal() error {
	p := &plan{id: s.id, command: s.journal}
	index := map[string]int{}
	for _, f := range s.pending {
		if f.tmp == "" {
			continue
		}
		dir, err := filepath.Abs(filepath.Dir(f.target))
		if err != nil {
			return pathError(err)
		}
		i, ok := index[dir]
		if !ok {
			i = len(p.folders)
			index[dir] = i
			p.folders = append(p.folders, dir)
			p.renames = append(p.renames, nil)
		}
		p.renames[i] = append(p.renames[i], rename{filepath.Base(f.tmp), filepath.Base(f.target)})
	}
	if len(p.folders) == 0 {
		return s.syncAll()
	}
	for _, dir := range p.folders {
		if err := Lock(dir, s.journal); err != nil {
			return err
		}
	}
	if s.check != nil {
		if err := s.check(); err != nil {
			return err
		}
	}
	if !s.force {
		for _, f := range s.pending {
			if _, err := os.Lstat(f.target); f.tmp != "" && !f.replace && err == nil {
				return existsError(f.dest)
			}
		}
	}
	// Every new file is still there: one removed meanwhile (by someone
	// told it was a leftover) would leave its old file among new ones.
	for _, f := range s.pending {
		if _, err := os.Lstat(f.tmp); f.tmp != "" && err != nil {
			return fmt.Errorf("the new %s was removed while it was written; nothing was changed", quote(f.dest))
		}
	}
	// Step 2: the journals, the primary's first, so that one in another
	// folder always has it to go by; then the others' synced, then the
	// folders. Each was made, with the beginning of the plan, before the
	// first new file in its folder (journalFor).
	body := p.body()
	var written []*os.File
	for _, dir := range p.folders {
		f := s.journals[dir]
		if f == nil {
			return fmt.Errorf("cannot write the journal in %s: no journal was made there", quote(dir))
		}
		if err := writePlan(f, body); err != nil {
			return err
		}
		written = append(written, f)
		startWriteback(f)
	}
	for _, f := range written[1:] {
		step("sync journal", f.Name())
		if err := datasync(f); err != nil {
			return fmt.Errorf("cannot write the journal in %s: %v", quote(filepath.Dir(f.Name())), unwrap(err))
		}
	}
	for _, dir := range p.folders {
		step("sync folder", dir)
		syncDir(dir)
	}
	// The new files' data, which is on its way already: the order of
	// these syncs and the folders' does not matter, so long as all are
	// done before the commit line is written. (On Linux's ext4, the
	// folder's sync commits every new file's blocks at once, and each of
	// these then only waits for the disk.)
	if err := s.syncAll(); err != nil {
		return err
	}
	// Step 3: the commit point.
	primary, pj := p.folders[0], written[0]
	step("commit", pj.Name())
	_, err := pj.WriteAt(commitLine(body), int64(len(body)))
	if err == nil {
		step("sync journal", pj.Name())
		err = datasync(pj)
	}
	if err != nil {
		// Whether the line reached the disk is not known: the primary's
		// journal goes first, so that no commit line outlives the
		// removal of a new file. (Commit's abort removes the rest.)
		os.Remove(pj.Name())
		syncDir(primary)
		return fmt.Errorf("cannot commit the change in %s: %v", quote(primary), unwrap(err))
	}
	// Past the commit point, the journals are the plan's, no longer the
	// set's to remove.
	for _, f := range s.journals {
		f.Close()
	}
	s.journals, s.jorder = nil, nil
	// Steps 4 and 5. The files are all whole: what fails now is finished
	// by Resume.
	if err := p.finish(); err != nil {
		return &committedError{withHints(fmt.Errorf("the change is committed, but could not be finished: %v", err),
			"finish it with: shamir resume "+quote(display(primary)))}
	}
	return nil
}

// A committedError is a commit that failed after its commit point: its new
// files are kept, for Resume.
type committedError struct{ err error }

func (e *committedError) Error() string { return e.err.Error() }
func (e *committedError) Unwrap() error { return e.err }

// display returns the absolute path dir as a user would name it: relative
// to the current folder when it is below it.
func display(dir string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, dir); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return dir
}

// writePlan writes the journal body into the empty journal f, and the
// room for its commit line, in one write, unsynced.
func writePlan(f *os.File, body []byte) error {
	step("write journal", f.Name())
	if _, err := f.WriteAt(append(body[:len(body):len(body)], room...), 0); err != nil {
		return fmt.Errorf("cannot write the journal in %s: %v", quote(filepath.Dir(f.Name())), unwrap(err))
	}
	return nil
}

// finish carries out a committed plan from where it stopped: the
// temporary files left are renamed into place, then the journals removed,
// the primary's last. A temporary file that is not there was renamed
// already: past the commit point, the name of each is durable (step 2),
// and only its rename takes it away.
func (p *plan) finish() error {
	for i, dir := range p.folders {
		if !p.hasJournal(i) {
			continue // done already, or not of this change
		}
		for _, r := range p.renames[i] {
			tmp := filepath.Join(dir, r.tmp)
			step("rename", tmp)
			if err := os.Rename(tmp, filepath.Join(dir, r.dest)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("cannot move the new %s into place: %v", quote(filepath.Join(dir, r.dest)), unwrap(err))
			}
		}
		step("sync folder", dir)
		syncDir(dir)
	}
	return p.removeJournals()
}

// undo removes what a plan stopped before its commit point made: the
// temporary files, those its journal names and those named after it (made
// before the journal held the plan), then the journals, the primary's
// last.
func (p *plan) undo() error {
	for i := range p.folders {
		if !p.hasJournal(i) {
			continue // done already, or not of this change
		}
		for _, tmp := range p.temps(i) {
			step("unlink", tmp)
			if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return pathError(err)
			}
		}
	}
	return p.removeJournals()
}

// temps returns the temporary files of the plan in its folder i: those its
// journal names, and those there named after its ID.
func (p *plan) temps(i int) []string {
	var tmps []string
	seen := map[string]bool{}
	for _, r := range p.renames[i] {
		seen[r.tmp] = true
		tmps = append(tmps, filepath.Join(p.folders[i], r.tmp))
	}
	ents, _ := os.ReadDir(p.folders[i])
	for _, e := range ents {
		if n := e.Name(); !seen[n] && p.names(n) {
			tmps = append(tmps, filepath.Join(p.folders[i], n))
		}
	}
	return tmps
}

// leftBehind returns, quoted for a message, the temporary files of the
// plan in every folder that holds its journal, and those journals, the
// primary's last: what undoing it removes.
func (p *plan) leftBehind() (tmps, journals []string) {
	for i := range p.folders {
		if p.hasJournal(i) {
			for _, t := range p.temps(i) {
				tmps = append(tmps, quote(display(t)))
			}
		}
	}
	for i := len(p.folders) - 1; i >= 0; i-- {
		if p.hasJournal(i) {
			journals = append(journals, quote(display(journalName(p.folders[i], p.id))))
		}
	}
	return tmps, journals
}

// names reports whether name is that of a temporary file of the plan:
// .shamir-ID-RANDOM.tmp.
func (p *plan) names(name string) bool {
	rest, ok := strings.CutPrefix(name, namePrefix+p.id+"-")
	return ok && strings.HasSuffix(rest, extTmp) && IsLeftover(name)
}

// hasJournal reports whether the folder i of p holds a journal of it. A
// folder's journal is removed only once its part is done, so one without
// is done already; and a plan, which is read from a folder, acts on no
// folder that does not say it is part of it: a journal planted in one
// folder renames or removes nothing in another.
func (p *plan) hasJournal(i int) bool {
	_, err := os.Lstat(journalName(p.folders[i], p.id))
	return err == nil
}

// removeJournals removes the journals of p, the primary's last.
func (p *plan) removeJournals() error {
	for i := len(p.folders) - 1; i >= 0; i-- {
		j := journalName(p.folders[i], p.id)
		step("unlink", j)
		if err := os.Remove(j); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return pathError(err)
		}
		// The other folders' removals are made durable before the
		// primary's: a journal of theirs back after a power cut,
		// without the primary's, would read as a change stopped before
		// its commit. The primary's last one need not be: back, it
		// reads as committed and all done, which resume tidies.
		if i > 0 {
			step("sync folder", p.folders[i])
			syncDir(p.folders[i])
		}
	}
	return nil
}

// maxJournal bounds the size of a journal that Interrupted reads: a few
// hundred files of names of 255 bytes, in a few folders.
const maxJournal = 1 << 20

// readPlan reads the journal at path. Its names are base names in folders
// given by absolute paths: anything else is not a journal a set wrote,
// except one cut short: empty, or a part of a journal followed by nothing
// or by zero bytes, as a power cut can leave one written but not synced
// (step 2), which is read as a torn plan of the folder it is in.
func readPlan(path string) (*plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxJournal+1))
	if err != nil {
		return nil, pathError(err)
	}
	bad := fmt.Errorf("%s is not a journal of shamir", quote(path))
	if len(data) > maxJournal {
		return nil, bad
	}
	id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), namePrefix), extJournal)
	// Its last line is the room kept for the commit line, or the commit
	// line written over it. Anything else was cut short by a power cut
	// (before step 2's sync, or step 3's: a commit line that was not
	// written whole, or does not match the plan), or is not a journal.
	body, whole, commit := data, false, false
	if n := len(data) - len(room); n >= 0 {
		switch last := data[n:]; {
		case bytes.Equal(last, room):
			body, whole = data[:n], true
		case bytes.Equal(last, commitLine(data[:n])):
			body, whole, commit = data[:n], true, true
		}
	}
	if whole {
		p, ok := parsePlan(body, false)
		if !ok {
			return nil, bad
		}
		p.id, p.commit = id, commit
		return p, nil
	}
	if pp, ok := parsePlan(bytes.TrimRight(data, "\x00"), true); ok {
		p := tornPlan(path, id)
		// The beginning of a plan names the folders known when it was
		// cut: the primary's first, and this one among them.
		if pp != nil && len(pp.folders) > 0 && slices.Contains(pp.folders, p.folders[0]) {
			p.folders, p.renames = pp.folders, make([][]rename, len(pp.folders))
		}
		return p, nil
	}
	if n := len(data) - len(room); n >= 0 {
		if _, ok := parsePlan(data[:n], false); ok {
			return tornPlan(path, id), nil
		}
	}
	return nil, bad
}

// tornPlan returns the plan of a journal cut short: nothing is known of it
// but that it was stopped before its commit point, in its folder.
func tornPlan(path, id string) *plan {
	dir, _ := filepath.Abs(filepath.Dir(path))
	return &plan{id: id, folders: []string{dir}, renames: [][]rename{nil}, torn: true}
}

// parsePlan parses the plan of a journal without its commit line. With
// prefix, it reports instead whether data is the beginning of one: its
// whole lines valid, its last one maybe cut.
func parsePlan(data []byte, prefix bool) (*plan, bool) {
	text := string(data)
	if prefix {
		i := strings.LastIndexByte(text, '\n')
		last := text[i+1:]
		text = text[:i+1]
		if text == "" {
			return nil, strings.HasPrefix(journalMagic+"\n", last)
		}
	} else if !strings.HasSuffix(text, "\n") {
		return nil, false
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if lines[0] != journalMagic || !prefix && len(lines) < 3 {
		return nil, false
	}
	p := &plan{}
	for _, line := range lines[1:] {
		word, rest, _ := strings.Cut(line, " ")
		args, ok := quotedArgs(rest)
		switch {
		case !ok:
			return nil, false
		case word == "command" && len(args) == 1 && p.command == "":
			p.command = args[0]
		case word == "folder" && len(args) == 1 && filepath.IsAbs(args[0]) && filepath.Clean(args[0]) == args[0]:
			p.folders = append(p.folders, args[0])
			p.renames = append(p.renames, nil)
		case word == "rename" && len(args) == 2 && len(p.folders) > 0 && isBase(args[0]) && isBase(args[1]) && IsLeftover(args[0]):
			p.renames[len(p.folders)-1] = append(p.renames[len(p.folders)-1], rename{args[0], args[1]})
		default:
			return nil, false
		}
	}
	return p, prefix || len(p.folders) > 0
}

// quotedArgs splits s into Go-quoted strings separated by spaces.
func quotedArgs(s string) ([]string, bool) {
	var args []string
	for s != "" {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, false
		}
		u, _ := strconv.Unquote(q)
		args = append(args, u)
		s = strings.TrimPrefix(s[len(q):], " ")
	}
	return args, true
}

// isBase reports whether name is a file's name in a folder, not a path.
func isBase(name string) bool {
	return name != "" && name != "." && name != ".." && name == filepath.Base(name) && !strings.ContainsRune(name, '/')
}

// reference returns the plan as the primary folder's journal tells it:
// that journal, read again if p was read elsewhere (it has the whole plan,
// as the others do, and says whether the commit point was passed). Without
// it, or with one cut short, it is p, before its commit point.
func (p *plan) reference(path string) *plan {
	j := journalName(p.folders[0], p.id)
	if p.torn || j == path {
		return p
	}
	pp, err := readPlan(j)
	if err != nil || pp.torn {
		q := *p
		q.commit = false
		return &q
	}
	return pp
}

// journalsIn returns the journals in the folder dir: the names of the
// .shamir-ID.journal files.
func journalsIn(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	return journalsAmong(dir, ents)
}

// journalsAmong is journalsIn for the entries ents of dir.
func journalsAmong(dir string, ents []os.DirEntry) []string {
	var js []string
	for _, e := range ents {
		if n := e.Name(); IsLeftover(n) && strings.HasSuffix(n, extJournal) {
			js = append(js, filepath.Join(dir, n))
		}
	}
	return js
}

// Resume finishes, or undoes, the changes that runs stopped halfway left in
// the folder dir (see Interrupted): finishes one stopped after its commit
// point, undoes one stopped before it, in every folder it touched, each
// locked first. It returns what it did, one line per change.
func Resume(dir, command string) ([]string, error) {
	if err := Lock(dir, command); err != nil {
		return nil, err
	}
	var did []string
	seen := map[string]bool{}
	for _, j := range journalsIn(dir) {
		p, err := readPlan(j)
		if err != nil {
			return did, err
		}
		if seen[p.id] {
			continue
		}
		seen[p.id] = true
		for _, f := range p.folders {
			if err := Lock(f, command); err != nil {
				return did, err
			}
		}
		p = p.reference(j)
		switch {
		case p.commit:
			if err := p.finish(); err != nil {
				return did, err
			}
			did = append(did, fmt.Sprintf("finished the change of shamir %s (it had passed its commit point): %s", p.command, p.files(true)))
		case p.torn:
			tmps, js := p.leftBehind()
			if err := p.undo(); err != nil {
				return did, err
			}
			did = append(did, fmt.Sprintf("undid a change stopped before its commit point, before its journal held its plan: removed %s",
				strings.Join(append(tmps, js...), ", ")))
		default:
			if err := p.undo(); err != nil {
				return did, err
			}
			did = append(did, fmt.Sprintf("undid the change of shamir %s (it had not reached its commit point): %s", p.command, p.files(false)))
		}
	}
	return did, nil
}

// files spells out the files of the plan: those now new (finished) or
// those now as they were (undone).
func (p *plan) files(finished bool) string {
	var fs []string
	for i, dir := range p.folders {
		for _, r := range p.renames[i] {
			fs = append(fs, quote(display(filepath.Join(dir, r.dest))))
		}
	}
	return strings.Join(fs, ", ") + pick(finished, " are new", " are as they were")
}
