package shamir

import (
	"bytes"
	"slices"
)

// This file holds what the three unique decoders share: plain parts
// (Verify, CombineRobust: verify.go), SSMS key shares (ssms_key.go) and
// SSMS chunks (ssms_decode.go). Each of them is a Reed–Solomon codeword
// given with errors (values altered) and erasures (values missing), and
// each is accepted by one rule: with a the number of x coordinates at which
// a value given agrees with the codeword and e the number of distinct
// values that disagree, a >= t + e. Any other codeword agrees with it at no
// more than t−1 coordinates, so it has at most t−1+e supporters: the
// accepted codeword is unique, and does not depend on the order of the
// values. The decoder below finds it without a search whenever it exists:
// a coordinate with several values adds at least as much to e as to a, so
// with m1 coordinates that have one value, s of them off the codeword,
// a >= t + e gives 2s <= m1 − t, within what the syndrome decoder corrects
// on those m1 values with the others erased. The search (walk.search) is
// written once here; each kind of value supplies its values, its use of
// the syndrome decoder, and a try: interpolate and compare for plain parts
// (verify.go), interpolate and check the key check for key shares, or the
// key polynomial through the key (ssms_key.go), decode, unpad, open and
// compare for chunks (ssms_decode.go). Beyond the bound, a bounded number
// of subsets (maxTries) tells a refusal with two sets from none.
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

// A kind is what the search needs of one kind of value (key shares, the
// records of a chunk): its values, sorted by x coordinate, which of them
// may take part, how the error-correcting decoder locates errors among
// values alone at their x, and how a set of them is tried (decoded,
// checked, and judged by the bound).
type kind interface {
	count() int
	x(i int) int
	member(i int) bool
	// locate returns at least size of single (members alone at their x,
	// more than size of them) that the error-correcting decoder does not
	// flag, or nil.
	locate(single []int) []int
	// try reports whether the values sub, size of them at distinct x,
	// give the codeword sought.
	try(sub []int) bool
}

// A walk searches for the unique codeword of the values of a kind, and
// keeps its scratch from search to search.
type walk struct {
	buf                              []int
	first, single, members, idx, sub []int
}

// search tries, from cheap to costly, sets of size members at distinct x:
// the first member of each of the first size coordinates (the usual case);
// then, among the members alone at their x, those the error-correcting
// decoder does not flag, the coordinates with several values erased (within
// the bound, these lie on the codeword whatever else was given: above);
// then subsets in lexicographic order, up to tries of them, distinct x or
// not, beyond the bound, to tell a refusal with two sets from none. It
// reports whether a try succeeded.
func (w *walk) search(k kind, size, tries int) bool {
	w.collect(k)
	if len(w.first) < size {
		return false
	}
	if k.try(w.first[:size]) {
		return true
	}
	if w.fromSingles(k, size) {
		return true
	}
	return w.subsets(k, size, tries)
}

// tryFirst is the first step of search alone: it tries the first member
// of each of the first size coordinates.
func (w *walk) tryFirst(k kind, size int) bool {
	w.collect(k)
	return len(w.first) >= size && k.try(w.first[:size])
}

// collect sets w.members to the members of k, w.first to the first member
// of each x, and w.single to the members alone at their x among all values.
func (w *walk) collect(k kind) {
	n := k.count()
	if cap(w.buf) < 3*n {
		w.buf = make([]int, 3*n) // one allocation for the three lists
	}
	w.first, w.single, w.members = w.buf[:0:n], w.buf[n:n:2*n], w.buf[2*n:2*n:3*n]
	for i := range n {
		if !k.member(i) {
			continue
		}
		w.members = append(w.members, i)
		if len(w.first) == 0 || k.x(w.first[len(w.first)-1]) != k.x(i) {
			w.first = append(w.first, i)
		}
		if (i == 0 || k.x(i-1) != k.x(i)) && (i+1 == n || k.x(i+1) != k.x(i)) {
			w.single = append(w.single, i)
		}
	}
}

// fromSingles tries size of the members alone at their x that the
// error-correcting decoder does not flag, when they are not the first
// values already tried.
func (w *walk) fromSingles(k kind, size int) bool {
	switch single := w.single; {
	case len(single) > size:
		sub := k.locate(single)
		return sub != nil && k.try(sub[:size])
	case len(single) == size && len(w.first) > size:
		return k.try(single)
	}
	return false
}

