//go:build !linux

package outfile

import "os"

// startWriteback does nothing where there is no sync_file_range.
func startWriteback(*os.File) {}

// datasync makes the data of f durable, with all it needs to be read back.
func datasync(f *os.File) error { return f.Sync() }
