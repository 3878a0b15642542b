//go:build ignore

// gen_gfni512 writes galois_gfni512_amd64.s, the gfni512 kernel: a copy of
// straight-line code for every number of outputs R (1…8) and every number
// of inputs g up to groups[R]. Run it with go generate.
//
// Why generated: the kernel is fastest when each pass over 64 columns is
// straight-line code over all of its inputs, with the row pointers in
// general registers. A loop over the inputs within a pass (the kernel's
// earlier form, which read each input's header and matrix at each pass)
// cost 10–20% on Zen 5 for 1 to 4 outputs, with the same loads and
// products. Straight-line code needs a copy per (R, g); writing dozens of
// them by hand, or with the assembler's macros, which cannot loop, is where
// mistakes hide.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
)

// groups[R] is the largest number of inputs one call takes for R outputs.
// It must match groupGFNI512 in galois_amd64.go. Up to four outputs, the
// R·g matrices live in vector registers beside the R accumulators and four
// temporaries (R·g + R + 4 <= 32), and g is bounded by that; with more,
// they stay in memory (inMemory), and g is bounded by the general
// registers left for input pointers.
var groups = [9]int{0, 12, 10, 6, 4, 11, 11, 11, 11}

// inMemory[R] tells whether the copies for R outputs multiply by the
// matrices in tab (R15) with an embedded broadcast at each use, rather than
// from registers.
var inMemory = [9]bool{5: true, 6: true, 7: true, 8: true}

// chunks[R] is the number of 64-byte chunks per pass of the main loop.
var chunks = [9]int{0, 2, 2, 2, 2, 2, 2, 2, 2}

// inputRegs hold the row pointers of inputs 0…11, advanced to the end of
// the whole 64-byte chunks. AX is scratch and CX the column, counting up
// from −(n &^ 63) to 0; the output row pointers, advanced the same way, are
// in the frame. R15 is the last input's register only where the matrices
// are in registers; otherwise it points at them.
var inputRegs = []string{"BX", "SI", "DI", "DX", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}

type gen struct {
	b bytes.Buffer
}

func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) label(l string) { g.p("%s:", l) }

// shape holds the operands of one copy.
type shape struct {
	R, n, C        int // outputs, inputs, chunks per pass of the main loop
	mat            func(r, j int) string
	inMemory       bool
	mtmp           [2]string          // where in-memory matrices are broadcast for C > 1
	xa, xb, pa, pb func(c int) string // inputs and products of chunk c
	acc            func(r, c int) string
}

