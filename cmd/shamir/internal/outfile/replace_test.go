package outfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

func threeFiles(t *testing.T) (string, []string) {
	dir := t.TempDir()
	var paths []string
	for i := 1; i <= 3; i++ {
		p := filepath.Join(dir, fmt.Sprintf("s.%d-of-3", i))
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return dir, paths
}

func TestReplaceInPlace(t *testing.T) {
	dir, paths := threeFiles(t)
	s := New(false)
	s.ReplaceInPlace()
	for _, p := range paths {
		write(t, s, p, "new")
	}
	for _, p := range paths {
		if readString(t, p) != "old" {
			t.Fatal("replaced before commit")
		}
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if readString(t, p) != "new" {
			t.Fatalf("%s not replaced", p)
		}
	}
	Unlock()
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("left: %q", got)
	}
	if err := Interrupted(dir); err != nil {
		t.Fatal(err)
	}
}

// A stop is a commit stopped at a step, as a power cut would stop it:
// nothing after it runs.
type stopped struct{}

// stopAt makes the commit stop before its step n (from 1), and returns a
// function that removes the hook and reports whether it stopped.
func stopAt(n int) func() bool {
	k, hit := 0, false
	TestHookStep = func(op, path string) {
		if k++; k == n {
			hit = true
			panic(stopped{})
		}
	}
	return func() bool { TestHookStep = nil; return hit }
}

// commitStopped commits s, and reports whether it was stopped.
func commitStopped(t *testing.T, s *Set) (stoppedThere bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			if r != (stopped{}) {
				panic(r)
			}
			stoppedThere = true
			// The process would be gone: what it held goes too.
			live.Lock()
			delete(live.sets, s)
			live.Unlock()
		}
	}()
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	return false
}

// twoFolders makes three files in dir, the third a symbolic link to a
// file in another folder, other.
func twoFolders(t *testing.T) (dir, other string, paths []string) {
	dir, paths = threeFiles(t)
	other = t.TempDir()
	target := filepath.Join(other, "s.3-of-3")
	os.Rename(paths[2], target)
	if err := os.Symlink(target, paths[2]); err != nil {
		t.Fatal(err)
	}
	return dir, other, paths
}

// At every step of a commit a stop leaves a state that Interrupted tells,
// and that Resume, or the steps of the hint by hand, turns into all old
// files (before the commit point) or all new ones (after it): never a
// mixture. The files are three, one behind a symbolic link into another
// folder, with the lock on.
func TestJournalEveryStep(t *testing.T) {
	for _, byHand := range []bool{false, true} {
		for n := 1; ; n++ {
			dir, other, paths := twoFolders(t)
			s := New(false)
			s.ReplaceInPlace()
			s.Journal("refresh")
			for _, p := range paths {
				write(t, s, p, "new")
			}
			restore := stopAt(n)
			hit := commitStopped(t, s)
			restore()
			Unlock()
			if !hit {
				for _, p := range paths {
					if readString(t, p) != "new" {
						t.Fatalf("%s not replaced", p)
					}
				}
				if n < 8 {
					t.Fatalf("only %d steps", n)
				}
				break
			}
			want := "old"
			err := Interrupted(dir)
			errOther := Interrupted(other)
			if err == nil {
				if errOther != nil {
					t.Fatalf("step %d: the link's folder tells what the share folder does not: %v", n, errOther)
				}
				// Stopped before any journal was written, or after the
				// last was removed.
				if readString(t, paths[0]) == "new" {
					want = "new"
				}
			} else {
				hints := err.(interface{ Unwrap() []error }).Unwrap()[0].(*hint.Error).Hints()
				if strings.HasPrefix(hints[0], "finish it") {
					want = "new"
					// Past the commit point, every folder not yet
					// finished tells.
					if errOther == nil && readString(t, paths[2]) != "new" {
						t.Fatalf("step %d: the link's folder does not tell: %v", n, err)
					}
				} else if !strings.HasPrefix(hints[0], "undo it") {
					t.Fatalf("step %d: hints %q", n, hints)
				}
				if byHand {
					do(t, strings.TrimSuffix(hints[1], " (the last one last)"))
				} else if _, err := Resume(unquote(t, strings.SplitN(hints[0], "shamir resume ", 2)[1]), "resume"); err != nil {
					t.Fatalf("step %d: %v", n, err)
				}
				Unlock()
			}
			for _, p := range paths {
				if got := readString(t, p); got != want {
					t.Errorf("step %d (by hand %v): %s holds %s, want %s", n, byHand, p, got, want)
				}
			}
			for _, d := range []string{dir, other} {
				for _, name := range names(t, d) {
					if IsLeftover(name) && !strings.HasSuffix(name, extTmp) {
						t.Errorf("step %d (by hand %v): left %s", n, byHand, name)
					}
				}
				if err := Interrupted(d); err != nil {
					t.Errorf("step %d: still interrupted: %v", n, err)
				}
			}
		}
	}
}

// do carries out "... rename "a" to "b", "c" to "d"; then remove "e", "f"".
func do(t *testing.T, hint string) {
	t.Helper()
	_, steps, _ := strings.Cut(hint, ": ")
	steps = strings.TrimSuffix(steps, " (the last one last)")
	for _, step := range strings.Split(steps, "; then ") {
		verb, args, _ := strings.Cut(step, " ")
		for _, a := range strings.Split(args, ", ") {
			switch verb {
			case "rename":
				from, to, _ := strings.Cut(a, " to ")
				if err := os.Rename(unquote(t, from), unquote(t, to)); err != nil {
					t.Fatal(err)
				}
			case "remove":
				if err := os.Remove(unquote(t, a)); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("step %q", step)
			}
		}
	}
}

