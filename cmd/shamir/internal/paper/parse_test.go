package paper

import (
	"bytes"
	"errors"
	mrand "math/rand/v2"
	"strings"
	"testing"
)

// TestParseForgives reads the text as people write it: dashes and dots
// between groups, 0 for O, 8 for B, 1 for I or L.
func TestParseForgives(t *testing.T) {
	for name, share := range testShares(t) {
		text := Text(share)
		for _, v := range []string{
			strings.ReplaceAll(text, " ", "-"),
			strings.ReplaceAll(strings.ReplaceAll(text, " ", " - "), "\n", ".\n"),
			strings.ReplaceAll(strings.ReplaceAll(text, "O", "0"), "B", "8"),
		} {
			if got, err := Parse(v); err != nil || !bytes.Equal(got, share) {
				t.Errorf("%s: %q: %x, %v", name, v, got, err)
			}
		}
		// Each I or L typed as 1, one at a time.
		for i := len(Tag); i < len(text); i++ {
			if text[i] != 'I' && text[i] != 'L' {
				continue
			}
			v := text[:i] + "1" + text[i+1:]
			if got, err := Parse(v); err != nil || !bytes.Equal(got, share) {
				t.Errorf("%s: 1 for %c at %d: %x, %v", name, text[i], i, got, err)
			}
		}
	}
}

// longShare returns a share whose text has more than 62 groups, so that
// groups 31 apart exist twice over: the same every run, so that a group
// that passes its check by chance (1 in 32) does so every run.
func longShare() []byte {
	b := make([]byte, 200)
	mrand.NewChaCha8([32]byte{'p', 'a', 'p', 'e', 'r'}).Read(b)
	return b
}

// errorOf parses text and returns its *Error, failing if there is none.
func errorOf(t *testing.T, text string) *Error {
	t.Helper()
	got, err := Parse(text)
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("%q: %x, %v: want an *Error", text, got, err)
	}
	return pe
}

// TestParseGroupsLeftOutOrTwice leaves out each group, types each twice,
// and leaves out or doubles a character in each group: the message names
// the group and what happened to it.
func TestParseGroupsLeftOutOrTwice(t *testing.T) {
	gs := groupsOf(longShare())
	n := len(gs)
	join := func(parts ...[]string) string {
		var all []string
		for _, p := range parts {
			all = append(all, p...)
		}
		return strings.Join(all, " ")
	}
	for k := 1; k <= n; k++ {
		i := k - 1
		e := errorOf(t, join(gs[:i], gs[i+1:]))
		if e.Group != k || !strings.Contains(e.Error(), "missing") {
			t.Errorf("group %d of %d left out: %v (group %d)", k, n, e, e.Group)
		}
		e = errorOf(t, join(gs[:i+1], gs[i:]))
		if e.Group != k+1 || !strings.Contains(e.Error(), "extra") {
			t.Errorf("group %d of %d typed twice: %v (group %d)", k, n, e, e.Group)
		}
		if k == n {
			continue // the text then just ends short, or runs on
		}
		g := gs[i]
		e = errorOf(t, join(gs[:i], []string{g[:2] + g[3:]}, gs[i+1:]))
		// A character left out of group k, or (if k passes its check
		// with the first character of k+1 by chance) of k+1.
		if (e.Group != k && e.Group != k+1) || !strings.Contains(e.Error(), "left out") {
			t.Errorf("a character of group %d left out: %v (group %d)", k, e, e.Group)
		}
		e = errorOf(t, join(gs[:i], []string{g[:2] + "Q" + g[2:]}, gs[i+1:]))
		// In group k, or at the start of k+1 if k passed by chance.
		if (e.Group != k && e.Group2 != k) || !strings.Contains(e.Error(), "too many") {
			t.Errorf("a character too many in group %d: %v (group %d)", k, e, e.Group)
		}
	}
}

// TestParseSwap31 swaps groups 31 apart, which pass their checks in each
// other's place: the message names both.
func TestParseSwap31(t *testing.T) {
	share := longShare()
	gs := groupsOf(share)
	for i := 1; i+31 < len(gs); i++ {
		j := i + 31
		if gs[i] == gs[j] {
			continue
		}
		swapped := append([]string(nil), gs...)
		swapped[i], swapped[j] = swapped[j], swapped[i]
		e := errorOf(t, strings.Join(swapped, ""))
		if e.Group != i+1 || e.Group2 != j+1 || !strings.Contains(e.Error(), "swapped") {
			t.Errorf("groups %d and %d swapped: %v (groups %d, %d)", i+1, j+1, e, e.Group, e.Group2)
		}
	}
}

// TestEntry types shares a line at a time, with the lines broken where
// the paper breaks them and at random places, even inside groups.
func TestEntry(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(5, 6))
	shares := testShares(t)
	shares["long"] = longShare()
	for name, share := range shares {
		c := strings.TrimPrefix(Compact(share), Tag)
		layouts := [][]string{strings.Split(strings.TrimSpace(Text(share)), "\n")}
		for range 20 {
			var lines []string
			for rest := c; rest != ""; {
				n := min(len(rest), 1+rng.IntN(40))
				lines, rest = append(lines, rest[:n]), rest[n:]
			}
			lines[0] = Tag + lines[0] // as at the prompt
			layouts = append(layouts, lines)
		}
		for _, lines := range layouts {
			var e Entry
			for i, l := range lines {
				if e.Done() {
					t.Fatalf("%s: done before line %d of %d", name, i+1, len(lines))
				}
				if err := e.Line(l); err != nil {
					t.Fatalf("%s: line %d %q: %v", name, i+1, l, err)
				}
			}
			got, err := e.Share()
			if !e.Done() || err != nil || !bytes.Equal(got, share) {
				t.Fatalf("%s: lines %q: %x, %v", name, lines, got, err)
			}
		}
	}
}

