//go:build unix

package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// holdLock takes dir's lock as another process would (a lock on another
// open file description conflicts, even within one process), saying who.
func holdLock(t *testing.T, dir, who string) func() {
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if who != "" {
		os.WriteFile(filepath.Join(dir, lockInfo), []byte(who+"\n"), 0o600)
	}
	return func() { f.Close(); os.Remove(filepath.Join(dir, lockInfo)) }
}

func TestLockRefused(t *testing.T) {
	dir := t.TempDir()
	release := holdLock(t, dir, "process 4242 (shamir refresh)")
	// Where the kernel names the holder (Linux), it is this process, which
	// is not a shamir: its number only; elsewhere the lock info says.
	want := "process 4242 (shamir refresh)"
	if !writeLockInfo {
		want = fmt.Sprintf("process %d", os.Getpid())
	}
	err := Lock(dir, "extend")
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Holder != want {
		t.Fatalf("Lock: %v", err)
	}
	if !strings.Contains(err.Error(), "is being changed by "+want) {
		t.Errorf("message: %v", err)
	}
	if who, ok := LockedBy(dir); !ok || who != want {
		t.Errorf("LockedBy: %q, %v", who, ok)
	}
	release()
	if _, ok := LockedBy(dir); ok {
		t.Error("LockedBy after release")
	}
	if err := Lock(dir, "extend"); err != nil {
		t.Fatal(err)
	}
	// Held by this run: taken again at once, and not another's.
	if err := Lock(filepath.Join(dir, "."), "extend"); err != nil {
		t.Fatal(err)
	}
	if _, ok := LockedBy(dir); ok {
		t.Error("LockedBy names this run's own lock")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, lockInfo)); writeLockInfo && (!strings.HasPrefix(string(b), "process ") || !strings.Contains(string(b), "(shamir extend)")) {
		t.Errorf("lock info: %q", b)
	} else if !writeLockInfo && b != nil {
		t.Errorf("lock info written where the kernel names the holder: %q", b)
	}
	Unlock()
	if _, err := os.Lstat(filepath.Join(dir, lockInfo)); err == nil {
		t.Error("lock info left after Unlock")
	}
}

// A lock info that is not one is not shown: it could hold a terminal's
// escape sequences.
func TestLockHolderUnsaid(t *testing.T) {
	if !writeLockInfo {
		t.Skip("the kernel names the holder (see TestKernelHolderWord)")
	}
	dir := t.TempDir()
	defer holdLock(t, dir, "process 1 \x1b[2J")()
	var le *LockedError
	if err := Lock(dir, "refresh"); !errors.As(err, &le) || le.Holder != "" || !strings.Contains(err.Error(), "by another process") {
		t.Fatalf("Lock: %v", err)
	}
}

// A commit with a journal into a folder another process holds changes
// nothing.
func TestJournalLocked(t *testing.T) {
	dir, paths := threeFiles(t)
	defer holdLock(t, dir, "")()
	s := New(false)
	s.ReplaceInPlace()
	for _, p := range paths {
		write(t, s, p, "new")
	}
	if err := s.Commit(); !errors.Is(err, ErrLocked) {
		t.Fatalf("Commit: %v", err)
	}
	for _, p := range paths {
		if readString(t, p) != "old" {
			t.Fatal("replaced")
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("left: %q", got)
	}
}

// A check before the commit that fails changes nothing.
func TestBeforeCommit(t *testing.T) {
	dir, paths := threeFiles(t)
	s := New(false)
	s.ReplaceInPlace()
	s.BeforeCommit(func() error { return errors.New("changed") })
	for _, p := range paths {
		write(t, s, p, "new")
	}
	if err := s.Commit(); err == nil || err.Error() != "changed" {
		t.Fatalf("Commit: %v", err)
	}
	Unlock()
	for _, p := range paths {
		if readString(t, p) != "old" {
			t.Fatal("replaced")
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("left: %q", got)
	}
}
