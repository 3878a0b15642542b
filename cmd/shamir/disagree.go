package main

import (
	"fmt"
	"strings"

	"github.com/gf256/shamir"
)

// This file names, as files, the SSMS shares a refusal found disagreeing:
// the library gives them as positions in its argument
// ([shamir.CombineError] Several and Sets), which a person, who gave files
// or a folder, could not map back.

// disagreeHint is the advice after a refusal that names the files that
// disagree. It is only as strong as the evidence: every file named passed
// its own checks, records are under checksums that anyone can recompute,
// and holders of the split's key can sign any header, so nothing in the
// files tells which side, or which version of a share, is the dealer's.
const disagreeHint = "these files disagree, and nothing in them tells which are the dealer's:" +
	" set aside the ones you do not trust, and run the command again"

// disagreement returns the lines that name the files of a refusal that
// disagree: for each share number given more than one version (several,
// one list of positions per number), then for a decoding refusal the two
// sets (sets[0], threshold or more that agree with one another; sets[1],
// those that disagree with them). where names the file at a position, as
// the user gave it or as it was found in a folder; number returns the
// share number (from 1, as in the files' names and -index) a position's
// header claims, or 0 if it has none. The files of one share number are
// named on one line when they are few; those of a set, and of a share
// number given by many files, one a line, so that lists of 50 or 255 files
// stay readable and can be copied. It returns nil when there is nothing to
// name.
func disagreement(where func(pos int) string, number func(pos int) int, several, sets [][]int) []string {
	var lines []string
	for _, ps := range several {
		n := 0
		for _, p := range ps {
			if n = number(p); n != 0 {
				break
			}
		}
		head := fmt.Sprintf("%s hold different versions of one share", count(len(ps), "file", "files"))
		if n != 0 {
			head = fmt.Sprintf("%s hold different versions of share %d", count(len(ps), "file", "files"), n)
		}
		if len(ps) <= inlineAt {
			// Mostly two: a share and its altered copy, on one line.
			names := make([]string, len(ps))
			for i, p := range ps {
				names[i] = where(p)
			}
			lines = append(lines, head+": "+strings.Join(names, ", "))
			continue
		}
		lines = append(lines, head+":")
		lines = append(lines, fileLines(where, ps)...)
	}
	if len(sets) == 2 && len(sets[0]) > 0 && len(sets[1]) > 0 {
		lines = append(lines, fmt.Sprintf("%s agree with one another:", count(len(sets[0]), "file", "files")))
		lines = append(lines, fileLines(where, sets[0])...)
		lines = append(lines, fmt.Sprintf("%s with them:", count(len(sets[1]), "file disagrees", "files disagree")))
		lines = append(lines, fileLines(where, sets[1])...)
	}
	return lines
}

// inlineAt is how many files of one share number disagreement names on
// the line that says so; more are listed one a line.
const inlineAt = 3

// fileLines returns one indented line for each file at the positions ps.
func fileLines(where func(pos int) string, ps []int) []string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = "  " + where(p)
	}
	return lines
}

// disagreeingFiles is disagreement for the SSMS shares of set, from the
// library's refusal ce.
func (set *shareSet) disagreeingFiles(ce *shamir.CombineError) []string {
	where := func(p int) string {
		if p < 0 || p >= len(set.ssms) {
			return fmt.Sprintf("(input %d of %d)", p+1, len(set.ssms)) // not met: the library's positions are into set.ssms
		}
		return set.ssms[p].where
	}
	number := func(p int) int {
		if p < 0 || p >= len(set.ssms) || !set.ssms[p].hasHdr {
			return 0
		}
		return set.ssms[p].info.Index + 1
	}
	return disagreement(where, number, ce.Several, ce.Sets)
}

// joinLines returns msg followed by lines, one per line.
func joinLines(msg string, lines []string) string {
	if len(lines) == 0 {
		return msg
	}
	return msg + "\n" + strings.Join(lines, "\n")
}
