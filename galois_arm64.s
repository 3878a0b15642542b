//go:build !purego

#include "textflag.h"

// The NEON kernel: out_r ^= Σ_j c(r, j)·in_j over up to four output rows at
// once, 64 columns per step while at least 64 are left, then 16 per step.
//
// Multiplication by a coefficient c uses its two 16-byte tables, lo = c·i and
// hi = c·(i<<4) for i = 0…15, held in V24 and V25 while in use:
//
//	c·b = TBL(lo, b & 0x0f) ⊕ TBL(hi, b >> 4)
//
// Constant time: the secret bytes (inputs and outputs) only pass through
// vector loads and stores at addresses that depend on the public row pointers,
// offset and length, and through AND, USHR, TBL and EOR. TBL selects bytes
// from a table held in registers; no memory address is ever formed from data,
// so there is no data-dependent cache access. The tables depend only on the
// public coefficients. Every branch depends only on the number of rows, the
// length and the xor flag, which are public.
//
// Register roles in mulNEON:
//
//	R0	tab: the tables of row 0, input 0
//	R1	ins: the slice headers of the input rows (24 bytes each)
//	R2	len(ins)
//	R3	outs: the slice headers of the output rows (only read on entry)
//	R4	N = len(outs), 1…4
//	R5	the current column: off plus the columns done so far
//	R6	the columns left, a multiple of 16
//	R7	the xor flag
//	R8–R11	data pointers of the output rows held by accumulator sets A–D
//	R13	32·len(ins): the distance between the tables of one input in
//		consecutive output rows
//	R14	the next input's slice header
//	R15	the tables of row 0 for the current input
//	R16	the inputs left
//	R17	the current input's address at column R5
//	R19	the tables of the current row for the current input
//	R20	an output row's address at column R5
//
//	V0–V3	accumulator set A (64 columns; only V0 in 16-column steps)
//	V4–V7	accumulator set B (V4)
//	V8–V11	accumulator set C (V8)
//	V12–V15	accumulator set D (V12)
//	V16–V19	input bytes, then their low nibbles
//	V20–V23	the high nibbles of the input bytes
//	V24, V25	lo and hi table of the current coefficient
//	V26–V29	products
//	V30	0x0f in every byte
//
// N output rows are held in the last N accumulator sets: row 0 in set 4-N, row
// N-1 in set D. Each part of a step (clearing or loading the accumulators,
// multiplying, storing) is written as four blocks A, B, C, D that fall through
// into one another, and DISPATCH enters at the block for row 0. This keeps one
// copy of the code for every N, and the branch, which only depends on N, is
// predictable.

// DISPATCH jumps to the first of the blocks A, B, C, D to run for N = R4 output
// rows. Block A must follow it.
#define DISPATCH(b, c, d) \
	CMP	$2, R4 \
	BLT	d \
	BEQ	c \
	CMP	$3, R4 \
	BEQ	b

// SPLIT64 splits the 64 input bytes in V16–V19 into low nibbles (V16–V19) and
// high nibbles (V20–V23).
#define SPLIT64 \
	VUSHR	$4, V16.B16, V20.B16 \
	VUSHR	$4, V17.B16, V21.B16 \
	VUSHR	$4, V18.B16, V22.B16 \
	VUSHR	$4, V19.B16, V23.B16 \
	VAND	V30.B16, V16.B16, V16.B16 \
	VAND	V30.B16, V17.B16, V17.B16 \
	VAND	V30.B16, V18.B16, V18.B16 \
	VAND	V30.B16, V19.B16, V19.B16

// MUL64 adds the product of the split input bytes in V16–V23 and the
// coefficient whose tables are at R19 into the accumulators a0–a3, and moves
// R19 to the same input's tables in the next output row.
#define MUL64(a0, a1, a2, a3) \
	VLD1.P	(R19)(R13), [V24.B16, V25.B16] \
	VTBL	V16.B16, [V24.B16], V26.B16 \
	VTBL	V17.B16, [V24.B16], V27.B16 \
	VTBL	V18.B16, [V24.B16], V28.B16 \
	VTBL	V19.B16, [V24.B16], V29.B16 \
	VEOR	V26.B16, a0.B16, a0.B16 \
	VEOR	V27.B16, a1.B16, a1.B16 \
	VEOR	V28.B16, a2.B16, a2.B16 \
	VEOR	V29.B16, a3.B16, a3.B16 \
	VTBL	V20.B16, [V25.B16], V26.B16 \
	VTBL	V21.B16, [V25.B16], V27.B16 \
	VTBL	V22.B16, [V25.B16], V28.B16 \
	VTBL	V23.B16, [V25.B16], V29.B16 \
	VEOR	V26.B16, a0.B16, a0.B16 \
	VEOR	V27.B16, a1.B16, a1.B16 \
	VEOR	V28.B16, a2.B16, a2.B16 \
	VEOR	V29.B16, a3.B16, a3.B16

// MUL16 is MUL64 for the 16 input bytes split into V16 and V20.
#define MUL16(a) \
	VLD1.P	(R19)(R13), [V24.B16, V25.B16] \
	VTBL	V16.B16, [V24.B16], V26.B16 \
	VTBL	V20.B16, [V25.B16], V27.B16 \
	VEOR	V26.B16, a.B16, a.B16 \
	VEOR	V27.B16, a.B16, a.B16

#define ZERO64(a0, a1, a2, a3) \
	VEOR	a0.B16, a0.B16, a0.B16 \
	VEOR	a1.B16, a1.B16, a1.B16 \
	VEOR	a2.B16, a2.B16, a2.B16 \
	VEOR	a3.B16, a3.B16, a3.B16

