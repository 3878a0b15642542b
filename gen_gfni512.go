//go:build ignore

// gen_gfni512 writes galois_gfni512_amd64.s, the gfni512 kernel: a copy of
// straight-line code for every number of outputs R (1…4) and every number
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

// maxOut is the largest number of outputs of the straight-line form. With
// more, the matrices would not fit the vector registers beside the
// accumulators; the loop form (galois_amd64.s), which reads them from
// memory, takes those calls, as fast on rows in the cache. A form for 5 to
// 8 outputs with the matrices in memory was 1.3–1.7× faster on 8 outputs
// of 1 MiB rows from memory, but tripled the code.
const maxOut = 4

// groups[R] is the largest number of inputs one call takes for R outputs.
// It must match groupGFNI512 in galois_amd64.go. The R·g matrices live in
// vector registers beside the 2R accumulators and 8 temporaries
// (R·g + 2R + 8 <= 32), and the g input pointers in the 12 general
// registers left (inputRegs).
var groups = [maxOut + 1]int{0, 12, 10, 6, 4}

// chunks is the number of 64-byte chunks per pass of the main loop: two
// halve the passes' overhead and give the core independent work.
const chunks = 2

// inputRegs hold the row pointers of inputs 0…11, advanced to the end of
// the whole passes. AX is scratch and CX the column, counting up from
// −(n &^ 127) to 0; the output row pointers, advanced the same way, are in
// the frame.
var inputRegs = []string{"BX", "SI", "DI", "DX", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}

type gen struct {
	b bytes.Buffer
}

func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) label(l string) { g.p("%s:", l) }

// shape holds the operands of one copy: R outputs, n inputs. The matrix of
// (r, j) is in Z(r·n+j); after the matrices come, for each chunk c of a
// pass, the two inputs of a pair (xa, xb) and their products (pa, pb), then
// the accumulators of output r and chunk c.
type shape struct {
	R, n int
}

func (s shape) z(i int) string       { return fmt.Sprintf("Z%d", i) }
func (s shape) mat(r, j int) string  { return s.z(r*s.n + j) }
func (s shape) xa(c int) string      { return s.z(s.R*s.n + 4*c) }
func (s shape) xb(c int) string      { return s.z(s.R*s.n + 4*c + 1) }
func (s shape) pa(c int) string      { return s.z(s.R*s.n + 4*c + 2) }
func (s shape) pb(c int) string      { return s.z(s.R*s.n + 4*c + 3) }
func (s shape) acc(r, c int) string  { return s.z(s.R*s.n + 4*chunks + r*chunks + c) }
func (s shape) registers() (zmm int) { return s.R*s.n + 4*chunks + s.R*chunks }

// copyFor emits the code for R outputs and n inputs, at the label r<R>g<n>.
func (g *gen) copyFor(R, n int) {
	s := shape{R, n}
	if s.registers() > 32 || n > len(inputRegs) {
		log.Fatalf("R=%d g=%d does not fit the registers", R, n)
	}
	l := fmt.Sprintf("r%dg%d", R, n)
	g.label(l)
	g.p("\t// %d output(s), %d input(s): matrices in Z0…Z%d.", R, n, R*n-1)
	// AX = off + n&^(64·chunks−1), the end of the whole passes; every row
	// pointer is advanced by it, and CX runs from off−AX up to 0.
	g.p("\tMOVQ off+72(FP), CX")
	g.p("\tMOVQ n+80(FP), AX")
	g.p("\tANDQ $-%d, AX", 64*chunks)
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
	g.p("\tMOVQ tab_base+0(FP), AX")
	for r := range R {
		for j := range n {
			g.p("\tVPBROADCASTQ %d(AX), %s", 8*(r*n+j), s.mat(r, j))
		}
	}
	g.p("\tTESTQ CX, CX")
	g.p("\tJEQ   %s_tail", l)
	g.label(l + "_loop")
	g.body(s, l+"_main", chunks, false)
	g.p("\tADDQ $%d, CX", 64*chunks)
	g.p("\tJNE  %s_loop", l)
	// Here CX = 0 and the row pointers are at the last off+n mod 128
	// columns, which the tail takes 64 at a time, its loads and stores
	// masked by K1 to the columns left: the low min(64, left) bits, cut by
	// BZHI from all ones (64(SP)). 72(SP) counts the columns left.
	g.label(l + "_tail")
	g.p("\tMOVQ  n+80(FP), AX")
	g.p("\tANDQ  $%d, AX", 64*chunks-1)
	g.p("\tJEQ   done")
	g.p("\tMOVQ  AX, 72(SP)")
	g.p("\tMOVQ  $-1, 64(SP)")
	g.label(l + "_tailloop")
	g.p("\tMOVQ  72(SP), AX")
	g.p("\tBZHIQ AX, 64(SP), AX")
	g.p("\tKMOVQ AX, K1")
	g.body(s, l+"_masked", 1, true)
	g.p("\tADDQ  $64, CX")
	g.p("\tSUBQ  $64, 72(SP)")
	g.p("\tJG    %s_tailloop", l)
	g.p("\tJMP   done")
	g.p("")
}

