package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLifecycleSSMSBadShares gives the SSMS lifecycle commands a damaged
// share file: recreate and reshare name it and make good shares from the
// others; refresh refuses and leaves every file as it was.
func TestLifecycleSSMSBadShares(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(200 << 10)
	writeFile(t, dir, "s", secret)
	must(t, runCmd(t, dir, nil, "split", "-q", "-n", "5", "-t", "3", "s", "-o", "a"), "split")
	names := shareNames("s", 5)
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	lost := read("a/" + names[4])
	os.Remove(filepath.Join(dir, "a", names[4]))
	damaged := read("a/" + names[1])
	damaged[len(damaged)/2] ^= 1
	writeFile(t, dir, "a/"+names[1], damaged)
	before := map[string][]byte{}
	for _, n := range names[:4] {
		before[n] = read("a/" + n)
	}

	r := must(t, runCmd(t, dir, nil, "recreate", "-index", "5", "-o", "out", "a"), "recreate")
	for _, m := range []string{`bad share "a/s.2-of-5.shamir": damaged`, "the new shares are good", `wrote 1 share file: "out/s.5-of-5.shamir"`} {
		if !bytes.Contains(r.stderr, []byte(m)) {
			t.Errorf("recreate did not say %q:\n%s", m, r.stderr)
		}
	}
	if !bytes.Equal(read("out/"+names[4]), lost) {
		t.Fatal("recreated share differs")
	}
	checkMode(t, filepath.Join(dir, "out", names[4]))

	fails(t, runCmd(t, dir, nil, "refresh", "a"), 1, "refresh", `bad share "a/s.2-of-5.shamir"`)
	for n, b := range before {
		if !bytes.Equal(read("a/"+n), b) {
			t.Fatalf("a refused refresh changed %s", n)
		}
	}
	noLeftovers(t, filepath.Join(dir, "a"), names[:4]...)

	r = must(t, runCmd(t, dir, nil, "reshare", "-n", "3", "-newt", "2", "-o", "new", "a"), "reshare")
	if !bytes.Contains(r.stderr, []byte(`bad share "a/s.2-of-5.shamir": damaged`)) {
		t.Errorf("reshare did not name the damaged share:\n%s", r.stderr)
	}
	must(t, runCmd(t, dir, nil, "combine", "-q", "-o", "back", "new/s.1-of-3.shamir", "new/s.3-of-3.shamir"), "combine")
	if !bytes.Equal(read("back"), secret) {
		t.Fatal("the new split recovers another secret")
	}

	// Two shares of threshold 3 good: recreate fails and writes nothing.
	os.Remove(filepath.Join(dir, "a", names[0]))
	fails(t, runCmd(t, dir, nil, "recreate", "-index", "1", "-o", "none", "a"), 1, "recreate from too few", "not enough good shares")
	if _, err := os.Stat(filepath.Join(dir, "none")); err == nil {
		t.Fatal("a failed recreate left its folder")
	}
}
