package shamir

import (
	"cmp"
	"fmt"
	"slices"
)

// This file is the start of the reading pipeline that every SSMS operation
// shares: shares → one split → authenticated chunks → consumers. openSplit
// sorts the shares whose headers parsed by split ID and generation, refuses
// to choose between splits, and unlocks the one named: it recovers the key
// from the key shares and checks it against the key check, to which the
// split ID commits, and settles which shares hold the split's key shares.
// What it returns, a combiner, yields the split's authenticated chunks
// (ssms_pump.go; ssms_decode.go decodes each) to the consumers:
// CombineSSMS (ssms_combine.go), the reader (ssms_stream.go) and the
// lifecycle functions (ssms_lifecycle.go), none of which reads another's
// internals.
//
// Who can do what here (docs/SECURITY.md). An outsider, who reads every
// header but holds no key, can give shares of a split of their own under
// the genuine split ID, or genuine headers altered: their headers'
// signatures or Merkle paths fail (the split ID commits to the public key,
// and only the key's holders can sign a batch), so they are named Forged
// and set aside, one by one, before anything is decoded, whatever their
// number and order. A signature costs about 35 µs to check, once per
// distinct batch statement (holds); even so, headers are checked only where
// they decide something: when the shares disagree in any way (more than
// one split name or set of parameters, a key that the first threshold key
// shares do not give, a key share off the key's polynomial, a chunk that
// does not open cleanly), and always before a share is named or a
// lifecycle function writes from the shares. Shares that all agree are
// combined without one: they hold the genuine headers, but perhaps for
// their signature, path or batch bytes, which decide nothing there. The
// records are told the same way once the key is known, by their tags
// (ssms_decode.go). Holders who know the
// key can sign headers with key shares off the dealer's polynomial: those
// are outvoted only within the error-correction bound, and beyond it the
// shares are refused, never chosen between.

// A combiner recovers the secret of one split, chunk by chunk, from the
// shares openSplit settled on.
type combiner struct {
	all []*shareIn // by position in the caller's argument

	live  []*shareIn // the shares of the split not found bad, by index and position
	h     *header    // the header of a live share: the split's parameters
	dec   *decoder   // the split's key and scratch; nil until openSplit found the key
	count uint64     // the number of the next chunk
	done  bool

	inParallel int // the chunks rest took from its parallel pass, for tests

	// verified is set once the signature of every share of all whose
	// header parsed was checked (verifyAll).
	verified bool

	// checkAll makes chunk check every signature before the first chunk
	// (checkEverything).
	checkAll bool

	// checked holds the batch statements whose signatures were checked,
	// and the outcome (holds).
	checked map[stmtKey]bool

	// unsure holds the positions of the shares whose records of a chunk
	// refused differ from another's of the same index: none is a copy.
	unsure []int

	ci chunkIn // scratch
}

// setGroup makes g the shares the combiner recovers the secret from.
func (c *combiner) setGroup(g []*shareIn) {
	c.live = byIndex(g)
	if len(g) > 0 {
		c.h = g[0].hdr
	}
}

// byIndex returns a copy of shares sorted by index, and by position among
// equal indexes.
func byIndex(shares []*shareIn) []*shareIn {
	s := slices.Clone(shares)
	slices.SortStableFunc(s, func(a, b *shareIn) int { return cmp.Compare(a.hdr.index, b.hdr.index) })
	return s
}

// verifyAll checks the signature of every share whose header parsed, once,
// and names Forged those whose signatures fail: made or altered without
// the split's key. It reports whether it named any.
func (c *combiner) verifyAll() bool {
	if c.verified {
		return false
	}
	c.verified = true
	found := false
	for _, s := range c.all {
		if s.hdr == nil || s.why == Unreadable || s.why == Forged {
			continue
		}
		if !c.holds(s.hdr) {
			s.why, found = Forged, true
		}
	}
	return found
}

// holds is h.signatureHolds, with one signature verification per
// distinct batch statement (and signature): the shares of one batch, and
// the copies of a header, cost the hashes of their leaves and paths,
// not a verification each. So does a batch of an outsider's, forged or
// not: what they write costs one verification per statement they make.
func (c *combiner) holds(h *header) bool { return h.signatureHolds(c.statementHolds) }

