package shamir

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
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
	// of them are bad cannot be told: more of them disagree than the spare
	// shares given can outvote, or they were not made with the threshold
	// given. For SSMS shares, [CombineError.Sets] may name the shares that
	// agree with one another and those that do not.
	ErrInconsistentShares = errors.New("shamir: shares are inconsistent, and which are bad cannot be told")

	// ErrMixedSplits means that SSMS shares of more than one split were
	// given and the caller did not say which split is meant: the combining
	// functions never choose one. [CombineError.Splits] describes each;
	// [CombineSSMSSplit] and [NewCombineReaderSplit] recover the one named.
	ErrMixedSplits = errors.New("shamir: shares of more than one split")
)

// A BadShare is a share found bad while combining or verifying.
type BadShare struct {
	// Position is the share's index in the caller's argument, from 0:
	// shares[Position]. String prints it so, never as "share N", which a
	// reader could take for a file number or an SSMS index.
	Position int
	// Reason says what is wrong with it.
	Reason Reason
	// Err is the error the share's reader returned when Reason is
	// [Unreadable], and nil otherwise.
	Err error
}

func (b BadShare) String() string {
	if b.Reason == Unreadable && b.Err != nil {
		return fmt.Sprintf("shares[%d]: %v: %v", b.Position, b.Reason, b.Err)
	}
	return fmt.Sprintf("shares[%d]: %v", b.Position, b.Reason)
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
	// Duplicate: the share is a good copy of a share given earlier.
	Duplicate
	// OtherSplit: the share belongs to another split than the one named
	// by the caller.
	OtherSplit
	// NotSSMS: the share does not start as an SSMS share does.
	NotSSMS
	// Unsupported: the share was made by a newer version of the format, or
	// names an AEAD this version does not know.
	Unsupported
	// Unreadable: the share's reader returned an error (see [BadShare.Err]).
	Unreadable
	// Forged: the share claims a split ID, but its header's public key and
	// key check do not give that ID, or its signature does not verify
	// under that public key over its batch's statement, with the root its
	// Merkle path reaches from its leaf, the hash of its index and key
	// share, or a record's tag does not hold under the record key derived
	// from the split's key: it was made, or altered, by someone who does
	// not hold the split's key (an outsider, or fewer than threshold
	// holders), for example as a share of a split of their own under the
	// genuine ID, or a genuine share's file with its records altered in
	// place. Each header is judged on its own, without the key, and each
	// record on its own with the key (docs/FORMAT.md), so forged shares
	// never stop the genuine ones from recovering the secret.
	Forged
	// OtherGeneration: the share is of the split named by the caller, but
	// of another generation (each refresh makes a new one).
	OtherGeneration
)

var reasonText = [...]string{
	Inconsistent:    "disagrees with the other shares",
	Damaged:         "damaged",
	Truncated:       "truncated",
	Extended:        "has data past its end",
	Duplicate:       "duplicate",
	OtherSplit:      "of another split",
	NotSSMS:         "not an SSMS share",
	Unsupported:     "unsupported version or AEAD",
	Unreadable:      "unreadable",
	Forged:          "not made with the split's key (forged)",
	OtherGeneration: "of another generation of the split",
}

