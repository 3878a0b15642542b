package outfile

import (
	"crypto/rand"
	"encoding/base32"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The files a set makes besides its destinations are named
// ".shamir-RANDOM.EXT", whatever the destination: short, so that a
// destination whose name is near the system's limit (255 bytes) still has
// a temporary name that fits; hidden, from ls and from globs like *.shamir;
// and recognisable, so that a run that reads a folder never takes what an
// interrupted run left there for a share. EXT is
//
//	tmp      a file being written (the new one, in ReplaceInPlace)
//	old      ReplaceInPlace: an old file, kept until all are replaced
//	renames  ReplaceInPlace: the list of renames being made (see Interrupted)
const (
	namePrefix = ".shamir-"
	extTmp     = ".tmp"
	extOld     = ".old"
	extRenames = ".renames"
)

// olderTemp matches the temporary names of earlier versions of shamir:
// ".NAME.DIGITS.tmp".
var olderTemp = regexp.MustCompile(`^\..+\.[0-9]+\.tmp$`)

// IsLeftover reports whether the file name (its last element is looked at)
// is one a set gives the files it makes besides its destinations: what a
// run of shamir that was stopped without cleaning up (killed, or the power
// cut) left behind. Such a file is never to be read as a share.
func IsLeftover(name string) bool {
	base := filepath.Base(name)
	if olderTemp.MatchString(base) {
		return true
	}
	rest, ok := strings.CutPrefix(base, namePrefix)
	if !ok {
		return false
	}
	for _, ext := range []string{extTmp, extOld, extRenames, extJournal, extCommitted, extLock} {
		if r, ok := strings.CutSuffix(rest, ext); ok && r != "" && !strings.Contains(r, ".") {
			return true
		}
	}
	return false
}

var randomName = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newName returns a new name for a file of a set, with extension ext, in
// the folder dir.
func newName(dir, ext string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return filepath.Join(dir, namePrefix+randomName.EncodeToString(b)+ext)
}

// createTemp creates a new temporary file, mode 0600, in dir. With an id
// (that of a set's journal), its name is .shamir-ID-RANDOM.tmp: the
// journal's, whatever becomes of it (see Set.Journal).
func createTemp(dir, id string) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := newName(dir, extTmp)
		if id != "" {
			name = filepath.Join(dir, namePrefix+id+"-"+strings.TrimPrefix(filepath.Base(name), namePrefix))
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, name, nil
		}
		if !errors.Is(err, fs.ErrExist) || try == 10 {
			return nil, "", err
		}
	}
}
