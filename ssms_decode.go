package shamir

import (
	"bytes"
	"crypto/cipher"
	"hash/maphash"
	"slices"
)

// This file recovers one chunk of an SSMS split from the records the shares
// hold for it, and tells which records disagree with it.
//
// The key is known before any chunk is read (ssms_open.go): it was checked
// against the split ID, so a chunk that opens under it was sealed by a
// holder of the key. The records of a chunk that pass their checksums are
// a Reed–Solomon codeword in which some symbols may be wrong (a share
// altered, its checksums recomputed) and some missing (shares not given,
// damaged or truncated: erasures). Each record carries a tag under a key
// derived from the split's key (ssms_tag.go): where the records disagree,
// every tag is checked first, and the records whose tags fail, altered by
// someone who does not know the key (an outsider, or fewer than threshold
// holders), are named Forged and set aside like damaged ones, so that the
// wrong symbols left are holders' of the key. Copies of one share whose records are
// equal are one value (a variant); copies that differ are two values at one
// index, both candidates.
//
// Who can make a chunk open: an outsider cannot (the AEAD under a key they
// do not have), but holders who know the key can seal another plaintext and
// disperse it. So opening is not enough: a codeword C is accepted only when
// it is the unique one within the error-correction bound. With a the number
// of indexes at which a value given agrees with C and e the number of
// values that disagree, any other codeword agrees with C at most at t−1
// indexes, so at most t−1+e values support it; C is accepted when
// a >= t + e (with one value per index, m of them, d damaged: 2e+d <= m−t).
// The decoder looks for such a C in three steps, from cheap to costly:
//
//  1. Decode from the first threshold indexes and open. If every record
//     agrees, done; otherwise check every record's tag, set aside those
//     that fail, and go on with the others, from step 1 again.
//  2. Locate the wrong values with the error-correcting decoder that Verify
//     uses (findBadScaled: syndromes, Berlekamp–Massey) among the values
//     alone at their index, the indexes with several values erased,
//     decode from threshold values it did not flag, and open. If C is
//     within the bound, this finds it: an index with several values adds
//     at least as much to e as to a, so with m1 values alone, s of them
//     wrong, a >= t + e gives 2s <= m1 − t.
//  3. Try subsets of threshold values, a bounded number of them: beyond
//     the bound, to tell a refusal with two sets (a codeword opened) from
//     none.
//
// Beyond the bound, a codeword that opens is never accepted: the shares
// that disagree with it were made, as far as anything can tell, by holders
// of the key as much as those that agree (their headers authenticate), so
// the decoder refuses rather than choose, naming the two sets. Only
// records whose tags hold count there: an outsider's alterations never
// bring a refusal. What is accepted is unique, and the tags are judged
// record by record, so the result never depends on the order of the
// shares.
//
// The fragments and key shares meet the error-correcting decoder as a
// generalized Reed–Solomon code. The dispersal's generator has the identity
// in rows 0…t−1 and G[i][j] = 1/(i ⊕ j) below. Let A(z) = Π_{j<t}(z − j) and
// p the polynomial of degree < t with p(j) = D_j·A'(j) for the data
// fragments D_j. Lagrange's formula, p(z) = Σ_j p(j)·A(z)/((z − j)·A'(j)),
// gives at a parity row i
//
//	p(i) = A(i)·Σ_j D_j/(i − j) = A(i)·F_i,
//
// and in characteristic 2, i − j = i ⊕ j. So w_i·F_i, with
// w_i = Π_{j<t, j≠i}(i ⊕ j) (A'(i) for a data row, A(i) for a parity row), are
// the values of one polynomial of degree < t at the points i. Every factor
// is a difference of points, unchanged when all points are XORed with one
// constant: the points index ⊕ 0xFF, never 0 for an index <= 254, serve the
// decoder, which needs non-zero points.

// fragPoint is the point of the share of the given index in the
// generalized Reed–Solomon form of the dispersal code.
func fragPoint(index int) byte { return byte(index) ^ 0xFF }

