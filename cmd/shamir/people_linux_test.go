package main

// Shares for people at a terminal: paper text typed at combine's prompt,
// and the passphrase of an identity file encrypted with age -p.

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// TestTerminalPaperText types a share's paper text, line by line as it is
// printed, at combine's prompt: the lines are not echoed, and combine asks
// for more until the share is whole.
func TestTerminalPaperText(t *testing.T) {
	dir := t.TempDir()
	secret := make([]byte, 32)
	rand.Read(secret)
	shares := paperShares(t, dir, secret, 3, 2)
	lines := strings.Split(strings.TrimSpace(paper.Text(shares[0])), "\n")
	se := startSession(t, dir, true, false, true, nil, "combine", "-", "shares/key.bin.3-of-3.shamir", "-o", "out")
	se.typeLine("Share 1: ", strings.ToLower(lines[0]+" "+lines[1]))
	for i, l := range lines[2:] {
		// Each prompt looks the same: wait for the i+1st.
		for strings.Count(se.shown(), "continued: ") < i+1 {
			time.Sleep(10 * time.Millisecond)
		}
		se.typeLine("continued: ", l)
	}
	se.typeLine("Share 2: ", "")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), lines[1][:10]) {
		t.Fatalf("the text was echoed:\n%s", se.shown())
	}
	checkSecret(t, filepath.Join(dir, "out"), secret, false)
}

// TestTerminalPassphraseIdentity gives combine an identity file encrypted
// with a passphrase, as age -p makes it: the passphrase is asked for once,
// without echo, and opens the shares encrypted to the key inside.
func TestTerminalPassphraseIdentity(t *testing.T) {
	dir := t.TempDir()
	id, _ := age.GenerateX25519Identity()
	other, _ := age.GenerateX25519Identity()
	sr, err := age.NewScryptRecipient("tr0ub4dor&3")
	if err != nil {
		t.Fatal(err)
	}
	sr.SetWorkFactor(10)
	var b bytes.Buffer
	w, _ := age.Encrypt(&b, sr)
	w.Write([]byte("# my key\n" + id.String() + "\n"))
	w.Close()
	writeFile(t, dir, "key.age", b.Bytes())
	writeFile(t, dir, "other.key", []byte(other.String()+"\n"))
	writeFile(t, dir, "pw", []byte("a password"))
	must(t, runCmd(t, dir, nil, "split", "-t", "2", "-r", "me:"+id.Recipient().String(), "-r", "you:"+other.Recipient().String(), "-o", "s", "pw"), "split")
	se := startSession(t, dir, true, false, true, nil, "combine", "-i", "key.age", "-i", "other.key", "s", "-o", "out")
	se.typeLine(`Passphrase for the identity file "key.age": `, "tr0ub4dor&3")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), "tr0ub4dor") {
		t.Fatalf("the passphrase was echoed:\n%s", se.shown())
	}
	checkSecret(t, filepath.Join(dir, "out"), []byte("a password"), false)

	// A wrong passphrase stops combine, saying so.
	os.Remove(filepath.Join(dir, "out"))
	se = startSession(t, dir, true, false, true, nil, "combine", "-i", "key.age", "s", "-o", "out")
	se.typeLine(`Passphrase for the identity file "key.age": `, "wrong")
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), "wrong passphrase") {
		t.Fatalf("combine with a wrong passphrase exited %d:\n%s", code, se.shown())
	}
}
