package shamir

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// lifecycleSchemes are the (parts, threshold) the lifecycle tests run over,
// from the smallest to the largest.
var lifecycleSchemes = [][2]int{{2, 2}, {3, 2}, {3, 3}, {5, 2}, {5, 3}, {5, 5}, {7, 4}, {10, 10}, {16, 3}, {20, 19}, {50, 7}, {255, 2}, {255, 128}, {255, 255}}

// pick returns the shares at positions.
func pick(shares [][]byte, positions []int) [][]byte {
	out := make([][]byte, len(positions))
	for i, p := range positions {
		out[i] = shares[p]
	}
	return out
}

// xOf returns a share's x coordinate.
func xOf(share []byte) byte { return share[len(share)-1] }

// xsOf returns the shares' x coordinates.
func xsOf(shares [][]byte) []byte {
	xs := make([]byte, len(shares))
	for i, s := range shares {
		xs[i] = xOf(s)
	}
	return xs
}

// without returns 0…n−1 but skip, shuffled.
func without(rng *mrand.Rand, n, skip int) []int {
	var p []int
	for _, i := range rng.Perm(n) {
		if i != skip {
			p = append(p, i)
		}
	}
	return p
}

// checkShares checks that shares are good shares of secret with threshold
// t: any t of them (a few random selections) combine to it and, when there
// are more than t, all of them agree.
func checkShares(t *testing.T, rng *mrand.Rand, shares [][]byte, th int, secret []byte, what string) {
	t.Helper()
	for range 3 {
		got, err := Combine(pick(shares, rng.Perm(len(shares))[:th]))
		if err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("%s: Combine = %v, wrong secret", what, err)
		}
	}
	if len(shares) > th {
		if bad, err := Verify(shares, th); bad != nil || err != nil {
			t.Fatalf("%s: Verify = %v, %v", what, bad, err)
		}
	}
}

// TestLifecycleRoundTrip runs Recreate, Extend, Refresh and Reshare over
// many schemes and lengths, and checks their shares against Split's.
func TestLifecycleRoundTrip(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 1))
	for _, s := range lifecycleSchemes {
		n, th := s[0], s[1]
		for _, size := range []int{1, 17, 64, 100, blockSize + 3} {
			if n*size > 1<<20 || (testing.Short() && size > 100) {
				continue
			}
			what := fmt.Sprintf("(%d, %d), %d bytes", n, th, size)
			secret := randBytes(rng, size)
			shares := testSplit(t, secret, n, th, uint64(n*1000+size))

			// Recreate every share (a sample of the large splits) from
			// threshold others, and from all the others when that is more.
			for i := range n {
				if n-1 < th || (n > 20 && i%23 != 0 && i != n-1) {
					continue
				}
				others := without(rng, n, i)
				sels := [][]int{others[:th]}
				if len(others) > th {
					sels = append(sels, others)
				}
				for _, sel := range sels {
					got, err := Recreate(pick(shares, sel), th, xOf(shares[i]))
					if err != nil {
						t.Fatalf("%s: Recreate share %d from %d: %v", what, i, len(sel), err)
					}
					if len(got) != 1 || !bytes.Equal(got[0], shares[i]) || cap(got[0]) != len(got[0]) {
						t.Fatalf("%s: Recreate share %d from %d: not the share", what, i, len(sel))
					}
				}
			}

			// Extend: from threshold of the shares, with the others in
			// use, by up to 3; all the shares, old and new, agree.
			if free := 255 - n; free > 0 {
				perm := rng.Perm(n)
				given, rest := pick(shares, perm[:th]), pick(shares, perm[th:])
				count := min(3, free)
				ext, err := Extend(given, th, count, xsOf(rest))
				if err != nil {
					t.Fatalf("%s: Extend: %v", what, err)
				}
				if len(ext) != count {
					t.Fatalf("%s: Extend made %d shares, want %d", what, len(ext), count)
				}
				all := append(slices.Clone(shares), ext...)
				if _, _, err := parseParts(all); err != nil {
					t.Fatalf("%s: Extend made a share at a used x coordinate: %v", what, err)
				}
				for _, e := range ext {
					if len(e) != size+1 || cap(e) != len(e) {
						t.Fatalf("%s: extended share of %d bytes, cap %d", what, len(e), cap(e))
					}
				}
				checkShares(t, rng, all, th, secret, what+", extended")
			} else if _, err := Extend(shares, th, 1, nil); !errors.Is(err, errTooManyParts) {
				t.Fatalf("%s: Extend of a full split = %v", what, err)
			}

			// Refresh: all the shares, at the same x coordinates.
			fresh, err := Refresh(shares, th)
			if err != nil {
				t.Fatalf("%s: Refresh: %v", what, err)
			}
			if !bytes.Equal(xsOf(fresh), xsOf(shares)) {
				t.Fatalf("%s: Refresh moved the x coordinates", what)
			}
			checkShares(t, rng, fresh, th, secret, what+", refreshed")
			checkDelta(t, shares, fresh, th, what)
			if len(secret) >= 16 {
				// One old share and threshold−1 new ones: a wrong secret.
				o := rng.IntN(n)
				mix := append([][]byte{shares[o]}, pick(fresh, without(rng, n, o)[:th-1])...)
				if got, err := Combine(mix); err != nil || bytes.Equal(got, secret) {
					t.Fatalf("%s: an old share and %d refreshed ones combine to the secret (%v)", what, th-1, err)
				}
			}

			// Reshare to a few other schemes.
			for _, to := range [][2]int{{3, 2}, {th, th}, {min(255, n+2), min(255, th+1)}} {
				re, err := Reshare(shares, th, to[0], to[1])
				if err != nil {
					t.Fatalf("%s: Reshare to %v: %v", what, to, err)
				}
				if len(re) != to[0] {
					t.Fatalf("%s: Reshare to %v made %d shares", what, to, len(re))
				}
				checkShares(t, rng, re, to[1], secret, fmt.Sprintf("%s, reshared to %v", what, to))
			}
		}
	}
}