// subsets tries subsets of size members at distinct x, in lexicographic
// order, until one succeeds or tries subsets were enumerated.
func (w *walk) subsets(k kind, size, tries int) bool {
	m := len(w.members)
	if size == 0 || size > m {
		return false
	}
	w.idx = slices.Grow(w.idx[:0], size)[:size]
	w.sub = slices.Grow(w.sub[:0], size)[:size]
	for i := range w.idx {
		w.idx[i] = i
	}
	for range tries {
		distinct := true
		for i, j := range w.idx {
			w.sub[i] = w.members[j]
			if i > 0 && k.x(w.sub[i]) == k.x(w.sub[i-1]) {
				distinct = false
			}
		}
		if distinct && k.try(w.sub) {
			return true
		}
		if !nextSubset(w.idx, m) {
			return false
		}
	}
	return false
}

// support counts, of n values whose x coordinates are x(i) and whose
// agreement with a codeword is on[i], a: the distinct x at which a value
// agrees, and e: the values that disagree. The codeword is accepted when
// a >= t + e (above).
func support(n int, x func(i int) byte, on []bool) (a, e int) {
	var seen [256]bool
	for i := range n {
		switch {
		case !on[i]:
			e++
		case !seen[x(i)]:
			seen[x(i)] = true
			a++
		}
	}
	return a, e
}

// maxTries bounds the subsets of threshold values the decoder tries for one
// chunk: C(given, threshold) can be astronomical, and each try decodes (an
// inversion of a threshold×threshold matrix) and opens, so the bound falls
// with the threshold.
func maxTries(t int) int { return max(16, 1024*16*16/(t*t)) }

// nextSubset advances idx, increasing positions below n, to the next
// combination in lexicographic order, and reports whether there is one.
func nextSubset(idx []int, n int) bool {
	t := len(idx)
	i := t - 1
	for i >= 0 && idx[i] == n-t+i {
		i--
	}
	if i < 0 {
		return false
	}
	idx[i]++
	for j := i + 1; j < t; j++ {
		idx[j] = idx[j-1] + 1
	}
	return true
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
		good = good[:0]
		for i := range m {
			if !isBad[i] {
				good = append(good, i)
			}
		}
		c.good = good
		c.check = systematicCheck(xs, good, t, scale)
		col := c.pass()
		if col < 0 {
			break
		}
		if h == nil {
			h = newMatrix(active, scaledParityCheck(xs, t, scale), m-t, m)
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

// systematicCheck returns the check of the parts good (T = good[:t], R =
// good[t:]) that findBadScaled describes: the Lagrange matrix from T's x
// coordinates to R's, scaled.
func systematicCheck(xs []byte, good []int, t int, scale []byte) *matrix {
	var goodX [255]byte
	for k, i := range good {
		goodX[k] = xs[i]
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
	return newMatrix(active, coef, len(good)-t, t)
}

// scaledParityCheck is parityCheck with column i multiplied by scale[i]
// (nil: all ones).
func scaledParityCheck(xs []byte, t int, scale []byte) []byte {
	m := len(xs)
	hc := parityCheck(xs, t)
	if scale != nil {
		for k := range m - t {
			for i := range m {
				hc[k*m+i] = gfMulPublic(hc[k*m+i], scale[i])
			}
		}
	}
	return hc
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
// zero, or -1. The rows are syndromes, which depend on the errors alone,
// not on the secret. bytes.Equal against zeros (csprng.go, never
// written) compares 4 KiB at a time in the runtime's vector loop: scanning is most of the time Verify
// takes on shares that agree, and a byte loop ran at a third of the speed.
func firstNonZero(rows [][]byte, from, to int) int {
	first := to
	for _, row := range rows {
		for i := from; i < first; i += len(zeros) {
			end := min(i+len(zeros), first)
			if bytes.Equal(row[i:end], zeros[:end-i]) {
				continue
			}
			for j := i; j < end; j++ {
				if row[j] != 0 {
					first = j
					break
				}
			}
			break
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
