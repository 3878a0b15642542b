package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gf256/shamir"
)

// The transcripts lifecycle_*.txtar pin the commands' messages and
// refusals; these tests loop over the cases: every share withheld and
// recreated, every mixture of old and new shares combined. The commands
// run as processes; the mixtures are combined with the library, which
// combine's own tests cover, to keep the runs few.

// decodeLines decodes shares written one per line in enc.
func decodeLines(t *testing.T, out []byte, enc string) [][]byte {
	t.Helper()
	var shares [][]byte
	for _, l := range splitLines(out) {
		var b []byte
		var err error
		if enc == encHex {
			b, err = hex.DecodeString(l)
		} else {
			b, err = base64.StdEncoding.DecodeString(l)
		}
		if err != nil {
			t.Fatalf("%q is not a %s share: %v", l, enc, err)
		}
		shares = append(shares, b)
	}
	return shares
}

// splitShares runs split -encode enc and returns the secret's shares, as
// lines and decoded.
func splitShares(t *testing.T, dir string, secret []byte, n, k int, enc string) ([]string, [][]byte) {
	t.Helper()
	writeFile(t, dir, "secret", secret)
	r := must(t, runCmd(t, dir, nil, "split", "-q", "-n", strconv.Itoa(n), "-t", strconv.Itoa(k), "-encode", enc, "secret"), "split")
	return splitLines(r.stdout), decodeLines(t, r.stdout, enc)
}

// combines reports whether the shares combine to secret.
func combines(t *testing.T, shares [][]byte, secret []byte) bool {
	t.Helper()
	got, err := shamir.Combine(shares)
	if err != nil {
		t.Fatalf("Combine: %v", err)
	}
	return bytes.Equal(got, secret)
}

func pickShares(shares [][]byte, idx []int) [][]byte {
	var out [][]byte
	for _, i := range idx {
		out = append(out, shares[i])
	}
	return out
}

// TestLifecycleRecreate withholds each share of a split, and each pair,
// and checks that recreate makes them again byte for byte, as the same
// text, from every set of threshold or more of the others.
func TestLifecycleRecreate(t *testing.T) {
	dir := t.TempDir()
	for _, enc := range []string{encBase64, encHex} {
		lines, shares := splitShares(t, dir, randomBytes(32), 5, 3, enc)
		for lost := range 5 {
			x := strconv.Itoa(int(shareX(shares[lost])))
			var others []int
			for i := range 5 {
				if i != lost {
					others = append(others, i)
				}
			}
			for _, k := range []int{3, 4} {
				for _, sub := range someSubsets(4, k) {
					var idx []int
					for _, j := range sub {
						idx = append(idx, others[j])
					}
					what := fmt.Sprintf("%s: share %d from %v", enc, lost, idx)
					r := must(t, runCmd(t, dir, strings.NewReader(pickLines(lines, idx)), "recreate", "-q", "-t", "3", "-x", x), what)
					if got := string(r.stdout); got != lines[lost]+"\n" {
						t.Errorf("%s: got %q, want %q", what, got, lines[lost]+"\n")
					}
				}
			}
		}
		// Two at once, in the order of -x.
		xs := fmt.Sprintf("%d,%d", shareX(shares[4]), shareX(shares[1]))
		r := must(t, runCmd(t, dir, strings.NewReader(pickLines(lines, []int{0, 2, 3})), "recreate", "-q", "-t", "3", "-x", xs), enc+": two shares")
		if want := lines[4] + "\n" + lines[1] + "\n"; string(r.stdout) != want {
			t.Errorf("%s: two shares: got %q, want %q", enc, r.stdout, want)
		}
	}
}

