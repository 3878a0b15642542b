package shamir

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// testSplit splits secret with randomness from a seeded ChaCha8, so that
// failures reproduce.
func testSplit(t testing.TB, secret []byte, parts, threshold int, seed uint64) [][]byte {
	t.Helper()
	var s [32]byte
	s[0], s[1] = byte(seed), byte(seed>>8)
	shares, err := split(secret, parts, threshold, rand.NewChaCha8(s))
	if err != nil {
		t.Fatal(err)
	}
	return shares
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// damage XORs a non-zero byte into part at each of the given y positions.
func damage(rng *rand.Rand, part []byte, at []int) {
	for _, k := range at {
		part[k] ^= byte(1 + rng.IntN(255))
	}
}

func clone(parts [][]byte) [][]byte { return clone2(parts) }

// checkLocated asserts that Verify blames exactly want, and that
// CombineRobust recovers secret and names the same parts.
func checkLocated(t *testing.T, parts [][]byte, threshold int, secret []byte, want []int) {
	t.Helper()
	pos, ok, err := verifyPositions(parts, threshold)
	if err != nil || !ok {
		t.Fatalf("Verify = %v (located %v), want nil", err, ok)
	}
	if !slices.Equal(pos, want) {
		t.Fatalf("Verify blames %v, want %v", pos, want)
	}
	got, bad, err := CombineRobust(parts, threshold)
	if err != nil {
		t.Fatalf("CombineRobust: %v", err)
	}
	if !bytes.Equal(got, secret) {
		t.Fatalf("CombineRobust returned a wrong secret")
	}
	if !slices.Equal(positions(bad), want) || !allInconsistent(bad) {
		t.Fatalf("CombineRobust set aside %v, want %v", bad, want)
	}
}

// verifyPositions runs Verify and returns the positions of the parts it
// names, and whether it could name them: ok is false when it returned
// ErrInconsistentShares. Any other error is returned.
func verifyPositions(parts [][]byte, threshold int) (pos []int, ok bool, err error) {
	bad, err := Verify(parts, threshold)
	if errors.Is(err, ErrInconsistentShares) {
		if bad != nil {
			return nil, false, fmt.Errorf("bad shares %v beside %w", bad, err)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !allInconsistent(bad) {
		return nil, false, fmt.Errorf("bad shares %v with reasons other than Inconsistent", bad)
	}
	return positions(bad), true, nil
}

// allInconsistent reports whether every share of bad has the reason
// Inconsistent, the only one plain shares have.
func allInconsistent(bad []BadShare) bool {
	for _, b := range bad {
		if b.Reason != Inconsistent || b.Err != nil {
			return false
		}
	}
	return true
}

// checkNotLocated asserts that Verify finds parts inconsistent without
// naming any, and that CombineRobust refuses them.
func checkNotLocated(t *testing.T, parts [][]byte, threshold int) {
	t.Helper()
	if pos, ok, err := verifyPositions(parts, threshold); err != nil || ok {
		t.Fatalf("Verify = %v, %v, want inconsistent shares without positions", pos, err)
	}
	secret, bad, err := CombineRobust(parts, threshold)
	if !errors.Is(err, ErrInconsistentShares) || secret != nil || bad != nil {
		t.Fatalf("CombineRobust = %x, %v, %v; want no secret and inconsistent shares", secret, bad, err)
	}
}

func TestVerifyConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ n, t, size int }{
		{2, 2, 1}, {3, 2, 1}, {5, 3, 32}, {7, 3, 100}, {10, 10, 7}, {20, 4, 3},
		{255, 2, 5}, {255, 128, 2}, {255, 255, 1}, {6, 3, blockSize + 3},
	} {
		secret := randBytes(rng, c.size)
		parts := testSplit(t, secret, c.n, c.t, uint64(c.n*1000+c.t))
		checkLocated(t, parts, c.t, secret, nil)
		// Any threshold-sized or larger subset is consistent too.
		checkLocated(t, parts[c.n-c.t:], c.t, secret, nil)
	}
}

// TestVerifyEveryPlacement damages every single part and every pair of parts
// among 7 with threshold 3 (⌊(7−3)/2⌋ = 2 are locatable), at one byte
// position and at every position.
func TestVerifyEveryPlacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const n, th, size = 7, 3, 33
	secret := randBytes(rng, size)
	orig := testSplit(t, secret, n, th, 7)
	every := make([]int, size)
	for k := range every {
		every[k] = k
	}
	for _, mode := range []string{"one byte", "every byte", "random bytes"} {
		at := func() []int {
			switch mode {
			case "one byte":
				return []int{rng.IntN(size)}
			case "every byte":
				return every
			}
			return rng.Perm(size)[:1+rng.IntN(size)]
		}
		for a := range n {
			parts := clone(orig)
			damage(rng, parts[a], at())
			t.Run(fmt.Sprintf("%s/%d", mode, a), func(t *testing.T) {
				checkLocated(t, parts, th, secret, []int{a})
			})
			for b := a + 1; b < n; b++ {
				parts := clone(orig)
				damage(rng, parts[a], at())
				damage(rng, parts[b], at())
				t.Run(fmt.Sprintf("%s/%d,%d", mode, a, b), func(t *testing.T) {
					checkLocated(t, parts, th, secret, []int{a, b})
				})
			}
		}
	}
}

