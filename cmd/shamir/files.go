package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// An outputSet is the files one run writes: the shares of a split, or the
// secret of a combine. Each file is written under a temporary name in its
// destination's folder and moved into place only by commit, once every file
// of the set is complete, so a run that fails or is interrupted leaves no
// half-written share or secret behind. The files are created with mode 0600:
// shares and secrets are for their owner's eyes only.
type outputSet struct {
	force   bool           // replace existing files
	pending []*pendingFile // created, not yet committed
	placed  []string       // destinations already moved into place by commit
}

type pendingFile struct {
	f    *os.File // open on the temporary name
	dest string
}

// live holds the output sets not yet committed or aborted, for the signal
// handler to clean up.
var live struct {
	sync.Mutex
	sets map[*outputSet]bool
}

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
	return fmt.Sprintf("%s already exists; remove it, choose another output, or use -f to overwrite it", e.path)
}

// create starts the file that commit will move to dest. Unless the set may
// overwrite, it fails at once if dest exists, before any work is done; commit
// checks again, atomically.
func (s *outputSet) create(dest string) (*os.File, error) {
	if fi, err := os.Lstat(dest); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a folder; name a file to write", dest)
		}
		if !s.force {
			return nil, &errExists{dest}
		}
	}
	dir, base := filepath.Split(dest)
	if dir == "" {
		dir = "."
	}
	// The leading dot hides the temporary file from ls and from globs
	// like *.shamir; CreateTemp makes it with mode 0600.
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	live.Lock()
	s.pending = append(s.pending, &pendingFile{f, dest})
	live.Unlock()
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
			err = e
		}
		if e := p.f.Close(); e != nil && err == nil {
			err = e
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
	for _, dir := range s.dirs() {
		syncDir(dir)
	}
	s.pending, s.placed = nil, nil
	delete(live.sets, s)
	return nil
}

// place moves the finished temporary file tmp to dest.
func (s *outputSet) place(tmp, dest string) error {
	if s.force {
		return os.Rename(tmp, dest)
	}
	// A hard link fails if dest exists, so no file that appeared since
	// create's check is overwritten. Where links are not supported, fall
	// back to checking and renaming.
	err := os.Link(tmp, dest)
	switch {
	case err == nil:
		return os.Remove(tmp)
	case errors.Is(err, fs.ErrExist):
		return &errExists{dest}
	}
	if _, err := os.Lstat(dest); err == nil {
		return &errExists{dest}
	}
	return os.Rename(tmp, dest)
}

func (s *outputSet) dirs() []string {
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

// abort removes every file of the set: the temporary files and any already
// moved into place. It does nothing after a successful commit, so callers
// defer it.
func (s *outputSet) abort() {
	live.Lock()
	defer live.Unlock()
	s.abortLocked()
}

func (s *outputSet) abortLocked() {
	for _, p := range s.pending {
		p.f.Close()
		os.Remove(p.f.Name())
	}
	for _, dest := range s.placed {
		os.Remove(dest)
	}
	s.pending, s.placed = nil, nil
	delete(live.sets, s)
}

// syncDir makes a rename in dir durable. Failure only weakens durability after
// a crash, and some systems cannot sync folders, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// catchSignals removes the outputs of an interrupted run (Ctrl-C, kill, a
// closed terminal) before exiting with status 1.
func catchSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-c
		restoreTerminal()
		live.Lock()
		n := len(live.sets)
		for s := range live.sets {
			s.abortLocked()
		}
		if n > 0 {
			fmt.Fprintf(os.Stderr, "\nshamir: %v: stopped; partial output removed\n", sig)
		} else {
			fmt.Fprintf(os.Stderr, "\nshamir: %v: stopped\n", sig)
		}
		os.Exit(1)
	}()
}
