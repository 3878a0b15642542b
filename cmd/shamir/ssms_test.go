package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// shareNames returns the file names split gives the shares of name.
func shareNames(name string, parts int) []string {
	var s []string
	for i := 1; i <= parts; i++ {
		s = append(s, fmt.Sprintf("%s.%d-of-%d.shamir", name, i, parts))
	}
	return s
}

// TestSSMSRoundTrip splits files of several sizes into share files and
// recombines every subset of the shares, given as files or a folder.
func TestSSMSRoundTrip(t *testing.T) {
	for _, size := range []int{0, 1, 1 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			dir := t.TempDir()
			secret := randomBytes(size)
			writeFile(t, dir, "secret.tar", secret)
			r := must(t, runCmd(t, dir, nil, "split", "-n", "5", "-t", "3", "-allowempty", "secret.tar", "-o", "backup"), "split")
			if len(r.stdout) != 0 {
				t.Errorf("split printed on stdout: %q", r.stdout)
			}
			names := shareNames("secret.tar", 5)
			noLeftovers(t, filepath.Join(dir, "backup"), names...)
			var shareSize int64 = -1
			for _, n := range names {
				p := filepath.Join(dir, "backup", n)
				checkMode(t, p)
				fi, _ := os.Stat(p)
				if shareSize >= 0 && fi.Size() != shareSize {
					t.Errorf("%s is %d bytes, the first share %d", n, fi.Size(), shareSize)
				}
				shareSize = fi.Size()
			}
			if limit := int64(size/3 + size/1000 + 290); shareSize > limit { // 232-byte header, a record
				t.Errorf("shares of a %d-byte secret are %d bytes, want about a third", size, shareSize)
			}
			for k := 1; k <= 5; k++ {
				for _, sub := range someSubsets(5, k) {
					args := []string{"combine", "-o", "out"}
					for _, i := range sub {
						args = append(args, filepath.Join("backup", names[i]))
					}
					r := runCmd(t, dir, nil, args...)
					what := fmt.Sprintf("shares %v", sub)
					if k < 3 {
						fails(t, r, 1, what, fmt.Sprintf("%d good share", k), "3 needed")
						noLeftovers(t, dir, "backup", "secret.tar")
						continue
					}
					must(t, r, what)
					got, _ := os.ReadFile(filepath.Join(dir, "out"))
					if !bytes.Equal(got, secret) {
						t.Fatalf("%s: recovered a wrong secret", what)
					}
					checkMode(t, filepath.Join(dir, "out"))
					os.Remove(filepath.Join(dir, "out"))
				}
			}
			var all []string
			for _, n := range names {
				all = append(all, filepath.Join("backup", n))
			}
			for _, args := range [][]string{{"backup"}, {"backup/"}, all, {"backup", all[0]}} {
				r := must(t, runCmd(t, dir, nil, append([]string{"combine", "-o", "-"}, args...)...), fmt.Sprint(args))
				if !bytes.Equal(r.stdout, secret) {
					t.Fatalf("combine %v: recovered a wrong secret", args)
				}
			}
			must(t, runCmd(t, dir, nil, "verify", "backup"), "verify")
		})
	}
}

