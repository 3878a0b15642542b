package main

// These tests run the command on a pseudo-terminal, opened with the Linux
// ioctls through golang.org/x/sys/unix, to check what it does when a person
// is at the keyboard: secrets typed without echo, binary secrets kept off the
// screen, the progress bar.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal, or skips the test.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, s, err := openPTYErr()
	if err != nil {
		t.Skip(err)
	}
	return m, s
}

// openPTYErr returns the two ends of a new pseudo-terminal.
func openPTYErr() (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("no pseudo-terminals: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, fmt.Errorf("opening the pseudo-terminal: %v", err)
	}
	return m, s, nil
}

// A session is the command running with some of its standard files on a
// terminal; screen is what the terminal showed.
type session struct {
	t      *testing.T
	cmd    *exec.Cmd
	master *os.File
	mu     sync.Mutex
	screen bytes.Buffer
	read   chan struct{} // closed when the terminal has no more to show
	stdout bytes.Buffer  // when stdout is not the terminal
}

// startSession runs the command in dir with stdin, stdout and stderr on the
// terminal where the flags say so, in a session of its own whose
// controlling terminal it is; otherwise stdin is in (nil: nothing) and
// stdout is collected.
func startSession(t *testing.T, dir string, ttyIn, ttyOut, ttyErr bool, in io.Reader, args ...string) *session {
	t.Helper()
	m, s := openPTY(t)
	se := &session{t: t, master: m, read: make(chan struct{})}
	se.cmd = exec.Command(binary, args...)
	se.cmd.Dir = dir
	se.cmd.Stdin, se.cmd.Stdout, se.cmd.Stderr = in, &se.stdout, io.Discard
	if ttyIn {
		se.cmd.Stdin = s
	}
	if ttyOut {
		se.cmd.Stdout = s
	}
	if ttyErr {
		se.cmd.Stderr = s
	}
	// The terminal is the session's own, as a login's is: /dev/tty
	// opens it.
	for fd, on := range []bool{ttyIn, ttyOut, ttyErr} {
		if on {
			se.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: fd}
			break
		}
	}
	se.start(s)
	return se
}

