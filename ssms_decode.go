package shamir

import (
	"bytes"
	"crypto/cipher"
	"crypto/hmac"
	"slices"
)

// This file recovers one chunk of an SSMS split from the records the shares
// hold for it, and tells which records disagree with it.
//
// The records of a chunk that pass their checksums are a Reed–Solomon
// codeword in which some symbols may be wrong (a share altered on purpose,
// its checksums recomputed) and some missing (shares not given, damaged or
// truncated: erasures). The decoder reads it in three steps, from cheap to
// costly, and the AEAD is the judge of each:
//
//  1. Decode from the first threshold shares, by index, and open. This is
//     all it takes when no share was forged.
//  2. Otherwise locate the wrong shares with the error-correcting decoder
//     that Verify uses (findBadScaled: syndromes, Berlekamp–Massey), on the
//     fragments and, for the first chunk, on the key shares; then decode
//     from threshold shares it did not flag, and open. With m shares of
//     distinct indexes whose records passed their checksums, this finds the
//     wrong ones whenever there are at most ⌊(m−threshold)/2⌋: then 2·forged
//     + damaged <= given − threshold.
//  3. Otherwise (more forged shares than that, or copies of one share that
//     differ) try subsets of threshold shares, a bounded number of them.
//
// A chunk opens only from records that agree with the dealer's (decoding is
// a bijection and the AEAD authenticates every ciphertext byte), so the
// shares it was decoded from are good. Every other share is then compared
// with the chunk re-encoded: a share is named bad only when it disagrees
// with an authenticated chunk, never on the decoder's word alone.
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
}

// reset makes ci the chunk num of shares, with no record read. It keeps a
// copy of the list: the combiner drops shares from its own as they go bad.
func (ci *chunkIn) reset(num uint64, shares []*shareIn) {
	ci.num = num
	ci.shares = append(ci.shares[:0], shares...)
	ci.recs = slices.Grow(ci.recs[:0], len(shares))[:len(shares)]
	ci.why = slices.Grow(ci.why[:0], len(shares))[:len(shares)]
	clear(ci.why)
}

// A decoder recovers the chunks of one split. It is not safe for concurrent
// use: each goroutine has its own, with its own AEAD and scratch.
type decoder struct {
	h    *header
	t    int
	code *rsCode

	key  [keySize]byte // once the first chunk opened
	tk   [32]byte      // tagKey(key)
	aead cipher.AEAD   // nil until then

	// A key tried for the first chunk, and its tag key: fields, so that
	// they cost no allocation per try (the engine and HMAC take slices).
	candKey [keySize]byte
	candTK  [32]byte

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
	chk      *matrix // re-encodes the fragments of the parity shares checked
	check    []byte
	members  []int
	reps     []int
	lengths  []recordLen
	parity   []int
	rows     []int
	inSub    []bool
}

func newDecoder(h *header) *decoder {
	t := h.threshold
	return &decoder{
		h:        h,
		t:        t,
		code:     &rsCode{parts: maxIndex + 1, threshold: t},
		giveBack: func() {},
		ins:      make([][]byte, t),
	}
}

// withKey returns a new decoder of d's split that has d's key.
func (d *decoder) withKey() *decoder {
	e := newDecoder(d.h)
	e.code = d.code
	e.key, e.tk = d.key, d.tk
	e.aead = mustAEAD(d.h.aead, e.key[:])
	return e
}

