package paper

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// This file reads the text form back: from a file, whole (Parse), or as a
// person types it, a line at a time (entry.go). Both check each group as
// it comes and name the first one that is wrong, telling a mistyped
// character from one left out, a group left out or typed twice, and two
// groups swapped.

// An Error says where the text form of a share is wrong. Group and
// Group2 (0 if one group is meant) are numbered from 1.
type Error struct {
	Group, Group2 int
	msg           string
	// mistyped says that the group is wrong in place, neither shifted
	// nor cut: the groups after it can still be checked.
	mistyped bool
}

func (e *Error) Error() string { return e.msg }

func errorf(k, k2 int, format string, args ...any) *Error {
	return &Error{Group: k, Group2: k2, msg: fmt.Sprintf(format, args...)}
}

// groupPlace names group k for a message: its number and its place on
// paper.
func groupPlace(k int) string {
	return fmt.Sprintf("group %d (line %d, group %d)", k, (k-1)/GroupsPerLine+1, (k-1)%GroupsPerLine+1)
}

// IsText reports whether s starts, past spaces, with the tag of the
// text form.
func IsText(s string) bool {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	return len(s) >= len(Tag) && strings.EqualFold(s[:len(Tag)], Tag)
}

// tags finds the starts of shares in a text.
var tags = regexp.MustCompile(`(?i)` + Tag)

// Split returns the texts of the shares in text, each from its tag up to
// the next one's, or the end.
func Split(text string) []string {
	locs := tags.FindAllStringIndex(text, -1)
	var out []string
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, text[loc[0]:end])
	}
	return out
}

// isLayout reports whether r only lays the text out: spaces, line ends,
// and the dashes, dots and underscores people put between groups.
func isLayout(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("-‐‑–—_.·", r)
}

// normalise drops the layout of s and, if first, the tag, upper-cases
// the rest and reads 0 as O and 8 as B. It returns the characters, all of
// the alphabet or 1, or an error naming the first character that is
// neither; k is the number of the group the text starts in, and at the
// characters of a group already begun.
func normalise(s string, first bool, k, at int) (string, error) {
	s = strings.Map(func(r rune) rune {
		switch {
		case isLayout(r):
			return -1
		case r == '0':
			return 'O'
		case r == '8':
			return 'B'
		}
		return unicode.ToUpper(r)
	}, s)
	if first {
		s = strings.TrimPrefix(s, Tag)
	}
	i := at
	for _, r := range s {
		if r != '1' && (r > 0x7f || strings.IndexByte(base32Alphabet, byte(r)) < 0) {
			g := k + i/5
			return "", errorf(g, 0, "%s, character %d: %q is not one of the code's characters (A to Z, 2 to 7)", groupPlace(g), i%5+1, r)
		}
		i++
	}
	return s, nil
}

// The values of I and L, the letters a 1 is taken for.
const valueI, valueL = 'I' - 'A', 'L' - 'A'

// checkGroup returns the values of the five characters g (of the alphabet,
// or 1) at place k, and whether they check. A 1 is read as I or as L,
// whichever checks: one mistyped character never checks, so of a single
// 1's two readings at most one does. With several 1s, more than one
// reading may check, and ambiguous is set.
func checkGroup(g string, k int) (vals [5]byte, ok, ambiguous bool) {
	var ones []int
	for i := range 5 {
		if g[i] == '1' {
			ones = append(ones, i)
			continue
		}
		vals[i] = byte(strings.IndexByte(base32Alphabet, g[i]))
	}
	found := 0
	var good [5]byte
	for m := range 1 << len(ones) {
		v := vals
		for j, i := range ones {
			v[i] = valueI
			if m>>j&1 == 1 {
				v[i] = valueL
			}
		}
		if groupCheck(v[:], k) == v[4] {
			found++
			good = v
		}
	}
	return good, found == 1, found > 1
}

// checks reports whether the group at c[off:] checks at place k.
func checks(c string, off, k int) bool {
	if off < 0 || off+5 > len(c) || k < 1 {
		return false
	}
	_, ok, _ := checkGroup(c[off:off+5], k)
	return ok
}