// checkDelta checks that fresh are old plus the values of a polynomial of
// degree below t with constant term 0, not 0 everywhere: that the
// differences interpolate to 0 at 0 and, if there are more than t, agree.
func checkDelta(t *testing.T, old, fresh [][]byte, th int, what string) {
	t.Helper()
	n := len(old[0]) - 1
	delta := make([][]byte, len(old))
	zero := true
	for i := range old {
		delta[i] = bytes.Clone(fresh[i])
		for k := range n {
			delta[i][k] ^= old[i][k]
			zero = zero && delta[i][k] == 0
		}
	}
	if zero && n >= 4 {
		t.Fatalf("%s: Refresh left the shares as they were", what)
	}
	if got := combineRef(delta[:th]); !bytes.Equal(got, make([]byte, n)) {
		t.Fatalf("%s: the refresh polynomial is not 0 at 0", what)
	}
	if len(delta) > th {
		if bad, err := Verify(delta, th); bad != nil || err != nil {
			t.Fatalf("%s: the refresh polynomial's degree is not below the threshold: %v, %v", what, bad, err)
		}
	}
}

// TestRecreateEverySelection recreates every share of small splits from
// every selection of at least threshold others, one x coordinate at a time
// and all the missing ones at once, and compares the bytes.
func TestRecreateEverySelection(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 2))
	for _, s := range [][2]int{{3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}, {7, 2}} {
		n, th := s[0], s[1]
		secret := randBytes(rng, 33)
		shares := testSplit(t, secret, n, th, uint64(n))
		for size := th; size < n; size++ {
			forEachSubset(n, size, func(sel []int) bool {
				var missing []int
				for i := range n {
					if !slices.Contains(sel, i) {
						missing = append(missing, i)
					}
				}
				parts := pick(shares, sel)
				for _, i := range missing {
					got, err := Recreate(parts, th, xOf(shares[i]))
					if err != nil || !bytes.Equal(got[0], shares[i]) {
						t.Fatalf("(%d, %d) from %v: share %d: %v", n, th, sel, i, err)
					}
				}
				want := pick(shares, missing)
				got, err := Recreate(parts, th, xsOf(want)...)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if !bytes.Equal(got[i], want[i]) {
						t.Fatalf("(%d, %d) from %v: share %d of %v", n, th, sel, missing[i], missing)
					}
				}
				return true
			})
		}
	}
}

