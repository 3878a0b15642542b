package outfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("left: %q", got)
	}
	if err := Interrupted(dir); err != nil {
		t.Fatal(err)
	}
}

// stopAfter makes the renaming step stop after n files, as a power cut
// would: nothing after it runs.
type stopped struct{}

func stopAfter(n int) func() {
	TestHookRenamed = func(done int) {
		if done == n {
			panic(stopped{})
		}
	}
	return func() { TestHookRenamed = nil }
}

func commitStopped(t *testing.T, s *Set) {
	t.Helper()
	defer func() {
		if r := recover(); r != (stopped{}) {
			t.Fatalf("commit was not stopped: %v", r)
		}
	}()
	s.Commit()
}

func TestReplaceInterrupted(t *testing.T) {
	dir, paths := threeFiles(t)
	defer stopAfter(1)()
	s := New(false)
	s.ReplaceInPlace()
	for _, p := range paths {
		write(t, s, p, "new")
	}
	commitStopped(t, s)
	if readString(t, paths[0]) != "new" || readString(t, paths[1]) != "old" {
		t.Fatal("not one file replaced")
	}
	err := Interrupted(dir)
	if err == nil {
		t.Fatal("Interrupted: nothing found")
	}
	msg := err.Error()
	for _, want := range []string{
		"1 of 3 replaced",
		fmt.Sprintf("%q is new, and the old one is kept as", paths[0]),
		fmt.Sprintf("%q is old", paths[1]),
		fmt.Sprintf("%q is old", paths[2]),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	hints := err.(interface{ Unwrap() []error }).Unwrap()[0].(*hint.Error).Hints()
	if len(hints) != 2 || !strings.HasPrefix(hints[0], "to finish it") || !strings.HasPrefix(hints[1], "or to undo it") {
		t.Fatalf("hints: %q", hints)
	}
	// Each file left is a leftover or one of the files.
	for _, n := range names(t, dir) {
		if !IsLeftover(n) && !slices.Contains(paths, filepath.Join(dir, n)) {
			t.Errorf("unexpected %q", n)
		}
	}
}

// Following the hints' steps finishes, or undoes, the replacement.
func TestReplaceInterruptedSteps(t *testing.T) {
	for _, undo := range []bool{false, true} {
		dir, paths := threeFiles(t)
		restore := stopAfter(2)
		s := New(false)
		s.ReplaceInPlace()
		for _, p := range paths {
			write(t, s, p, "new")
		}
		commitStopped(t, s)
		restore()
		hints := Interrupted(dir).(interface{ Unwrap() []error }).Unwrap()[0].(*hint.Error).Hints()
		do(t, hints[pick(undo, "1", "0")[0]-'0'])
		for _, p := range paths {
			if got := readString(t, p); got != pick(undo, "old", "new") {
				t.Errorf("undo %v: %s holds %s", undo, p, got)
			}
		}
		if got := names(t, dir); len(got) != 3 {
			t.Errorf("undo %v: left %q", undo, got)
		}
	}
}

// do carries out "... rename "a" to "b", "c" to "d"; then remove "e", "f"".
func do(t *testing.T, hint string) {
	t.Helper()
	_, steps, _ := strings.Cut(hint, ": ")
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
