package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A set with a journal (Set.Journal, and Set.ReplaceInPlace, which implies
// it) is committed as one transaction, whatever folders its files are in:
// the share files of a refresh, those reached through symbolic links into
// other folders, and the manifest. Its commit has one commit point:
//
//  1. every new file is written and synced under its temporary name
//     (.shamir-RANDOM.tmp) beside the file it replaces, which is
//     untouched;
//  2. the plan (every folder, and in each the temporary name and the
//     file's name) is written and synced as .shamir-ID.journal in the
//     first folder of the set, the primary, then in each of the others,
//     and the folders are synced;
//  3. the commit point: the primary's journal is renamed to
//     .shamir-ID.committed, and its folder synced;
//  4. each new file is renamed over its old one, and the folders synced;
//  5. the journals in the other folders are removed, then the primary's.
//
// So a run stopped anywhere (a kill, a power cut) leaves either
//
//   - no journal: nothing was changed, or the change is whole (step 5
//     removes the primary's last); at most temporary files are left, which
//     every reader ignores;
//   - a journal and no .committed in the primary folder: stopped before
//     the commit point, every old file is untouched; undoing it (removing
//     the temporary files and the journals) is the only way on;
//   - the primary's .committed: stopped after it, every new file is whole;
//     finishing it (renaming the temporary files that are left, then
//     removing the journals) is the only way on.
//
// Interrupted tells which, for a folder, with every folder the run
// touched; Resume carries it out. The lock of every folder (Lock) is held
// through the commit, so no other writer sees a state between.

// Journal makes Commit a transaction with one commit point over every
// file of the set (see above), for the command named command. Files whose
// destination exists are replaced only with force or ReplaceInPlace, as
// without a journal.
func (s *Set) Journal(command string) { s.journal = command }

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
	extCommitted = ".committed"
	extLock      = ".lock"
	journalMagic = "shamir journal 1"
)

// A plan is what a journal holds: the folders of a commit, the primary
// first, and the renames in each.
type plan struct {
	id      string // the RANDOM of .shamir-RANDOM.journal
	command string
	folders []string
	renames [][]rename // per folder
}

// A rename is one file of a plan: base names in one folder.
type rename struct{ tmp, dest string }

// journalName returns the name of the journal of plan id in dir, before
// or after (committed) the commit point.
func journalName(dir, id string, committed bool) string {
	return filepath.Join(dir, namePrefix+id+pick(committed, extCommitted, extJournal))
}

// commitJournal is Commit for a set with a journal. It is called with
// every file written, synced and closed.
func (s *Set) commitJournal() error {
	p := &plan{id: strings.TrimPrefix(newName("", ""), namePrefix), command: s.journal}
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
		return nil
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
	// folder always has it to go by.
	var written []string
	for _, dir := range p.folders {
		j := journalName(dir, p.id, false)
		if err := writePlan(j, p); err != nil {
			for _, w := range written {
				os.Remove(w)
			}
			return err
		}
		written = append(written, j)
		step("sync folder", dir)
		syncDir(dir)
	}
	// Step 3: the commit point.
	primary := p.folders[0]
	step("commit", journalName(primary, p.id, false))
	if err := os.Rename(journalName(primary, p.id, false), journalName(primary, p.id, true)); err != nil {
		for _, w := range written {
			os.Remove(w)
		}
		return fmt.Errorf("cannot commit the change in %s: %v", quote(primary), unwrap(err))
	}
	step("sync folder", primary)
	syncDir(primary)
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

// writePlan writes the journal p at path, and syncs it.
func writePlan(path string, p *plan) error {
	step("write journal", path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the journal in %s: %v", quote(filepath.Dir(path)), unwrap(err))
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "%s\ncommand %s\n", journalMagic, strconv.Quote(p.command))
	for i, dir := range p.folders {
		fmt.Fprintf(w, "folder %s\n", strconv.Quote(dir))
		for _, r := range p.renames[i] {
			fmt.Fprintf(w, "rename %s %s\n", strconv.Quote(r.tmp), strconv.Quote(r.dest))
		}
	}
	err = w.Flush()
	if err == nil {
		step("sync journal", path)
		err = f.Sync()
	}
	if e := f.Close(); err == nil {
		err = e
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("cannot write the journal in %s: %v", quote(filepath.Dir(path)), unwrap(err))
	}
	return nil
}

// finish carries out a committed plan from where it stopped: the
// temporary files left are renamed into place, then the journals removed,
// the primary's last.
func (p *plan) finish() error {
	for i, dir := range p.folders {
		if !p.hasJournal(i) {
			continue // done already, or not of this change
		}
		for _, r := range p.renames[i] {
			tmp := filepath.Join(dir, r.tmp)
			if _, err := os.Lstat(tmp); errors.Is(err, fs.ErrNotExist) {
				continue // renamed already
			}
			step("rename", tmp)
			if err := os.Rename(tmp, filepath.Join(dir, r.dest)); err != nil {
				return fmt.Errorf("cannot move the new %s into place: %v", quote(filepath.Join(dir, r.dest)), unwrap(err))
			}
		}
		step("sync folder", dir)
		syncDir(dir)
	}
	return p.removeJournals(true)
}

// undo removes what a plan stopped before its commit point made: the
// temporary files, then the journals, the primary's last.
func (p *plan) undo() error {
	for i, dir := range p.folders {
		if !p.hasJournal(i) {
			continue // done already, or not of this change
		}
		for _, r := range p.renames[i] {
			tmp := filepath.Join(dir, r.tmp)
			step("unlink", tmp)
			if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return pathError(err)
			}
		}
	}
	return p.removeJournals(false)
}

