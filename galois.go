package shamir

import "encoding/binary"

// This file holds the field GF(2^8) and the engine built on it: every
// operation of the package is a matrix of public field constants applied to
// rows of secret bytes, and matrix.apply is the only loop over those bytes.
// Callers describe such a product (parallel.go), and product.run decides
// how it is computed: blocks, goroutines, stack or heap.

// The field is GF(2)[x]/(x^8+x^4+x^3+x+1), the representation used by AES and
// by Vault's shamir package: a byte's bit i is the coefficient of x^i.
const poly = 0x1b // x^8 reduced: x^4+x^3+x+1

// gfMul returns a·b. It runs in constant time: eight rounds of shift, mask and
// XOR, with the bits of b and the carries of a turned into masks instead of
// branches, and no memory lookups.
func gfMul(a, b byte) byte {
	var r byte
	for range 8 {
		r ^= a & -(b & 1) // add a when b's low bit is set
		b >>= 1
		a = a<<1 ^ poly&-(a>>7) // a·x, reduced when x^8 appears
	}
	return r
}

// gfInv returns the inverse of a, and 0 for 0. The multiplicative group has
// order 255, so a^-1 = a^254; the addition chain below is fixed, so the time
// does not depend on a.
func gfInv(a byte) byte {
	a2 := gfMul(a, a)     // a^2
	a3 := gfMul(a2, a)    // a^3
	a6 := gfMul(a3, a3)   // a^6
	a12 := gfMul(a6, a6)  // a^12
	a15 := gfMul(a12, a3) // a^15
	a30 := gfMul(a15, a15)
	a60 := gfMul(a30, a30)
	a120 := gfMul(a60, a60)
	a240 := gfMul(a120, a120)
	a252 := gfMul(a240, a12)
	return gfMul(a252, a2) // a^254
}

//go:generate go run gen_tables.go

// gfMulPublic returns a·b for public a and b (x coordinates, matrix
// coefficients), from the logarithm tables. Its memory accesses depend on a
// and b: never use it on secret data.
func gfMulPublic(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return expTable[int(logTable[a])+int(logTable[b])]
}

// gfInvPublic returns the inverse of a public a, and 0 for 0. Its memory
// accesses depend on a: never use it on secret data.
func gfInvPublic(a byte) byte {
	if a == 0 {
		return 0
	}
	return expTable[255-int(logTable[a])]
}

// powers returns c·x^k for k = 0…7: c doubled k times. Every table below is
// made of XORs of these, since multiplication by c is linear over GF(2).
func powers(c byte) [8]byte {
	var p [8]byte
	for k := range p {
		p[k] = c
		c = c<<1 ^ poly&-(c>>7) // c·x, reduced when x^8 appears
	}
	return p
}

// A kernel is one implementation of the engine's hot loop. Each kernel works
// from its own expansion of the matrix coefficients (nibble tables, affine
// matrices, ...), which only depends on the public coefficients.
//
// The kernels are called through methods that switch on the kernel, not
// through function values: escape analysis cannot follow a call through a
// function value, and would move every row list and matrix given to one to
// the heap. Direct calls let a short secret's Split and Combine keep them on
// the stack.
type kernel struct {
	name string

	// tableSize is the number of bytes expand writes for one coefficient.
	tableSize int

	// maxOut is the largest number of output rows one call to mulRows
	// accepts, and width the granule of its lengths, a power of two:
	// mulRows is only called with n a multiple of width.
	maxOut, width int
}

// mulRows computes, for every output row r and every column i in
// [off, off+n),
//
//	outs[r][i] = Σ_j c(r, j)·ins[j][i]    (xor == false)
//	outs[r][i] ^= Σ_j c(r, j)·ins[j][i]   (xor == true)
//
// where the expansion of c(r, j) is tab[(r*len(ins)+j)*k.tableSize:]. All
// rows have at least off+n bytes, no output row overlaps an input row,
// len(ins) >= 1, len(outs) <= k.maxOut and n is a multiple of k.width.
func (k *kernel) mulRows(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	if k == genericKernel {
		mulRowsGeneric(tab, ins, outs, off, n, xor)
		return
	}
	archMulRows(k, tab, ins, outs, off, n, xor)
}

// blockSize is the number of columns the engine processes at a time: the
// output rows of a block and the block of the current input row stay in the
// first-level cache while every input row is folded into them.
const blockSize = 16 << 10

// active is the kernel the package uses: the best one this CPU can run.
var active = kernels()[0]

