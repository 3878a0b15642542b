package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// An outputSet is the files one run writes: the shares of a split, or the
// secret of a combine, and the folders made for them. Each file is written
// under a temporary name in its destination's folder and moved into place
// only by commit, once every file of the set is complete, so a run that
// fails or is stopped by a signal leaves no half-written share or secret
// behind, and no folder it made. The files are created with mode 0600:
// shares and secrets are for their owner's eyes only.
type outputSet struct {
	force   bool           // replace existing files
	pending []*pendingFile // created, not yet committed
	placed  []string       // destinations already moved into place by commit
	// keepPlaced keeps the files a failed commit had moved into place:
	// set when they replace the files they were made from (refresh in
	// place), which removing them would lose too.
	keepPlaced bool
	dirs       []string // folders made, outermost first
}

type pendingFile struct {
	f    *os.File // open on the temporary name
	dest string
}

// live holds the output sets not yet committed or aborted, for the signal
// handler to clean up. Every file and folder is created with live locked, and
// not at all once stopping is set, so the handler, which sets it, removes
// every one.
var live struct {
	sync.Mutex
	sets     map[*outputSet]bool
	stopping bool
}

// errStopping is returned by a set asked to create a file after a signal.
var errStopping = errors.New("stopping")

func newOutputSet(force bool) *outputSet {
	s := &outputSet{force: force}
	live.Lock()
	if live.sets == nil {
		live.sets = make(map[*outputSet]bool)
	}
	live.sets[s] = true
	live.Unlock()
	return s
}

// errExists reports a destination that already exists when -f was not given.
type errExists struct{ path string }

func (e *errExists) Error() string {
	return fmt.Sprintf("%s already exists", quote(e.path))
}

// existsError returns the error for an existing destination, with advice.
func existsError(path string) error {
	return withHints(&errExists{path}, "remove it, choose another output, or use -f to overwrite it")
}

// mkdirAll makes the folder dir and any of its parents that are missing, with
// mode 0700, and remembers those it made so that abort removes them.
func (s *outputSet) mkdirAll(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fileError(err)
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
			return errStopping
		}
		if err := os.Mkdir(missing[i], 0o700); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made meanwhile by someone else: not ours
			}
			return fileError(err)
		}
		s.dirs = append(s.dirs, missing[i])
	}
	return nil
}

// create starts the file that commit will move to dest. Unless the set may
// overwrite, it fails at once if dest exists, before any work is done; commit
// checks again, atomically.
func (s *outputSet) create(dest string) (*os.File, error) {
	if fi, err := os.Lstat(dest); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a folder; name a file to write", quote(dest))
		}
		if !s.force {
			return nil, existsError(dest)
		}
	}
	dir, base := filepath.Split(dest)
	if dir == "" {
		dir = "."
	}
	live.Lock()
	defer live.Unlock()
	if live.stopping {
		return nil, errStopping
	}
	// The leading dot hides the temporary file from ls and from globs
	// like *.shamir; CreateTemp makes it with mode 0600.
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		// The error names the temporary file; say what was to be written.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("cannot create %s: folder %s does not exist", quote(dest), quote(filepath.Clean(dir)))
		}
		return nil, fmt.Errorf("cannot create %s: %v", quote(dest), err)
	}
	s.pending = append(s.pending, &pendingFile{f, dest})
	return f, nil
}

// commit flushes every file of the set to disk and moves it into place. If
// any step fails, it undoes the others, so the set appears whole or not at
// all (except that, with -f, a file it replaced is gone).
func (s *outputSet) commit() error {
	live.Lock()
	defer live.Unlock()
	var err error
	for _, p := range s.pending {
		// Sync before the rename: otherwise a crash could leave the final
		// name pointing at a file whose data never reached the disk.
		if e := p.f.Sync(); e != nil && err == nil {
			err = fmt.Errorf("writing %s: %v", quote(p.dest), unwrapPath(e))
		}
		if e := p.f.Close(); e != nil && err == nil {
			err = fmt.Errorf("writing %s: %v", quote(p.dest), unwrapPath(e))
		}
	}
	for _, p := range s.pending {
		if err != nil {
			break
		}
		if err = s.place(p.f.Name(), p.dest); err == nil {
			s.placed = append(s.placed, p.dest)
		}
	}
	if err != nil {
		s.abortLocked()
		return err
	}
	for _, dir := range s.destDirs() {
		syncDir(dir)
	}
	s.pending, s.placed, s.dirs = nil, nil, nil
	delete(live.sets, s)
	return nil
}

// unwrapPath returns the error inside a *fs.PathError, whose path would be
// a temporary name.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// place moves the finished temporary file tmp to dest.
func (s *outputSet) place(tmp, dest string) error {
	if s.force {
		if err := os.Rename(tmp, dest); err != nil {
			return fmt.Errorf("cannot move the finished file into place as %s: %v", quote(dest), unwrapLink(err))
		}
		return nil
	}
	// A hard link fails if dest exists, so no file that appeared since
	// create's check is overwritten. Where links are not supported, fall
	// back to checking and renaming.
	err := os.Link(tmp, dest)
	switch {
	case err == nil:
		os.Remove(tmp)
		return nil
	case errors.Is(err, fs.ErrExist):
		return existsError(dest)
	}
	if _, err := os.Lstat(dest); err == nil {
		return existsError(dest)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return fmt.Errorf("cannot move the finished file into place as %s: %v", quote(dest), unwrapLink(err))
	}
	return nil
}

func unwrapLink(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// destDirs returns the folders the set's files go in.
func (s *outputSet) destDirs() []string {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range s.pending {
		d := filepath.Dir(p.dest)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// abort removes every file of the set: the temporary files, any already
// moved into place, and the folders it made. It does nothing after a
// successful commit, so callers defer it.
func (s *outputSet) abort() {
	live.Lock()
	defer live.Unlock()
	s.abortLocked()
}

// abortLocked is abort with live locked. It reports whether there was
// anything to remove.
func (s *outputSet) abortLocked() bool {
	had := len(s.pending)+len(s.placed)+len(s.dirs) > 0
	for _, p := range s.pending {
		p.f.Close()
		os.Remove(p.f.Name())
	}
	for _, dest := range s.placed {
		if !s.keepPlaced {
			os.Remove(dest)
		}
	}
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
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
