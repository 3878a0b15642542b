package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fakeFiles names position p "dir/f<p+1>.shamir", and gives it share
// number p%m+1 (0 for positions in none).
func fakeFiles(m int, none ...int) (where func(int) string, number func(int) int) {
	where = func(p int) string { return fmt.Sprintf("%q", fmt.Sprintf("dir/f%d.shamir", p+1)) }
	number = func(p int) int {
		if slices.Contains(none, p) {
			return 0
		}
		return p%m + 1
	}
	return where, number
}

func seq(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// TestDisagreementManyFiles: 60 files on one side and 195 on the other are
// each named once, one a line, under a heading that counts them; no
// position is printed.
func TestDisagreementManyFiles(t *testing.T) {
	where, number := fakeFiles(255)
	lines := disagreement(where, number, nil, [][]int{seq(0, 60), seq(60, 255)})
	if len(lines) != 2+255 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 2+255, strings.Join(lines, "\n"))
	}
	if lines[0] != "60 files agree with one another:" || lines[61] != "195 files disagree with them:" {
		t.Fatalf("headings %q, %q", lines[0], lines[61])
	}
	seen := map[string]bool{}
	for i, l := range slices.Concat(lines[1:61], lines[62:]) {
		want := "  " + where(i)
		if l != want {
			t.Fatalf("line for position %d: %q, want %q", i, l, want)
		}
		if seen[l] {
			t.Fatalf("%q named twice", l)
		}
		seen[l] = true
	}
	for _, l := range lines {
		if strings.Contains(l, "shares[") || strings.Contains(l, "position") {
			t.Fatalf("a position printed: %q", l)
		}
	}
}

// TestDisagreementSeveral: the files of one share number are named on its
// line when they are few, one a line when many, with the number the
// headers claim (from 1), or none when no header says.
func TestDisagreementSeveral(t *testing.T) {
	where, number := fakeFiles(10, 7, 17)
	several := [][]int{
		{0, 10},     // share 1: two files
		{3, 13, 23}, // share 4: three
		slicesFilter(seq(0, 520), func(p int) bool { return p%10 == 5 }), // share 6: 52
		{7, 17}, // no header says which
	}
	lines := disagreement(where, number, several, nil)
	want := []string{
		`2 files hold different versions of share 1: "dir/f1.shamir", "dir/f11.shamir"`,
		`3 files hold different versions of share 4: "dir/f4.shamir", "dir/f14.shamir", "dir/f24.shamir"`,
		`52 files hold different versions of share 6:`,
	}
	for p := 5; p < 520; p += 10 {
		want = append(want, "  "+where(p))
	}
	want = append(want, `2 files hold different versions of one share: "dir/f8.shamir", "dir/f18.shamir"`)
	if !slices.Equal(lines, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got := disagreement(where, number, nil, nil); got != nil {
		t.Fatalf("nothing to name: %q", got)
	}
	// Sets with an empty side name nothing: there is no disagreement to
	// show.
	if got := disagreement(where, number, nil, [][]int{{0, 1}, nil}); got != nil {
		t.Fatalf("one side empty: %q", got)
	}
}

func slicesFilter(s []int, keep func(int) bool) []int {
	var out []int
	for _, v := range s {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// TestReportBadGroups: 50 shares bad for one reason are listed under it,
// one file a line, the forged ones' advice said once; fewer than groupAt
// keep a line each; other reasons keep theirs, in order.
func TestReportBadGroups(t *testing.T) {
	var bad []problem
	bad = append(bad, problem{`"a"`, "damaged (its checksums do not match)"})
	for i := range 50 {
		bad = append(bad, problem{fmt.Sprintf("%q", fmt.Sprintf("p%02d", i+1)), forgedWhy})
	}
	bad = append(bad, problem{`"b"`, "truncated"})
	var buf bytes.Buffer
	reportBad(&buf, bad)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{
		`shamir: bad share "a": damaged (its checksums do not match)`,
		"shamir: 50 bad shares, each " + forgedWhy + ":",
	}
	for i := range 50 {
		want = append(want, fmt.Sprintf("shamir:   \"p%02d\"", i+1))
	}
	want = append(want, `shamir: bad share "b": truncated`,
		"shamir: do not trust the 50 shares not made with the split's key, nor where they came from")
	if !slices.Equal(lines, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	buf.Reset()
	reportBad(&buf, []problem{{`"x"`, forgedWhy}, {`"y"`, "truncated"}, {`"z"`, "truncated"}, {`"w"`, "truncated"}})
	want = []string{
		`shamir: bad share "x": ` + forgedWhy,
		`shamir: bad share "y": truncated`,
		`shamir: bad share "z": truncated`,
		`shamir: bad share "w": truncated`,
		"shamir: do not trust the share not made with the split's key, nor where it came from",
	}
	if got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