// hasJournal reports whether the folder i of p holds a journal of it. A
// folder's journal is removed only once its part is done, so one without
// is done already; and a plan, which is read from a folder, acts on no
// folder that does not say it is part of it: a journal planted in one
// folder renames or removes nothing in another.
func (p *plan) hasJournal(i int) bool {
	for _, committed := range []bool{false, true} {
		if _, err := os.Lstat(journalName(p.folders[i], p.id, committed)); err == nil {
			return true
		}
	}
	return false
}

// removeJournals removes the journals of p, the primary's (committed or
// not) last.
func (p *plan) removeJournals(committed bool) error {
	for i := len(p.folders) - 1; i >= 0; i-- {
		j := journalName(p.folders[i], p.id, i == 0 && committed)
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
// given by absolute paths: anything else is not a journal a set wrote.
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
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 3 || lines[0] != journalMagic {
		return nil, bad
	}
	base := filepath.Base(path)
	id := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(base, namePrefix), extJournal), extCommitted)
	p := &plan{id: id}
	for _, line := range lines[1:] {
		word, rest, _ := strings.Cut(line, " ")
		args, ok := quotedArgs(rest)
		switch {
		case !ok:
			return nil, bad
		case word == "command" && len(args) == 1 && p.command == "":
			p.command = args[0]
		case word == "folder" && len(args) == 1 && filepath.IsAbs(args[0]) && filepath.Clean(args[0]) == args[0]:
			p.folders = append(p.folders, args[0])
			p.renames = append(p.renames, nil)
		case word == "rename" && len(args) == 2 && len(p.folders) > 0 && isBase(args[0]) && isBase(args[1]) && IsLeftover(args[0]):
			p.renames[len(p.folders)-1] = append(p.renames[len(p.folders)-1], rename{args[0], args[1]})
		default:
			return nil, bad
		}
	}
	if len(p.folders) == 0 {
		return nil, bad
	}
	return p, nil
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

// committed reports whether the plan passed its commit point: its primary
// folder holds its .committed journal.
func (p *plan) committed() bool {
	_, err := os.Lstat(journalName(p.folders[0], p.id, true))
	return err == nil
}

// journalsIn returns the journals in the folder dir: the names of the
// .shamir-ID.journal and .shamir-ID.committed files.
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
		if n := e.Name(); IsLeftover(n) && (strings.HasSuffix(n, extJournal) || strings.HasSuffix(n, extCommitted)) {
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
		// The primary's journal has the whole plan, as the others do;
		// it is read again in case this one is damaged.
		if pp, err := readPlan(journalName(p.folders[0], p.id, p.committed())); err == nil {
			p = pp
		}
		if p.committed() {
			if err := p.finish(); err != nil {
				return did, err
			}
			did = append(did, fmt.Sprintf("finished the change of shamir %s (it had passed its commit point): %s", p.command, p.files(true)))
		} else {
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
