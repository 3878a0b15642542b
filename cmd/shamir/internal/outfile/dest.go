package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// withHints attaches advice to a refusal.
func withHints(err error, hints ...string) error { return hint.With(err, hints...) }

// ErrExists is wrapped by the error for a destination that exists when the
// set may not replace it.
var ErrExists = errors.New("already exists")

// existsError returns the error for an existing destination, with advice.
func existsError(path string) error {
	return withHints(fmt.Errorf("%s %w", quote(path), ErrExists),
		"remove it, choose another output, or use -f to overwrite it")
}

// A destination is what Create found at a name.
type destination struct {
	stream bool   // a character device or a pipe: written into as it is
	target string // the regular file to replace or create: the name, or what its link points to
}

// CheckDest reports, without writing anything, whether Create would refuse
// dest: it is called before any input is read, so that no one types shares,
// or waits, for a run that would fail.
func CheckDest(dest string, force bool) error {
	_, err := examine(dest, force, nil)
	return err
}

// examine tells how dest is to be written, or why it may not be.
func examine(dest string, force bool, inputs []os.FileInfo) (destination, error) {
	lfi, err := os.Lstat(dest)
	if errors.Is(err, fs.ErrNotExist) {
		return destination{target: dest}, nil
	}
	if err != nil {
		return destination{}, pathError(err)
	}
	fi, target := lfi, dest
	if lfi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(dest); err != nil {
			return destination{}, withHints(fmt.Errorf("%s is a symbolic link to a file that cannot be opened (%v)", quote(dest), unwrap(err)),
				"name the file itself, or remove the link")
		}
		if fi.Mode().IsRegular() {
			// Replace the file the link points to, in its folder,
			// and keep the link.
			if target, err = filepath.EvalSymlinks(dest); err != nil {
				return destination{}, pathError(err)
			}
		}
	}
	for _, in := range inputs {
		if os.SameFile(fi, in) {
			return destination{}, withHints(fmt.Errorf("%s is one of the inputs: writing it would destroy what is read", quote(dest)),
				"choose another output")
		}
	}
	mode := fi.Mode()
	switch {
	case mode.IsDir():
		return destination{}, fmt.Errorf("%s is a folder; name a file to write", quote(dest))
	case mode&fs.ModeCharDevice != 0 || mode&fs.ModeNamedPipe != 0:
		return destination{stream: true}, nil
	case !mode.IsRegular():
		return destination{}, fmt.Errorf("%s is %s: shamir writes regular files, and into character devices and named pipes", quote(dest), kind(mode))
	case !force:
		return destination{}, existsError(dest)
	}
	return destination{target: target}, nil
}

// kind names a file's type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}