// TestVerifyDetectOnly has one spare part: a bad one is detected, not located.
func TestVerifyDetectOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, th := range []int{2, 3, 5} {
		secret := randBytes(rng, 16)
		orig := testSplit(t, secret, th+1, th, uint64(th))
		for a := range th + 1 {
			for _, at := range [][]int{{0}, {15}, {3, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}} {
				parts := clone(orig)
				damage(rng, parts[a], at)
				checkNotLocated(t, parts, th)
			}
		}
	}
}

// TestVerifyBeyondBound damages more parts than can be located.
func TestVerifyBeyondBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	secret := randBytes(rng, 32)
	orig := testSplit(t, secret, 7, 3, 11)

	// Three and four parts replaced wholesale: detected (at most 4 = 7−3
	// are always detected), and with overwhelming probability not
	// mistaken for two.
	for _, bad := range [][]int{{0, 1, 2}, {1, 3, 5}, {0, 2, 4, 6}} {
		parts := clone(orig)
		for _, i := range bad {
			copy(parts[i], randBytes(rng, 32))
		}
		checkNotLocated(t, parts, 3)
	}

	// Three parts each wrong at a different position: every position alone
	// is decodable, but no two parts explain all the damage.
	parts := clone(orig)
	damage(rng, parts[1], []int{4})
	damage(rng, parts[3], []int{9})
	damage(rng, parts[6], []int{30})
	checkNotLocated(t, parts, 3)

	// Shares from another split, relabelled with the same x coordinates.
	other := testSplit(t, randBytes(rng, 32), 7, 3, 12)
	parts = clone(orig)
	for i := range other {
		other[i][32] = orig[i][32]
	}
	copy(parts[2], other[2])
	copy(parts[5], other[5])
	copy(parts[6], other[6])
	checkNotLocated(t, parts, 3)
}

// TestVerifyLong puts bad bytes at the edges of the engine's blocks and
// damages different parts in different blocks.
func TestVerifyLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	size := 3*blockSize + 5
	secret := randBytes(rng, size)
	orig := testSplit(t, secret, 9, 4, 5)
	for _, c := range []struct {
		bad []int
		at  [][]int
	}{
		{[]int{0}, [][]int{{size - 1}}},
		{[]int{8}, [][]int{{blockSize - 1, blockSize}}},
		{[]int{2, 7}, [][]int{{0}, {size - 1}}},
		{[]int{3, 4}, [][]int{{2*blockSize + 1}, {blockSize + 7, 2 * blockSize}}},
		{[]int{1, 5, 6}, nil},
	} {
		parts := clone(orig)
		for j, i := range c.bad {
			if c.at == nil {
				copy(parts[i], randBytes(rng, size))
			} else {
				damage(rng, parts[i], c.at[j])
			}
		}
		if len(c.bad) <= 2 {
			checkLocated(t, parts, 4, secret, c.bad)
		} else {
			checkNotLocated(t, parts, 4)
		}
	}
}

