package shamir

import (
	"errors"
	"fmt"
	"io"
)

// This file derives new shares from the shares of a split, for the life of
// a split after Split: a lost share made again, new shares for new holders,
// the shares re-randomized after a leak, a new (parts, threshold). Each is a
// product of the engine:
//
//   - Recreate and Extend apply the Lagrange matrix from threshold of the
//     given x coordinates to the new ones: the share at x is
//     Σ_i λ_i(x)·y_i, the Lagrange row at x instead of at 0, so the secret
//     is never computed;
//   - Refresh adds to every share the value at its x coordinate of a
//     uniformly random polynomial with constant term 0, whose coefficients
//     the engine draws a block at a time;
//   - Reshare is Combine, then Split, as it must be.
//
// Each refuses to derive anything from parts that disagree: with more than
// threshold parts, it runs Verify's check first.

// The errors of the x coordinates asked for, besides those of Split,
// Combine and Verify. Like theirs, none is exported: each means that the
// arguments are unusable, and says how.
var (
	errNoXs        = errors.New("shamir: no x coordinates to make shares at")
	errNewZeroX    = errors.New("shamir: cannot make a share at x coordinate 0: its y bytes would be the secret")
	errDuplicateX  = errors.New("shamir: x coordinate asked for twice")
	errXInUse      = errors.New("shamir: x coordinate already used by one of the parts")
	errNoNewShares = errors.New("shamir: must make at least one new share")
)

// Recreate returns the shares at the x coordinates xs of the split that
// parts come from: at least threshold shares made by [Split] (or by Vault's
// shamir package) with that threshold. Each share is byte for byte the one
// Split made at that x coordinate, so a lost share is made again from any
// threshold others and its x coordinate (its last byte, which a record of
// the split may keep); the shares are in the order of xs.
//
// Each share is computed as Σ_i λ_i(x)·y_i over threshold of the parts: the
// Lagrange weights at x instead of at 0, so the secret is never computed.
// The running time depends on the lengths, the number of parts and the x
// coordinates, not on the secret or the shares' bytes.
//
// At an x coordinate that no share of the split has, the share is a new
// one, which no one can tell from a share made by Split: Recreate also
// extends a split at x coordinates the caller chooses. It can refuse only
// the x coordinates of parts; at the x coordinate of a share it was not
// given, it makes a copy of that share, which counts once towards the
// threshold. [Extend] draws fresh x coordinates instead.
//
// Given more than threshold parts, Recreate first checks them as [Verify]
// does, and refuses parts that disagree: with a
// [*CombineError] whose Err is [ErrInconsistentShares] and whose Bad names
// the bad parts, or, when they cannot be located, an error wrapping
// ErrInconsistentShares. With exactly
// threshold parts there is nothing to check them against: a damaged part
// gives wrong shares, and no error.
//
// Recreate fails, as Verify does, for parts that [Combine] refuses, for
// fewer than threshold parts and for a threshold outside 2…255; and for no
// xs, an x coordinate of 0, one given twice, or one of parts.
func Recreate(parts [][]byte, threshold int, xs ...byte) ([][]byte, error) {
	px, ys, err := parsePartsThreshold(parts, threshold)
	if err != nil {
		return nil, err
	}
	if err := checkNewXs(xs, px); err != nil {
		return nil, err
	}
	if err := checkConsistent(px, ys, threshold); err != nil {
		return nil, err
	}
	return derive(px, ys, threshold, xs), nil
}

// Extend returns count new shares of the split that parts come from: at
// least threshold shares made by [Split] (or by Vault's shamir package)
// with that threshold. The new shares combine with the split's, in any
// mixture, as the split's own do.
//
// Their x coordinates are distinct and none is that of one of parts or one
// of inUse, the x coordinates of the split's shares that the caller did not
// give (0 in inUse, and repeats, are allowed and change nothing). They are
// uniformly random over the x coordinates left, as [Split]'s are over
// 1…255: when inUse lists every other share of the split, a split extended
// by k shares is distributed as a split of k more shares, and no one can
// tell the new shares from the old. The new shares are computed as
// [Recreate] computes them, without the secret, with randomness for the x
// coordinates from the generator Split uses. To extend a split at x
// coordinates of one's choosing, call Recreate with them.
//
// Given more than threshold parts, Extend first checks them as [Verify]
// does, and refuses parts that disagree: with a
// [*CombineError] whose Err is [ErrInconsistentShares] and whose Bad names
// the bad parts, or, when they cannot be located, an error wrapping
// ErrInconsistentShares. With exactly
// threshold parts there is nothing to check them against: a damaged part
// gives wrong shares, and no error.
//
// Extend fails, as Verify does, for parts that [Combine] refuses, for fewer
// than threshold parts and for a threshold outside 2…255; and for a count
// below 1 or above the number of x coordinates left.
func Extend(parts [][]byte, threshold, count int, inUse []byte) ([][]byte, error) {
	px, ys, err := parsePartsThreshold(parts, threshold)
	if err != nil {
		return nil, err
	}
	var used [256]bool
	used[0] = true
	for _, x := range px {
		used[x] = true
	}
	for _, x := range inUse {
		used[x] = true
	}
	var freeBuf [255]byte
	free := freeBuf[:0]
	for x := 1; x < 256; x++ {
		if !used[x] {
			free = append(free, byte(x))
		}
	}
	switch {
	case count < 1:
		return nil, errNoNewShares
	case count > len(free):
		return nil, fmt.Errorf("%w: %d x coordinates are taken, %d more shares asked for",
			errTooManyParts, 255-len(free), count)
	}
	if err := checkConsistent(px, ys, threshold); err != nil {
		return nil, err
	}
	r := newRandom()
	defer r.release()
	return extend(px, ys, threshold, count, free, r)
}

