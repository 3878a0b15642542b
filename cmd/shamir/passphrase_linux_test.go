package main

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"
)

// startCTTY runs the program name in dir with the terminal as its
// controlling terminal and its stdin, stdout and stderr, as age needs to
// ask for a passphrase: it opens /dev/tty.
func startCTTY(t *testing.T, dir, name string, args ...string) *session {
	t.Helper()
	m, s := openPTY(t)
	se := &session{t: t, master: m, read: make(chan struct{})}
	se.cmd = exec.Command(name, args...)
	se.cmd.Dir = dir
	se.cmd.Stdin, se.cmd.Stdout, se.cmd.Stderr = s, s, s
	se.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	se.start(s)
	return se
}

// TestPassphraseHolders splits for a holder with a key and two with
// passphrases typed at the terminal; Debian's age opens a passphrase
// holder's file with the passphrase alone; combine asks for it, and reads
// a share that age -p encrypted.
func TestPassphraseHolders(t *testing.T) {
	if testing.Short() {
		t.Skip("scrypt at age's work factor, six times: slow under the race detector")
	}
	ageBin := needTool(t, "age")
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice")+"bob: passphrase\ncarol: passphrase\n"))
	secret := []byte("0123456789abcdef0123456789abcdef")
	writeFile(t, dir, "key.bin", secret)
	se := startSession(t, dir, true, false, true, nil, "split", "-t", "2", "-R", "holders.txt", "-o", "s", "key.bin")
	se.typeLine("Passphrase for bob: ", "bob's long passphrase")
	se.typeLine("Passphrase for bob, again: ", "bob's long passphrase")
	se.typeLine("Passphrase for carol: ", "carol's")
	se.typeLine("Passphrase for carol, again: ", "carol's")
	if code := se.wait(); code != 0 {
		t.Fatalf("split exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), "long passphrase") {
		t.Fatalf("a passphrase was echoed:\n%s", se.shown())
	}
	m := readManifestFile(t, filepath.Join(dir, "s", "manifest.json"))
	if m.Shares[1].Recipient != "passphrase" || m.Shares[1].AttestKey == "" {
		t.Fatalf("bob in the manifest: %+v", m.Shares[1])
	}

	// Debian's age, with the passphrase typed at its prompt.
	se = startCTTY(t, dir, ageBin, "-d", "-o", "bob.shamir", filepath.Join("s", "bob.shamir.age"))
	se.typeLine("passphrase", "bob's long passphrase")
	if code := se.wait(); code != 0 {
		t.Fatalf("age -d exited %d:\n%s", code, se.shown())
	}
	must(t, runCmd(t, dir, nil, "verify", "-manifest", "s/manifest.json", "bob.shamir"), "verify -manifest of bob's share, decrypted by age")

	// combine asks for carol's passphrase, and alice's file opens with -i.
	se = startSession(t, dir, true, false, true, nil, "combine", "-i", "alice.key", "-o", "-", "s/alice.shamir.age", "s/carol.shamir.age")
	se.typeLine(`Passphrase for "s/carol.shamir.age": `, "carol's")
	if code := se.wait(); code != 0 || !bytes.Equal(se.stdout.Bytes(), secret) {
		t.Fatalf("combine exited %d, recovered %q:\n%s", code, se.stdout.Bytes(), se.shown())
	}
	// A passphrase wrong three times: the file could not be opened, and
	// the one share left is not enough.
	se = startSession(t, dir, true, false, true, nil, "combine", "-o", "-", "s/carol.shamir.age", "bob.shamir")
	se.typeLine(`Passphrase for "s/carol.shamir.age": `, "not carol's")
	se.typeLine("(2 tries left)", "still not carol's")
	se.typeLine("(1 try left)", "never carol's")
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), `"s/carol.shamir.age": could not be opened: the passphrase typed was wrong three times`) {
		t.Fatalf("combine with a wrong passphrase exited %d:\n%s", code, se.shown())
	}

	// bob proves he holds his share, typing his passphrase.
	attestBob(t, dir, "bob's long passphrase")

	// A share encrypted with age -p is read by combine.
	se = startCTTY(t, dir, ageBin, "-p", "-o", "bob.age", "bob.shamir")
	se.typeLine("Enter passphrase", "another passphrase")
	se.typeLine("Confirm passphrase", "another passphrase")
	if code := se.wait(); code != 0 {
		t.Fatalf("age -p exited %d:\n%s", code, se.shown())
	}
	se = startSession(t, dir, true, false, true, nil, "combine", "-i", "alice.key", "-o", "-", "s/alice.shamir.age", "bob.age")
	se.typeLine(`Passphrase for "bob.age": `, "another passphrase")
	if code := se.wait(); code != 0 || !bytes.Equal(se.stdout.Bytes(), secret) {
		t.Fatalf("combine of an age -p file exited %d:\n%s", code, se.shown())
	}
}

