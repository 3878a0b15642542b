package shamir

import (
	"errors"
	"fmt"
	"io"
)

// ShareOverhead is the number of bytes a share made by Split has beyond the
// secret: the x coordinate, stored after the y bytes.
const ShareOverhead = 1

// Errors returned by Split and Combine. They are compared with errors.Is; the
// conditions are those under which Vault's shamir package fails, plus ErrZeroX.
var (
	ErrPartsBelowThreshold = errors.New("shamir: parts cannot be less than threshold")
	ErrTooManyParts        = errors.New("shamir: parts cannot exceed 255")
	ErrThresholdTooSmall   = errors.New("shamir: threshold must be at least 2")
	ErrThresholdTooLarge   = errors.New("shamir: threshold cannot exceed 255")
	ErrEmptySecret         = errors.New("shamir: cannot split an empty secret")

	ErrTooFewParts    = errors.New("shamir: less than two parts cannot be used to reconstruct the secret")
	ErrPartTooShort   = errors.New("shamir: parts must be at least two bytes")
	ErrLengthMismatch = errors.New("shamir: all parts must be the same length")
	ErrDuplicatePart  = errors.New("shamir: duplicate part detected")
	// ErrZeroX reports a part whose x coordinate is 0. Such a part cannot
	// come from Split (its y bytes would be the secret itself); Vault's
	// package accepts it, this one refuses it.
	ErrZeroX = errors.New("shamir: part has x coordinate 0")
)

// Split splits secret into parts shares, any threshold of which reconstruct
// it with Combine; fewer reveal nothing about it. Each share is
// len(secret)+ShareOverhead bytes: a y byte for each byte of the secret, then
// the share's x coordinate. The x coordinates are distinct and uniformly
// random in 1…255; every byte of the secret gets its own polynomial of degree
// threshold-1 with uniformly random coefficients.
//
// It requires 2 <= threshold <= parts <= 255 and a non-empty secret, and uses
// the package's AES-256-CTR generator keyed from crypto/rand. The shares are
// byte-compatible with github.com/hashicorp/vault/shamir in both directions.
func Split(secret []byte, parts, threshold int) ([][]byte, error) {
	r := newRandom()
	defer r.release()
	return split(secret, parts, threshold, r)
}

func checkSplit(secret []byte, parts, threshold int) error {
	// The order is Vault's, so that both packages name the same problem.
	switch {
	case parts < threshold:
		return ErrPartsBelowThreshold
	case parts > 255:
		return ErrTooManyParts
	case threshold < 2:
		return ErrThresholdTooSmall
	case threshold > 255:
		return ErrThresholdTooLarge
	case len(secret) == 0:
		return ErrEmptySecret
	}
	return nil
}

// split is Split with the randomness drawn from rng, which tests make
// deterministic.
//
// A uniformly random polynomial p of degree < t with p(0) = s is determined
// by its values at any t−1 further points, and those values are uniform and
// independent exactly when the coefficients are (the map between them is a
// bijection). So there are two ways to make the shares, with the same
// distribution:
//
//   - evaluate: draw the t−1 coefficients and evaluate p at all n x
//     coordinates, n·(t−1) multiply-adds per byte;
//   - interpolate: draw the first t−1 shares' y bytes directly and compute
//     the other n−t+1 shares by Lagrange interpolation through those and
//     (0, s), (n−t+1)·t multiply-adds per byte and no scratch.
//
// split takes the cheaper. Either way it is one matrix applied to the rows
// [s, r_1, …, r_{t−1}], one block at a time, drawing the random rows of a
// block just before it is used.
func split(secret []byte, parts, threshold int, rng io.Reader) ([][]byte, error) {
	if err := checkSplit(secret, parts, threshold); err != nil {
		return nil, err
	}
	var xsBuf [255]byte
	xs := xsBuf[:parts]
	if err := randomXs(rng, xs); err != nil {
		return nil, err
	}
	n, t := len(secret), threshold

	stride := n + ShareOverhead
	buf := make([]byte, parts*stride)
	shares := make([][]byte, parts)
	for i := range shares {
		shares[i] = buf[i*stride : (i+1)*stride : (i+1)*stride]
		shares[i][n] = xs[i]
	}

	sp := splitter{secret: secret, shares: shares, t: t}
	if interpolate := (parts-t+1)*t < parts*(t-1); interpolate {
		var known [255]byte // 0, then the first t−1 x coordinates
		copy(known[1:], xs[:t-1])
		var coef [64]byte // enough for small schemes, such as 5 of 3
		sp.m = newMatrix(active, lagrange(coef[:0], known[:t], xs[t-1:]), parts-t+1, t)
		sp.outRows = shares[t-1:]
	} else {
		var coef [64]byte
		sp.m = newMatrix(active, vandermonde(coef[:0], xs, t), parts, t)
		sp.outRows = shares
		sp.evaluate = true
	}

	if n <= parallelChunk {
		w := sp.worker()
		defer w.done()
		if err := w.run(0, n, rng); err != nil {
			return nil, err
		}
		return shares, nil
	}
	// A long secret is split in chunks, possibly in parallel. Each chunk
	// draws its random rows from its own keystream, keyed from rng in chunk
	// order, so the shares do not depend on the goroutines' schedule, only
	// on rng.
	keys := make([]byte, (n+parallelChunk-1)/parallelChunk*32)
	defer clear(keys)
	if _, err := io.ReadFull(rng, keys); err != nil {
		return nil, fmt.Errorf("shamir: reading randomness: %w", err)
	}
	forChunks(n, func() (func(i, lo, hi int), func()) {
		w := sp.worker()
		return func(i, lo, hi int) {
			s := newKeystream((*[32]byte)(keys[i*32:]))
			w.run(lo, hi, s) // a keystream never fails
			s.wipe()
		}, w.done
	})
	return shares, nil
}

