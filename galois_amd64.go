//go:build !purego

package shamir

//go:generate go run gen_gfni512.go

import (
	"encoding/binary"
	"math/bits"
)

// The amd64 kernels. All three hold up to maxOut output accumulators in vector
// registers and walk the columns one, two or four vectors at a time: for each
// step, every input row is loaded once and folded into every accumulator, and
// each output row is read (when xor is set) and written once. They differ in
// how they multiply a vector of bytes by a constant c:
//
//   - gfni512 (GFNI, AVX-512F/BW, BMI2): VGF2P8AFFINEQB with the 8×8 bit
//     matrix of multiplication by c, broadcast to every 64-bit lane; 64 bytes
//     per instruction. Masked loads and stores take the last columns, so it
//     accepts any length. It also has a straight-line form for long rows
//     (mulRowsGFNI512 says when).
//   - gfni256 (GFNI, AVX2): the same with VEX-encoded 32-byte vectors.
//   - avx2: two 16-entry tables per constant, c·i and c·(i<<4) for i < 16,
//     looked up with VPSHUFB by the low and high nibble of each byte; c·b is
//     the XOR of the two, because multiplication by c is linear over GF(2).
//
// Constant time: the coefficients are public and only they form table
// contents and table addresses. The secret bytes are only loaded, stored and
// passed through VGF2P8AFFINEQB, VPSHUFB (a lookup in a register, not in
// memory), shifts, ANDs and XORs, whose timing does not depend on the values.
// Every address is a row base plus a column index, and every branch depends
// only on the number of rows, the column range and xor.

// maxOutAMD64 is the number of output accumulators of every kernel: the
// assembly has a copy of its loop for each count from 1 to 8.
const maxOutAMD64 = 8

var gfni512Kernel = &kernel{
	name:      "gfni512",
	tableSize: 8,
	maxOut:    maxOutAMD64,
	width:     1, // masked loads and stores take the last columns
}

var gfni256Kernel = &kernel{
	name:      "gfni256",
	tableSize: 32,
	maxOut:    maxOutAMD64,
	width:     32,
}

var avx2Kernel = &kernel{
	name:      "avx2",
	tableSize: 32,
	maxOut:    maxOutAMD64,
	width:     32,
}

// archExpandAll and archMulRows are expandAll and kernel.mulRows for the
// assembly kernels.
func archExpandAll(k *kernel, tab []byte, coef []byte) {
	switch k {
	case gfni512Kernel:
		// The matrix of c, which the kernel broadcasts to every 64-bit
		// lane with an embedded broadcast.
		for i, c := range coef {
			binary.LittleEndian.PutUint64(tab[8*i:], affineTable[c])
		}
	case gfni256Kernel:
		// The matrix four times, a full 256-bit operand: VEX-encoded
		// GF2P8AFFINEQB has no embedded broadcast.
		for i, c := range coef {
			for l := range 4 {
				binary.LittleEndian.PutUint64(tab[32*i+8*l:], affineTable[c])
			}
		}
	case avx2Kernel:
		expandAllNibbles(tab, coef)
	default:
		panic("shamir: unknown kernel " + k.name)
	}
}

func archMulRows(k *kernel, tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	switch k {
	case gfni512Kernel:
		mulRowsGFNI512(tab, ins, outs, off, n, xor)
	case gfni256Kernel:
		mulRowsGFNI256(tab, ins, outs, off, n, xor)
	case avx2Kernel:
		mulRowsAVX2(tab, ins, outs, off, n, xor)
	default:
		panic("shamir: unknown kernel " + k.name)
	}
}

// archKernels returns the assembly kernels this CPU can run, best first.
func archKernels() []*kernel {
	var ks []*kernel
	if hasGFNI512 {
		ks = append(ks, gfni512Kernel)
	}
	if hasGFNI {
		ks = append(ks, gfni256Kernel)
	}
	if hasAVX2 {
		ks = append(ks, avx2Kernel)
	}
	return ks
}

// affineMatrix returns the operand of GF2P8AFFINEQB that multiplies each byte
// by c, as affineTable (galois_affine_amd64.go, made by go generate) holds it
// for every c; TestAffineTable checks one against the other. Multiplication by c is linear over GF(2), so it is an 8×8 bit matrix
// whose column k is c·x^k. GF2P8AFFINEQB computes bit i of its result as the
// parity of x AND byte 7−i of the matrix, so byte 7−i holds row i: bit k of
// it is bit i of c·x^k.
func affineMatrix(c byte) uint64 {
	// Gather the columns c·x^k as the bytes k of a word, so that bit i of
	// byte k is entry (i, k); transpose the 8×8 bit matrix in three rounds
	// of swapping 1×1, 2×2 and 4×4 blocks across the diagonal, so that byte
	// i holds row i; then reverse the bytes.
	var m uint64
	for k, col := range powers(c) {
		m |= uint64(col) << (8 * k)
	}
	t := (m ^ m>>7) & 0x00aa00aa00aa00aa
	m ^= t ^ t<<7
	t = (m ^ m>>14) & 0x0000cccc0000cccc
	m ^= t ^ t<<14
	t = (m ^ m>>28) & 0x00000000f0f0f0f0
	m ^= t ^ t<<28
	return bits.ReverseBytes64(m)
}