// fragWeight is w_index = Π_{j<t, j≠index}(index ⊕ j): fragWeight·fragment
// is the value at fragPoint(index) of a polynomial of degree < t.
func fragWeight(index, t int) byte {
	w := byte(1)
	for j := range t {
		if j != index {
			w = gfMulPublic(w, byte(index^j))
		}
	}
	return w
}

// A chunkIn is what the decoder is given of one chunk: the shares of the
// split that were live when it was read, by index and then by position, and
// each one's record.
type chunkIn struct {
	num    uint64
	shares []*shareIn
	recs   []record
	// why[k] is 0 while shares[k] may be good, and why it is bad
	// otherwise: set by reading its record, then by open.
	why []Reason
	// sets, when open refused a codeword beyond the bound, holds the
	// shares (places in shares) of each.
	sets [][]int
	// read is why as reading the records left it, before open.
	read []Reason
}

// disagreed reports whether open found a share of ci bad that reading its
// record did not: a record that disagrees with the others.
func (ci *chunkIn) disagreed() bool {
	for k, why := range ci.why {
		if why != ci.read[k] {
			return true
		}
	}
	return false
}

// readDone records why as reading the records left it.
func (ci *chunkIn) readDone() { ci.read = append(ci.read[:0], ci.why...) }

// dropForged removes from ci the shares named Forged since it was read,
// and forgets what open found, for open to decode it again.
func (ci *chunkIn) dropForged() {
	k := 0
	for j, s := range ci.shares {
		if s.why == Forged {
			continue
		}
		ci.shares[k], ci.recs[k], ci.why[k], ci.read[k] = s, ci.recs[j], ci.read[j], ci.read[j]
		k++
	}
	ci.shares, ci.recs, ci.why, ci.read = ci.shares[:k], ci.recs[:k], ci.why[:k], ci.read[:k]
	ci.sets = nil
}

// reset makes ci the chunk num of shares, with no record read. It keeps a
// copy of the list: the combiner drops shares from its own as they go bad.
func (ci *chunkIn) reset(num uint64, shares []*shareIn) {
	ci.num = num
	ci.shares = append(ci.shares[:0], shares...)
	ci.recs = slices.Grow(ci.recs[:0], len(shares))[:len(shares)]
	ci.why = slices.Grow(ci.why[:0], len(shares))[:len(shares)]
	clear(ci.why)
	ci.sets = nil
}

// A variant is one value given for the record of one index: copies whose
// records are equal are one variant.
type variant struct {
	index int
	rec   record
	hash  uint64 // of the record, to find copies in linear time
	agree bool   // agrees with the codeword being judged
}

// The outcome of open.
type openResult int

const (
	notOpened openResult = iota // no codeword opened
	opened
	ambiguous // a codeword opened beyond the bound: ci.sets holds the shares that agree with it and those that do not
)

// A decoder recovers the chunks of one split under its key. It is not safe
// for concurrent use: each goroutine has its own, with its own AEAD and
// scratch.
type decoder struct {
	h    *header
	t    int
	code *rsCode

	key  [keySize]byte
	keys *splitKeys // derived from key when signer first needs them
	aead cipher.AEAD
	tags *tagger // the records' tags, derived from key when first needed

	// rkey is the record key, once hasRKey: derived once per combine,
	// and given to the decoders of the parallel pass (withKey).
	rkey    [keySize]byte
	hasRKey bool

	// allTags makes open check the tag of every record, not only where
	// the records disagree: for RefreshSSMS, which keeps the records.
	allTags bool
	blamed  bool // the last decode named a record Inconsistent
	quick   bool // decodeChunk tries the first threshold indexes only

	// Scratch, reused from chunk to chunk.
	num      chunkNum
	ct       []byte // the sealed chunk, padded to threshold fragments
	giveBack func() // gives ct back
	ins      [][]byte
	outs     [][]byte
	have     []int
	decHave  []int // the fragments dec decodes from
	dec      *matrix
	missing  []int
	chkRows  []int   // the fragments chk computes
	chk      *matrix // re-encodes the fragments of the parity variants checked
	check    []byte
	vars     []variant
	of       []int // the variant of each share of the chunk, or −1
	seed     maphash.Seed
	byHash   map[uint64][]int
	walk     walk      // the search's scratch (unique.go)
	cur      chunkKind // what find is looking for
	found    []bool    // the agreement of a codeword that opened beyond the bound, in open
	lengths  []recordLen
	parity   []int
	rows     []int
}

