//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// TestFIFOSignals runs combine -o FIFO with no reader on the FIFO: opening
// it waits for one, and each stop signal must still stop combine, say so,
// and leave the FIFO as it was, with nothing written into it. Then with a
// reader that opens the FIFO and reads nothing, so that combine waits in a
// write of a secret larger than a pipe holds: each signal stops it too.
func TestFIFOSignals(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "key.bin", []byte("the secret, never written"))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "s", "key.bin"), "split")
	writeFile(t, dir, "big.bin", randomBytes(4<<20))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "b", "big.bin"), "split")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	for _, reader := range []bool{false, true} {
		for _, sig := range outfile.StopSignals {
			name := outfile.SignalName(sig)
			shares := "s"
			if reader {
				name += " (a reader that reads nothing)"
				shares = "b"
			}
			cmd := exec.Command(binary, "combine", shares, "-o", "fifo")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var r *os.File
			if reader {
				var err error
				if r, err = os.Open(fifo); err != nil {
					t.Fatal(err)
				}
			}
			// Until it waits on the FIFO, for a reader or for room to
			// write: the signal must find it blocked there, not on
			// its way.
			waitBlocked(t, cmd.Process.Pid, pick(reader, "pipe_write", "wait_for_partner"))
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Errorf("%s: combine -o FIFO still running 5 s after the signal\n%s", name, stderr.String())
				continue
			}
			if r != nil {
				r.Close()
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			stopped := ws.Signaled() && ws.Signal() == sig || ws.Exited() && ws.ExitStatus() == 128+int(sig.(syscall.Signal))
			if !stopped {
				t.Errorf("%s: %v, want the status of a process the signal stopped", name, cmd.ProcessState)
			}
			if !strings.Contains(stderr.String(), outfile.SignalName(sig)+": stopped") {
				t.Errorf("%s: stderr does not say it stopped:\n%s", name, stderr.String())
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Fatalf("%s: the FIFO is gone or replaced: %v", name, err)
			}
		}
	}
	noLeftovers(t, dir, "b", "big.bin", "fifo", "key.bin", "s")
}

// waitBlocked waits until a thread of process pid sleeps in the kernel
// function wchan, as /proc shows it (kernels differ in prefixes:
// anon_pipe_write is pipe_write). Where /proc does not show it (not
// Linux, or a kernel that hides where processes sleep), it waits a while
// instead.
func waitBlocked(t *testing.T, pid int, wchan string) {
	t.Helper()
	tasks := "/proc/" + strconv.Itoa(pid) + "/task"
	if _, err := os.Stat(tasks); err != nil {
		// Longer under -short, as test.sh runs the race detector.
		time.Sleep(300 * time.Millisecond)
		if testing.Short() {
			time.Sleep(time.Second)
		}
		return
	}
	var seen []string
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		seen = seen[:0]
		ents, _ := os.ReadDir(tasks)
		for _, e := range ents {
			w, _ := os.ReadFile(tasks + "/" + e.Name() + "/wchan")
			if strings.Contains(string(w), wchan) {
				return
			}
			seen = append(seen, string(w))
		}
	}
	if !slices.ContainsFunc(seen, func(w string) bool { return w != "0" && w != "" }) {
		t.Logf("/proc hides where combine sleeps: %q", seen)
		return
	}
	t.Fatalf("combine never waited in %s; its threads are in %q", wchan, seen)
}
