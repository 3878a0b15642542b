// Package outfile writes the files of one run of shamir as a set: all of
// them or none. Each regular file is written under a short temporary name
// in its destination's folder (see IsLeftover) and moved into place by
// Commit only once every file of the set is complete, so that a run that
// fails, or is stopped by a signal (CatchSignals), leaves no half-written
// share or secret behind, and no folder it made.
//
// A destination that exists is handled as cp and the shell handle it: a
// character device or a named pipe (FIFO) is written into, opened as it is,
// and never replaced, with or without -f; a regular file is replaced only
// with -f (Set.force), and through a symbolic link the link stays and its
// target is replaced; anything else is refused. A destination that is one
// of the run's inputs is refused (Set.Refuse).
//
// Files are created with mode 0600: shares and secrets are for their
// owner's eyes only.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A Set is the files one run writes.
type Set struct {
	force   bool
	replace bool          // ReplaceInPlace: the destinations are the files read
	journal string        // Journal: the command whose change the commit is (see journal.go)
	check   func() error  // BeforeCommit
	inputs  []os.FileInfo // destinations refused
	pending []*file       // created, not yet committed
	placed  []*file       // moved into place by a commit not yet finished
	dirs    []string      // folders made, outermost first

	// With a journal: its ID, and in each folder a new file goes into
	// (by absolute path) the journal, created, empty, before the first
	// of them (see Journal).
	id       string
	journals map[string]*os.File
	jorder   []string // the folders of journals, in the order made
	jlen     int      // the length of the primary's journal
}

// A file is one file of a set.
type file struct {
	f    *os.File
	dest string // the name given to Create, for messages
	// tmp is the temporary name, and target the name it is moved to
	// (dest, or the file a symbolic link dest points to); both are ""
	// for a device or a pipe, written into as it is.
	tmp, target string
	replace     bool // CreateReplacing: may replace the file at dest
}

// live holds the sets not yet committed or aborted, for the signal handler
// to clean up. Every file and folder is created with live locked, and not at
// all once stopping is set, so the handler, which sets it, removes every
// one.
var live struct {
	sync.Mutex
	sets     map[*Set]bool
	stopping bool
}

// ErrStopping is returned by a set asked to create a file after a signal.
var ErrStopping = errors.New("stopping")

// New returns an empty set; force lets it replace existing regular files.
func New(force bool) *Set {
	s := &Set{force: force}
	live.Lock()
	if live.sets == nil {
		live.sets = make(map[*Set]bool)
	}
	live.sets[s] = true
	live.Unlock()
	return s
}

// Refuse makes Create refuse a destination that is one of files (by
// os.SameFile), with or without force: the inputs of the run, which
// replacing would destroy.
func (s *Set) Refuse(files []os.FileInfo) { s.inputs = append(s.inputs, files...) }

// ReplaceInPlace makes the set replace files that exist, as refresh does
// to the share files it reads, keeping each old file untouched until the
// new ones are all written, and then committing them with a journal (see
// Journal). A run stopped in the commit, as by a power cut, is told by
// Interrupted and finished or undone by Resume.
func (s *Set) ReplaceInPlace() {
	s.force, s.replace = true, true
	if TestHookNoJournal {
		s.journal = ""
		return
	}
	if s.journal == "" {
		s.journal = "change"
	}
}

// MkdirAll makes the folder dir and any of its parents that are missing,
// with mode 0700, and remembers those it made, for Abort to remove.
func (s *Set) MkdirAll(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return pathError(err)
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	live.Lock()
	defer live.Unlock()
	for i := len(missing) - 1; i >= 0; i-- {
		if live.stopping {
			return ErrStopping
		}
		if err := os.Mkdir(missing[i], 0o700); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made meanwhile by someone else: not ours
			}
			return pathError(err)
		}
		s.dirs = append(s.dirs, missing[i])
	}
	return nil
}

// Create starts the file that Commit puts at dest, and returns where to
// write it. The set owns the file: callers write to it and never close it.
// A destination that cannot be written is refused at once, before any work
// is done; Commit checks again, atomically, that no file has appeared at a
// new destination meanwhile.
func (s *Set) Create(dest string) (io.Writer, error) { return s.create(dest, false) }

// CreateReplacing is Create for a file that may replace the one at dest,
// with or without force: the manifest a lifecycle command rewrites in the
// same commit as the new shares it makes.
func (s *Set) CreateReplacing(dest string) (io.Writer, error) { return s.create(dest, true) }

