//go:build !purego

#include "textflag.h"

// The kernels of galois_amd64.go. Each is
//
//	func(tab []byte, ins, outs [][]byte, off, n int, xor bool)
//
// with n > 0 (for gfni256 and avx2 a multiple of 32), 1 <= len(outs) <= 8,
// len(ins) >= 1, every row at least off+n bytes long, no output row
// overlapping an input row, and the table of coefficient (r, j) at
// tab[(r*len(ins)+j)*tableSize:].
//
// They share one shape. The outer loop walks the columns in steps of one or
// two vectors, [k, k+V); the inner loop walks the inputs j, loads the V bytes
// x_j = ins[j][k:k+V] once and folds c(r, j)·x_j into the accumulators of
// every output r. The invariant of the inner loop: before input j, the
// accumulators of output r hold
//
//	Σ_{i<j} c(r, i)·x_i    (xor unset: they start at zero)
//	outs[r][k:k+V] ^ Σ_{i<j} c(r, i)·x_i    (xor set: they start loaded)
//
// so after the last input they hold the new outs[r][k:k+V], and are stored.
// Only bytes in [off, off+n) of a row are ever loaded or stored.
//
// The number of outputs N is fixed per loop: each function branches once on
// len(outs) to one of eight copies of its loop, made by the macros below, so
// the accumulators can be named registers.
//
// Register roles, common to all kernels:
//
//	R8   tab: the table of coefficient (0, 0)
//	R9   &ins[0], the first input slice header (24 bytes each: ptr, len, cap)
//	R10  end of the input headers the inner loop walks
//	R11  &outs[0], the first output slice header
//	BX   S, the distance in tab between the tables of outputs r and r+1
//	DX   3·S
//	CX   k, the current column
//	R12  off+n, the end column
//	SI   the current input header, &ins[j]
//	DI   the table of coefficient (0, j); R13 = DI + 4·S, that of (4, j).
//	     So the table of (r, j) is at (DI), (DI)(BX*1), (DI)(BX*2),
//	     (DI)(DX*1), (R13), (R13)(BX*1), (R13)(BX*2), (R13)(DX*1) for
//	     r = 0…7.
//	AX   scratch: the base pointer of a row
//
// Constant time: SI, DI, R13 and CX advance by fixed steps, so every address
// depends only on the row pointers, off, n and the number of rows; every
// branch tests only those and xor. The tables hold public coefficients. The
// secret bytes only go through vector loads and stores, XOR, AND, shifts,
// VPSHUFB (whose table is a register) and VGF2P8AFFINEQB, none of which takes
// a data-dependent time.

// Table addresses of outputs 0…7 for the current input.
#define T0 (DI)
#define T1 (DI)(BX*1)
#define T2 (DI)(BX*2)
#define T3 (DI)(DX*1)
#define T4 (R13)
#define T5 (R13)(BX*1)
#define T6 (R13)(BX*2)
#define T7 (R13)(DX*1)

// The same, one input further on in gfni512's 8-byte tables.
#define U0 8(DI)
#define U1 8(DI)(BX*1)
#define U2 8(DI)(BX*2)
#define U3 8(DI)(DX*1)
#define U4 8(R13)
#define U5 8(R13)(BX*1)
#define U6 8(R13)(BX*2)
#define U7 8(R13)(DX*1)

// Byte offsets of the headers outs[0…7].
#define H0 0
#define H1 24
#define H2 48
#define H3 72
#define H4 96
#define H5 120
#define H6 144
#define H7 168

// SETUP loads the registers common to all kernels; tsize is log2(tableSize).
#define SETUP(tsize) \
	MOVQ tab_base+0(FP), R8 \
	MOVQ ins_base+24(FP), R9 \
	MOVQ ins_len+32(FP), BX \
	MOVQ outs_base+48(FP), R11 \
	MOVQ off+72(FP), CX \
	MOVQ n+80(FP), R12 \
	ADDQ CX, R12 \
	SHLQ $tsize, BX \
	LEAQ (BX)(BX*2), DX