func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonText) {
		return reasonText[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// A CombineError is returned when SSMS shares do not recover the secret (by
// the combining functions and by [RecreateSSMS], [ExtendSSMS],
// [ReshareSSMS] and their streaming forms), when [RefreshSSMS] or
// [RefreshSSMSHeaders] refuse bad shares, and when [Recreate], [Extend],
// [Refresh] or [Reshare] refuse plain parts that disagree and can name the
// bad ones: nothing is derived from such parts.
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
	// its threshold, or 0 when no share's header could be read. Copies of
	// one share count once.
	Good, Needed int
	// Splits describes each split, or generation of a split, whose shares
	// were given, when Err is [ErrMixedSplits], in the order of their first
	// share; it is nil otherwise.
	Splits []SplitShares
	// Sets, when Err is [ErrInconsistentShares] because the shares
	// disagree beyond the error-correction bound, holds two lists of
	// positions: Sets[0], threshold or more shares that agree with one
	// another and recover the secret (or the key), and Sets[1], the shares
	// whose headers authenticate under the split's key (and, for a chunk,
	// whose records' tags hold) but disagree with them. The shares cannot
	// tell which set is the dealer's: holders who know the key could have
	// made either; an outsider, or up to threshold−1 holders, could have
	// made neither (their shares and records are [Forged]). It is nil
	// otherwise.
	Sets [][]int
	// Several, when Err is [ErrInconsistentShares], lists for each SSMS
	// index given more than one value (distinct headers whose signatures
	// hold, or distinct records of the chunk that was refused) the
	// positions of the shares that give it, by increasing index: at most
	// one value of each index is the dealer's, so these are the files to
	// compare first. It is nil otherwise.
	Several [][]int
}

// A SplitShares describes the shares of one split among those given to a
// combining function, when they hold shares of more than one split.
type SplitShares struct {
	ID SplitID
	// Generation is the generation of the split the shares are of: 0 when
	// it was made, one more at each refresh.
	Generation uint32
	// Newest is set on the newest generation of the split among those
	// whose key was recovered and checked against the split ID.
	Newest bool
	// Threshold is the split's, as its shares' headers say.
	Threshold int
	// Positions are those of the split's shares whose headers could be
	// read, in increasing order.
	Positions []int
	// Good is the number of them found good in the split's first chunk:
	// their headers authenticate under the split's key, and their first
	// records agree with the first chunk, which opened. It is 0 if the key
	// was not recovered or the first chunk did not open. Copies of one share
	// count once.
	Good int
}

// A SplitID names an SSMS split: the same 16 bytes in the header of every
// share of the split ([SSMSInfo]), a commitment to the split's key
// (docs/FORMAT.md): only holders of the key can make shares that combine
// under it.
type SplitID [16]byte

// A SplitName names one generation of one split: [RefreshSSMS] makes a new
// generation, whose shares do not combine with those of the others.
type SplitName struct {
	ID         SplitID
	Generation uint32
}

// String returns the name as the split ID, a slash and the generation in
// decimal, the form [ParseSplitName] reads.
func (n SplitName) String() string { return fmt.Sprintf("%v/%d", n.ID, n.Generation) }

// ParseSplitName parses a name in the form [SplitName.String] writes.
func ParseSplitName(s string) (SplitName, error) {
	id, gen, ok := strings.Cut(s, "/")
	if !ok {
		return SplitName{}, fmt.Errorf("shamir: split name %q: not a split ID, a slash and a generation", s)
	}
	n, err := strconv.ParseUint(gen, 10, 32)
	if err != nil || gen != strconv.FormatUint(n, 10) {
		return SplitName{}, fmt.Errorf("shamir: split name %q: generation %q is not a number below 2^32", s, gen)
	}
	sid, err := ParseSplitID(id)
	if err != nil {
		return SplitName{}, err
	}
	return SplitName{sid, uint32(n)}, nil
}

// String returns the ID as 32 lowercase hexadecimal digits, the form
// [ParseSplitID] reads.
func (id SplitID) String() string { return hex.EncodeToString(id[:]) }

// ParseSplitID parses an ID in the form [SplitID.String] writes.
func ParseSplitID(s string) (SplitID, error) {
	var id SplitID
	if len(s) != 2*len(id) {
		return id, fmt.Errorf("shamir: split ID %q: not %d hexadecimal digits", s, 2*len(id))
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, fmt.Errorf("shamir: split ID %q: not %d hexadecimal digits", s, 2*len(id))
	}
	return id, nil
}

func (e *CombineError) Error() string {
	var b strings.Builder
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("shamir: the secret was not recovered")
	}
	for i, sp := range e.Splits {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		newest := ""
		if sp.Newest {
			newest = ", newest"
		}
		fmt.Fprintf(&b, "split %v (threshold %d%s): %d good of %d (%s)", SplitName{sp.ID, sp.Generation}, sp.Threshold,
			newest, sp.Good, len(sp.Positions), positionList(sp.Positions))
	}
	if len(e.Sets) == 2 {
		fmt.Fprintf(&b, ": %s agree but %s %s, more than the shares given can outvote",
			positionList(e.Sets[0]), positionList(e.Sets[1]), plural(len(e.Sets[1]), "disagrees", "disagree"))
	}
	for _, ps := range e.Several {
		fmt.Fprintf(&b, ": %s give one index different values", positionList(ps))
	}
	switch {
	case e.Needed == 0 || e.Splits != nil:
	case errors.Is(e.Err, ErrInconsistentShares):
		fmt.Fprintf(&b, ": %d %s not found bad, %d needed", e.Good, plural(e.Good, "share", "shares"), e.Needed)
	default:
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

// positionList returns the positions as "0, 2, 5".
// positionList prints positions in the caller's argument as shares[i],
// like BadShare.String.
func positionList(ps []int) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "shares[%d]", p)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
