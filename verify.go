package shamir

import (
	"crypto/subtle"
	"encoding/binary"
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
// The parity checks are those of the dual code. For distinct x_0…x_{m−1} let
// v_i = 1/Π_{j≠i}(x_i − x_j). For any polynomial f of degree < m,
// Σ_i v_i·f(x_i) is the coefficient of x^{m−1} of f (it is the leading term
// of f's Lagrange form). With f = x^k·p and deg p < t, f has degree < m for
// every k < r, so the r×m matrix H[k][i] = v_i·x_i^k has H·y = 0 for every
// codeword y; its rows are independent (a scaled Vandermonde matrix), so the
// codewords are exactly its kernel.
//
// If y = c + e with c a codeword and e the errors, the syndrome S = H·y = H·e
// is S_k = Σ_{i∈E} (v_i·e_i)·x_i^k: a sum of powers of the "locators" x_i of
// the bad shares. Berlekamp–Massey finds the shortest linear recurrence the
// sequence S_0…S_{r−1} obeys; when at most ⌊r/2⌋ shares are wrong, its
// connection polynomial is Λ(z) = Π_{i∈E}(1 − x_i·z), whose roots give the
// bad shares.
//
// The syndrome depends on the errors only, never on the secret. Computing it
// uses the engine and is constant time; what follows branches on it, which
// tells an observer about the errors (which Verify reports anyway) and nothing
// about the secret. Interpolating the secret in CombineRobust goes through the
// engine again and is constant time.

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
	single := singleX(vs)
	if len(single) < t {
		return nil, nil, nil, inconsistent(len(parts), t)
	}
	on, ok := judgeParts(vs, single, t)
	if !ok {
		return nil, nil, nil, inconsistent(len(parts), t)
	}
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

// singleX returns the places in vs of the variants whose x no other
// variant has.
func singleX(vs []partVariant) []int {
	var count [256]int
	for _, v := range vs {
		count[v.x]++
	}
	var single []int
	for i, v := range vs {
		if count[v.x] == 1 {
			single = append(single, i)
		}
	}
	return single
}

// judgeParts decodes the parts choice (distinct x), and reports which of vs
// lie on the polynomial found, and whether it is accepted: a >= t + e.
func judgeParts(vs []partVariant, choice []int, t int) ([]bool, bool) {
	xs := make([]byte, len(choice))
	ys := make([][]byte, len(choice))
	for i, j := range choice {
		xs[i], ys[i] = vs[j].x, vs[j].y
	}
	wrong, ok := findBad(xs, ys, t)
	if !ok {
		return nil, false
	}
	if len(choice) == len(vs) {
		// One part per x: the decoder's own bound is a >= t + e, and the
		// parts off the polynomial are those it found.
		on := make([]bool, len(vs))
		for i := range on {
			on[i] = true
		}
		for _, w := range wrong {
			on[choice[w]] = false
		}
		return on, true
	}
	var px []byte
	var py [][]byte
	for i := range xs {
		if len(px) < t && !slices.Contains(wrong, i) {
			px, py = append(px, xs[i]), append(py, ys[i])
		}
	}
	return agreeParts(vs, px, py, t)
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
	a, e := 0, 0
	var seen []byte
	for i, v := range vs {
		want := py[max(0, slices.Index(px, v.x))]
		if k := slices.Index(targets, v.x); k >= 0 {
			want = vals[k]
		}
		on[i] = subtle.ConstantTimeCompare(want, v.y) == 1
		switch {
		case !on[i]:
			e++
		case !slices.Contains(seen, v.x):
			seen = append(seen, v.x)
			a++
		}
	}
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

// parityCheck returns the (len(xs)−t)×len(xs) matrix H[k][i] = v_i·x_i^k,
// v_i = 1/Π_{j≠i}(x_i − x_j), whose kernel is the values at xs of the
// polynomials of degree < t. The x coordinates must be distinct.
func parityCheck(xs []byte, t int) []byte {
	m, r := len(xs), len(xs)-t
	h := make([]byte, r*m)
	for i, xi := range xs {
		d := byte(1)
		for j, xj := range xs {
			if j != i {
				d = gfMulPublic(d, xi^xj)
			}
		}
		v := gfInvPublic(d)
		for k := range r {
			h[k*m+i] = v
			v = gfMulPublic(v, xi)
		}
	}
	return h
}

// findBad returns the smallest set of parts, of at most ⌊(m−t)/2⌋, outside
// which all parts are consistent (nil if all are), in increasing order, and
// whether there is one.
//
// It keeps a set B of parts known to be bad, initially empty, and checks the
// parts outside B at every position. At a position where they are
// inconsistent, it decodes that position with all m parts; the parts found
// wrong there must be in every set that works, and at least one is not yet
// in B (else the parts outside B would be consistent there). It adds them to
// B and checks again with the parts outside the new B. A position where the
// parts outside B were consistent needs no second look: so are the fewer
// parts outside a larger B. So the consistent common case is one pass of
// the engine, and a part that is bad everywhere costs one decode, not one
// per byte.
//
// The pass is cut into the engine's parallel chunks, checked on up to
// GOMAXPROCS goroutines; each chunk stops at its first inconsistent
// position, and the lowest of those is decoded. Then the chunks that
// stopped go on from where they stopped, with the new B.
//
// The check needs some parity-check matrix of the parts outside B, not
// necessarily H: the cheapest is the systematic one. With the first t of them
// as T and the others as R, the parts are consistent exactly when
// L·y_T = y_R, L the Lagrange matrix from T's x coordinates to R's; so
// y_R + L·y_T is a syndrome that costs |R|·t multiply-adds per byte instead
// of |R|·m. Like H·y, it is zero on the shares and depends on the errors
// alone.
func findBad(xs []byte, ys [][]byte, t int) (bad []int, ok bool) {
	return findBadScaled(xs, ys, t, nil)
}

// findBadScaled is findBad for a generalized Reed–Solomon code: the rows ys
// are consistent when, at every position, scale[i]·ys[i] are the values at
// xs of one polynomial of degree < t. The scale factors are public and not
// zero; nil means all ones. SSMS's systematic Cauchy code is one
// (ssms_decode.go).
//
// The checks scale accordingly: y_R = L·y_T becomes
// y_R = diag(1/scale_R)·L·diag(scale_T)·y_T, and H's column i is multiplied
// by scale[i].
func findBadScaled(xs []byte, ys [][]byte, t int, scale []byte) (bad []int, ok bool) {
	m, n := len(xs), len(ys[0])
	if m == t {
		return nil, true
	}
	maxBad := (m - t) / 2
	var h *matrix // the parity checks H of all parts, for decodeAt

	c := &consistency{
		ys: ys,
		t:  t,
		// Each part found bad costs a second look at the rest of a block
		// in each chunk that stopped. Blocks of blockSize/(maxBad+1) bound
		// those to about one block per chunk in all, however many parts
		// are bad.
		block: min(n, max(256, blockSize/(maxBad+1))),
		next:  make([]int, (n+parallelChunk-1)/parallelChunk),
	}
	for i := range c.next {
		c.next[i] = i * parallelChunk
	}
	var isBad [256]bool
	good := make([]int, 0, m) // the parts outside B: T, then R
	for {
		var goodX [255]byte
		good = good[:0]
		for i := range m {
			if !isBad[i] {
				goodX[len(good)] = xs[i]
				good = append(good, i)
			}
		}
		var coefBuf [64]byte
		coef := lagrange(coefBuf[:0], goodX[:t], goodX[t:len(good)])
		if scale != nil {
			for r, i := range good[t:] {
				inv := gfInvPublic(scale[i])
				for c, j := range good[:t] {
					coef[r*t+c] = gfMulPublic(coef[r*t+c], gfMulPublic(scale[j], inv))
				}
			}
		}
		c.good = good
		c.check = newMatrix(active, coef, len(good)-t, t)
		col := c.pass()
		if col < 0 {
			break
		}
		if h == nil {
			hc := parityCheck(xs, t)
			if scale != nil {
				for k := range m - t {
					for i := range m {
						hc[k*m+i] = gfMulPublic(hc[k*m+i], scale[i])
					}
				}
			}
			h = newMatrix(active, hc, m-t, m)
		}
		wrong, ok := decodeAt(h, xs, ys, col)
		if !ok {
			return nil, false
		}
		added := false
		for _, i := range wrong {
			if !isBad[i] {
				isBad[i], added = true, true
				bad = append(bad, i)
			}
		}
		// added is always true by the argument above; checking it
		// keeps a mistake from becoming an endless loop.
		if !added || len(bad) > maxBad {
			return nil, false
		}
	}
	slices.Sort(bad)
	return bad, true
}

// A consistency check of the parts good (T = good[:t], R = good[t:]): the
// syndrome y_R + check·y_T, computed over the engine's parallel chunks, a
// block of columns at a time.
type consistency struct {
	check *matrix
	good  []int
	ys    [][]byte
	t     int
	block int

	// next[i] is where the check of chunk i goes on: the chunk's end once
	// the parts are consistent there.
	next []int
}

// pass checks every chunk from where its check stopped, on up to GOMAXPROCS
// goroutines, and returns the first column where the parts are
// inconsistent, or -1. Each chunk stops at its first inconsistent column.
func (c *consistency) pass() int {
	n := len(c.ys[0])
	forChunks(n, func() (func(i, lo, hi int), func()) {
		rows := make([][]byte, len(c.good))
		buf := make([]byte, (len(c.good)-c.t)*c.block)
		return func(i, _, hi int) {
			if c.next[i] < hi {
				c.next[i] = c.first(rows, buf, c.next[i], hi)
				// The scratch only ever holds syndromes, which depend
				// on the errors alone; cleared anyway, as an error is a
				// difference of share bytes.
				clear(buf)
			}
		}, nil
	})
	for i, col := range c.next {
		if col < min(n, (i+1)*parallelChunk) {
			return col
		}
	}
	return -1
}

// first returns the first column in [lo, hi) where the parts are
// inconsistent, or hi. rows has room for len(c.good) row headers, and buf
// for len(c.good)−t blocks.
func (c *consistency) first(rows [][]byte, buf []byte, lo, hi int) int {
	t, rest := c.t, c.good[c.t:]
	ins, synd := rows[:t], rows[t:len(c.good)]
	for off := lo; off < hi; off += c.block {
		bn := min(c.block, hi-off)
		for j, i := range c.good[:t] {
			ins[j] = c.ys[i][off : off+bn]
		}
		for k, i := range rest {
			synd[k] = buf[k*c.block : k*c.block+bn]
			copy(synd[k], c.ys[i][off:off+bn])
		}
		c.check.apply(ins, synd, 0, bn, true)
		if col := firstNonZero(synd, 0, bn); col >= 0 {
			return off + col
		}
	}
	return hi
}

// firstNonZero returns the first column in [from, to) where a row is not
// zero, or -1.
func firstNonZero(rows [][]byte, from, to int) int {
	first := to
	for _, row := range rows {
		i := from
		for ; i+8 <= first; i += 8 {
			if binary.LittleEndian.Uint64(row[i:]) != 0 {
				break
			}
		}
		for ; i < first; i++ {
			if row[i] != 0 {
				first = i
				break
			}
		}
	}
	if first == to {
		return -1
	}
	return first
}

// syndromeAt returns H·y for the byte position col of ys, h holding H: the
// engine applies H to rows of one byte, so the secret bytes of y only meet
// its kernels.
func syndromeAt(h *matrix, ys [][]byte, col int) []byte {
	ins := make([][]byte, len(ys))
	for i, y := range ys {
		ins[i] = y[col : col+1]
	}
	s := make([]byte, h.rows)
	outs := make([][]byte, h.rows)
	for k := range outs {
		outs[k] = s[k : k+1]
	}
	h.apply(ins, outs, 0, 1, false)
	return s
}

// decodeAt returns the parts that are wrong at byte position col, given that
// at most ⌊(m−t)/2⌋ are, or false if no such set of parts explains the
// syndrome.
//
// From the syndrome on, everything depends on the errors alone, never on
// the secret: gfMul below and in berlekampMassey multiplies syndromes, the
// connection polynomial they give and public x coordinates, so it is no
// loop over secret bytes (and is constant time anyway).
func decodeAt(h *matrix, xs []byte, ys [][]byte, col int) (wrong []int, ok bool) {
	s := syndromeAt(h, ys, col)
	r := len(s)
	lambda := berlekampMassey(s)
	errs := len(lambda) - 1
	if errs == 0 || 2*errs > r {
		return nil, false
	}
	// x_i is a locator when Λ(1/x_i) = 0, that is when
	// x_i^L·Λ(1/x_i) = Σ_j Λ_j·x_i^(L−j) = 0 (x_i ≠ 0): evaluate by Horner.
	// Λ has at most L roots; finding L of them among the x coordinates means
	// Λ = Π(1 − x_i·z) over them, so S is a combination of their powers
	// alone (with non-zero weights, as no shorter recurrence exists): the
	// errors are at those parts and nowhere else.
	for i, x := range xs {
		var v byte
		for _, c := range lambda {
			v = gfMul(v, x) ^ c
		}
		if v == 0 {
			wrong = append(wrong, i)
		}
	}
	if len(wrong) != errs {
		return nil, false
	}
	return wrong, true
}

// berlekampMassey returns the connection polynomial Λ, Λ_0 = 1, of the
// shortest linear recurrence S_k = Σ_{j=1}^{L} Λ_j·S_{k−j} (in characteristic
// 2, − is +) that generates s, as its L+1 coefficients. s is a syndrome,
// which depends on the errors only, not on the secret: its multiplications
// are not over secret bytes.
func berlekampMassey(s []byte) []byte {
	n := len(s)
	c := make([]byte, n+1) // the current connection polynomial
	b := make([]byte, n+1) // c as it was before the last length change
	tmp := make([]byte, n+1)
	c[0], b[0] = 1, 1
	l := 0        // the length of the recurrence c describes
	shift := 1    // how many steps ago b was current
	db := byte(1) // the discrepancy that made b obsolete
	for k := range n {
		// The discrepancy: how far c's prediction of s[k] is off.
		d := s[k]
		for j := 1; j <= l; j++ {
			d ^= gfMul(c[j], s[k-j])
		}
		if d == 0 {
			shift++
			continue
		}
		// c − (d/db)·z^shift·b predicts s[0…k] correctly.
		q := gfMul(d, gfInv(db))
		lengthen := 2*l <= k
		if lengthen {
			copy(tmp, c)
		}
		for j := shift; j <= n; j++ {
			c[j] ^= gfMul(q, b[j-shift])
		}
		if lengthen {
			l = k + 1 - l
			b, tmp = tmp, b
			db = d
			shift = 1
		} else {
			shift++
		}
	}
	return c[:l+1]
}
