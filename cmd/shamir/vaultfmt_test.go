package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// splitLines splits the shares printed by split -encode into lines.
func splitLines(b []byte) []string {
	return strings.Fields(string(b))
}

func pickLines(lines []string, idx []int) string {
	var b strings.Builder
	for _, i := range idx {
		b.WriteString(lines[i] + "\n")
	}
	return b.String()
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// TestTextRoundTrip splits secrets into Vault-format shares and recombines
// every subset of them, with and without the threshold.
func TestTextRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, enc := range []string{"base64", "hex"} {
		for _, n := range []int{1, 32, 1000} {
			secret := randomBytes(n)
			writeFile(t, dir, "secret", secret)
			r := must(t, runCmd(t, dir, nil, "split", "-n", "5", "-t", "3", "-encode", enc, "secret"), "split")
			lines := splitLines(r.stdout)
			if len(lines) != 5 {
				t.Fatalf("split printed %d lines, want 5: %q", len(lines), r.stdout)
			}
			for _, l := range lines {
				want := 2 * (n + 1)
				if enc == "base64" {
					want = base64.StdEncoding.EncodedLen(n + 1)
				}
				if len(l) != want {
					t.Fatalf("%s share of a %d-byte secret is %d characters, want %d", enc, n, len(l), want)
				}
			}
			for k := 1; k <= 5; k++ {
				for _, sub := range someSubsets(5, k) {
					what := fmt.Sprintf("%s, %d bytes, shares %v", enc, n, sub)
					in := pickLines(lines, sub)
					r := runCmd(t, dir, strings.NewReader(in), "combine", "-t", "3")
					if k < 3 {
						fails(t, r, 1, what, fmt.Sprintf("%s, 3 needed (-t 3)", count(k, "good share")))
						continue
					}
					must(t, r, what)
					if !bytes.Equal(r.stdout, secret) {
						t.Fatalf("%s: recovered a wrong secret", what)
					}
					// Exactly the threshold: the note that nothing
					// could be checked; more: checked, silent.
					note := "shamir: note: 3 shares, as many as the threshold (-t 3): there is no spare share to check them against, and a damaged one would make the secret wrong\n"
					if want := pick(k == 3, note, ""); string(r.stderr) != want {
						t.Errorf("%s: messages %q, want %q", what, r.stderr, want)
					}
				}
			}
			// Without -t, any two shares are combined, as Vault does: two
			// give a wrong secret without error; three are enough.
			r = must(t, runCmd(t, dir, strings.NewReader(pickLines(lines, []int{4, 0, 2})), "combine"), "combine without -t")
			if !bytes.Equal(r.stdout, secret) {
				t.Fatalf("%s, %d bytes: combine without -t recovered a wrong secret", enc, n)
			}
			fails(t, runCmd(t, dir, strings.NewReader(lines[0]), "combine"), 1, "one share", "1 good share, 2 needed")
		}
	}
}

// TestTextArgsFilesEncodings recombines shares given with -share and in a
// file, and encoded output.
func TestTextArgsFilesEncodings(t *testing.T) {
	dir := t.TempDir()
	secret := []byte("correct horse battery staple")
	r := must(t, runCmd(t, dir, bytes.NewReader(secret), "split", "-n", "4", "-t", "2", "-encode", "hex", "-o", "keys.txt"), "split -o")
	checkMode(t, filepath.Join(dir, "keys.txt"))
	if len(r.stdout) != 0 {
		t.Errorf("split -o printed on stdout: %q", r.stdout)
	}
	keys, _ := os.ReadFile(filepath.Join(dir, "keys.txt"))
	lines := splitLines(keys)

	r = must(t, runCmd(t, dir, nil, "combine", "-share", lines[3], "-share", lines[1]), "combine -share")
	if !bytes.Equal(r.stdout, secret) {
		t.Fatalf("combine -share: got %q", r.stdout)
	}
	r = must(t, runCmd(t, dir, nil, "combine", "keys.txt", "-encode", "base64"), "combine file -encode base64")
	if got := strings.TrimSpace(string(r.stdout)); got != base64.StdEncoding.EncodeToString(secret) {
		t.Fatalf("combine -encode base64: got %q", got)
	}
	r = must(t, runCmd(t, dir, nil, "combine", "-encode", "hex", "keys.txt"), "combine -encode hex")
	if got := string(r.stdout); got != hex.EncodeToString(secret)+"\n" {
		t.Fatalf("combine -encode hex: got %q", got)
	}
	// -decode takes back what -encode wrote: a rekeying pipeline.
	r = must(t, runCmd(t, dir, bytes.NewReader(r.stdout), "split", "-decode", "hex", "-n", "3", "-t", "3", "-encode", "base64"), "split -decode hex")
	r = must(t, runCmd(t, dir, bytes.NewReader(r.stdout), "combine", "-t", "3"), "combine the new shares")
	if !bytes.Equal(r.stdout, secret) {
		t.Fatalf("split -decode hex: got %q", r.stdout)
	}
	fails(t, runCmd(t, dir, strings.NewReader("not hex"), "split", "-decode", "hex", "-n", "3", "-t", "3"), 1, "split -decode bad", "not hex text")

	// Comments and blank lines are skipped; hex and base64 may be forced.
	writeFile(t, dir, "commented.txt", []byte("# the keys\n\n"+lines[0]+"\n  "+lines[2]+"  \n"))
	r = must(t, runCmd(t, dir, nil, "combine", "-decode", "hex", "commented.txt", "-o", "out"), "combine commented")
	if got, _ := os.ReadFile(filepath.Join(dir, "out")); !bytes.Equal(got, secret) {
		t.Fatalf("combine -o: got %q", got)
	}
	checkMode(t, filepath.Join(dir, "out"))
	if !bytes.Contains(r.stderr, []byte(`recovered the secret from 2 shares into "out"`)) {
		t.Errorf("combine -o: no summary: %s", r.stderr)
	}
}