// copyFor emits the code for R outputs and n inputs, at the label r<R>g<n>.
func (g *gen) copyFor(R, n int) {
	C := chunks[R]
	s := shape{R: R, n: n, C: C, inMemory: inMemory[R]}
	base := R * n
	s.mat = func(r, j int) string { return fmt.Sprintf("Z%d", r*n+j) }
	if inMemory[R] {
		base = 2
		s.mtmp = [2]string{"Z0", "Z1"}
		s.mat = func(r, j int) string { return fmt.Sprintf("%d(R15)", 8*(r*n+j)) }
		if n > len(inputRegs)-1 {
			log.Fatalf("R=%d g=%d: R15 holds the matrices", R, n)
		}
	}
	if n > len(inputRegs) {
		log.Fatalf("R=%d g=%d: too few general registers", R, n)
	}
	if base+4*C+R*C > 32 {
		log.Fatalf("R=%d g=%d needs %d vector registers", R, n, base+4*C+R*C)
	}
	z := func(i int) string { return fmt.Sprintf("Z%d", i) }
	s.xa = func(c int) string { return z(base + 4*c) }
	s.xb = func(c int) string { return z(base + 4*c + 1) }
	s.pa = func(c int) string { return z(base + 4*c + 2) }
	s.pb = func(c int) string { return z(base + 4*c + 3) }
	s.acc = func(r, c int) string { return z(base + 4*C + r*C + c) }

	l := fmt.Sprintf("r%dg%d", R, n)
	g.label(l)
	if inMemory[R] {
		g.p("\t// %d outputs, %d input(s), %d chunk(s) per pass: matrices at R15.", R, n, C)
	} else {
		g.p("\t// %d output(s), %d input(s), %d chunk(s) per pass: matrices in Z0…Z%d.", R, n, C, base-1)
	}
	// AX = off + n&^(64C−1), the end of the whole passes; every row
	// pointer is advanced by it, and CX runs from off−AX up to 0.
	g.p("\tMOVQ off+72(FP), CX")
	g.p("\tMOVQ n+80(FP), AX")
	g.p("\tANDQ $-%d, AX", 64*C)
	g.p("\tADDQ CX, AX")
	g.p("\tSUBQ AX, CX")
	last := inputRegs[n-1]
	tmp := "BX"
	if last == tmp {
		tmp = "SI"
	}
	g.p("\tMOVQ outs_base+48(FP), %s", last)
	for r := range R {
		g.p("\tMOVQ %d(%s), %s", 24*r, last, tmp)
		g.p("\tADDQ AX, %s", tmp)
		g.p("\tMOVQ %s, %d(SP)", tmp, 8*r)
	}
	g.p("\tMOVQ ins_base+24(FP), %s", last)
	for j := range n {
		g.p("\tMOVQ %d(%s), %s", 24*j, last, inputRegs[j])
		g.p("\tADDQ AX, %s", inputRegs[j])
	}
	if inMemory[R] {
		g.p("\tMOVQ tab_base+0(FP), R15")
	} else {
		g.p("\tMOVQ tab_base+0(FP), AX")
		for r := range R {
			for j := range n {
				g.p("\tVPBROADCASTQ %d(AX), %s", 8*(r*n+j), s.mat(r, j))
			}
		}
	}
	g.p("\tTESTQ CX, CX")
	g.p("\tJEQ   %s_tail", l)
	g.p("\tCMPB  xor+88(FP), $0")
	g.p("\tJNE   %s_xloop", l)
	for _, xor := range []bool{false, true} {
		loop := l + "_loop"
		if xor {
			loop = l + "_xloop"
		}
		g.label(loop)
		g.body(s, xor, C, false)
		g.p("\tADDQ $%d, CX", 64*C)
		g.p("\tJNE  %s", loop)
		g.p("\tJMP  %s_tail", l)
	}
	// Here CX = 0 and the row pointers are at the last off+n mod 64C
	// columns, which the tail takes 64 at a time, its loads and stores
	// masked by K1 to the columns left: the low min(64, left) bits, cut by
	// BZHI from all ones (64(SP)). 72(SP) counts the columns left.
	g.label(l + "_tail")
	g.p("\tMOVQ  n+80(FP), AX")
	g.p("\tANDQ  $%d, AX", 64*C-1)
	g.p("\tJEQ   done")
	g.p("\tMOVQ  AX, 72(SP)")
	g.p("\tMOVQ  $-1, 64(SP)")
	g.p("\tCMPB  xor+88(FP), $0")
	g.p("\tJNE   %s_xtail", l)
	for _, xor := range []bool{false, true} {
		tl := l + "_tailloop"
		if xor {
			g.label(l + "_xtail")
			tl = l + "_xtailloop"
		}
		g.label(tl)
		g.p("\tMOVQ  72(SP), AX")
		g.p("\tBZHIQ AX, 64(SP), AX")
		g.p("\tKMOVQ AX, K1")
		g.body(s, xor, 1, true)
		g.p("\tADDQ  $64, CX")
		g.p("\tSUBQ  $64, 72(SP)")
		g.p("\tJG    %s", tl)
		g.p("\tJMP   done")
	}
	g.p("")
}

// affine is the multiplying instruction for a pass of C chunks: with an
// embedded broadcast of the matrix from memory for a single chunk.
func (s shape) affine(C int) string {
	if s.inMemory && C == 1 {
		return "VGF2P8AFFINEQB.BCST"
	}
	return "VGF2P8AFFINEQB"
}

// matrix returns the operand of the matrix of (r, j) for a pass of C
// chunks: its register, its memory operand for an embedded broadcast, or,
// for several chunks, the temporary k it is broadcast to once for all.
func (s shape) matrix(g *gen, r, j, C, k int) string {
	if !s.inMemory {
		return s.mat(r, j)
	}
	if C == 1 {
		return s.mat(r, j)
	}
	g.p("\tVPBROADCASTQ %s, %s", s.mat(r, j), s.mtmp[k])
	return s.mtmp[k]
}

