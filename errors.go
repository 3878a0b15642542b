package shamir

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadShares is matched (errors.Is) by every *BadSharesError.
var ErrBadShares = errors.New("shamir: bad shares")

// A BadSharesError reports shares that were found damaged, truncated,
// duplicated, inconsistent with the others or from another split. Get it with
// errors.As to learn which shares to replace.
//
// The functions that derive new shares from plain shares ([Recreate],
// [Extend], [Refresh], [Reshare]) return it, with Err
// [ErrInconsistentShares], when they refuse parts that disagree, as
// [Verify] reports them: nothing is derived from such parts, whether or
// not the bad ones could be located.
type BadSharesError struct {
	// Positions lists, in increasing order, the indexes into the caller's
	// argument of the shares found bad. It is empty when the shares are known
	// to be inconsistent but there is not enough redundancy to tell which
	// are wrong.
	Positions []int
	// Reasons, when not nil, holds for each of Positions why that share is
	// bad. SSMS shares carry checksums and headers that tell: each reason is
	// one of ErrShareDamaged, ErrShareTruncated, ErrShareExtended,
	// ErrShareInconsistent, ErrOtherSplit, errDuplicatePart,
	// ErrNotSSMSShare, ErrUnsupportedVersion and ErrUnsupportedAEAD. Verify,
	// CombineRobust and the functions that derive new plain shares leave it
	// nil: a plain share only disagrees with the others.
	Reasons []error
	// Err, when not nil, says more: for example the reason the shares could
	// not be used.
	Err error
}

func (e *BadSharesError) Error() string {
	var b strings.Builder
	if len(e.Positions) == 0 {
		b.WriteString("shamir: shares are inconsistent; which are bad cannot be told")
	} else {
		b.WriteString("shamir: bad shares at positions ")
		for i, p := range e.Positions {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, p)
			if i < len(e.Reasons) && e.Reasons[i] != nil {
				fmt.Fprintf(&b, " (%s)", strings.TrimPrefix(e.Reasons[i].Error(), "shamir: "))
			}
		}
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap makes errors.Is match ErrBadShares and e.Err.
func (e *BadSharesError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrBadShares}
	}
	return []error{ErrBadShares, e.Err}
}
