package shamir

import "encoding/binary"

// The portable kernel works on 64-bit words holding eight bytes (SWAR). It is
// the reference every assembly kernel is tested against, the kernel of
// -tags purego and of architectures without assembly, and the one that takes
// the last few columns of every row for the vector kernels.
//
// Multiplying by a constant c is linear over GF(2): if byte b has bits
// b_0…b_7, then c·b = Σ_i b_i·(c·x^i). So with T_i the byte c·x^i copied into
// all eight lanes, and mask_i(w) the word with 0xff in the lanes whose bit i is
// set, c·w = XOR over i of (mask_i(w) & T_i), lane by lane.
//
// Constant time: the data only ever passes through shifts, ANDs, subtractions
// and XORs, which take the same time for every value on every CPU Go runs on,
// and it never forms an address or a branch condition. (Multiplying the 0/1
// lanes by 0xff would be shorter, but multiplication is not constant time on
// every CPU a purego build may meet.) The table T depends on c alone, which is
// public: an x coordinate or a matrix coefficient.

var genericKernel = &kernel{
	name:      "generic",
	tableSize: 8,
	expand:    expandGeneric,
	maxOut:    1 << 30,
	width:     1,
	mulRows:   mulRowsGeneric,
}

// expandGeneric writes c·x^i for i = 0…7.
func expandGeneric(tab []byte, c byte) {
	for i := range 8 {
		tab[i] = c
		c = gfMul(c, 2)
	}
}

const lanes = 0x0101010101010101 // 1 in every byte lane

// swarTable is the expansion T_0…T_7 of a coefficient, broadcast to all lanes.
type swarTable [8]uint64

func loadSWAR(tab []byte) *swarTable {
	var t swarTable
	for i := range t {
		t[i] = uint64(tab[i]) * lanes
	}
	return &t
}

// mul returns c·w for the eight bytes of w.
func (t *swarTable) mul(w uint64) uint64 {
	var p uint64
	for i := range 8 {
		b := w >> i & lanes    // bit i of each lane, moved to the lane's bit 0
		p ^= (b<<8 - b) & t[i] // b<<8 - b is 0xff in the lanes where b is 1
	}
	return p
}

func mulRowsGeneric(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	for r, out := range outs {
		out = out[off : off+n]
		for j, in := range ins {
			t := loadSWAR(tab[(r*len(ins)+j)*8:])
			t.mulSlice(in[off:off+n], out, xor || j > 0)
		}
	}
}

// mulSlice sets out = c·in, or out ^= c·in when add is set. len(out) must be
// at least len(in).
func (t *swarTable) mulSlice(in, out []byte, add bool) {
	le := binary.LittleEndian
	n := len(in) &^ 7
	out = out[:len(in)]
	for i := 0; i < n; i += 8 {
		p := t.mul(le.Uint64(in[i:]))
		if add {
			p ^= le.Uint64(out[i:])
		}
		le.PutUint64(out[i:], p)
	}
	if n < len(in) {
		var w, o [8]byte
		copy(w[:], in[n:])
		copy(o[:], out[n:])
		p := t.mul(le.Uint64(w[:]))
		if add {
			p ^= le.Uint64(o[:])
		}
		le.PutUint64(o[:], p)
		copy(out[n:], o[:])
	}
}