// ---------------------------------------------------------------------------
// gfni512: Z16…Z23 and Z24…Z31 the accumulators of outputs 0…7 for two
// 64-byte chunks, columns [k, k+64) and [k+64, k+128).
//
// VGF2P8AFFINEQB multiplies each byte of x by the 8×8 bit matrix of
// multiplication by c, broadcast from its 8-byte table to all eight lanes
// (into Z8 and Z9 in the main loop, with an embedded broadcast in the tail).
// The inner loop takes the inputs in pairs, x_j in Z0 (and Z4 for the second
// chunk), x_{j+1} in Z1 (and Z5), so that VPTERNLOGD (truth table 0x96, a
// three-way XOR) adds both products, made in Z2, Z3 (Z6, Z7), to an
// accumulator at once; an odd last input is added alone. R10 is the end of
// the pairs: &ins[len(ins) &^ 1].
//
// The main loop takes 128 columns at a time. The last 1…127 columns go
// through the same computation one 64-byte chunk at a time, with the loads
// and stores masked by K1 to the columns below off+n: AVX-512 masked
// accesses do not touch the masked-out bytes (they cannot even fault), so no
// byte outside the rows is read or written, and the kernel takes any n.
//
// EACH512_N(M) applies the macro M to the operands of outputs 0…N−1: the
// tables of (r, j) and (r, j+1), the offset of the header of outs[r], and
// its two accumulators.

#define EACH512_1(M) M(T0, U0, H0, Z16, Z24)
#define EACH512_2(M) EACH512_1(M) \
	M(T1, U1, H1, Z17, Z25)
#define EACH512_3(M) EACH512_2(M) \
	M(T2, U2, H2, Z18, Z26)
#define EACH512_4(M) EACH512_3(M) \
	M(T3, U3, H3, Z19, Z27)
#define EACH512_5(M) EACH512_4(M) \
	M(T4, U4, H4, Z20, Z28)
#define EACH512_6(M) EACH512_5(M) \
	M(T5, U5, H5, Z21, Z29)
#define EACH512_7(M) EACH512_6(M) \
	M(T6, U6, H6, Z22, Z30)
#define EACH512_8(M) EACH512_7(M) \
	M(T7, U7, H7, Z23, Z31)

// Two chunks: a ^= A(c(r, j))·Z0 ^ A(c(r, j+1))·Z1, b likewise with Z4, Z5.
// The matrices are broadcast to Z8 and Z9 once for both chunks.
#define PAIR2(t, u, h, a, b) \
	VPBROADCASTQ   t, Z8 \
	VPBROADCASTQ   u, Z9 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z2 \
	VGF2P8AFFINEQB $0, Z9, Z1, Z3 \
	VGF2P8AFFINEQB $0, Z8, Z4, Z6 \
	VGF2P8AFFINEQB $0, Z9, Z5, Z7 \
	VPTERNLOGD     $0x96, Z2, Z3, a \
	VPTERNLOGD     $0x96, Z6, Z7, b

// Two chunks: a ^= A(c(r, j))·Z0, b ^= A(c(r, j))·Z4.
#define ONE2(t, u, h, a, b) \
	VPBROADCASTQ   t, Z8 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z2 \
	VGF2P8AFFINEQB $0, Z8, Z4, Z6 \
	VPXORQ         Z2, a, a \
	VPXORQ         Z6, b, b

#define LOAD2(t, u, h, a, b) \
	MOVQ      h(R11), AX \
	VMOVDQU64 (AX)(CX*1), a \
	VMOVDQU64 64(AX)(CX*1), b

#define STORE2(t, u, h, a, b) \
	MOVQ      h(R11), AX \
	VMOVDQU64 a, (AX)(CX*1) \
	VMOVDQU64 b, 64(AX)(CX*1)

#define ZERO2(t, u, h, a, b) \
	VPXORQ a, a, a \
	VPXORQ b, b, b

// One chunk, under the mask K1.
#define PAIR1(t, u, h, a, b) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VGF2P8AFFINEQB.BCST $0, u, Z1, Z3 \
	VPTERNLOGD          $0x96, Z2, Z3, a

#define ONE1(t, u, h, a, b) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VPXORQ              Z2, a, a

#define LOAD1(t, u, h, a, b) \
	MOVQ         h(R11), AX \
	VMOVDQU8.Z   (AX)(CX*1), K1, a

#define STORE1(t, u, h, a, b) \
	MOVQ     h(R11), AX \
	VMOVDQU8 a, K1, (AX)(CX*1)

#define ZERO1(t, u, h, a, b) VPXORQ a, a, a

