package outfile

import (
	"bufio"
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

// Replacing in place (Set.ReplaceInPlace) is done in one short step, once
// every new file is written and synced under its temporary name, the old
// files untouched:
//
//  1. in each folder, a list of the renames to make is written and synced,
//     as .shamir-RANDOM.renames: one line per file, the temporary name,
//     the name the old file is kept under and the file's name, each
//     quoted as a Go string;
//  2. for each file, the old one is linked (or, where links are not
//     supported, renamed) to its .old name, and the new one renamed over
//     it;
//  3. the folders are synced, then the .old files and the lists removed.
//
// A run stopped in step 2 (a signal waits for the step to end: only a kill
// or a power cut can do it) leaves a folder where each file is either new,
// with its old one kept, or old, with its new one beside it: the set can be
// finished or undone by hand, and Interrupted says how.

// TestHookRenamed, when not nil, is called after each file is renamed into
// place in step 2, with the number done so far. It is for tests, which stop
// the process there as a power cut would.
var TestHookRenamed func(done int)

// A rename is one line of a list of renames: base names in one folder.
type rename struct{ tmp, old, dest string }

// replaceAll is Commit for ReplaceInPlace.
func (s *Set) replaceAll() error {
	lists := map[string][]rename{}
	var dirs []string
	for _, p := range s.pending {
		if p.tmp == "" {
			continue
		}
		dir := filepath.Dir(p.target)
		if lists[dir] == nil {
			dirs = append(dirs, dir)
		}
		p.old = newName(dir, extOld)
		lists[dir] = append(lists[dir], rename{filepath.Base(p.tmp), filepath.Base(p.old), filepath.Base(p.target)})
	}
	// The lists are removed on every way out but one: a stop in the
	// middle of the renames, which is what they are for.
	var journals []string
	removeLists := func() {
		for _, j := range journals {
			os.Remove(j)
		}
	}
	for _, dir := range dirs {
		j, err := writeList(dir, lists[dir])
		if err != nil {
			removeLists()
			return err
		}
		journals = append(journals, j)
		syncDir(dir)
	}
	for _, p := range s.pending {
		if p.tmp == "" {
			continue
		}
		if err := replaceOne(p); err != nil {
			s.undoReplaced()
			removeLists()
			return err
		}
		s.placed = append(s.placed, p)
		if TestHookRenamed != nil {
			TestHookRenamed(len(s.placed))
		}
	}
	for _, dir := range dirs {
		syncDir(dir)
	}
	for _, p := range s.placed {
		os.Remove(p.old)
	}
	removeLists()
	return nil
}

// replaceOne keeps the old file of p under its .old name and moves the new
// one into place.
func replaceOne(p *file) error {
	if err := os.Link(p.target, p.old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(p.target, p.old); err != nil {
			return fmt.Errorf("cannot keep the old %s: %v", quote(p.dest), unwrap(err))
		}
	}
	if err := os.Rename(p.tmp, p.target); err != nil {
		if _, e := os.Lstat(p.target); e == nil {
			os.Remove(p.old)
		} else {
			os.Rename(p.old, p.target)
		}
		return fmt.Errorf("cannot move the finished file into place as %s: %v", quote(p.dest), unwrap(err))
	}
	return nil
}

// undoReplaced puts back the old files of those replaced so far.
func (s *Set) undoReplaced() {
	for _, p := range slices.Backward(s.placed) {
		if _, err := os.Lstat(p.old); err == nil {
			os.Rename(p.old, p.target)
		} else {
			os.Remove(p.target) // there was none
		}
	}
	s.placed = nil
}

// writeList writes the list of renames in dir and syncs it.
func writeList(dir string, list []rename) (string, error) {
	name := newName(dir, extRenames)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("cannot write the list of renames in %s: %v", quote(dir), unwrap(err))
	}
	w := bufio.NewWriter(f)
	for _, r := range list {
		fmt.Fprintf(w, "%s %s %s\n", strconv.Quote(r.tmp), strconv.Quote(r.old), strconv.Quote(r.dest))
	}
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if e := f.Close(); err == nil {
		err = e
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("cannot write the list of renames in %s: %v", quote(dir), unwrap(err))
	}
	return name, nil
}

// maxList bounds the size of a list of renames that Interrupted reads: a
// few hundred files of names of 255 bytes.
const maxList = 1 << 20

// readList reads a list of renames. Its names are base names: a line that
// names anything else is not of a list a set wrote.
func readList(path string) ([]rename, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxList+1))
	if err != nil {
		return nil, pathError(err)
	}
	if len(data) > maxList {
		return nil, fmt.Errorf("%s is over %d bytes: not a list of renames", quote(path), maxList)
	}
	var list []rename
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var names [3]string
		rest := line
		for i := range names {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("%s is not a list of renames", quote(path))
			}
			names[i], _ = strconv.Unquote(q)
			rest = strings.TrimPrefix(rest[len(q):], " ")
			if names[i] == "" || names[i] != filepath.Base(names[i]) || names[i] == ".." {
				return nil, fmt.Errorf("%s is not a list of renames", quote(path))
			}
		}
		if rest != "" {
			return nil, fmt.Errorf("%s is not a list of renames", quote(path))
		}
		list = append(list, rename{names[0], names[1], names[2]})
	}
	return list, nil
}
