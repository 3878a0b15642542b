//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// flock takes the lock of the open folder f without waiting, exclusive or
// shared, and reports whether it could.
func flock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS):
			// A file system without locks (some network and FUSE
			// ones): the run goes on as it did before there were
			// locks; the journal and the check before the commit
			// still hold.
			return true, nil
		}
		return false, err
	}
}
