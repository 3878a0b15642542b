//go:build unix

package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPowercutMatrix stops refresh and refresh -manifest at every step of
// their commit that changes the disk (each sync, journal write, rename and
// removal: outfile.TestHookStep), with SIGKILL, as a power cut would stop
// them, then follows the advice the tool gives (shamir resume, or the steps
// by hand, and the removal of leftovers it names), and checks that the
// shares verify, that the manifest, if any, agrees with them, and that the
// secret is recovered. It does so with the shares in one folder, with one
// of them behind a symbolic link into another folder, and with and without
// a manifest in a third. (issue 23)
func TestPowercutMatrix(t *testing.T) {
	if _, err := exec.LookPath("powercut"); err != nil {
		t.Skip("powercut is not on $PATH")
	}
	for _, c := range []struct {
		name           string
		manifest, link bool
	}{
		{"plain", false, false},
		{"link", false, true},
		{"manifest", true, false},
		{"manifest+link", true, true},
	} {
		for _, byHand := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/byhand=%v", c.name, byHand), func(t *testing.T) {
				steps := 0
				for n := 1; ; n++ {
					if n > 100 {
						t.Fatal("the refresh never ends")
					}
					if !powercutAt(t, n, c.manifest, c.link, byHand) {
						break
					}
					steps = n
				}
				if steps < 10 {
					t.Fatalf("only %d steps", steps)
				}
				t.Logf("%d steps, each stopped and recovered from", steps)
			})
		}
	}
	// The holders' age files, refreshed for people: two holders present,
	// one away whose new share is made for her, paper copies, the
	// manifest in a folder of its own.
	for _, byHand := range []bool{false, true} {
		t.Run(fmt.Sprintf("holders/byhand=%v", byHand), func(t *testing.T) {
			if testing.Short() {
				t.Skip("58 runs of a dozen commands each: too slow under the race detector (test.sh runs it without -short)")
			}
			needTool(t, "age-keygen")
			steps := 0
			for n := 1; ; n++ {
				if n > 200 {
					t.Fatal("the refresh never ends")
				}
				if !powercutHoldersAt(t, n, byHand) {
					break
				}
				steps = n
			}
			if steps < 20 {
				t.Fatalf("only %d steps", steps)
			}
			t.Logf("%d steps, each stopped and recovered from", steps)
		})
	}
}

