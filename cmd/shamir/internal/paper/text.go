// Package paper holds the paper copy of a share: the text form a person
// types back (this file), its QR code, written and read back from pictures
// within a budget (qr.go, picture.go), and the printed page (page.go).
package paper

import (
	"crypto/sha256"
	"strings"
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
// case: a swap of a character with a space is no error at all. The
// term for the place repeats after 31 groups: groups k and k+31 swapped pass
// their checks, and the hash group finds them (parse.go names them).
//
// Reading it back forgives what people do (parse.go): dashes, dots and
// underscores between groups are layout too; 0 and 8, which are not in
// the alphabet, are read as the O and B they are taken for; a 1 is read as
// I or L, whichever the group's check accepts.

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