// statementHolds is h.statementHolds(stmt), looked up first among the
// statements checked, and remembered.
func (c *combiner) statementHolds(h *header, stmt *[stmtSize]byte) bool {
	var k stmtKey
	copy(k[:], stmt[:])
	copy(k[stmtSize:], h.sig[:])
	ok, seen := c.checked[k]
	if !seen {
		ok = h.statementHolds(stmt)
		if c.checked == nil {
			c.checked = make(map[stmtKey]bool)
		}
		c.checked[k] = ok
	}
	return ok
}

// A stmtKey is a batch statement and its signature.
type stmtKey [stmtSize + sigSize]byte

// release clears the key and gives back the buffers.
func (c *combiner) release() {
	if c.dec != nil {
		c.dec.release()
	}
}

// drop removes from live the shares found bad, in one pass.
func (c *combiner) drop() {
	c.live = slices.DeleteFunc(c.live, func(s *shareIn) bool { return s.why != 0 })
}

// good returns the number of distinct indexes among the live shares.
func (c *combiner) good() int {
	n := 0
	for i, s := range c.live {
		if i == 0 || s.hdr.index != c.live[i-1].hdr.index {
			n++
		}
	}
	return n
}

// groupByName returns the names of the splits (ID and generation) of the
// shares whose headers parsed and that were not found bad, in the order of
// their first share, and the shares of each.
func groupByName(all []*shareIn) ([]SplitName, map[SplitName][]*shareIn) {
	var names []SplitName
	byName := make(map[SplitName][]*shareIn)
	for _, s := range all {
		if s.hdr == nil || s.why != 0 {
			continue
		}
		n := SplitName{s.hdr.id, s.hdr.gen}
		if byName[n] == nil {
			if names == nil {
				// Room for all in the first: there is usually one.
				byName[n] = make([]*shareIn, 0, len(all))
			}
			names = append(names, n)
		}
		byName[n] = append(byName[n], s)
	}
	return names, byName
}

// openSplit is the one constructor of the reading pipeline. It returns the
// combiner of the split want, or of the only split among all when want is
// nil, with the split's key recovered and checked. Shares whose signatures
// fail are Forged, and set aside first; of the others, shares of other
// splits are OtherSplit (OtherGeneration for another generation of want's
// split) when want names one; when it does not, shares of more than one
// split or generation fail with ErrMixedSplits. With verify set (the
// lifecycle functions, which write from the shares), every signature is
// checked; otherwise only when the shares disagree.
func openSplit(all []*shareIn, want *SplitName, verify bool) (*combiner, error) {
	c := &combiner{all: all}
	if verify {
		c.verifyAll()
	}
	names, byName := groupByName(all)
	if !c.verified && (len(names) > 1 || want != nil && (len(names) != 1 || names[0] != *want)) {
		// Shares are about to be refused or named: an outsider's, with
		// the genuine split ID and another generation, are set aside.
		c.verifyAll()
		names, byName = groupByName(all)
	}
	if want == nil && len(names) > 1 {
		return nil, mixedSplits(all, names, byName)
	}
	var mine []*shareIn
	switch {
	case want != nil:
		markOthers(names, byName, want)
		mine = byName[*want]
	case len(names) == 1:
		mine = byName[names[0]]
	}
	if len(mine) == 0 {
		return nil, c.fail(ErrNotEnoughShares)
	}
	if err := c.unlock(mine); err != nil {
		c.release()
		return nil, err
	}
	return c, nil
}

// markOthers names the shares of names other than want OtherSplit, or
// OtherGeneration for other generations of want's split.
func markOthers(names []SplitName, byName map[SplitName][]*shareIn, want *SplitName) {
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
}

// mixedSplits returns the error for shares of several splits or
// generations, given in the order names, whose signatures hold: it unlocks
// each and opens its first chunk, to count its good shares and tell the
// newest generation of each split whose key was recovered.
func mixedSplits(all []*shareIn, names []SplitName, byName map[SplitName][]*shareIn) error {
	e := &CombineError{Err: ErrMixedSplits}
	newest := make(map[SplitID]int) // the place in e.Splits of the newest unlocked generation
	for _, n := range names {
		shares := byName[n]
		sp := SplitShares{ID: n.ID, Generation: n.Generation, Threshold: shares[0].hdr.threshold}
		for _, s := range shares {
			sp.Positions = append(sp.Positions, s.pos)
		}
		c := &combiner{all: all, verified: true}
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
	e.Bad = (&combiner{all: all, verified: true}).badShares()
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
			var g []*shareIn
			if groups == nil {
				// Room for all in the first: there is usually one.
				g = make([]*shareIn, 0, len(shares))
			}
			groups = append(groups, g)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], s)
	}
	slices.SortStableFunc(groups, func(a, b []*shareIn) int { return len(b) - len(a) })
	return groups
}

