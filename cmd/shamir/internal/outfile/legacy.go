package outfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Earlier versions of shamir replaced files in place without a commit
// point: in each folder, a list of renames (.shamir-RANDOM.renames: per
// line the temporary name, the name the old file was kept under, and the
// file's name, each quoted as a Go string), then for each file the old one
// kept as .shamir-RANDOM.old and the new one renamed over it. A folder such
// a run left halfway is still told (Interrupted), with how to finish or
// undo it by hand.

// An oldRename is one line of such a list: base names in one folder.
type oldRename struct{ tmp, old, dest string }

// maxList bounds the size of a list of renames that Interrupted reads: a
// few hundred files of names of 255 bytes.
const maxList = 1 << 20

// readList reads a list of renames. Its names are base names: a line that
// names anything else is not of a list a set wrote.
func readList(path string) ([]oldRename, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxList+1))
	if err != nil {
		return nil, pathError(err)
	}
	if len(data) > maxList {
		return nil, fmt.Errorf("%s is over %d bytes: not a list of renames", quote(path), maxList)
	}
	var list []oldRename
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var names [3]string
		rest := line
		for i := range names {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("%s is not a list of renames", quote(path))
			}
			names[i], _ = strconv.Unquote(q)
			rest = strings.TrimPrefix(rest[len(q):], " ")
			if names[i] == "" || names[i] != filepath.Base(names[i]) || names[i] == ".." {
				return nil, fmt.Errorf("%s is not a list of renames", quote(path))
			}
		}
		if rest != "" {
			return nil, fmt.Errorf("%s is not a list of renames", quote(path))
		}
		list = append(list, oldRename{names[0], names[1], names[2]})
	}
	return list, nil
}
