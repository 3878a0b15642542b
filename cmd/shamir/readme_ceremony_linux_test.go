package main

import (
	"bytes"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestREADMECeremony runs the key ceremony section of docs/COMMAND.md
// (where the README points for it) as it is printed: every command of its examples ("$ " lines), in order, in one
// folder, each on a terminal of its own as a person would type it (sh -c),
// the holders' passphrases typed at their prompts, and compares what the
// terminal shows with the lines the section prints under it. Split IDs, x
// coordinates and the time of a challenge differ from run to run and are
// masked; a "…" in
// the section stands for any text. The only thing given beforehand is the
// secret, key.bin.
func TestREADMECeremony(t *testing.T) {
	if testing.Short() {
		t.Skip("scrypt at age's work factor, a dozen times: slow under the race detector")
	}
	needTool(t, "age-keygen")
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "COMMAND.md"))
	if err != nil {
		t.Fatal(err)
	}
	steps := ceremonySteps(t, string(readme))
	if len(steps) < 15 {
		t.Fatalf("the ceremony section has %d commands: not found whole", len(steps))
	}
	dir := t.TempDir()
	key := make([]byte, 32)
	rand.Read(key)
	writeFile(t, dir, "key.bin", key)
	// What each holder types at each prompt, in turn.
	answers := map[string][]string{
		"Passphrase for bob: ":                                      {"bob rows the boat"},
		"Passphrase for bob, again: ":                               {"bob rows the boat"},
		`Passphrase for "meeting/bob.shamir.age": `:                 {"bob rows the boat", "bob rows the boat", "bob rows the boat", "bob rows it ashore", "bob rows it ashore"},
		`Passphrase for "meeting/bob.shamir.age" (new): `:           {"bob rows it ashore"},
		`Passphrase for "meeting/bob.shamir.age" (new), again: `:    {"bob rows it ashore"},
		`Passphrase for "meeting/bob.shamir.age" (Enter to skip): `: {""},
	}
	typed := map[string]int{}
	for _, st := range steps {
		got := runOnTerminal(t, dir, st.cmd, answers, typed)
		if !ceremonyMatch(st.want, got) {
			t.Fatalf("$ %s\nshows:\n%s\ndocs/COMMAND.md prints:\n%s", st.cmd, strings.Join(got, "\n"), strings.Join(st.want, "\n"))
		}
	}
	if got := readFileT(t, dir, "restored.bin"); !bytes.Equal(got, key) {
		t.Fatal("the secret recovered at the end is not the one split")
	}
}

// A ceremonyStep is one command of the ceremony and the lines it prints.
type ceremonyStep struct {
	cmd  string
	want []string
}

// ceremonySteps returns the commands of the ceremony section of
// docs/COMMAND.md (ceremonySection), from its heading to the next heading
// of its level or above.
func ceremonySteps(t *testing.T, doc string) []ceremonyStep {
	start := strings.Index(doc, "\n## "+ceremonySection+"\n")
	if start < 0 {
		t.Fatalf("docs/COMMAND.md has no section \"## %s\"", ceremonySection)
	}
	section := doc[start+1:]
	if end := regexp.MustCompile(`\n##? `).FindStringIndex(section); end != nil {
		section = section[:end[0]]
	}
	var steps []ceremonyStep
	inCode := false
	for _, line := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inCode = !inCode
		case !inCode:
		case strings.HasPrefix(line, "$ "):
			steps = append(steps, ceremonyStep{cmd: strings.TrimPrefix(line, "$ ")})
		case len(steps) > 0:
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, line)
		}
	}
	return steps
}

// runOnTerminal runs cmd with sh in dir on a terminal of its own, typing
// the answers at their prompts, and returns the lines the terminal showed.
func runOnTerminal(t *testing.T, dir, cmd string, answers map[string][]string, typed map[string]int) []string {
	t.Helper()
	m, s := openPTY(t)
	defer m.Close()
	c := exec.Command("sh", "-c", cmd)
	c.Dir = dir
	c.Stdin, c.Stdout, c.Stderr = s, s, s
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shown := func() string { mu.Lock(); defer mu.Unlock(); return screen.String() }
	seen := map[string]int{}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case <-done:
			if err := c.Wait(); err != nil {
				t.Fatalf("$ %s: %v; the terminal shows:\n%s", cmd, err, shown())
			}
			return screenLines(shown())
		default:
		}
		if time.Now().After(deadline) {
			c.Process.Kill()
			t.Fatalf("$ %s: still running; the terminal shows:\n%s", cmd, shown())
		}
		for prompt, list := range answers {
			if n := strings.Count(shown(), prompt); n > seen[prompt] {
				seen[prompt]++
				if typed[prompt] >= len(list) {
					c.Process.Kill()
					t.Fatalf("$ %s: asked %q once more than the test has answers for:\n%s", cmd, prompt, shown())
				}
				time.Sleep(200 * time.Millisecond) // echo goes off just after the prompt
				m.Write([]byte(list[typed[prompt]] + "\n"))
				typed[prompt]++
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// screenLines splits what a terminal showed into lines, without their
// trailing spaces, and without the empty lines at the end.
func screenLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

var (
	ceremonyID   = regexp.MustCompile(`[0-9a-f]{32}`)
	ceremonyTime = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d UTC`)
	ceremonyX    = regexp.MustCompile(`\bx \d+((, \d+)* and \d+)?`)
)

// ceremonyMatch reports whether the lines got are those the README prints,
// want: split IDs and times masked, "…" standing for any text.
func ceremonyMatch(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	mask := func(s string) string {
		s = ceremonyID.ReplaceAllString(s, "ID")
		s = ceremonyX.ReplaceAllString(s, "x X")
		return ceremonyTime.ReplaceAllString(s, "TIME")
	}
	for i := range want {
		parts := strings.Split(mask(want[i]), "…")
		for k, p := range parts {
			parts[k] = regexp.QuoteMeta(p)
		}
		if !regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(mask(got[i])) {
			return false
		}
	}
	return true
}
