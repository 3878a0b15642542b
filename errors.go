package shamir

import (
	"errors"
	"fmt"
	"strings"
)

// The results of the combining functions ([CombineRobust], [CombineSSMS],
// [NewCombineReader]) follow one contract: err == nil if and only if the
// secret was recovered (for SSMS, and authenticated). Shares found bad on the
// way are not an error: they are returned as a value, a list of [BadShare],
// beside the secret. An error means there is no secret; it says why, and a
// [*CombineError] lists the shares found bad.

// Errors a caller may branch on, compared with [errors.Is]. Every other error
// of the package means that the arguments are unusable as given, and says
// how in its message.
var (
	// ErrNotEnoughShares means that fewer good shares were given than the
	// split's threshold: add shares, or replace the bad ones.
	ErrNotEnoughShares = errors.New("shamir: not enough good shares to recover the secret")

	// ErrInconsistentShares means that the shares disagree and that which
	// of them are bad cannot be told: more of them are bad than the spare
	// shares given can correct, or they were not made with the threshold
	// given.
	ErrInconsistentShares = errors.New("shamir: shares are inconsistent, and which are bad cannot be told")

	// ErrMixedSplits means that the shares belong to several splits, each
	// with enough good shares to be recovered, so which one is meant cannot
	// be told.
	ErrMixedSplits = errors.New("shamir: shares of several splits, each complete")
)

// A BadShare is a share found bad while combining or verifying.
type BadShare struct {
	// Position is the share's index in the caller's argument.
	Position int
	// Reason says what is wrong with it.
	Reason Reason
	// Err is the error the share's reader returned when Reason is
	// [Unreadable], and nil otherwise.
	Err error
}

func (b BadShare) String() string {
	if b.Reason == Unreadable && b.Err != nil {
		return fmt.Sprintf("share %d: %v: %v", b.Position, b.Reason, b.Err)
	}
	return fmt.Sprintf("share %d: %v", b.Position, b.Reason)
}

// A Reason says why a share is bad.
type Reason int

const (
	// Inconsistent: the share disagrees with the other shares. For plain
	// shares ([Verify], [CombineRobust]) it is the only reason; an SSMS share
	// that passes its checksums but disagrees was altered on purpose.
	Inconsistent Reason = iota + 1
	// Damaged: the share's checksums do not match, or its header holds
	// values no split writes.
	Damaged
	// Truncated: the share ends before its last chunk does.
	Truncated
	// Extended: the share has bytes after its last chunk.
	Extended
	// Duplicate: the share repeats, or has the same index or key x
	// coordinate as, a share given earlier.
	Duplicate
	// OtherSplit: the share belongs to another split than the one
	// recovered.
	OtherSplit
	// NotSSMS: the share does not start as an SSMS share does.
	NotSSMS
	// Unsupported: the share was made by a newer version of the format, or
	// names an AEAD this version does not know.
	Unsupported
	// Unreadable: the share's reader returned an error (see [BadShare.Err]).
	Unreadable
)

var reasonText = [...]string{
	Inconsistent: "disagrees with the other shares",
	Damaged:      "damaged",
	Truncated:    "truncated",
	Extended:     "has data past its end",
	Duplicate:    "duplicate",
	OtherSplit:   "of another split",
	NotSSMS:      "not an SSMS share",
	Unsupported:  "unsupported version or AEAD",
	Unreadable:   "unreadable",
}

func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonText) {
		return reasonText[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// A CombineError is returned when SSMS shares do not recover the secret, and
// when [Recreate], [Extend], [Refresh] or [Reshare] refuse plain parts that
// disagree and can name the bad ones: nothing is derived from such parts.
// It says why, which shares were found bad, and how many good shares there
// were.
type CombineError struct {
	// Err is why: [ErrNotEnoughShares], [ErrInconsistentShares],
	// [ErrMixedSplits], or an error wrapping [ErrNotApproved] that names
	// the AEAD refused.
	Err error
	// Bad lists the shares found bad, by increasing position.
	Bad []BadShare
	// Good is the number of shares of the split not found bad, and Needed
	// its threshold, or 0 when no share's header could be read.
	Good, Needed int
}

func (e *CombineError) Error() string {
	var b strings.Builder
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("shamir: the secret was not recovered")
	}
	if e.Needed > 0 {
		fmt.Fprintf(&b, ": %d good %s, %d needed", e.Good, plural(e.Good, "share", "shares"), e.Needed)
	}
	for i, s := range e.Bad {
		if i == 0 {
			b.WriteString("; bad: ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// Unwrap returns e.Err, for [errors.Is].
func (e *CombineError) Unwrap() error { return e.Err }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
