package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// A split on disk is a small database, and every command that changes it
// in place makes one transaction of its run (see outfile.Set.Journal):
//
//   - one writer at a time: before it reads anything, it locks every
//     folder it reads shares from, writes into, or keeps the manifest in,
//     and, once the shares are found, the folders that share files which
//     are symbolic links point into; another writer holding one is a
//     refusal, at once, naming it;
//   - a change that another run left unfinished in any of those folders
//     stops it before it reads: it is to be finished or undone first
//     (shamir resume);
//   - every file it writes, shares and manifest, goes into one set,
//     committed once, with one commit point, after a check that each file
//     it read is still the file it read (the same file, size and time of
//     last change).

// testNoTransaction, set by BenchmarkRefresh5x1MiB (with
// outfile.TestHookNoJournal), makes a change lock nothing, check nothing
// and commit without a journal: what refresh costs without the
// transaction, measured in the same process.
var testNoTransaction bool

// A change is the transaction of one run.
type change struct {
	command string
	files   *outfile.Set
	read    []readFile
	after   []string        // what was written, said once it is
	checked map[string]bool // the folders locked, and found with no change left unfinished
}

// A readFile is a file a run read, as it was when it read it.
type readFile struct {
	path string
	fi   os.FileInfo
}

// newChange starts the transaction of the command named command; force
// lets it replace existing files, as -f does.
func newChange(command string, force bool) *change {
	c := &change{command: command, files: outfile.New(force), checked: map[string]bool{}}
	if testNoTransaction {
		return c
	}
	c.files.Journal(command)
	c.files.BeforeCommit(c.unchanged)
	return c
}

// lock locks the folders the paths are in, or are (folders), and refuses
// one where a change was left unfinished.
func (c *change) lock(paths ...string) error {
	if testNoTransaction {
		return nil
	}
	var dirs []string
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		// A share file that is a symbolic link: its folder too. (A
		// folder reached through a link is the same folder, and so the
		// same lock.)
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if fi, err = os.Stat(p); err != nil || !fi.IsDir() {
				if r, err := filepath.EvalSymlinks(p); err == nil {
					dirs = append(dirs, filepath.Dir(r))
				}
			}
		}
		switch {
		case err == nil && fi.IsDir():
			dirs = append(dirs, p)
		case err == nil || errors.Is(err, os.ErrNotExist):
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	for _, d := range dirs {
		d = filepath.Clean(d)
		if c.checked[d] {
			continue
		}
		if _, err := os.Stat(d); err != nil {
			continue // a folder to be made: locked at the commit
		}
		c.checked[d] = true
		if err := outfile.Lock(d, c.command); err != nil {
			return err
		}
		if err := outfile.Interrupted(d); err != nil {
			return err
		}
	}
	return nil
}

// readShares locks the folders of the share files of set (those symbolic
// links point into among them), and records each file as read.
func (c *change) readShares(set *shareSet) error {
	if testNoTransaction {
		return nil
	}
	var paths []string
	for _, s := range set.ssms {
		if s.path != "" {
			paths = append(paths, s.path)
		}
	}
	for _, r := range set.read {
		paths = append(paths, r.path)
	}
	if err := c.lock(paths...); err != nil {
		return err
	}
	for _, s := range set.ssms {
		if s.f != nil && s.path != "" {
			if st, ok := s.f.(interface{ Stat() (os.FileInfo, error) }); ok {
				if fi, err := st.Stat(); err == nil {
					c.read = append(c.read, readFile{s.path, fi})
				}
			}
		}
	}
	c.read = append(c.read, set.read...)
	return nil
}

// readAt records the file at path as read now.
func (c *change) readAt(path string) {
	if testNoTransaction {
		return
	}
	if fi, err := os.Stat(path); err == nil {
		c.read = append(c.read, readFile{path, fi})
	}
}

// unchanged checks, just before the commit point, that each file read is
// the same file, of the same size and time of last change: under the
// locks no other shamir changes them, but anything else can.
func (c *change) unchanged() error {
	for _, r := range c.read {
		fi, err := os.Stat(r.path)
		if err == nil && os.SameFile(fi, r.fi) && fi.Size() == r.fi.Size() && fi.ModTime().Equal(r.fi.ModTime()) {
			continue
		}
		return withHints(fmt.Errorf("%s changed while %s read it; nothing was written", quote(r.path), c.command),
			"something other than shamir changed it: find out what, then run "+c.command+" again")
	}
	return nil
}

// commit commits every file of the run, shares and manifest, as one, and
// then, only then, says what was written.
func (c *change) commit() error {
	if err := c.files.Commit(); err != nil {
		return err
	}
	for _, line := range c.after {
		sayf(os.Stderr, "%s", line)
	}
	return nil
}

// abort removes every file the run wrote, before its commit.
func (c *change) abort() { c.files.Abort() }

// sayAfter says, once the run's files are committed, what was written: a
// summary printed before the commit point would be false if the commit
// were refused.
func (lc *lifecycle) sayAfter(format string, args ...any) {
	lc.tx.after = append(lc.tx.after, fmt.Sprintf(format, args...))
}