// start starts se's command, whose terminal side is s, and copies what the
// terminal shows into se.screen until the command is done.
func (se *session) start(s *os.File) {
	if err := se.cmd.Start(); err != nil {
		se.t.Fatal(err)
	}
	s.Close() // the child has its own copy; the master sees EOF (EIO) when it exits
	go func() {
		defer close(se.read)
		buf := make([]byte, 4096)
		for {
			n, err := se.master.Read(buf)
			se.mu.Lock()
			se.screen.Write(buf[:n])
			se.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	se.t.Cleanup(func() {
		se.cmd.Process.Kill()
		se.master.Close()
	})
}

func (se *session) shown() string {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.screen.String()
}

// waitFor waits until the terminal has shown text.
func (se *session) waitFor(text string) {
	se.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(se.shown(), text) {
		if time.Now().After(deadline) {
			se.t.Fatalf("the terminal never showed %q; it shows:\n%s", text, se.shown())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// typeLine types a line at a prompt. The prompt is printed just before the
// terminal's echo is turned off; a person does not type within that moment,
// and the pause stands in for them.
func (se *session) typeLine(prompt, line string) {
	se.t.Helper()
	se.waitFor(prompt)
	time.Sleep(200 * time.Millisecond)
	if _, err := io.WriteString(se.master, line+"\n"); err != nil {
		se.t.Fatal(err)
	}
}

// wait waits for the command to end and returns its exit status.
func (se *session) wait() int {
	se.t.Helper()
	se.cmd.Wait()
	select {
	case <-se.read:
	case <-time.After(5 * time.Second):
	}
	return se.cmd.ProcessState.ExitCode()
}

// TestTerminalSecret types a secret at split's prompt: it must not be shown,
// and must be what combine recovers.
func TestTerminalSecret(t *testing.T) {
	dir := t.TempDir()
	const secret = "correct horse battery staple"
	se := startSession(t, dir, true, false, true, nil, "split", "-n", "3", "-t", "2", "-encode", "base64")
	se.typeLine("Secret: ", secret)
	se.typeLine("Secret again: ", secret)
	if code := se.wait(); code != 0 {
		t.Fatalf("split exited %d; the terminal shows:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), "horse") {
		t.Fatalf("the secret was echoed:\n%s", se.shown())
	}
	lines := splitLines(se.stdout.Bytes())
	r := must(t, runCmd(t, dir, strings.NewReader(lines[2]+"\n"+lines[0]), "combine"), "combine")
	if string(r.stdout) != secret {
		t.Fatalf("recovered %q, want %q (the typed line without its newline)", r.stdout, secret)
	}

	// Two different secrets typed: nothing is written.
	se = startSession(t, dir, true, false, true, nil, "split", "-n", "3", "-t", "2", "-name", "typo")
	se.typeLine("Secret: ", "one thing")
	se.typeLine("Secret again: ", "another")
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), "differ") {
		t.Fatalf("split with two different secrets exited %d:\n%s", code, se.shown())
	}
	noLeftovers(t, dir)
}

// TestTerminalShares types shares at combine's prompts: they must not be
// shown.
func TestTerminalShares(t *testing.T) {
	dir := t.TempDir()
	r := must(t, runCmd(t, dir, strings.NewReader("s3cret"), "split", "-n", "3", "-t", "2", "-encode", "hex"), "split")
	lines := splitLines(r.stdout)
	se := startSession(t, dir, true, false, true, nil, "combine")
	se.typeLine("Share 1: ", lines[1])
	se.typeLine("Share 2: ", lines[2])
	se.typeLine("Share 3: ", "")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), lines[1][:10]) || strings.Contains(se.shown(), lines[2][:10]) {
		t.Fatalf("a share was echoed:\n%s", se.shown())
	}
	if se.stdout.String() != "s3cret" {
		t.Fatalf("recovered %q", se.stdout.String())
	}
}

// TestTerminalSharesProgress types shares with the threshold given: the
// prompt shows the progress, as Vault's does ("2/3"), and the shares are
// read until the threshold is reached, with no empty line needed; an ssss
// share typed is read as one, not as base64.
func TestTerminalSharesProgress(t *testing.T) {
	dir := t.TempDir()
	r := must(t, runCmd(t, dir, strings.NewReader("s3cret"), "split", "-n", "3", "-t", "2", "-encode", "hex"), "split")
	lines := splitLines(r.stdout)
	se := startSession(t, dir, true, false, true, nil, "combine", "-t", "2")
	se.typeLine("Share 1/2: ", lines[2])
	se.typeLine("Share 2/2: ", lines[0])
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if se.stdout.String() != "s3cret" {
		t.Fatalf("recovered %q", se.stdout.String())
	}
	if !strings.Contains(se.shown(), "Type or paste 2 shares") {
		t.Errorf("the terminal showed:\n%s", se.shown())
	}
	// ssss-split's shares of "hello", threshold 3.
	se = startSession(t, dir, true, false, true, nil, "combine", "-t", "3", "-q")
	se.typeLine("Share 1/3: ", "1-10cf1315f0")
	se.typeLine("Share 2/3: ", "3-9148efe4af")
	se.typeLine("Share 3/3: ", "5-d08ce2feb2")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine of ssss shares exited %d:\n%s", code, se.shown())
	}
	if se.stdout.String() != "hello" {
		t.Fatalf("recovered %q from ssss shares", se.stdout.String())
	}
}

// TestTerminalOutput checks that combine prints text secrets on a terminal
// but refuses binary ones, of every share format, even with -o - (stdout
// named), unless -encode is given.
func TestTerminalOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "text", []byte("a printable secret\n"))
	writeFile(t, dir, "binary", []byte("\x00\x01\x1b[2Jbinary"))
	for _, name := range []string{"text", "binary"} {
		must(t, runCmd(t, dir, nil, "split", "-n", "2", "-t", "2", "-encode", "hex", name, "-o", name+".keys"), "split")
		must(t, runCmd(t, dir, nil, "split", "-q", "-n", "2", "-t", "2", name, "-o", name+".ssms"), "split")
	}
	show := func(args ...string) (int, string) {
		se := startSession(t, dir, false, true, true, nil, args...)
		code := se.wait()
		return code, se.shown()
	}
	refused := func(code int, screen string) bool {
		return code == 1 && strings.Contains(screen, "not printable") && strings.Contains(screen, "-encode hex") &&
			!strings.Contains(screen, "binary") && !strings.Contains(screen, "anyway")
	}
	for _, shares := range []string{".keys", ".ssms"} {
		for _, out := range [][]string{nil, {"-o", "-"}} {
			args := append([]string{"combine", "text" + shares}, out...)
			if code, screen := show(args...); code != 0 || !strings.Contains(screen, "a printable secret") {
				t.Errorf("text secret %q: exit %d:\n%s", args, code, screen)
			}
			args = append([]string{"combine", "binary" + shares}, out...)
			if code, screen := show(args...); !refused(code, screen) {
				t.Errorf("binary secret %q: exit %d:\n%q", args, code, screen)
			}
			args = append(args, "-encode", "hex")
			if code, screen := show(args...); code != 0 || !strings.Contains(screen, "0001") {
				t.Errorf("binary secret %q: exit %d:\n%q", args, code, screen)
			}
		}
	}
	// ssss-split -x's shares of the binary secret, threshold 2.
	writeFile(t, dir, "ssss.txt", []byte("1-970b41f84261e375d140a6d9\n2-090f869816aac3acd69d3327\n"))
	for _, out := range [][]string{nil, {"-o", "-"}} {
		args := append([]string{"combine", "-t", "2", "ssss.txt"}, out...)
		if code, screen := show(args...); !refused(code, screen) {
			t.Errorf("binary secret %q: exit %d:\n%q", args, code, screen)
		}
		args = append(args, "-encode", "hex")
		if code, screen := show(args...); code != 0 || !strings.Contains(screen, "00011b5b324a62696e617279") {
			t.Errorf("binary secret %q: exit %d:\n%q", args, code, screen)
		}
	}
}

