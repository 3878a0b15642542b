package outfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts writing the data of f to the disk, without waiting
// and without making anything durable: the syncs that follow do that, and
// find it written, so that the file system can commit many files' new
// blocks at once rather than one sync at a time. It only saves time; a
// failure is the sync's to report.
func startWriteback(f *os.File) {
	unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}

// datasync makes the data of f durable, and what is needed to read it back
// (its size and where its blocks are), but not its times: a journal's
// commit line, written over the room kept for it, changes nothing else.
func datasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
