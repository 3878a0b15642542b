//go:build !unix

package outfile

import (
	"os"
	"syscall"
)

// exitBySignal ends shamir with the status a shell reports for a process
// that sig ended.
func exitBySignal(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		os.Exit(128 + int(s))
	}
	os.Exit(1)
}
