package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
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

// TestFIPSOnlyAge pins that, under GODEBUG=fips140=only, age recipients and
// identities are refused up front, in one line, within a second of CPU
// time: handed to age, a post-quantum identity made the command spin for
// ever (filippo.io/hpke v0.4.0, hybridKEM.NewPrivateKey; see fips.go), and
// a post-quantum recipient was printed whole, 2,000 characters of it.
func TestFIPSOnlyAge(t *testing.T) {
	if puregoBuild {
		t.Skip("FIPS 140-3 mode is incompatible with -tags purego")
	}
	if fipsOnly() {
		// The test makes age keys itself, which this mode refuses
		// (and the post-quantum one would never be made).
		t.Skip("the test makes age keys, which FIPS 140-only mode refuses")
	}
	dir := t.TempDir()
	pq, err := age.GenerateHybridIdentity()
	if err != nil {
		t.Fatal(err)
	}
	x, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "pq.key", []byte(pq.String()+"\n"))
	writeFile(t, dir, "x.key", []byte(x.String()+"\n"))
	writeFile(t, dir, "secret.bin", randomBytes(32))
	must(t, runGODEBUG(t, dir, "fips140=off", "split", "-t", "2", "-r", "ann:"+pq.Recipient().String(), "-r", "ben:"+x.Recipient().String(), "-o", "s", "secret.bin"), "split -r, fips140=off")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"combine", "-i", "pq.key", "s"}, `-i "pq.key": age encryption uses X25519`},
		{[]string{"verify", "-i", "x.key", "-i", "pq.key", "s"}, `-i "x.key": age encryption uses X25519`},
		{[]string{"split", "-t", "2", "-r", "ann:" + pq.Recipient().String(), "-r", x.Recipient().String(), "-o", "t", "secret.bin"},
			"-r 1: ann's recipient " + pq.Recipient().String()[:16] + "…: age encryption uses X25519"},
		{[]string{"combine", "s"}, "no shares among the inputs: 2 files are encrypted with age, which FIPS 140-only mode (GODEBUG=fips140=only) cannot open"},
	} {
		what := strings.Join(c.args[:2], " ") + ", fips140=only"
		r, cpu := runDeadline(t, dir, "fips140=only", 20*time.Second, c.args...)
		if cpu > time.Second {
			t.Errorf("%s: took %v of CPU time", what, cpu)
		}
		fails(t, r, 1, what, c.want, "FIPS 140-only mode (GODEBUG=fips140=only)")
		if c.args[1] == "s" {
			continue // each age file is noted
		}
		if lines := bytes.Count(r.stderr, []byte("\n")); lines != 1 || len(r.stderr) > 300 {
			t.Errorf("%s: %d lines, %d bytes on stderr, want one short line:\n%s", what, lines, len(r.stderr), r.stderr)
		}
	}
}

// runDeadline is runGODEBUG, with the command killed after limit, a test
// failure; it also returns the CPU time the command used.
func runDeadline(t testing.TB, dir, godebug string, limit time.Duration, args ...string) (result, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("shamir %s: still running after %v", strings.Join(args, " "), limit)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running shamir %s: %v", strings.Join(args, " "), err)
	}
	ps := cmd.ProcessState
	return result{stdout.Bytes(), stderr.Bytes(), ps.ExitCode(), 0}, ps.UserTime() + ps.SystemTime()
}