// unlock recovers the key of shares (the shares of one split name), checks
// it against the key check, to which the split ID commits, and settles the
// shares the combiner reads: those of the one group of parameters with
// threshold shares, whose key shares lie on the dealer's polynomial. When
// the shares do not all agree, every signature is checked first, and the
// shares whose signatures fail are Forged and set aside; of the others,
// shares that claim other parameters, or whose key share is off the
// polynomial, are Inconsistent.
func (c *combiner) unlock(shares []*shareIn) error {
	if !c.verified {
		if c.unlockAgreeing(shares) {
			return nil
		}
		c.verifyAll()
		shares = slices.DeleteFunc(slices.Clone(shares), func(s *shareIn) bool { return s.why != 0 })
		if len(shares) == 0 {
			return c.fail(ErrNotEnoughShares)
		}
	}
	var key [keySize]byte
	defer clear(key[:])
	groups := paramGroups(shares)
	if err := c.groupKey(groups, &key); err != nil {
		return err
	}
	main, err := c.mainGroup(groups)
	if err != nil {
		return err
	}
	e := 0 // the distinct headers that claim other parameters
	for _, g := range groups {
		if g != main {
			e += len(g.vars)
		}
	}
	on, ok := keyPoly(main.vars, main.h.threshold, &key, e)
	if !ok {
		c.setGroup(main.shares())
		err := c.fail(ErrInconsistentShares)
		if on != nil {
			// Beyond the bound: the key shares on a polynomial through the
			// key, and the others, signed alike.
			err.(*CombineError).Sets = keySets(groups, main, on)
		}
		err.(*CombineError).Several = severalKeys(groups)
		return err
	}
	c.setGroup(settle(groups, main, on, len(shares)))
	c.dec = newDecoder(c.h, &key)
	return nil
}

// settle returns the shares of main whose key shares are on the key's
// polynomial (main's values at on), and names the others, of every group,
// Inconsistent.
func settle(groups []*paramGroup, main *paramGroup, on []bool, n int) []*shareIn {
	live := make([]*shareIn, 0, n)
	for _, g := range groups {
		for i, v := range g.vars {
			if g == main && on[i] {
				live = append(live, v.shares...)
				continue
			}
			for _, s := range v.shares {
				s.why = Inconsistent
			}
		}
	}
	return live
}

// headersAgree reports whether the headers of shares (by index) claim one
// set of parameters, one public key and key check that give the split ID
// and an AEAD the mode allows.
func headersAgree(shares []*shareIn) bool {
	h := shares[0].hdr
	for _, s := range shares {
		if s.hdr.ad != h.ad || s.hdr.check != h.check || s.hdr.pub != h.pub {
			return false
		}
	}
	return checkApproved(h.aead) == nil && splitIDOf(&h.pub, &h.check) == h.id
}

// severalKeys returns, for each index given more than one distinct header
// among groups, the positions of the shares that give it, by increasing
// index.
func severalKeys(groups []*paramGroup) [][]int {
	byX := make(map[byte][]int)
	values := make(map[byte]int)
	var xs []byte
	for _, g := range groups {
		for _, v := range g.vars {
			if values[v.x] == 0 {
				xs = append(xs, v.x)
			}
			values[v.x]++
			for _, s := range v.shares {
				byX[v.x] = append(byX[v.x], s.pos)
			}
		}
	}
	slices.Sort(xs)
	var out [][]int
	for _, x := range xs {
		if values[x] > 1 {
			ps := byX[x]
			slices.Sort(ps)
			out = append(out, ps)
		}
	}
	return out
}

// keySets returns the positions of the shares whose key shares are on
// (main's values at on) and the positions of the others, of every group.
func keySets(groups []*paramGroup, main *paramGroup, on []bool) [][]int {
	sets := make([][]int, 2)
	for _, g := range groups {
		for i, v := range g.vars {
			k := 1
			if g == main && on[i] {
				k = 0
			}
			for _, s := range v.shares {
				sets[k] = append(sets[k], s.pos)
			}
		}
	}
	slices.Sort(sets[0])
	slices.Sort(sets[1])
	return sets
}

