package main

import (
	"strings"
	"testing"
)

// TestHelpLayout: each command's -h puts the synopsis and the flags in the
// first screen, the examples after the flags, and the prose after them
// (issue 25, item 11).
func TestHelpLayout(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commands {
		if c.name == "version" {
			continue
		}
		r := runCmd(t, dir, nil, c.name, "-h")
		if r.code != 0 {
			t.Fatalf("%s -h: %v", c.name, r)
		}
		lines := strings.Split(string(r.stdout), "\n")
		at := func(prefix string) int {
			for i, l := range lines {
				if strings.HasPrefix(l, prefix) {
					return i
				}
			}
			return -1
		}
		flags, examples, exit := at("Flags:"), at("Examples:"), at("The exit status")
		switch {
		case !strings.HasPrefix(lines[0], "usage: shamir "+c.name):
			t.Errorf("%s -h starts with %q", c.name, lines[0])
		case flags < 0 || flags > pickInt(c.name == "attest", 30, 14):
			// attest's synopsis is its list of steps.
			t.Errorf("%s -h: Flags: at line %d, past the first screen's synopsis", c.name, flags+1)
		case examples < flags:
			t.Errorf("%s -h: Examples: at line %d, before the flags at %d", c.name, examples+1, flags+1)
		}
		// Between the flags and the examples: flag lines only.
		for _, l := range lines[flags+1 : examples-1] {
			if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "  ") {
				t.Errorf("%s -h: %q between the flags and the examples", c.name, l)
				break
			}
		}
		if exit >= 0 && exit < examples {
			t.Errorf("%s -h: the exit status before the examples", c.name)
		}
		if strings.Contains(string(r.stdout), ",,") {
			t.Errorf("%s -h: a doubled comma", c.name)
		}
		if r2 := runCmd(t, dir, nil, "help", c.name); string(r2.stdout) != string(r.stdout) {
			t.Errorf("shamir help %s differs from %s -h", c.name, c.name)
		}
	}
}

// TestRefreshHelpDefault: refresh -h says one thing about where SSMS
// share files go by default: in place.
func TestRefreshHelpDefault(t *testing.T) {
	r := runCmd(t, t.TempDir(), nil, "refresh", "-h")
	if strings.Contains(string(r.stdout), "(default: the current folder)") {
		t.Errorf("refresh -h says both that files are refreshed in place and that -o defaults to the current folder:\n%s", r.stdout)
	}
}

func pickInt(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}