// checkGroups checks the complete groups of c, which starts with group
// from, and returns their values, or an error naming the first that does
// not check and, as far as the groups after it tell, why. want is the
// number of groups the share has, if known (0 if not); from group 1 on,
// group 1 tells it.
func checkGroups(c string, from, want int) ([][5]byte, *Error) {
	var vals [][5]byte
	for i := 0; i+5 <= len(c); i += 5 {
		k := from + i/5
		v, ok, ambiguous := checkGroup(c[i:i+5], k)
		if ambiguous {
			return nil, errorf(k, 0, "%s %q: each 1 in it could be an I or an L, and more than one reading checks: type the letters", groupPlace(k), c[i:i+5])
		}
		if !ok {
			return nil, moreMistyped(c, from, i, want, diagnose(c, from, i, want))
		}
		if k == 1 {
			_, want = length(v)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// following reports whether every complete group of c from offset off on
// checks at its place counted from k, and either there is one, or the
// text ends there and has the groups the share has (want, if known).
func following(c string, off, k, want int) bool {
	if off+5 > len(c) {
		return off == len(c) && k == want+1
	}
	for ; off+5 <= len(c); off, k = off+5, k+1 {
		if !checks(c, off, k) {
			return false
		}
	}
	return true
}

// maxShift is how far groups left out or typed twice are looked for: the
// term for the place repeats after 31 groups.
const maxShift = 30

// diagnose explains why the group at c[off:], of c starting with group
// from, does not check, in a share of want groups (0 if not known). It
// names what the groups after it confirm: a character or groups left out
// or typed twice. Otherwise it names the group, or the group and the next
// when both fail (a swap across them).
func diagnose(c string, from, off, want int) *Error {
	k := from + off/5
	g := c[off : off+5]
	for d := 1; d <= maxShift; d++ {
		if checks(c, off, k+d) && following(c, off+5, k+d+1, want) {
			if d == 1 {
				return errorf(k, 0, "%s is missing: the group typed in its place is group %d", groupPlace(k), k+1)
			}
			return errorf(k, 0, "groups %d to %d are missing: the group typed as %s is group %d", k, k+d-1, groupPlace(k), k+d)
		}
		if checks(c, off, k-d) && following(c, off+5, k-d+1, want) {
			if d == 1 {
				return errorf(k, 0, "an extra group where %s should be: it is group %d again", groupPlace(k), k-1)
			}
			return errorf(k, 0, "%d extra groups where %s should be: groups %d to %d again", d, groupPlace(k), k-d, k-1)
		}
	}
	switch {
	case following(c, off+4, k+1, want):
		return errorf(k, 0, "%s %q: a character is left out, in it or at the end of the group before", groupPlace(k), g)
	// The next two overlap: a character too many in group k-1, which
	// passed its check by chance, realigns both from off+1 and from
	// off+6. The first asks one group more to check.
	case k > 1 && following(c, off+1, k, want):
		return errorf(k-1, k, "a character too many in group %d or at the start of %s", k-1, groupPlace(k))
	case following(c, off+6, k+1, want):
		return errorf(k, 0, "%s %q: a character too many in it", groupPlace(k), c[off:off+6])
	case off+10 <= len(c) && !checks(c, off+5, k+1):
		return errorf(k, k+1, "%s and the next are wrong: a character mistyped, or two swapped across them", groupPlace(k))
	}
	e := errorf(k, 0, "%s %q is wrong: a character mistyped, or two swapped", groupPlace(k), g)
	e.mistyped = true
	return e
}

// moreMistyped returns e, the error of the group at c[off:], naming also
// the groups after it that are mistyped in place, so that one reading
// finds every group to correct.
func moreMistyped(c string, from, off, want int, e *Error) *Error {
	if !e.mistyped {
		return e
	}
	var more []string
	for i := off + 5; i+5 <= len(c); i += 5 {
		k := from + i/5
		if checks(c, i, k) {
			continue
		}
		d := diagnose(c, from, i, want)
		if !d.mistyped {
			break
		}
		more = append(more, fmt.Sprintf("%s %q", groupPlace(k), c[i:i+5]))
	}
	if len(more) == 0 {
		return e
	}
	k := e.Group
	list := fmt.Sprintf("%s %q", groupPlace(k), c[off:off+5])
	for i, m := range more {
		list += pickSep(i == len(more)-1) + m
	}
	return &Error{Group: k, msg: list + " are wrong: in each, a character mistyped, or two swapped", mistyped: true}
}

func pickSep(last bool) string {
	if last {
		return " and "
	}
	return ", "
}

// length returns the share's length in bytes that group 1 holds, and
// how many groups its text has.
func length(first [5]byte) (n, groups int) {
	for _, v := range first[:4] {
		n = n<<5 | int(v)
	}
	chars := (n*8 + 4) / 5
	return n, 1 + (chars+3)/4 + 1
}

// Parse decodes the text form of a share, with or without its tag
// and layout. Its errors are *Error and name the group that is wrong.
func Parse(s string) ([]byte, error) {
	c, err := normalise(s, true, 1, 0)
	if err != nil {
		return nil, err
	}
	if c == "" {
		return nil, &Error{msg: "no characters after " + Tag}
	}
	vals, e := checkGroups(c, 1, 0)
	if e != nil {
		return nil, e
	}
	if len(c)%5 != 0 {
		k := len(vals) + 1
		return nil, errorf(k, 0, "%s %q is short: a character left out?", groupPlace(k), c[len(c)/5*5:])
	}
	if err := countGroups(vals); err != nil {
		return nil, err
	}
	return decode(vals)
}

// countGroups checks that vals are as many groups as the first says.
func countGroups(vals [][5]byte) error {
	_, want := length(vals[0])
	switch n := len(vals); {
	case n < want:
		return errorf(n+1, 0, "the share has %d groups, and the text %d: %s and the groups after it are missing", want, n, groupPlace(n+1))
	case n > want:
		return errorf(want+1, 0, "the share has %d groups, and the text %d: %s and the groups after it are extra", want, n, groupPlace(want+1))
	}
	return nil
}

// decode returns the share the groups vals hold, checked against its hash
// in the last group.
func decode(vals [][5]byte) ([]byte, error) {
	if share, ok := decodeGroups(vals); ok {
		return share, nil
	}
	// Each group's check ties it to its place only up to 31 groups: two
	// groups 31 apart that were swapped pass their checks. Find them, in
	// the text of a share that goes on paper: the search takes a hash of
	// the share for each pair, some 4000 for the largest.
	for i := 1; i < len(vals) && len(vals) <= maxSwapSearch; i++ {
		for j := i + 31; j < len(vals); j += 31 {
			vals[i], vals[j] = vals[j], vals[i]
			_, ok := decodeGroups(vals)
			vals[i], vals[j] = vals[j], vals[i]
			if ok {
				return nil, errorf(i+1, j+1, "%s and %s are swapped: each passes its check in the other's place, but not the checksum of the whole share", groupPlace(i+1), groupPlace(j+1))
			}
		}
	}
	k := len(vals)
	return nil, errorf(k, 0, "the last group, %s, a checksum of the whole share, does not match: several characters are wrong", groupPlace(k))
}

// maxSwapSearch is the most groups in which decode looks for a swap: those
// of a share of MaxShare bytes.
var maxSwapSearch = len(groupsOf(make([]byte, MaxShare)))

// decodeGroups returns the share in vals, and whether its hash matches.
func decodeGroups(vals [][5]byte) ([]byte, bool) {
	n, _ := length(vals[0])
	share := make([]byte, 0, n)
	var acc, bits uint
	for _, g := range vals[1 : len(vals)-1] {
		for _, v := range g[:4] {
			acc = acc<<5 | uint(v)
			bits += 5
			if bits >= 8 {
				bits -= 8
				if len(share) < n {
					share = append(share, byte(acc>>bits))
				}
			}
		}
	}
	sum := sha256.Sum256(share)
	h := uint(sum[0])<<12 | uint(sum[1])<<4 | uint(sum[2])>>4
	var got uint
	for _, v := range vals[len(vals)-1][:4] {
		got = got<<5 | uint(v)
	}
	return share, got == h && len(share) == n
}
