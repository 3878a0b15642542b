package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReprotectPassphrase has a passphrase holder change their passphrase
// alone: reprotect asks for the old one, then the new one twice; the file
// no longer opens with the old one, the manifest still knows the share in
// it (verify -manifest asks for the new passphrase), attestation still
// holds, and alice's file is untouched. Then bob moves to a key.
func TestReprotectPassphrase(t *testing.T) {
	if testing.Short() {
		t.Skip("scrypt at age's work factor: slow under the race detector")
	}
	dir := t.TempDir()
	writeFile(t, dir, "holders.txt", []byte(holderKeys(t, dir, "alice")+"bob: passphrase\n"))
	secret := []byte("0123456789abcdef0123456789abcdef")
	writeFile(t, dir, "key.bin", secret)
	se := startSession(t, dir, true, false, true, nil, "split", "-t", "2", "-R", "holders.txt", "-o", "s", "key.bin")
	se.typeLine("Passphrase for bob: ", "old words")
	se.typeLine("Passphrase for bob, again: ", "old words")
	if code := se.wait(); code != 0 {
		t.Fatalf("split exited %d:\n%s", code, se.shown())
	}
	alice := readFileT(t, dir, "s/alice.shamir.age")

	se = startSession(t, dir, true, false, true, nil, "reprotect", "-passphrase", "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, "old words")
	se.typeLine(`Passphrase for "s/bob.shamir.age" (new): `, "new words")
	se.typeLine(`Passphrase for "s/bob.shamir.age" (new), again: `, "new words")
	if code := se.wait(); code != 0 || !strings.Contains(se.shown(), "to a new passphrase; the share in it is unchanged") {
		t.Fatalf("reprotect exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), "words") {
		t.Fatalf("a passphrase was echoed:\n%s", se.shown())
	}
	if !bytes.Equal(readFileT(t, dir, "s/alice.shamir.age"), alice) {
		t.Fatal("alice's file changed")
	}

	// The old passphrase no longer opens it.
	se = startSession(t, dir, true, false, true, nil, "combine", "-o", "-", "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, "old words")
	se.typeLine("(2 tries left)", "old words")
	se.typeLine("(1 try left)", "old words")
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), "wrong three times") {
		t.Fatalf("combine with the old passphrase exited %d:\n%s", code, se.shown())
	}
	// The manifest knows the share inside.
	se = startSession(t, dir, true, false, true, nil, "verify", "-manifest", "s/manifest.json", "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age" (Enter to skip): `, "new words")
	if code := se.wait(); code != 0 || !strings.Contains(se.shown(), `share 2, of holder "bob": the share in the file handed out, decrypted`) {
		t.Fatalf("verify -manifest exited %d:\n%s", code, se.shown())
	}
	// Attestation holds.
	attestBob(t, dir, "new words")

	// Two different new passphrases, three times: the file stays as it
	// was.
	before := readFileT(t, dir, "s/bob.shamir.age")
	se = startSession(t, dir, true, false, true, nil, "reprotect", "-passphrase", "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, "new words")
	for n := 1; n <= 3; n++ {
		typeNth(se, `(new): `, n, "one")
		typeNth(se, `(new), again: `, n, "another")
	}
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), "differ, 3 times; nothing was written") {
		t.Fatalf("reprotect with two new passphrases exited %d:\n%s", code, se.shown())
	}
	if !bytes.Equal(readFileT(t, dir, "s/bob.shamir.age"), before) {
		t.Fatal("bob's file changed")
	}

	// From a passphrase to a key.
	rcpt := strings.TrimSpace(strings.TrimPrefix(holderKeys(t, dir, "bob"), "bob:"))
	se = startSession(t, dir, true, false, true, nil, "reprotect", "-r", rcpt, "s/bob.shamir.age")
	se.typeLine(`Passphrase for "s/bob.shamir.age": `, "new words")
	if code := se.wait(); code != 0 {
		t.Fatalf("reprotect to a key exited %d:\n%s", code, se.shown())
	}
	r := must(t, runCmd(t, dir, nil, "combine", "-i", "alice.key", "-i", "bob.key", "-o", "-", "s"), "combine")
	if !bytes.Equal(r.stdout, secret) {
		t.Fatalf("recovered %q", r.stdout)
	}
	must(t, runCmd(t, dir, nil, "verify", "-i", "bob.key", "-manifest", filepath.Join("s", "manifest.json")), "verify -manifest")
}