// TestVerifyChunks checks parts longer than the engine's parallel chunks,
// which are checked on several goroutines: bad bytes at the chunks' edges,
// different parts bad in different chunks (a later chunk's first), and
// parts that cannot be located, with one goroutine and with several.
func TestVerifyChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	size := 3*parallelChunk + 5
	secret := randBytes(rng, size)
	orig := testSplit(t, secret, 9, 4, 11)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for _, c := range []struct {
			bad []int
			at  [][]int
		}{
			{nil, nil},
			{[]int{0}, [][]int{{parallelChunk - 1, parallelChunk}}},
			{[]int{2, 7}, [][]int{{3 * parallelChunk}, {parallelChunk + 1}}},
			{[]int{3, 4}, [][]int{{size - 1}, {2*parallelChunk - 1, 5}}},
			{[]int{1, 6}, [][]int{{2 * parallelChunk}, nil}},
			{[]int{1, 5, 6}, [][]int{{0}, {parallelChunk}, {size - 1}}},
		} {
			parts := clone(orig)
			for j, i := range c.bad {
				if c.at[j] == nil {
					copy(parts[i], randBytes(rng, size))
				} else {
					damage(rng, parts[i], c.at[j])
				}
			}
			if len(c.bad) <= 2 {
				checkLocated(t, parts, 4, secret, c.bad)
			} else {
				checkNotLocated(t, parts, 4)
			}
		}
	}
}

// TestVerifyMany has lots of spare parts: 255 parts with threshold 2 locate
// up to 126 bad ones.
func TestVerifyMany(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	secret := randBytes(rng, 20)
	orig := testSplit(t, secret, 255, 2, 1)
	for _, nbad := range []int{1, 17, 126} {
		parts := clone(orig)
		bad := rng.Perm(255)[:nbad]
		for _, i := range bad {
			copy(parts[i], randBytes(rng, 20))
		}
		slices.Sort(bad)
		checkLocated(t, parts, 2, secret, bad)
	}
	parts := clone(orig)
	for _, i := range rng.Perm(255)[:127] {
		copy(parts[i], randBytes(rng, 20))
	}
	checkNotLocated(t, parts, 2)
}

// consistentWithout reports whether the parts outside skip lie, at every
// position, on one polynomial of degree < t, by interpolating through the
// first t of them and comparing with the others byte by byte.
func consistentWithout(parts [][]byte, t int, skip []bool) bool {
	n := len(parts[0]) - 1
	var use [][]byte
	for i, p := range parts {
		if !skip[i] {
			use = append(use, p)
		}
	}
	xs := make([]byte, t)
	for j := range t {
		xs[j] = use[j][n]
	}
	for _, p := range use[t:] {
		l := lagrange(nil, xs, []byte{p[n]})
		for k := range n {
			var v byte
			for j := range t {
				v ^= gfMul(l[j], use[j][k])
			}
			if v != p[k] {
				return false
			}
		}
	}
	return true
}

// smallestFix is the definition of what Verify reports: the smallest set of
// at most ⌊(m−t)/2⌋ parts outside which the parts are consistent, found by
// trying every set in order of size.
func smallestFix(parts [][]byte, t int) ([]int, bool) {
	m := len(parts)
	for size := 0; size <= (m-t)/2; size++ {
		var found []int
		ok := false
		forEachSubset(m, size, func(s []int) bool {
			skip := make([]bool, m)
			for _, i := range s {
				skip[i] = true
			}
			if consistentWithout(parts, t, skip) {
				found, ok = slices.Clone(s), true
				return false
			}
			return true
		})
		if ok {
			return found, true
		}
	}
	return nil, false
}