// newDecoder returns the decoder of the split of h under key.
func newDecoder(h *header, key *[keySize]byte) *decoder {
	t := h.threshold
	return &decoder{
		h:        h,
		t:        t,
		code:     &rsCode{parts: maxIndex + 1, threshold: t},
		key:      *key,
		aead:     mustAEAD(h.aead, key[:]),
		giveBack: func() {},
		ins:      make([][]byte, t),
		seed:     maphash.MakeSeed(),
	}
}

// withKey returns a new decoder of d's split, with d's key.
func (d *decoder) withKey() *decoder {
	e := newDecoder(d.h, &d.key)
	e.code, e.allTags = d.code, d.allTags
	e.rkey, e.hasRKey = d.rkey, d.hasRKey
	return e
}

// release clears the key and gives back the buffers.
func (d *decoder) release() {
	clear(d.key[:])
	clear(d.rkey[:])
	if d.keys != nil {
		d.keys.release()
	}
	if d.aead != nil {
		wipeAEAD(d.aead)
	}
	if d.tags != nil {
		d.tags.release()
	}
	d.aead, d.keys, d.tags = nil, nil, nil
	d.giveBack()
	d.giveBack, d.ct = func() {}, nil
}

// signer returns the split keys that sign new headers, derived from the
// key on first use: only the lifecycle functions write headers.
func (d *decoder) signer() *splitKeys {
	if d.keys == nil {
		d.keys = deriveKeys(&d.key)
	}
	return d.keys
}

// recordTags returns the tagger of the split's records, derived from the
// key on first use: only where records disagree, and for the lifecycle
// functions that write records.
func (d *decoder) recordTags() *tagger {
	if d.tags == nil {
		if !d.hasRKey {
			d.rkey, d.hasRKey = recordKey(&d.key), true
		}
		d.tags = taggerOf(d.h.aead, &d.rkey)
	}
	return d.tags
}

func mustAEAD(id byte, key []byte) cipher.AEAD {
	aead, err := newAEAD(id, key)
	if err != nil {
		panic("shamir: " + err.Error()) // unreachable: parseHeader checked the AEAD
	}
	return aead
}

// sealed returns d.ct with n bytes, for a sealed chunk. It is allocated on
// first need, for the records that arrived: its size then follows from
// threshold records really read, not from the chunk size a header claims.
func (d *decoder) sealed(n int) []byte {
	if cap(d.ct) < n {
		d.giveBack()
		d.ct, d.giveBack = sealedBuf(n)
	}
	return d.ct[:n]
}

// A recordLen is a record length some variants have, and at how many
// distinct indexes.
type recordLen struct {
	n       int
	last    bool
	indexes int
}