// TestPassphraseNoTerminal checks what happens to passphrases without a
// terminal: split refuses a passphrase holder; combine notes a passphrase
// file and does not count it.
func TestPassphraseNoTerminal(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice")+"bob: passphrase\n"))
	writeFile(t, dir, "key.bin", []byte("0123456789abcdef0123456789abcdef"))
	fails(t, runCmd(t, dir, nil, "split", "-t", "2", "-R", "holders.txt", "-o", "s", "key.bin"), 1, "split, no terminal",
		`"holders.txt" line 2: bob keeps their share under a passphrase, which they type on a terminal, and there is none`)
	noLeftovers(t, dir, "alice.key", "holders.txt", "key.bin")
	if puregoBuild {
		return
	}
	// Under fips140=only, a passphrase holder is refused as an age
	// recipient is.
	writeFile(t, dir, "pass.txt", []byte("bob: passphrase\ncarol: passphrase\n"))
	r := runGODEBUG(t, dir, "fips140=only", "split", "-t", "2", "-R", "pass.txt", "-o", "s", "key.bin")
	fails(t, r, 1, "split, fips140=only", "which FIPS 140-3 does not approve")

	// age -p's file, read without a terminal.
	must(t, runCmd(t, dir, nil, "split", "-n", "2", "-t", "2", "-o", "p", "key.bin"), "split")
	writeFile(t, dir, "share.age", agePassphraseFile(t, "a passphrase", readFileT(t, dir, "p/key.bin.1-of-2.shamir")))
	r = runCmd(t, dir, nil, "combine", "-o", "-", "share.age", "p/key.bin.2-of-2.shamir")
	fails(t, r, 1, "combine, a passphrase file without a terminal",
		`ignored "share.age": encrypted with a passphrase: its passphrase is typed on a terminal, and there is none`)
}

// attestBob runs a round of attestation for the split in dir/s, in which
// bob answers from s/bob.shamir.age, typing passphrase on the terminal,
// and checks that the answer proves he holds share 2.
func attestBob(t *testing.T, dir, passphrase string) {
	t.Helper()
	writeFile(t, dir, "ch.txt", must(t, runCmd(t, dir, nil, "attest", "challenge", "-manifest", "s/manifest.json"), "challenge").stdout)
	se := startSession(t, dir, true, false, true, nil, "attest", "answer", "-c", "ch.txt", "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, passphrase)
	if code := se.wait(); code != 0 {
		t.Fatalf("attest answer exited %d:\n%s", code, se.shown())
	}
	r := runCmd(t, dir, bytes.NewReader(se.stdout.Bytes()), "attest", "check", "-manifest", "s/manifest.json", "-c", "ch.txt")
	if !bytes.Contains(r.stdout, []byte("bob (share 2): holds their share")) {
		t.Fatalf("check:\n%s", r.stdout)
	}
}

// agePassphraseFile encrypts data with passphrase, as age -p does.
func agePassphraseFile(t *testing.T, passphrase string, data []byte) []byte {
	t.Helper()
	r, err := age.NewScryptRecipient(passphrase)
	if err != nil {
		t.Fatal(err)
	}
	r.SetWorkFactor(10) // a test: fast
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, r)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(w, bytes.NewReader(data))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPassphraseMistakes is issue 23's case 8: at split, two passphrases
// that differ are asked for again, and the other holders' are kept; a
// very weak one is warned of, with what guessing it costs; at combine, a
// wrong passphrase is asked for again, and a file whose passphrase is
// wrong three times is set aside while the others recover the secret.
func TestPassphraseMistakes(t *testing.T) {
	if testing.Short() {
		t.Skip("scrypt at age's work factor, eight times: slow under the race detector")
	}
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice")+"bob: passphrase\ncarol: passphrase\n"))
	secret := []byte("0123456789abcdef0123456789abcdef")
	writeFile(t, dir, "key.bin", secret)
	se := startSession(t, dir, true, false, true, nil, "split", "-t", "2", "-R", "holders.txt", "-o", "s", "key.bin")
	se.typeLine("Passphrase for bob: ", "bob rows the boat")
	se.typeLine("Passphrase for bob, again: ", "bob rows the bat")
	se.typeLine("the two passphrases typed for bob differ; type it again (2 tries left)", "bob rows the boat")
	typeNth(se, "Passphrase for bob, again: ", 2, "bob rows the boat")
	se.typeLine("Passphrase for carol: ", "x")
	se.typeLine("Passphrase for carol, again: ", "x")
	if code := se.wait(); code != 0 {
		t.Fatalf("split exited %d:\n%s", code, se.shown())
	}
	if !strings.Contains(se.shown(), "carol's passphrase is weak: 1 character: at most 26 guesses, which take about 26 seconds of one CPU core") {
		t.Fatalf("no warning of carol's weak passphrase:\n%s", se.shown())
	}
	if strings.Contains(se.shown(), "bob's passphrase is weak") {
		t.Fatalf("bob's passphrase called weak:\n%s", se.shown())
	}
	// bob mistypes once; carol's passphrase is wrong three times, and
	// alice's and bob's shares are enough.
	se = startSession(t, dir, true, false, true, nil, "combine", "-i", "alice.key", "-o", "-", "s/bob.shamir.age", "s/carol.shamir.age", "s/alice.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, "bob rows the bat")
	se.typeLine(`wrong passphrase for "s/bob.shamir.age"; try again (2 tries left)`, "bob rows the boat")
	se.typeLine(`Passphrase for "s/carol.shamir.age": `, "y")
	se.typeLine(`wrong passphrase for "s/carol.shamir.age"; try again (2 tries left)`, "z")
	se.typeLine(`wrong passphrase for "s/carol.shamir.age"; try again (1 try left)`, "w")
	if code := se.wait(); code != 0 || !bytes.Equal(se.stdout.Bytes(), secret) {
		t.Fatalf("combine exited %d, recovered %q:\n%s", code, se.stdout.Bytes(), se.shown())
	}
	if !strings.Contains(se.shown(), `ignored "s/carol.shamir.age": could not be opened: the passphrase typed was wrong three times`) {
		t.Fatalf("carol's file not named:\n%s", se.shown())
	}
}

// typeNth types line at the n-th time the terminal shows prompt.
func typeNth(se *session, prompt string, n int, line string) {
	se.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(se.shown(), prompt) < n {
		if time.Now().After(deadline) {
			se.t.Fatalf("the terminal never showed %q %d times; it shows:\n%s", prompt, n, se.shown())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := io.WriteString(se.master, line+"\n"); err != nil {
		se.t.Fatal(err)
	}
}