// TestEntryTypos types a line with a mistake, as a person does: the group
// is named at once, the line is not taken, and typed again it is.
func TestEntryTypos(t *testing.T) {
	share := longShare()
	lines := strings.Split(strings.TrimSpace(Text(share)), "\n")
	typo := func(l string, i int) string {
		r := 'A'
		if l[i] == 'A' {
			r = 'C'
		}
		return l[:i] + string(r) + l[i+1:]
	}
	for li := 1; li < len(lines); li++ {
		for _, pos := range []int{0, 7, len(lines[li]) - 1} {
			var e Entry
			for _, l := range lines[:li] {
				if err := e.Line(l); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := e.Next()
			err := e.Line(typo(lines[li], pos))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("line %d, typo at %d: %v", li, pos, err)
			}
			// The typed text counts the tag's line as line 1.
			if want := (li-1)*GroupsPerLine + 1 + pos/6; pe.Group != want {
				t.Errorf("line %d, typo at %d: named group %d, want %d: %v", li, pos, pe.Group, want, pe)
			}
			if k, inside := e.Next(); k != before || inside {
				t.Errorf("line %d: after the typo the next line starts at group %d, want %d", li, k, before)
			}
			for _, l := range lines[li:] {
				if err := e.Line(l); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := e.Share(); err != nil || !bytes.Equal(got, share) {
				t.Fatalf("typed again: %x, %v", got, err)
			}
		}
	}
}

// TestEntryLines leaves out a line, types one twice, and types one past
// the end: each is named as such, and the line is not taken.
func TestEntryLines(t *testing.T) {
	share := longShare()
	lines := strings.Split(strings.TrimSpace(Text(share)), "\n")
	var e Entry
	e.Line(lines[0])
	e.Line(lines[1])
	if err := e.Line(lines[3]); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("line 3 left out: %v", err)
	}
	if err := e.Line(lines[1]); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("line 2 typed twice: %v", err)
	}
	for _, l := range lines[2:] {
		e.Line(l)
	}
	if err := e.Line(lines[2]); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("a line past the end: %v", err)
	}
	if _, err := e.Share(); err != nil {
		t.Error(err)
	}
}

// TestEntryBrokenGroup mistypes the end of a group that a line break
// cuts: the group is named, and typed again from its start.
func TestEntryBrokenGroup(t *testing.T) {
	share := testShares(t)["ssms key"]
	c := strings.Join(groupsOf(share), "")
	var e Entry
	if err := e.Line(c[:13]); err != nil { // groups 1, 2 and three characters of 3
		t.Fatal(err)
	}
	if k, inside := e.Next(); k != 3 || !inside || !strings.Contains(e.Prompt(), "rest of group 3") {
		t.Fatalf("Next: %d, %v; prompt %q", k, inside, e.Prompt())
	}
	bad := "Q"
	if c[13] == 'Q' {
		bad = "R"
	}
	err := e.Line(bad + c[14:30])
	var pe *Error
	if !errors.As(err, &pe) || pe.Group != 3 {
		t.Fatalf("the rest of group 3 mistyped: %v", err)
	}
	if k, inside := e.Next(); k != 3 || inside {
		t.Fatalf("after the error: Next %d, %v", k, inside)
	}
	for _, l := range []string{c[10:30], c[30:]} {
		if err := e.Line(l); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := e.Share(); err != nil || !bytes.Equal(got, share) {
		t.Fatalf("%x, %v", got, err)
	}
}

// TestParseTwoWrongGroups mistypes a character in two groups apart: the
// message names both, so that one reading finds every group to correct.
func TestParseTwoWrongGroups(t *testing.T) {
	share := longShare()
	text := Text(share)
	c := []byte(text)
	// The characters of groups 3 and 10, counted past the tag and the
	// layout.
	mistype := func(group int) {
		seen := 0
		for i := len(Tag); i < len(c); i++ {
			if c[i] == ' ' || c[i] == '\n' {
				continue
			}
			if seen == (group-1)*5+1 {
				c[i] = pick(c[i] == 'A', 'B', 'A')
				return
			}
			seen++
		}
	}
	mistype(3)
	mistype(10)
	e := errorOf(t, string(c))
	for _, want := range []string{"group 3 (line 1, group 3)", "group 10 (line 2, group 4)"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("the message does not name %s: %v", want, e)
		}
	}
	if e.Group != 3 {
		t.Errorf("Group = %d, want 3", e.Group)
	}
	// Typed at the prompt, a line with two wrong groups: both named.
	lines := strings.Split(strings.TrimSpace(text), "\n")
	l := []byte(lines[1])
	for _, at := range []int{0, 18} { // groups 1 and 4 of the line
		l[at] = pick(l[at] == 'A', 'B', 'A')
	}
	var en Entry
	if err := en.Line(lines[0]); err != nil {
		t.Fatal(err)
	}
	err := en.Line(string(l))
	if err == nil || !strings.Contains(err.Error(), "group 1 (line 1, group 1)") || !strings.Contains(err.Error(), "group 4 (line 1, group 4)") {
		t.Errorf("a typed line with two wrong groups: %v", err)
	}
}

func pick(c bool, a, b byte) byte {
	if c {
		return a
	}
	return b
}
