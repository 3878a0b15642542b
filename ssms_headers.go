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
// the live shares (which the first chunk checked against the key).
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
	keys := make([]byte, len(idx)*keySize)
	defer clear(keys)
	outs := make([][]byte, len(idx))
	targets := make([]byte, len(idx))
	for k, i := range idx {
		outs[k] = keys[k*keySize : (k+1)*keySize]
		targets[k] = keyX(i)
	}
	interpolate(outs, targets, xs, ys)
	hdrs := make([][]byte, len(idx))
	for k, i := range idx {
		hdrs[k] = c.dec.signer().makeHeader(&c.h.ad, i, c.h.gen, outs[k])
	}
	return hdrs
}

// refresh returns the headers of the next generation of every share given
// to c, in their order: refused, with a [*CombineError], if any share is
// bad or an index is given twice. The new key shares are the old ones plus
// the values of a random polynomial with constant term 0 (refresh); the
// headers are signed with the split's signing key, which is unchanged, and
// so is the split ID.
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
	xs := make([]byte, len(c.live))
	ys := make([][]byte, len(c.live))
	for i, s := range c.live {
		xs[i], ys[i] = s.hdr.x, s.hdr.keyShare[:]
	}
	keys, err := refresh(xs, ys, c.h.threshold, rng)
	if err != nil {
		return nil, err
	}
	hdrs := make([][]byte, len(c.all))
	for i, s := range c.live {
		hdrs[s.pos] = c.dec.signer().makeHeader(&s.hdr.ad, s.hdr.index, s.hdr.gen+1, keys[i][:keySize])
		clear(keys[i])
	}
	return hdrs, nil
}
