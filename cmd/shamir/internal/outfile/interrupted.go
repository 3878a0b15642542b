package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Interrupted looks in the folder dir for a replacement in place that was
// stopped in its renaming step (see ReplaceInPlace), and returns nil if
// there is none. Otherwise it returns an error that says which files are
// new and which old, and, in its hints, how to finish the replacement or
// undo it: until then the folder holds new and old files that do not go
// together.
func Interrupted(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil // the caller reports a folder it cannot read
	}
	var errs []error
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, namePrefix) || !strings.HasSuffix(name, extRenames) || !IsLeftover(name) {
			continue
		}
		path := filepath.Join(dir, name)
		list, err := readList(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, describe(dir, path, list))
	}
	return errors.Join(errs...)
}

// describe tells what the list of renames at path, in dir, left done and
// undone.
func describe(dir, path string, list []rename) error {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return !errors.Is(err, fs.ErrNotExist)
	}
	in := func(name string) string { return quote(filepath.Join(dir, name)) }
	var lines, finish, finishRm, undo, undoRm []string
	done := 0
	for _, r := range list {
		tmp, old := exists(r.tmp), exists(r.old)
		switch {
		case !tmp:
			done++
			lines = append(lines, in(r.dest)+" is new"+pick(old, ", and the old one is kept as "+in(r.old), ""))
		case old:
			lines = append(lines, in(r.dest)+" is old (also kept as "+in(r.old)+"), and the new one is "+in(r.tmp))
		default:
			lines = append(lines, in(r.dest)+" is old, and the new one is "+in(r.tmp))
		}
		if tmp {
			finish = append(finish, in(r.tmp)+" to "+in(r.dest))
			undoRm = append(undoRm, in(r.tmp))
		}
		if old {
			undo = append(undo, in(r.old)+" to "+in(r.dest))
			finishRm = append(finishRm, in(r.old))
		}
	}
	err := fmt.Errorf("%s: shamir was stopped while it replaced files in place (refresh), %d of %d replaced; new and old files do not go together:\n%s",
		quote(dir), done, len(list), strings.Join(lines, "\n"))
	return withHints(err,
		"to finish it (every new file is whole): "+steps(finish, append(finishRm, quote(path))),
		"or to undo it: "+steps(undo, append(undoRm, quote(path))))
}

// steps spells out renames, then removals.
func steps(renames, removals []string) string {
	var s []string
	if len(renames) > 0 {
		s = append(s, "rename "+strings.Join(renames, ", "))
	}
	return strings.Join(append(s, "remove "+strings.Join(removals, ", ")), "; then ")
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
