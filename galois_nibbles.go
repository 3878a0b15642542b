//go:build !purego && (amd64 || arm64)

package shamir

import "sync"

// nibbleTables holds the split nibble tables used by the VPSHUFB (AVX2) and
// TBL (NEON) kernels: the table of c has c·i at [i] and c·(i<<4) at [16+i],
// for i < 16, and the product of c and a byte b is then
// tab[b&15] ^ tab[16+b>>4]. It holds the tables of every constant, built on
// first use: a short secret's Split expands a dozen coefficients and does
// little else, and a copy costs a fraction of building a table. It is
// indexed by coefficients, which are public.
var nibbleTables = sync.OnceValue(func() *[256][32]byte {
	var t [256][32]byte
	for c := range t {
		nibbles(t[c][:], byte(c))
	}
	return &t
})

// nibbles builds the tables of nibbleTables from the products c·x^k: the
// table entry for a nibble is the XOR of the products of its set bits.
func nibbles(tab []byte, c byte) {
	p := powers(c)
	for i := range 16 {
		var lo, hi byte
		for b := range 4 {
			if i>>b&1 == 1 {
				lo ^= p[b]
				hi ^= p[b+4]
			}
		}
		tab[i], tab[16+i] = lo, hi
	}
}

// expandAllNibbles is expandAll for the nibble-table kernels: each
// coefficient's tables from nibbleTables.
func expandAllNibbles(tab []byte, coef []byte) {
	t := nibbleTables()
	for i, c := range coef {
		copy(tab[32*i:32*i+32], t[c][:])
	}
}
