package shamir

import (
	"crypto/subtle"
	"slices"
)

// This file finds an SSMS split's key and key polynomial from its key
// shares, for openSplit (ssms_open.go). Key shares are secret: they meet
// only the engine (interpolate) and constant-time comparisons, and are
// never used to index memory; the code branches on which of them agree,
// which is reported anyway.

// A keyVar is one value given for the key share of one index, and the
// shares that give it: copies of a header are one keyVar.
type keyVar struct {
	x      byte
	y      *[keySize]byte
	h      *header // the first share's
	shares []*shareIn
}

// keyVars returns the distinct headers of shares, which are of one split
// name and one set of parameters and sorted by index. Copies are found by
// their index and public bytes (header.samePublic: the batch, signature
// and path; a map of the signatures once an index has many
// values, so that many copies cost linear time), and then their key shares
// are compared in constant time: no memory is indexed by a key share.
func keyVars(shares []*shareIn) []keyVar {
	vs := make([]keyVar, 0, len(shares))
	var idx sameIndex
	for k, s := range shares {
		if len(vs) == 0 || vs[len(vs)-1].x != s.hdr.x {
			idx = sameIndex{start: len(vs)}
		}
		if j := idx.find(vs, s); j >= 0 {
			vs[j].shares = append(vs[j].shares, s)
			continue
		}
		// A sub-slice with no room: appending a copy allocates, and never
		// writes into shares.
		vs = append(vs, keyVar{x: s.hdr.x, y: &s.hdr.keyShare, h: s.hdr, shares: shares[k : k+1 : k+1]})
		idx.added(vs)
	}
	return vs
}

// sameIndex finds, among the values of one index in vs (from start on),
// the one a header copies: all of them are looked at while they are few,
// those with the header's signature (one per batch), by a map, once there
// are many.
type sameIndex struct {
	start int
	bySig map[[sigSize]byte][]int
}

// find returns the place in vs of the value of s's index with its public
// bytes and an equal key share (compared in constant time), or −1.
func (x *sameIndex) find(vs []keyVar, s *shareIn) int {
	same := func(j int) bool {
		return vs[j].h.samePublic(s.hdr) && subtle.ConstantTimeCompare(vs[j].y[:], s.hdr.keyShare[:]) == 1
	}
	if x.bySig != nil {
		for _, j := range x.bySig[s.hdr.sig] {
			if same(j) {
				return j
			}
		}
		return -1
	}
	for j := x.start; j < len(vs); j++ {
		if same(j) {
			return j
		}
	}
	return -1
}

// added records the last value of vs, new at the index.
func (x *sameIndex) added(vs []keyVar) {
	last := len(vs) - 1
	switch {
	case x.bySig != nil:
		x.bySig[vs[last].h.sig] = append(x.bySig[vs[last].h.sig], last)
	case len(vs)-x.start > 16:
		x.bySig = make(map[[sigSize]byte][]int)
		for j := x.start; j < len(vs); j++ {
			x.bySig[vs[j].h.sig] = append(x.bySig[vs[j].h.sig], j)
		}
	}
}

// firstPerIndex returns the places in vs of the first value of each index,
// leaving out those set in out (nil: none). vs is by index.
func firstPerIndex(vs []keyVar, out []bool) []int {
	var reps []int
	for i, v := range vs {
		if (out == nil || !out[i]) && (len(reps) == 0 || vs[reps[len(reps)-1]].x != v.x) {
			reps = append(reps, i)
		}
	}
	return reps
}

// tryKey sets key to the constant term of the polynomial of degree < len(sub)
// through the values sub of vs, and reports whether it gives the key check
// check, to which the split ID commits: then it is the split's key.
func tryKey(vs []keyVar, sub []int, check *[keyCheckSize]byte, key *[keySize]byte) bool {
	xs := make([]byte, len(sub))
	ys := make([][]byte, len(sub))
	for i, j := range sub {
		xs[i], ys[i] = vs[j].x, vs[j].y[:]
	}
	interpolate([][]byte{key[:]}, []byte{0}, xs, ys)
	return keyCheckOf(key) == *check
}

// findKey looks for threshold t key shares among vs whose key, key, gives
// the key check check, to which the split ID commits. Any key found is
// the split's, and a polynomial whose key fails is no holder's: the values
// on it are set aside and the rest decoded again. In each round: the first
// value of the first t indexes; those the error-correcting decoder does not
// flag. Then a bounded search of subsets. Before the rounds, the first
// value of the first t indexes, and the values alone at their index that
// the error-correcting decoder does not flag (the search of unique.go):
// within the bound, these give the key whatever was given beside them at
// other indexes. The combiner calls it on headers whose
// signatures hold (ssms_open.go), so an outsider's key shares are never
// among vs: only holders of the key can make its values disagree.
func findKey(vs []keyVar, t int, check *[keyCheckSize]byte, key *[keySize]byte) bool {
	try := func(sub []int) bool { return tryKey(vs, sub, check, key) }
	// The first value of the first t indexes, the usual case; then,
	// within the bound, the values alone at their index give the key.
	var w walk
	k := &keyKind{vs: vs, t: t, f: try}
	if w.search(k, t, 0) {
		return true
	}
	out := make([]bool, len(vs)) // set aside: on a polynomial whose key failed
	for round := 0; round < 8; round++ {
		reps := firstPerIndex(vs, out)
		if len(reps) < t {
			break
		}
		if try(reps[:t]) {
			return true
		}
		sub := reps[:t]
		if len(reps) > t {
			if sub = unflagged(vs, reps, t); sub == nil {
				break
			}
			if try(sub) {
				return true
			}
		}
		on := onPoly(vs, sub)
		for i := range vs {
			out[i] = out[i] || on[i]
		}
	}
	if w.subsets(k, t, maxTries(t+1)) {
		return true
	}
	clear(key[:])
	return false
}

