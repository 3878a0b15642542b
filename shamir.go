package shamir

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// ShareOverhead is the number of bytes a share made by [Split] has beyond the
// secret: the x coordinate, stored after the y bytes.
const ShareOverhead = 1

// The errors of Split and Combine: the conditions under which Vault's shamir
// package fails, in its order and with its words, and one more of Combine's
// (errZeroX). None is exported: every one means that the arguments are
// unusable, which the message says in the caller's terms, and no caller
// acts on one differently from another.
var (
	errPartsBelowThreshold = errors.New("shamir: parts cannot be less than threshold")
	errTooManyParts        = errors.New("shamir: parts cannot exceed 255")
	errThresholdTooSmall   = errors.New("shamir: threshold must be at least 2")
	errThresholdTooLarge   = errors.New("shamir: threshold cannot exceed 255")
	errEmptySecret         = errors.New("shamir: cannot split an empty secret")

	errTooFewParts    = errors.New("shamir: less than two parts cannot be used to reconstruct the secret")
	errPartTooShort   = errors.New("shamir: parts must be at least two bytes")
	errLengthMismatch = errors.New("shamir: all parts must be the same length")
	errDuplicatePart  = errors.New("shamir: duplicate part detected")
	// errZeroX reports a part whose x coordinate is 0. Such a part cannot
	// come from Split (its y bytes would be the secret itself); Vault's
	// package accepts it, this one refuses it, after every check Vault
	// makes.
	errZeroX = errors.New("shamir: part has x coordinate 0")
)

// Split splits secret into parts shares, any threshold of which reconstruct
// it with [Combine]; fewer reveal nothing about it. Each share is
// len(secret)+[ShareOverhead] bytes: a y byte for each byte of the secret, then
// the share's x coordinate. The x coordinates are distinct and uniformly
// random in 1…255; every byte of the secret gets its own polynomial of degree
// threshold-1 with uniformly random coefficients.
//
// It requires 2 <= threshold <= parts <= 255 and a non-empty secret, and uses
// the package's AES-256-CTR generator keyed from crypto/rand (crypto/rand
// itself in FIPS 140-3 mode, crypto/fips140.Enabled). The shares are
// byte-compatible with github.com/hashicorp/vault/shamir in both directions.
func Split(secret []byte, parts, threshold int) ([][]byte, error) {
	r := newRandom()
	defer r.release()
	return split(secret, parts, threshold, r)
}