// A splitter computes the shares' y bytes for a range of the secret.
type splitter struct {
	secret   []byte
	shares   [][]byte
	t        int
	m        *matrix
	outRows  [][]byte // the shares the matrix computes
	evaluate bool     // the random rows are coefficients in scratch, not shares
}

// A splitWorker is what one goroutine needs to run a splitter: the row
// headers of a block, and the scratch for the coefficients.
type splitWorker struct {
	sp        splitter
	ins, outs [][]byte
	scratch   []byte
}

func (sp splitter) worker() splitWorker {
	rows := make([][]byte, sp.t+len(sp.outRows))
	w := splitWorker{sp: sp, ins: rows[:sp.t], outs: rows[sp.t:]}
	if sp.evaluate {
		w.scratch = make([]byte, (sp.t-1)*min(len(sp.secret), blockSize))
	}
	return w
}

// done clears the scratch: coefficients and one share give away the secret.
func (w splitWorker) done() { clear(w.scratch) }

// run fills the shares' y bytes in [lo, hi), one block at a time, drawing
// each block's random rows from rng just before they are used.
func (w *splitWorker) run(lo, hi int, rng io.Reader) error {
	sp, ins, outs := &w.sp, w.ins, w.outs
	for off := lo; off < hi; off += blockSize {
		bn := min(blockSize, hi-off)
		ins[0] = sp.secret[off : off+bn]
		for j := 1; j < sp.t; j++ {
			if sp.evaluate {
				ins[j] = w.scratch[(j-1)*bn : j*bn]
			} else {
				ins[j] = sp.shares[j-1][off : off+bn]
			}
			if _, err := io.ReadFull(rng, ins[j]); err != nil {
				return fmt.Errorf("shamir: reading randomness: %w", err)
			}
		}
		for i, s := range sp.outRows {
			outs[i] = s[off : off+bn]
		}
		sp.m.apply(ins, outs, 0, bn, false)
	}
	return nil
}

// randomXs fills xs with distinct x coordinates, uniform over 1…255: the
// first len(xs) entries of a Fisher–Yates shuffle of 1…255, with each index
// drawn by rejection sampling, so there is no modulo bias. The x coordinates
// are public, so the data-dependent loop is no leak.
func randomXs(rng io.Reader, xs []byte) error {
	perm := oneTo255
	var buf [64]byte
	pos := len(buf)
	for i := range xs {
		k := len(perm) - i   // draw j uniformly from [i, 255)
		limit := 256 - 256%k // the largest multiple of k that fits a byte
		for {
			if pos == len(buf) {
				if _, err := io.ReadFull(rng, buf[:]); err != nil {
					return fmt.Errorf("shamir: reading randomness: %w", err)
				}
				pos = 0
			}
			b := int(buf[pos])
			pos++
			if b < limit {
				j := i + b%k
				perm[i], perm[j] = perm[j], perm[i]
				break
			}
		}
	}
	copy(xs, perm[:])
	return nil
}