// unlockAgreeing is unlock for shares that all agree, which checks no
// signature: one set of parameters, one public key and key check that give
// the split ID, one value per index, a key from the first threshold
// indexes that gives the key check, and every key share on that key's
// polynomial. Anything else and it returns false, having named no share.
// What it accepts is what unlock would after checking the signatures,
// for headers whose fields are the genuine ones but perhaps their
// signatures (docs/FORMAT.md): those it leaves for badShares to name.
func (c *combiner) unlockAgreeing(shares []*shareIn) bool {
	g := byIndex(shares)
	h := g[0].hdr
	t := h.threshold
	if !headersAgree(g) {
		return false
	}
	vs := keyVars(g)
	for i := 1; i < len(vs); i++ {
		if vs[i].x == vs[i-1].x {
			return false
		}
	}
	if len(vs) < t {
		return false
	}
	var key [keySize]byte
	defer clear(key[:])
	first := make([]int, t)
	for i := range first {
		first[i] = i
	}
	if !tryKey(vs, first, &h.check, &key) {
		return false
	}
	if len(vs) > t {
		on, ok := keyPoly(vs, t, &key, 0)
		if !ok || slices.Contains(on, false) {
			return false
		}
	}
	c.setGroup(g)
	c.dec = newDecoder(h, &key)
	return true
}

// A paramGroup is the shares of one split name that claim the same
// parameters, as distinct headers (keyVars), by index.
type paramGroup struct {
	h    *header // the first share's
	vars []keyVar
}

// paramGroups returns the shares in groups of those whose headers agree on
// the split's parameters (everything before the index), the groups with
// the most shares first, and among equals the first given first.
func paramGroups(shares []*shareIn) []*paramGroup {
	var groups []*paramGroup
	for _, g := range groupByParams(shares) {
		groups = append(groups, &paramGroup{h: g[0].hdr, vars: keyVars(byIndex(g))})
	}
	return groups
}

// shares returns the shares of g, by index.
func (g *paramGroup) shares() []*shareIn {
	var s []*shareIn
	for _, v := range g.vars {
		s = append(s, v.shares...)
	}
	return byIndex(s)
}

// indexes returns the number of distinct indexes of g.
func (g *paramGroup) indexes() int {
	n := 0
	for i, v := range g.vars {
		if i == 0 || v.x != g.vars[i-1].x {
			n++
		}
	}
	return n
}

// groupKey sets key to the split's key, found from the key shares of one
// of groups (the shares of one split name whose signatures hold, by
// parameters), the largest first: the split ID commits to the key check,
// which commits to the key, so whichever group gives it, it is the same.
// Groups whose AEAD FIPS 140-only mode refuses are skipped.
func (c *combiner) groupKey(groups []*paramGroup, key *[keySize]byte) error {
	var refused error
	for _, g := range groups {
		if err := checkApproved(g.h.aead); err != nil {
			refused = cmp.Or(refused, err)
			continue
		}
		if findKey(g.vars, g.h.threshold, &g.h.check, key) {
			return nil
		}
	}
	c.setGroup(groups[0].shares())
	if refused != nil && checkApproved(c.h.aead) != nil {
		return c.fail(refused)
	}
	if c.good() < c.h.threshold {
		return c.fail(ErrNotEnoughShares)
	}
	// Threshold indexes whose headers a holder of the key signed, and no
	// key from them gives the key check: holders made key shares off the
	// polynomial, beyond what the search finds. None is known good.
	e := c.fail(fmt.Errorf("%w: no %d of the key shares give a key that matches the split ID",
		ErrInconsistentShares, c.h.threshold)).(*CombineError)
	e.Good, e.Several = 0, severalKeys(groups)
	return e
}

// mainGroup returns the one group with at least its threshold of distinct
// indexes. Its shares' signatures hold, so two such groups are two
// consistent sets, which only holders of the key can make: it refuses
// them.
func (c *combiner) mainGroup(groups []*paramGroup) (*paramGroup, error) {
	var full []*paramGroup
	for _, g := range groups {
		if g.indexes() >= g.h.threshold {
			full = append(full, g)
		}
	}
	switch len(full) {
	case 0:
		c.h = groups[0].h
		c.setGroup(groups[0].shares())
		return nil, c.fail(ErrNotEnoughShares)
	case 1:
		return full[0], nil
	}
	c.setGroup(full[0].shares())
	e := c.fail(ErrInconsistentShares).(*CombineError)
	for _, g := range full[:2] {
		var set []int
		for _, s := range g.shares() {
			set = append(set, s.pos)
		}
		slices.Sort(set)
		e.Sets = append(e.Sets, set)
	}
	return nil, e
}
