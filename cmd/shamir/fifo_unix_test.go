//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// TestFIFOSignals runs combine -o FIFO with no reader on the FIFO: opening
// it waits for one, and each stop signal must still stop combine, say so,
// and leave the FIFO as it was, with nothing written into it.
func TestFIFOSignals(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "key.bin", []byte("the secret, never written"))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "s", "key.bin"), "split")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	for _, sig := range outfile.StopSignals {
		name := outfile.SignalName(sig)
		cmd := exec.Command(binary, "combine", "s", "-o", "fifo")
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Until it has read the shares and waits on the FIFO (longer
		// under -short, as test.sh runs the race detector).
		time.Sleep(300 * time.Millisecond)
		if testing.Short() {
			time.Sleep(time.Second)
		}
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
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		stopped := ws.Signaled() && ws.Signal() == sig || ws.Exited() && ws.ExitStatus() == 128+int(sig.(syscall.Signal))
		if !stopped {
			t.Errorf("%s: %v, want the status of a process the signal stopped", name, cmd.ProcessState)
		}
		if !strings.Contains(stderr.String(), name+": stopped") {
			t.Errorf("%s: stderr does not say it stopped:\n%s", name, stderr.String())
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("%s: the FIFO is gone or replaced: %v", name, err)
		}
	}
	noLeftovers(t, dir, "fifo", "key.bin", "s")
}
