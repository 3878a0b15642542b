package main

import (
	"io"

	"github.com/gf256/shamir"
)

// This file gathers the library functions the command uses beyond Split and
// Combine, so that what it needs of the library is in one place.

// verifyParts checks Vault-format parts made with threshold against each
// other, and returns those it finds bad.
func verifyParts(parts [][]byte, threshold int) ([]shamir.BadShare, error) {
	return shamir.Verify(parts, threshold)
}

// combineRobust recovers the secret from Vault-format parts made with
// threshold, setting aside up to (len(parts)-threshold)/2 bad ones, which it
// returns.
func combineRobust(parts [][]byte, threshold int) ([]byte, []shamir.BadShare, error) {
	return shamir.CombineRobust(parts, threshold)
}

// isSSMS reports whether head, the start of a file, is the start of an SSMS
// share, or of what is left of one.
func isSSMS(head []byte) bool {
	return shamir.IsSSMS(head)
}

// inspectSSMS returns the split's parts and threshold that the header at
// the start of head gives, or zeros if it has none that checks.
func inspectSSMS(head []byte) (parts, threshold int) {
	info, err := shamir.InspectSSMS(head)
	if err != nil {
		return 0, 0
	}
	return info.Parts, info.Threshold
}

// newSplitWriter writes SSMS shares.
func newSplitWriter(shares []io.Writer, threshold int) (io.WriteCloser, error) {
	return shamir.NewSplitWriter(shares, threshold)
}

// newCombineReader reads a secret from SSMS shares.
func newCombineReader(shares []io.Reader) (*shamir.CombineReader, error) {
	return shamir.NewCombineReader(shares)
}