// TestVaultMadeShares combines unseal keys made by Vault's own shamir package
// (testdata/cli/README.md says how), given in every way combine takes them.
func TestVaultMadeShares(t *testing.T) {
	dir := t.TempDir()
	keyHex, err := os.ReadFile(testdata("vault-unseal-key.hex"))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := hex.DecodeString(strings.TrimSpace(string(keyHex)))
	raw, err := os.ReadFile(testdata("vault-unseal-keys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var b64, hexs []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		k := line[strings.LastIndex(line, " ")+1:]
		b64 = append(b64, k)
		d, _ := base64.StdEncoding.DecodeString(k)
		hexs = append(hexs, hex.EncodeToString(d))
	}
	check := func(r result, what string) {
		t.Helper()
		must(t, r, what)
		if !bytes.Equal(r.stdout, key) {
			t.Fatalf("%s: recovered a wrong key", what)
		}
	}
	for _, sub := range someSubsets(5, 3) {
		args := []string{"combine", "-t", "3"}
		for _, i := range sub {
			args = append(args, "-share", b64[i])
		}
		check(runCmd(t, dir, nil, args...), fmt.Sprintf("base64 -share %v", sub))
		check(runCmd(t, dir, strings.NewReader(pickLines(hexs, sub)), "combine", "-t", "3"), fmt.Sprintf("hex lines on stdin %v", sub))
	}
	// All five, which combine then checks against each other.
	check(runCmd(t, dir, nil, "combine", "-t", "3", testdata("vault-unseal-keys.txt")), "vault-unseal-keys.txt")
	check(runCmd(t, dir, nil, "combine", testdata("vault-init-output.txt")), "vault-init-output.txt")
	r := must(t, runCmd(t, dir, nil, "verify", "-t", "3", testdata("vault-init-output.txt")), "verify")
	if !bytes.Contains(r.stderr, []byte("all 5 shares are good")) {
		t.Errorf("verify: %s", r.stderr)
	}
	// The JSON of vault operator init -format=json, whose threshold is used.
	check(runCmd(t, dir, nil, "combine", testdata("vault-init-output.json")), "vault-init-output.json")
	must(t, runCmd(t, dir, nil, "verify", testdata("vault-init-output.json")), "verify JSON without -t")
	js, _ := os.ReadFile(testdata("vault-init-output.json"))
	js = bytes.Replace(js, []byte(b64[3]), []byte(b64[3][:10]+"AAAA"+b64[3][14:]), 1)
	r = must(t, runCmd(t, dir, bytes.NewReader(js), "combine"), "damaged JSON on stdin")
	if !bytes.Equal(r.stdout, key) || !bytes.Contains(r.stderr, []byte("bad share stdin unseal_keys_b64[3]: does not agree")) {
		t.Fatalf("damaged JSON: %v", r)
	}
	// The labelled lines, three of them, on stdin.
	lines := strings.Split(string(raw), "\n")
	check(runCmd(t, dir, strings.NewReader(lines[4]+"\n"+lines[1]+"\n"+lines[2]+"\n"), "combine"), "labelled lines on stdin")
}

// TestVaultVectors combines the shares of testdata/vault/vectors.json, made
// by Vault's shamir.Split for the interop tests, as hex lines on stdin.
func TestVaultVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "vault", "vectors.json"))
	if err != nil {
		t.Skipf("no Vault vectors: %v", err)
	}
	var vectors []struct {
		Secret    string
		Threshold int
		Shares    []string
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if testing.Short() {
		vectors = vectors[:min(len(vectors), 3)] // see someSubsets
	}
	for i, v := range vectors {
		for _, shares := range [][]string{v.Shares[len(v.Shares)-v.Threshold:], v.Shares} {
			in := strings.Join(shares, "\n")
			r := must(t, runCmd(t, dir, strings.NewReader(in), "combine", "-t", fmt.Sprint(v.Threshold), "-encode", "hex"), fmt.Sprintf("vector %d", i))
			if got := strings.TrimSpace(string(r.stdout)); got != v.Secret {
				t.Fatalf("vector %d, %d shares: got %s, want %s", i, len(shares), got, v.Secret)
			}
		}
	}
}

