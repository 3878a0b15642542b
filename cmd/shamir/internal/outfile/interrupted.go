package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Interrupted looks in the folder dir for a change that was stopped
// halfway (see Journal), and returns nil if there is none. Otherwise it
// returns an error that says, for every folder the change touched, which
// files are new and which old, and, in its hints, the one way on: finish
// it if it passed its commit point, undo it if it did not, with shamir
// resume or by hand. A change under way (its folder locked by another
// process) is said to be so, with no advice; one still writing its new
// files, before its plan, is not said at all: every old file is
// untouched, and readers tell its new files by their names.
func Interrupted(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil // the caller reports a folder it cannot read
	}
	var errs []error
	seen := map[string]bool{}
	for _, j := range journalsAmong(dir, ents) {
		p, err := readPlan(j)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !seen[p.id] {
			seen[p.id] = true
			errs = append(errs, describePlan(dir, j, p))
		}
	}
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
		errs = append(errs, describeList(dir, path, list))
	}
	return errors.Join(errs...)
}

// describe tells what the list of renames at path, in dir, left done and
// undone.
func describeList(dir, path string, list []oldRename) error {
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

// describePlan tells what the plan p, found in the folder dir in the
// journal j, left done and undone, and the one way on.
func describePlan(dir, j string, p *plan) error {
	for _, f := range p.folders {
		if who, ok := LockedBy(f); ok {
			if p.torn {
				// Its new files are being written, and its plan is
				// not written yet: every old file is untouched, and
				// the new ones are told apart by their names.
				return nil
			}
			if !strings.HasPrefix(who, "process ") {
				who += " (shamir " + p.command + ")"
			}
			return withHints(fmt.Errorf("%s is being changed now by %s: its files do not go together until it ends", quote(dir), who),
				"wait until it ends, then run this again")
		}
	}
	// The primary's journal is the plan's reference.
	p = p.reference(j)
	committed := p.commit
	resume := "shamir resume " + quote(display(p.folders[0]))
	if p.torn {
		tmps, js := p.leftBehind()
		return withHints(fmt.Errorf("%s: shamir was stopped before the commit point of a change, before its journal %s held its plan: every old file is untouched%s",
			quote(dir), quote(display(j)), pick(len(tmps) > 0, ", and its new files are not to be used: "+strings.Join(tmps, ", "), "")),
			"undo it: "+resume,
			"or by hand: remove "+strings.Join(append(tmps, js...), ", ")+pick(len(tmps)+len(js) > 1, " (the last one last)", ""))
	}
	var folders, lines, renames, removals []string
	done, total := 0, 0
	for i, f := range p.folders {
		folders = append(folders, quote(display(f)))
		for _, r := range p.renames[i] {
			total++
			tmp, dest := quote(display(filepath.Join(f, r.tmp))), quote(display(filepath.Join(f, r.dest)))
			if _, err := os.Lstat(filepath.Join(f, r.tmp)); errors.Is(err, fs.ErrNotExist) {
				done++
				lines = append(lines, dest+" is new")
				continue
			}
			if _, err := os.Lstat(filepath.Join(f, r.dest)); errors.Is(err, fs.ErrNotExist) {
				lines = append(lines, dest+" is not there yet, and the new one is "+tmp)
			} else {
				lines = append(lines, dest+" is old, and the new one is "+tmp)
			}
			if committed {
				renames = append(renames, tmp+" to "+dest)
			} else {
				removals = append(removals, tmp)
			}
		}
	}
	for i := len(p.folders) - 1; i >= 0; i-- {
		if j := journalName(p.folders[i], p.id); p.hasJournal(i) {
			removals = append(removals, quote(display(j)))
		}
	}
	where := "in " + strings.Join(folders, " and ")
	if committed {
		err := fmt.Errorf("%s: shamir %s was stopped after the commit point of its change %s, %d of %d files in place; new and old files do not go together:\n%s",
			quote(dir), p.command, where, done, total, strings.Join(lines, "\n"))
		return withHints(err,
			"finish it (every new file is whole; the old ones are no longer wanted): "+resume,
			"or by hand: "+steps(renames, removals)+" (the last one last)")
	}
	err := fmt.Errorf("%s: shamir %s was stopped before the commit point of its change %s: every old file is untouched, and the new ones are not to be used:\n%s",
		quote(dir), p.command, where, strings.Join(lines, "\n"))
	return withHints(err,
		"undo it: "+resume,
		"or by hand: "+steps(nil, removals)+" (the last one last)")
}
