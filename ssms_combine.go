package shamir

import (
	"bufio"
	"cmp"
	"crypto/subtle"
	"io"
	"runtime"
	"slices"
	"sync"
)

// This file holds what CombineSSMS and NewCombineReader have in common: it
// sorts the shares into splits, refuses to choose between splits, and
// recovers the split's secret chunk by chunk (the decoding is in
// ssms_decode.go).
//
// Telling the bad shares. Each share's header and each of its records carry
// a CRC-32C, so a share damaged by accident is named from its own bytes,
// before any decoding. A share altered on purpose can pass its CRCs; then
// it disagrees with the chunk the others decode to, which the AEAD
// authenticates (ssms_decode.go). Every field of the header is bound: the
// split's parameters are the AEAD's associated data, the index picks the
// share's row of the code and the x coordinate of its key share, and the
// key share is checked against the key's polynomial. Shares whose
// parameters differ from those of the split's chunks that opened are
// Inconsistent.

// A shareIn is one share being combined, whole in memory or read from a
// stream.
type shareIn struct {
	pos   int     // the index into the caller's argument
	hdr   *header // nil when parseHeader found the share bad
	why   Reason  // why the share is bad, once it is; 0 before
	ioErr error   // the stream's error, when why is Unreadable

	mem []byte        // CombineSSMS: the records
	off int           // CombineSSMS: where the next record starts in mem
	r   *bufio.Reader // NewCombineReader: the stream
	buf []byte        // NewCombineReader: the current record
	num chunkNum      // the number of the record being read
}