// open recovers the chunk ci from the records that passed their checks,
// appends its plaintext to dst, and marks in ci.why every share that
// disagrees with it. It returns opened, the plaintext and whether the chunk
// is the last when it found the unique codeword (see the top of the file);
// otherwise dst as it was, and notOpened or ambiguous (with ci.sets).
//
// Tags are checked where they decide something. The records of the first
// threshold indexes are decoded and opened first (the usual case): if the
// chunk opens and every record agrees with it, that is the answer, and no
// tag is checked (a record whose tag alone was changed decides nothing
// there). Otherwise every record's tag is checked, those that fail are
// named Forged (altered by someone who does not know the key), and the
// chunk is searched for among the others: the bound then counts only
// records whose tags hold, made by holders of the key, and the search
// never spends its tries on an outsider's records.
func (d *decoder) open(ci *chunkIn, dst []byte) (out []byte, last bool, res openResult) {
	if !d.allTags {
		d.quick = true
		out, last, res = d.decodeChunk(ci, dst)
		d.quick = false
		if res == opened && !d.blamed {
			return out, last, res
		}
		clear(out[len(dst):])
		for k, why := range ci.why {
			if why == Inconsistent { // blamed by the quick decode: judged again
				ci.why[k] = 0
			}
		}
	}
	d.checkTags(ci)
	return d.decodeChunk(ci, dst)
}

// checkTags checks the tag of every record of ci that passed its CRC, and
// names Forged those that fail. What it names is a record's own fault,
// found from that record and the key alone, like a CRC that fails: it is
// kept in ci.read too (when the combiner keeps it), so that it does not
// count as a disagreement still to be explained.
func (d *decoder) checkTags(ci *chunkIn) {
	tags := d.recordTags()
	for k, s := range ci.shares {
		if ci.why[k] != 0 {
			continue
		}
		r := &ci.recs[k]
		d.num.set(ci.num, r.last)
		if !tags.holds(r.tag, r.body, s.hdr.index, &d.num) {
			ci.why[k] = Forged
			if len(ci.read) == len(ci.why) {
				ci.read[k] = Forged
			}
		}
	}
}

// decodeChunk is open without the tags.
func (d *decoder) decodeChunk(ci *chunkIn, dst []byte) (out []byte, last bool, res openResult) {
	d.blamed, ci.sets = false, nil
	d.variants(ci)
	d.found = nil
	for _, l := range d.recordLengths() {
		if l.indexes < d.t {
			continue
		}
		if out, ok := d.find(ci, l, dst); ok {
			d.blame(ci)
			return out, l.last, opened
		}
	}
	found := d.found
	if found == nil {
		return dst, false, notOpened
	}
	// Beyond the bound, a codeword opened: the shares that disagree with
	// it may be a holder's as much as those that agree. Refuse, naming
	// both.
	var agree, disagree []int
	for k, v := range d.of {
		switch {
		case v < 0:
		case found[v]:
			agree = append(agree, k)
		default:
			disagree = append(disagree, k)
		}
	}
	ci.sets = [][]int{agree, disagree}
	return dst, false, ambiguous
}

// several returns, for each index at which the records of ci last opened
// have more than one variant, the positions of the shares that give them,
// by increasing index.
func (d *decoder) several(ci *chunkIn) [][]int {
	var out [][]int
	for i, v := range d.vars {
		if i+1 < len(d.vars) && d.vars[i+1].index == v.index && (i == 0 || d.vars[i-1].index != v.index) {
			var ps []int
			for k, s := range ci.shares {
				if d.of[k] >= 0 && s.hdr.index == v.index {
					ps = append(ps, s.pos)
				}
			}
			slices.Sort(ps)
			out = append(out, ps)
		}
	}
	return out
}

// blame marks Inconsistent the shares whose variants disagree with the
// codeword accepted.
func (d *decoder) blame(ci *chunkIn) {
	for k, v := range d.of {
		if v >= 0 && !d.vars[v].agree {
			ci.why[k], d.blamed = Inconsistent, true
		}
	}
}

