package shamir

import (
	"cmp"
	"crypto/subtle"
	"slices"
)

// This file is the start of the reading pipeline that every SSMS operation
// shares: shares → one split → authenticated chunks → consumers. openSplit
// sorts the shares whose headers parsed by split ID and generation, refuses
// to choose between splits, and unlocks the one named: it recovers the key
// from the key shares and checks it against the split ID, which commits to
// it; checks every header's tag under it; and settles which shares hold the
// split's key shares. What it returns, a combiner, yields the split's
// authenticated chunks (ssms_combine.go, ssms_decode.go).
//
// Who can do what here (docs/SECURITY.md). An outsider, who reads every
// header but holds no key, can give shares of a split of their own under
// the genuine split ID: their key fails the commitment, and with the
// genuine key their headers' tags fail, so they are named Forged, whatever
// their number and order. Holders who know the key can make headers that
// authenticate, with key shares off the dealer's polynomial: those are
// outvoted only within the error-correction bound, and beyond it the
// shares are refused, never chosen between.

// groupByName returns the names of the splits (ID and generation) of the
// shares whose headers parsed, in the order of their first share, and the
// shares of each.
func groupByName(all []*shareIn) ([]SplitName, map[SplitName][]*shareIn) {
	var names []SplitName
	byName := make(map[SplitName][]*shareIn)
	for _, s := range all {
		if s.hdr == nil {
			continue
		}
		n := SplitName{s.hdr.id, s.hdr.gen}
		if byName[n] == nil {
			names = append(names, n)
		}
		byName[n] = append(byName[n], s)
	}
	return names, byName
}

// openSplit is the one constructor of the reading pipeline. It returns the
// combiner of the split want, or of the only split among all when want is
// nil, with the split's key recovered and checked. Shares of other splits
// are OtherSplit (OtherGeneration for another generation of want's split)
// when want names one; when it does not, shares of more than one split or
// generation fail with ErrMixedSplits.
func openSplit(all []*shareIn, want *SplitName) (*combiner, error) {
	names, byName := groupByName(all)
	names = settleGenerations(names, byName)
	if want == nil && len(names) > 1 {
		return nil, mixedSplits(all, names, byName)
	}
	var mine []*shareIn
	switch {
	case want != nil:
		for _, n := range names {
			for _, s := range byName[n] {
				switch {
				case n.ID != want.ID:
					s.why = OtherSplit
				case n != *want:
					s.why = OtherGeneration
				}
			}
		}
		mine = byName[*want]
	case len(names) == 1:
		mine = byName[names[0]]
	}
	c := &combiner{all: all}
	if len(mine) == 0 {
		return nil, c.fail(ErrNotEnoughShares)
	}
	if err := c.unlock(mine); err != nil {
		c.release()
		return nil, err
	}
	return c, nil
}

// settleGenerations checks the generation of the shares of each split ID
// given with more than one: the key is the same in every generation, and
// the generation is under the tag, so once the key is recovered from any
// generation, a share whose tag fails under it is Forged, not of a
// generation of its own. It returns the names left.
func settleGenerations(names []SplitName, byName map[SplitName][]*shareIn) []SplitName {
	gens := make(map[SplitID]int)
	for _, n := range names {
		gens[n.ID]++
	}
	var key, tk [keySize]byte
	defer clear(key[:])
	defer clear(tk[:])
	for id, count := range gens {
		if count < 2 || !keyOf(id, names, byName, &key) {
			continue
		}
		tk = tagKey(&key)
		for _, n := range names {
			if n.ID != id {
				continue
			}
			byName[n] = slices.DeleteFunc(byName[n], func(s *shareIn) bool {
				if tagHolds(s.hdr, &tk) {
					return false
				}
				s.why = Forged
				return true
			})
		}
	}
	return slices.DeleteFunc(names, func(n SplitName) bool { return len(byName[n]) == 0 })
}

// keyOf recovers the key of the split id from the shares of any of its
// generations.
func keyOf(id SplitID, names []SplitName, byName map[SplitName][]*shareIn, key *[keySize]byte) bool {
	for _, n := range names {
		if n.ID != id {
			continue
		}
		for _, g := range groupByParams(byName[n]) {
			h := g[0].hdr
			if checkApproved(h.aead) == nil && findKey(keyVars(byIndex(g)), h.threshold, id, key) {
				return true
			}
		}
	}
	return false
}