// body emits one pass over the C chunks of 64 columns at CX; when masked
// (and then C = 1), over the columns of the chunk under K1.
func (g *gen) body(s shape, xor bool, C int, masked bool) {
	at := func(reg string, c int) string {
		if c == 0 {
			return "(" + reg + ")(CX*1)"
		}
		return fmt.Sprintf("%d(%s)(CX*1)", 64*c, reg)
	}
	load := func(reg string, c int, dst string) {
		if masked {
			g.p("\tVMOVDQU8.Z %s, K1, %s", at(reg, c), dst)
		} else {
			g.p("\tVMOVDQU64 %s, %s", at(reg, c), dst)
		}
	}
	started := xor
	if xor {
		for r := range s.R {
			g.p("\tMOVQ %d(SP), AX", 8*r)
			for c := range C {
				load("AX", c, s.acc(r, c))
			}
		}
	}
	j := 0
	for ; j+1 < s.n; j += 2 {
		for c := range C {
			load(inputRegs[j], c, s.xa(c))
			load(inputRegs[j+1], c, s.xb(c))
		}
		for r := range s.R {
			ma, mb := s.matrix(g, r, j, C, 0), s.matrix(g, r, j+1, C, 1)
			for c := range C {
				g.p("\t%s $0, %s, %s, %s", s.affine(C), ma, s.xa(c), s.pa(c))
				g.p("\t%s $0, %s, %s, %s", s.affine(C), mb, s.xb(c), s.pb(c))
				if started {
					g.p("\tVPTERNLOGD $0x96, %s, %s, %s", s.pa(c), s.pb(c), s.acc(r, c))
				} else {
					g.p("\tVPXORQ %s, %s, %s", s.pa(c), s.pb(c), s.acc(r, c))
				}
			}
		}
		started = true
	}
	if j < s.n {
		for c := range C {
			load(inputRegs[j], c, s.xa(c))
		}
		for r := range s.R {
			m := s.matrix(g, r, j, C, 0)
			for c := range C {
				if started {
					g.p("\t%s $0, %s, %s, %s", s.affine(C), m, s.xa(c), s.pa(c))
					g.p("\tVPXORQ %s, %s, %s", s.pa(c), s.acc(r, c), s.acc(r, c))
				} else {
					g.p("\t%s $0, %s, %s, %s", s.affine(C), m, s.xa(c), s.acc(r, c))
				}
			}
		}
	}
	for r := range s.R {
		g.p("\tMOVQ %d(SP), AX", 8*r)
		for c := range C {
			if masked {
				g.p("\tVMOVDQU8 %s, K1, %s", s.acc(r, c), at("AX", c))
			} else {
				g.p("\tVMOVDQU64 %s, %s", s.acc(r, c), at("AX", c))
			}
		}
	}
}

const header = `// Code generated by gen_gfni512.go; DO NOT EDIT.

//go:build !purego

#include "textflag.h"

// func mulGFNI512(tab []byte, ins, outs [][]byte, off, n int, xor bool)
//
// For every output r and every column k in [off, off+n):
//
//	outs[r][k] = Σ_j c(r, j)·ins[j][k]    (xor unset)
//	outs[r][k] ^= Σ_j c(r, j)·ins[j][k]   (xor set)
//
// where the 8-byte affine matrix of c(r, j) is at tab[8*(r*len(ins)+j):].
// It requires 1 <= len(outs) <= 8, 1 <= len(ins) <= groupGFNI512[len(outs)],
// n > 0, every row at least off+n bytes long and no output row overlapping
// an input row (mulRowsGFNI512 checks all but the last).
//
// It branches once on len(outs) and once on len(ins) to a copy of
// straight-line code for that shape. The copy puts the input row pointers
// in general registers and the output row pointers in its frame, all
// advanced to the end of the whole 64-byte chunks so that one register, CX,
// counts the columns up to zero; for up to four outputs, it broadcasts the
// R·g matrices to Z0…Z(R·g−1) (with more, it reads them from tab with an
// embedded broadcast at each use). Then it walks the columns 64 at a time:
// it loads the 64 bytes of each input once, multiplies them by each
// output's matrix with VGF2P8AFFINEQB, adds two products at a time into the
// output's accumulator with VPTERNLOGD (0x96, the three-way XOR), and
// stores each output once. With xor set, the accumulators start from the
// output's bytes instead of zero. The last off+n mod 64 columns take one
// more pass whose loads and stores are masked by K1 to those columns:
// AVX-512 masked accesses neither read nor write the masked-out bytes
// (they cannot even fault), so no byte outside the rows is touched, and
// every n works.
//
// Constant time: the branches test only len(outs), len(ins), n, off and
// xor; every address is a row pointer plus the column, which advances by
// 64 whatever the data; the mask depends on n alone. The matrices come from
// public coefficients. The secret bytes only pass through vector loads and
// stores, VGF2P8AFFINEQB, VPXORQ and VPTERNLOGD, whose timing does not
// depend on their operands.
TEXT ·mulGFNI512(SB), NOSPLIT, $80-89
	MOVQ outs_len+56(FP), AX
	MOVQ ins_len+32(FP), BX
`

func main() {
	var g gen
	g.b.WriteString(header)
	for R := 1; R <= 8; R++ {
		g.p("\tCMPQ AX, $%d", R)
		g.p("\tJEQ  r%d", R)
	}
	g.p("\tJMP  done // unreachable: mulRowsGFNI512 checks len(outs)")
	g.p("")
	for R := 1; R <= 8; R++ {
		g.label(fmt.Sprintf("r%d", R))
		for n := 1; n <= groups[R]; n++ {
			g.p("\tCMPQ BX, $%d", n)
			g.p("\tJEQ  r%dg%d", R, n)
		}
		g.p("\tJMP  done // unreachable: mulRowsGFNI512 checks len(ins)")
		g.p("")
	}
	for R := 1; R <= 8; R++ {
		for n := 1; n <= groups[R]; n++ {
			g.copyFor(R, n)
		}
	}
	g.label("done")
	g.p("\tVZEROUPPER")
	g.p("\tRET")
	if err := os.WriteFile("galois_gfni512_amd64.s", g.b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
