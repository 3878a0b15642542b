// Package ssss reads the shares of ssss, B. Poettering's "Shamir's Secret
// Sharing Scheme" (the ssss-split and ssss-combine commands of Debian's ssss
// package), so that a split made with it can be recovered, and writes them,
// so that the two are tested against each other. It is written from the
// scheme's mathematics, below; none of ssss's code is in it.
//
// A secret of d bits (d a multiple of 8, at most 1024; by default eight
// times its length in bytes) is an element s of GF(2^d) (field.go). For a
// threshold t, ssss draws t−1 random coefficients c1…c(t−1) and gives
// share i the value
//
//	y_i = s + c1·x + … + c(t−1)·x^(t−1) + x^t, at x = i,
//
// a polynomial of degree t whose top coefficient is 1: that term is public,
// so t shares still determine s, and t−1 reveal nothing of it. A share is
// written "i-hex", or "token-i-hex" with ssss-split -w token, with i in
// decimal (zero-padded to the width of the number of shares) and y_i in
// d/4 hexadecimal digits. The threshold is not written: it has to be
// given.
//
// For a secret of 64 bits or more, ssss first passes it through a
// diffusion layer (unless ssss-split -D), so that shares of secrets that
// differ in a few bits do not differ in few bits: see diffusion.go.
package ssss

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// A Share is one share of ssss.
type Share struct {
	// Token is the label ssss-split -w gives the shares of a split, or "".
	Token string
	// X is the share's number, from 1.
	X int
	// Y is the share's value, d/8 big-endian bytes.
	Y []byte
}

// String writes s as ssss-split does, with its number zero-padded to width
// digits.
func (s Share) String(width int) string {
	line := fmt.Sprintf("%0*d-%x", width, s.X, s.Y)
	if s.Token != "" {
		line = s.Token + "-" + line
	}
	return line
}

// maxToken is ssss's longest token.
const maxToken = 128

// Parse reads a share written as ssss-split writes them: "i-hex" or
// "token-i-hex", with spaces around it ignored. Reading the hex digits is
// not constant time, as no text decoder of the command is: the share is
// in the clear in its file or on the terminal already.
func Parse(line string) (Share, error) {
	line = strings.TrimSpace(line)
	rest, hexPart, ok := cutLast(line)
	if !ok {
		return Share{}, errors.New("not of the form N-HEX or TOKEN-N-HEX")
	}
	token, num, ok := cutLast(rest)
	if !ok {
		token, num = "", rest
	}
	if len(token) > maxToken || strings.ContainsAny(token, " \t") {
		return Share{}, errors.New("not of the form N-HEX or TOKEN-N-HEX: the token is over 128 characters, or holds spaces")
	}
	if num == "" || len(num) > 3 || strings.Trim(num, "0123456789") != "" {
		return Share{}, errors.New("not of the form N-HEX or TOKEN-N-HEX: N is not a number of at most 3 digits")
	}
	x, _ := strconv.Atoi(num)
	if x < 1 || x > 255 {
		return Share{}, fmt.Errorf("share number %d: ssss numbers its shares from 1 to 255", x)
	}
	if len(hexPart)%2 != 0 || len(hexPart) < 2 || len(hexPart) > MaxBits/4 || strings.Trim(hexPart, "0123456789abcdefABCDEF") != "" {
		return Share{}, errors.New("not of the form N-HEX or TOKEN-N-HEX: HEX is not an even number of hex digits, from 2 to 256")
	}
	y := make([]byte, len(hexPart)/2)
	for i := range y {
		v, _ := strconv.ParseUint(hexPart[2*i:2*i+2], 16, 8)
		y[i] = byte(v)
	}
	return Share{Token: token, X: x, Y: y}, nil
}