// mixedSplits returns the error for shares of several splits or
// generations, given in the order names: it unlocks each and opens its
// first chunk, to count its good shares and tell the newest generation of
// each split whose key was recovered.
func mixedSplits(all []*shareIn, names []SplitName, byName map[SplitName][]*shareIn) error {
	e := &CombineError{Err: ErrMixedSplits}
	newest := make(map[SplitID]int) // the place in e.Splits of the newest unlocked generation
	for _, n := range names {
		shares := byName[n]
		sp := SplitShares{ID: n.ID, Generation: n.Generation, Threshold: shares[0].hdr.threshold}
		for _, s := range shares {
			sp.Positions = append(sp.Positions, s.pos)
		}
		c := &combiner{all: all}
		if c.unlock(shares) == nil {
			sp.Threshold = c.h.threshold
			if j, ok := newest[n.ID]; !ok || e.Splits[j].Generation < n.Generation {
				newest[n.ID] = len(e.Splits)
			}
			if shares[0].mem == nil && shares[0].r == nil {
				sp.Good = c.good() // headers alone (RefreshSSMSHeaders)
			} else if out, err := c.chunk(nil); err == nil {
				clear(out)
				sp.Good = c.good()
			}
		}
		c.release()
		e.Splits = append(e.Splits, sp)
	}
	for _, j := range newest {
		e.Splits[j].Newest = true
	}
	e.Bad = (&combiner{all: all}).badShares()
	return e
}

// groupByParams returns the shares in groups of those whose headers agree
// on the split's parameters (everything before the index), the groups with
// the most shares first, and among equals the first given first.
func groupByParams(shares []*shareIn) [][]*shareIn {
	var groups [][]*shareIn
	for _, s := range shares {
		i := slices.IndexFunc(groups, func(g []*shareIn) bool { return g[0].hdr.ad == s.hdr.ad })
		if i < 0 {
			groups = append(groups, nil)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], s)
	}
	slices.SortStableFunc(groups, func(a, b []*shareIn) int { return len(b) - len(a) })
	return groups
}

// A keyVar is one value given for the key share of one index, and the
// shares that give it: copies of a header are one keyVar.
type keyVar struct {
	x      byte
	y      *[keySize]byte
	tag    [tagSize]byte
	shares []*shareIn
}