// LOAD64 and STORE64 move 64 bytes at column R5 of the output row at p
// between memory and the accumulators a0–a3.
#define LOAD64(p, a0, a1, a2, a3) \
	ADD	R5, p, R20 \
	VLD1	(R20), [a0.B16, a1.B16, a2.B16, a3.B16]

#define STORE64(p, a0, a1, a2, a3) \
	ADD	R5, p, R20 \
	VST1	[a0.B16, a1.B16, a2.B16, a3.B16], (R20)

#define LOAD16(p, a) \
	ADD	R5, p, R20 \
	VLD1	(R20), [a.B16]

#define STORE16(p, a) \
	ADD	R5, p, R20 \
	VST1	[a.B16], (R20)

// func mulNEON(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulNEON(SB), NOSPLIT, $0-89
	MOVD	tab_base+0(FP), R0
	MOVD	ins_base+24(FP), R1
	MOVD	ins_len+32(FP), R2
	MOVD	outs_base+48(FP), R3
	MOVD	outs_len+56(FP), R4
	MOVD	off+72(FP), R5
	MOVD	n+80(FP), R6
	MOVBU	xor+88(FP), R7

	VMOVI	$0x0f, V30.B16
	LSL	$5, R2, R13

	// Load the data pointers of the output rows, row 0 first, into the
	// registers of their accumulator sets.
	DISPATCH(ptrB, ptrC, ptrD)
	MOVD.P	24(R3), R8
ptrB:
	MOVD.P	24(R3), R9
ptrC:
	MOVD.P	24(R3), R10
ptrD:
	MOVD	(R3), R11

	// Steps of 64 columns. Invariant at the top of each step: the columns
	// [off, R5) of every output row hold their final value, the columns
	// from R5 on are untouched, and R6 = off+n-R5.
loop64:
	CMP	$64, R6
	BLT	loop16

	// Start each accumulator from the output row (xor) or from zero.
	CBNZ	R7, load64
	DISPATCH(zero64B, zero64C, zero64D)
	ZERO64(V0, V1, V2, V3)
zero64B:
	ZERO64(V4, V5, V6, V7)
zero64C:
	ZERO64(V8, V9, V10, V11)
zero64D:
	ZERO64(V12, V13, V14, V15)
	B	inputs64

load64:
	DISPATCH(load64B, load64C, load64D)
	LOAD64(R8, V0, V1, V2, V3)
load64B:
	LOAD64(R9, V4, V5, V6, V7)
load64C:
	LOAD64(R10, V8, V9, V10, V11)
load64D:
	LOAD64(R11, V12, V13, V14, V15)

inputs64:
	// Load every input once and add its product with each row's
	// coefficient into that row's accumulators.
	MOVD	R1, R14
	MOVD	R0, R15
	MOVD	R2, R16

input64:
	MOVD.P	24(R14), R17
	ADD	R5, R17
	VLD1	(R17), [V16.B16, V17.B16, V18.B16, V19.B16]
	SPLIT64
	MOVD	R15, R19
	ADD	$32, R15
	DISPATCH(mul64B, mul64C, mul64D)
	MUL64(V0, V1, V2, V3)
mul64B:
	MUL64(V4, V5, V6, V7)
mul64C:
	MUL64(V8, V9, V10, V11)
mul64D:
	MUL64(V12, V13, V14, V15)
	SUBS	$1, R16
	BNE	input64

	DISPATCH(store64B, store64C, store64D)
	STORE64(R8, V0, V1, V2, V3)
store64B:
	STORE64(R9, V4, V5, V6, V7)
store64C:
	STORE64(R10, V8, V9, V10, V11)
store64D:
	STORE64(R11, V12, V13, V14, V15)

	ADD	$64, R5
	SUB	$64, R6
	B	loop64

	// Steps of 16 columns for the 16, 32 or 48 left, with the same
	// invariant.
loop16:
	CBZ	R6, done

	CBNZ	R7, load16
	VEOR	V0.B16, V0.B16, V0.B16
	VEOR	V4.B16, V4.B16, V4.B16
	VEOR	V8.B16, V8.B16, V8.B16
	VEOR	V12.B16, V12.B16, V12.B16
	B	inputs16

load16:
	DISPATCH(load16B, load16C, load16D)
	LOAD16(R8, V0)
load16B:
	LOAD16(R9, V4)
load16C:
	LOAD16(R10, V8)
load16D:
	LOAD16(R11, V12)

inputs16:
	MOVD	R1, R14
	MOVD	R0, R15
	MOVD	R2, R16

input16:
	MOVD.P	24(R14), R17
	ADD	R5, R17
	VLD1	(R17), [V16.B16]
	VUSHR	$4, V16.B16, V20.B16
	VAND	V30.B16, V16.B16, V16.B16
	MOVD	R15, R19
	ADD	$32, R15
	DISPATCH(mul16B, mul16C, mul16D)
	MUL16(V0)
mul16B:
	MUL16(V4)
mul16C:
	MUL16(V8)
mul16D:
	MUL16(V12)
	SUBS	$1, R16
	BNE	input16

	DISPATCH(store16B, store16C, store16D)
	STORE16(R8, V0)
store16B:
	STORE16(R9, V4)
store16C:
	STORE16(R10, V8)
store16D:
	STORE16(R11, V12)

	ADD	$16, R5
	SUB	$16, R6
	B	loop16

done:
	RET