func (s *Set) create(dest string, replace bool) (io.Writer, error) {
	d, err := examine(dest, s.force || s.replace || replace, s.inputs)
	if err != nil {
		return nil, err
	}
	if d.stream {
		// As cp and the shell do: no O_CREATE, no O_TRUNC, nothing
		// renamed over it. Opening a pipe waits for its reader, for
		// ever if none comes: it is done without live locked, so that
		// a stop signal is handled meanwhile (and the program ends
		// with the open pending, having written nothing).
		f, err := os.OpenFile(dest, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("cannot write %s: %v", quote(dest), unwrap(err))
		}
		live.Lock()
		defer live.Unlock()
		if live.stopping {
			f.Close()
			return nil, ErrStopping
		}
		s.pending = append(s.pending, &file{f: f, dest: dest})
		return f, nil
	}
	var jdir string // a folder whose journal is to be made first
	if s.journal != "" {
		step("create", dest)
		if jdir, err = filepath.Abs(filepath.Dir(d.target)); err != nil {
			return nil, pathError(err)
		}
		if s.journals[jdir] != nil {
			jdir = ""
		} else {
			if s.id == "" {
				s.id = strings.TrimPrefix(newName("", ""), namePrefix)
			}
			step("create journal", journalName(jdir, s.id))
		}
	}
	live.Lock()
	defer live.Unlock()
	if live.stopping {
		return nil, ErrStopping
	}
	if jdir != "" {
		err = s.journalFor(jdir)
	}
	var f *os.File
	var tmp string
	if err == nil {
		f, tmp, err = createTemp(filepath.Dir(d.target), s.id)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("cannot create %s: folder %s does not exist", quote(dest), quote(filepath.Dir(dest)))
		}
		return nil, fmt.Errorf("cannot create %s: %v", quote(dest), unwrap(err))
	}
	s.pending = append(s.pending, &file{f: f, dest: dest, tmp: tmp, target: d.target, replace: replace})
	return f, nil
}

// Streams reports whether any file of the set is written straight into a
// character device or a pipe: what went there cannot be taken back.
func (s *Set) Streams() bool {
	for _, p := range s.pending {
		if p.tmp == "" {
			return true
		}
	}
	return false
}

// Commit flushes every file of the set to disk and moves it into place. If
// any step fails, it undoes the others, so the set appears whole or not at
// all, except what went into a device or a pipe, which cannot be taken
// back, and, with force and outside ReplaceInPlace, a file it replaced.
func (s *Set) Commit() error {
	live.Lock()
	defer live.Unlock()
	// Every file's data is on its way to the disk before the first sync,
	// so that the file system can commit their new blocks at once.
	for _, p := range s.pending {
		if p.tmp != "" {
			startWriteback(p.f)
		}
	}
	var err error
	if s.journal != "" {
		err = s.commitJournal() // which syncs the files once its journals are written
	} else if err = s.syncAll(); err == nil {
		err = s.placeAll()
	}
	var ce *committedError
	if errors.As(err, &ce) {
		// Past the commit point, the new files are kept for Resume.
		s.pending, s.placed, s.dirs = nil, nil, nil
		delete(live.sets, s)
		return err
	}
	if err != nil {
		s.abortLocked()
		return err
	}
	if s.journal == "" {
		// A journal's commit synced its folders itself.
		for _, dir := range s.targetDirs() {
			syncDir(dir)
		}
	}
	s.pending, s.placed, s.dirs = nil, nil, nil
	delete(live.sets, s)
	return nil
}

// syncAll flushes every file of the set to disk, and closes it.
func (s *Set) syncAll() error {
	var err error
	for _, p := range s.pending {
		// Sync before the rename: otherwise a crash could leave the final
		// name pointing at a file whose data never reached the disk. A
		// pipe or a device need not, and many cannot.
		if p.tmp != "" {
			step("sync", p.tmp)
			if e := p.f.Sync(); e != nil && err == nil {
				err = fmt.Errorf("writing %s: %v", quote(p.dest), unwrap(e))
			}
		}
		if e := p.f.Close(); e != nil && err == nil {
			err = fmt.Errorf("writing %s: %v", quote(p.dest), unwrap(e))
		}
	}
	return err
}

// placeAll moves each file into place.
func (s *Set) placeAll() error {
	for _, p := range s.pending {
		if p.tmp == "" {
			continue
		}
		if err := s.place(p); err != nil {
			return err
		}
		s.placed = append(s.placed, p)
	}
	return nil
}

