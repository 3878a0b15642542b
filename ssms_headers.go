package shamir

import (
	"errors"
	"io"
)

// This file makes the headers of new shares of a split whose key the
// combiner recovered: the lifecycle functions (ssms_lifecycle.go) ask for
// them, and only here does the package sign headers for holders who know
// the key (SplitSSMS signs its own, ssms.go). Every header these come
// from had its signature checked (openSplit with verify).

// newHeaders returns the headers of the new shares at idx of c's split,
// once its first chunk opened: the split's common fields, the index, and
// the key share at keyX(index), interpolated from threshold key shares of
// the live shares (which the first chunk checked against the key). An
// index in the batch of a live share (its range) is made in that batch,
// byte for byte the share that batch's operation made there (of several
// such batches, the one with the lowest first index, then the smallest);
// each run of consecutive indexes in no such batch is a new batch, signed
// once.
func (c *combiner) newHeaders(idx []int) [][]byte {
	t := c.h.threshold
	xs := make([]byte, 0, t)
	ys := make([][]byte, 0, t)
	for _, s := range c.live {
		if len(xs) < t && (len(xs) == 0 || xs[len(xs)-1] != s.hdr.x) {
			xs = append(xs, s.hdr.x)
			ys = append(ys, s.hdr.keyShare[:])
		}
	}
	type batch struct{ first, size int }
	of := make([]batch, len(idx))
	for k, i := range idx {
		of[k] = batch{-1, 0}
		for _, s := range c.live {
			b := batch{s.hdr.first, s.hdr.size}
			if i >= b.first && i < b.first+b.size && (of[k].first < 0 || b.first < of[k].first || b.first == of[k].first && b.size < of[k].size) {
				of[k] = b
			}
		}
	}
	// The runs of consecutive new indexes in no live share's batch.
	for k, i := range idx {
		if of[k].first >= 0 {
			continue
		}
		lo, hi := i, i
		for again := true; again; {
			again = false
			for j, o := range idx {
				if of[j].first < 0 && (o == lo-1 || o == hi+1) {
					lo, hi, again = min(lo, o), max(hi, o), true
				}
			}
		}
		for j, o := range idx {
			if of[j].first < 0 && o >= lo && o <= hi {
				of[j] = batch{lo, hi - lo + 1}
			}
		}
	}
	hdrs := make([][]byte, len(idx))
	done := make([]bool, len(idx))
	for k := range idx {
		if done[k] {
			continue
		}
		b := of[k]
		var want []int
		var at []int
		for j, o := range idx {
			if of[j] == b {
				want, at = append(want, o), append(at, j)
				done[j] = true
			}
		}
		keys, buf := keySharesOf(b.first, b.size, xs, ys)
		for w, h := range c.dec.signer().batchHeaders(&c.h.ad, c.h.gen, b.first, keys, want) {
			hdrs[at[w]] = h
		}
		clear(buf)
	}
	return hdrs
}

// refresh returns the headers of the next generation of every share given
// to c, in their order: refused, with a [*CombineError], if any share is
// bad or an index is given twice. The new key shares are the old ones plus
// the values of a random polynomial with constant term 0 (refresh); the
// headers are signed with the split's signing key, which is unchanged, and
// so is the split ID. Each batch of the old shares (its range) is a batch
// of the new generation, signed once: a share's header keeps its length.
func (c *combiner) refresh(rng io.Reader) ([][]byte, error) {
	for i := 1; i < len(c.live); i++ {
		if c.live[i].hdr.index == c.live[i-1].hdr.index {
			c.live[i].why = Duplicate
		}
	}
	c.drop()
	why := errRefreshBad
	for _, s := range c.all {
		if s.why == Inconsistent || s.why == Forged {
			why = ErrInconsistentShares
		}
	}
	if len(c.live) < len(c.all) {
		return nil, c.fail(why)
	}
	if c.h.gen == maxGeneration {
		return nil, errors.New("shamir: the split was refreshed 2^32−1 times: reshare it")
	}
	t := c.h.threshold
	xs := make([]byte, len(c.live))
	ys := make([][]byte, len(c.live))
	for i, s := range c.live {
		xs[i], ys[i] = s.hdr.x, s.hdr.keyShare[:]
	}
	keys, err := refresh(xs, ys, t, rng)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, k := range keys {
			clear(k)
		}
	}()
	news := make([][]byte, len(keys))
	for i, k := range keys {
		news[i] = k[:keySize]
	}
	hdrs := make([][]byte, len(c.all))
	for i, s := range c.live {
		if hdrs[s.pos] != nil {
			continue
		}
		first, size := s.hdr.first, s.hdr.size
		var want, at []int
		for _, o := range c.live[i:] {
			if o.hdr.first == first && o.hdr.size == size {
				want, at = append(want, o.hdr.index), append(at, o.pos)
			}
		}
		// The live shares have distinct indexes, on one polynomial: the
		// first t of the new key shares give it.
		ks, buf := keySharesOf(first, size, xs[:t], news[:t])
		for w, h := range c.dec.signer().batchHeaders(&s.hdr.ad, s.hdr.gen+1, first, ks, want) {
			hdrs[at[w]] = h
		}
		clear(buf)
	}
	return hdrs, nil
}