func unquote(t *testing.T, s string) string {
	var u string
	if _, err := fmt.Sscanf(s, "%q", &u); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return u
}

func TestReadList(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []string{
		`"a" "b"` + "\n",
		`"a" "b" "../c"` + "\n",
		`"a" "b" "c" "d"` + "\n",
		`a b c` + "\n",
		strings.Repeat("x", maxList+1),
	} {
		p := filepath.Join(dir, ".shamir-aaaa.renames")
		os.WriteFile(p, []byte(bad), 0o600)
		if _, err := readList(p); err == nil {
			t.Errorf("readList(%q) succeeded", bad[:min(len(bad), 40)])
		}
	}
}

func TestReadPlan(t *testing.T) {
	dir := t.TempDir()
	good := journalMagic + "\ncommand \"refresh\"\nfolder \"/a\"\nrename \".shamir-x.tmp\" \"s.1\"\n"
	p := filepath.Join(dir, ".shamir-id.journal")
	os.WriteFile(p, []byte(good+string(room)), 0o600)
	if pl, err := readPlan(p); err != nil || pl.id != "id" || pl.command != "refresh" || len(pl.folders) != 1 || pl.renames[0][0] != (rename{".shamir-x.tmp", "s.1"}) || pl.commit || pl.torn {
		t.Fatalf("readPlan: %+v, %v", pl, err)
	}
	// With its commit line over the room, it is committed; cut short by
	// a power cut (empty, a part of it, zeros after, a commit line not
	// written whole or that does not match), it is a torn plan of its
	// folder, before its commit point.
	commit := string(commitLine([]byte(good)))
	os.WriteFile(p, []byte(good+commit), 0o600)
	if pl, err := readPlan(p); err != nil || !pl.commit || pl.torn || pl.renames[0][0] != (rename{".shamir-x.tmp", "s.1"}) {
		t.Fatalf("readPlan of a committed journal: %+v, %v", pl, err)
	}
	for _, torn := range []string{
		"",
		"shamir jou",
		good,
		good[:len(good)-3],
		good[:30] + "\x00\x00\x00\x00",
		"\x00\x00\x00\x00",
		good + string(room[:10]),
		good + commit[:20] + string(room[20:]),
		good + string(room[:20]) + commit[20:],
		strings.Replace(good, "s.1", "s.2", 1) + commit,
	} {
		os.WriteFile(p, []byte(torn), 0o600)
		if pl, err := readPlan(p); err != nil || !pl.torn || pl.commit || len(pl.folders) != 1 || pl.folders[0] != dir || len(pl.renames[0]) != 0 {
			t.Errorf("readPlan(%q) = %+v, %v; want a torn plan", torn, pl, err)
		}
	}
	for _, bad := range []string{
		"shamir journal 1\ncommand \"r\"\nfolder \"/a\"\n" + string(room),
		"not a journal\n",
		"\x00\x00x",
		journalMagic + "\ncommand \"r\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"a\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"/a/../b\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nrename \".shamir-x.tmp\" \"s\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"/a\"\nrename \"s.1\" \"s.2\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"/a\"\nrename \".shamir-x.tmp\" \"../s\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"/a\"\nrename \".shamir-x.tmp\" \"s\" \"t\"\n" + string(room),
		journalMagic + "\ncommand r\nfolder \"/a\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\ncommand \"s\"\nfolder \"/a\"\n" + string(room),
		journalMagic + "\ncommand \"r\"\nfolder \"/a\"\nrename \"s.1\" \"s.2\"\n",
		strings.Repeat("x", maxJournal+1),
	} {
		os.WriteFile(p, []byte(bad), 0o600)
		if _, err := readPlan(p); err == nil {
			t.Errorf("readPlan(%q) succeeded", bad[:min(len(bad), 60)])
		}
	}
}

func FuzzReadPlan(f *testing.F) {
	f.Add([]byte(journalMagic + "\ncommand \"refresh\"\nfolder \"/a\"\nrename \".shamir-x.tmp\" \"s.1\"\nfolder \"/b\"\n" + string(room)))
	dir := f.TempDir()
	p := filepath.Join(dir, ".shamir-id.journal")
	f.Fuzz(func(t *testing.T, data []byte) {
		os.WriteFile(p, data, 0o600)
		pl, err := readPlan(p)
		if err != nil {
			return
		}
		// What it accepts names nothing outside its folders.
		for i, d := range pl.folders {
			if !filepath.IsAbs(d) || filepath.Clean(d) != d {
				t.Fatalf("folder %q", d)
			}
			for _, r := range pl.renames[i] {
				if !isBase(r.tmp) || !isBase(r.dest) || !IsLeftover(r.tmp) {
					t.Fatalf("rename %q", r)
				}
			}
		}
	})
}

// A journal planted in one folder renames nothing in another that holds
// no journal of that change.
func TestJournalPlantedElsewhere(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(b, "victim"), []byte("share"), 0o600)
	os.WriteFile(filepath.Join(b, ".shamir-leftover.tmp"), []byte("other"), 0o600)
	plan := fmt.Sprintf("%s\ncommand \"refresh\"\nfolder %q\nfolder %q\nrename \".shamir-leftover.tmp\" \"victim\"\n", journalMagic, a, b)
	os.WriteFile(filepath.Join(a, ".shamir-planted.journal"), append([]byte(plan), commitLine([]byte(plan))...), 0o600)
	if _, err := Resume(a, "resume"); err != nil {
		t.Fatal(err)
	}
	Unlock()
	if readString(t, filepath.Join(b, "victim")) != "share" {
		t.Fatal("a journal in one folder replaced a file in another")
	}
	if readString(t, filepath.Join(b, ".shamir-leftover.tmp")) != "other" {
		t.Fatal("a journal in one folder removed a file in another")
	}
}