// extend is Extend after the checks, with the x coordinates drawn from
// free, which it shuffles, with randomness from rng.
func extend(px []byte, ys [][]byte, t, count int, free []byte, rng io.Reader) ([][]byte, error) {
	var xsBuf [255]byte
	xs := xsBuf[:count]
	var scratch [xsScratch]byte
	err := pickXs(rng, xs, free, scratch[:])
	clear(scratch[:])
	if err != nil {
		return nil, err
	}
	return derive(px, ys, t, xs), nil
}

// Refresh returns new shares of the secret that parts share, at the same x
// coordinates and in the same order: parts are at least threshold shares
// made by [Split] (or by Vault's shamir package) with that threshold. The
// new shares are the old ones plus the values at their x coordinates of a
// uniformly random polynomial of degree below threshold with constant term
// 0, a new one for every byte position: so any threshold of them combine to
// the secret, and they are distributed as the shares of a new [Split] at
// the same x coordinates. The secret is never computed. The random
// coefficients come from the generator Split uses, a block at a time, and
// are cleared when used.
//
// What refresh protects against: shares that leak over time. The new
// polynomial is uniformly random among those through the secret, whatever
// the old one, so fewer than threshold old shares and fewer than threshold
// new ones, together, reveal nothing about the secret, and threshold shares of
// which some are old and some new combine to a wrong secret (each byte
// right by chance only, with probability 1/256). So an adversary who gathers
// shares one at a time must gather threshold of them between two
// refreshes: a share that leaked before the refresh is useless with shares
// after it. A share that is not given to Refresh is not refreshed, and no
// longer combines with the new ones: refreshing every other share retires
// a lost one.
//
// What it does not protect against: the secret is the same, so whoever
// recovered it before the refresh still has it; and old shares still
// combine with each other, so a holder who kept an old share and obtains
// threshold−1 other old ones (kept by their holders, or recovered from old
// backups) recovers the secret. Refresh is only as good as the destruction
// of the old shares. Against a secret that was exposed, change the secret.
//
// Given more than threshold parts, Refresh first checks them as [Verify]
// does, and refuses parts that disagree: with a
// [*CombineError] whose Err is [ErrInconsistentShares] and whose Bad names
// the bad parts, or, when they cannot be located, an error wrapping
// ErrInconsistentShares. With exactly
// threshold parts there is nothing to check them against: a damaged part
// stays damaged, and gives a wrong secret with any threshold−1 new shares.
//
// Refresh fails, as Verify does, for parts that [Combine] refuses, for fewer
// than threshold parts and for a threshold outside 2…255.
func Refresh(parts [][]byte, threshold int) ([][]byte, error) {
	px, ys, err := parsePartsThreshold(parts, threshold)
	if err != nil {
		return nil, err
	}
	if err := checkConsistent(px, ys, threshold); err != nil {
		return nil, err
	}
	r := newRandom()
	defer r.release()
	return refresh(px, ys, threshold, r)
}

// refresh is Refresh after the checks, with randomness from rng, which
// tests make deterministic.
//
// It is one product of the engine, adding to the copies of the shares the
// Vandermonde rows [x_i, x_i², …, x_i^(t−1)] applied to the t−1 random
// coefficients of the polynomial, which the engine draws a block at a time
// into scratch (nil random rows) and clears: m·(t−1) multiply-adds per byte
// for m shares. Every intermediate sum is a share plus part of a random
// polynomial's value, never the secret.
//
// (The values of that polynomial at t−1 of the x coordinates could be
// drawn instead, as Split does when it is cheaper, and the other new shares
// interpolated from those and t old shares; but an interpolation through
// the old shares passes through a multiple of the secret unless the random
// rows are folded in first, which the engine's random rows, the last ones,
// are not.)
func refresh(xs []byte, ys [][]byte, t int, rng io.Reader) ([][]byte, error) {
	m, n := len(xs), len(ys[0])
	shares := newShares(n, xs)
	rows := make([][]byte, m+t-1)
	outs, ins := rows[:m], rows[m:] // ins: nil, the random coefficients
	for i, s := range shares {
		outs[i] = s[:n]
		copy(outs[i], ys[i])
	}
	var coefBuf [64]byte
	coef := coefBuf[:0]
	for _, x := range xs {
		p := x
		for range t - 1 {
			coef = append(coef, p)
			p = gfMulPublic(p, x)
		}
	}
	p := &product{coef: coef, ins: ins, outs: outs, n: n, add: true, random: t - 1}
	if err := p.run(rng); err != nil {
		return nil, err
	}
	return shares, nil
}

