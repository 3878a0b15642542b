package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// names lists the files in dir, hidden ones too.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range ents {
		n = append(n, e.Name())
	}
	return n
}

func write(t *testing.T, s *Set, dest, data string) {
	t.Helper()
	w, err := s.Create(dest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(w, data); err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCommitWhole(t *testing.T) {
	dir := t.TempDir()
	s := New(false)
	defer s.Abort()
	if err := s.MkdirAll(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatal(err)
	}
	write(t, s, filepath.Join(dir, "a", "b", "one"), "1")
	write(t, s, filepath.Join(dir, "a", "b", "two"), "2")
	if got := names(t, filepath.Join(dir, "a", "b")); len(got) != 2 || !IsLeftover(got[0]) || !IsLeftover(got[1]) {
		t.Fatalf("before commit: %q, want two temporary files", got)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, filepath.Join(dir, "a", "b")); !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("after commit: %q", got)
	}
	fi, err := os.Stat(filepath.Join(dir, "a", "b", "one"))
	if err != nil || fi.Mode().Perm() != 0o600 || readString(t, filepath.Join(dir, "a", "b", "one")) != "1" {
		t.Fatalf("one: %v %v", fi.Mode(), err)
	}
}

func TestAbortRemoves(t *testing.T) {
	dir := t.TempDir()
	s := New(false)
	if err := s.MkdirAll(filepath.Join(dir, "new")); err != nil {
		t.Fatal(err)
	}
	write(t, s, filepath.Join(dir, "new", "x"), "secret")
	s.Abort()
	if got := names(t, dir); len(got) != 0 {
		t.Fatalf("after abort: %q", got)
	}
}

func TestExisting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("old"), 0o600)
	s := New(false)
	defer s.Abort()
	_, err := s.Create(path)
	var he *hint.Error
	if !errors.Is(err, ErrExists) || !errors.As(err, &he) || !strings.Contains(he.Hints()[0], "-f") {
		t.Fatalf("without force: %v", err)
	}
	if err := CheckDest(path, false); !errors.Is(err, ErrExists) {
		t.Fatalf("CheckDest: %v", err)
	}
	f := New(true)
	write(t, f, path, "new")
	if err := f.Commit(); err != nil || readString(t, path) != "new" {
		t.Fatalf("with force: %v", err)
	}
	if _, err := New(true).Create(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("a folder: %v", err)
	}
}

// A file that appears between Create and Commit is not overwritten.
func TestCommitRaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	s := New(false)
	write(t, s, path, "new")
	os.WriteFile(path, []byte("theirs"), 0o600)
	if err := s.Commit(); !errors.Is(err, ErrExists) {
		t.Fatalf("commit: %v", err)
	}
	if readString(t, path) != "theirs" || len(names(t, dir)) != 1 {
		t.Fatalf("after a failed commit: %q", names(t, dir))
	}
}

func TestRefuseInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "share")
	os.WriteFile(path, []byte("share"), 0o600)
	os.Symlink("share", filepath.Join(dir, "link"))
	fi, _ := os.Stat(path)
	for _, dest := range []string{path, filepath.Join(dir, "link"), filepath.Join(dir, ".", "share")} {
		s := New(true)
		s.Refuse([]os.FileInfo{fi})
		if _, err := s.Create(dest); err == nil || !strings.Contains(err.Error(), "is one of the inputs") {
			t.Errorf("%s: %v", dest, err)
		}
		s.Abort()
	}
	if readString(t, path) != "share" {
		t.Fatal("the input changed")
	}
}

// A symbolic link to a regular file stays a link: the file it points to is
// replaced. One that points nowhere is refused.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o700)
	target := filepath.Join(dir, "real", "f")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	s := New(true)
	write(t, s, link, "new")
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if readString(t, target) != "new" || len(names(t, filepath.Join(dir, "real"))) != 1 {
		t.Fatalf("target: %q", names(t, filepath.Join(dir, "real")))
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, err := New(true).Create(dangling); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("dangling link: %v", err)
	}
}

// A destination of 250 bytes, near the usual limit of 255, gets a
// temporary name that fits.
func TestLongName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("n", 250))
	s := New(false)
	write(t, s, path, "x")
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestIsLeftover(t *testing.T) {
	for name, want := range map[string]bool{
		".shamir-abcdefghijklm.tmp":               true,
		"dir/.shamir-abcdefghijklm.old":           true,
		".shamir-abcdefghijklm.renames":           true,
		".s.1-of-3.shamir.123456.tmp":             true, // earlier versions
		".restored.99.tmp":                        true,
		"s.1-of-3.shamir":                         false,
		".shamir-.tmp":                            false,
		".shamir-a.b.tmp":                         false,
		"shamir-abc.tmp":                          false,
		"notes.tmp":                               false,
		".shamir-abcdefghijklm.tmp.1-of-3.shamir": false,
	} {
		if got := IsLeftover(name); got != want {
			t.Errorf("IsLeftover(%q) = %v, want %v", name, got, want)
		}
	}
}
