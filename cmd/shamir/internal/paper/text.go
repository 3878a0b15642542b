// Package paper holds the paper copy of a share: the text form a person
// types back (this file), its QR code, written and read back from pictures
// within a budget (qr.go, picture.go), and the printed page (page.go).
package paper

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The text form of a share on paper is what a holder types back when the
// QR code will not scan. It is built for people typing it:
//
//	SHAMIR1
//	AAAGX BQDT4 ... (six groups a line)
//
// The share's bytes are written in base32 (RFC 4648's alphabet, A–Z and
// 2–7: no 0/O or 1/I to confuse, and every character is one a QR code
// stores in its compact alphanumeric mode). They are cut into groups of four
// characters, each followed by a check character, so a group is five. The
// first group holds the share's length in bytes (20 bits), the last one 20
// bits of the share's SHA-256; the groups between hold the share.
//
// The check character of group k (from 1), with c1…c4 its characters' values
// (0–31) and arithmetic in GF(32) (modulo x^5+x^2+1, a = x), is
//
//	c5 = a·c1 + a²·c2 + a³·c3 + a⁴·c4 + a^(k mod 31)
//
// The weights a, a², a³, a⁴ and 1 (for c5 itself) are nonzero and all
// different, so in GF(32), where a nonzero difference times a nonzero weight
// is never zero:
//   - one mistyped character changes the sum by (new−old)·weight ≠ 0;
//   - two neighbours swapped change it by (c−d)·(w_i − w_(i+1)) ≠ 0 when
//     c ≠ d;
//   - two neighbours swapped across a group boundary change the check
//     character of the first group, so that group fails, and the second too
//     unless its first character was the same.
//
// So every single mistyped character and every swap of two neighbours is
// caught, and the group (or the two groups) it is in is named. The term
// a^(k mod 31) ties each group to its place: a group copied onto the wrong
// line fails too. The final hash group catches, with odds of 2^-20 of
// missing it, anything several errors could get past the group checks.
// Spaces and line breaks are layout and are ignored, and so is the letter
// case: a swap of a character with a space is no error at all.

// Tag starts the text form, and tells it from other text.
const Tag = "SHAMIR1"

// GroupsPerLine is the layout of the text on paper; messages name a
// group by line and place as well as by number.
const GroupsPerLine = 6

// MaxShare bounds the shares written on paper: a QR code holds at
// most 4296 alphanumeric characters (version 40, at level L), and the text
// of a share of that many bytes fills the largest code at level M. Papers
// are for keys and passwords.
const MaxShare = 1200

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// gf32Mul multiplies in GF(32) modulo x^5 + x^2 + 1. The values are public
// (they are the characters of the text, which is the share itself on paper,
// but nothing here is secret from the one typing it), so a plain loop does.
func gf32Mul(a, b byte) byte {
	var p byte
	for range 5 {
		if b&1 != 0 {
			p ^= a
		}
		b >>= 1
		a <<= 1
		if a&0x20 != 0 {
			a ^= 0x25
		}
	}
	return p
}

// gf32Pow returns a^e, a = x = 2.
func gf32Pow(e int) byte {
	p := byte(1)
	for range e % 31 {
		p = gf32Mul(p, 2)
	}
	return p
}

// groupCheck returns the check character's value for the four values c of
// group k (from 1).
func groupCheck(c []byte, k int) byte {
	s := gf32Pow(k)
	for i, v := range c[:4] {
		s ^= gf32Mul(gf32Pow(i+1), v)
	}
	return s
}

// groupsOf returns the groups of the text form of share, five characters
// each.
func groupsOf(share []byte) []string {
	var vals []byte
	// The length, 20 bits.
	n := len(share)
	for i := 3; i >= 0; i-- {
		vals = append(vals, byte(n>>(5*i))&31)
	}
	// The share, 5 bits a character, the last padded with zeros.
	var acc, bits uint
	for _, b := range share {
		acc = acc<<8 | uint(b)
		bits += 8
		for bits >= 5 {
			bits -= 5
			vals = append(vals, byte(acc>>bits)&31)
		}
	}
	if bits > 0 {
		vals = append(vals, byte(acc<<(5-bits))&31)
	}
	for len(vals)%4 != 0 {
		vals = append(vals, 0)
	}
	sum := sha256.Sum256(share)
	h := uint(sum[0])<<12 | uint(sum[1])<<4 | uint(sum[2])>>4
	for i := 3; i >= 0; i-- {
		vals = append(vals, byte(h>>(5*i))&31)
	}
	var groups []string
	for k := 1; len(vals) > 0; k++ {
		g := make([]byte, 5)
		copy(g, vals[:4])
		g[4] = groupCheck(g, k)
		for i := range g {
			g[i] = base32Alphabet[g[i]]
		}
		groups = append(groups, string(g))
		vals = vals[4:]
	}
	return groups
}

