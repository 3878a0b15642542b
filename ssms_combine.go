package shamir

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/cipher"
	"io"
	"slices"
)

// This file holds what CombineSSMS and NewCombineReader have in common: one
// chunk at a time, read every live share's record, decode the chunk from
// threshold of them, open it with the AEAD, and check the records of the
// other shares against it.
//
// Telling the bad shares. Each share's header and each of its records carry
// a CRC-32C, so a share damaged by accident is named from its own bytes,
// before any decoding. A share altered on purpose can pass its CRCs; then
// either it is among the threshold shares a chunk is decoded from, and the
// chunk fails to open (or its padding is not zero), or it is not, and its
// record differs from the one re-encoded from the opened chunk. In the first
// case the combiner tries other subsets of threshold shares until one
// opens, and then the second case names the bad share. A subset opens only if
// every share in it agrees with the dealer's output for that chunk (decoding
// is a bijection, and the AEAD authenticates every ciphertext byte), so a
// share named bad is bad, and a share that was used is good.

// maxSubsets bounds the number of threshold-subsets of the live shares tried
// for one chunk before the combiner gives up: C(parts, threshold) can be
// astronomical. The subsets are tried in lexicographic order, so when at most
// parts−threshold shares are bad the search ends within the bound in the
// cases the tests exercise; beyond it the shares are reported inconsistent.
const maxSubsets = 1024

// A shareIn is one share being combined, whole in memory or read from a
// stream.
type shareIn struct {
	pos   int     // the index into the caller's argument
	hdr   *header // nil when parseHeader found the share bad
	why   Reason  // why the share is bad, once it is; 0 before
	ioErr error   // the stream's error, when why is Unreadable

	mem []byte        // CombineSSMS: the bytes not consumed yet
	r   *bufio.Reader // NewCombineReader: the stream
	buf []byte        // NewCombineReader: the current record

	rec record   // the record of the current chunk
	num chunkNum // its number
}

// next reads and checks the share's record for chunk count, or says why
// it cannot.
func (s *shareIn) next(count uint64) (record, Reason) {
	if s.r == nil {
		n, _, why := recordLength(s.hdr, count, s.mem)
		if why != 0 {
			return record{}, why
		}
		size := recordSize(s.hdr, n)
		if len(s.mem) < size {
			return record{}, Truncated
		}
		rec := s.mem[:size]
		s.mem = s.mem[size:]
		s.num.set(count, false)
		return parseRecord(s.hdr, &s.num, rec)
	}
	var err error
	if s.buf, err = readGrow(s.r, s.buf[:0], 4); err != nil {
		return record{}, s.readErr(err)
	}
	n, _, why := recordLength(s.hdr, count, s.buf)
	if why != 0 {
		return record{}, why
	}
	if s.buf, err = readGrow(s.r, s.buf, recordSize(s.hdr, n)); err != nil {
		return record{}, s.readErr(err)
	}
	s.num.set(count, false)
	return parseRecord(s.hdr, &s.num, s.buf)
}

// readStep is the most readGrow reads, and grows its buffer by, at a time.
const readStep = 64 << 10

