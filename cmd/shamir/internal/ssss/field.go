package ssss

import "math/big"

// The shares of ssss are values of a polynomial over GF(2^d), where d is
// the secret's length in bits, a multiple of 8 from 8 to 1024. An element
// is a polynomial over GF(2) of degree below d, held as the bits of
// little-endian 64-bit words (bit i of word k is the coefficient of
// x^(64k+i)), and reduced modulo a fixed irreducible polynomial of degree
// d. ssss takes, for each d, the pentanomial x^d + x^a + x^b + x^c + 1 with
// the smallest a, then the smallest b, then the smallest c (no trinomial is
// irreducible when 8 divides d); pentanomials holds (a, b, c) for d = 8, 16,
// …, 1024, computed from that rule by a Rabin irreducibility test and
// checked in the tests against shares that ssss-split made.
var pentanomials = [128][3]int{
	{4, 3, 1}, {5, 3, 1}, {4, 3, 1}, {7, 3, 2}, {5, 4, 3}, {5, 3, 2}, {7, 4, 2}, {4, 3, 1},
	{10, 9, 3}, {9, 4, 2}, {7, 6, 2}, {10, 9, 6}, {4, 3, 1}, {5, 4, 3}, {4, 3, 1}, {7, 2, 1},
	{5, 3, 2}, {7, 4, 2}, {6, 3, 2}, {5, 3, 2}, {15, 3, 2}, {11, 3, 2}, {9, 8, 7}, {7, 2, 1},
	{5, 3, 2}, {9, 3, 1}, {7, 3, 1}, {9, 8, 3}, {9, 4, 2}, {8, 5, 3}, {15, 14, 10}, {10, 5, 2},
	{9, 6, 2}, {9, 3, 2}, {9, 5, 2}, {11, 10, 1}, {7, 3, 2}, {11, 2, 1}, {9, 7, 4}, {4, 3, 1},
	{8, 3, 1}, {7, 4, 1}, {7, 2, 1}, {13, 11, 6}, {5, 3, 2}, {7, 3, 2}, {8, 7, 5}, {12, 3, 2},
	{13, 10, 6}, {5, 3, 2}, {5, 3, 2}, {9, 5, 2}, {9, 7, 2}, {13, 4, 3}, {4, 3, 1}, {11, 6, 4},
	{18, 9, 6}, {19, 18, 13}, {11, 3, 2}, {15, 9, 6}, {4, 3, 1}, {16, 5, 2}, {15, 14, 6}, {8, 5, 2},
	{15, 11, 2}, {11, 6, 2}, {7, 5, 3}, {8, 3, 1}, {19, 16, 9}, {11, 9, 6}, {15, 7, 6}, {13, 4, 3},
	{14, 13, 3}, {13, 6, 3}, {9, 5, 2}, {19, 13, 6}, {19, 10, 3}, {11, 6, 5}, {9, 2, 1}, {14, 3, 2},
	{13, 3, 1}, {7, 5, 4}, {11, 9, 8}, {11, 6, 5}, {23, 16, 9}, {19, 14, 6}, {23, 10, 2}, {8, 3, 2},
	{5, 4, 3}, {9, 6, 4}, {4, 3, 2}, {13, 8, 6}, {13, 11, 1}, {13, 10, 3}, {11, 6, 5}, {19, 17, 4},
	{15, 14, 7}, {13, 9, 6}, {9, 7, 3}, {9, 7, 1}, {14, 3, 2}, {11, 8, 2}, {11, 6, 4}, {13, 5, 2},
	{11, 5, 1}, {11, 4, 1}, {19, 10, 3}, {21, 10, 6}, {13, 3, 1}, {15, 7, 5}, {19, 18, 10}, {7, 5, 3},
	{12, 7, 2}, {7, 5, 1}, {14, 9, 6}, {10, 3, 2}, {15, 13, 12}, {12, 11, 9}, {16, 9, 7}, {12, 9, 3},
	{9, 5, 2}, {17, 10, 6}, {24, 9, 3}, {17, 15, 13}, {5, 4, 3}, {19, 17, 8}, {15, 6, 3}, {19, 6, 1},
}

// MaxBits is the largest field, and so the longest secret, ssss handles.
const MaxBits = 1024

// A field is GF(2^d) for one d.
type field struct {
	d     int      // degree, a multiple of 8
	words int      // 64-bit words in an element
	low   []uint64 // the reduction polynomial without its x^d term
}