// checkRows panics unless the call is within the kernel contract the
// assembly relies on: it would otherwise read or write outside the rows.
// It costs a few comparisons per row and block.
func checkRows(tableSize, width int, tab []byte, ins, outs [][]byte, off, n int) {
	if len(ins) == 0 || len(outs) > maxOutAMD64 || off < 0 || n < 0 || n%width != 0 ||
		len(tab) < len(ins)*len(outs)*tableSize {
		panic("shamir: kernel called outside its contract")
	}
	for _, in := range ins {
		if len(in)-off < n {
			panic("shamir: kernel called outside its contract")
		}
	}
	for _, out := range outs {
		if len(out)-off < n {
			panic("shamir: kernel called outside its contract")
		}
	}
}

// groupGFNI512[R] is the largest number of inputs mulGFNI512 takes with R
// outputs, and 0 for the numbers of outputs it does not take
// (gen_gfni512.go says why).
var groupGFNI512 = [maxOutAMD64 + 1]int{0, 12, 10, 6, 4}

// gfni512 has two forms, chosen by the shape and the length of the call
// (measured on Zen 5, where the choice matters most):
//
//   - mulGFNI512, straight-line code per shape, which keeps the row pointers
//     and the matrices in registers, for up to 4 outputs and a limited
//     number of inputs per call. From a kilobyte on, and above all on rows
//     that come from memory rather than the cache, it is 5–20% faster with
//     up to 16 inputs: Combine's and Split's blocks.
//   - mulGFNI512Loop, one loop over any number of inputs, which costs less to
//     set up: faster on short rows (a short secret's Split and Combine), and
//     where the inputs would have to be split into groups that each read
//     and write the outputs again, unless the rows are long. Its passes of
//     four chunks for up to 4 outputs make it faster, on rows in the cache,
//     with 2 or 3 inputs into several outputs (Reed–Solomon parity for
//     SSMS, short Splits) and as fast on rows from memory. It takes the
//     calls with more than 4 outputs.
const (
	gfni512StraightMin = 1 << 10 // shortest call for mulGFNI512
	gfni512GroupsMin   = 4 << 10 // ... when the inputs take several calls
)

func mulRowsGFNI512(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	checkRows(8, 1, tab, ins, outs, off, n)
	if n == 0 || len(outs) == 0 {
		return
	}
	g := groupGFNI512[len(outs)]
	switch {
	case g == 0 || n < gfni512StraightMin || len(outs) > 1 && len(ins) < 4 ||
		len(ins) > g && n < gfni512GroupsMin:
		mulGFNI512Loop(tab, ins, outs, off, n, xor)
	case len(ins) <= g:
		mulGFNI512(tab, ins, outs, off, n, xor)
	default:
		mulGFNI512Groups(tab, ins, outs, off, n, xor)
	}
}

// mulGFNI512Groups is mulGFNI512 for up to 4 outputs and any number of
// inputs: the inputs in groups of about equal size, the first of which sets
// the outputs (or adds to them), the others add.
func mulGFNI512Groups(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	g := groupGFNI512[len(outs)]
	groups := (len(ins) + g - 1) / g
	g = (len(ins) + groups - 1) / groups
	// The kernel wants the matrices of its inputs row after row.
	var gtab [4 * 12 * 8]byte
	for j := 0; j < len(ins); j += g {
		je := min(j+g, len(ins))
		w := je - j
		for r := range outs {
			copy(gtab[8*r*w:8*(r+1)*w], tab[8*(r*len(ins)+j):8*(r*len(ins)+je)])
		}
		mulGFNI512(gtab[:8*len(outs)*w], ins[j:je], outs, off, n, xor || j > 0)
	}
}

func mulRowsGFNI256(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	checkRows(32, 32, tab, ins, outs, off, n)
	if n > 0 && len(outs) > 0 {
		mulGFNI256(tab, ins, outs, off, n, xor)
	}
}

func mulRowsAVX2(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	checkRows(32, 32, tab, ins, outs, off, n)
	if n > 0 && len(outs) > 0 {
		mulAVX2(tab, ins, outs, off, n, xor)
	}
}

// The assembly functions below implement kernel.mulRows for their kernel,
// with the preconditions checkRows verifies and n > 0, 1 <= len(outs) <= 8
// (galois_amd64.s), except mulGFNI512, which also requires
// len(ins) <= groupGFNI512[len(outs)] and takes the matrices of its inputs
// only (galois_gfni512_amd64.s, generated by gen_gfni512.go).

//go:noescape
func mulGFNI512(tab []byte, ins, outs [][]byte, off, n int, xor bool)

//go:noescape
func mulGFNI512Loop(tab []byte, ins, outs [][]byte, off, n int, xor bool)

//go:noescape
func mulGFNI256(tab []byte, ins, outs [][]byte, off, n int, xor bool)

//go:noescape
func mulAVX2(tab []byte, ins, outs [][]byte, off, n int, xor bool)