// TestVaultCombinesOurShares gives shares that split made to Vault's own
// shamir.Combine, through the helper module in testdata/cli/vaultshamir. It
// is skipped when that module cannot be built offline (Vault's module is not
// in the module cache).
func TestVaultCombinesOurShares(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Vault's shamir package")
	}
	dir := t.TempDir()
	helper := filepath.Join(dir, "vaultshamir")
	build := exec.Command("go", "build", "-o", helper, ".")
	build.Dir = testdata("vaultshamir")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("cannot build the Vault helper offline: %v\n%s", err, out)
	}
	for _, enc := range []string{"base64", "hex"} {
		secret := randomBytes(32)
		writeFile(t, dir, "key", secret)
		r := must(t, runCmd(t, dir, nil, "split", "-n", "5", "-t", "3", "-encode", enc, "key"), "split")
		lines := splitLines(r.stdout)
		for _, sub := range [][]int{{0, 1, 2}, {4, 2, 0}, {1, 3, 4}, {0, 1, 2, 3, 4}} {
			cmd := exec.Command(helper, "combine")
			cmd.Stdin = strings.NewReader(pickLines(lines, sub))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("Vault's Combine refused %s shares %v: %v", enc, sub, err)
			}
			if got := strings.TrimSpace(string(out)); got != hex.EncodeToString(secret) {
				t.Fatalf("Vault's Combine of %s shares %v gave %s, want %x", enc, sub, got, secret)
			}
		}
	}
}