// TestRecreateNewX checks that Recreate at an x coordinate no share has
// makes a share that combines with the others in every mixture, and that
// Recreate is the reference interpolation at any x.
func TestRecreateNewX(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 3))
	secret := randBytes(rng, 40)
	shares := testSplit(t, secret, 5, 3, 7)
	used := xsOf(shares)
	var xs []byte
	for x := 1; x < 256; x++ {
		if !slices.Contains(used, byte(x)) {
			xs = append(xs, byte(x))
		}
	}
	got, err := Recreate(shares[:3], 3, xs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range xs {
		if want := evalAt(shares[:3], x); !bytes.Equal(got[i][:40], want) || xOf(got[i]) != x {
			t.Fatalf("share at x = %d is not the interpolation", x)
		}
	}
	all := append(slices.Clone(shares), got...)
	if bad, err := Verify(all, 3); bad != nil || err != nil {
		t.Fatalf("Verify of 255 shares = %v, %v", bad, err)
	}
}

// TestExtendEveryMixture extends small splits and combines every threshold
// of the old and new shares together.
func TestExtendEveryMixture(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 4))
	for _, c := range []struct{ n, th, given, count int }{
		{2, 2, 2, 3}, {3, 2, 2, 4}, {3, 3, 3, 3}, {5, 3, 3, 3}, {5, 3, 5, 2}, {4, 4, 4, 4}, {6, 2, 4, 2},
	} {
		secret := randBytes(rng, 24)
		shares := testSplit(t, secret, c.n, c.th, uint64(c.n*10+c.given))
		given, rest := shares[:c.given], shares[c.given:]
		ext, err := Extend(given, c.th, c.count, xsOf(rest))
		if err != nil {
			t.Fatal(err)
		}
		all := append(slices.Clone(shares), ext...)
		for size := c.th; size <= len(all); size++ {
			forEachSubset(len(all), size, func(sel []int) bool {
				got, err := Combine(pick(all, sel))
				if err != nil || !bytes.Equal(got, secret) {
					t.Fatalf("%+v: shares %v: %v, wrong secret", c, sel, err)
				}
				return true
			})
		}
		// And extending again, from a mixture, with every share so far in
		// use.
		mix := append(slices.Clone(ext[:1]), shares[len(shares)-c.th+1:]...)
		more, err := Extend(mix, c.th, 2, xsOf(all))
		if err != nil {
			t.Fatal(err)
		}
		checkShares(t, rng, append(all, more...), c.th, secret, fmt.Sprintf("%+v, extended twice", c))
	}
}

// TestExtendUniform checks that Extend's x coordinates are uniform over the
// free ones, and never a used one.
func TestExtendUniform(t *testing.T) {
	shares := testSplit(t, []byte{42}, 5, 3, 1)
	given := shares[:3]
	used := append(xsOf(shares), 200) // 200: as if in inUse
	free := 255 - len(slices.Compact(slices.Sorted(slices.Values(used))))
	px, ys, err := parsePartsThreshold(given, 3)
	if err != nil {
		t.Fatal(err)
	}
	const runs, count = 20000, 3
	var hits, firsts [256]int
	rng := mrand.NewChaCha8([32]byte{'x'})
	for range runs {
		var freeBuf [255]byte
		f := freeBuf[:0]
		for x := 1; x < 256; x++ {
			if !slices.Contains(used, byte(x)) {
				f = append(f, byte(x))
			}
		}
		ext, err := extend(px, ys, 3, count, f, rng)
		if err != nil {
			t.Fatal(err)
		}
		firsts[xOf(ext[0])]++
		for _, e := range ext {
			hits[xOf(e)]++
		}
	}
	// Each free x is hit runs·count/free ≈ 240 times, with a standard
	// deviation of about 15: allow 6 of them.
	want := float64(runs*count) / float64(free)
	for x := range 256 {
		if x == 0 || slices.Contains(used, byte(x)) {
			if hits[x] != 0 {
				t.Fatalf("used x coordinate %d drawn %d times", x, hits[x])
			}
			continue
		}
		if d := float64(hits[x]) - want; d*d > 36*want {
			t.Errorf("x coordinate %d drawn %d times, want about %.0f", x, hits[x], want)
		}
		if firsts[x] == 0 {
			t.Errorf("x coordinate %d never drawn first", x)
		}
	}
}

