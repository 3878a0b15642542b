package main

// Shares for people at a terminal: paper text typed at combine's prompt,
// and the passphrase of an identity file encrypted with age -p.

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
	"golang.org/x/crypto/ssh"
)

// TestTerminalPaperText types a share's paper text, line by line as it is
// printed, at combine's prompt: the lines are not echoed, each is checked
// as it is typed, and combine asks for the next, saying where it starts,
// until the share is whole.
func TestTerminalPaperText(t *testing.T) {
	dir := t.TempDir()
	secret := make([]byte, 32)
	rand.Read(secret)
	shares := paperShares(t, dir, secret, 3, 2)
	lines := strings.Split(strings.TrimSpace(paper.Text(shares[0])), "\n")
	se := startSession(t, dir, true, false, true, nil, "combine", "-", "shares/key.bin.3-of-3.shamir", "-o", "out")
	se.typeLine("Share 1: ", strings.ToLower(lines[0]+" "+lines[1]))
	typeRest(se, lines[2:], 2)
	se.typeLine("Share 2: ", "")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), lines[1][:10]) {
		t.Fatalf("the text was echoed:\n%s", se.shown())
	}
	checkSecret(t, filepath.Join(dir, "out"), secret, false)
}

// typeRest types lines, the first of which is line first of the groups,
// each at the prompt that names the group it starts with.
func typeRest(se *session, lines []string, first int) {
	for i, l := range lines {
		k := (first+i-1)*paper.GroupsPerLine + 1
		se.typeLine(fmt.Sprintf("from group %d (line %d, group 1): ", k, first+i), l)
	}
}

// TestTerminalPaperTypo makes a typo in the first line of groups, in the
// group that holds the share's length, as a person does: combine names the
// group at once and asks for the line again; typed again, the share is
// whole, and counted once.
func TestTerminalPaperTypo(t *testing.T) {
	dir := t.TempDir()
	secret := make([]byte, 32)
	rand.Read(secret)
	shares := paperShares(t, dir, secret, 3, 2)
	lines := strings.Split(strings.TrimSpace(paper.Text(shares[1])), "\n")
	typo := []byte(lines[1])
	typo[2] = pick(typo[2] == 'A', "B", "A")[0]
	se := startSession(t, dir, true, false, true, nil, "combine", "-", "shares/key.bin.1-of-3.shamir", "-o", "out")
	se.typeLine("Share 1: ", lines[0])
	se.typeLine("from group 1 (line 1, group 1): ", string(typo))
	se.waitFor("group 1 (line 1, group 1) \"" + string(typo[:5]) + "\" is wrong")
	se.waitFor("type that line again")
	// The same prompt again: the line was not taken.
	for strings.Count(se.shown(), "from group 1 (line 1, group 1): ") < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	se.typeLine("from group 1 (line 1, group 1): ", lines[1])
	typeRest(se, lines[2:], 2)
	se.typeLine("Share 2: ", "")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if n := strings.Count(se.shown(), "again"); n != 1 {
		t.Errorf("%d messages for one typo:\n%s", n, se.shown())
	}
	checkSecret(t, filepath.Join(dir, "out"), secret, false)
	t.Logf("the terminal showed:\n%s", se.shown())
}

// TestTerminalPassphraseIdentity gives combine an identity file encrypted
// with a passphrase, as age -p makes it: the passphrase is asked for once,
// without echo, and opens the shares encrypted to the key inside.
func TestTerminalPassphraseIdentity(t *testing.T) {
	dir := t.TempDir()
	id, _ := age.GenerateX25519Identity()
	other, _ := age.GenerateX25519Identity()
	writeFile(t, dir, "key.age", agePassphraseFile(t, "tr0ub4dor&3", []byte("# my key\n"+id.String()+"\n")))
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

	// A wrong passphrase is asked again; three stop combine, saying so.
	os.Remove(filepath.Join(dir, "out"))
	se = startSession(t, dir, true, false, true, nil, "combine", "-i", "key.age", "s", "-o", "out")
	se.typeLine(`Passphrase for the identity file "key.age": `, "wrong")
	se.typeLine("(2 tries left)", "wrong again")
	se.typeLine("(1 try left)", "still wrong")
	if code := se.wait(); code != 1 || !strings.Contains(se.shown(), `the identity file "key.age": wrong passphrase`) {
		t.Fatalf("combine with a wrong passphrase exited %d:\n%s", code, se.shown())
	}
}

// TestTerminalPassphraseStdinRedirected gives combine a share on stdin, from
// a file, and identities protected by a passphrase (an age -p identity file,
// an SSH key): the passphrases are asked for on the session's terminal
// (/dev/tty), as age asks for them, whatever stdin is. A wrong passphrase is
// reported once.
func TestTerminalPassphraseStdinRedirected(t *testing.T) {
	dir := t.TempDir()
	id, _ := age.GenerateX25519Identity()
	writeFile(t, dir, "key.age", agePassphraseFile(t, "tr0ub4dor&3", []byte(id.String()+"\n")))
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "id_ed25519", pem.EncodeToMemory(block))
	signer, _ := ssh.NewSignerFromKey(priv)
	sshPub := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))
	writeFile(t, dir, "pw", []byte("a password"))
	must(t, runCmd(t, dir, nil, "split", "-t", "2", "-r", "me:"+id.Recipient().String(), "-r", "ssh:"+sshPub, "-o", "s", "pw"), "split")

	stdin, err := os.Open(filepath.Join(dir, "s", "me.shamir.age"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	se := startSession(t, dir, false, false, true, stdin, "combine", "-i", "key.age", "-i", "id_ed25519", "-", "s/ssh.shamir.age", "-o", "out")
	se.typeLine(`Passphrase for the identity file "key.age": `, "tr0ub4dor&3")
	se.typeLine(`Passphrase for the SSH key "id_ed25519": `, "correct horse")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine exited %d:\n%s", code, se.shown())
	}
	if strings.Contains(se.shown(), "tr0ub4dor") || strings.Contains(se.shown(), "correct horse") {
		t.Fatalf("a passphrase was echoed:\n%s", se.shown())
	}
	checkSecret(t, filepath.Join(dir, "out"), []byte("a password"), false)

	// A wrong passphrase, then the right one: combine goes on.
	stdin.Seek(0, 0)
	se = startSession(t, dir, false, false, true, stdin, "combine", "-i", "key.age", "-i", "id_ed25519", "-", "s/ssh.shamir.age", "-o", "out3")
	se.typeLine(`Passphrase for the identity file "key.age": `, "wrong")
	se.typeLine("(2 tries left)", "tr0ub4dor&3")
	se.typeLine(`Passphrase for the SSH key "id_ed25519": `, "correct horse")
	if code := se.wait(); code != 0 {
		t.Fatalf("combine after one wrong passphrase exited %d:\n%s", code, se.shown())
	}
	// Three wrong passphrases: said once, however many shares it was to
	// open.
	stdin.Seek(0, 0)
	se = startSession(t, dir, false, false, true, stdin, "combine", "-i", "key.age", "-", "s", "-o", "out2")
	se.typeLine(`Passphrase for the identity file "key.age": `, "wrong")
	se.typeLine("(2 tries left)", "wrong again")
	se.typeLine("(1 try left)", "still wrong")
	code := se.wait()
	if n := strings.Count(se.shown(), ": wrong passphrase, or not"); code != 1 || n != 1 {
		t.Fatalf("combine with a wrong passphrase exited %d, saying so %d times:\n%s", code, n, se.shown())
	}
}