// Reshare returns the shares of a new split, of newParts shares any
// newThreshold of which recover the secret, of the secret that parts share:
// at least threshold shares made by [Split] (or by Vault's shamir package)
// with that threshold. The new shares are those of [Split], with fresh x
// coordinates and fresh randomness; they do not combine with the old ones.
//
// A new threshold needs a new polynomial, and with plain shares that means
// the secret itself: Reshare computes it, in a buffer of its own, and
// clears the buffer as soon as the new shares are made. (Go cannot promise
// that no copy is left elsewhere; see docs/SECURITY.md.) To change the
// shares but not the threshold, [Refresh] does without the secret; to add
// shares, [Extend].
//
// Given more than threshold parts, Reshare first checks them as [Verify]
// does, and refuses parts that disagree: with a
// [*CombineError] whose Err is [ErrInconsistentShares] and whose Bad names
// the bad parts, or, when they cannot be located, an error wrapping
// ErrInconsistentShares. With exactly
// threshold parts there is nothing to check them against: a damaged part
// gives a new split of a wrong secret, and no error.
//
// Reshare fails, as Verify does, for parts that [Combine] refuses, for fewer
// than threshold parts and for a threshold outside 2…255; and, as Split
// does, for a newParts and newThreshold outside
// 2 <= newThreshold <= newParts <= 255.
func Reshare(parts [][]byte, threshold, newParts, newThreshold int) ([][]byte, error) {
	px, ys, err := parsePartsThreshold(parts, threshold)
	if err != nil {
		return nil, err
	}
	if err := checkScheme(newParts, newThreshold); err != nil {
		return nil, fmt.Errorf("%w, for the new split", err)
	}
	if err := checkConsistent(px, ys, threshold); err != nil {
		return nil, err
	}
	r := newRandom()
	defer r.release()
	return reshare(px, ys, threshold, newParts, newThreshold, r)
}

// reshare is Reshare after the checks, with randomness from rng.
func reshare(xs []byte, ys [][]byte, t, newParts, newThreshold int, rng io.Reader) ([][]byte, error) {
	secret := make([]byte, len(ys[0]))
	interpolate([][]byte{secret}, []byte{0}, xs[:t], ys[:t])
	shares, err := split(secret, newParts, newThreshold, rng)
	clear(secret)
	return shares, err
}

// checkNewXs checks the x coordinates at which new shares are asked for,
// against each other and against have, those of the given parts.
func checkNewXs(xs, have []byte) error {
	if len(xs) == 0 {
		return errNoXs
	}
	var used, seen [256]bool
	for _, x := range have {
		used[x] = true
	}
	for _, x := range xs {
		switch {
		case x == 0:
			return errNewZeroX
		case seen[x]:
			return fmt.Errorf("%w: %d", errDuplicateX, x)
		case used[x]:
			return fmt.Errorf("%w: %d", errXInUse, x)
		}
		seen[x] = true
	}
	return nil
}

// checkConsistent checks, as Verify does, that the parts at xs with the y
// bytes ys, made with threshold t, agree, and returns the error with which
// the functions of this file refuse them when they do not: Verify's.
func checkConsistent(xs []byte, ys [][]byte, t int) error {
	bad, ok := findBad(xs, ys, t)
	switch {
	case !ok:
		return inconsistent(len(xs), t)
	case len(bad) > 0:
		return &CombineError{Err: ErrInconsistentShares, Bad: badShares(bad), Good: len(xs) - len(bad), Needed: t}
	}
	return nil
}

// derive returns the shares at the x coordinates xs of the polynomials
// through the parts at px with the y bytes ys, from the first t of them:
// one product of the engine, the Lagrange matrix from px[:t] to xs. No x of
// xs may be 0 or one of px[:t].
func derive(px []byte, ys [][]byte, t int, xs []byte) [][]byte {
	n := len(ys[0])
	shares := newShares(n, xs)
	outs := make([][]byte, len(shares))
	for i, s := range shares {
		outs[i] = s[:n]
	}
	interpolate(outs, xs, px[:t], ys[:t])
	return shares
}

// newShares allocates shares of n y bytes at the x coordinates xs, laid
// out as Split lays out its shares (shareStride), with no spare capacity.
func newShares(n int, xs []byte) [][]byte {
	stride := shareStride(n)
	buf := make([]byte, len(xs)*stride)
	shares := make([][]byte, len(xs))
	for i, x := range xs {
		s := buf[i*stride : i*stride+n+1 : i*stride+n+1]
		s[n] = x
		shares[i] = s
	}
	return shares
}