// TestExtendInUse checks that Extend through the exported function avoids
// the x coordinates of the parts and of inUse, and can take every free one.
func TestExtendInUse(t *testing.T) {
	shares := testSplit(t, []byte("in use"), 10, 3, 2)
	given, rest := shares[:4], shares[4:]
	var inUse []byte
	for x := 1; x < 256; x += 2 {
		inUse = append(inUse, byte(x))
	}
	inUse = append(inUse, xsOf(rest)...)
	taken := map[byte]bool{}
	for _, x := range append(slices.Clone(inUse), xsOf(given)...) {
		taken[x] = true
	}
	ext, err := Extend(given, 3, 255-len(taken), inUse)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ext {
		if taken[xOf(e)] {
			t.Fatalf("extended at x = %d, which is in use", xOf(e))
		}
		taken[xOf(e)] = true
	}
	if len(taken) != 255 {
		t.Fatalf("%d x coordinates taken, want every one", len(taken))
	}
	if _, err := Extend(given, 3, 1, append(inUse, xsOf(ext)...)); !errors.Is(err, errTooManyParts) {
		t.Fatalf("Extend with no x coordinate free = %v", err)
	}
}

// TestRefreshMixtures refreshes small splits and combines every threshold
// of the shares, each old or new: all new give the secret, all old too, and
// every mixture a wrong one.
func TestRefreshMixtures(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 5))
	for _, s := range [][2]int{{2, 2}, {3, 2}, {5, 3}, {4, 4}, {6, 3}} {
		n, th := s[0], s[1]
		secret := randBytes(rng, 32)
		old := testSplit(t, secret, n, th, uint64(n))
		fresh, err := Refresh(old, th)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Refresh(fresh[:th], th) // from threshold shares only
		if err != nil {
			t.Fatal(err)
		}
		forEachSubset(n, th, func(sel []int) bool {
			for mask := range 1 << th {
				parts := make([][]byte, th)
				for j, i := range sel {
					parts[j] = old[i]
					if mask>>j&1 == 1 {
						parts[j] = fresh[i]
					}
				}
				got, err := Combine(parts)
				if err != nil {
					t.Fatal(err)
				}
				mixed := mask != 0 && mask != 1<<th-1
				if bytes.Equal(got, secret) == mixed {
					t.Fatalf("(%d, %d): shares %v, new %b: secret recovered %v", n, th, sel, mask, !mixed)
				}
			}
			return true
		})
		// The second refresh, of the first threshold shares: those combine,
		// and not with the first refresh's.
		checkShares(t, rng, again, th, secret, "refreshed twice")
		if n > th {
			mix := append(slices.Clone(again[:th-1]), fresh[th])
			if got, _ := Combine(mix); bytes.Equal(got, secret) {
				t.Fatalf("(%d, %d): shares of two refreshes combine", n, th)
			}
		}
	}
}