// powercutHoldersAt is powercutAt for holders: a split for alice, bob and
// carol (age keys made by age-keygen, any 2 of 3), their files in p and the
// manifest in m; then refresh -manifest with alice's and bob's keys, carol
// away (her file is not theirs to open: her new share is made from theirs
// and sealed to the recipient the manifest records, replacing her file),
// with paper copies in paper, stopped before its step n. The advice is
// followed, and then every file opens with its holder's key, verify
// -manifest agrees with them, and the secret is recovered, both by alice
// and bob and by carol and one of them.
func powercutHoldersAt(t *testing.T, n int, byHand bool) bool {
	t.Helper()
	dir := t.TempDir()
	secret := make([]byte, 32)
	rand.Read(secret)
	if err := os.WriteFile(filepath.Join(dir, "secret"), secret, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	must := func(args ...string) string {
		out, err := run(args...)
		if err != nil {
			t.Fatalf("step %d: %s: %v\n%s", n, strings.Join(args, " "), err, out)
		}
		return out
	}
	var holders strings.Builder
	for _, h := range []string{"alice", "bob", "carol"} {
		must("age-keygen", "-o", h+".key")
		pub, err := exec.Command("age-keygen", "-y", filepath.Join(dir, h+".key")).Output()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&holders, "%s: %s", h, pub)
	}
	if err := os.WriteFile(filepath.Join(dir, "holders.txt"), []byte(holders.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	must("shamir", "split", "-q", "-t", "2", "-R", "holders.txt", "-o", "p", "secret")
	os.Mkdir(filepath.Join(dir, "m"), 0o700)
	if err := os.Rename(filepath.Join(dir, "p", "manifest.json"), filepath.Join(dir, "m", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "m", "manifest.json"))
	out, err := run("powercut", strconv.Itoa(n), "shamir", "refresh", "-q", "-manifest", "m/manifest.json",
		"-i", "alice.key", "-i", "bob.key", "-paper", "paper", "p")
	var ee *exec.ExitError
	stopped := errors.As(err, &ee) && ee.ExitCode() == -1
	if err != nil && !stopped {
		t.Fatalf("step %d: refresh: %v\n%s", n, err, out)
	}
	keys := []string{"-i", "alice.key", "-i", "bob.key", "-i", "carol.key"}
	readers := [][]string{
		append([]string{"shamir", "verify"}, append(keys, "p")...),
		append([]string{"shamir", "combine", "-o", "-"}, append(keys, "p")...),
		{"shamir", "verify", "-manifest", "m/manifest.json", "p"},
		// The paper copies' folder: a refresh stopped before its
		// journal was written leaves temporary files there that only
		// a reader of that folder names.
		{"shamir", "verify", "paper"},
	}
	for round := 0; ; round++ {
		if round == 5 {
			t.Fatalf("step %d: the advice does not lead anywhere", n)
		}
		followed := false
		for _, r := range readers {
			out, _ := run(r...)
			if followAdvice(t, dir, out, byHand, run) {
				followed = true
				break
			}
		}
		if !followed {
			break
		}
	}
	// Each holder's file opens with their key alone, and the three are
	// good shares of one split.
	for _, h := range []string{"alice", "bob", "carol"} {
		if out, err := run("age", "-d", "-i", h+".key", "-o", "/dev/null", "p/"+h+".shamir.age"); err != nil {
			t.Fatalf("step %d (by hand %v): after the advice, %s's file does not open with her key: %v\n%s", n, byHand, h, err, out)
		}
	}
	if out, err := run(append([]string{"shamir", "verify"}, append(keys, "p")...)...); err != nil || !strings.Contains(out, "all 3 shares are good") {
		t.Fatalf("step %d (by hand %v): after the advice, verify: %v\n%s", n, byHand, err, out)
	}
	// The manifest agrees with the files: the one before the refresh with
	// the old files, the new one with the new files, never one with the
	// other's.
	if out, err := run("shamir", "verify", "-manifest", "m/manifest.json", "p"); err != nil || !strings.Contains(out, "all 3 shares are good") {
		t.Fatalf("step %d (by hand %v): after the advice, verify -manifest: %v\n%s", n, byHand, err, out)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "m", "manifest.json"))
	// The paper copies are in the same commit.
	if changed, paper := !bytes.Equal(before, after), hasFiles(filepath.Join(dir, "paper")); changed != paper {
		t.Fatalf("step %d (by hand %v): the manifest changed: %v; the paper copies written: %v", n, byHand, changed, paper)
	}
	for _, pair := range [][]string{{"alice", "bob"}, {"carol", "alice"}, {"carol", "bob"}} {
		os.Remove(filepath.Join(dir, "restored"))
		must("shamir", "combine", "-q", "-i", pair[0]+".key", "-i", pair[1]+".key", "-o", "restored", "p/"+pair[0]+".shamir.age", "p/"+pair[1]+".shamir.age")
		if got, _ := os.ReadFile(filepath.Join(dir, "restored")); !bytes.Equal(got, secret) {
			t.Fatalf("step %d (by hand %v): the secret is not recovered by %s and %s", n, byHand, pair[0], pair[1])
		}
	}
	for _, d := range []string{"p", "m", "paper"} {
		ents, _ := os.ReadDir(filepath.Join(dir, d))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".shamir-") && e.Name() != ".shamir-writer.lock" {
				t.Errorf("step %d (by hand %v): left %s/%s", n, byHand, d, e.Name())
			}
		}
	}
	return stopped
}

// hasFiles reports whether the folder dir holds a file other than the
// lock's and the leftovers of a change (.shamir-…).
func hasFiles(dir string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".shamir-") {
			return true
		}
	}
	return false
}

