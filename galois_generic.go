package shamir

import (
	"encoding/binary"
	"sync"
)

// The portable kernel works on 64-bit words holding eight bytes (SWAR). It is
// the reference every assembly kernel is tested against, the kernel of
// -tags purego and of architectures without assembly, and the one that takes
// the last few columns of rows the vector kernels cannot (see matrix.block).
//
// Multiplying by a constant c is linear over GF(2): if byte b has bits
// b_0…b_7, then c·b = Σ_i b_i·(c·x^i). In a word w, (w>>i) & 0x0101…01 holds
// bit i of every byte in that byte's lowest bit; multiplying it by the byte
// c·x^i puts c·x^i exactly in the bytes whose bit i is set (each lane's
// product is at most 255, so nothing carries into the next lane). XORing the
// eight products gives c·w lane by lane.
//
// Constant time: the data only passes through shifts, ANDs, XORs and 64-bit
// multiplications by public constants. Go's own cryptography (the generic
// field arithmetic of crypto/internal/fips140/edwards25519 and of Poly1305)
// relies on 64-bit multiplication taking the same time for all operands on
// the CPUs Go supports, and this kernel relies on the same. The data never
// forms an address or a branch condition; the table depends on c alone,
// which is public: an x coordinate or a matrix coefficient.

var genericKernel = &kernel{
	name:      "generic",
	tableSize: 8,
	maxOut:    1 << 30,
	width:     1,
}

// powerTable holds powers(c), c·x^i for i = 0…7, for every c as a
// little-endian word: the portable kernel's expansion of c. It is built on
// first use, as nibbleTables, and indexed by public coefficients.
var powerTable = sync.OnceValue(func() *[256]uint64 {
	var t [256]uint64
	for c := range t {
		p := powers(byte(c))
		t[c] = binary.LittleEndian.Uint64(p[:])
	}
	return &t
})

const lanes = 0x0101010101010101 // 1 in every byte lane

func mulRowsGeneric(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	for r, out := range outs {
		out = out[off : off+n]
		for j, in := range ins {
			mulSliceGeneric(tab[(r*len(ins)+j)*8:], in[off:off+n], out, xor || j > 0)
		}
	}
}

// mulSliceGeneric sets out = c·in, or out ^= c·in when add is set, where
// tab[:8] is c's expansion. len(out) must be at least len(in).
func mulSliceGeneric(tab, in, out []byte, add bool) {
	le := binary.LittleEndian
	tab = tab[:8]
	t0, t1, t2, t3 := uint64(tab[0]), uint64(tab[1]), uint64(tab[2]), uint64(tab[3])
	t4, t5, t6, t7 := uint64(tab[4]), uint64(tab[5]), uint64(tab[6]), uint64(tab[7])
	mul := func(w uint64) uint64 {
		return (w&lanes)*t0 ^ (w>>1&lanes)*t1 ^ (w>>2&lanes)*t2 ^ (w>>3&lanes)*t3 ^
			(w>>4&lanes)*t4 ^ (w>>5&lanes)*t5 ^ (w>>6&lanes)*t6 ^ (w>>7&lanes)*t7
	}
	n := len(in) &^ 7
	out = out[:len(in)]
	for i := 0; i < n; i += 8 {
		p := mul(le.Uint64(in[i:]))
		if add {
			p ^= le.Uint64(out[i:])
		}
		le.PutUint64(out[i:], p)
	}
	if n < len(in) {
		var w, o [8]byte
		copy(w[:], in[n:])
		copy(o[:], out[n:])
		p := mul(le.Uint64(w[:]))
		if add {
			p ^= le.Uint64(o[:])
		}
		le.PutUint64(o[:], p)
		copy(out[n:], o[:])
	}
}