// variants groups the records of ci that passed their checks into
// variants: d.vars, by index, and d.of, each share's. Copies (shares of
// one index) are found by a keyed hash of the record (ciphertext, not
// secret), in time linear in the records' size however many copies there
// are; a share alone at its index is a variant of its own, unhashed.
func (d *decoder) variants(ci *chunkIn) {
	vars := slices.Grow(d.vars[:0], len(ci.shares))
	d.of = slices.Grow(d.of[:0], len(ci.shares))[:len(ci.shares)]
	clear(d.byHash)
	for k, s := range ci.shares {
		d.of[k] = -1
		if ci.why[k] != 0 {
			continue
		}
		r := ci.recs[k]
		if (k == 0 || ci.shares[k-1].hdr.index != s.hdr.index) &&
			(k+1 == len(ci.shares) || ci.shares[k+1].hdr.index != s.hdr.index) {
			// The only share of its index: no copy to look for.
			vars = append(vars, variant{index: s.hdr.index, rec: r})
			d.of[k] = len(vars) - 1
			continue
		}
		var mh maphash.Hash
		mh.SetSeed(d.seed)
		mh.WriteByte(byte(s.hdr.index))
		mh.WriteByte(byte(r.n >> 24))
		mh.WriteByte(byte(r.n >> 16))
		mh.WriteByte(byte(r.n >> 8))
		mh.WriteByte(byte(r.n))
		if r.last {
			mh.WriteByte(1)
		}
		mh.Write(r.frag)
		hash := mh.Sum64()
		if d.byHash == nil {
			d.byHash = make(map[uint64][]int) // the first index with copies
		}
		v := slices.IndexFunc(d.byHash[hash], func(j int) bool {
			w := &vars[j]
			return w.index == s.hdr.index && w.rec.n == r.n && w.rec.last == r.last && bytes.Equal(w.rec.frag, r.frag)
		})
		if v >= 0 {
			d.of[k] = d.byHash[hash][v]
			continue
		}
		vars = append(vars, variant{index: s.hdr.index, rec: r, hash: hash})
		d.byHash[hash] = append(d.byHash[hash], len(vars)-1)
		d.of[k] = len(vars) - 1
	}
	// Shares are by index, so variants are too.
	d.vars = vars
}

// recordLengths returns the record lengths the variants have, those given
// at the most indexes first (ties by length, for a result that does not
// depend on the order of the shares).
func (d *decoder) recordLengths() []recordLen {
	lengths := d.lengths[:0]
	for i, v := range d.vars {
		j := slices.IndexFunc(lengths, func(l recordLen) bool { return l.n == v.rec.n && l.last == v.rec.last })
		if j < 0 {
			lengths = append(lengths, recordLen{n: v.rec.n, last: v.rec.last})
			j = len(lengths) - 1
		}
		if i == 0 || d.vars[i-1].index != v.index || !d.hasLength(i, v.index, v.rec) {
			lengths[j].indexes++
		}
	}
	slices.SortFunc(lengths, func(a, b recordLen) int {
		if a.indexes != b.indexes {
			return b.indexes - a.indexes
		}
		if a.n != b.n {
			return a.n - b.n
		}
		if a.last == b.last {
			return 0
		}
		if a.last {
			return 1
		}
		return -1
	})
	d.lengths = lengths
	return lengths
}

// hasLength reports whether a variant before i at the same index has the
// length of rec.
func (d *decoder) hasLength(i, index int, rec record) bool {
	for j := i - 1; j >= 0 && d.vars[j].index == index; j-- {
		if d.vars[j].rec.n == rec.n && d.vars[j].rec.last == rec.last {
			return true
		}
	}
	return false
}

// find looks for a codeword of records of length l that opens and is
// unique within the bound, in the three steps at the top of the file (the
// search of unique.go), and appends its plaintext to dst. A codeword that
// opens but is beyond the bound is added to found, for open to settle.
func (d *decoder) find(ci *chunkIn, l recordLen, dst []byte) ([]byte, bool) {
	d.cur = chunkKind{d: d, ci: ci, l: l, dst: dst, out: dst}
	var ok bool
	if d.quick {
		ok = d.walk.tryFirst(&d.cur, d.t)
	} else {
		ok = d.walk.search(&d.cur, d.t, 16*maxTries(d.t))
	}
	out := d.cur.out
	d.cur = chunkKind{}
	return out, ok
}