// TestRefreshSchedule checks that a refresh of several parallel chunks is
// the same at GOMAXPROCS 1, 2 and 4, and a refresh.
func TestRefreshSchedule(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	secret := make([]byte, 3*parallelChunk+5)
	for i := range secret {
		secret[i] = byte(i*7 + 3)
	}
	for _, s := range [][2]int{{5, 3}, {3, 3}} {
		shares := testSplit(t, secret, s[0], s[1], 9)
		px, ys, err := parseParts(shares)
		if err != nil {
			t.Fatal(err)
		}
		var first [][]byte
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			fresh, err := refresh(px, ys, s[1], mrand.NewChaCha8([32]byte{byte(s[0])}))
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = fresh
				checkDelta(t, shares, fresh, s[1], fmt.Sprint(s))
				got, err := Combine(fresh[:s[1]])
				if err != nil || !bytes.Equal(got, secret) {
					t.Fatalf("%v: Combine = %v, wrong secret", s, err)
				}
				continue
			}
			for i := range fresh {
				if !bytes.Equal(fresh[i], first[i]) {
					t.Fatalf("%v: share %d at GOMAXPROCS %d differs from GOMAXPROCS 1", s, i, procs)
				}
			}
		}
	}
}

// TestRefreshEveryKernel checks Refresh's additions on every kernel this
// CPU has, at lengths around the kernels' widths, against the definition.
func TestRefreshEveryKernel(t *testing.T) {
	defer func(k *kernel) { active = k }(active)
	rng := mrand.New(mrand.NewPCG(13, 6))
	for _, k := range kernels() {
		active = k
		for _, size := range []int{1, 15, 16, 31, 32, 33, 63, 64, 65, 127, 129, 300, blockSize - 1, blockSize + 65} {
			secret := randBytes(rng, size)
			shares := testSplit(t, secret, 6, 3, uint64(size))
			fresh, err := Refresh(shares, 3)
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s, %d bytes", k.name, size)
			checkDelta(t, shares, fresh, 3, what)
			checkShares(t, rng, fresh, 3, secret, what)
			got, err := Recreate(fresh[1:4], 3, xOf(fresh[0]), xOf(fresh[5]))
			if err != nil || !bytes.Equal(got[0], fresh[0]) || !bytes.Equal(got[1], fresh[5]) {
				t.Fatalf("%s: Recreate = %v, not the shares", what, err)
			}
		}
	}
}

// TestReshare reshares a split to several schemes, from threshold, more and
// all of its shares.
func TestReshare(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 7))
	secret := randBytes(rng, 48)
	shares := testSplit(t, secret, 7, 4, 3)
	for _, to := range [][2]int{{2, 2}, {5, 3}, {7, 4}, {10, 9}, {255, 255}, {255, 2}} {
		for _, given := range [][][]byte{shares[:4], shares[2:], shares} {
			re, err := Reshare(given, 4, to[0], to[1])
			if err != nil {
				t.Fatal(err)
			}
			checkShares(t, rng, re, to[1], secret, fmt.Sprint(to))
			if to[1] == 4 {
				// Old and new do not mix.
				mix := append(slices.Clone(re[:3]), shares[0])
				if _, _, err := parseParts(mix); err == nil {
					if got, _ := Combine(mix); bytes.Equal(got, secret) {
						t.Fatal("old and reshared shares combine")
					}
				}
			}
		}
	}
}