// A keyKind is key shares as the search of unique.go sees them: vs, by
// index; a try is f.
type keyKind struct {
	vs []keyVar
	t  int
	f  func(sub []int) bool
}

func (k *keyKind) count() int                { return len(k.vs) }
func (k *keyKind) x(i int) int               { return int(k.vs[i].x) }
func (k *keyKind) member(int) bool           { return true }
func (k *keyKind) locate(single []int) []int { return unflagged(k.vs, single, k.t) }
func (k *keyKind) try(sub []int) bool        { return k.f(sub) }

// unflagged returns t of the values reps (distinct x) that the
// error-correcting decoder does not flag, or nil if it flags too many.
func unflagged(vs []keyVar, reps []int, t int) []int {
	xs := make([]byte, len(reps))
	ys := make([][]byte, len(reps))
	for i, j := range reps {
		xs[i], ys[i] = vs[j].x, vs[j].y[:]
	}
	bad, ok := findBad(xs, ys, t)
	if !ok {
		return nil
	}
	var sub []int
	for i, j := range reps {
		if !slices.Contains(bad, i) && len(sub) < t {
			sub = append(sub, j)
		}
	}
	if len(sub) < t {
		return nil
	}
	return sub
}

// onPoly reports which of vs lie on the polynomial of degree < len(sub)
// through the values sub.
func onPoly(vs []keyVar, sub []int) []bool {
	px := make([]byte, len(sub))
	py := make([][]byte, len(sub))
	for i, j := range sub {
		px[i], py[i] = vs[j].x, vs[j].y[:]
	}
	return agreeWith(vs, px, py)
}

// agreeWith reports which of vs lie on the polynomial through the points
// (px, py), comparing in constant time.
func agreeWith(vs []keyVar, px []byte, py [][]byte) []bool {
	var xs []byte // the distinct x of vs
	for _, v := range vs {
		if !slices.Contains(xs, v.x) {
			xs = append(xs, v.x)
		}
	}
	vals := make([][]byte, len(xs))
	buf := make([]byte, len(xs)*keySize)
	defer clear(buf)
	var targets []byte
	var outs [][]byte
	for i, x := range xs {
		vals[i] = buf[i*keySize : (i+1)*keySize]
		// interpolate takes no target among its points: those values are
		// py's.
		if j := slices.Index(px, x); j >= 0 {
			copy(vals[i], py[j])
		} else {
			targets, outs = append(targets, x), append(outs, vals[i])
		}
	}
	if len(targets) > 0 {
		interpolate(outs, targets, px, py)
	}
	on := make([]bool, len(vs))
	for i, v := range vs {
		on[i] = subtle.ConstantTimeCompare(vals[slices.Index(xs, v.x)], v.y[:]) == 1
	}
	return on
}

// keyPoly settles which of vs (the distinct key shares of one group of
// shares whose signatures hold, or that all agree) lie on the dealer's
// polynomial: the one of degree < t through (0, key) that is unique within
// the bound. Any two polynomials of degree < t agree at no more than t−1
// points, so with a the number of indexes whose key share lies on P and e
// the values off it (plus others: distinct headers of the split's name that
// claim other parameters), no other polynomial is as well supported when
// a >= t + e, the bound the chunks are held to too. Beyond it, the values
// off P may be a holder's as much as those on it: keyPoly reports false,
// with the values on the best supported polynomial it met through t or
// more indexes (nil if none), for the refusal to name.
func keyPoly(vs []keyVar, t int, key *[keySize]byte, others int) ([]bool, bool) {
	var on, best []bool
	bestScore := 0
	judge := func(sub []int) bool {
		px := append(make([]byte, 0, t), 0)
		py := append(make([][]byte, 0, t), key[:])
		for _, j := range sub {
			px, py = append(px, vs[j].x), append(py, vs[j].y[:])
		}
		on = agreeWith(vs, px, py)
		a, e := support(len(vs), func(i int) byte { return vs[i].x }, on)
		e += others
		if a >= t && (best == nil || a-e > bestScore) {
			best, bestScore = on, a-e
		}
		return a >= t+e
	}
	if len(firstPerIndex(vs, nil)) < t {
		return nil, false
	}
	// As for a chunk (ssms_decode.go), the search of unique.go: the first
	// values, then the values alone at their index that the decoder does
	// not flag (if P is within the bound, it is within the decoder's on
	// those), then subsets; each try is t−1 key shares and the key at 0.
	var w walk
	if w.search(&keyKind{vs: vs, t: t, f: judge}, t-1, maxTries(t)) {
		return on, true
	}
	return best, false
}