// LOOP512 is the whole column loop for one number of outputs. It is entered
// with CX = off, R12 = off+n and n > 0, and returns. The labels are arguments
// so that each copy has its own.
#define LOOP512(EACH, chunk2, zero2, inputs2, pair2, last2, store2, tail, chunk1, zero1, inputs1, pair1, last1, store1, exit) \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $128 \
	JB   tail \
chunk2: \
	CMPB xor+88(FP), $0 \
	JEQ  zero2 \
	EACH(LOAD2) \
	JMP  inputs2 \
zero2: \
	EACH(ZERO2) \
inputs2: \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
	CMPQ SI, R10 \
	JEQ  last2 \
pair2: \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z4 \
	MOVQ      24(SI), AX \
	VMOVDQU64 (AX)(CX*1), Z1 \
	VMOVDQU64 64(AX)(CX*1), Z5 \
	EACH(PAIR2) \
	ADDQ      $48, SI \
	ADDQ      $16, DI \
	ADDQ      $16, R13 \
	CMPQ      SI, R10 \
	JNE       pair2 \
last2: \
	TESTB     $1, ins_len+32(FP) \
	JEQ       store2 \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z4 \
	EACH(ONE2) \
store2: \
	EACH(STORE2) \
	ADDQ $128, CX \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $128 \
	JAE  chunk2 \
tail: \
	TESTQ AX, AX \
	JEQ   exit \
chunk1: \
	MOVQ  $-1, SI \
	BZHIQ AX, SI, SI \
	KMOVQ SI, K1 \
	CMPB  xor+88(FP), $0 \
	JEQ   zero1 \
	EACH(LOAD1) \
	JMP   inputs1 \
zero1: \
	EACH(ZERO1) \
inputs1: \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
	CMPQ SI, R10 \
	JEQ  last1 \