// TestTerminalProgress checks that split draws a progress bar on a terminal
// for a slow input of unknown size, and that -q silences it.
func TestTerminalProgress(t *testing.T) {
	dir := t.TempDir()
	for _, quiet := range []bool{false, true} {
		pr, pw := io.Pipe()
		args := []string{"split", "-n", "2", "-t", "2", "-name", fmt.Sprint(quiet)}
		if quiet {
			args = append(args, "-q")
		}
		se := startSession(t, dir, false, false, true, pr, args...)
		pw.Write(randomBytes(1 << 20))
		if !quiet {
			se.waitFor("splitting stdin")
		} else {
			time.Sleep(2 * progressDelay)
		}
		pw.Close()
		if code := se.wait(); code != 0 {
			t.Fatalf("split exited %d:\n%s", code, se.shown())
		}
		if quiet && se.shown() != "" {
			t.Errorf("split -q showed %q", se.shown())
		}
	}
}

// TestTerminalOutputPaths checks that a binary secret reaches a terminal
// through no path that names it (-o /dev/tty, /dev/stdout, /proc/self/fd/1)
// unless -encode is given: a path is held to what stdout is.
func TestTerminalOutputPaths(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "text", []byte("a printable secret\n"))
	writeFile(t, dir, "binary", []byte("\x00\x01\x1b[2Jbinary"))
	for _, name := range []string{"text", "binary"} {
		must(t, runCmd(t, dir, nil, "split", "-n", "2", "-t", "2", "-encode", "hex", name, "-o", name+".keys"), "split")
	}
	show := func(args ...string) (int, string) {
		se := startSession(t, dir, false, true, true, nil, args...)
		code := se.wait()
		return code, se.shown()
	}
	for _, path := range []string{"/dev/tty", "/dev/stdout", "/proc/self/fd/1"} {
		code, screen := show("combine", "binary.keys", "-o", path)
		if code != 1 || !strings.Contains(screen, "not printable") || strings.Contains(screen, "\x1b[2J") {
			t.Errorf("binary secret -o %s: exit %d:\n%q", path, code, screen)
		}
		if code, screen := show("combine", "binary.keys", "-o", path, "-encode", "hex"); code != 0 || !strings.Contains(screen, "0001") {
			t.Errorf("binary secret -o %s -encode hex: exit %d:\n%q", path, code, screen)
		}
		if code, screen := show("combine", "text.keys", "-o", path); code != 0 || !strings.Contains(screen, "a printable secret") {
			t.Errorf("text secret -o %s: exit %d:\n%q", path, code, screen)
		}
	}
}
