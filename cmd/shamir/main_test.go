package main

// The tests of this package are end to end: each runs the command with
// os/exec in a temporary folder, as a user would. Most of its behaviour is
// pinned in the transcripts of testdata/script (script_test.go); the tests
// in Go are those that loop over many cases, measure memory, or drive a
// terminal.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// binary is the shamir command: this test binary, which TestMain
// (script_test.go) installs on $PATH under that name.
const binary = "shamir"

// A result is what a run of the command did.
type result struct {
	stdout, stderr []byte
	code           int   // exit status
	maxRSS         int64 // peak resident memory in bytes, where known
}

// String describes r for test failures.
func (r result) String() string {
	return fmt.Sprintf("exit %d\nstderr:\n%s", r.code, r.stderr)
}

// runCmd runs the command in dir with stdin (nil for none) and args.
func runCmd(t testing.TB, dir string, stdin io.Reader, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running shamir %s: %v", strings.Join(args, " "), err)
	}
	return result{stdout.Bytes(), stderr.Bytes(), cmd.ProcessState.ExitCode(), maxRSS(cmd.ProcessState)}
}

// must checks that r succeeded.
func must(t testing.TB, r result, what string) result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%s: %v", what, r)
	}
	return r
}

// fails checks that r exited with status code and said something containing
// each of msgs on stderr.
func fails(t testing.TB, r result, code int, what string, msgs ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: got exit %d, want %d\nstdout: %q\nstderr:\n%s", what, r.code, code, r.stdout, r.stderr)
	}
	for _, m := range msgs {
		if !bytes.Contains(r.stderr, []byte(m)) {
			t.Errorf("%s: stderr does not say %q:\n%s", what, m, r.stderr)
		}
	}
}

// testdata returns the path of a file in the repository's testdata/cli.
func testdata(name string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "testdata", "cli", name))
	if err != nil {
		panic(err)
	}
	return p
}

// writeFile writes a file in dir and returns its path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// someSubsets is subsets, but in -short runs only its first and last: the
// race detector's run (test.sh) makes every run of the command slow, and the
// loops over every subset are for the full run.
func someSubsets(n, k int) [][]int {
	all := subsets(n, k)
	if testing.Short() && len(all) > 2 {
		return [][]int{all[0], all[len(all)-1]}
	}
	return all
}

// subsets returns every subset of {0, …, n-1} with k elements.
func subsets(n, k int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// noLeftovers checks that dir holds exactly the files named, with none of
// the temporary files that outputs are written to first.
func noLeftovers(t testing.TB, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

// checkMode checks that the file at path has mode 0600.
func checkMode(t testing.TB, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, m)
	}
}

// TestUsage checks the exit status and the first words of usage errors, and
// that help goes to stdout. (flags.txtar pins the messages themselves.)
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Commands:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"split"}, 2, "-n"},
		{[]string{"split", "-n", "5"}, 2, "-t"},
		{[]string{"split", "-n", "3", "-t", "5"}, 2, "never be recovered"},
		{[]string{"split", "-n", "3", "-t", "1"}, 2, "at least 2"},
		{[]string{"split", "-n", "300", "-t", "3"}, 2, "255"},
		{[]string{"split", "-n", "3", "-t", "2", "-encode", "pem"}, 2, "must be one of"},
		{[]string{"split", "-n", "3", "-t", "2", "-format", "hex"}, 2, "-format is gone"},
		{[]string{"split", "-n", "3", "-t", "2", "-bogus"}, 2, "-bogus"},
		{[]string{"split", "-n", "3", "-t", "2", "a", "b"}, 2, "one secret at a time"},
		{[]string{"split", "-n", "3", "-t", "2", "-o", "-"}, 2, "-o -"},
		{[]string{"combine", "-t", "1"}, 2, "between 2 and 255"},
		{[]string{"combine", "-encode", "rot13"}, 2, "must be one of"},
		{[]string{"combine", "-format", "ssms"}, 2, "-format is gone"},
		{[]string{"verify", "-t", "3", "-", "-"}, 2, "given twice"},
		{[]string{"combine", "no-such-file"}, 1, `"no-such-file" does not exist`},
	} {
		r := runCmd(t, dir, strings.NewReader(""), tc.args...)
		fails(t, r, tc.code, fmt.Sprint(tc.args), tc.msg)
		if len(r.stderr) > 0 && !bytes.HasPrefix(r.stderr, []byte("shamir: ")) && tc.args != nil {
			t.Errorf("%v: stderr does not start with \"shamir: \": %q", tc.args, r.stderr)
		}
	}
	for _, args := range [][]string{{"-h"}, {"help"}, {"help", "split"}, {"split", "-h"}, {"combine", "--help"}, {"verify", "-h"}, {"version", "-h"}} {
		r := must(t, runCmd(t, dir, nil, args...), fmt.Sprint(args))
		if !bytes.Contains(r.stdout, []byte("usage")) && !bytes.Contains(r.stdout, []byte("Usage")) {
			t.Errorf("%v: no usage on stdout: %q", args, r.stdout)
		}
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := must(t, runCmd(t, dir, nil, args...), fmt.Sprint(args))
		if !bytes.HasPrefix(r.stdout, []byte("shamir ")) {
			t.Errorf("%v: printed %q", args, r.stdout)
		}
	}
	// Flags may follow the file, and "--" ends them.
	writeFile(t, dir, "-t", []byte("a file named like a flag"))
	must(t, runCmd(t, dir, nil, "split", "-encode", "hex", "-o", "shares.txt", "-n", "3", "-t", "2", "--", "-t"), "split -- -t")
	fails(t, runCmd(t, dir, nil, "split", "-encode", "hex", "-n", "3", "-o", "x.txt", "--", "-t"), 2, "split without -t", "-t")
}