// TestLifecycleExtend extends a split of 5 by 2 from 3 of its shares, the
// other 2 given with -inuse, and checks that the new shares are at new x
// coordinates and that every mixture of threshold of the 7 recovers the
// secret. It also extends a split to all 255 x coordinates.
func TestLifecycleExtend(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(32)
	lines, shares := splitShares(t, dir, secret, 5, 3, encBase64)
	inUse := fmt.Sprintf("%d,%d", shareX(shares[3]), shareX(shares[4]))
	r := must(t, runCmd(t, dir, strings.NewReader(pickLines(lines, []int{0, 1, 2})), "extend", "-q", "-t", "3", "-k", "2", "-inuse", inUse), "extend")
	added := decodeLines(t, r.stdout, encBase64)
	if len(added) != 2 {
		t.Fatalf("extend -k 2 wrote %d shares", len(added))
	}
	all := append(append([][]byte(nil), shares...), added...)
	seen := map[byte]bool{}
	for _, s := range all {
		if seen[shareX(s)] {
			t.Fatalf("x coordinate %d twice among the 7 shares", shareX(s))
		}
		seen[shareX(s)] = true
	}
	for _, sub := range subsets(7, 3) {
		if !combines(t, pickShares(all, sub), secret) {
			t.Errorf("shares %v (5 and 6 new) do not recover the secret", sub)
		}
	}
	// The command's combine agrees, on a mixture.
	writeFile(t, dir, "added.txt", r.stdout)
	writeFile(t, dir, "old.txt", []byte(pickLines(lines, []int{3, 4})))
	r = must(t, runCmd(t, dir, nil, "combine", "-t", "3", "added.txt", "old.txt"), "combine old and new")
	if !bytes.Equal(r.stdout, secret) {
		t.Error("combine of 2 new and 2 old shares: wrong secret")
	}

	// Every x coordinate left, from all 5 (the 2 new shares are not
	// given, nor in -inuse: their x coordinates may be drawn again).
	clear(seen)
	for _, s := range shares {
		seen[shareX(s)] = true
	}
	writeFile(t, dir, "all.txt", []byte(strings.Join(lines, "\n")))
	r = must(t, runCmd(t, dir, nil, "extend", "-q", "-t", "3", "-k", "250", "all.txt"), "extend -k 250")
	added = decodeLines(t, r.stdout, encBase64)
	for _, s := range added {
		if seen[shareX(s)] {
			t.Fatalf("x coordinate %d twice", shareX(s))
		}
		seen[shareX(s)] = true
	}
	if len(seen) != 255 {
		t.Fatalf("%d x coordinates taken, want 255", len(seen))
	}
	for i := 0; i+3 <= len(added); i += 3 {
		if !combines(t, [][]byte{added[i], shares[i%5], added[i+2]}, secret) {
			t.Errorf("new shares %d, %d and old share %d do not recover the secret", i, i+2, i%5)
		}
	}
}

// TestLifecycleRefresh refreshes a split of 5, and checks that the new
// shares are at the same x coordinates, in order, that any 3 recover the
// secret, and that no mixture of old and new shares does.
func TestLifecycleRefresh(t *testing.T) {
	dir := t.TempDir()
	for _, enc := range []string{encBase64, encHex} {
		secret := randomBytes(32)
		lines, old := splitShares(t, dir, secret, 5, 3, enc)
		writeFile(t, dir, "keys.txt", []byte(strings.Join(lines, "\n")))
		r := must(t, runCmd(t, dir, nil, "refresh", "-q", "-t", "3", "-n", "5", "keys.txt"), "refresh")
		fresh := decodeLines(t, r.stdout, enc) // in the encoding read
		if len(fresh) != 5 {
			t.Fatalf("refresh wrote %d shares, want 5", len(fresh))
		}
		for i := range fresh {
			if shareX(fresh[i]) != shareX(old[i]) || len(fresh[i]) != len(old[i]) {
				t.Fatalf("%s: new share %d is at x %d (%d bytes), the old one at x %d (%d bytes)",
					enc, i, shareX(fresh[i]), len(fresh[i]), shareX(old[i]), len(old[i]))
			}
			if bytes.Equal(fresh[i], old[i]) {
				t.Fatalf("%s: share %d did not change", enc, i)
			}
		}
		for _, sub := range subsets(5, 3) {
			if !combines(t, pickShares(fresh, sub), secret) {
				t.Errorf("%s: new shares %v do not recover the secret", enc, sub)
			}
			// Each mixture: bit j of m says whether share sub[j] is new.
			for m := 1; m < 7; m++ {
				mix := make([][]byte, 3)
				for j, i := range sub {
					mix[j] = old[i]
					if m>>j&1 == 1 {
						mix[j] = fresh[i]
					}
				}
				if combines(t, mix, secret) {
					t.Errorf("%s: shares %v, new ones by mask %03b, recover the secret", enc, sub, m)
				}
			}
		}
	}
}