// release clears the key and gives back the buffers.
func (d *decoder) release() {
	clear(d.key[:])
	clear(d.tk[:])
	clear(d.candKey[:])
	clear(d.candTK[:])
	d.aead = nil
	d.giveBack()
	d.giveBack, d.ct = func() {}, nil
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

// maxTries bounds the subsets of threshold shares step 3 tries for one
// chunk and one record length: C(given, threshold) can be astronomical, and
// each try decodes (an inversion of a threshold×threshold matrix), so the
// bound falls with the threshold.
func maxTries(t int) int { return max(16, 1024*16*16/(t*t)) }

// open recovers the chunk ci from the records that passed their checks,
// appends its plaintext to dst, and marks in ci.why every share that
// disagrees with it (and, for the first chunk, whose key share disagrees
// with the key). It reports whether the chunk is the last, and whether it
// opened; if it did not, dst is returned as it was and ci.why only holds
// what reading found.
func (d *decoder) open(ci *chunkIn, dst []byte) (out []byte, last, ok bool) {
	t := d.t
	// The shares agree on a record length, unless some were forged: try
	// each length given, the most common first.
	lengths := d.lengths[:0]
	defer func() { d.lengths = lengths[:0] }()
	for k, r := range ci.recs {
		if ci.why[k] != 0 {
			continue
		}
		i := slices.IndexFunc(lengths, func(l recordLen) bool { return l.n == r.n && l.last == r.last })
		if i < 0 {
			lengths = append(lengths, recordLen{n: r.n, last: r.last})
			i = len(lengths) - 1
		}
		lengths[i].count++
	}
	if len(lengths) > 1 {
		slices.SortStableFunc(lengths, func(a, b recordLen) int { return b.count - a.count })
	}
	for _, l := range lengths {
		if l.count < t {
			continue
		}
		// members: the shares with this length; reps: the first of them
		// at each index.
		d.members, d.reps = d.members[:0], d.reps[:0]
		for k, r := range ci.recs {
			if ci.why[k] != 0 || r.n != l.n || r.last != l.last {
				continue
			}
			d.members = append(d.members, k)
			if len(d.reps) == 0 || ci.shares[d.reps[len(d.reps)-1]].hdr.index != ci.shares[k].hdr.index {
				d.reps = append(d.reps, k)
			}
		}
		if len(d.reps) < t {
			continue
		}
		sub := d.reps[:t]
		out, ok := d.try(ci, sub, l.n, l.last, dst)
		if !ok && len(d.reps) > t {
			if s := d.locate(ci, d.reps); s != nil && !slices.Equal(s, sub) {
				sub = s
				out, ok = d.try(ci, sub, l.n, l.last, dst)
			}
		}
		if !ok {
			sub, out, ok = d.search(ci, d.members, l.n, l.last, dst)
		}
		if ok {
			d.checkOthers(ci, sub, l.n, l.last)
			return out, l.last, true
		}
	}
	return dst, false, false
}

// A recordLen is a record length some shares' records have, and how many.
type recordLen struct {
	n     int
	last  bool
	count int
}

// try decodes the chunk from the records of the shares sub (threshold of
// them, distinct indexes) and opens it, appending the plaintext to dst.
// Before the first chunk has opened, the key is recovered from sub's key
// shares too.
func (d *decoder) try(ci *chunkIn, sub []int, n int, last bool, dst []byte) ([]byte, bool) {
	aead := d.aead
	key, tk := &d.candKey, &d.candTK
	defer clear(key[:])
	defer clear(tk[:])
	if aead == nil {
		xs := make([]byte, len(sub))
		ys := make([][]byte, len(sub))
		for i, k := range sub {
			xs[i], ys[i] = ci.shares[k].hdr.x, ci.shares[k].hdr.keyShare[:]
		}
		interpolate([][]byte{key[:]}, []byte{0}, xs, ys)
		// A key share that is not the dealer's fails its tag under the
		// dealer's key, and under a wrong key every tag fails: the key
		// is only tried if sub's tags hold.
		*tk = tagKey(key)
		for _, k := range sub {
			if !tagHolds(ci.shares[k].hdr, tk) {
				return dst, false
			}
		}
		aead = mustAEAD(d.h.aead, key[:])
	}
	ct, ok := d.decode(ci, sub, n)
	if !ok {
		return dst, false
	}
	d.num.set(ci.num, last)
	out, err := aead.Open(dst, d.num.nonce[:], ct, d.h.ad[:])
	if err != nil {
		return dst, false
	}
	if d.aead == nil {
		d.aead, d.key, d.tk = aead, *key, *tk
	}
	return out, true
}

// tagHolds reports whether the tag of the header h holds under tk.
func tagHolds(h *header, tk *[32]byte) bool {
	tag := headerTag(h.signed[:], tk)
	return hmac.Equal(tag[:], h.tag[:])
}

// decode rebuilds the sealed chunk of n plaintext bytes from the records of
// sub into d.ct, and checks its padding.
func (d *decoder) decode(ci *chunkIn, sub []int, n int) ([]byte, bool) {
	t := d.t
	f := fragSize(n, t, d.h.overhead)
	buf := d.sealed(t * f)
	have := slices.Grow(d.have[:0], t)[:t]
	d.have = have
	for i, k := range sub {
		j := ci.shares[k].hdr.index
		have[i] = j
		d.ins[i] = ci.recs[k].frag
		if j < t {
			copy(buf[j*f:(j+1)*f], ci.recs[k].frag)
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

// locate returns threshold of the shares reps (distinct indexes, all with
// records of one length) that the error-correcting decoder does not flag,
// or nil if it flags too many. It flags the shares whose fragments and,
// before the first chunk has opened, whose key shares are off the code.
func (d *decoder) locate(ci *chunkIn, reps []int) []int {
	t, m := d.t, len(reps)
	flagged := make([]bool, m)
	xs := make([]byte, m)
	ys := make([][]byte, m)
	if d.aead == nil {
		for i, k := range reps {
			xs[i], ys[i] = ci.shares[k].hdr.x, ci.shares[k].hdr.keyShare[:]
		}
		if bad, ok := findBad(xs, ys, t); ok {
			for _, i := range bad {
				flagged[i] = true
			}
		}
	}
	scale := make([]byte, m)
	for i, k := range reps {
		idx := ci.shares[k].hdr.index
		xs[i], ys[i], scale[i] = fragPoint(idx), ci.recs[k].frag, fragWeight(idx, t)
	}
	if bad, ok := findBadScaled(xs, ys, t, scale); ok {
		for _, i := range bad {
			flagged[i] = true
		}
	}
	sub := make([]int, 0, t)
	for i, k := range reps {
		if !flagged[i] && len(sub) < t {
			sub = append(sub, k)
		}
	}
	if len(sub) < t {
		return nil
	}
	return sub
}

// search tries subsets of threshold of the shares members, of distinct
// indexes, in lexicographic order, until one opens or maxTries were tried.
func (d *decoder) search(ci *chunkIn, members []int, n int, last bool, dst []byte) (sub []int, out []byte, ok bool) {
	t := d.t
	idx := make([]int, t) // positions in members
	for i := range idx {
		idx[i] = i
	}
	sub = make([]int, t)
	for tries := 0; tries < maxTries(t); {
		distinct := true
		for i, j := range idx {
			sub[i] = members[j]
			if i > 0 && ci.shares[sub[i]].hdr.index == ci.shares[sub[i-1]].hdr.index {
				distinct = false
			}
		}
		if distinct {
			tries++
			if out, ok := d.try(ci, sub, n, last, dst); ok {
				return sub, out, true
			}
		}
		if !nextSubset(idx, len(members)) {
			break
		}
	}
	return nil, dst, false
}

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

// checkOthers marks Inconsistent every share of ci outside sub, which the
// chunk (now in d.ct) was decoded from, whose record differs from the
// dealer's, or whose key share is off the polynomial through the key shares
// of sub when this was the first chunk.
func (d *decoder) checkOthers(ci *chunkIn, sub []int, n int, last bool) {
	t := d.t
	f := fragSize(n, t, d.h.overhead)
	d.inSub = slices.Grow(d.inSub[:0], len(ci.shares))[:len(ci.shares)]
	clear(d.inSub)
	for _, k := range sub {
		d.inSub[k] = true
	}
	parity, rows := d.parity[:0], d.rows[:0]
	defer func() { d.parity, d.rows = parity[:0], rows[:0] }()
	for k, r := range ci.recs {
		if ci.why[k] != 0 || d.inSub[k] {
			continue
		}
		switch j := ci.shares[k].hdr.index; {
		case r.n != n || r.last != last:
			ci.why[k] = Inconsistent
		case j < t:
			if !bytes.Equal(r.frag, d.ct[j*f:(j+1)*f]) {
				ci.why[k] = Inconsistent
			}
		default:
			parity = append(parity, k)
			rows = append(rows, j)
		}
	}
	if ci.num == 0 {
		d.checkKeyShares(ci, sub)
	}
	if len(parity) == 0 {
		return
	}
	if need := len(parity) * f; len(d.check) < need {
		// As much as the parity records just read hold, no more.
		d.check = make([]byte, need)
	}
	data := d.ins[:t]
	for j := range t {
		data[j] = d.ct[j*f : (j+1)*f]
	}
	outs := slices.Grow(d.outs[:0], len(parity))[:len(parity)]
	for i := range parity {
		outs[i] = d.check[i*f : (i+1)*f]
	}
	d.outs = outs
	if d.chk == nil || !slices.Equal(rows, d.chkRows) {
		d.chk, d.chkRows = d.code.checker(rows), slices.Clone(rows)
	}
	d.chk.apply(data, outs, 0, f, false)
	for i, k := range parity {
		if !bytes.Equal(ci.recs[k].frag, outs[i]) {
			ci.why[k] = Inconsistent
		}
	}
}

// checkKeyShares marks Inconsistent every share of ci outside sub whose
// header's tag does not hold under the key that opened the first chunk:
// its key share, or its index, is not the dealer's.
func (d *decoder) checkKeyShares(ci *chunkIn, sub []int) {
	for k := range ci.shares {
		if !d.inSub[k] && ci.why[k] == 0 && !tagHolds(ci.shares[k].hdr, &d.tk) {
			ci.why[k] = Inconsistent
		}
	}
}