// TestSSMSStream splits 256 MiB from a pipe and combines it into a pipe,
// checking that neither run holds more than a few tens of MiB.
func TestSSMSStream(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 256 MiB through split and combine")
	}
	const size = 256 << 20
	const memLimit = 48 << 20
	dir := t.TempDir()

	// A fast, deterministic source of data that does not compress.
	src := io.LimitReader(rand.NewChaCha8([32]byte{'s', 'h', 'a', 'm', 'i', 'r'}), size)
	h := sha256.New()
	start := time.Now()
	r := must(t, runCmd(t, dir, io.TeeReader(src, h), "split", "-n", "3", "-t", "2", "-name", "big", "-"), "split")
	want := h.Sum(nil)
	t.Logf("split 256 MiB from a pipe in %v, peak RSS %.1f MiB", time.Since(start).Round(time.Millisecond), float64(r.maxRSS)/(1<<20))
	if r.maxRSS > memLimit {
		t.Errorf("split used %d MiB of memory, want under %d", r.maxRSS>>20, memLimit>>20)
	}

	cmd := exec.Command(binary, "combine", "big.3-of-3.shamir", "big.1-of-3.shamir")
	cmd.Dir = dir
	h.Reset()
	var n countWriter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(h, &n), &stderr
	start = time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("combine: %v\n%s", err, stderr.Bytes())
	}
	rss := maxRSS(cmd.ProcessState)
	t.Logf("combined 256 MiB into a pipe in %v, peak RSS %.1f MiB", time.Since(start).Round(time.Millisecond), float64(rss)/(1<<20))
	if rss > memLimit {
		t.Errorf("combine used %d MiB of memory, want under %d", rss>>20, memLimit>>20)
	}
	if n != size || !bytes.Equal(h.Sum(nil), want) {
		t.Fatalf("combine wrote %d bytes, not the 256 MiB split", n)
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// TestSSMSBadShares gives combine and verify damaged, truncated, foreign,
// duplicated and missing share files.
func TestSSMSBadShares(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(300 << 10) // several chunks
	writeFile(t, dir, "s", secret)
	must(t, runCmd(t, dir, nil, "split", "-n", "5", "-t", "3", "s", "-o", "a"), "split")
	must(t, runCmd(t, dir, nil, "split", "-n", "5", "-t", "3", "s", "-o", "b"), "split again")
	names := shareNames("s", 5)
	share := func(folder string, i int) string { return filepath.Join(folder, names[i]) }
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	damaged := read(share("a", 1))
	damaged[len(damaged)/2] ^= 1
	writeFile(t, dir, "damaged.shamir", damaged)
	writeFile(t, dir, "truncated.shamir", read(share("a", 3))[:len(damaged)-1000])
	writeFile(t, dir, "header-only.shamir", read(share("a", 3))[:100])
	writeFile(t, dir, "random.shamir", randomBytes(5000))
	writeFile(t, dir, "text.shamir", []byte("just some notes\n"))
	writeFile(t, dir, "copy.shamir", read(share("a", 0)))

	for _, tc := range []struct {
		name  string
		args  []string
		bad   []string // files named bad
		fatal string   // when the secret cannot be recovered
	}{
		{"damaged", []string{share("a", 0), "damaged.shamir", share("a", 2), share("a", 4)}, []string{`bad share "damaged.shamir": damaged`}, ""},
		{"truncated", []string{"truncated.shamir", share("a", 0), share("a", 2), share("a", 4)}, []string{`bad share "truncated.shamir": truncated`}, ""},
		{"header only", []string{"header-only.shamir", share("a", 0), share("a", 2), share("a", 4)}, []string{`bad share "header-only.shamir"`}, ""},
		{"other split", []string{share("a", 0), share("b", 1), share("a", 2), share("a", 4)}, nil, "the shares are of 2 splits"},
		{"random bytes", []string{share("a", 0), "random.shamir", share("a", 2), share("a", 4)}, []string{`bad share "random.shamir": not an SSMS share (neither an SSMS share nor text)`}, ""},
		{"text", []string{share("a", 0), "text.shamir", share("a", 2), share("a", 4)}, []string{`bad share "text.shamir": not an SSMS share (no line is a share)`}, ""},
		{"duplicate", []string{share("a", 0), "copy.shamir", share("a", 2), share("a", 4)}, []string{`bad share "copy.shamir": a duplicate`}, ""},
		{"missing", []string{share("a", 0), "nowhere.shamir", share("a", 2), share("a", 4)}, nil, `"nowhere.shamir" does not exist`},
		{"too few good", []string{share("a", 0), "damaged.shamir", "truncated.shamir", share("a", 4)}, []string{`bad share "damaged.shamir"`, `bad share "truncated.shamir"`}, "2 good shares, 3 needed"},
	} {
		r := runCmd(t, dir, nil, append([]string{"combine", "-o", "out"}, tc.args...)...)
		if tc.fatal != "" {
			fails(t, r, 1, tc.name, append(tc.bad, tc.fatal)...)
			if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
				t.Fatalf("%s: a failed combine left its output", tc.name)
			}
			continue
		}
		must(t, r, tc.name)
		if got := read("out"); !bytes.Equal(got, secret) {
			t.Fatalf("%s: recovered a wrong secret", tc.name)
		}
		os.Remove(filepath.Join(dir, "out"))
		for _, m := range append(tc.bad, "warning: recovered the secret") {
			if !bytes.Contains(r.stderr, []byte(m)) {
				t.Errorf("%s: combine did not say %q:\n%s", tc.name, m, r.stderr)
			}
		}
		fails(t, runCmd(t, dir, nil, append([]string{"verify"}, tc.args...)...), 1, tc.name+": verify", tc.bad...)
	}
	// A file named twice is one share, not a duplicate to complain
	// about: named, and counted once.
	r := must(t, runCmd(t, dir, nil, "combine", "a", share("a", 0), "./"+share("a", 0)), "a file named twice")
	if !bytes.Equal(r.stdout, secret) || bytes.Contains(r.stderr, []byte("bad share")) ||
		bytes.Count(r.stderr, []byte("given twice")) != 2 || bytes.Count(r.stderr, []byte("\n")) != 2 {
		t.Fatalf("a file named twice: %v", r)
	}
	// A damaged share makes combine to stdout fail once the bad chunk is
	// reached, if there is no spare share to take its place.
	r = runCmd(t, dir, nil, "combine", share("a", 0), "damaged.shamir", share("a", 2))
	fails(t, r, 1, "damaged, no spare", `bad share "damaged.shamir"`, "hint: the secret written to stdout is incomplete")
	if len(r.stdout) >= len(secret) {
		t.Errorf("damaged, no spare: wrote %d bytes", len(r.stdout))
	}
}