// place moves the finished temporary file of p to its target.
func (s *Set) place(p *file) error {
	if s.force {
		if err := os.Rename(p.tmp, p.target); err != nil {
			return fmt.Errorf("cannot move the finished file into place as %s: %v", quote(p.dest), unwrap(err))
		}
		return nil
	}
	// A hard link fails if the target exists, so no file that appeared
	// since Create's check is overwritten. Where links are not supported,
	// fall back to checking and renaming.
	err := os.Link(p.tmp, p.target)
	switch {
	case err == nil:
		os.Remove(p.tmp)
		return nil
	case errors.Is(err, fs.ErrExist):
		return existsError(p.dest)
	}
	if _, err := os.Lstat(p.target); err == nil {
		return existsError(p.dest)
	}
	if err := os.Rename(p.tmp, p.target); err != nil {
		return fmt.Errorf("cannot move the finished file into place as %s: %v", quote(p.dest), unwrap(err))
	}
	return nil
}

// targetDirs returns the folders the set's files go in.
func (s *Set) targetDirs() []string {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range s.pending {
		if p.tmp == "" {
			continue
		}
		if d := filepath.Dir(p.target); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Abort removes every file of the set: the temporary files, any already
// moved into place by a commit that failed, and the folders it made. It
// does nothing after a successful Commit, so callers defer it.
func (s *Set) Abort() {
	live.Lock()
	defer live.Unlock()
	s.abortLocked()
}

// abortLocked is Abort with live locked. It reports whether there was
// anything to remove.
func (s *Set) abortLocked() bool {
	had := len(s.dirs) > 0
	for _, p := range s.pending {
		p.f.Close()
		if p.tmp != "" {
			os.Remove(p.tmp)
			had = true
		}
	}
	if s.journal == "" {
		// A journal's commit moves nothing before its commit point.
		for _, p := range s.placed {
			os.Remove(p.target)
		}
	}
	// The journals after the files they stand for, the first last.
	for i := len(s.jorder) - 1; i >= 0; i-- {
		f := s.journals[s.jorder[i]]
		f.Close()
		os.Remove(f.Name())
		had = true
	}
	s.journals, s.jorder = nil, nil
	// Innermost first; a folder that is not empty (someone else put a
	// file in it) stays.
	for i := len(s.dirs) - 1; i >= 0; i-- {
		os.Remove(s.dirs[i])
	}
	s.pending, s.placed, s.dirs = nil, nil, nil
	delete(live.sets, s)
	return had
}

// syncDir makes a rename in dir durable. Failure only weakens durability after
// a crash, and some systems cannot sync folders, so it is ignored.
func syncDir(dir string) {
	if d := heldDir(dir); d != nil {
		d.Sync()
		return
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// quote quotes a file name for a message, so that a name that holds a
// terminal's escape sequence is shown, not obeyed.
func quote(name string) string { return strconv.Quote(name) }

// unwrap returns the error inside an *fs.PathError or *os.LinkError, whose
// paths would be temporary names.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// pathError names the file of an *fs.PathError quoted.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, quote(pe.Path), pe.Err)
	}
	return err
}

// journalFor creates the journal of the set in the folder dir (absolute),
// where a new file is about to be made. Until the commit writes the plan
// over it, it holds the beginning of one: the command, the first folder
// (the primary) and, in the primary's, every folder a file is made in, as
// it is added: what a reader of any of them needs to find the others, and
// in each the new files, named after the journal, to remove (see undo).
func (s *Set) journalFor(dir string) error {
	f, err := os.OpenFile(journalName(dir, s.id), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if s.journals == nil {
		s.journals = map[string]*os.File{}
	}
	s.journals[dir] = f
	s.jorder = append(s.jorder, dir)
	head := fmt.Sprintf("%s\ncommand %s\n", journalMagic, strconv.Quote(s.journal))
	line := fmt.Sprintf("folder %s\n", strconv.Quote(dir))
	if len(s.jorder) == 1 {
		s.jlen = len(head) + len(line)
		_, err = f.WriteString(head + line)
		return err
	}
	// A write that fails here only leaves a reader less to go by.
	primary := s.journals[s.jorder[0]]
	if n, err := primary.WriteAt([]byte(line), int64(s.jlen)); err == nil {
		s.jlen += n
	}
	_, err = f.WriteString(head + fmt.Sprintf("folder %s\n", strconv.Quote(s.jorder[0])) + line)
	return err
}