func newField(d int) *field {
	if d%8 != 0 || d < 8 || d > MaxBits {
		panic("ssss: field degree not a multiple of 8 from 8 to 1024")
	}
	f := &field{d: d, words: (d + 63) / 64}
	f.low = make([]uint64, f.words)
	for _, e := range append(pentanomials[d/8-1][:], 0) {
		f.low[e/64] |= 1 << (e % 64)
	}
	return f
}

// fromBytes returns the element whose coefficients are the bits of the
// big-endian bytes b, of length d/8.
func (f *field) fromBytes(b []byte) []uint64 {
	e := make([]uint64, f.words)
	for i, c := range b {
		bit := 8 * (len(b) - 1 - i)
		e[bit/64] |= uint64(c) << (bit % 64)
	}
	return e
}

// bytes returns e as d/8 big-endian bytes.
func (f *field) bytes(e []uint64) []byte {
	b := make([]byte, f.d/8)
	for i := range b {
		bit := 8 * (len(b) - 1 - i)
		b[i] = byte(e[bit/64] >> (bit % 64))
	}
	return b
}

// mul returns a·b. It runs in time independent of the values of a and b:
// they are shares and the secret, so every bit of b is turned into a mask
// rather than a branch, and the reduction is a masked XOR.
func (f *field) mul(a, b []uint64) []uint64 {
	r := make([]uint64, f.words)
	top := uint((f.d - 1) % 64)
	for i := f.d - 1; i >= 0; i-- {
		// r = r·x mod p
		carry := -(r[f.words-1] >> top & 1)
		for k := f.words - 1; k > 0; k-- {
			r[k] = r[k]<<1 | r[k-1]>>63
		}
		r[0] <<= 1
		if top != 63 {
			r[f.words-1] &= 1<<(top+1) - 1
		}
		for k := range r {
			r[k] ^= f.low[k] & carry
		}
		// r += a if bit i of b is set
		m := -(b[i/64] >> (i % 64) & 1)
		for k := range r {
			r[k] ^= a[k] & m
		}
	}
	return r
}

// The Lagrange weights depend on the x coordinates only, which are public
// (they are written in the clear on every share), so they are computed
// with math/big, in variable time.

// toBig and fromBig convert a public element.
func (f *field) toBig(e []uint64) *big.Int {
	var z big.Int
	for k := len(e) - 1; k >= 0; k-- {
		z.Lsh(&z, 64)
		z.Or(&z, new(big.Int).SetUint64(e[k]))
	}
	return &z
}

func (f *field) fromBig(z *big.Int) []uint64 {
	e := make([]uint64, f.words)
	for k := range e {
		e[k] = new(big.Int).Rsh(z, uint(64*k)).Uint64()
	}
	return e
}

// poly is the reduction polynomial, with its x^d term.
func (f *field) poly() *big.Int {
	p := f.toBig(f.low)
	return p.SetBit(p, f.d, 1)
}

// pubMul multiplies public elements.
func (f *field) pubMul(a, b *big.Int) *big.Int {
	var r big.Int
	p := f.poly()
	a = new(big.Int).Set(a)
	for i := 0; i < b.BitLen(); i++ {
		if b.Bit(i) == 1 {
			r.Xor(&r, a)
		}
		a.Lsh(a, 1)
		if a.Bit(f.d) == 1 {
			a.Xor(a, p)
		}
	}
	return &r
}

// pubInv returns the inverse of the public nonzero element a, by the
// extended Euclidean algorithm over GF(2)[x].
func (f *field) pubInv(a *big.Int) *big.Int {
	// Invariant: u ≡ g1·a and v ≡ g2·a (mod p).
	u, v := new(big.Int).Set(a), f.poly()
	g1, g2 := big.NewInt(1), new(big.Int)
	for u.BitLen() > 1 {
		j := u.BitLen() - v.BitLen()
		if j < 0 {
			u, v = v, u
			g1, g2 = g2, g1
			j = -j
		}
		u.Xor(u, new(big.Int).Lsh(v, uint(j)))
		g1.Xor(g1, new(big.Int).Lsh(g2, uint(j)))
	}
	// g1 may have grown past degree d; reduce it.
	return f.reduce(g1)
}

func (f *field) reduce(z *big.Int) *big.Int {
	p := f.poly()
	z = new(big.Int).Set(z)
	for z.BitLen() > f.d {
		z.Xor(z, new(big.Int).Lsh(p, uint(z.BitLen()-1-f.d)))
	}
	return z
}
