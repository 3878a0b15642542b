package main

import (
	"errors"
	"io"

	"github.com/gf256/shamir"
)

// This file is the seam between the command and the library: Verify and
// CombineRobust, and the SSMS format, which another branch (ssms) is still
// writing. Until it is merged, the SSMS stand-ins below keep the command
// building; they become calls to the library when it has them.

var errNotYet = errors.New("this build of shamir lacks the library support for it")

// verifyParts checks Vault-format parts made with threshold against each
// other.
func verifyParts(parts [][]byte, threshold int) error {
	return shamir.Verify(parts, threshold)
}

// combineRobust recovers the secret from Vault-format parts made with
// threshold, setting aside up to (len(parts)-threshold)/2 bad ones, whose
// indexes it returns.
func combineRobust(parts [][]byte, threshold int) ([]byte, []int, error) {
	return shamir.CombineRobust(parts, threshold)
}

// isSSMS reports whether head, the start of a file, is the start of an SSMS
// share.
func isSSMS(head []byte) bool {
	return false
}

// newSplitWriter is shamir.NewSplitWriter.
func newSplitWriter(shares []io.Writer, threshold int) (io.WriteCloser, error) {
	return nil, errNotYet
}

// newCombineReader is shamir.NewCombineReader.
func newCombineReader(shares []io.Reader) (io.Reader, error) {
	return nil, errNotYet
}