// A chunkKind is the records of one length of a chunk, as the search of
// unique.go sees them: the variants, by index; a try decodes, opens and
// judges (judge).
type chunkKind struct {
	d   *decoder
	ci  *chunkIn
	l   recordLen
	dst []byte
	out []byte // the plaintext appended to dst, once a try succeeded
}

func (k *chunkKind) count() int  { return len(k.d.vars) }
func (k *chunkKind) x(i int) int { return k.d.vars[i].index }
func (k *chunkKind) member(i int) bool {
	v := &k.d.vars[i]
	return v.rec.n == k.l.n && v.rec.last == k.l.last
}
func (k *chunkKind) locate(single []int) []int { return k.d.locate(single) }
func (k *chunkKind) try(sub []int) bool {
	var ok bool
	k.out, ok = k.d.judge(k.ci, sub, k.l, k.dst, &k.d.found)
	return ok
}

// judge decodes the codeword of the variants sub (threshold of them, one
// length, distinct indexes), opens it, appending the plaintext to dst, and
// reports whether it is unique within the bound; if it is not, it returns
// dst as it was, and keeps the first codeword that opened in found.
func (d *decoder) judge(ci *chunkIn, sub []int, l recordLen, dst []byte, found *[]bool) ([]byte, bool) {
	out, ok := d.opensInto(ci, sub, l, dst)
	if !ok {
		return dst, false
	}
	d.agreement(l, sub)
	a, e := 0, 0
	for i, v := range d.vars {
		switch {
		case !v.agree:
			e++
		case i == 0 || d.vars[i-1].index != v.index || !d.agreedBefore(i):
			a++
		}
	}
	if a >= d.t+e {
		return out, true
	}
	clear(out[len(dst):])
	if *found == nil {
		*found = make([]bool, len(d.vars))
		for i, v := range d.vars {
			(*found)[i] = v.agree
		}
	}
	return dst, false
}

// agreedBefore reports whether a variant before i at its index agrees.
func (d *decoder) agreedBefore(i int) bool {
	for j := i - 1; j >= 0 && d.vars[j].index == d.vars[i].index; j-- {
		if d.vars[j].agree {
			return true
		}
	}
	return false
}

// opensInto decodes the sealed chunk from the variants sub into d.ct and
// opens it, appending the plaintext to dst; if it does not open, it
// returns dst as it was.
func (d *decoder) opensInto(ci *chunkIn, sub []int, l recordLen, dst []byte) ([]byte, bool) {
	ct, ok := d.decode(sub, l.n)
	if !ok {
		return dst, false
	}
	d.num.set(ci.num, l.last)
	out, err := d.aead.Open(dst, d.num.nonce[:], ct, d.h.ad[:])
	if err != nil {
		return dst, false
	}
	return out, true
}

// dataFragments returns the data fragments of the chunk last decoded, of n
// plaintext bytes, in d.ct: after open accepted a chunk, that chunk's.
func (d *decoder) dataFragments(n int) [][]byte {
	f := fragSize(n, d.t, d.h.overhead)
	data := make([][]byte, d.t)
	for j := range data {
		data[j] = d.ct[j*f : (j+1)*f]
	}
	return data
}

// decode rebuilds the sealed chunk of n plaintext bytes from the variants
// sub into d.ct, and checks its padding.
func (d *decoder) decode(sub []int, n int) ([]byte, bool) {
	t := d.t
	f := fragSize(n, t, d.h.overhead)
	buf := d.sealed(t * f)
	have := slices.Grow(d.have[:0], t)[:t]
	d.have = have
	for i, v := range sub {
		j := d.vars[v].index
		have[i] = j
		d.ins[i] = d.vars[v].rec.frag
		if j < t {
			copy(buf[j*f:(j+1)*f], d.ins[i])
		}
	}
	if d.decHave == nil || !slices.Equal(have, d.decHave) {
		m, missing, err := d.code.decoder(have)
		if err != nil {
			return nil, false // unreachable: the code is MDS and the indexes distinct
		}
		d.dec, d.missing, d.decHave = m, missing, slices.Clone(have)
	}
	if d.dec != nil {
		outs := slices.Grow(d.outs[:0], len(d.missing))[:len(d.missing)]
		for k, j := range d.missing {
			outs[k] = buf[j*f : (j+1)*f]
		}
		d.dec.apply(d.ins[:t], outs, 0, f, false)
		d.outs = outs
	}
	ct := buf[:n+d.h.overhead]
	for _, b := range buf[len(ct):] {
		if b != 0 {
			return nil, false
		}
	}
	return ct, true
}