// TestLifecycleRefusals checks every refusal of Recreate, Extend, Refresh
// and Reshare.
func TestLifecycleRefusals(t *testing.T) {
	shares := testSplit(t, []byte("refusals"), 7, 3, 4)
	xs := xsOf(shares)
	var free byte = 1
	for slices.Contains(xs, free) {
		free++
	}
	recreate := func(parts [][]byte, th int, xs ...byte) error {
		_, err := Recreate(parts, th, xs...)
		return err
	}
	extend := func(parts [][]byte, th, count int, inUse []byte) error {
		_, err := Extend(parts, th, count, inUse)
		return err
	}
	refresh := func(parts [][]byte, th int) error {
		_, err := Refresh(parts, th)
		return err
	}
	reshare := func(parts [][]byte, th, n, t int) error {
		_, err := Reshare(parts, th, n, t)
		return err
	}
	short := append([][]byte{shares[0][:5]}, shares[1:3]...)
	dup := [][]byte{shares[0], shares[1], shares[0]}
	zeroX := [][]byte{shares[0], shares[1], append(bytes.Clone(shares[2][:8]), 0)}
	tiny := [][]byte{{1}, {2}, {3}}
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"Recreate x = 0", recreate(shares[:3], 3, 0), errNewZeroX},
		{"Recreate x = 0 among others", recreate(shares[:3], 3, free, 0), errNewZeroX},
		{"Recreate duplicate x", recreate(shares[:3], 3, free, free), errDuplicateX},
		{"Recreate x of a part", recreate(shares[:3], 3, xs[1]), errXInUse},
		{"Recreate x of a part among others", recreate(shares[:4], 3, free, xs[3]), errXInUse},
		{"Recreate no x", recreate(shares[:3], 3), errNoXs},
		{"Recreate too few parts", recreate(shares[:2], 3, free), errPartsBelowThreshold},
		{"Recreate one part", recreate(shares[:1], 2, free), errPartsBelowThreshold},
		{"Recreate threshold 1", recreate(shares[:3], 1, free), errThresholdTooSmall},
		{"Recreate threshold 0", recreate(shares[:3], 0, free), errThresholdTooSmall},
		{"Recreate threshold above the parts", recreate(shares[:3], 4, free), errPartsBelowThreshold},
		{"Recreate length mismatch", recreate(short, 3, free), errLengthMismatch},
		{"Recreate duplicate part", recreate(dup, 3, free), errDuplicatePart},
		{"Recreate part at x = 0", recreate(zeroX, 3, free), errZeroX},
		{"Recreate parts too short", recreate(tiny, 3, free), errPartTooShort},

		{"Extend count 0", extend(shares[:3], 3, 0, nil), errNoNewShares},
		{"Extend count -1", extend(shares[:3], 3, -1, nil), errNoNewShares},
		{"Extend count above the free x", extend(shares[:3], 3, 253, nil), errTooManyParts},
		{"Extend count above the free x with inUse", extend(shares[:3], 3, 249, xs[3:]), errTooManyParts},
		{"Extend too few parts", extend(shares[:2], 3, 1, nil), errPartsBelowThreshold},
		{"Extend threshold 1", extend(shares[:3], 1, 1, nil), errThresholdTooSmall},
		{"Extend duplicate part", extend(dup, 3, 1, nil), errDuplicatePart},
		{"Extend part at x = 0", extend(zeroX, 3, 1, nil), errZeroX},

		{"Refresh too few parts", refresh(shares[:2], 3), errPartsBelowThreshold},
		{"Refresh threshold 1", refresh(shares, 1), errThresholdTooSmall},
		{"Refresh too many parts", refresh(make([][]byte, 256), 3), errTooManyParts},
		{"Refresh length mismatch", refresh(short, 3), errLengthMismatch},
		{"Refresh duplicate part", refresh(dup, 3), errDuplicatePart},

		{"Reshare too few parts", reshare(shares[:2], 3, 5, 3), errPartsBelowThreshold},
		{"Reshare duplicate part", reshare(dup, 3, 5, 3), errDuplicatePart},
		{"Reshare new parts below new threshold", reshare(shares[:3], 3, 3, 4), errPartsBelowThreshold},
		{"Reshare new parts above 255", reshare(shares[:3], 3, 256, 3), errTooManyParts},
		{"Reshare new threshold 1", reshare(shares[:3], 3, 5, 1), errThresholdTooSmall},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if err := reshare(shares[:3], 3, 3, 4); !strings.Contains(fmt.Sprint(err), "new split") {
		t.Errorf("Reshare's error for the new scheme does not say so: %v", err)
	}
	if err := recreate(shares[:3], 3, xs[1]); !strings.Contains(fmt.Sprint(err), fmt.Sprint(xs[1])) {
		t.Errorf("Recreate's error does not name the x coordinate: %v", err)
	}
}