// body emits one pass over the C chunks of 64 columns at CX; when masked
// (and then C = 1), over the columns of the chunk under K1. The
// accumulators start from the outputs' bytes if xor is set, from zero
// otherwise (a branch on xor alone); l prefixes its labels.
func (g *gen) body(s shape, l string, C int, masked bool) {
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
	g.p("\tCMPB xor+88(FP), $0")
	g.p("\tJEQ  %s_zero", l)
	for r := range s.R {
		g.p("\tMOVQ %d(SP), AX", 8*r)
		for c := range C {
			load("AX", c, s.acc(r, c))
		}
	}
	g.p("\tJMP  %s_add", l)
	g.label(l + "_zero")
	for r := range s.R {
		for c := range C {
			g.p("\tVPXORQ %s, %s, %s", s.acc(r, c), s.acc(r, c), s.acc(r, c))
		}
	}
	g.label(l + "_add")
	j := 0
	for ; j+1 < s.n; j += 2 {
		for c := range C {
			load(inputRegs[j], c, s.xa(c))
			load(inputRegs[j+1], c, s.xb(c))
		}
		for r := range s.R {
			for c := range C {
				g.p("\tVGF2P8AFFINEQB $0, %s, %s, %s", s.mat(r, j), s.xa(c), s.pa(c))
				g.p("\tVGF2P8AFFINEQB $0, %s, %s, %s", s.mat(r, j+1), s.xb(c), s.pb(c))
				g.p("\tVPTERNLOGD $0x96, %s, %s, %s", s.pa(c), s.pb(c), s.acc(r, c))
			}
		}
	}
	if j < s.n {
		for c := range C {
			load(inputRegs[j], c, s.xa(c))
		}
		for r := range s.R {
			for c := range C {
				g.p("\tVGF2P8AFFINEQB $0, %s, %s, %s", s.mat(r, j), s.xa(c), s.pa(c))
				g.p("\tVPXORQ %s, %s, %s", s.pa(c), s.acc(r, c), s.acc(r, c))
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
// It requires 1 <= len(outs) <= 4, 1 <= len(ins) <= groupGFNI512[len(outs)],
// n > 0, every row at least off+n bytes long and no output row overlapping
// an input row (mulRowsGFNI512 checks all but the last).
//
// It branches once on len(outs) and once on len(ins) to a copy of
// straight-line code for that shape. The copy puts the input row pointers
// in general registers and the output row pointers in its frame, all
// advanced to the end of the whole 128-byte passes so that one register,
// CX, counts the columns up to zero, and broadcasts the R·g matrices to
// Z0…Z(R·g−1). Then it walks the columns 128 at a time, two chunks of 64:
// it loads the bytes of each input once, multiplies them by each
// output's matrix with VGF2P8AFFINEQB, adds two products at a time into the
// output's accumulator with VPTERNLOGD (0x96, the three-way XOR), and
// stores each output once. With xor set, the accumulators start from the
// output's bytes instead of zero (a branch on xor at each pass). The last
// off+n mod 128 columns take passes of one chunk whose loads and stores
// are masked by K1 to the columns left (the mask is in a general register
// only from the frame: all of them hold row pointers):
// AVX-512 masked accesses neither read nor write the masked-out bytes
// (they cannot even fault), so no byte outside the rows is touched, and
// every n works.
//
// Constant time: the branches test only len(outs), len(ins), n, off and
// xor; every address is a row pointer plus the column, which advances by
// a fixed step whatever the data; the mask depends on n alone. The matrices come from
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
	for R := 1; R <= maxOut; R++ {
		g.p("\tCMPQ AX, $%d", R)
		g.p("\tJEQ  r%d", R)
	}
	g.p("\tJMP  done // unreachable: mulRowsGFNI512 checks len(outs)")
	g.p("")
	for R := 1; R <= maxOut; R++ {
		g.label(fmt.Sprintf("r%d", R))
		for n := 1; n <= groups[R]; n++ {
			g.p("\tCMPQ BX, $%d", n)
			g.p("\tJEQ  r%dg%d", R, n)
		}
		g.p("\tJMP  done // unreachable: mulRowsGFNI512 checks len(ins)")
		g.p("")
	}
	for R := 1; R <= maxOut; R++ {
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