// oneTo255 holds 1…255, the x coordinates to shuffle.
var oneTo255 = func() (p [255]byte) {
	for i := range p {
		p[i] = byte(i + 1)
	}
	return p
}()

// vandermonde appends to dst the len(xs)×t matrix whose row i is
// 1, x_i, …, x_i^(t−1): it maps a polynomial's coefficients to its values at
// xs.
func vandermonde(dst, xs []byte, t int) []byte {
	for _, x := range xs {
		p := byte(1)
		for range t {
			dst = append(dst, p)
			p = gfMulPublic(p, x)
		}
	}
	return dst
}

// lagrange appends to dst the len(targets)×len(known) matrix that maps the values of
// a polynomial of degree < len(known) at the distinct points known to its
// values at targets, none of which may be in known:
//
//	L[i][j] = Π_{m≠j} (targets[i] − known[m]) / (known[j] − known[m])
//	        = N_i / ((targets[i] − known[j]) · D_j)
//
// with N_i = Π_m (targets[i] − known[m]) and D_j = Π_{m≠j} (known[j] − known[m]);
// in GF(2^8), subtraction is XOR. All the points are public.
func lagrange(dst, known, targets []byte) []byte {
	t := len(known)
	var invDBuf [255]byte
	invD := invDBuf[:t]
	for j, xj := range known {
		d := byte(1)
		for m, xm := range known {
			if m != j {
				d = gfMulPublic(d, xj^xm)
			}
		}
		invD[j] = gfInvPublic(d)
	}
	for _, x := range targets {
		num := byte(1)
		for _, xm := range known {
			num = gfMulPublic(num, x^xm)
		}
		for j, xj := range known {
			dst = append(dst, gfMulPublic(num, gfMulPublic(gfInvPublic(x^xj), invD[j])))
		}
	}
	return dst
}

// lagrangeAtZero returns the weights w_j with p(0) = Σ_j w_j·p(xs[j]) for
// every polynomial p of degree < len(xs): L_j(0) = Π_{m≠j} x_m / (x_j − x_m).
// The x coordinates must be distinct and non-zero.
func lagrangeAtZero(xs []byte) []byte {
	w := make([]byte, len(xs))
	for j, xj := range xs {
		num, den := byte(1), byte(1)
		for m, xm := range xs {
			if m != j {
				num = gfMulPublic(num, xm)
				den = gfMulPublic(den, xj^xm)
			}
		}
		w[j] = gfMulPublic(num, gfInvPublic(den))
	}
	return w
}

// Combine reconstructs a secret from shares made by Split (or by Vault's
// shamir package). All parts must have the same length, at least two bytes,
// and distinct, non-zero x coordinates (their last byte).
//
// Combine cannot know the threshold: given fewer parts than the threshold,
// or a part that was altered, it returns a wrong secret without error. Use
// Verify to check parts that may be damaged.
func Combine(parts [][]byte) ([]byte, error) {
	xs, ys, err := parseParts(parts)
	if err != nil {
		return nil, err
	}
	n := len(ys[0])
	secret := make([]byte, n)
	m := newMatrix(active, lagrangeAtZero(xs), 1, len(parts))
	forChunks(n, func() (func(i, lo, hi int), func()) {
		outs := [][]byte{secret}
		return func(_, lo, hi int) { m.apply(ys, outs, lo, hi-lo, false) }, nil
	})
	return secret, nil
}

// parseParts checks parts as Combine does, in Vault's order, and returns
// their x coordinates and their y bytes.
func parseParts(parts [][]byte) (xs []byte, ys [][]byte, err error) {
	if len(parts) < 2 {
		return nil, nil, ErrTooFewParts
	}
	size := len(parts[0])
	if size < 2 {
		return nil, nil, ErrPartTooShort
	}
	for _, p := range parts[1:] {
		if len(p) != size {
			return nil, nil, ErrLengthMismatch
		}
	}
	n := size - ShareOverhead
	var seen [256]bool
	xs = make([]byte, len(parts))
	ys = make([][]byte, len(parts))
	for i, p := range parts {
		x := p[n]
		if seen[x] {
			return nil, nil, ErrDuplicatePart
		}
		if x == 0 {
			return nil, nil, ErrZeroX
		}
		seen[x] = true
		xs[i], ys[i] = x, p[:n]
	}
	return xs, ys, nil
}
