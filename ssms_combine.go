package shamir

import (
	"bufio"
	"cmp"
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

// A combiner recovers the secret of one split, chunk by chunk, from the
// shares openSplit (ssms_split.go) settled on.
type combiner struct {
	all []*shareIn // by position in the caller's argument

	live  []*shareIn // the shares of the split not found bad, by index and position
	h     *header    // the header of a live share: the split's parameters
	dec   *decoder   // the split's key and scratch; nil until openSplit found the key
	count uint64     // the number of the next chunk
	done  bool

	inParallel int // the chunks rest took from its parallel pass, for tests

	ci chunkIn // scratch
}

// setGroup makes g the shares the combiner recovers the secret from.
func (c *combiner) setGroup(g []*shareIn) {
	c.live = byIndex(g)
	c.h = g[0].hdr
}

// byIndex returns a copy of shares sorted by index, and by position among
// equal indexes.
func byIndex(shares []*shareIn) []*shareIn {
	s := slices.Clone(shares)
	slices.SortStableFunc(s, func(a, b *shareIn) int { return cmp.Compare(a.hdr.index, b.hdr.index) })
	return s
}

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
			ci.shares[k].why = why
		}
	}
	c.drop()
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
	ci := c.read()
	out, last, res := c.dec.open(ci, dst)
	switch res {
	case ambiguous:
		return dst, c.ambiguous(ci)
	case notOpened:
		c.apply(ci)
		return dst, c.fail(c.why())
	}
	c.apply(ci)
	c.opened(last)
	return out, nil
}

// ambiguous returns the error for a chunk whose shares form two consistent
// sets: nothing is blamed but what reading found.
func (c *combiner) ambiguous(ci *chunkIn) error {
	sets := make([][]int, len(ci.sets))
	for i, set := range ci.sets {
		for _, k := range set {
			sets[i] = append(sets[i], ci.shares[k].pos)
		}
		slices.Sort(sets[i])
	}
	c.apply(ci)
	e := c.fail(ErrInconsistentShares).(*CombineError)
	e.Sets = sets
	return e
}

// opened moves on from a chunk that opened.
func (c *combiner) opened(last bool) {
	c.count++
	if !last {
		return
	}
	c.done = true
	for _, s := range c.live {
		s.why = s.atEnd()
	}
	c.drop()
	c.markCopies()
}

// markCopies marks Duplicate every live share but the first of each
// index: once the secret is recovered, they were checked against every
// chunk, so they are copies of it; before (when it is not), they have its
// header (openSplit kept only the key shares on the split's polynomial)
// and agreed with every chunk read, as far as could be checked copies.
func (c *combiner) markCopies() {
	for i := 1; i < len(c.live); i++ {
		if c.live[i].hdr.index == c.live[i-1].hdr.index {
			c.live[i].why = Duplicate
		}
	}
	c.drop()
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
				out, last, res := d.open(&ci, dst)
				ok := res == opened
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
			live[b.Position].why = b.Reason
		}
		c.drop()
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
