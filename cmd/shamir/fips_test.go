package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runGODEBUG is runCmd with GODEBUG set to godebug, whatever the test's own.
func runGODEBUG(t testing.TB, dir, godebug string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running shamir %s: %v", strings.Join(args, " "), err)
	}
	return result{stdout.Bytes(), stderr.Bytes(), cmd.ProcessState.ExitCode(), 0}
}

// TestFIPSOnly runs the command under GODEBUG=fips140=only. Splitting a
// file works, sealing it with SSMS AEAD 3 (AES-256-GCM with random nonces,
// byte 7 of every share), and its shares combine in that mode and out of
// it. Shares made out of FIPS mode, sealed with AEAD 1 or 2, are refused
// with a one-line error and exit status 1.
func TestFIPSOnly(t *testing.T) {
	if puregoBuild {
		// The command under test is this binary, and Go refuses FIPS
		// 140-3 mode in a purego build (docs/SECURITY.md).
		t.Skip("FIPS 140-3 mode is incompatible with -tags purego")
	}
	dir := t.TempDir()
	secret := randomBytes(200 << 10) // several chunks
	writeFile(t, dir, "secret.bin", secret)
	must(t, runGODEBUG(t, dir, "fips140=only", "split", "-n", "3", "-t", "2", "secret.bin", "-o", "fips"), "split, fips140=only")
	for _, n := range shareNames("secret.bin", 3) {
		b, err := os.ReadFile(filepath.Join(dir, "fips", n))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 8 || b[7] != 3 {
			t.Fatalf("%s: not sealed with SSMS AEAD 3 (header %x)", n, b[:min(8, len(b))])
		}
	}
	for _, godebug := range []string{"fips140=only", "fips140=off"} {
		r := must(t, runGODEBUG(t, dir, godebug, "combine", "-o", "-", "fips"), "combine, "+godebug)
		if !bytes.Equal(r.stdout, secret) {
			t.Fatalf("combine, %s: recovered a wrong secret", godebug)
		}
	}

	must(t, runGODEBUG(t, dir, "fips140=off", "split", "-n", "3", "-t", "2", "secret.bin", "-o", "plain"), "split, fips140=off")
	for _, args := range [][]string{{"combine", "-o", "-", "plain"}, {"verify", "plain"}} {
		r := runGODEBUG(t, dir, "fips140=only", args...)
		fails(t, r, 1, args[0]+" of AEAD 1 or 2 shares, fips140=only", "not allowed in FIPS 140-only mode")
		if lines := bytes.Count(bytes.TrimSuffix(r.stderr, []byte("\n")), []byte("\n")) + 1; lines != 1 || len(r.stdout) != 0 {
			t.Errorf("%s: %d lines on stderr, %d bytes on stdout:\n%s", args[0], lines, len(r.stdout), r.stderr)
		}
	}
}
