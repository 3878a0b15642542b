package main

// TestREADME runs every transcript of the README and of docs/COMMAND.md, so
// that they cannot drift from what the command does (issue 25, item 11).
//
// A transcript is a fenced block whose first line starts with "$ ": each
// "$ " line is a command, run with bash in one folder for the whole file
// (as a reader following along would), with this test binary as shamir on
// $PATH and the repository's testdata/ at hand; the lines under it, up to
// the next "$ " line, are what it prints, stdout and stderr together.
// Blocks without "$ " lines (Go code, commands to copy) are not run.
//
// Comparison masks what changes from run to run: split IDs (32 hex
// digits; an ID that a later command names, in full or by its first
// digits, is replaced there by the ID this run made), the x coordinates of
// new shares ("at x 75 and 247"), and timings. In an expected line, "…"
// matches any text, and a line that is only "…" matches any number of
// lines.
//
// The ceremony section of docs/COMMAND.md (ceremonySection) is skipped,
// with t.Skip naming it: its commands ask for passphrases on a terminal,
// and TestREADMECeremony (readme_ceremony_linux_test.go) runs it as
// printed, on terminals, the passphrases typed.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// ceremonySection is the heading of the key ceremony in docs/COMMAND.md:
// TestREADME skips it, and TestREADMECeremony runs it.
const ceremonySection = "A key ceremony: shares for people"

// A transcript is one block's commands and their expected output.
type transcript struct {
	section string // the heading it is under
	line    int    // its first line in the file
	steps   []step
}

type step struct {
	cmd  string
	want []string
}

// transcripts returns the transcripts of the Markdown text md.
func transcripts(md string) []transcript {
	var (
		out     []transcript
		section string
		in      bool
		cur     *transcript
	)
	for i, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if in && cur != nil && len(cur.steps) > 0 {
				out = append(out, *cur)
			}
			in, cur = !in, nil
			if in {
				cur = &transcript{section: section, line: i + 1}
			}
		case !in && strings.HasPrefix(line, "#"):
			section = strings.TrimSpace(strings.TrimLeft(line, "#"))
		case !in || cur == nil:
			// Outside blocks, or in one that is no transcript.
		case strings.HasPrefix(line, "$ "):
			cur.steps = append(cur.steps, step{cmd: line[2:]})
		case len(cur.steps) > 0:
			s := &cur.steps[len(cur.steps)-1]
			s.want = append(s.want, line)
		case strings.TrimSpace(line) != "":
			cur = nil // text before any "$ ": not a transcript
		}
	}
	return out
}

var (
	splitIDRE = regexp.MustCompile(`\b[0-9a-f]{32}\b`)
	xListRE   = regexp.MustCompile(`\bx \d+((, \d+)* and \d+)?\b`)
	timingRE  = regexp.MustCompile(`\b\d+(\.\d+)? ?(ns|µs|ms|s)\b`)
)

// mask replaces what changes from run to run.
func mask(s string) string {
	s = splitIDRE.ReplaceAllString(s, "<ID>")
	s = xListRE.ReplaceAllString(s, "x <X>")
	return timingRE.ReplaceAllString(s, "<TIME>")
}

// matchLines reports whether got matches want, line by line, where "…"
// in a line of want matches any text, and a line "…" any lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	parts := strings.Split(mask(want[0]), "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	return re.MatchString(mask(got[0])) && matchLines(want[1:], got[1:])
}

func TestREADME(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the transcripts are bash command lines")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	shamirPath, err := exec.LookPath(binary)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{"README.md", "docs/COMMAND.md"} {
		t.Run(strings.ReplaceAll(doc, "/", "_"), func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join(repo, doc))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(dir, "testdata")); err != nil {
				t.Fatal(err)
			}
			ids := map[string]string{} // an ID the document shows -> this run's
			for _, tr := range transcripts(string(md)) {
				tr := tr
				name := strings.NewReplacer(" ", "_", "/", "_").Replace(tr.section)
				t.Run(name, func(t *testing.T) {
					if tr.section == ceremonySection {
						t.Skipf("%s line %d, %q: the ceremony asks for passphrases on a terminal; TestREADMECeremony runs it", doc, tr.line, tr.section)
					}
					for _, s := range tr.steps {
						cmdline := s.cmd
						for shown, real := range ids {
							cmdline = replaceID(cmdline, shown, real)
						}
						cmd := exec.Command("bash", "-c", cmdline)
						cmd.Dir = dir
						cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(shamirPath)+string(os.PathListSeparator)+os.Getenv("PATH"))
						var out bytes.Buffer
						cmd.Stdout, cmd.Stderr = &out, &out
						cmd.Run() // a command may fail on purpose: its output says so
						got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
						if out.Len() == 0 {
							got = nil
						}
						want := s.want
						for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
							want = want[:len(want)-1]
						}
						if !matchLines(want, got) {
							t.Fatalf("%s line %d: $ %s\ngot:\n%s\nwant:\n%s", doc, tr.line, s.cmd, strings.Join(got, "\n"), strings.Join(want, "\n"))
						}
						shownIDs := splitIDRE.FindAllString(strings.Join(want, "\n"), -1)
						realIDs := splitIDRE.FindAllString(strings.Join(got, "\n"), -1)
						for i := 0; i < len(shownIDs) && i < len(realIDs); i++ {
							ids[shownIDs[i]] = realIDs[i]
						}
					}
				})
			}
		})
	}
}

// replaceID replaces in cmd the split ID shown, or a prefix of it of 8
// digits or more, with this run's ID real, cut to the same length.
func replaceID(cmd, shown, real string) string {
	re := regexp.MustCompile(`\b` + shown[:8] + `[0-9a-f]{0,24}\b`)
	return re.ReplaceAllStringFunc(cmd, func(m string) string {
		if !strings.HasPrefix(shown, m) {
			return m
		}
		return real[:len(m)]
	})
}

// TestREADMEMatching checks the comparison TestREADME makes: what it
// masks, what "…" matches, and that a difference is found.
func TestREADMEMatching(t *testing.T) {
	md := "# A\n\n```\n$ echo a\na\n$ true\n```\n\n```go\nx := 1\n```\n\n```\nnot $ a transcript\n$ echo b\n```\n"
	trs := transcripts(md)
	if len(trs) != 1 || len(trs[0].steps) != 2 || trs[0].steps[0].cmd != "echo a" || trs[0].section != "A" {
		t.Fatalf("transcripts = %+v", trs)
	}
	for _, c := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"split 9ccbfef3b07ad30ef8157e20c50f9b87, at x 5"}, []string{"split 0123456789abcdef0123456789abcdef, at x 77"}, true},
		{[]string{"at x 75 and 247, more"}, []string{"at x 1 and 2, more"}, true},
		{[]string{"a", "…", "z"}, []string{"a", "b", "c", "z"}, true},
		{[]string{"a", "…"}, []string{"a"}, true},
		{[]string{"files: \"a\", …"}, []string{"files: \"a\", \"b\""}, true},
		{[]string{"a"}, []string{"b"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"wrote 5 shares"}, []string{"wrote 6 shares"}, false},
	} {
		if got := matchLines(c.want, c.got); got != c.ok {
			t.Errorf("matchLines(%q, %q) = %v", c.want, c.got, got)
		}
	}
	if got := replaceID("shamir combine -split 9ccbfef3/1 x", "9ccbfef3b07ad30ef8157e20c50f9b87", "0123456789abcdef0123456789abcdef"); got != "shamir combine -split 01234567/1 x" {
		t.Errorf("replaceID: %q", got)
	}
}