func forEachSubset(m, size int, f func([]int) bool) {
	s := make([]int, size)
	var rec func(pos, start int) bool
	rec = func(pos, start int) bool {
		if pos == size {
			return f(s)
		}
		for i := start; i < m; i++ {
			s[pos] = i
			if !rec(pos+1, i+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// randomSplit returns a random secret of 1…maxSize bytes and its shares:
// 3…maxParts of them, with a random threshold, made with the given seed.
func randomSplit(t *testing.T, rng *rand.Rand, maxParts, maxSize int, seed uint64) (secret []byte, parts [][]byte, th int) {
	m := 3 + rng.IntN(maxParts-2)
	th = 2 + rng.IntN(m-2)
	secret = randBytes(rng, 1+rng.IntN(maxSize))
	return secret, testSplit(t, secret, m, th, seed), th
}

// TestVerifyAgainstDefinition compares Verify with smallestFix on small
// random cases, many of them beyond what can be located, with damage
// concentrated on few byte values so that miscorrections happen.
func TestVerifyAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	var stats [3]int
	defer func() { t.Logf("consistent %d, located %d, not locatable %d", stats[0], stats[1], stats[2]) }()
	for it := range iters {
		secret, parts, th := randomSplit(t, rng, 8, 4, uint64(it))
		m, size := len(parts), len(secret)
		for range rng.IntN(m + 1) {
			i := rng.IntN(m)
			k := rng.IntN(size)
			if rng.IntN(2) == 0 {
				parts[i][k] ^= byte(1 + rng.IntN(255))
			} else {
				// Move the part onto another polynomial through some of
				// the others: the hard case for a decoder.
				parts[i][k] = byte(rng.IntN(3))
			}
		}
		want, wantOK := smallestFix(parts, th)
		switch {
		case !wantOK:
			stats[2]++
		case len(want) > 0:
			stats[1]++
		default:
			stats[0]++
		}
		pos, ok, err := verifyPositions(parts, th)
		if err != nil || ok != wantOK || !slices.Equal(pos, want) {
			t.Fatalf("case %d (m=%d t=%d): Verify = %v, %v, %v; want %v, %v", it, m, th, pos, ok, err, want, wantOK)
		}
		got, bad, err := CombineRobust(parts, th)
		if wantOK != (err == nil) || !slices.Equal(positions(bad), want) {
			t.Fatalf("case %d: CombineRobust = %v, %v; want %v, %v", it, bad, err, want, wantOK)
		}
		if wantOK {
			// The secret is the one of the parts outside want.
			skip := make([]bool, m)
			for _, i := range want {
				skip[i] = true
			}
			var use [][]byte
			for i, p := range parts {
				if !skip[i] {
					use = append(use, p)
				}
			}
			s, err := Combine(use[:th])
			if err != nil || !bytes.Equal(got, s) {
				t.Fatalf("case %d: CombineRobust secret %x, want %x", it, got, s)
			}
		}
	}
}

func TestVerifyErrors(t *testing.T) {
	ok := testSplit(t, []byte("secret"), 5, 3, 1)
	short := clone(ok)
	short[2] = short[2][:5]
	zero := clone(ok)
	zero[4][6] = 0
	tiny := [][]byte{{1}, {2}, {3}}
	for _, c := range []struct {
		name      string
		parts     [][]byte
		threshold int
		want      error
	}{
		{"threshold 1", ok, 1, errThresholdTooSmall},
		{"threshold 0", ok, 0, errThresholdTooSmall},
		{"threshold -1", ok, -1, errThresholdTooSmall},
		// Vault's order (checkScheme): fewer parts than the threshold
		// comes first, so a threshold above 255 is reported as that.
		{"threshold 256", ok, 256, errPartsBelowThreshold},
		{"too few", ok[:2], 3, errPartsBelowThreshold},
		{"none", nil, 2, errPartsBelowThreshold},
		{"length", short, 3, errLengthMismatch},
		{"only copies", [][]byte{ok[0], ok[0], ok[1]}, 3, ErrNotEnoughShares},
		{"zero x", zero, 3, errZeroX},
		{"too short", tiny, 2, errPartTooShort},
	} {
		if bad, err := Verify(c.parts, c.threshold); !errors.Is(err, c.want) || bad != nil {
			t.Errorf("%s: Verify = %v, %v, want %v", c.name, bad, err, c.want)
		}
		if s, bad, err := CombineRobust(c.parts, c.threshold); !errors.Is(err, c.want) || s != nil || bad != nil {
			t.Errorf("%s: CombineRobust = %x, %v, %v; want %v", c.name, s, bad, err, c.want)
		}
	}
}

// flip returns a copy of part with its first byte changed.
func flip(part []byte) []byte {
	p := slices.Clone(part)
	p[0] ^= 0x5a
	return p
}

// TestVerifyCopies: a part given twice is a copy, named Duplicate (or
// Inconsistent, when what it copies is off the polynomial); two
// parts with one x and other bytes are both candidates, and the one off
// the polynomial is named, whatever their order (issue #18, item 6).
func TestVerifyCopies(t *testing.T) {
	secret := []byte("a secret of some length")
	parts, err := Split(secret, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(parts[1])
	bad[0] ^= 1
	for _, c := range []struct {
		name  string
		parts [][]byte
		want  []BadShare
	}{
		{"copy", [][]byte{parts[0], parts[1], parts[1], parts[2], parts[3]}, []BadShare{{2, Duplicate, nil}}},
		{"bad copy after", [][]byte{parts[0], parts[1], parts[2], bad, parts[3], parts[4]}, []BadShare{{3, Inconsistent, nil}}},
		{"bad copy before", [][]byte{bad, parts[1], parts[0], parts[2], parts[3], parts[4]}, []BadShare{{0, Inconsistent, nil}}},
		{"both", [][]byte{bad, parts[1], bad, parts[0], parts[2], parts[3], parts[4], parts[5]}, []BadShare{{0, Inconsistent, nil}, {2, Inconsistent, nil}}},
		// The first value of three x is bad: the decoder must not start
		// from the first value of each x (a = 6 >= t + e = 3 + 3).
		{"bad first at three x", [][]byte{flip(parts[0]), parts[0], flip(parts[1]), parts[1], flip(parts[2]), parts[2], parts[3], parts[4], parts[5]},
			[]BadShare{{0, Inconsistent, nil}, {2, Inconsistent, nil}, {4, Inconsistent, nil}}},
	} {
		got, b, err := CombineRobust(c.parts, 3)
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(b, c.want) {
			t.Errorf("%s: CombineRobust = %q, %v, %v; want %v", c.name, got, b, err, c.want)
		}
		if b, err := Verify(c.parts, 3); err != nil || !slices.Equal(b, c.want) {
			t.Errorf("%s: Verify = %v, %v; want %v", c.name, b, err, c.want)
		}
	}
	// Beyond the bound: two values of one x and too few others to outvote.
	if got, _, err := CombineRobust([][]byte{bad, parts[1], parts[0], parts[2]}, 3); !errors.Is(err, ErrInconsistentShares) {
		t.Errorf("two values of x and two other parts: %q, %v", got, err)
	}
}

// definition is what Verify reports by definition, for parts that parse
// (one length, non-zero x) but may repeat: byte-equal parts are one value;
// the polynomial accepted is one through threshold values of distinct x
// with a >= t + e (a: the x coordinates with a value on it, e: the values
// off it), found by trying every such choice of values; each part off it
// is Inconsistent, each later copy of a value on it Duplicate.
func definition(parts [][]byte, t int) (bad []BadShare, ok bool) {
	n := len(parts[0]) - 1
	var vals []int // the first part of each value
	of := make([]int, len(parts))
	for i, p := range parts {
		j := slices.IndexFunc(vals, func(v int) bool { return bytes.Equal(parts[v], p) })
		if j < 0 {
			j = len(vals)
			vals = append(vals, i)
		}
		of[i] = j
	}
	var on []bool
	forEachSubset(len(vals), t, func(s []int) bool {
		sub := make([][]byte, t)
		for k, v := range s {
			sub[k] = parts[vals[v]]
			for _, q := range sub[:k] {
				if q[n] == sub[k][n] {
					return true
				}
			}
		}
		on = make([]bool, len(vals))
		var xs []byte
		e := 0
		for v, i := range vals {
			p := parts[i]
			on[v] = bytes.Equal(evalAt(sub, p[n]), p[:n])
			switch {
			case !on[v]:
				e++
			case !slices.Contains(xs, p[n]):
				xs = append(xs, p[n])
			}
		}
		ok = len(xs) >= t+e
		return !ok
	})
	if !ok {
		return nil, false
	}
	for i := range parts {
		switch {
		case !on[of[i]]:
			bad = append(bad, BadShare{Position: i, Reason: Inconsistent})
		case vals[of[i]] != i:
			bad = append(bad, BadShare{Position: i, Reason: Duplicate})
		}
	}
	return bad, true
}

// TestVerifyCopiesAgainstDefinition compares Verify and CombineRobust with
// definition on small random cases with copies, other values at one x and
// damage.
func TestVerifyCopiesAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	var located, refused int
	defer func() { t.Logf("located %d, refused %d", located, refused) }()
	for it := range iters {
		secret, parts, th := randomSplit(t, rng, 7, 3, uint64(it))
		size := len(secret)
		given := len(parts) + rng.IntN(4)
		for len(parts) < given {
			p := slices.Clone(parts[rng.IntN(len(parts))])
			if rng.IntN(2) == 0 {
				p[rng.IntN(size)] ^= byte(1 + rng.IntN(3))
			}
			parts = slices.Insert(parts, rng.IntN(len(parts)+1), p)
		}
		want, wantOK := definition(parts, th)
		if wantOK {
			located++
		} else {
			refused++
		}
		bad, err := Verify(parts, th)
		if wantOK != (err == nil) || !slices.Equal(bad, want) {
			t.Fatalf("case %d (t=%d, %x): Verify = %v, %v; want %v, %v", it, th, parts, bad, err, want, wantOK)
		}
		if !wantOK && !errors.Is(err, ErrInconsistentShares) && !errors.Is(err, ErrNotEnoughShares) {
			t.Fatalf("case %d: Verify error %v", it, err)
		}
		got, bad, err := CombineRobust(parts, th)
		if wantOK != (err == nil) || !slices.Equal(bad, want) || wantOK && !bytes.Equal(got, secret) {
			t.Fatalf("case %d: CombineRobust = %x, %v, %v; want %x, %v", it, got, bad, err, secret, want)
		}
	}
}

func TestBerlekampMassey(t *testing.T) {
	// s_k = 3·5^k + 7·9^k obeys the recurrence with connection polynomial
	// (1 − 5z)(1 − 9z) = 1 + (5⊕9)z + 5·9·z².
	var s []byte
	p5, p9 := byte(1), byte(1)
	for range 6 {
		s = append(s, gfMul(3, p5)^gfMul(7, p9))
		p5, p9 = gfMul(p5, 5), gfMul(p9, 9)
	}
	if got, want := berlekampMassey(s), []byte{1, 5 ^ 9, gfMul(5, 9)}; !bytes.Equal(got, want) {
		t.Fatalf("berlekampMassey = %x, want %x", got, want)
	}
	if got := berlekampMassey([]byte{0, 0, 0}); !bytes.Equal(got, []byte{1}) {
		t.Fatalf("berlekampMassey(0) = %x, want 01", got)
	}
}

func BenchmarkVerify(b *testing.B) {
	for _, c := range []struct {
		name       string
		size, n, t int
		bad        int
	}{
		{"32B_n5_t3", 32, 5, 3, 0},
		{"1MiB_n7_t3", 1 << 20, 7, 3, 0},
		{"1MiB_n7_t3_2bad", 1 << 20, 7, 3, 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			parts := testSplit(b, randBytes(rng, c.size), c.n, c.t, 1)
			for i := range c.bad {
				copy(parts[i], randBytes(rng, c.size))
			}
			b.SetBytes(int64(c.size))
			b.ReportAllocs()
			for b.Loop() {
				bad, err := Verify(parts, c.t)
				if err != nil || len(bad) != c.bad {
					b.Fatal(bad, err)
				}
			}
		})
	}
}

func BenchmarkCombineRobust(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := testSplit(b, randBytes(rng, 1<<20), 7, 3, 1)
	copy(parts[4], randBytes(rng, 1<<20))
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := CombineRobust(parts, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParityCheck checks that H annihilates shares and that syndromeAt
// computes H·y.
func TestParityCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct{ m, t int }{{3, 2}, {7, 3}, {20, 3}, {255, 2}} {
		parts := testSplit(t, randBytes(rng, 4), c.m, c.t, uint64(c.m))
		xs, ys, err := parsePartsThreshold(parts, c.t)
		if err != nil {
			t.Fatal(err)
		}
		r := c.m - c.t
		h := parityCheck(xs, c.t)
		hm := newMatrix(active, h, r, c.m)
		for col := range 4 {
			if s := syndromeAt(hm, ys, col); !bytes.Equal(s, make([]byte, r)) {
				t.Fatalf("m=%d t=%d: syndrome of shares = %x", c.m, c.t, s)
			}
		}
		// One changed byte e at part i gives S_k = v_i·x_i^k·e.
		i, e := rng.IntN(c.m), byte(1+rng.IntN(255))
		ys[i][2] ^= e
		s := syndromeAt(hm, ys, 2)
		for k := range r {
			if want := gfMul(h[k*c.m+i], e); s[k] != want {
				t.Fatalf("m=%d t=%d: S_%d = %#x, want %#x", c.m, c.t, k, s[k], want)
			}
		}
	}
}

// TestVerifyEveryKernel runs the checks with each kernel as the engine's,
// on lengths that are not multiples of the vector widths, so that the
// re-checks from an arbitrary column go through every kernel's edges.
func TestVerifyEveryKernel(t *testing.T) {
	saved := active
	defer func() { active = saved }()
	forEachKernel(t, func(t *testing.T, k *kernel) {
		active = k
		rng := rand.New(rand.NewPCG(10, 10))
		for _, size := range []int{1, 31, 100, 1000, blockSize + 77} {
			secret := randBytes(rng, size)
			orig := testSplit(t, secret, 9, 4, uint64(size))
			checkLocated(t, orig, 4, secret, nil)
			for range 5 {
				parts := clone(orig)
				bad := rng.Perm(9)[:1+rng.IntN(2)]
				for _, i := range bad {
					damage(rng, parts[i], rng.Perm(size)[:1+rng.IntN(min(size, 3))])
				}
				slices.Sort(bad)
				checkLocated(t, parts, 4, secret, bad)
			}
		}
	})
}
