package main

// The cost of what is dropped into a share folder (issue 25): pictures made
// to cost, checked end to end. Each is set aside, for the reason its budget
// gives, and the folder still recovers its secret. The work each may do is
// counted, and asserted, in internal/paper (TestQRFinderGrid, TestJPEGScans,
// the fuzz targets' checkWork), where the search runs: here the CPU time of
// the process, from its rusage, is logged (some 0.4 s for the grid, a few
// ms for the scans), not checked, as the guide has it: a timed test fails
// on a loaded machine.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/gf256/shamir/cmd/shamir/internal/paper/jpegtest"
	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
)

// runCPU runs the command in dir and returns its result and the CPU time
// it used.
func runCPU(t *testing.T, dir string, args ...string) (result, time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ps := cmd.ProcessState
	return result{stdout.Bytes(), stderr.Bytes(), ps.ExitCode(), maxRSS(ps)}, ps.UserTime() + ps.SystemTime()
}

func TestCostlyPictures(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "key.bin", []byte("the secret, recovered"))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "s", "key.bin"), "split")
	os.Remove(filepath.Join(dir, "s", "key.bin.3-of-3.shamir"))
	_, base := runCPU(t, dir, "combine", "s", "-o", "base.bin")
	for name, tc := range map[string]struct {
		data   []byte
		reason string
	}{
		// 16 KB: 5,300² pixels of QR finder patterns, 2 pixels a module.
		"grid.png": {pngtest.FinderGrid(5300, 2), "(a picture: no QR code found in the picture)"},
		// 1,000 scans of 4,000² pixels, 62 KB: refused before decoding.
		"scans.jpg": {jpegtest.Progressive(4000, 4000, 1000), "(a picture: a JPEG of more than 64 scans (1000)"},
	} {
		data := tc.data
		sub := filepath.Join(dir, name)
		os.Mkdir(sub, 0o700)
		for _, f := range []string{"key.bin.1-of-3.shamir", "key.bin.2-of-3.shamir"} {
			b, _ := os.ReadFile(filepath.Join(dir, "s", f))
			writeFile(t, sub, f, b)
		}
		writeFile(t, sub, name, data)
		r, cpu := runCPU(t, dir, "combine", name, "-o", name+".out")
		must(t, r, "combine "+name)
		got, _ := os.ReadFile(filepath.Join(dir, name+".out"))
		t.Logf("%s, %d bytes: %v of CPU (%v without it), %d MiB; %s", name, len(data), cpu, base, r.maxRSS>>20, bytes.TrimSpace(r.stderr))
		if string(got) != "the secret, recovered" {
			t.Errorf("%s: recovered %q", name, got)
		}
		if want := "ignored " + quote(filepath.Join(name, name)) + ": not a share file " + tc.reason; !bytes.Contains(r.stderr, []byte(want)) {
			t.Errorf("%s: not noted as %q:\n%s", name, want, r.stderr)
		}
	}
}

// TestManyCopies plants 300 copies of share files in a share folder, in
// the clear and encrypted with age (to the identity given, and ASCII-armored
// for some), and runs combine with a limit of 256 open files: the files are
// opened when read and closed after, so that the number of inputs is
// bounded by memory, not by descriptors.
func TestManyCopies(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, encrypted := range []bool{false, true} {
		dir := t.TempDir()
		writeFile(t, dir, "key.bin", []byte("the secret, recovered"))
		must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "s", "key.bin"), "split")
		id, _ := age.GenerateX25519Identity()
		writeFile(t, dir, "id.txt", []byte(id.String()+"\n"))
		for i := range 300 {
			b, err := os.ReadFile(filepath.Join(dir, "s", fmt.Sprintf("key.bin.%d-of-3.shamir", i%3+1)))
			if err != nil {
				t.Fatal(err)
			}
			if encrypted {
				var out bytes.Buffer
				var dst io.Writer = &out
				var aw io.WriteCloser
				if i%2 == 1 {
					aw = armor.NewWriter(&out)
					dst = aw
				}
				w, _ := age.Encrypt(dst, id.Recipient())
				w.Write(b)
				w.Close()
				if aw != nil {
					aw.Close()
				}
				b = out.Bytes()
			}
			writeFile(t, filepath.Join(dir, "s"), fmt.Sprintf("copy-%03d", i), b)
		}
		out, err := withFileLimit(dir, binary, "combine", "-i", "id.txt", "s", "-o", "out.bin").CombinedOutput()
		if err != nil {
			t.Fatalf("combine with 303 share files (encrypted: %v) and a limit of 256 open files: %v\n%s", encrypted, err, lastLines(out, 10))
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "out.bin")); string(got) != "the secret, recovered" {
			t.Fatalf("recovered %q\n%s", got, lastLines(out, 10))
		}
		// Every copy was read (as a duplicate), none skipped.
		if !bytes.Contains(out, []byte("from 3 good shares, but 300 shares are bad")) {
			t.Errorf("encrypted: %v: not every copy was read:\n%s", encrypted, lastLines(out, 10))
		}
		t.Logf("encrypted: %v: %s", encrypted, lastLines(out, 2))
	}
	// The limit is the one a program run so has, not the test's own.
	if _, err := os.Stat("/proc/self/limits"); err == nil {
		out, err := withFileLimit(t.TempDir(), "cat", "/proc/self/limits").Output()
		if !regexp.MustCompile(`(?m)^Max open files +256 +256 `).Match(out) {
			t.Errorf("the limit was not applied: %v\n%s", err, out)
		}
	}
}

// withFileLimit returns the command args run in dir with a limit of 256
// open files. Go raises its soft limit to the hard one as it starts: both
// are set.
func withFileLimit(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" "$@"`}, args...)...)
	cmd.Dir = dir
	return cmd
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) []byte {
	lines := bytes.SplitAfter(bytes.TrimSpace(b), []byte("\n"))
	return bytes.Join(lines[max(0, len(lines)-n):], nil)
}
