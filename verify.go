package shamir

import (
	"crypto/subtle"
	"fmt"
	"slices"
)

// This file checks shares against each other and corrects bad ones.
//
// The y bytes at one position of m shares made with threshold t are the
// values of a polynomial of degree < t at the m distinct x coordinates: a
// codeword of a Reed–Solomon code of length m and dimension t, minimum
// distance m−t+1. So with r = m−t > 0 spare shares, any change to at most r
// shares at a position is detected, and a change to at most ⌊r/2⌋ of them can
// be located and undone.
//
// The error-correcting decoder itself (syndromes, Berlekamp–Massey) is in
// unique.go, shared with the SSMS key shares and chunks.

// Verify checks that parts, made by [Split] (or by Vault's shamir package)
// with the given threshold, agree on one secret: that at every byte position
// all the parts lie on one polynomial of degree < threshold. It needs more
// than threshold parts to check anything: any threshold parts agree.
//
// With m parts there are r = m−threshold spare ones, and:
//
//   - if at most r parts were altered, Verify tells;
//   - if at most ⌊r/2⌋ were, it names exactly those parts.
//
// When the parts agree, Verify returns nil, nil. When they can be made to
// agree by setting aside at most ⌊r/2⌋ of them, it returns those, each with
// the reason [Inconsistent], and a nil error: the smallest such set is then
// unique. When no such set exists, it returns an error wrapping
// [ErrInconsistentShares]: the parts disagree, but which are bad cannot be
// told. The other errors are those of [Combine] and of a threshold outside
// 2…len(parts).
//
// Parts given more than once count once: the later copies of a part are
// named [Duplicate], or [Inconsistent] when the part is. Parts with one x
// coordinate and different bytes are candidates, one of them at least bad;
// the polynomial is then accepted when, with a the number of x coordinates
// that have a part on it and e the number of distinct parts off it,
// a >= threshold + e. That is the bound above when every x is given once,
// and it admits at most one polynomial, whatever the order of the parts.
//
// When more than ⌊r/2⌋ parts are bad, the set Verify names, if there is
// one, is not the set of bad parts: replacing good parts can also make the
// parts agree. For parts of another split or random bytes this is
// vanishingly rare, as it must happen at every byte position at once, but a
// forger who knows the shares can arrange it.
//
// Verify checks the parts with one pass of the engine over them and, when
// they are inconsistent, decodes a byte position for each bad part found.
// Its running time depends on which bytes are wrong but not on the secret.
func Verify(parts [][]byte, threshold int) ([]BadShare, error) {
	_, _, bad, err := decodeParts(parts, threshold)
	return bad, err
}

// CombineRobust is [Combine] for parts that may include bad ones: it
// recovers the secret from parts made with the given threshold, setting
// aside up to ⌊(len(parts)−threshold)/2⌋ bad parts, which it returns, each
// with the reason [Inconsistent] (nil when all agree).
//
// It succeeds exactly when [Verify] returns a nil error, and bad is what
// [Verify] returns. The guarantee is [Verify]'s: if at most
// ⌊(len(parts)−threshold)/2⌋ parts are bad, the secret is right and bad
// lists them. When the bad parts cannot be located, it returns an error
// wrapping [ErrInconsistentShares], and no secret.
//
// With exactly threshold parts there is nothing to check against, and
// CombineRobust is [Combine].
func CombineRobust(parts [][]byte, threshold int) (secret []byte, bad []BadShare, err error) {
	xs, ys, bad, err := decodeParts(parts, threshold)
	if err != nil {
		return nil, nil, err
	}
	// xs and ys are threshold parts on the polynomial the decoder found.
	// A part at x = 0 (Split never makes one; anyone can write one) holds
	// the polynomial's value at 0 itself, and interpolating at one of the
	// known x is not defined: the Lagrange weights assume the target is
	// none of them. The x coordinates are public: branching on them is.
	if i := slices.Index(xs, 0); i >= 0 {
		return slices.Clone(ys[i]), bad, nil
	}
	secret = make([]byte, len(ys[0]))
	interpolate([][]byte{secret}, []byte{0}, xs, ys)
	return secret, bad, nil
}