// TestTextBadShares gives combine and verify damaged, foreign, duplicated and
// malformed shares, and checks that each is named and that the secret is
// still recovered when enough good ones remain.
func TestTextBadShares(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(32)
	writeFile(t, dir, "key", secret)
	lines := splitLines(must(t, runCmd(t, dir, nil, "split", "-n", "7", "-t", "3", "-encode", "base64", "key"), "split").stdout)
	other := splitLines(must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-encode", "base64", "key"), "split other").stdout)
	longer := splitLines(must(t, runCmd(t, dir, strings.NewReader("a longer secret than the other"), "split", "-n", "3", "-t", "2", "-encode", "base64"), "split longer").stdout)

	damaged := func(s string) string { // flips bits in the first y byte
		b, _ := base64.StdEncoding.DecodeString(s)
		b[0] ^= 0x5a
		return base64.StdEncoding.EncodeToString(b)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		msgs  []string // in the warnings, each naming a line
	}{
		{"damaged", []string{lines[0], damaged(lines[1]), lines[2], lines[3], lines[4]}, []string{`bad share "keys.txt" line 2: does not agree`}},
		{"foreign", []string{lines[0], lines[1], other[0], lines[3], lines[4]}, []string{`bad share "keys.txt" line 3`}},
		{"wrong length", []string{longer[0], lines[0], lines[1], lines[2]}, []string{`bad share "keys.txt" line 1: 31 bytes long`}},
		{"duplicate", []string{lines[0], lines[1], lines[0], lines[2]}, []string{`bad share "keys.txt" line 3: the same share as "keys.txt" line 1`}},
		{"not base64", []string{lines[0], "this-is-no-share!", lines[1], lines[2]}, []string{`bad share "keys.txt" line 2: not a base64 share`}},
		{"two damaged of seven", []string{damaged(lines[0]), lines[1], lines[2], lines[3], lines[4], damaged(lines[5]), lines[6]}, []string{`bad share "keys.txt" line 1: does not agree`, `bad share "keys.txt" line 6: does not agree`}},
	} {
		writeFile(t, dir, "keys.txt", []byte(strings.Join(tc.lines, "\n")+"\n"))
		r := must(t, runCmd(t, dir, nil, "combine", "-t", "3", "keys.txt"), tc.name)
		if !bytes.Equal(r.stdout, secret) {
			t.Fatalf("%s: recovered a wrong secret", tc.name)
		}
		for _, m := range append(tc.msgs, "warning: recovered the secret") {
			if !bytes.Contains(r.stderr, []byte(m)) {
				t.Errorf("%s: combine did not say %q:\n%s", tc.name, m, r.stderr)
			}
		}
		if len(tc.lines) > 3 {
			fails(t, runCmd(t, dir, nil, "verify", "-t", "3", "keys.txt"), 1, tc.name+": verify", tc.msgs...)
		}
	}
	// Too little redundancy to tell the bad share: one damaged share among
	// threshold+1 is always detected (the shares' code has distance 2) but
	// cannot be located. (Two damaged shares could cancel out, with a chance
	// of about 1/255 for random x coordinates.) No secret, and advice.
	writeFile(t, dir, "keys.txt", []byte(strings.Join([]string{damaged(lines[0]), lines[1], lines[2], lines[3]}, "\n")))
	r := runCmd(t, dir, nil, "combine", "-t", "3", "keys.txt", "-o", "out")
	fails(t, r, 1, "too damaged", "which are bad cannot be told")
	if len(r.stdout) != 0 {
		t.Errorf("too damaged: printed %q", r.stdout)
	}
	noLeftovers(t, dir, "key", "keys.txt")
	// Files named on the command line that do not exist.
	fails(t, runCmd(t, dir, nil, "combine", "missing.shamir", "keys.txt"), 1, "missing", `"missing.shamir" does not exist`)
	fails(t, runCmd(t, dir, nil, "combine", "nothing-*.txt"), 1, "unexpanded pattern", `"nothing-*.txt" does not exist`, "hint: a pattern is not expanded")
	// Verify needs the threshold and spare shares.
	three := strings.NewReader(pickLines(lines, []int{0, 1, 2}))
	fails(t, runCmd(t, dir, three, "verify"), 2, "verify without -t", "-t")
	three.Seek(0, 0)
	fails(t, runCmd(t, dir, three, "verify", "-t", "3"), 1, "verify threshold shares", "nothing to check")
}

// TestOverwrite checks that no existing file is replaced without -f, and
// that a failed run leaves nothing behind.
func TestOverwrite(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "secret", []byte("s3cret"))
	writeFile(t, dir, "keys.txt", []byte("precious\n"))
	fails(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-encode", "hex", "secret", "-o", "keys.txt"), 1, "split over a file", `"keys.txt" already exists`, "-f")
	if b, _ := os.ReadFile(filepath.Join(dir, "keys.txt")); string(b) != "precious\n" {
		t.Fatalf("keys.txt was overwritten: %q", b)
	}
	noLeftovers(t, dir, "keys.txt", "secret")
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-encode", "hex", "secret", "-o", "keys.txt", "-f"), "split -f")
	checkMode(t, filepath.Join(dir, "keys.txt"))

	writeFile(t, dir, "out", []byte("precious\n"))
	fails(t, runCmd(t, dir, nil, "combine", "keys.txt", "-o", "out"), 1, "combine over a file", `"out" already exists`)
	if b, _ := os.ReadFile(filepath.Join(dir, "out")); string(b) != "precious\n" {
		t.Fatalf("out was overwritten: %q", b)
	}
	must(t, runCmd(t, dir, nil, "combine", "keys.txt", "-o", "out", "-f"), "combine -f")
	if b, _ := os.ReadFile(filepath.Join(dir, "out")); string(b) != "s3cret" {
		t.Fatalf("combine -f wrote %q", b)
	}
	checkMode(t, filepath.Join(dir, "out"))
	noLeftovers(t, dir, "keys.txt", "out", "secret")
}

// TestTextPipes runs split and combine as filters.
func TestTextPipes(t *testing.T) {
	dir := t.TempDir()
	secret := []byte("hunter2\n")
	r := must(t, runCmd(t, dir, bytes.NewReader(secret), "split", "-n", "3", "-t", "2", "-encode", "base64", "-"), "split from stdin")
	r = must(t, runCmd(t, dir, bytes.NewReader(r.stdout), "combine", "-"), "combine from stdin")
	if !bytes.Equal(r.stdout, secret) {
		t.Fatalf("got %q, want %q (the final newline is part of a piped secret)", r.stdout, secret)
	}
	fails(t, runCmd(t, dir, strings.NewReader(""), "split", "-n", "3", "-t", "2", "-encode", "hex"), 1, "empty secret", "empty")
}