// powercutAt runs one case of the matrix: the refresh stopped before its
// step n. It reports whether it was stopped (false: it ran to the end).
func powercutAt(t *testing.T, n int, withManifest, link, byHand bool) bool {
	t.Helper()
	dir := t.TempDir()
	secret := make([]byte, 3000)
	rand.Read(secret)
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("secret", secret)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	must := func(args ...string) string {
		out, err := run(args...)
		if err != nil {
			t.Fatalf("step %d: %s: %v\n%s", n, strings.Join(args, " "), err, out)
		}
		return out
	}
	must("shamir", "split", "-q", "-n", "3", "-t", "2", "-name", "s", "-o", "p", "secret")
	if link {
		os.Mkdir(filepath.Join(dir, "c"), 0o700)
		if err := os.Rename(filepath.Join(dir, "p/s.3-of-3.shamir"), filepath.Join(dir, "c/s.3-of-3.shamir")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../c/s.3-of-3.shamir", filepath.Join(dir, "p/s.3-of-3.shamir")); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"powercut", strconv.Itoa(n), "shamir", "refresh", "-q"}
	if withManifest {
		os.Mkdir(filepath.Join(dir, "m"), 0o700)
		must("shamir", "attest", "manifest", "-q", "-o", "m/manifest.json", "p")
		args = append(args, "-manifest", "m/manifest.json")
	}
	out, err := run(append(args, "p")...)
	var ee *exec.ExitError
	stopped := errors.As(err, &ee) && ee.ExitCode() == -1
	if err != nil && !stopped {
		t.Fatalf("step %d: refresh: %v\n%s", n, err, out)
	}
	// What every reader says, and each piece of advice, followed.
	readers := [][]string{{"shamir", "verify", "p"}, {"shamir", "combine", "-o", "-", "p"}}
	if link {
		readers = append(readers, []string{"shamir", "verify", "c/s.3-of-3.shamir", "p/s.1-of-3.shamir"})
	}
	if withManifest {
		readers = append(readers, []string{"shamir", "verify", "-manifest", "m/manifest.json", "p"})
	}
	for round := 0; ; round++ {
		if round == 5 {
			t.Fatalf("step %d: the advice does not lead anywhere", n)
		}
		followed := false
		for _, r := range readers {
			out, _ := run(r...)
			if followAdvice(t, dir, out, byHand, run) {
				followed = true
				break
			}
		}
		if !followed {
			break
		}
	}
	// A recoverable set: the shares verify, the manifest agrees with
	// them, and the secret comes back.
	if out, err := run("shamir", "verify", "p"); err != nil || !strings.Contains(out, "all 3 shares are good") {
		t.Fatalf("step %d (by hand %v): after the advice, verify: %v\n%s", n, byHand, err, out)
	}
	if withManifest {
		if out, err := run("shamir", "verify", "-manifest", "m/manifest.json", "p"); err != nil {
			t.Fatalf("step %d (by hand %v): after the advice, verify -manifest: %v\n%s", n, byHand, err, out)
		}
	}
	os.Remove(filepath.Join(dir, "restored"))
	must("shamir", "combine", "-q", "-o", "restored", "p")
	if got, _ := os.ReadFile(filepath.Join(dir, "restored")); !bytes.Equal(got, secret) {
		t.Fatalf("step %d (by hand %v): the secret is not recovered", n, byHand)
	}
	for _, d := range []string{"p", "c", "m"} {
		ents, _ := os.ReadDir(filepath.Join(dir, d))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".shamir-") && e.Name() != ".shamir-writer.lock" {
				t.Errorf("step %d (by hand %v): left %s/%s", n, byHand, d, e.Name())
			}
		}
	}
	return stopped
}

var (
	resumeHint   = regexp.MustCompile(`(?m)^shamir: hint: (?:finish|undo) it.*: shamir resume ("(?:[^"\\]|\\.)*")$`)
	byHandHint   = regexp.MustCompile(`(?m)^shamir: hint: or by hand: (.*) \(the last one last\)$`)
	leftoverNote = regexp.MustCompile(`(?m)^shamir: ignored ("(?:[^"\\]|\\.)*"): left by a run of shamir that was stopped without cleaning up.*remove it$`)
)

// followAdvice does what the messages out advise, if anything: shamir
// resume, or the steps by hand (byHand), and the removal of leftovers. It
// reports whether there was advice to follow.
func followAdvice(t *testing.T, dir, out string, byHand bool, run func(...string) (string, error)) bool {
	t.Helper()
	unq := func(s string) string {
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("advice %s: %v", s, err)
		}
		return filepath.Join(dir, u)
	}
	if m := byHandHint.FindStringSubmatch(out); byHand && m != nil {
		for _, step := range strings.Split(m[1], "; then ") {
			verb, list, _ := strings.Cut(step, " ")
			for _, a := range strings.Split(list, ", ") {
				var err error
				switch verb {
				case "rename":
					from, to, _ := strings.Cut(a, " to ")
					err = os.Rename(unq(from), unq(to))
				case "remove":
					err = os.Remove(unq(a))
				default:
					t.Fatalf("advice by hand: %q", step)
				}
				if err != nil {
					t.Fatalf("advice by hand %q: %v", step, err)
				}
			}
		}
		return true
	}
	if m := resumeHint.FindStringSubmatch(out); m != nil {
		u, _ := strconv.Unquote(m[1])
		if o, err := run("shamir", "resume", u); err != nil {
			t.Fatalf("shamir resume %s: %v\n%s", u, err, o)
		}
		return true
	}
	if regexp.MustCompile(`(?m)^shamir: hint: .*(stopped|resume)`).MatchString(out) {
		t.Fatalf("advice not followed:\n%s", out)
	}
	ms := leftoverNote.FindAllStringSubmatch(out, -1)
	for _, m := range ms {
		if err := os.Remove(unq(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	return len(ms) > 0
}
