package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// One writer at a time: a run that changes the shares or the manifest of a
// split in place (refresh, recreate, extend and reshare into a folder of
// shares, reprotect, attest manifest, the -manifest of the lifecycle
// commands) holds an exclusive lock on every folder it reads from or writes
// into, from before it reads until it ends. Two such runs on one folder
// would otherwise both read one generation and both replace it, each with
// its own: the files left would be of two generations, too few of each to
// recover the secret.
//
// The lock is an flock(2) on the folder itself (not on a file in it, which
// could be removed or replaced under it), taken without waiting: a second
// writer is refused at once, and told who holds it: "process PID (shamir
// COMMAND)". On Linux the kernel's list of locks (/proc/locks) names the
// process, and its command line the command. Elsewhere the writer writes
// it, once the lock is taken, to the file lockInfo in the folder
// (".shamir-writer.lock"), removed when the lock is released; one a killed
// run left is ignored, and overwritten by the next writer. The kernel
// releases the lock itself when the process ends, however it ends.
//
// Where flock is not available (not unix), Lock does nothing.

// lockInfo is the name of the file that says who holds a folder's lock.
const lockInfo = namePrefix + "writer" + extLock

// IsLockInfo reports whether the file name (its last element is looked
// at) is the file that says who holds a folder's lock: never a share, and
// not a leftover to remove while its writer runs.
func IsLockInfo(name string) bool { return filepath.Base(name) == lockInfo }

// A LockedError is the refusal of a folder that another process is
// changing.
type LockedError struct {
	Dir    string // the folder, as named to Lock
	Holder string // "process PID (shamir COMMAND)", or "" if it did not say
}

func (e *LockedError) Error() string {
	who := e.Holder
	if who == "" {
		who = "another process"
	}
	return fmt.Sprintf("%s is being changed by %s: one change to a split at a time", quote(e.Dir), who)
}

// ErrLocked is matched (errors.Is) by every *LockedError.
var ErrLocked = errors.New("folder locked by another writer")

func (e *LockedError) Is(target error) bool { return target == ErrLocked }

var locks struct {
	sync.Mutex
	command string              // the command that holds them, for lockInfo
	held    map[string]*os.File // by the folder's resolved path
	info    map[string]string   // the lockInfo files written
	keys    map[string]string   // lockKey of the folders held, by the names given
}

// lockKey is the name a folder's lock is kept under: its path with every
// symbolic link resolved, so that one folder reached two ways is locked
// once.
func lockKey(dir string) string {
	locks.Lock()
	key, ok := locks.keys[dir]
	if locks.held[dir] != nil {
		// A key itself: absolute, and resolved already.
		key, ok = dir, true
	}
	locks.Unlock()
	if ok {
		return key
	}
	key = dir
	if r, err := filepath.EvalSymlinks(key); err == nil {
		key = r
	}
	if a, err := filepath.Abs(key); err == nil {
		key = a
	}
	return key
}

// heldDir returns the open folder dir if the run holds its lock, else nil:
// what syncDir syncs, rather than open it again.
func heldDir(dir string) *os.File {
	key := lockKey(dir)
	locks.Lock()
	defer locks.Unlock()
	return locks.held[key]
}

// Lock takes, for the rest of the run, the exclusive lock of the folder
// dir, for the command named command ("refresh"), or returns a
// *LockedError, with advice, when another process holds it. Taking a lock
// the run holds already does nothing.
func Lock(dir, command string) error {
	key := lockKey(dir)
	locks.Lock()
	defer locks.Unlock()
	if locks.held[key] != nil {
		locks.keys[dir] = key
		return nil
	}
	if locks.held == nil {
		locks.held = map[string]*os.File{}
		locks.info = map[string]string{}
		locks.keys = map[string]string{}
	}
	f, err := os.Open(key)
	if err != nil {
		return pathError(err)
	}
	ok, err := flock(f, true)
	if err != nil {
		f.Close()
		return fmt.Errorf("cannot lock %s: %v", quote(dir), unwrap(err))
	}
	if !ok {
		f.Close()
		return withHints(&LockedError{Dir: dir, Holder: holder(key)},
			"wait until it ends, then run this again: its change would otherwise be mixed with this one")
	}
	locks.held[key] = f
	locks.keys[dir] = key
	if writeLockInfo {
		info := filepath.Join(key, lockInfo)
		who := fmt.Sprintf("process %d (shamir %s)\n", os.Getpid(), command)
		if os.WriteFile(info, []byte(who), 0o600) == nil {
			locks.info[key] = info
		}
	}
	return nil
}

// holder says who holds the lock of the folder key, as the kernel (on
// Linux) or its lockInfo says.
func holder(key string) string {
	if !writeLockInfo {
		return kernelHolder(key)
	}
	b, err := os.ReadFile(filepath.Join(key, lockInfo))
	if err != nil || len(b) > 200 {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if !strings.HasPrefix(s, "process ") || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return ""
	}
	return s
}

// LockedBy reports whether another process holds the lock of the folder
// dir, and who, as its lockInfo says: a reader that finds a change under
// way says so, rather than give advice about it.
func LockedBy(dir string) (string, bool) {
	key := lockKey(dir)
	locks.Lock()
	mine := locks.held[key] != nil
	locks.Unlock()
	if mine {
		return "", false
	}
	f, err := os.Open(key)
	if err != nil {
		return "", false
	}
	defer f.Close()
	ok, err := flock(f, false)
	if err != nil || ok {
		return "", false // released when f is closed
	}
	who := holder(key)
	if who == "" {
		who = "another process"
	}
	return who, true
}

// Unlock releases every lock the run holds, and removes the lockInfo files
// it wrote.
func Unlock() {
	locks.Lock()
	defer locks.Unlock()
	for key, f := range locks.held {
		if info, ok := locks.info[key]; ok {
			os.Remove(info)
		}
		f.Close()
	}
	locks.held, locks.info, locks.keys = nil, nil, nil
}