// decodeParts is what Verify and CombineRobust share: it decodes parts
// made with threshold t, and returns t of them on the polynomial found,
// and the bad ones.
//
// Copies. A part given twice, byte for byte, is one value: the later
// copies are [Duplicate] when the value lies on the polynomial found, and
// [Inconsistent] with it when it does not. Two parts with one x and other
// y bytes are both candidates (one of them, at least, is bad). With a the
// number of x coordinates at which a value lies on the polynomial and e
// the number of distinct values off it, the polynomial is accepted when
// a >= t + e, which for distinct x is the bound 2e <= m − t.
//
// No other polynomial can then be as well supported, and the decoder finds
// the accepted one, if there is one, without a search: it decodes from the
// x coordinates that have one value, erasing those that have several. At
// most one value of such an x can lie on the polynomial, so each of them
// adds at least as much to e as to a; with m1 single x of which s are off
// the polynomial, a − e <= m1 − 2s, and a >= t + e gives 2s <= m1 − t,
// which is within what the decoder corrects on those m1 values.
func decodeParts(parts [][]byte, t int) (xs []byte, ys [][]byte, bad []BadShare, err error) {
	if err := checkScheme(len(parts), t); err != nil {
		return nil, nil, nil, err
	}
	xs, ys, err = parseParts(parts)
	switch {
	case err == nil:
		// Distinct x: the decoder's own bound is a >= t + e, and the parts
		// off the polynomial are those it finds.
		wrong, ok := findBad(xs, ys, t)
		if !ok {
			return nil, nil, nil, inconsistent(len(parts), t)
		}
		xs, ys = onPolynomial(xs, ys, wrong, t)
		return xs, ys, badShares(wrong), nil
	case err != errDuplicatePart:
		return nil, nil, nil, err
	}
	return decodeCopies(parts, t)
}

// decodeCopies is decodeParts for parts among which an x repeats.
func decodeCopies(parts [][]byte, t int) (xs []byte, ys [][]byte, bad []BadShare, err error) {
	if _, _, err := appendParts(nil, nil, dedupe(parts)); err != nil && err != errDuplicatePart {
		return nil, nil, nil, err
	}
	vs, dups := partVariants(parts)
	if n := countX(vs); n < t {
		return nil, nil, nil, errTooFewDistinct(n, t)
	}
	vs, dups = byX(vs, dups)
	// The search of unique.go: the first value of the first t x, then the
	// values alone at their x that the decoder does not flag. No subsets:
	// what is accepted is unique, and beyond the bound nothing is.
	k := &partKind{vs: vs, t: t}
	var w walk
	if !w.search(k, t, 0) {
		return nil, nil, nil, inconsistent(len(parts), t)
	}
	on := k.on
	for i, v := range vs {
		if !on[i] {
			bad = append(bad, BadShare{Position: v.pos, Reason: Inconsistent})
		}
	}
	for _, d := range dups {
		r := Duplicate
		if !on[d.of] {
			r = Inconsistent
		}
		bad = append(bad, BadShare{Position: d.pos, Reason: r})
	}
	slices.SortFunc(bad, func(a, b BadShare) int { return a.Position - b.Position })
	xs, ys = nil, nil
	for i, v := range vs {
		if on[i] && len(xs) < t && !slices.Contains(xs, v.x) {
			xs, ys = append(xs, v.x), append(ys, v.y)
		}
	}
	return xs, ys, bad, nil
}

// onPolynomial returns t of the parts (xs, ys) not in wrong, in place: the
// polynomial the decoder found goes through them.
func onPolynomial(xs []byte, ys [][]byte, wrong []int, t int) ([]byte, [][]byte) {
	n := 0
	for i := range xs {
		if n < t && !slices.Contains(wrong, i) {
			xs[n], ys[n] = xs[i], ys[i]
			n++
		}
	}
	return xs[:n], ys[:n]
}

// A partVariant is one distinct part: its x, its y bytes and its position.
type partVariant struct {
	x   byte
	y   []byte
	pos int
}

// A partCopy is a later byte-equal copy of a part: its position and the
// variant it copies.
type partCopy struct{ pos, of int }

// dedupe returns parts without the later of byte-equal copies, for the
// checks of parseParts.
func dedupe(parts [][]byte) [][]byte {
	vs, _ := partVariants(parts)
	out := make([][]byte, len(vs))
	for i, v := range vs {
		out[i] = parts[v.pos]
	}
	return out
}

// partVariants returns the distinct parts, by position, and the later
// copies of each. Parts are compared, x first, in constant time over their
// y bytes.
func partVariants(parts [][]byte) (vs []partVariant, dups []partCopy) {
	for i, p := range parts {
		if len(p) < 2 {
			vs = append(vs, partVariant{pos: i})
			continue
		}
		n := len(p) - ShareOverhead
		x := p[n]
		if j := slices.IndexFunc(vs, func(v partVariant) bool {
			return v.x == x && len(v.y) == n && subtle.ConstantTimeCompare(v.y, p[:n]) == 1
		}); j >= 0 {
			dups = append(dups, partCopy{pos: i, of: j})
			continue
		}
		vs = append(vs, partVariant{x: x, y: p[:n], pos: i})
	}
	return vs, dups
}

