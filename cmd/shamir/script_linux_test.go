package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { extraScriptCmds["tty"] = cmdTTY }

// cmdTTY is the transcripts' command
//
//	tty [PROMPT ANSWER]... -- PROG [ARGS...]
//
// which runs PROG with a pseudo-terminal as its controlling terminal and
// its stderr, and types each ANSWER (and Enter) once the terminal shows
// its PROMPT, as a person at the keyboard would: PINs and passphrases
// asked on /dev/tty. What the terminal showed is the command's stderr,
// PROG's stdout its stdout; stdin is empty.
func cmdTTY(ts *testscript.TestScript, neg bool, args []string) {
	sep := -1
	for i, a := range args {
		if a == "--" {
			sep = i
			break
		}
	}
	if sep < 0 || sep%2 != 0 || sep == len(args)-1 {
		ts.Fatalf("usage: tty [PROMPT ANSWER]... -- PROG [ARGS...]")
	}
	m, s, err := openPTYErr()
	ts.Check(err)
	defer m.Close()
	cmd := exec.Command(lookPathIn(args[sep+1], ts.Getenv("PATH")), args[sep+2:]...)
	cmd.Dir = ts.MkAbs(".")
	env := os.Environ()
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GODEBUG"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	cmd.Env = env
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
	ts.Check(cmd.Start())
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
	from := 0
	for i := 0; i < sep; i += 2 {
		deadline := time.Now().Add(scriptTimeout)
		for !strings.Contains(shown()[from:], args[i]) {
			ended := false
			select {
			case <-done:
				ended = !strings.Contains(shown()[from:], args[i])
			default:
			}
			if ended || time.Now().After(deadline) {
				cmd.Process.Kill()
				ts.Fatalf("tty: the terminal never showed %q; it shows:\n%s", args[i], shown())
			}
			time.Sleep(10 * time.Millisecond)
		}
		from = strings.Index(shown()[from:], args[i]) + from + len(args[i])
		time.Sleep(200 * time.Millisecond) // the prompt comes just before echo is turned off
		io.WriteString(m, args[i+1]+"\n")
	}
	err = cmd.Wait()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	ts.Stdout().Write(stdout.Bytes())
	ts.Stderr().Write([]byte(strings.ReplaceAll(shown(), "\r\n", "\n")))
	if (err != nil) != neg {
		ts.Fatalf("tty %s: %v", args[sep+1], err)
	}
}

// lookPathIn finds the program name in the folders of path.
func lookPathIn(name, path string) string {
	for _, d := range strings.Split(path, string(os.PathListSeparator)) {
		p := d + "/" + name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}