// locate returns threshold of the variants reps (distinct indexes, one
// length) that the error-correcting decoder does not flag, or nil if it
// flags too many.
func (d *decoder) locate(reps []int) []int {
	t, m := d.t, len(reps)
	xs := make([]byte, m)
	ys := make([][]byte, m)
	scale := make([]byte, m)
	for i, v := range reps {
		idx := d.vars[v].index
		xs[i], ys[i], scale[i] = fragPoint(idx), d.vars[v].rec.frag, fragWeight(idx, t)
	}
	bad, ok := findBadScaled(xs, ys, t, scale)
	if !ok {
		return nil
	}
	sub := make([]int, 0, t)
	for i, v := range reps {
		if !slices.Contains(bad, i) && len(sub) < t {
			sub = append(sub, v)
		}
	}
	if len(sub) < t {
		return nil
	}
	return sub
}

// agreement sets the agree flag of every variant: whether its record is
// the one the chunk now in d.ct (of length l), decoded from the variants
// sub, gives its index. Those of sub agree by construction: decoding
// inverts the code on their rows.
func (d *decoder) agreement(l recordLen, sub []int) {
	t := d.t
	f := fragSize(l.n, t, d.h.overhead)
	parity, rows := d.agreeData(l, sub, f)
	defer func() { d.parity, d.rows = parity[:0], rows[:0] }()
	if len(parity) == 0 {
		return
	}
	if need := len(rows) * f; len(d.check) < need {
		// As much as the parity records just read hold, no more.
		d.check = make([]byte, need)
	}
	data := d.ins[:t]
	for j := range t {
		data[j] = d.ct[j*f : (j+1)*f]
	}
	outs := slices.Grow(d.outs[:0], len(rows))[:len(rows)]
	for i := range rows {
		outs[i] = d.check[i*f : (i+1)*f]
	}
	d.outs = outs
	if d.chk == nil || !slices.Equal(rows, d.chkRows) {
		d.chk, d.chkRows = d.code.checker(rows), slices.Clone(rows)
	}
	d.chk.apply(data, outs, 0, f, false)
	r := 0
	for _, i := range parity {
		for rows[r] != d.vars[i].index {
			r++
		}
		d.vars[i].agree = bytes.Equal(d.vars[i].rec.frag, outs[r])
	}
}

// agreeData sets the agree flag of the variants of sub, of other lengths
// and of data rows (of f bytes each, compared with d.ct), and returns the
// variants of parity rows of length l, and those rows, for agreement to
// re-encode.
func (d *decoder) agreeData(l recordLen, sub []int, f int) (parity, rows []int) {
	t := d.t
	parity, rows = d.parity[:0], d.rows[:0]
	for i := range d.vars {
		v := &d.vars[i]
		switch j := v.index; {
		case slices.Contains(sub, i):
			v.agree = true
		case v.rec.n != l.n || v.rec.last != l.last:
			v.agree = false
		case j < t:
			v.agree = bytes.Equal(v.rec.frag, d.ct[j*f:(j+1)*f])
		default:
			parity = append(parity, i)
			if len(rows) == 0 || rows[len(rows)-1] != j {
				rows = append(rows, j)
			}
		}
	}
	return parity, rows
}