pair1: \
	MOVQ       (SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z0 \
	MOVQ       24(SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z1 \
	EACH(PAIR1) \
	ADDQ       $48, SI \
	ADDQ       $16, DI \
	ADDQ       $16, R13 \
	CMPQ       SI, R10 \
	JNE        pair1 \
last1: \
	TESTB      $1, ins_len+32(FP) \
	JEQ        store1 \
	MOVQ       (SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z0 \
	EACH(ONE1) \
store1: \
	EACH(STORE1) \
	ADDQ $64, CX \
	MOVQ R12, AX \
	SUBQ CX, AX \
	JG   chunk1 \
exit: \
	VZEROUPPER \
	RET

// func mulGFNI512(tab []byte, ins, outs [][]byte, off, n int, xor bool)
//
// K1 holds the mask of the columns of the current chunk that are below
// off+n: the low min(64, off+n−k) bits, which BZHI cuts from all ones.
TEXT ·mulGFNI512(SB), NOSPLIT, $0-89
	SETUP(3)
	MOVQ ins_len+32(FP), R10
	ANDQ $-2, R10
	LEAQ (R10)(R10*2), R10
	LEAQ (R9)(R10*8), R10
	MOVQ outs_len+56(FP), AX
	CMPQ AX, $1
	JEQ  out1
	CMPQ AX, $2
	JEQ  out2
	CMPQ AX, $3
	JEQ  out3
	CMPQ AX, $4
	JEQ  out4
	CMPQ AX, $5
	JEQ  out5
	CMPQ AX, $6
	JEQ  out6
	CMPQ AX, $7
	JEQ  out7
	JMP  out8

out1:
	LOOP512(EACH512_1, a2_1, z2_1, i2_1, p2_1, l2_1, s2_1, t_1, a1_1, z1_1, i1_1, p1_1, l1_1, s1_1, x_1)
out2:
	LOOP512(EACH512_2, a2_2, z2_2, i2_2, p2_2, l2_2, s2_2, t_2, a1_2, z1_2, i1_2, p1_2, l1_2, s1_2, x_2)
out3:
	LOOP512(EACH512_3, a2_3, z2_3, i2_3, p2_3, l2_3, s2_3, t_3, a1_3, z1_3, i1_3, p1_3, l1_3, s1_3, x_3)
out4:
	LOOP512(EACH512_4, a2_4, z2_4, i2_4, p2_4, l2_4, s2_4, t_4, a1_4, z1_4, i1_4, p1_4, l1_4, s1_4, x_4)
out5:
	LOOP512(EACH512_5, a2_5, z2_5, i2_5, p2_5, l2_5, s2_5, t_5, a1_5, z1_5, i1_5, p1_5, l1_5, s1_5, x_5)
out6:
	LOOP512(EACH512_6, a2_6, z2_6, i2_6, p2_6, l2_6, s2_6, t_6, a1_6, z1_6, i1_6, p1_6, l1_6, s1_6, x_6)
out7:
	LOOP512(EACH512_7, a2_7, z2_7, i2_7, p2_7, l2_7, s2_7, t_7, a1_7, z1_7, i1_7, p1_7, l1_7, s1_7, x_7)
out8:
	LOOP512(EACH512_8, a2_8, z2_8, i2_8, p2_8, l2_8, s2_8, t_8, a1_8, z1_8, i1_8, p1_8, l1_8, s1_8, x_8)

// ---------------------------------------------------------------------------
// gfni256 and avx2: 32-byte chunks, one input per step of the inner loop.
// R10 is the end of all input headers, &ins[len(ins)]. n is a multiple of 32.
//
// The fewer the outputs, the more chunks one pass over the inputs takes, so
// that the cost of visiting an input (its header, the pointer updates, the
// loop branch) is spread over more columns:
//
//	four chunks (128 columns): gfni256 with 1 or 2 outputs, avx2 with 1;
//	two chunks (64 columns):   up to 4 outputs;
//	one chunk (32 columns):    up to 8 outputs.
//
// Each function chains these loops from the widest its output count allows:
// a loop runs while at least its width of columns remains, then passes the
// rest to the next narrower one (at the label next).
//
// EACH1_N(M) and EACH2_N(M) apply M to the operands of outputs 0…N−1 for
// one- and two-chunk loops: the table of (r, j), the offset of the header of
// outs[r], and its accumulators (Y0…Y7 for one chunk; Y0…Y3 for the first
// and Y4…Y7 for the second chunk of two). EACH4_N(M), for four chunks, passes
// four accumulators: Y0…Y3 for output 0, Y4…Y7 for output 1.

#define EACH1_1(M) M(T0, H0, Y0, NOREG)
#define EACH1_2(M) EACH1_1(M) \
	M(T1, H1, Y1, NOREG)
#define EACH1_3(M) EACH1_2(M) \
	M(T2, H2, Y2, NOREG)
#define EACH1_4(M) EACH1_3(M) \
	M(T3, H3, Y3, NOREG)
#define EACH1_5(M) EACH1_4(M) \
	M(T4, H4, Y4, NOREG)
#define EACH1_6(M) EACH1_5(M) \
	M(T5, H5, Y5, NOREG)
#define EACH1_7(M) EACH1_6(M) \
	M(T6, H6, Y6, NOREG)
#define EACH1_8(M) EACH1_7(M) \
	M(T7, H7, Y7, NOREG)

#define EACH2_1(M) M(T0, H0, Y0, Y4)
#define EACH2_2(M) EACH2_1(M) \
	M(T1, H1, Y1, Y5)
#define EACH2_3(M) EACH2_2(M) \
	M(T2, H2, Y2, Y6)
#define EACH2_4(M) EACH2_3(M) \
	M(T3, H3, Y3, Y7)

#define EACH4_1(M) M(T0, H0, Y0, Y1, Y2, Y3)
#define EACH4_2(M) EACH4_1(M) \
	M(T1, H1, Y4, Y5, Y6, Y7)

#define LOADY1(t, h, a, b) \
	MOVQ    h(R11), AX \
	VMOVDQU (AX)(CX*1), a

#define STOREY1(t, h, a, b) \
	MOVQ    h(R11), AX \
	VMOVDQU a, (AX)(CX*1)

#define ZEROY1(t, h, a, b) VPXOR a, a, a

#define LOADY2(t, h, a, b) \
	MOVQ    h(R11), AX \
	VMOVDQU (AX)(CX*1), a \
	VMOVDQU 32(AX)(CX*1), b

#define STOREY2(t, h, a, b) \
	MOVQ    h(R11), AX \
	VMOVDQU a, (AX)(CX*1) \
	VMOVDQU b, 32(AX)(CX*1)

#define ZEROY2(t, h, a, b) \
	VPXOR a, a, a \
	VPXOR b, b, b

#define LOADY4(t, h, a, b, c, d) \
	MOVQ    h(R11), AX \
	VMOVDQU (AX)(CX*1), a \
	VMOVDQU 32(AX)(CX*1), b \
	VMOVDQU 64(AX)(CX*1), c \
	VMOVDQU 96(AX)(CX*1), d

#define STOREY4(t, h, a, b, c, d) \
	MOVQ    h(R11), AX \
	VMOVDQU a, (AX)(CX*1) \
	VMOVDQU b, 32(AX)(CX*1) \
	VMOVDQU c, 64(AX)(CX*1) \
	VMOVDQU d, 96(AX)(CX*1)

#define ZEROY4(t, h, a, b, c, d) \
	VPXOR a, a, a \
	VPXOR b, b, b \
	VPXOR c, c, c \
	VPXOR d, d, d

// R13, the tables of outputs 4…7, only moves in loops with more than four
// outputs.
#define ADV13 ADDQ $32, R13
#define NOADV13

// LOOPY is one column loop of width V = step bytes for one number of
// outputs. LOADS, ZEROS and STORES are EACH applied to the accumulator
// operations of that width; INPUT loads the input at AX+CX into the kernel's
// input registers and MUL adds the products of one output. It runs while
// at least V columns remain, then goes on at next.
#define LOOPY(EACH, LOADS, ZEROS, STORES, INPUT, MUL, ADV, step, next, chunk, zero, inputs, input) \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $step \
	JB   next \
chunk: \
	CMPB xor+88(FP), $0 \
	JEQ  zero \
	EACH(LOADS) \
	JMP  inputs \
zero: \
	EACH(ZEROS) \
inputs: \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
input: \
	MOVQ (SI), AX \
	INPUT \
	EACH(MUL) \
	ADDQ $24, SI \
	ADDQ $32, DI \
	ADV \
	CMPQ SI, R10 \
	JNE  input \
	EACH(STORES) \
	ADDQ $step, CX \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $step \
	JAE  chunk \
	JMP  next

// SETUP256 is SETUP for 32-byte tables plus R10 = &ins[len(ins)].
#define SETUP256 \
	SETUP(5) \
	MOVQ ins_len+32(FP), R10 \
	LEAQ (R10)(R10*2), R10 \
	LEAQ (R9)(R10*8), R10

// DISPATCH256 jumps to the loop for len(outs) outputs.
#define DISPATCH256(l1, l2, l3, l4, l5, l6, l7, l8) \
	MOVQ outs_len+56(FP), AX \
	CMPQ AX, $1 \
	JEQ  l1 \
	CMPQ AX, $2 \
	JEQ  l2 \
	CMPQ AX, $3 \
	JEQ  l3 \
	CMPQ AX, $4 \
	JEQ  l4 \
	CMPQ AX, $5 \
	JEQ  l5 \
	CMPQ AX, $6 \
	JEQ  l6 \
	CMPQ AX, $7 \
	JEQ  l7 \
	JMP  l8

// ---------------------------------------------------------------------------
// gfni256: Y8…Y11 hold the chunks of the input x_j, Y12 the matrix of
// c(r, j), Y13 a product. The 32-byte tables hold the affine matrix of c four
// times, since VEX encodings cannot broadcast.

#define INPUTG1 \
	VMOVDQU (AX)(CX*1), Y8

#define INPUTG2 \
	VMOVDQU (AX)(CX*1), Y8 \
	VMOVDQU 32(AX)(CX*1), Y9

#define INPUTG4 \
	VMOVDQU (AX)(CX*1), Y8 \
	VMOVDQU 32(AX)(CX*1), Y9 \
	VMOVDQU 64(AX)(CX*1), Y10 \
	VMOVDQU 96(AX)(CX*1), Y11

// a ^= A(c(r, j))·Y8
#define MULG1(t, h, a, b) \
	VGF2P8AFFINEQB $0, t, Y8, Y13 \
	VPXOR          Y13, a, a

// a ^= A(c(r, j))·Y8, b ^= A(c(r, j))·Y9
#define MULG2(t, h, a, b) \
	VMOVDQU        t, Y12 \
	VGF2P8AFFINEQB $0, Y12, Y8, Y13 \
	VPXOR          Y13, a, a \
	VGF2P8AFFINEQB $0, Y12, Y9, Y13 \
	VPXOR          Y13, b, b

// a…d ^= A(c(r, j))·Y8…Y11
#define MULG4(t, h, a, b, c, d) \
	VMOVDQU        t, Y12 \
	VGF2P8AFFINEQB $0, Y12, Y8, Y13 \
	VPXOR          Y13, a, a \
	VGF2P8AFFINEQB $0, Y12, Y9, Y13 \
	VPXOR          Y13, b, b \
	VGF2P8AFFINEQB $0, Y12, Y10, Y13 \
	VPXOR          Y13, c, c \
	VGF2P8AFFINEQB $0, Y12, Y11, Y13 \
	VPXOR          Y13, d, d

#define LOOPG4(EACH, next, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY4, ZEROY4, STOREY4, INPUTG4, MULG4, NOADV13, 128, next, l1, l2, l3, l4)
#define LOOPG2(EACH, next, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY2, ZEROY2, STOREY2, INPUTG2, MULG2, NOADV13, 64, next, l1, l2, l3, l4)
#define LOOPG1(EACH, ADV, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY1, ZEROY1, STOREY1, INPUTG1, MULG1, ADV, 32, gexit, l1, l2, l3, l4)

// func mulGFNI256(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulGFNI256(SB), NOSPLIT, $0-89
	SETUP256
	DISPATCH256(g1, g2, g3, g4, g5, g6, g7, g8)

g1:
	LOOPG4(EACH4_1, g1b, g1c4, g1z4, g1i4, g1j4)
g1b:
	LOOPG2(EACH2_1, g1a, g1c2, g1z2, g1i2, g1j2)
g1a:
	LOOPG1(EACH1_1, NOADV13, g1c1, g1z1, g1i1, g1j1)
g2:
	LOOPG4(EACH4_2, g2b, g2c4, g2z4, g2i4, g2j4)
g2b:
	LOOPG2(EACH2_2, g2a, g2c2, g2z2, g2i2, g2j2)
g2a:
	LOOPG1(EACH1_2, NOADV13, g2c1, g2z1, g2i1, g2j1)
g3:
	LOOPG2(EACH2_3, g3a, g3c2, g3z2, g3i2, g3j2)
g3a:
	LOOPG1(EACH1_3, NOADV13, g3c1, g3z1, g3i1, g3j1)
g4:
	LOOPG2(EACH2_4, g4a, g4c2, g4z2, g4i2, g4j2)
g4a:
	LOOPG1(EACH1_4, NOADV13, g4c1, g4z1, g4i1, g4j1)
g5:
	LOOPG1(EACH1_5, ADV13, g5c1, g5z1, g5i1, g5j1)
g6:
	LOOPG1(EACH1_6, ADV13, g6c1, g6z1, g6i1, g6j1)
g7:
	LOOPG1(EACH1_7, ADV13, g7c1, g7z1, g7i1, g7j1)
g8:
	LOOPG1(EACH1_8, ADV13, g8c1, g8z1, g8i1, g8j1)
gexit:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// avx2: Y8 holds the low nibbles of a chunk of x_j and Y9 the high nibbles
// (Y10 and Y11 for the second chunk), each in the low four bits of its byte,
// so that VPSHUFB uses it as an index into a 16-byte table and never sees
// bit 7 set. Y15 is 0x0f in every byte. Y12 and Y13 receive the tables of
// c(r, j), Y14 (or Y12 and Y13 themselves) the halves of a product.
//
// The 32-byte table of c is lo[16] then hi[16] with lo[i] = c·i and
// hi[i] = c·(i<<4), and c·x = lo[x & 15] ^ hi[x >> 4] because multiplication
// by c is linear over GF(2). VBROADCASTI128 copies a 16-byte table to both
// 128-bit lanes, since VPSHUFB looks up within each lane.
//
// With one output, the four-chunk loop splits and looks up one chunk at a
// time (in Y8…Y11), keeping the tables in Y12 and Y13 for all four.

#define INPUTN1 \
	VMOVDQU (AX)(CX*1), Y8 \
	VPSRLQ  $4, Y8, Y9 \
	VPAND   Y15, Y8, Y8 \
	VPAND   Y15, Y9, Y9

#define INPUTN2 \
	VMOVDQU (AX)(CX*1), Y8 \
	VMOVDQU 32(AX)(CX*1), Y10 \
	VPSRLQ  $4, Y8, Y9 \
	VPSRLQ  $4, Y10, Y11 \
	VPAND   Y15, Y8, Y8 \
	VPAND   Y15, Y9, Y9 \
	VPAND   Y15, Y10, Y10 \
	VPAND   Y15, Y11, Y11

// The four-chunk loop does its input work in MULN4.
#define INPUTN4

// a ^= lo[Y8] ^ hi[Y9] for the tables at t
#define MULN1(t, h, a, b) \
	VBROADCASTI128 t, Y12 \
	VBROADCASTI128 16 t, Y13 \
	VPSHUFB        Y8, Y12, Y12 \
	VPSHUFB        Y9, Y13, Y13 \
	VPXOR          Y12, Y13, Y12 \
	VPXOR          Y12, a, a

// a ^= lo[Y8] ^ hi[Y9], b ^= lo[Y10] ^ hi[Y11]
#define MULN2(t, h, a, b) \
	VBROADCASTI128 t, Y12 \
	VBROADCASTI128 16 t, Y13 \
	VPSHUFB        Y8, Y12, Y14 \
	VPXOR          Y14, a, a \
	VPSHUFB        Y9, Y13, Y14 \
	VPXOR          Y14, a, a \
	VPSHUFB        Y10, Y12, Y14 \
	VPXOR          Y14, b, b \
	VPSHUFB        Y11, Y13, Y14 \
	VPXOR          Y14, b, b

// acc ^= c·x for the chunk of the input at disp(AX)(CX*1), tables in Y12, Y13.
#define CHUNKN(disp, acc) \
	VMOVDQU disp(AX)(CX*1), Y8 \
	VPSRLQ  $4, Y8, Y9 \
	VPAND   Y15, Y8, Y8 \
	VPAND   Y15, Y9, Y9 \
	VPSHUFB Y8, Y12, Y10 \
	VPSHUFB Y9, Y13, Y11 \
	VPXOR   Y10, Y11, Y10 \
	VPXOR   Y10, acc, acc

// a…d ^= c(0, j)·x_j over four chunks; one output only.
#define MULN4(t, h, a, b, c, d) \
	VBROADCASTI128 t, Y12 \
	VBROADCASTI128 16 t, Y13 \
	CHUNKN(0, a) \
	CHUNKN(32, b) \
	CHUNKN(64, c) \
	CHUNKN(96, d)

#define LOOPN4(EACH, next, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY4, ZEROY4, STOREY4, INPUTN4, MULN4, NOADV13, 128, next, l1, l2, l3, l4)
#define LOOPN2(EACH, next, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY2, ZEROY2, STOREY2, INPUTN2, MULN2, NOADV13, 64, next, l1, l2, l3, l4)
#define LOOPN1(EACH, ADV, l1, l2, l3, l4) \
	LOOPY(EACH, LOADY1, ZEROY1, STOREY1, INPUTN1, MULN1, ADV, 32, nexit, l1, l2, l3, l4)

// func mulAVX2(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulAVX2(SB), NOSPLIT, $0-89
	SETUP256
	MOVL         $0x0f0f0f0f, AX
	MOVD         AX, X15
	VPBROADCASTD X15, Y15
	DISPATCH256(n1, n2, n3, n4, n5, n6, n7, n8)

n1:
	LOOPN4(EACH4_1, n1b, n1c4, n1z4, n1i4, n1j4)
n1b:
	LOOPN2(EACH2_1, n1a, n1c2, n1z2, n1i2, n1j2)
n1a:
	LOOPN1(EACH1_1, NOADV13, n1c1, n1z1, n1i1, n1j1)
n2:
	LOOPN2(EACH2_2, n2a, n2c2, n2z2, n2i2, n2j2)
n2a:
	LOOPN1(EACH1_2, NOADV13, n2c1, n2z1, n2i1, n2j1)
n3:
	LOOPN2(EACH2_3, n3a, n3c2, n3z2, n3i2, n3j2)
n3a:
	LOOPN1(EACH1_3, NOADV13, n3c1, n3z1, n3i1, n3j1)
n4:
	LOOPN2(EACH2_4, n4a, n4c2, n4z2, n4i2, n4j2)
n4a:
	LOOPN1(EACH1_4, NOADV13, n4c1, n4z1, n4i1, n4j1)
n5:
	LOOPN1(EACH1_5, ADV13, n5c1, n5z1, n5i1, n5j1)
n6:
	LOOPN1(EACH1_6, ADV13, n6c1, n6z1, n6i1, n6j1)
n7:
	LOOPN1(EACH1_7, ADV13, n7c1, n7z1, n7i1, n7j1)
n8:
	LOOPN1(EACH1_8, ADV13, n8c1, n8z1, n8i1, n8j1)
nexit:
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