// TestLifecycleReshare reshares a split of 3 of 5 as 4 of 7, and checks
// that every 4 new shares recover the secret and no 3 do.
func TestLifecycleReshare(t *testing.T) {
	dir := t.TempDir()
	secret := randomBytes(32)
	lines, _ := splitShares(t, dir, secret, 5, 3, encBase64)
	r := must(t, runCmd(t, dir, strings.NewReader(pickLines(lines, []int{4, 1, 2, 0})), "reshare", "-q", "-t", "3", "-n", "7", "-newt", "4"), "reshare")
	shares := decodeLines(t, r.stdout, encBase64)
	if len(shares) != 7 {
		t.Fatalf("reshare -n 7 wrote %d shares", len(shares))
	}
	for _, sub := range subsets(7, 4) {
		if !combines(t, pickShares(shares, sub), secret) {
			t.Errorf("new shares %v do not recover the secret", sub)
		}
	}
	for _, sub := range subsets(7, 3) {
		if combines(t, pickShares(shares, sub), secret) {
			t.Errorf("new shares %v, 3 of a threshold of 4, recover the secret", sub)
		}
	}
}

// TestLifecycleUsage checks the exit status of usage errors, and that help
// goes to stdout, for each command.
func TestLifecycleUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"recreate", "-t", "3"}, "-x"},
		{[]string{"recreate", "-t", "3", "-x", "a"}, "x coordinates are numbers"},
		{[]string{"recreate", "-t", "3", "-x", "0"}, "-x 0"},
		{[]string{"extend", "-t", "3"}, "-k"},
		{[]string{"extend", "-t", "3", "-k", "300"}, "at most 255"},
		{[]string{"refresh", "-t", "300"}, "between 2 and 255"},
		{[]string{"refresh", "-t", "3", "-n", "256"}, "2 to 255"},
		{[]string{"reshare", "-t", "3", "-n", "5"}, "-newt"},
		{[]string{"reshare", "-t", "3", "-n", "5", "-newt", "2", "-format", "hex"}, "-format is gone"},
		{[]string{"refresh", "-t", "3", "-bogus"}, "-bogus"},
	} {
		// The flags are refused before any input is read (stdin is
		// empty here, which would be an error of its own, exit 1).
		r := runCmd(t, dir, nil, tc.args...)
		fails(t, r, 2, fmt.Sprint(tc.args), tc.msg)
	}
	for _, c := range []string{"recreate", "extend", "refresh", "reshare"} {
		for _, args := range [][]string{{c, "-h"}, {"help", c}} {
			r := must(t, runCmd(t, dir, nil, args...), fmt.Sprint(args))
			if !bytes.HasPrefix(r.stdout, []byte("usage: shamir "+c+" ")) {
				t.Errorf("%v: no usage on stdout: %q", args, r.stdout)
			}
		}
	}
	r := must(t, runCmd(t, dir, nil, "help"), "help")
	for _, c := range []string{"recreate", "extend", "refresh", "reshare"} {
		if !bytes.Contains(r.stdout, []byte("\t"+c+" ")) {
			t.Errorf("help does not list %s:\n%s", c, r.stdout)
		}
	}
}