// countX returns the number of distinct x coordinates of vs.
func countX(vs []partVariant) int {
	var seen [256]bool
	n := 0
	for _, v := range vs {
		if !seen[v.x] {
			seen[v.x] = true
			n++
		}
	}
	return n
}

// byX returns vs sorted by x (among equal x, by position), and dups with
// the places of their variants in it.
func byX(vs []partVariant, dups []partCopy) ([]partVariant, []partCopy) {
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(vs[a].x) - int(vs[b].x) })
	sorted := make([]partVariant, len(vs))
	inv := make([]int, len(vs))
	for k, i := range order {
		sorted[k], inv[i] = vs[i], k
	}
	for i := range dups {
		dups[i].of = inv[dups[i].of]
	}
	return sorted, dups
}

// A partKind is plain parts as the search of unique.go sees them: the
// distinct parts, by x; a try interpolates t of them and compares the
// others (agreeParts), and on holds the agreement of the polynomial
// accepted.
type partKind struct {
	vs []partVariant
	t  int
	on []bool
}

func (k *partKind) count() int      { return len(k.vs) }
func (k *partKind) x(i int) int     { return int(k.vs[i].x) }
func (k *partKind) member(int) bool { return true }

// locate returns t of single (distinct x) that the error-correcting
// decoder does not flag, or nil.
func (k *partKind) locate(single []int) []int {
	xs := make([]byte, len(single))
	ys := make([][]byte, len(single))
	for i, j := range single {
		xs[i], ys[i] = k.vs[j].x, k.vs[j].y
	}
	wrong, ok := findBad(xs, ys, k.t)
	if !ok {
		return nil
	}
	var sub []int
	for i, j := range single {
		if len(sub) < k.t && !slices.Contains(wrong, i) {
			sub = append(sub, j)
		}
	}
	if len(sub) < k.t {
		return nil
	}
	return sub
}

func (k *partKind) try(sub []int) bool {
	px := make([]byte, len(sub))
	py := make([][]byte, len(sub))
	for i, j := range sub {
		px[i], py[i] = k.vs[j].x, k.vs[j].y
	}
	on, ok := agreeParts(k.vs, px, py, k.t)
	if ok {
		k.on = on
	}
	return ok
}

// agreeParts reports which of vs lie on the polynomial through the t
// points (px, py), and whether it is accepted: a >= t + e.
func agreeParts(vs []partVariant, px []byte, py [][]byte, t int) ([]bool, bool) {
	// The value of the polynomial at every x of vs not among px.
	var targets []byte
	for _, v := range vs {
		if !slices.Contains(px, v.x) && !slices.Contains(targets, v.x) {
			targets = append(targets, v.x)
		}
	}
	vals := make([][]byte, len(targets))
	if len(targets) > 0 {
		buf := make([]byte, len(targets)*len(py[0]))
		defer clear(buf)
		for i := range vals {
			vals[i] = buf[i*len(py[0]) : (i+1)*len(py[0])]
		}
		interpolate(vals, targets, px, py)
	}
	on := make([]bool, len(vs))
	for i, v := range vs {
		want := py[max(0, slices.Index(px, v.x))]
		if k := slices.Index(targets, v.x); k >= 0 {
			want = vals[k]
		}
		on[i] = subtle.ConstantTimeCompare(want, v.y) == 1
	}
	a, e := support(len(vs), func(i int) byte { return vs[i].x }, on)
	return on, a >= t+e
}

// errTooFewDistinct is the error of parts with fewer distinct x than the
// threshold.
func errTooFewDistinct(n, t int) error {
	return fmt.Errorf("%w: %d distinct parts given, threshold %d", ErrNotEnoughShares, n, t)
}

// inconsistent is the error of m parts made with threshold t that disagree
// in a way no ⌊(m−t)/2⌋ of them explain.
func inconsistent(m, t int) error {
	return fmt.Errorf("%w: more than %d of the %d parts are bad, or they were not made with threshold %d",
		ErrInconsistentShares, (m-t)/2, m, t)
}

// badShares returns the parts at positions as inconsistent shares.
func badShares(positions []int) []BadShare {
	if len(positions) == 0 {
		return nil
	}
	bad := make([]BadShare, len(positions))
	for i, p := range positions {
		bad[i] = BadShare{Position: p, Reason: Inconsistent}
	}
	return bad
}

// parsePartsThreshold checks parts as Combine does and against threshold, and returns
// their x coordinates and y bytes.
func parsePartsThreshold(parts [][]byte, threshold int) (xs []byte, ys [][]byte, err error) {
	if err := checkScheme(len(parts), threshold); err != nil {
		return nil, nil, err
	}
	return parseParts(parts)
}