// kernels returns the kernels this CPU can run, best first. The portable
// kernel is always last.
func kernels() []*kernel {
	return append(archKernels(), genericKernel)
}

// A matrix is a rows×cols matrix of public field constants, expanded for a
// kernel. It is immutable once built and may be used concurrently.
type matrix struct {
	rows, cols int
	k          *kernel
	size       int    // bytes of k's expansion; the portable one follows
	big        []byte // the expansions, unless they fit in small

	// small holds the expansions of small matrices (a short secret's Split
	// or Combine), sparing an allocation. The matrix keeps no slice of it,
	// which would be a pointer into itself: escape analysis would move
	// every matrix to the heap.
	small [512]byte
}

// newMatrix returns a matrix of the row-major coefficients coef, expanded
// for the kernel k.
func newMatrix(k *kernel, coef []byte, rows, cols int) *matrix {
	m := new(matrix)
	m.init(k, coef, rows, cols, -1)
	return m
}

// init sets m to newMatrix(k, coef, rows, cols), for a matrix that the
// caller keeps on its stack. If n >= 0, m is only ever applied to n columns
// at a time; when n is a multiple of k's width (and so is blockSize), no
// block leaves columns to the portable kernel, and its expansion is
// skipped.
func (m *matrix) init(k *kernel, coef []byte, rows, cols, n int) {
	// The fields one by one: m.small is written where it is used, and
	// clearing it again (declaring m cleared it) would cost a short
	// secret's Combine a few percent.
	m.rows, m.cols, m.k, m.size, m.big = rows, cols, k, len(coef)*k.tableSize, nil
	gsize := 0
	if k != genericKernel && (n < 0 || n%k.width != 0) {
		gsize = len(coef) * genericKernel.tableSize // for the columns k leaves
	}
	store := m.small[:]
	if m.size+gsize > len(store) {
		m.big = make([]byte, m.size+gsize)
		store = m.big
	}
	expandAll(store[:m.size], k, coef)
	if gsize > 0 {
		expandAll(store[m.size:m.size+gsize], genericKernel, coef)
	}
}

// tables returns k's expansion and the portable one.
func (m *matrix) tables() (tab, gtab []byte) {
	store := m.big
	if store == nil {
		store = m.small[:]
	}
	if m.k == genericKernel {
		return store[:m.size], store[:m.size]
	}
	return store[:m.size], store[m.size:]
}

// expandAll writes k's expansion of every coefficient to tab.
func expandAll(tab []byte, k *kernel, coef []byte) {
	if k == genericKernel {
		t := powerTable()
		for i, c := range coef {
			binary.LittleEndian.PutUint64(tab[8*i:], t[c])
		}
		return
	}
	archExpandAll(k, tab, coef)
}

// apply computes outs = M·ins (or outs ^= M·ins when xor is set) over the
// columns [off, off+n) of every row. len(ins) must be m.cols and len(outs)
// m.rows, and no output row may overlap an input row.
func (m *matrix) apply(ins, outs [][]byte, off, n int, xor bool) {
	for n > 0 {
		bn := min(n, blockSize)
		m.block(ins, outs, off, bn, xor)
		off += bn
		n -= bn
	}
}

// block applies m to one block of columns. The kernel takes the largest
// multiple of its width. The few columns left go to the portable kernel,
// so that every length works on every kernel, except when the kernel can
// take them itself: without xor, it computes the last width columns again,
// overlapping what it has done. No output row overlaps an input row, so
// the columns computed twice come out the same both times.
func (m *matrix) block(ins, outs [][]byte, off, n int, xor bool) {
	k := m.k
	tab, gtab := m.tables()
	vn := n - n%k.width
	overlap := vn < n && vn > 0 && !xor
	step := k.maxOut
	for r := 0; r < len(outs); r += step {
		re := min(r+step, len(outs))
		rt := tab[r*m.cols*k.tableSize : re*m.cols*k.tableSize]
		if vn > 0 {
			if k != genericKernel {
				raceRows(ins, outs[r:re], off, n)
			}
			k.mulRows(rt, ins, outs[r:re], off, vn, xor)
		}
		switch {
		case overlap:
			k.mulRows(rt, ins, outs[r:re], off+n-k.width, k.width, false)
		case vn < n:
			g := genericKernel.tableSize
			genericKernel.mulRows(gtab[r*m.cols*g:re*m.cols*g], ins, outs[r:re], off+vn, n-vn, xor)
		}
	}
}