// IsShare reports whether line is written as an ssss share.
func IsShare(line string) bool {
	_, err := Parse(line)
	return err == nil
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// Errors of Combine.
var (
	// ErrMismatch: the shares are not of one split (lengths or tokens
	// differ), or two have one number.
	ErrMismatch = errors.New("ssss: the shares are not of one split")
	// ErrInconsistent: more shares than the threshold were given, and
	// they are not values of one polynomial: one is damaged, or of
	// another split, or the threshold is not the one they were made with.
	ErrInconsistent = errors.New("ssss: the shares do not agree with each other")
)

// Combine recovers the secret from shares of one split with threshold t,
// as ssss-combine -t t does, undoing the diffusion layer when diffusion is
// set and the secret has 64 bits or more (ssss-split's default). With
// more than t shares, the others are checked against the first t, and
// any that disagrees makes ErrInconsistent: which share is bad is not
// told.
//
// The arithmetic on the shares' values runs in time independent of them;
// the shares' numbers and the threshold are public.
func Combine(shares []Share, t int, diffusion bool) ([]byte, error) {
	if t < 2 || t > 255 {
		return nil, fmt.Errorf("ssss: threshold %d: it is from 2 to 255", t)
	}
	if len(shares) < t {
		return nil, fmt.Errorf("ssss: %d shares, %d needed", len(shares), t)
	}
	n := len(shares[0].Y)
	seen := map[int]bool{}
	for _, s := range shares {
		switch {
		case len(s.Y) != n || n == 0 || n > MaxBits/8:
			return nil, fmt.Errorf("%w: they are of different lengths", ErrMismatch)
		case s.Token != shares[0].Token:
			return nil, fmt.Errorf("%w: their tokens differ (%q, %q)", ErrMismatch, shares[0].Token, s.Token)
		case s.X < 1 || s.X > 255:
			return nil, fmt.Errorf("%w: share number %d is not from 1 to 255", ErrMismatch, s.X)
		case seen[s.X]:
			return nil, fmt.Errorf("%w: two shares are numbered %d", ErrMismatch, s.X)
		}
		seen[s.X] = true
	}
	f := newField(8 * n)
	base := shares[:t]
	// g(x) = y(x) − x^t has degree below t: interpolate it at 0 and at
	// the numbers of the other shares.
	vals := make([][]uint64, t)
	for j, s := range base {
		vals[j] = f.fromBytes(s.Y)
		xor(vals[j], f.fromBig(f.pubPow(big.NewInt(int64(s.X)), t)))
	}
	secret := f.interpolate(base, vals, 0)
	for _, s := range shares[t:] {
		want := f.fromBytes(s.Y)
		xor(want, f.fromBig(f.pubPow(big.NewInt(int64(s.X)), t)))
		got := f.interpolate(base, vals, s.X)
		if !equal(got, want) {
			return nil, ErrInconsistent
		}
	}
	out := f.bytes(secret)
	if diffusion && f.d >= minDiffusion {
		unDiffuse(out)
	}
	return out, nil
}

// interpolate returns the value at x of the polynomial of degree below
// len(base) that takes the values vals at the numbers of base.
func (f *field) interpolate(base []Share, vals [][]uint64, x int) []uint64 {
	sum := make([]uint64, f.words)
	bx := big.NewInt(int64(x))
	for j, sj := range base {
		// The Lagrange weight of share j at x: the product over the
		// other shares m of (x − x_m)/(x_j − x_m). Subtraction is XOR.
		num, den := big.NewInt(1), big.NewInt(1)
		xj := big.NewInt(int64(sj.X))
		for m, sm := range base {
			if m == j {
				continue
			}
			xm := big.NewInt(int64(sm.X))
			num = f.pubMul(num, new(big.Int).Xor(bx, xm))
			den = f.pubMul(den, new(big.Int).Xor(xj, xm))
		}
		w := f.fromBig(f.pubMul(num, f.pubInv(den)))
		xor(sum, f.mul(w, vals[j]))
	}
	return sum
}

// pubPow returns the public element a^k.
func (f *field) pubPow(a *big.Int, k int) *big.Int {
	r := big.NewInt(1)
	for range k {
		r = f.pubMul(r, a)
	}
	return r
}

func xor(dst, src []uint64) {
	for i := range dst {
		dst[i] ^= src[i]
	}
}

// equal compares in time independent of the values.
func equal(a, b []uint64) bool {
	var d uint64
	for i := range a {
		d |= a[i] ^ b[i]
	}
	return d == 0
}

// Split splits secret (1 to 128 bytes) into n shares with threshold t, as
// ssss-split -t t -n n does (with -w token when token is not empty, and
// with -D when diffusion is not set), drawing the coefficients from rand.
func Split(secret []byte, n, t int, token string, diffusion bool, rand io.Reader) ([]Share, error) {
	switch {
	case len(secret) == 0 || len(secret) > MaxBits/8:
		return nil, errors.New("ssss: a secret is from 1 to 128 bytes")
	case t < 2 || t > n || n > 255:
		return nil, errors.New("ssss: 2 ≤ threshold ≤ shares ≤ 255")
	}
	f := newField(8 * len(secret))
	s := append([]byte(nil), secret...)
	if diffusion && f.d >= minDiffusion {
		diffuse(s)
	}
	coeffs := [][]uint64{f.fromBytes(s)}
	for range t - 1 {
		b := make([]byte, len(secret))
		if _, err := io.ReadFull(rand, b); err != nil {
			return nil, err
		}
		coeffs = append(coeffs, f.fromBytes(b))
	}
	shares := make([]Share, n)
	for i := range shares {
		x := i + 1
		// Horner's rule from the public top term x^t.
		xe := f.fromBig(big.NewInt(int64(x)))
		y := f.fromBig(big.NewInt(1))
		for k := t - 1; k >= 0; k-- {
			y = f.mul(y, xe)
			xor(y, coeffs[k])
		}
		shares[i] = Share{Token: token, X: x, Y: f.bytes(y)}
	}
	return shares, nil
}