// Text returns the text form of share laid out for paper: the tag on a
// line of its own, then six groups a line.
func Text(share []byte) string {
	var b strings.Builder
	b.WriteString(Tag + "\n")
	for i, g := range groupsOf(share) {
		b.WriteString(g)
		if (i+1)%GroupsPerLine == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.TrimRight(b.String(), " \n") + "\n"
}

// Compact returns the text form of share on one line, without spaces:
// what the QR code holds, in few characters, all of them alphanumeric.
func Compact(share []byte) string {
	return Tag + strings.Join(groupsOf(share), "")
}

// An Error says where the text form of a share is wrong. Group and
// Group2 (0 if one group is meant) are numbered from 1.
type Error struct {
	Group, Group2 int
	msg           string
}

func (e *Error) Error() string { return e.msg }

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

// Whole reports whether text, the first lines of a share typed from paper,
// holds all of it (its first group says how long it is), or cannot be a
// share at all: no further line can make it one.
func Whole(text string) bool {
	c := compact(text)
	if len(c) < 5 {
		return false
	}
	n := groupCount(c[:5])
	return n == 0 || len(c) >= 5*n
}

// compact drops the layout (spaces, line ends) and the tag, and
// upper-cases the rest.
func compact(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, s)
	return strings.TrimPrefix(s, Tag)
}

// groupCount returns how many groups the text of a share whose first
// group is first (five valid characters) must have, or 0 if first does not
// check.
func groupCount(first string) int {
	vals := make([]byte, 5)
	for i := range 5 {
		v := strings.IndexByte(base32Alphabet, first[i])
		if v < 0 {
			return 0
		}
		vals[i] = byte(v)
	}
	if groupCheck(vals, 1) != vals[4] {
		return 0
	}
	n := 0
	for _, v := range vals[:4] {
		n = n<<5 | int(v)
	}
	chars := (n*8 + 4) / 5
	return 1 + (chars+3)/4 + 1
}

// Parse decodes the text form of a share, with or without its tag
// and layout. Its errors are *Error and name the group that is wrong.
func Parse(s string) ([]byte, error) {
	c := compact(s)
	if c == "" {
		return nil, &Error{msg: "no characters after " + Tag}
	}
	ngroups := (len(c) + 4) / 5
	// Characters outside the alphabet, and the group checks: every bad
	// group is found before any is reported, so that a swap across two
	// groups is named as such.
	var bad []int
	for k := 1; k <= ngroups; k++ {
		g := c[(k-1)*5 : min(k*5, len(c))]
		for j := 0; j < len(g); j++ {
			if strings.IndexByte(base32Alphabet, g[j]) < 0 {
				return nil, &Error{Group: k, msg: fmt.Sprintf("%s, character %d: %q is not one of the code's characters (A to Z, 2 to 7)", groupPlace(k), j+1, g[j])}
			}
		}
		if len(g) < 5 {
			bad = append(bad, k)
			break
		}
		vals := make([]byte, 5)
		for j := range 5 {
			vals[j] = byte(strings.IndexByte(base32Alphabet, g[j]))
		}
		if groupCheck(vals, k) != vals[4] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		k := bad[0]
		switch {
		case len(c)%5 != 0 && len(bad) > 2:
			return nil, &Error{Group: k, msg: fmt.Sprintf("%s and the groups after it are wrong: a character left out or typed twice in it?", groupPlace(k))}
		case len(bad) == 2 && bad[1] == k+1:
			return nil, &Error{Group: k, Group2: k + 1, msg: fmt.Sprintf("%s and the next are wrong: a character mistyped, or two swapped across them", groupPlace(k))}
		case len(bad) == 1 && len(c)%5 != 0:
			return nil, &Error{Group: k, msg: fmt.Sprintf("%s is short: a character left out?", groupPlace(k))}
		case len(bad) == 1:
			return nil, &Error{Group: k, msg: fmt.Sprintf("%s %q is wrong: a character mistyped, or two swapped", groupPlace(k), c[(k-1)*5:k*5])}
		}
		var names []string
		for _, b := range bad {
			names = append(names, fmt.Sprint(b))
		}
		return nil, &Error{Group: k, msg: fmt.Sprintf("groups %s are wrong (%s is the first)", strings.Join(names, ", "), groupPlace(k))}
	}
	want := groupCount(c[:5])
	if want != ngroups {
		return nil, &Error{Group: 1, msg: fmt.Sprintf("%d groups, where group 1 says the share takes %d: a group left out or typed twice?", ngroups, want)}
	}
	vals := make([]byte, 0, 4*ngroups)
	for k := 0; k < ngroups; k++ {
		for j := range 4 {
			vals = append(vals, byte(strings.IndexByte(base32Alphabet, c[k*5+j])))
		}
	}
	n := 0
	for _, v := range vals[:4] {
		n = n<<5 | int(v)
	}
	data := vals[4 : len(vals)-4]
	share := make([]byte, 0, n)
	var acc, bits uint
	for _, v := range data {
		acc = acc<<5 | uint(v)
		bits += 5
		if bits >= 8 {
			bits -= 8
			if len(share) < n {
				share = append(share, byte(acc>>bits))
			}
		}
	}
	sum := sha256.Sum256(share)
	h := uint(sum[0])<<12 | uint(sum[1])<<4 | uint(sum[2])>>4
	var got uint
	for _, v := range vals[len(vals)-4:] {
		got = got<<5 | uint(v)
	}
	if got != h || len(share) != n {
		return nil, &Error{Group: ngroups, msg: fmt.Sprintf("the last group, %s, a checksum of the whole share, does not match: several characters are wrong", groupPlace(ngroups))}
	}
	return share, nil
}
