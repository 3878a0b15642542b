//go:build !purego

package shamir

// archExpandAll and archMulRows are expandAll and kernel.mulRows for the
// assembly kernel.
func archExpandAll(k *kernel, tab []byte, coef []byte) {
	if k != neonKernel {
		panic("shamir: unknown kernel " + k.name)
	}
	expandAllNibbles(tab, coef)
}

func archMulRows(k *kernel, tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	if k != neonKernel {
		panic("shamir: unknown kernel " + k.name)
	}
	mulRowsNEON(tab, ins, outs, off, n, xor)
}

// archKernels returns the assembly kernels this CPU can run, best first.
func archKernels() []*kernel {
	// Advanced SIMD is part of the arm64 base architecture, so this only
	// fails on an odd emulator or kernel; then the portable kernel is used.
	if hasASIMD {
		return []*kernel{neonKernel}
	}
	return nil
}

// The NEON kernel multiplies with split nibble tables. Multiplication by c is
// linear over GF(2), so for a byte b = h<<4 | l,
//
//	c·b = c·(h<<4) ⊕ c·l,
//
// and both terms are lookups in 16-entry tables of c's multiples. TBL does
// sixteen such lookups at once from a table held in a vector register.
var neonKernel = &kernel{
	name:      "neon",
	tableSize: 32,
	maxOut:    4,
	width:     16,
}

// mulRowsNEON checks the kernel contract, which the assembly relies on for
// memory safety, and runs the assembly.
func mulRowsNEON(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	if n == 0 {
		return
	}
	if n < 0 || n%16 != 0 || off < 0 || len(ins) == 0 || len(outs) == 0 || len(outs) > 4 ||
		len(tab) < len(outs)*len(ins)*32 {
		panic("shamir: internal error: bad arguments to the NEON kernel")
	}
	// Slicing panics if a row is shorter than off+n.
	for _, in := range ins {
		_ = in[off : off+n]
	}
	for _, out := range outs {
		_ = out[off : off+n]
	}
	mulNEON(tab, ins, outs, off, n, xor)
}

// mulNEON is mulRows for 1 to 4 output rows and n a positive multiple of 16.
// It trusts its arguments: mulRowsNEON checks them.
//
//go:noescape
func mulNEON(tab []byte, ins, outs [][]byte, off, n int, xor bool)