// checkScheme checks a number of parts and a threshold as Vault's Split
// does, in its order, so that both packages name the same problem: it
// requires 2 <= threshold <= parts <= 255. Split, Verify, CombineRobust and
// SSMS (checkSSMS) all check their parameters with it.
func checkScheme(parts, threshold int) error {
	switch {
	case parts < threshold:
		return errPartsBelowThreshold
	case parts > 255:
		return errTooManyParts
	case threshold < 2:
		return errThresholdTooSmall
	case threshold > 255:
		return errThresholdTooLarge
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
// split takes the cheaper. Either way it is one product of the engine: a
// matrix applied to the rows [s, r_1, …, r_{t−1}], whose random rows the
// engine draws from rng a block at a time, just before it uses them.
func split(secret []byte, parts, threshold int, rng io.Reader) ([][]byte, error) {
	// Vault checks the secret after the scheme.
	if err := checkScheme(parts, threshold); err != nil {
		return nil, err
	}
	if len(secret) == 0 {
		return nil, errEmptySecret
	}
	// Scratch on the stack, small for small schemes: Go clears it, which
	// would cost a short secret's Split more than some of its work.
	if parts <= 8 {
		var xsBuf [1 + 8]byte
		var insBuf [8][]byte
		return splitWith(secret, parts, threshold, rng, xsBuf[:], insBuf[:0])
	}
	var xsBuf [1 + 255]byte
	var insBuf [smallRows][]byte
	return splitWith(secret, parts, threshold, rng, xsBuf[:], insBuf[:0])
}

// splitWith is split, after its checks, with scratch xsBuf of 1+parts bytes
// and room in ins for the headers of its input rows.
func splitWith(secret []byte, parts, threshold int, rng io.Reader, xsBuf []byte, ins [][]byte) ([][]byte, error) {
	n, t := len(secret), threshold
	// The shares' buffer first serves randomXs as scratch for its random
	// bytes, sparing an allocation.
	buf, shares := allocShares(n, parts)
	xsBuf[0] = 0 // 0, then the shares' x coordinates
	xs := xsBuf[1 : 1+parts]
	err := randomXs(rng, xs, buf[:xsScratch])
	// The shares' bytes are all written below; the rest of the buffer, if
	// any, is cleared of the random bytes randomXs drew.
	clear(buf[parts*shareStride(n):])
	if err != nil {
		return nil, err
	}
	for i := range shares {
		shares[i][n] = xs[i]
	}

	// The coefficients and the input rows, on the stack for small schemes
	// such as 5 of 3. The random rows are the first t−1 shares' y bytes when
	// interpolating, and scratch (nil rows) for the coefficients when
	// evaluating.
	var coefBuf [64]byte
	ins = append(ins, secret)
	var coef []byte
	outs := shares
	if byLagrange := (parts-t+1)*t < parts*(t-1); byLagrange {
		known := xsBuf[:t] // 0, then the first t−1 x coordinates
		coef = lagrange(coefBuf[:0], known, xs[t-1:])
		ins = append(ins, shares[:t-1]...)
		outs = shares[t-1:]
	} else {
		coef = vandermonde(coefBuf[:0], xs, t)
		for range t - 1 {
			ins = append(ins, nil)
		}
	}
	p := &product{coef: coef, ins: ins, outs: outs, n: n, random: t - 1}
	if err := p.run(rng); err != nil {
		return nil, err
	}
	return shares, nil
}

// allocShares allocates Split's parts shares of a secret of n bytes: one
// buffer of at least xsScratch bytes, holding the shares shareStride(n)
// bytes apart, and their headers, each share n+ShareOverhead bytes long
// with no spare capacity, so that appending to one share reallocates it
// rather than writing over the next.
//
// The buffer and the headers are two objects, but for a short secret
// split in few shares (a key: 32 bytes in 5 shares), where they are one
// (sharesBlock): an allocation costs about as much as the rest of Split.
func allocShares(n, parts int) (buf []byte, shares [][]byte) {
	stride := shareStride(n)
	size := max(parts*stride, xsScratch)
	if parts <= len(sharesBlock{}.hdr) && size <= len(sharesBlock{}.buf) {
		b := new(sharesBlock)
		buf, shares = b.buf[:size:size], b.hdr[:parts:parts]
	} else {
		buf, shares = make([]byte, size), make([][]byte, parts)
	}
	for i := range shares {
		shares[i] = buf[i*stride : i*stride+n+1 : i*stride+n+1]
	}
	return buf, shares
}

// A sharesBlock holds the shares of a short secret and their headers in
// one allocation: up to 8 shares of up to 192 bytes in all (5 shares of 37
// bytes, 8 of 23), a 384-byte object. The garbage collector scans only the
// headers.
type sharesBlock struct {
	hdr [8][]byte
	buf [192]byte
}

// shareStride is the distance between the starts of consecutive shares in
// Split's buffer. For long secrets it is a multiple of 64 bytes, so that
// every share starts on a cache line, and an odd number of cache lines, so
// that the same column of up to 64 shares falls in 64 different sets of a
// cache indexed by address bits 6…11 (as first-level data caches are): the
// kernels read and write many shares at one column at a time, and shares a
// multiple of 4 KiB apart would evict each other.
func shareStride(n int) int {
	stride := n + ShareOverhead
	if stride < 4096 {
		return stride
	}
	stride = (stride + 63) &^ 63
	if stride/64%2 == 0 {
		stride += 64
	}
	return stride
}

// randomXs fills xs with distinct x coordinates, uniform over 1…255. buf is
// scratch of at least xsScratch bytes.
func randomXs(rng io.Reader, xs, buf []byte) error {
	perm := oneTo255
	return pickXs(rng, xs, perm[:], buf)
}

// pickXs fills xs with distinct elements of from, uniform over it: the first
// len(xs) entries of a Fisher–Yates shuffle of from, which it shuffles in
// place, with each index drawn by rejection sampling, so there is no modulo
// bias. from holds distinct x coordinates, at most 255 and at least len(xs)
// of them. The x coordinates are public, so the data-dependent loop is no
// leak. buf is scratch of at least xsScratch bytes.
func pickXs(rng io.Reader, xs, from, buf []byte) error {
	buf = buf[:xsScratch]
	pos := len(buf)
	for i := range xs {
		k := len(from) - i // draw j uniformly from [i, len(from))
		r := uint(reciprocals[k])
		limit := 256 * r >> 16 * uint(k) // ⌊256/k⌋·k, the largest multiple of k that fits a byte
		for {
			if pos == len(buf) {
				if err := readFull(rng, buf); err != nil {
					return fmt.Errorf("shamir: reading randomness: %w", err)
				}
				pos = 0
			}
			b := uint(buf[pos])
			pos++
			if b < limit {
				j := i + int(b-b*r>>16*uint(k)) // b mod k
				from[i], from[j] = from[j], from[i]
				break
			}
		}
	}
	copy(xs, from)
	return nil
}

// reciprocals[k] = ⌈2^16/k⌉, so that b/k = b·reciprocals[k] >> 16 for every
// b <= 256 and 0 < k < 256: the product exceeds b/k by less than
// b/2^16 <= 1/256, and the fractional part of b/k is at most 1 − 1/k <=
// 1 − 1/255, so the excess never reaches the next integer. pickXs divides
// without a division instruction, about ten times faster.
var reciprocals = func() (r [256]uint32) {
	for k := 1; k < 256; k++ {
		r[k] = uint32((1<<16 + k - 1) / k)
	}
	return r
}()

// readFull is io.ReadFull, calling the package's own generator directly:
// it always fills p.
func readFull(rng io.Reader, p []byte) error {
	if g, ok := rng.(*generator); ok {
		_, err := g.Read(p)
		return err
	}
	_, err := io.ReadFull(rng, p)
	return err
}

// xsScratch is the number of random bytes randomXs reads at a time: enough
// for 255 x coordinates, with few rejections, in a few reads.
const xsScratch = 64

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

// lagrange appends to dst the len(targets)×len(known) matrix that maps the
// values of a polynomial of degree < len(known) at the distinct points known
// to its values at targets, none of which may be in known:
//
//	L[i][j] = Π_{m≠j} (targets[i] − known[m]) / (known[j] − known[m])
//	        = N_i / ((targets[i] − known[j]) · D_j)
//
// with N_i = Π_m (targets[i] − known[m]) and D_j = Π_{m≠j} (known[j] − known[m]);
// in GF(2^8), subtraction is XOR. No factor is zero, so the products and
// quotients are sums and differences of logarithms modulo 255, the order of
// the multiplicative group. All the points are public.
//
// It looks up each logarithm once and reduces each sum once: a short
// secret's Split and Combine spend a good part of their time here.
func lagrange(dst, known, targets []byte) []byte {
	at := len(dst)
	dst = slices.Grow(dst, len(targets)*len(known))[:at+len(targets)*len(known)]
	// Scratch on the stack, and small for small schemes: Go clears it, and
	// clearing 510 bytes would cost a short secret's Combine more than the
	// arithmetic.
	if len(known) <= smallParts {
		var logD, logT [smallParts]byte
		lagrangeInto(dst[at:], known, targets, logD[:], logT[:])
	} else {
		var logD, logT [255]byte
		lagrangeInto(dst[at:], known, targets, logD[:], logT[:])
	}
	return dst
}

// lagrangeInto is lagrange writing the matrix to m, with scratch logD and
// logT of at least len(known) bytes.
func lagrangeInto(m, known, targets, logD, logT []byte) {
	logD, logT = logD[:len(known)], logT[:len(known)]
	// log D_j mod 255; logTable[0] = 0: the term m = j adds nothing.
	if len(known) > 16 {
		for j, xj := range known {
			logD[j] = byte(logSum(xj, known) % 255) // t² lookups: see logSum
		}
	} else {
		for j, xj := range known {
			d := uint(0)
			for _, xm := range known {
				d += uint(logTable[xj^xm])
			}
			logD[j] = byte(d % 255)
		}
	}
	for _, x := range targets {
		logN := uint(0)
		for j, xj := range known {
			l := logTable[x^xj] // log (x − known[j])
			logT[j] = l
			logN += uint(l)
		}
		logN %= 255
		row := m[:len(known)]
		for j := range row {
			e := logN + 510 - uint(logT[j]) - uint(logD[j]) // in [2, 765)
			// expTable covers [0, 510): take 510 off when e is beyond,
			// without a branch, which the random x coordinates of Split
			// would make the processor mispredict half the time.
			e -= 510 & uint((509-int(e))>>63)
			row[j] = expTable[e]
		}
		m = m[len(known):]
	}
}

// logSum returns the sum over m of log(x − xs[m]), taking log 0 as 0: below
// 255·255. It is most of Combine's time for large thresholds (t² lookups of
// public x coordinates); lagrangeInto sums a few inline, where a call would
// cost more than it saves. Four sums, so that the additions do not wait on
// one another, in a function of its own, so that they stay in registers:
// inlined into lagrangeInto, with its ten live slice words, the compiler
// kept them on the stack, and the loop ran 40 % slower or faster with
// where the linker placed it.
//
//go:noinline
func logSum(x byte, xs []byte) uint {
	var d0, d1, d2, d3 uint
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q := xs[i : i+4]
		d0 += uint(logTable[x^q[0]])
		d1 += uint(logTable[x^q[1]])
		d2 += uint(logTable[x^q[2]])
		d3 += uint(logTable[x^q[3]])
	}
	for _, xm := range xs[i:] {
		d0 += uint(logTable[x^xm])
	}
	return d0 + d1 + d2 + d3
}

// interpolate sets, at every byte position, outs[i] to the value at
// targets[i] of the polynomial of degree < len(xs) through the points
// (xs[j], ys[j]): it applies the Lagrange matrix from xs to targets to the
// rows ys, through the engine. The xs must be distinct, and no target may
// be one of them; the target 0 gives the secret. Every row has len(ys[0])
// bytes.
func interpolate(outs [][]byte, targets, xs []byte, ys [][]byte) {
	var buf [64]byte // on the stack for small schemes
	p := &product{coef: lagrange(buf[:0], xs, targets), ins: ys, outs: outs, n: len(ys[0])}
	p.run(nil) // without random rows, it cannot fail
}

// smallParts is the number of parts whose headers and x coordinates
// Combine keeps on its stack.
const smallParts = 16

// Combine reconstructs a secret from shares made by [Split] (or by Vault's
// shamir package). All parts must have the same length, at least two bytes,
// and distinct, non-zero x coordinates (their last byte).
//
// Combine cannot know the threshold: given fewer parts than the threshold,
// or a part that was altered, it returns a wrong secret without error. Use
// [Verify] to check parts that may be damaged.
func Combine(parts [][]byte) ([]byte, error) {
	return AppendCombine(nil, parts)
}

// AppendCombine is [Combine] appending the secret to dst, and returning the
// extended slice. When dst has room for the secret, nothing is allocated, so
// that the secret can be put in memory the caller manages (to reuse it, to
// keep it out of swap, to clear it when done) and hot loops spare the
// allocation. The secret is written only to the returned slice's last
// len(secret) bytes; if dst had no room, dst itself is left as it was. That
// part must not overlap any of parts: if it does, AppendCombine panics, as
// the AEADs of [crypto/cipher] do when asked to write over their input.
func AppendCombine(dst []byte, parts [][]byte) ([]byte, error) {
	var xsBuf [smallParts]byte
	xs, err := appendXs(xsBuf[:0], parts)
	if err != nil {
		return nil, err
	}
	n := len(parts[0]) - ShareOverhead
	ret, secret := grow(dst, n)
	if cap(dst)-len(dst) >= n { // the secret is in dst's memory, which a part may share
		for _, p := range parts {
			if overlaps(secret, p) {
				panic("shamir: AppendCombine would write the secret over a part")
			}
		}
	}
	var coefBuf [64]byte // on the stack for up to 64 parts
	outs := [1][]byte{secret}
	// The parts are the input rows as they are: the engine reads their first
	// n bytes, the y bytes.
	p := &product{coef: lagrange(coefBuf[:0], xs, atZero[:]), ins: parts, outs: outs[:], n: n}
	p.run(nil) // without random rows, it cannot fail
	return ret, nil
}

// atZero is the x coordinate of the secret, the target of Combine's
// interpolation.
var atZero = [1]byte{0}

// grow extends b by n bytes, reallocating if it has no room, and returns
// the extended slice and its last n bytes.
func grow(b []byte, n int) (ret, tail []byte) {
	if cap(b) == 0 {
		ret = make([]byte, n) // cheaper than growing
		return ret, ret
	}
	ret = slices.Grow(b, n)[:len(b)+n]
	return ret, ret[len(b):]
}

// parseParts checks parts as Combine does, in Vault's order, and returns
// their x coordinates and their y bytes.
func parseParts(parts [][]byte) (xs []byte, ys [][]byte, err error) {
	return appendParts(make([]byte, 0, len(parts)), make([][]byte, 0, len(parts)), parts)
}

// appendParts is parseParts appending to xs and ys.
func appendParts(xs []byte, ys [][]byte, parts [][]byte) ([]byte, [][]byte, error) {
	xs, err := appendXs(xs, parts)
	if err != nil {
		return nil, nil, err
	}
	n := len(parts[0]) - ShareOverhead
	for _, p := range parts {
		ys = append(ys, p[:n])
	}
	return xs, ys, nil
}

// appendXs checks parts as Combine does, in Vault's order, and appends
// their x coordinates to xs.
func appendXs(xs []byte, parts [][]byte) ([]byte, error) {
	if len(parts) < 2 {
		return nil, errTooFewParts
	}
	size := len(parts[0])
	if size < 2 {
		return nil, errPartTooShort
	}
	n := size - ShareOverhead
	at := len(xs)
	xs = slices.Grow(xs, len(parts))[:at+len(parts)]
	// One pass: Vault checks every length before it looks for duplicates,
	// so a duplicate is only reported after the loop.
	var seen [4]uint64 // a bit per x coordinate: 32 bytes to clear, not 256
	dup := false
	for i, p := range parts {
		if len(p) != size {
			return nil, errLengthMismatch
		}
		x := p[n]
		bit := uint64(1) << (x & 63)
		dup = dup || seen[x>>6]&bit != 0
		seen[x>>6] |= bit
		xs[at+i] = x
	}
	if dup {
		return nil, errDuplicatePart
	}
	// Vault checks for duplicates and then uses the parts; x = 0 is this
	// package's own refusal, so it comes after every check Vault makes.
	if seen[0]&1 != 0 {
		return nil, errZeroX
	}
	return xs, nil
}