// readGrow reads from r until buf holds size bytes, growing it as the bytes
// arrive, by at most readStep at a time: a record's length word, which a
// forger chooses, costs memory only for the bytes the stream really has.
func readGrow(r io.Reader, buf []byte, size int) ([]byte, error) {
	for len(buf) < size {
		step := min(size-len(buf), readStep)
		buf = slices.Grow(buf, step)
		n, err := io.ReadFull(r, buf[len(buf):len(buf)+step])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// readErr returns the reason for a read of the share's stream that failed
// with err: the end of the stream inside a record is a truncation, any
// other error makes the share unreadable.
func (s *shareIn) readErr(err error) Reason {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return Truncated
	}
	s.ioErr = err
	return Unreadable
}

// atEnd returns 0 if the share has no bytes after its last record, and why
// it is bad otherwise.
func (s *shareIn) atEnd() Reason {
	if s.r == nil {
		if len(s.mem) > 0 {
			return Extended
		}
		return 0
	}
	switch _, err := s.r.Peek(1); err {
	case nil:
		return Extended
	case io.EOF:
		return 0
	default:
		return s.readErr(err)
	}
}

// A combiner recovers the secret of one split, chunk by chunk.
type combiner struct {
	all  []*shareIn // by position in the caller's argument
	live []*shareIn // the shares of the split not found bad, by index

	h     *header // the header of a live share: the split's parameters
	code  *rsCode
	aead  cipher.AEAD // nil until the first chunk opens
	count uint64      // the number of the next chunk
	done  bool

	// Scratch, reused from chunk to chunk.
	num      chunkNum
	ct       []byte // the sealed chunk, padded to threshold fragments
	giveBack func() // gives ct back
	shares   []*shareIn
	idx      []int
	sub      []*shareIn
	have     []int
	check    []byte // re-encoded fragments of the shares not decoded from
	ins      [][]byte
	outs     [][]byte
	decHave  []int // the fragments dec decodes from
	dec      *matrix
	missing  []int
	others   []*shareIn
	parity   []*shareIn
	rows     []int
	chkRows  []int   // the fragments chk computes
	chk      *matrix // what re-encodes the fragments of the parity shares checked
}

// newCombiner picks the split to recover among the shares whose headers
// parsed (those of another split or duplicated are bad), or fails.
func newCombiner(all []*shareIn) (*combiner, error) {
	c := &combiner{all: all}
	groups := make(map[[adSize]byte][]*shareIn)
	var order [][adSize]byte
	for _, s := range all {
		if s.hdr == nil {
			continue
		}
		g := groups[s.hdr.ad]
		if g == nil {
			order = append(order, s.hdr.ad)
		}
		groups[s.hdr.ad] = append(g, s)
	}
	// Within a split, a share whose index or key x coordinate was seen at an
	// earlier position brings nothing new: it is a duplicate.
	for ad, g := range groups {
		var seenIndex, seenX [256]bool
		live := g[:0:0]
		for _, s := range g {
			if seenIndex[s.hdr.index] || seenX[s.hdr.x] {
				s.why = Duplicate
				continue
			}
			seenIndex[s.hdr.index], seenX[s.hdr.x] = true, true
			live = append(live, s)
		}
		groups[ad] = live
	}
	// The split with the most shares is the one meant.
	var best, tie int
	for i, ad := range order {
		switch n := len(groups[ad]); {
		case n > len(groups[order[best]]):
			best, tie = i, 0
		case i != best && n == len(groups[order[best]]):
			tie = n
		}
	}
	if len(order) == 0 {
		return nil, c.fail(ErrNotEnoughShares)
	}
	live := groups[order[best]]
	h := live[0].hdr
	t := h.threshold
	c.live, c.h = live, h
	if len(live) < t {
		return nil, c.fail(ErrNotEnoughShares)
	}
	if tie >= t {
		return nil, c.fail(ErrMixedSplits)
	}
	if err := checkApproved(h.aead); err != nil {
		return nil, c.fail(err)
	}
	for _, ad := range order {
		if ad != order[best] {
			for _, s := range groups[ad] {
				s.why = OtherSplit
			}
		}
	}
	slices.SortFunc(live, func(a, b *shareIn) int { return cmp.Compare(a.hdr.index, b.hdr.index) })

	c.code = newRSCode(h.parts, t)
	c.giveBack = func() {}
	c.ins = make([][]byte, t)
	c.idx = make([]int, t)
	c.sub = make([]*shareIn, t)
	c.have = make([]int, t)
	c.outs = make([][]byte, max(t, h.parts-t))
	return c, nil
}

// release gives back the buffers c holds. (A method, not the field itself:
// the buffer is taken after CombineSSMS defers the release.)
func (c *combiner) release() { c.giveBack() }

// sealed returns c.ct with n bytes, for a sealed chunk. It is allocated on
// first need, for the records that arrived: its size then follows from
// threshold records really read, not from the chunk size a header claims.
func (c *combiner) sealed(n int) []byte {
	if cap(c.ct) < n {
		c.giveBack()
		c.ct, c.giveBack = sealedBuf(n)
	}
	return c.ct[:n]
}

// sizeHint returns a bound on the secret's length from the shortest live
// share held in memory.
func (c *combiner) sizeHint() int {
	n := -1
	for _, s := range c.live {
		if n < 0 || len(s.mem) < n {
			n = len(s.mem)
		}
	}
	full := recordOverhead + fragSize(c.h.chunkSize, c.h.threshold, c.h.overhead)
	return min((n+full-1)/full*c.h.chunkSize, n*c.h.threshold)
}

// bad marks the share s bad for the reason why and drops it from live.
func (c *combiner) bad(s *shareIn, why Reason) {
	s.why = why
	c.live = slices.DeleteFunc(c.live, func(l *shareIn) bool { return l == s })
}

// chunk appends the next chunk of the secret to dst, once it is
// authenticated; after the last chunk, c.done is set. On error it returns dst
// as it was, for the caller to clear.
func (c *combiner) chunk(dst []byte) ([]byte, error) {
	// Enforcement can change between calls (fips140.WithoutEnforcement),
	// so a reader asks again before each chunk.
	if err := checkApproved(c.h.aead); err != nil {
		return dst, c.fail(err)
	}
	c.shares = append(c.shares[:0], c.live...)
	for _, s := range c.shares {
		rec, why := s.next(c.count)
		if why != 0 {
			c.bad(s, why)
			continue
		}
		s.rec = rec
	}
	t := c.h.threshold
	if len(c.live) < t {
		return dst, c.fail(ErrNotEnoughShares)
	}
	idx, sub := c.idx, c.sub // positions in c.live, and the shares there
	for i := range idx {
		idx[i] = i
	}
	for tries := 0; ; tries++ {
		if tries == maxSubsets {
			return dst, c.fail(ErrInconsistentShares)
		}
		for i, j := range idx {
			sub[i] = c.live[j]
		}
		if out, ok := c.open(sub, dst); ok {
			dst = out
			break
		}
		if !nextSubset(idx, len(c.live)) {
			return dst, c.fail(ErrInconsistentShares)
		}
	}
	c.checkOthers(sub)
	c.count++
	if sub[0].rec.last {
		c.done = true
		c.shares = append(c.shares[:0], c.live...)
		for _, s := range c.shares {
			if why := s.atEnd(); why != 0 {
				c.bad(s, why)
			}
		}
	}
	return dst, nil
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

// open decodes the current chunk from the records of sub and opens it,
// appending the plaintext to dst. Before the first chunk has opened, the key
// is recovered from sub's key shares too.
func (c *combiner) open(sub []*shareIn, dst []byte) ([]byte, bool) {
	n, last := sub[0].rec.n, sub[0].rec.last
	for _, s := range sub[1:] {
		if s.rec.n != n || s.rec.last != last {
			return dst, false
		}
	}
	aead := c.aead
	if aead == nil {
		aead = c.keyFrom(sub)
	}
	ct, ok := c.decode(sub, n)
	if !ok {
		return dst, false
	}
	c.num.set(c.count, last)
	out, err := aead.Open(dst, c.num.nonce[:], ct, c.h.ad[:])
	if err != nil {
		return dst, false
	}
	if c.aead == nil {
		c.aead = aead
		c.checkKeyShares(sub)
	}
	return out, true
}

// keyFrom recovers the key from the key shares of sub and returns its AEAD.
func (c *combiner) keyFrom(sub []*shareIn) cipher.AEAD {
	t := len(sub)
	xs := make([]byte, t)
	ys := make([][]byte, t)
	for i, s := range sub {
		xs[i], ys[i] = s.hdr.x, s.hdr.keyShare[:]
	}
	var key [keySize]byte
	defer clear(key[:])
	interpolate([][]byte{key[:]}, []byte{0}, xs, ys)
	aead, err := newAEAD(c.h.aead, key[:])
	if err != nil {
		panic("shamir: " + err.Error()) // unreachable: parseHeader checked the AEAD
	}
	return aead
}

// checkKeyShares marks bad every live share whose key share is not on the
// polynomial through the key shares of sub, which opened the first chunk.
func (c *combiner) checkKeyShares(sub []*shareIn) {
	others := c.othersThan(sub)
	if len(others) == 0 {
		return
	}
	t := len(sub)
	known := make([]byte, t)
	ys := make([][]byte, t)
	for i, s := range sub {
		known[i], ys[i] = s.hdr.x, s.hdr.keyShare[:]
	}
	targets := make([]byte, len(others))
	want := make([][]byte, len(others))
	buf := make([]byte, len(others)*keySize)
	for i, s := range others {
		targets[i] = s.hdr.x
		want[i] = buf[i*keySize : (i+1)*keySize]
	}
	interpolate(want, targets, known, ys)
	for i, s := range others {
		if !bytes.Equal(want[i], s.hdr.keyShare[:]) {
			c.bad(s, Inconsistent)
		}
	}
	clear(buf)
}

// othersThan returns the live shares not in sub, in a slice valid until the
// next call.
func (c *combiner) othersThan(sub []*shareIn) []*shareIn {
	c.others = c.others[:0]
	for _, s := range c.live {
		if !slices.Contains(sub, s) {
			c.others = append(c.others, s)
		}
	}
	return c.others
}

// decode rebuilds the sealed chunk of n plaintext bytes from the records of
// sub into c.ct, and checks its padding.
func (c *combiner) decode(sub []*shareIn, n int) ([]byte, bool) {
	t := c.h.threshold
	f := fragSize(n, t, c.h.overhead)
	buf := c.sealed(t * f)
	have := c.have
	for i, s := range sub {
		have[i] = s.hdr.index
		c.ins[i] = s.rec.frag
		if j := s.hdr.index; j < t {
			copy(buf[j*f:(j+1)*f], s.rec.frag)
		}
	}
	if !slices.Equal(have, c.decHave) {
		m, missing, err := c.code.decoder(have)
		if err != nil {
			return nil, false // unreachable: the code is MDS
		}
		c.dec, c.missing, c.decHave = m, missing, slices.Clone(have)
	}
	if c.dec != nil {
		outs := c.outs[:len(c.missing)]
		for k, j := range c.missing {
			outs[k] = buf[j*f : (j+1)*f]
		}
		c.dec.apply(c.ins[:t], outs, 0, f, false)
	}
	ct := buf[:n+c.h.overhead]
	for _, b := range buf[len(ct):] {
		if b != 0 {
			return nil, false
		}
	}
	return ct, true
}

// checkOthers marks bad every live share not in sub whose record for the
// chunk just opened differs from the dealer's, which c.ct now holds.
func (c *combiner) checkOthers(sub []*shareIn) {
	t := c.h.threshold
	n, last := sub[0].rec.n, sub[0].rec.last
	f := fragSize(n, t, c.h.overhead)
	parity, rows := c.parity[:0], c.rows[:0]
	for _, s := range c.othersThan(sub) {
		switch {
		case s.rec.n != n || s.rec.last != last:
			c.bad(s, Inconsistent)
		case s.hdr.index < t:
			if j := s.hdr.index; !bytes.Equal(s.rec.frag, c.ct[j*f:(j+1)*f]) {
				c.bad(s, Inconsistent)
			}
		default:
			parity = append(parity, s)
			rows = append(rows, s.hdr.index)
		}
	}
	if len(parity) == 0 {
		return
	}
	if need := len(parity) * f; len(c.check) < need {
		// As much as the parity records just read hold, no more.
		c.check = make([]byte, need)
	}
	data := c.ins[:t]
	for j := range t {
		data[j] = c.ct[j*f : (j+1)*f]
	}
	outs := c.outs[:len(parity)]
	for k := range parity {
		outs[k] = c.check[k*f : (k+1)*f]
	}
	c.parity, c.rows = parity, rows
	if c.chk == nil || !slices.Equal(rows, c.chkRows) {
		c.chk, c.chkRows = c.code.checker(rows), slices.Clone(rows)
	}
	c.chk.apply(data, outs, 0, f, false)
	for k, s := range parity {
		if !bytes.Equal(s.rec.frag, outs[k]) {
			c.bad(s, Inconsistent)
		}
	}
}

// badShares returns the shares found bad so far, by position.
func (c *combiner) badShares() []BadShare {
	var bad []BadShare
	for _, s := range c.all {
		if s.why != 0 {
			bad = append(bad, BadShare{Position: s.pos, Reason: s.why, Err: s.ioErr})
		}
	}
	return bad
}

// fail returns the error for a secret that cannot be recovered, for the
// reason why.
func (c *combiner) fail(why error) error {
	e := &CombineError{Err: why, Bad: c.badShares()}
	if c.h != nil {
		e.Good, e.Needed = len(c.live), c.h.threshold
	}
	return e
}
