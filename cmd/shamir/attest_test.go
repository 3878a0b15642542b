package main

import (
	"bytes"
	"encoding/json"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttestManifestV1 checks that a manifest of version 1 (before
// attestation) is still read by verify -manifest, and that attest says
// it records no keys.
func TestAttestManifestV1(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice", "bob", "carol")))
	writeFile(t, dir, "key.bin", []byte("0123456789abcdef0123456789abcdef"))
	must(t, runCmd(t, dir, nil, "split", "-t", "2", "-R", "holders.txt", "-o", "s", "key.bin"), "split")
	data, err := os.ReadFile(filepath.Join(dir, "s", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["version"] = manifest.VersionV1
	for _, s := range m["shares"].([]any) {
		delete(s.(map[string]any), "attest_key")
	}
	v1, _ := json.MarshalIndent(m, "", "  ")
	writeFile(t, dir, "s/manifest.json", v1)
	r := must(t, runCmd(t, dir, nil, "verify", "-manifest", "s/manifest.json"), "verify, a version 1 manifest")
	if !bytes.Contains(r.stderr, []byte("all 3 shares are good")) {
		t.Errorf("verify -manifest:\n%s", r.stderr)
	}
	fails(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "s/manifest.json"), 1, "attest challenge, a version 1 manifest",
		`"s/manifest.json" records no attestation keys (shamir-manifest/1)`, "shamir attest manifest")
	m["threshold"] = 4
	bad, _ := json.Marshal(m)
	writeFile(t, dir, "s/manifest.json", bad)
	fails(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "s/manifest.json"), 1, "attest challenge, a threshold over the shares",
		`"s/manifest.json": not a valid manifest`, "threshold 4: from 2 to the 3 parts")
}

// TestAttestVault is a round with Vault-format shares: a manifest made
// from the full set, answers from shares given on stdin in base64 and in
// hex, an answer to another challenge, and one check without enough
// answers.
func TestAttestVault(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "key.txt", []byte("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=\n"))
	must(t, runCmd(t, dir, nil, "split", "-decode", "base64", "-n", "4", "-t", "3", "-encode", "base64", "-o", "keys.txt", "key.txt"), "split")
	fails(t, runCmd(t, dir, nil, "attest", "manifest", "keys.txt"), 2, "attest manifest without -t", "give it with -t")
	must(t, runCmd(t, dir, nil, "attest", "manifest", "-t", "3", "keys.txt"), "attest manifest")
	mf := readManifestFile(t, filepath.Join(dir, "manifest.json"))
	if mf.ShareFormat != "vault-base64" || mf.Threshold != 3 || len(mf.Shares) != 4 || mf.Shares[0].X == 0 || mf.Shares[0].AttestKey == "" {
		t.Fatalf("manifest %+v", mf)
	}
	lines := strings.Fields(string(readFileT(t, dir, "keys.txt")))
	// The manifest's SHA-256 is of a share's line, as a holder keeps it.
	writeFile(t, dir, "key1.txt", []byte(lines[0]+"\n"))
	must(t, runCmd(t, dir, nil, "verify", "-manifest", "manifest.json", "key1.txt"), "verify -manifest of one share's line")
	ch := must(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "manifest.json"), "challenge").stdout
	writeFile(t, dir, "ch.txt", ch)
	ch2 := must(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "manifest.json"), "another challenge").stdout
	writeFile(t, dir, "ch2.txt", ch2)
	var answers bytes.Buffer
	a := must(t, runCmd(t, dir, strings.NewReader(lines[0]+"\n"), "attest", "answer", "-c", "ch.txt"), "answer, base64").stdout
	answers.Write(a)
	hexShare := hexOfBase64(t, lines[1])
	a = must(t, runCmd(t, dir, strings.NewReader(hexShare+"\n"), "attest", "answer", "-q", "-c", "ch.txt"), "answer, hex").stdout
	answers.Write(a)
	a = must(t, runCmd(t, dir, strings.NewReader(lines[2]+"\n"), "attest", "answer", "-q", "-c", "ch2.txt"), "answer, another challenge").stdout
	answers.Write(a)
	writeFile(t, dir, "answers.txt", answers.Bytes())
	r := runCmd(t, dir, nil, "attest", "check", "-manifest", "manifest.json", "-c", "ch.txt", "answers.txt")
	fails(t, r, 1, "check, two good answers of three")
	for _, want := range []string{
		"share-1 (share 1): holds their share", "share-2 (share 2): holds their share",
		`share-3 (share 3): refused`, `"answers.txt" line 3: an answer to another challenge`,
		"share-4 (share 4): no answer", "2 of 4 holders proved they hold their share; the threshold is 3: NOT enough",
	} {
		if !bytes.Contains(r.stdout, []byte(want)) {
			t.Errorf("check does not say %q:\n%s", want, r.stdout)
		}
	}
	// The answers on stdin; the challenge of another manifest.
	must(t, runCmd(t, dir, nil, "attest", "manifest", "-q", "-t", "3", "-o", "other.json", "keys.txt"), "another manifest")
	fails(t, runCmd(t, dir, bytes.NewReader(answers.Bytes()), "attest", "check", "-manifest", "other.json", "-c", "ch.txt"), 1,
		"check against another manifest", "the challenge is for the split")
	fails(t, runCmd(t, dir, strings.NewReader("no answers here\n"), "attest", "check", "-manifest", "manifest.json", "-c", "ch.txt"), 1,
		"check, no answers", "no answer among the inputs")
}