// next reads and checks the share's record for chunk count, or says why
// it cannot.
func (s *shareIn) next(count uint64) (record, Reason) {
	s.num.set(count, false)
	if s.r == nil {
		rec, why := recordAt(s.hdr, &s.num, s.mem[min(s.off, len(s.mem)):])
		if why == 0 {
			s.off += recordSize(s.hdr, rec.n)
		}
		return rec, why
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
	return parseRecord(s.hdr, &s.num, s.buf)
}

// recordAt parses the record of the share with header h for the chunk num
// at the start of b.
func recordAt(h *header, num *chunkNum, b []byte) (record, Reason) {
	n, _, why := recordLength(h, chunkCount(num), b)
	if why != 0 {
		return record{}, why
	}
	size := recordSize(h, n)
	if len(b) < size {
		return record{}, Truncated
	}
	return parseRecord(h, num, b[:size])
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
		if s.off < len(s.mem) {
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

// eachShare calls f for every share of shares: at once, on a goroutine
// each, when they are streams, so that streams that fill in another order
// than the arguments' (pipes from one writer) never wait for one another.
func eachShare(shares []*shareIn, f func(k int, s *shareIn)) {
	if len(shares) < 2 || shares[0].r == nil {
		for k, s := range shares {
			f(k, s)
		}
		return
	}
	var wg sync.WaitGroup
	for k, s := range shares {
		wg.Go(func() { f(k, s) })
	}
	wg.Wait()
}

// A combiner recovers the secret of one split, chunk by chunk.
type combiner struct {
	all []*shareIn // by position in the caller's argument

	// The split's shares, in groups of those whose headers agree on the
	// split's parameters (threshold, chunk size, AEAD), the largest first.
	// Until the first chunk opens, which is meant is not known: a share
	// whose parameters were altered is a group of its own.
	groups [][]*shareIn

	live  []*shareIn // the shares of the split not found bad, by index and position
	h     *header    // the header of a live share: the split's parameters
	dec   *decoder   // nil before the first chunk is read
	count uint64     // the number of the next chunk
	done  bool

	inParallel int // the chunks rest took from its parallel pass, for tests

	ci chunkIn // scratch
}

// newCombiner sorts the shares whose headers parsed into splits, and
// returns the combiner of the split want, or of the only split if want is
// nil. Shares of other splits are OtherSplit when want names one; when it
// does not, shares of more than one split fail with ErrMixedSplits, after
// the first chunk of each split was tried, so that the error can say how
// many good shares each has.
func newCombiner(all []*shareIn, want *SplitID) (*combiner, error) {
	var ids []SplitID
	byID := make(map[SplitID][]*shareIn)
	for _, s := range all {
		if s.hdr == nil {
			continue
		}
		if byID[s.hdr.id] == nil {
			ids = append(ids, s.hdr.id)
		}
		byID[s.hdr.id] = append(byID[s.hdr.id], s)
	}
	if want == nil && len(ids) > 1 {
		return nil, mixedSplits(all, ids, byID)
	}
	var mine []*shareIn
	if want != nil {
		for _, id := range ids {
			if id != *want {
				for _, s := range byID[id] {
					s.why = OtherSplit
				}
			}
		}
		mine = byID[*want]
	} else if len(ids) == 1 {
		mine = byID[ids[0]]
	}
	c := &combiner{all: all}
	if len(mine) == 0 {
		return nil, c.fail(ErrNotEnoughShares)
	}
	c.groups = groupByParams(mine)
	c.setGroup(c.groups[0])
	if err := checkApproved(c.h.aead); err != nil {
		return nil, c.fail(err)
	}
	return c, nil
}

// groupByParams returns the shares in groups of those whose headers agree
// on everything but the index and key share, the largest group first (the
// first given, among equals).
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

// setGroup makes g the shares the combiner tries to recover the secret from.
func (c *combiner) setGroup(g []*shareIn) {
	c.live = slices.Clone(g)
	slices.SortStableFunc(c.live, func(a, b *shareIn) int { return cmp.Compare(a.hdr.index, b.hdr.index) })
	c.h = g[0].hdr
}

// mixedSplits returns the error for shares of several splits, given in the
// order ids: it tries the first chunk of each split to count its good shares.
func mixedSplits(all []*shareIn, ids []SplitID, byID map[SplitID][]*shareIn) error {
	e := &CombineError{Err: ErrMixedSplits}
	for _, id := range ids {
		shares := byID[id]
		c := &combiner{all: all, groups: groupByParams(shares)}
		c.setGroup(c.groups[0])
		sp := SplitShares{ID: id, Threshold: c.h.threshold}
		for _, s := range shares {
			sp.Positions = append(sp.Positions, s.pos)
		}
		if checkApproved(c.h.aead) == nil {
			if out, err := c.chunk(nil); err == nil {
				clear(out)
				sp.Threshold, sp.Good = c.h.threshold, c.good()
			}
		}
		c.release()
		e.Splits = append(e.Splits, sp)
	}
	e.Bad = (&combiner{all: all}).badShares()
	return e
}

// release clears the key and gives back the buffers.
func (c *combiner) release() {
	if c.dec != nil {
		c.dec.release()
	}
}

// bad marks the share s bad for the reason why and drops it from live.
func (c *combiner) bad(s *shareIn, why Reason) {
	s.why = why
	c.live = slices.DeleteFunc(c.live, func(l *shareIn) bool { return l == s })
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

// read reads the live shares' records of the chunk c.count into c.ci.
// The records are read in the order of the shares' indexes, whatever the
// order of the arguments: the order in which NewSplitWriter writes them, so
// that a reader connected to it with pipes, given in any order, never waits
// for a record the writer cannot write yet. (The headers, whose indexes are
// not known before they are read, are read concurrently.)
func (c *combiner) read() *chunkIn {
	ci := &c.ci
	ci.reset(c.count, c.live)
	for k, s := range ci.shares {
		ci.recs[k], ci.why[k] = s.next(c.count)
	}
	return ci
}

// apply drops the shares ci found bad.
func (c *combiner) apply(ci *chunkIn) {
	for k, why := range ci.why {
		if why != 0 {
			c.bad(ci.shares[k], why)
		}
	}
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
	if c.dec == nil {
		return c.first(dst)
	}
	ci := c.read()
	out, last, ok := c.dec.open(ci, dst)
	c.apply(ci)
	if !ok {
		return dst, c.fail(c.why())
	}
	c.opened(last)
	return out, nil
}

// first opens the first chunk, trying each group of shares in turn: the
// first that opens is the split, and the shares of the other groups, which
// claim other parameters for it, are Inconsistent.
func (c *combiner) first(dst []byte) ([]byte, error) {
	for _, g := range c.groups {
		c.setGroup(g)
		if len(c.live) < c.h.threshold || checkApproved(c.h.aead) != nil {
			continue
		}
		if c.dec != nil {
			c.dec.release()
		}
		c.dec = newDecoder(c.h)
		ci := c.read()
		out, last, ok := c.dec.open(ci, dst)
		c.apply(ci)
		if !ok {
			continue
		}
		for _, o := range c.groups {
			if o[0].hdr.ad != g[0].hdr.ad {
				for _, s := range o {
					if s.why == 0 {
						s.why = Inconsistent
					}
				}
			}
		}
		c.opened(last)
		return out, nil
	}
	c.setGroup(c.groups[0])
	c.live = slices.DeleteFunc(c.live, func(s *shareIn) bool { return s.why != 0 })
	return dst, c.fail(c.why())
}

// opened moves on from a chunk that opened.
func (c *combiner) opened(last bool) {
	c.count++
	if !last {
		return
	}
	c.done = true
	var ends []Reason
	for _, s := range c.live {
		ends = append(ends, s.atEnd())
	}
	for i, s := range slices.Clone(c.live) {
		if ends[i] != 0 {
			c.bad(s, ends[i])
		}
	}
	c.markCopies()
}

// markCopies marks Duplicate every live share but the first of each index:
// once they were checked against every chunk, they are copies of it. Before
// (when the secret is not recovered), only those whose key share is the
// first's too are marked, as far as could be checked copies.
func (c *combiner) markCopies() {
	for i := len(c.live) - 1; i > 0; i-- {
		s := c.live[i]
		first := slices.IndexFunc(c.live, func(l *shareIn) bool { return l.hdr.index == s.hdr.index })
		if first < i && (c.done || subtle.ConstantTimeCompare(c.live[first].hdr.keyShare[:], s.hdr.keyShare[:]) == 1) {
			c.bad(s, Duplicate)
		}
	}
}

// why returns why a chunk did not open: too few shares with good records,
// or shares that disagree in a way the decoder could not resolve.
func (c *combiner) why() error {
	if c.good() < c.h.threshold {
		return ErrNotEnoughShares
	}
	return ErrInconsistentShares
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
	if c.h != nil {
		c.markCopies()
	}
	e := &CombineError{Err: why, Bad: c.badShares()}
	if c.h != nil {
		e.Good, e.Needed = c.good(), c.h.threshold
	}
	return e
}

// rest recovers the chunks after the first of shares held in memory,
// appending them to secret, on up to GOMAXPROCS goroutines.
//
// The result is the sequential one's, byte for byte and share for share.
// Each goroutine decodes its chunks with the shares live after the first
// chunk; every chunk but the last is full, so where a share's record of a
// chunk starts follows from the chunk's number. Then the chunks are taken
// in order while they opened with the shares live at that point in a
// sequential run: up to and including the first chunk that finds a share
// bad (the chunks after it were decoded with that share, which a sequential
// run would have dropped). From there on, or from a chunk that did not
// open, the chunks are recovered one by one, as a sequential run would.
func (c *combiner) rest(secret []byte) ([]byte, error) {
	if chunks, size := c.held(); chunks >= 2 && runtime.GOMAXPROCS(0) > 1 && checkApproved(c.h.aead) == nil {
		secret, c.inParallel = c.parallel(secret, chunks, size)
	}
	var err error
	for !c.done && err == nil {
		secret, err = c.chunk(secret)
	}
	return secret, err
}

// held returns how many more chunks the live shares held in memory can
// make, and a bound on their plaintext length: a chunk needs threshold
// records, so no more than the threshold-th longest live share holds. The
// bound is at most threshold times that share's length: memory follows
// the input, not a chunk size that headers claim.
func (c *combiner) held() (chunks, size int) {
	h, t := c.h, c.h.threshold
	var lens []int
	for _, s := range c.live {
		lens = append(lens, max(0, len(s.mem)-s.off))
	}
	if len(lens) < t {
		return 0, 0
	}
	slices.Sort(lens)
	n := lens[len(lens)-t]
	full := recordSize(h, h.chunkSize)
	chunks, rest := n/full, n%full
	size = chunks * h.chunkSize
	if rest > 0 {
		chunks++
		size += max(0, (rest-recordOverhead)*t)
	}
	return chunks, size
}

// A chunkResult is what a goroutine of parallel found of one chunk.
type chunkResult struct {
	n        int // the plaintext length, when ok
	ok, last bool
	bad      []BadShare // Position is the share's place in the live shares
}

// parallel decodes up to chunks chunks from c.count on, each into its place
// in secret, and takes those it can as a sequential run would (see rest).
func (c *combiner) parallel(secret []byte, chunks, bound int) ([]byte, int) {
	h, size := c.h, c.h.chunkSize
	full := recordSize(h, size)
	base := len(secret)
	secret = slices.Grow(secret, bound)
	space := secret[:base+bound]
	live := slices.Clone(c.live)
	from := c.count
	results := make([]chunkResult, chunks)
	var mu sync.Mutex
	var decs []*decoder
	forChunksOf(chunks, max(1, parallelChunk/size), func() (func(int, int, int), func()) {
		d := c.dec.withKey()
		mu.Lock()
		decs = append(decs, d)
		mu.Unlock()
		var ci chunkIn
		var num chunkNum
		return func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				ci.reset(from+uint64(j), live)
				num.set(from+uint64(j), false)
				for k, s := range live {
					off := s.off + j*full
					ci.recs[k], ci.why[k] = recordAt(s.hdr, &num, s.mem[min(off, len(s.mem)):])
				}
				at := base + j*size
				dst := space[at:at:min(at+size, len(space))]
				out, last, ok := d.open(&ci, dst)
				if ok && len(out) > cap(dst) {
					// Not in space (unreachable, by held's bound):
					// left to the sequential run.
					clear(out)
					ok = false
				}
				r := chunkResult{n: len(out), ok: ok, last: last}
				for k, why := range ci.why {
					if why != 0 {
						r.bad = append(r.bad, BadShare{Position: k, Reason: why})
					}
				}
				results[j] = r
			}
		}, nil
	})
	for _, d := range decs {
		d.release()
	}
	taken := 0
	for j, r := range results {
		if !r.ok {
			break
		}
		taken++
		secret = secret[:base+j*size+r.n]
		for _, s := range live {
			s.off += full
		}
		for _, b := range r.bad {
			c.bad(live[b.Position], b.Reason)
		}
		if r.last {
			// The last record is shorter than a full one.
			for _, s := range c.live {
				s.off += recordSize(h, r.n) - full
			}
		}
		c.opened(r.last)
		if r.last || len(r.bad) > 0 {
			break
		}
	}
	// Plaintext of chunks decoded but not taken is not the secret's yet.
	clear(secret[len(secret):cap(secret)])
	return secret, taken
}

// chunkCount returns the chunk number num holds.
func chunkCount(num *chunkNum) uint64 {
	var n uint64
	for _, b := range num.be {
		n = n<<8 | uint64(b)
	}
	return n
}