// keyVars returns the distinct headers of shares, which are of one split
// name and one set of parameters and sorted by index. Copies are found by
// their index and tag, which are public, and then their key shares are
// compared in constant time: no memory is indexed by a key share, and
// their number is linear in that of the shares.
func keyVars(shares []*shareIn) []keyVar {
	var vs []keyVar
	type at struct {
		index int
		tag   [tagSize]byte
	}
	seen := make(map[at][]int)
	for _, s := range shares {
		k := at{s.hdr.index, s.hdr.tag}
		i := slices.IndexFunc(seen[k], func(j int) bool {
			return subtle.ConstantTimeCompare(vs[j].y[:], s.hdr.keyShare[:]) == 1
		})
		if i >= 0 {
			j := seen[k][i]
			vs[j].shares = append(vs[j].shares, s)
			continue
		}
		seen[k] = append(seen[k], len(vs))
		vs = append(vs, keyVar{x: s.hdr.x, y: &s.hdr.keyShare, tag: s.hdr.tag, shares: []*shareIn{s}})
	}
	return vs
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

// findKey looks for threshold t key shares among vs whose key, key, has
// the split ID id. The ID commits to the key, so any key found is the
// split's, and a polynomial whose key fails is no holder's: the values on
// it are set aside and the rest decoded again (an outsider's whole split
// given beside fewer genuine shares is peeled off so). In each round: the
// first value of the first t indexes; those the error-correcting decoder
// does not flag. Then a bounded search of subsets.
func findKey(vs []keyVar, t int, id SplitID, key *[keySize]byte) bool {
	try := func(sub []int) bool {
		xs := make([]byte, len(sub))
		ys := make([][]byte, len(sub))
		for i, j := range sub {
			xs[i], ys[i] = vs[j].x, vs[j].y[:]
		}
		interpolate([][]byte{key[:]}, []byte{0}, xs, ys)
		return splitIDOf(key) == id
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
	if eachSubset(len(vs), t, func(sub []int) bool { return distinctX(vs, sub) && try(sub) }) {
		return true
	}
	clear(key[:])
	return false
}

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

// distinctX reports whether the values sub of vs have distinct x.
func distinctX(vs []keyVar, sub []int) bool {
	for i := range sub {
		for j := range i {
			if vs[sub[i]].x == vs[sub[j]].x {
				return false
			}
		}
	}
	return true
}

// eachSubset calls f with subsets of k of 0…n−1, in lexicographic order,
// until f returns true (then it returns true), the subsets run out, or
// maxTries(k+1) subsets were tried.
func eachSubset(n, k int, f func([]int) bool) bool {
	if k > n || k == 0 {
		return false
	}
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for tries := 0; tries < maxTries(k+1); tries++ {
		if f(idx) {
			return true
		}
		if !nextSubset(idx, n) {
			break
		}
	}
	return false
}

// keyPoly settles which of vs (the distinct key shares of one group of
// shares whose tags hold) lie on the dealer's polynomial: the one of
// degree < t through (0, key) that is unique within the bound. Any two
// polynomials of degree < t agree at no more than t−1 points, so with a
// the number of indexes whose key share lies on P and e the values off it
// (plus others: distinct headers of the split's name that claim other
// parameters), no other polynomial is as well supported when a >= t + e,
// the bound the chunks are held to too. Beyond it, the values off P may be
// a holder's as much as those on it: keyPoly reports false.
func keyPoly(vs []keyVar, t int, key *[keySize]byte, others int) ([]bool, bool) {
	var on []bool
	judge := func(sub []int) bool {
		px := append(make([]byte, 0, t), 0)
		py := append(make([][]byte, 0, t), key[:])
		for _, j := range sub {
			px, py = append(px, vs[j].x), append(py, vs[j].y[:])
		}
		on = agreeWith(vs, px, py)
		a, e := 0, others
		var seen []byte
		for i, v := range vs {
			switch {
			case !on[i]:
				e++
			case !slices.Contains(seen, v.x):
				seen = append(seen, v.x)
				a++
			}
		}
		return a >= t+e
	}
	reps := firstPerIndex(vs, nil)
	if len(reps) < t {
		return nil, false
	}
	if judge(reps[:t-1]) {
		return on, true
	}
	if len(reps) > t {
		if sub := unflagged(vs, reps, t); sub != nil && judge(sub[:t-1]) {
			return on, true
		}
	}
	if eachSubset(len(vs), t-1, func(sub []int) bool { return distinctX(vs, sub) && judge(sub) }) {
		return on, true
	}
	return nil, false
}

// unlock recovers the key of shares (the shares of one split name), checks
// it against the split ID and every header's tag under it, and settles the
// shares the combiner reads: those of the one group of parameters with
// threshold authenticated shares, whose key shares lie on the dealer's
// polynomial. Shares whose tags fail are Forged; shares that authenticate
// but claim other parameters, or whose key share is off the polynomial,
// are Inconsistent.
func (c *combiner) unlock(shares []*shareIn) error {
	var key, tk [keySize]byte
	defer clear(key[:])
	defer clear(tk[:])
	groups := groupByParams(shares)
	found := false
	var refused error
	for _, g := range groups {
		h := g[0].hdr
		if err := checkApproved(h.aead); err != nil {
			refused = cmp.Or(refused, err)
			continue
		}
		if findKey(keyVars(byIndex(g)), h.threshold, h.id, &key) {
			found = true
			break
		}
	}
	if !found {
		c.setGroup(groups[0])
		if refused != nil && checkApproved(c.h.aead) != nil {
			return c.fail(refused)
		}
		return c.fail(c.why())
	}
	tk = tagKey(&key)
	var valid []*shareIn
	for _, g := range groups {
		for _, v := range keyVars(byIndex(g)) {
			ok := tagHolds(v.shares[0].hdr, &tk)
			for _, s := range v.shares {
				if ok {
					valid = append(valid, s)
				} else {
					s.why = Forged
				}
			}
		}
	}
	main, others, err := c.mainGroup(valid)
	if err != nil {
		return err
	}
	c.setGroup(main)
	vs := keyVars(c.live)
	e := 0
	for _, g := range others {
		e += len(keyVars(byIndex(g)))
	}
	on, ok := keyPoly(vs, c.h.threshold, &key, e)
	if !ok {
		return c.fail(ErrInconsistentShares)
	}
	for _, g := range others {
		for _, s := range g {
			s.why = Inconsistent
		}
	}
	for i, v := range vs {
		if !on[i] {
			for _, s := range v.shares {
				s.why = Inconsistent
			}
		}
	}
	c.drop()
	c.dec = newDecoder(c.h, &key, &tk)
	return nil
}

// mainGroup returns, of the shares whose tags hold, the one group of
// parameters with at least its threshold of distinct indexes, and the
// other groups. Two such groups are two consistent sets, which only
// holders of the key can make: it refuses them.
func (c *combiner) mainGroup(valid []*shareIn) ([]*shareIn, [][]*shareIn, error) {
	if len(valid) == 0 {
		return nil, nil, c.fail(ErrNotEnoughShares)
	}
	groups := groupByParams(valid)
	var full [][]*shareIn
	for _, g := range groups {
		c.setGroup(g)
		if c.good() >= c.h.threshold {
			full = append(full, g)
		}
	}
	switch len(full) {
	case 0:
		c.setGroup(groups[0])
		return nil, nil, c.fail(ErrNotEnoughShares)
	case 1:
	default:
		c.setGroup(full[0])
		e := c.fail(ErrInconsistentShares).(*CombineError)
		for _, g := range full[:2] {
			var set []int
			for _, s := range g {
				set = append(set, s.pos)
			}
			slices.Sort(set)
			e.Sets = append(e.Sets, set)
		}
		return nil, nil, e
	}
	var others [][]*shareIn
	for _, g := range groups {
		if g[0].hdr.ad != full[0][0].hdr.ad {
			others = append(others, g)
		}
	}
	return full[0], others, nil
}