func readFileT(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hexOfBase64(t *testing.T, s string) string {
	t.Helper()
	b, err := decodeBase64(s)
	if err != nil {
		t.Fatal(err)
	}
	return hexString(b)
}

// TestAttestUsage checks the refusals of the command line.
func TestAttestUsage(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "ch.txt", []byte("hello\n"))
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"attest"}, 2, "give a step: challenge, answer, check or manifest"},
		{[]string{"attest", "prove"}, 2, `attest "prove": the steps are`},
		{[]string{"attest", "challenge"}, 2, "give the split's manifest with -manifest"},
		{[]string{"attest", "answer"}, 2, "give the challenge with -c"},
		{[]string{"attest", "answer", "-c", "ch.txt"}, 1, `"ch.txt" holds no challenge`},
		{[]string{"attest", "answer", "-c", "shamir-challenge-1:AAAA"}, 1, "-c: the challenge is damaged: 4 characters"},
		{[]string{"attest", "check", "-c", "ch.txt"}, 2, "give the split's manifest with -manifest"},
	} {
		fails(t, runCmd(t, dir, nil, c.args...), c.code, strings.Join(c.args, " "), c.msg)
	}
	r := must(t, runCmd(t, dir, nil, "attest", "-h"), "attest -h")
	if !bytes.Contains(r.stdout, []byte("does not prove that nobody else has a copy")) {
		t.Errorf("attest -h:\n%s", r.stdout)
	}
}

// TestAttestFIPSOnly makes SSMS shares, their manifest, a challenge, an
// answer and a check, all under GODEBUG=fips140=only.
func TestAttestFIPSOnly(t *testing.T) {
	if puregoBuild {
		t.Skip("FIPS 140-3 mode is incompatible with -tags purego")
	}
	dir := t.TempDir()
	writeFile(t, dir, "key.bin", []byte("0123456789abcdef0123456789abcdef"))
	only := func(what string, args ...string) result {
		t.Helper()
		return must(t, runGODEBUG(t, dir, "fips140=only", args...), what+", fips140=only")
	}
	only("split", "split", "-n", "3", "-t", "2", "-o", "s", "key.bin")
	only("attest manifest", "attest", "manifest", "-o", "m.json", "s")
	writeFile(t, dir, "ch.txt", only("challenge", "attest", "challenge", "-manifest", "m.json").stdout)
	var answers []byte
	for _, f := range shareNames("key.bin", 3)[:2] {
		answers = append(answers, only("answer", "attest", "answer", "-c", "ch.txt", filepath.Join("s", f)).stdout...)
	}
	writeFile(t, dir, "answers.txt", answers)
	r := only("check", "attest", "check", "-manifest", "m.json", "-c", "ch.txt", "answers.txt")
	if !bytes.Contains(r.stdout, []byte("2 of 3 holders proved they hold their share; the threshold is 2: enough")) {
		t.Errorf("check:\n%s", r.stdout)
	}
}

// TestAttestShortShares checks that split records no attestation key for
// shares too short to have one, and says so.
func TestAttestShortShares(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice", "bob")))
	writeFile(t, dir, "pin.txt", []byte("12345678"))
	r := must(t, runCmd(t, dir, nil, "split", "-t", "2", "-R", "holders.txt", "-encode", "hex", "-o", "s", "pin.txt"), "split")
	if !bytes.Contains(r.stderr, []byte("note: the shares are too short for attestation (a secret of at least 16 bytes is needed)")) {
		t.Errorf("split:\n%s", r.stderr)
	}
	m := readManifestFile(t, filepath.Join(dir, "s", "manifest.json"))
	if m.Shares[0].AttestKey != "" || m.Shares[0].X == 0 {
		t.Errorf("manifest: %+v", m.Shares[0])
	}
	fails(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "s/manifest.json"), 1, "challenge", "records no attestation keys")
}