// TestLifecycleInconsistent checks that every function refuses parts that
// disagree, naming the bad ones when they can be located, and derives
// nothing.
func TestLifecycleInconsistent(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(13, 8))
	secret := randBytes(rng, 50)
	shares := testSplit(t, secret, 8, 3, 5)
	free := byte(1)
	for slices.Contains(xsOf(shares), free) {
		free++
	}
	ops := map[string]func([][]byte) ([][]byte, error){
		"Recreate": func(p [][]byte) ([][]byte, error) { return Recreate(p, 3, free) },
		"Extend":   func(p [][]byte) ([][]byte, error) { return Extend(p, 3, 2, nil) },
		"Refresh":  func(p [][]byte) ([][]byte, error) { return Refresh(p, 3) },
		"Reshare":  func(p [][]byte) ([][]byte, error) { return Reshare(p, 3, 5, 3) },
	}
	for name, op := range ops {
		// Two bad of seven: located (⌊4/2⌋ = 2).
		parts := clone(shares[:7])
		damage(rng, parts[1], []int{0, 9})
		damage(rng, parts[5], []int{49})
		got, err := op(parts)
		var ce *CombineError
		if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || !slices.Equal(positions(ce.Bad), []int{1, 5}) {
			t.Errorf("%s with parts 1 and 5 bad = %d shares, %v; want them named", name, len(got), err)
		}
		// One bad of four: found, not located.
		parts = clone(shares[:4])
		damage(rng, parts[2], []int{3})
		got, err = op(parts)
		if got != nil || errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) {
			t.Errorf("%s with one bad of four = %d shares, %v; want ErrInconsistentShares unlocated", name, len(got), err)
		}
		// Exactly threshold: nothing to check against, and no error.
		parts = clone(shares[:3])
		damage(rng, parts[0], []int{3})
		if _, err := op(parts); err != nil {
			t.Errorf("%s with threshold parts, one damaged = %v; nothing can be checked", name, err)
		}
		// All good, more than threshold: fine.
		if _, err := op(shares); err != nil {
			t.Errorf("%s with good parts = %v", name, err)
		}
	}
}

// TestLifecycleLeavesParts checks that no function writes to its parts.
func TestLifecycleLeavesParts(t *testing.T) {
	shares := testSplit(t, []byte("leave these alone"), 6, 3, 6)
	orig := clone(shares)
	Recreate(shares[:4], 3, 1, 2, 3, 250) // some of these may be in use
	Recreate(shares[:3], 3, 0x7f)
	Extend(shares, 3, 5, nil)
	Refresh(shares, 3)
	Reshare(shares, 3, 4, 2)
	for i := range shares {
		if !bytes.Equal(shares[i], orig[i]) {
			t.Fatalf("share %d changed", i)
		}
	}
}

// TestLifecycleRandomnessFailure checks that Extend, Refresh and Reshare
// fail cleanly when crypto/rand does, and that Recreate, which draws
// nothing, does not notice.
func TestLifecycleRandomnessFailure(t *testing.T) {
	shares := testSplit(t, []byte("randomness failure"), 5, 3, 8)
	defer func(saved io.Reader) { rand.Reader = saved }(rand.Reader)
	rand.Reader = failingReader{}
	if got, err := Extend(shares, 3, 2, nil); got != nil || !errors.Is(err, errFailing) {
		t.Errorf("Extend with failing randomness: %v", err)
	}
	if got, err := Refresh(shares, 3); got != nil || !errors.Is(err, errFailing) {
		t.Errorf("Refresh with failing randomness: %v", err)
	}
	if got, err := Reshare(shares, 3, 4, 2); got != nil || !errors.Is(err, errFailing) {
		t.Errorf("Reshare with failing randomness: %v", err)
	}
	if _, err := Recreate(shares[:3], 3, xOf(shares[3])); err != nil {
		t.Errorf("Recreate with failing randomness: %v", err)
	}
}
