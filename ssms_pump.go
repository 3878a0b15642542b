package shamir

import (
	"crypto/subtle"
	"errors"
	"runtime"
	"slices"
	"sync"
)

// This file is the second room of the reading pipeline: the chunk pump.
// Once openSplit (ssms_open.go) has settled the split, its key and its
// live shares, the combiner reads each chunk's records (in the order of
// the shares' indexes), has the decoder (ssms_decode.go) find the unique
// codeword and open it, drops the shares found bad, and hands the
// authenticated chunks to the consumers: CombineSSMS (ssms_combine.go), the
// reader (ssms_stream.go) and the lifecycle functions (ssms_lifecycle.go).
// Chunks held in memory are decoded on GOMAXPROCS goroutines (rest), with
// the result of a sequential run. Record tags are checked by the decoder
// where a chunk's records disagree (ssms_decode.go); signatures here only
// when they still disagree once the records whose tags fail are set aside
// (then the chunk is decoded again without the forged shares), and before
// a share is named (badShares).

// finished reports whether the last chunk was returned.
func (c *combiner) finished() bool { return c.done }

// next returns the number of the next chunk.
func (c *combiner) next() uint64 { return c.count }

// threshold returns the split's threshold.
func (c *combiner) threshold() int { return c.h.threshold }

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
	ci.readDone()
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
	if c.checkAll && !c.verified {
		c.verifyAll()
		c.drop()
	}
	ci := c.read()
	out, last, res := c.dec.open(ci, dst)
	if !c.verified && (res != opened || ci.disagreed()) && c.verifyAll() {
		// Shares disagreed, and some had headers made without the key:
		// the chunk is decoded again without them. (A share that only
		// failed its own checks decides nothing: it is checked when it is
		// named, by badShares.)
		clear(out[len(dst):])
		ci.dropForged()
		out, last, res = c.dec.open(ci, dst)
	}
	switch res {
	case ambiguous:
		return dst, c.ambiguous(ci)
	case notOpened:
		several := c.dec.several(ci)
		c.unsure = slices.Concat(several...)
		c.apply(ci)
		err := c.fail(c.why())
		if e := err.(*CombineError); errors.Is(e.Err, ErrInconsistentShares) {
			e.Several = several
		}
		return dst, err
	}
	c.apply(ci)
	c.opened(last)
	return out, nil
}

// sealedData returns the data fragments of the chunk chunk last returned,
// of n plaintext bytes: its authenticated ciphertext, valid until the next
// call of chunk. The lifecycle functions disperse it to new rows.
func (c *combiner) sealedData(n int) [][]byte { return c.dec.dataFragments(n) }

// recordTags returns the tagger of the split's records, for the lifecycle
// functions that write new records.
func (c *combiner) recordTags() *tagger { return c.dec.recordTags() }

// checkEveryTag makes every chunk check the tag of every record, whether
// or not the records agree: for RefreshSSMS, which keeps the records it
// is given in the refreshed shares, so must not keep one that was altered.
func (c *combiner) checkEveryTag() { c.dec.allTags = true }

// checkEverything makes c check every header's signature before the first
// chunk and every record's tag in every chunk: for a verifier
// ([CombineReader.CheckAll]), which must name a share whose signature or
// tags alone were changed, though the secret does not need them.
func (c *combiner) checkEverything() {
	c.checkAll = true
	if c.dec != nil {
		c.checkEveryTag()
	}
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
	several := c.dec.several(ci)
	c.unsure = slices.Concat(several...)
	c.apply(ci)
	e := c.fail(ErrInconsistentShares).(*CombineError)
	e.Sets, e.Several = sets, several
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
// header: once the secret is recovered, they were checked against every
// chunk, so they are copies of it; before (when it is not), they have its
// header (openSplit kept only the key shares on the split's polynomial)
// and agreed with every chunk read, as far as could be checked copies.
func (c *combiner) markCopies() {
	if !c.verified {
		for i := 1; i < len(c.live); i++ {
			if c.live[i-1].hdr.index == c.live[i].hdr.index {
				// Copies are named: their signatures first.
				c.verifyAll()
				c.drop()
				break
			}
		}
	}
	for i := 1; i < len(c.live); i++ {
		// Until openSplit has settled the key shares (when it fails),
		// shares of one index need not hold one key share: only a header
		// with the same key share (and parameters and generation) is a
		// copy's. Its signed bytes may differ: two signed headers of one
		// index, of two batches (a share made again at an index no given
		// share's batch covered), are one share, the signatures checked
		// above.
		// Nor is a share whose record of the chunk refused differs from
		// another's of its index (c.unsure): which is the copy is unknown.
		a, b := c.live[i-1].hdr, c.live[i].hdr
		if a.index == b.index && a.ad == b.ad && a.gen == b.gen &&
			!slices.Contains(c.unsure, c.live[i].pos) &&
			subtle.ConstantTimeCompare(a.keyShare[:], b.keyShare[:]) == 1 {
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

// badShares returns the shares found bad so far, by position. A share is
// named only once its signature was checked, so that one made without the
// key is named Forged, whatever else is wrong with it.
func (c *combiner) badShares() []BadShare {
	for _, s := range c.all {
		if s.hdr != nil && s.why != 0 && s.why != Forged && s.why != Unreadable && !c.holds(s.hdr) {
			s.why = Forged
		}
	}
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
	if c.count == 0 {
		// The first chunk alone: a share it finds bad is dropped before
		// the parallel pass, which would otherwise stop at the first chunk
		// that finds one and leave the rest to a sequential run.
		var err error
		if secret, err = c.chunk(secret); err != nil || c.done {
			return secret, err
		}
	}
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
	lens := make([]int, 0, len(c.live))
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
	secret, taken := c.take(secret[:base], results, live)
	// Plaintext of chunks decoded but not taken is not the secret's yet.
	clear(secret[len(secret):cap(secret)])
	return secret, taken
}

// take takes the chunks of results, decoded in parallel with the shares
// live into their places after secret, in order as a sequential run would:
// while they opened, up to and including the first that found a share bad
// or was the last. It returns the secret extended and how many it took.
func (c *combiner) take(secret []byte, results []chunkResult, live []*shareIn) ([]byte, int) {
	h, size := c.h, c.h.chunkSize
	full := recordSize(h, size)
	base := len(secret)
	taken := 0
	for j, r := range results {
		if !r.ok || !c.verified && slices.ContainsFunc(r.bad, func(b BadShare) bool { return b.Reason == Inconsistent }) {
			// A chunk whose records disagreed is left to the sequential
			// run, which checks the signatures first.
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
	return secret, taken
}