// TestSSMSOverwrite checks that split writes no share if any would replace
// an existing file, unless -f.
func TestSSMSOverwrite(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "s", []byte("secret"))
	os.Mkdir(filepath.Join(dir, "out"), 0o700)
	names := shareNames("s", 3)
	writeFile(t, filepath.Join(dir, "out"), names[1], []byte("precious"))
	fails(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "s", "-o", "out"), 1, "split over a share", names[1]+`" already exists`, "-f")
	noLeftovers(t, filepath.Join(dir, "out"), names[1])
	if b, _ := os.ReadFile(filepath.Join(dir, "out", names[1])); string(b) != "precious" {
		t.Fatalf("the existing share was overwritten")
	}
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "s", "-o", "out", "-f"), "split -f")
	noLeftovers(t, filepath.Join(dir, "out"), names...)
	for _, n := range names {
		checkMode(t, filepath.Join(dir, "out", n))
	}
	r := must(t, runCmd(t, dir, nil, "combine", "out"), "combine")
	if string(r.stdout) != "secret" {
		t.Fatalf("got %q", r.stdout)
	}
}

// TestSSMSFolders combines from a folder that holds the shares of several
// secrets, and into a folder.
func TestSSMSFolders(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.txt", []byte("secret a"))
	writeFile(t, dir, "b.txt", []byte("secret b"))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "a.txt", "-o", "backup"), "split a")
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "b.txt", "-o", "backup"), "split b")
	fails(t, runCmd(t, dir, nil, "combine", "backup"), 1, "two secrets", `"backup" holds the shares of 2 secrets ("a.txt", "b.txt")`, "hint: name the share files of one, as in backup/a.txt.*.shamir")
	os.Mkdir(filepath.Join(dir, "restored"), 0o700)
	r := must(t, runCmd(t, dir, nil, "combine", "backup/b.txt.1-of-3.shamir", "backup/b.txt.3-of-3.shamir", "-o", "restored"), "combine into a folder")
	if b, _ := os.ReadFile(filepath.Join(dir, "restored", "b.txt")); string(b) != "secret b" {
		t.Fatalf("combine -o restored wrote %q: %s", b, r.stderr)
	}
	checkMode(t, filepath.Join(dir, "restored", "b.txt"))
}

// TestSSMSPipes splits stdin and combines to stdout, with one share read
// from stdin.
func TestSSMSPipes(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(200 << 10)
	r := must(t, runCmd(t, dir, bytes.NewReader(secret), "split", "-n", "3", "-t", "2", "-q"), "split stdin")
	if len(r.stderr) != 0 {
		t.Errorf("split -q said %q", r.stderr)
	}
	names := shareNames("secret", 3)
	noLeftovers(t, dir, names...)
	f, err := os.Open(filepath.Join(dir, names[2]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r = must(t, runCmd(t, dir, f, "combine", names[0], "-"), "combine with stdin")
	if !bytes.Equal(r.stdout, secret) {
		t.Fatal("combine with a share on stdin: wrong secret")
	}
	// A Vault-format share given with them is not set aside in silence:
	// shares of two formats are an error that lists which is which.
	r = runCmd(t, dir, nil, "combine", names[0], names[1], "-share", "AAECAwQF")
	fails(t, r, 1, "mixed", "two formats", `SSMS shares: "secret.1-of-3.shamir", "secret.2-of-3.shamir"`, "Vault-format shares: -share (1 value)")
	if len(r.stdout) != 0 {
		t.Errorf("mixed: wrote %d bytes", len(r.stdout))
	}
}
