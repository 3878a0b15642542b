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
// They share one shape. The outer loop walks the columns in steps of one,
// two or four vectors, [k, k+V); the inner loop walks the inputs j, loads the V bytes
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
// len(outs) to one of eight copies of its loops, made by the macros below, so
// the accumulators can be named registers. The macros take the labels of
// each copy as arguments, and EACH…_N(M) macros expand M once per output.
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
//	AX   scratch: the base pointer of a row, or the columns left
//
// Constant time: SI, DI, R13 and CX advance by fixed steps, so every address
// depends only on the row pointers, off, n and the number of rows; every
// branch tests only those and xor, and so does gfni512's tail mask. The tables hold public coefficients. The
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

// R13, the tables of outputs 4…7, only moves in loops with more than four
// outputs; the others pass NOADV13 for its update.
#define NOADV13

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
// gfni512: 64-byte chunks; Z16…Z31 hold the accumulators.
//
// VGF2P8AFFINEQB multiplies each byte of x by the 8×8 bit matrix of
// multiplication by c, broadcast from its 8-byte table to every 64-bit lane.
// The inner loop takes the inputs in pairs, so that VPTERNLOGD (truth table
// 0x96, a three-way XOR) adds two products to an accumulator at once; an odd
// last input is added alone. R10 is the end of the pairs:
// &ins[len(ins) &^ 1].
//
// As for the 256-bit kernels, fewer outputs let one pass over the inputs
// take more chunks:
//
//	four chunks (256 columns), up to 4 outputs: Z16+4r…Z19+4r for output r;
//	two chunks (128 columns), up to 8 outputs: Z16+r and Z24+r for output r.
//
// In these loops the chunks of x_j are in Z0…Z3, those of x_{j+1} in
// Z4…Z7, the matrices of c(r, j) and c(r, j+1) in Z8 and Z9, and the products
// in Z10…Z13.
//
// The last 1…127 columns go through a loop of one 64-byte chunk (Z16+r for
// output r, x_j in Z0, x_{j+1} in Z1, products in Z2, Z3) whose loads and
// stores are masked by K1 to the columns below off+n: AVX-512 masked
// accesses do not touch the masked-out bytes (they cannot even fault), so no
// byte outside the rows is read or written, and the kernel takes any n. The
// mask depends on n only.
//
// EACHZ4_N(M) and EACHZ2_N(M) apply the macro M to the operands of outputs
// 0…N−1: the tables of (r, j) and (r, j+1), the offset of the header of
// outs[r], and its accumulators. The one-chunk loop uses EACHZ2_N and only
// the first accumulator.

#define EACHZ4_1(M) M(T0, U0, H0, Z16, Z17, Z18, Z19)
#define EACHZ4_2(M) EACHZ4_1(M) \
	M(T1, U1, H1, Z20, Z21, Z22, Z23)
#define EACHZ4_3(M) EACHZ4_2(M) \
	M(T2, U2, H2, Z24, Z25, Z26, Z27)
#define EACHZ4_4(M) EACHZ4_3(M) \
	M(T3, U3, H3, Z28, Z29, Z30, Z31)

#define EACHZ2_1(M) M(T0, U0, H0, Z16, Z24)
#define EACHZ2_2(M) EACHZ2_1(M) \
	M(T1, U1, H1, Z17, Z25)
#define EACHZ2_3(M) EACHZ2_2(M) \
	M(T2, U2, H2, Z18, Z26)
#define EACHZ2_4(M) EACHZ2_3(M) \
	M(T3, U3, H3, Z19, Z27)
#define EACHZ2_5(M) EACHZ2_4(M) \
	M(T4, U4, H4, Z20, Z28)
#define EACHZ2_6(M) EACHZ2_5(M) \
	M(T5, U5, H5, Z21, Z29)
#define EACHZ2_7(M) EACHZ2_6(M) \
	M(T6, U6, H6, Z22, Z30)
#define EACHZ2_8(M) EACHZ2_7(M) \
	M(T7, U7, H7, Z23, Z31)

// Four chunks.

#define INPAIRZ4 \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z1 \
	VMOVDQU64 128(AX)(CX*1), Z2 \
	VMOVDQU64 192(AX)(CX*1), Z3 \
	MOVQ      24(SI), AX \
	VMOVDQU64 (AX)(CX*1), Z4 \
	VMOVDQU64 64(AX)(CX*1), Z5 \
	VMOVDQU64 128(AX)(CX*1), Z6 \
	VMOVDQU64 192(AX)(CX*1), Z7

#define INONEZ4 \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z1 \
	VMOVDQU64 128(AX)(CX*1), Z2 \
	VMOVDQU64 192(AX)(CX*1), Z3

// a…d ^= A(c(r, j))·Z0…Z3 ^ A(c(r, j+1))·Z4…Z7
#define PAIRZ4(t, u, h, a, b, c, d) \
	VPBROADCASTQ   t, Z8 \
	VPBROADCASTQ   u, Z9 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z10 \
	VGF2P8AFFINEQB $0, Z9, Z4, Z11 \
	VGF2P8AFFINEQB $0, Z8, Z1, Z12 \
	VGF2P8AFFINEQB $0, Z9, Z5, Z13 \
	VPTERNLOGD     $0x96, Z10, Z11, a \
	VPTERNLOGD     $0x96, Z12, Z13, b \
	VGF2P8AFFINEQB $0, Z8, Z2, Z10 \
	VGF2P8AFFINEQB $0, Z9, Z6, Z11 \
	VGF2P8AFFINEQB $0, Z8, Z3, Z12 \
	VGF2P8AFFINEQB $0, Z9, Z7, Z13 \
	VPTERNLOGD     $0x96, Z10, Z11, c \
	VPTERNLOGD     $0x96, Z12, Z13, d

// a…d ^= A(c(r, j))·Z0…Z3
#define ONEZ4(t, u, h, a, b, c, d) \
	VPBROADCASTQ   t, Z8 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z10 \
	VGF2P8AFFINEQB $0, Z8, Z1, Z11 \
	VGF2P8AFFINEQB $0, Z8, Z2, Z12 \
	VGF2P8AFFINEQB $0, Z8, Z3, Z13 \
	VPXORQ         Z10, a, a \
	VPXORQ         Z11, b, b \
	VPXORQ         Z12, c, c \
	VPXORQ         Z13, d, d

#define LOADZ4(t, u, h, a, b, c, d) \
	MOVQ      h(R11), AX \
	VMOVDQU64 (AX)(CX*1), a \
	VMOVDQU64 64(AX)(CX*1), b \
	VMOVDQU64 128(AX)(CX*1), c \
	VMOVDQU64 192(AX)(CX*1), d

#define STOREZ4(t, u, h, a, b, c, d) \
	MOVQ      h(R11), AX \
	VMOVDQU64 a, (AX)(CX*1) \
	VMOVDQU64 b, 64(AX)(CX*1) \
	VMOVDQU64 c, 128(AX)(CX*1) \
	VMOVDQU64 d, 192(AX)(CX*1)

#define ZEROZ4(t, u, h, a, b, c, d) \
	VPXORQ a, a, a \
	VPXORQ b, b, b \
	VPXORQ c, c, c \
	VPXORQ d, d, d

// Two chunks.

#define INPAIRZ2 \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z1 \
	MOVQ      24(SI), AX \
	VMOVDQU64 (AX)(CX*1), Z4 \
	VMOVDQU64 64(AX)(CX*1), Z5

#define INONEZ2 \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	VMOVDQU64 64(AX)(CX*1), Z1

// a, b ^= A(c(r, j))·Z0, Z1 ^ A(c(r, j+1))·Z4, Z5
#define PAIRZ2(t, u, h, a, b) \
	VPBROADCASTQ   t, Z8 \
	VPBROADCASTQ   u, Z9 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z10 \
	VGF2P8AFFINEQB $0, Z9, Z4, Z11 \
	VGF2P8AFFINEQB $0, Z8, Z1, Z12 \
	VGF2P8AFFINEQB $0, Z9, Z5, Z13 \
	VPTERNLOGD     $0x96, Z10, Z11, a \
	VPTERNLOGD     $0x96, Z12, Z13, b

// a, b ^= A(c(r, j))·Z0, Z1
#define ONEZ2(t, u, h, a, b) \
	VPBROADCASTQ   t, Z8 \
	VGF2P8AFFINEQB $0, Z8, Z0, Z10 \
	VGF2P8AFFINEQB $0, Z8, Z1, Z11 \
	VPXORQ         Z10, a, a \
	VPXORQ         Z11, b, b

#define LOADZ2(t, u, h, a, b) \
	MOVQ      h(R11), AX \
	VMOVDQU64 (AX)(CX*1), a \
	VMOVDQU64 64(AX)(CX*1), b

#define STOREZ2(t, u, h, a, b) \
	MOVQ      h(R11), AX \
	VMOVDQU64 a, (AX)(CX*1) \
	VMOVDQU64 b, 64(AX)(CX*1)

#define ZEROZ2(t, u, h, a, b) \
	VPXORQ a, a, a \
	VPXORQ b, b, b

// One chunk, under the mask K1.

#define INPAIRZ1 \
	MOVQ       (SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z0 \
	MOVQ       24(SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z1

#define INONEZ1 \
	MOVQ       (SI), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, Z0

// a ^= A(c(r, j))·Z0 ^ A(c(r, j+1))·Z1
#define PAIRZ1(t, u, h, a, b) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VGF2P8AFFINEQB.BCST $0, u, Z1, Z3 \
	VPTERNLOGD          $0x96, Z2, Z3, a

// a ^= A(c(r, j))·Z0
#define ONEZ1(t, u, h, a, b) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VPXORQ              Z2, a, a

#define LOADZ1(t, u, h, a, b) \
	MOVQ       h(R11), AX \
	VMOVDQU8.Z (AX)(CX*1), K1, a

#define STOREZ1(t, u, h, a, b) \
	MOVQ     h(R11), AX \
	VMOVDQU8 a, K1, (AX)(CX*1)

#define ZEROZ1(t, u, h, a, b) VPXORQ a, a, a

#define ADV13Z ADDQ $16, R13

// The inner loop over the inputs, in pairs, then the odd one; for the
// accumulator operations PAIR and ONE and the input loads INPAIR and INONE.
#define INPUTSZ(EACH, INPAIR, INONE, PAIR, ONE, ADV, pair, last, done) \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
	CMPQ SI, R10 \
	JEQ  last \
pair: \
	INPAIR \
	EACH(PAIR) \
	ADDQ $48, SI \
	ADDQ $16, DI \
	ADV \
	CMPQ SI, R10 \
	JNE  pair \
last: \
	TESTB $1, ins_len+32(FP) \
	JEQ   done \
	INONE \
	EACH(ONE) \
done:

// LOOPZ is the column loop of width step = 64·chunks for one number of
// outputs: it runs while at least step columns remain, then goes on at next.
// The accumulators are zeroed (a zeroing idiom costs no execution unit) and
// then, if xor is set, loaded.
#define LOOPZ(EACH, LOADS, ZEROS, STORES, INPAIR, INONE, PAIR, ONE, ADV, step, next, chunk, inputs, pair, last, store) \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $step \
	JB   next \
chunk: \
	EACH(ZEROS) \
	CMPB xor+88(FP), $0 \
	JEQ  inputs \
	EACH(LOADS) \
inputs: \
	INPUTSZ(EACH, INPAIR, INONE, PAIR, ONE, ADV, pair, last, store) \
	EACH(STORES) \
	ADDQ $step, CX \
	MOVQ R12, AX \
	SUBQ CX, AX \
	CMPQ AX, $step \
	JAE  chunk \
	JMP  next

// TAILZ is the masked loop over the last R12−CX < 128 columns; it returns.
// K1 holds the mask of the columns of the current chunk that are below
// off+n: the low min(64, off+n−k) bits, which BZHI cuts from all ones.
#define TAILZ(EACH, ADV, chunk, zero, inputs, pair, last, store) \
	MOVQ R12, AX \
	SUBQ CX, AX \
	JEQ  zexit \
chunk: \
	MOVQ  $-1, SI \
	BZHIQ AX, SI, SI \
	KMOVQ SI, K1 \
	CMPB  xor+88(FP), $0 \
	JEQ   zero \
	EACH(LOADZ1) \
	JMP   inputs \
zero: \
	EACH(ZEROZ1) \
inputs: \
	INPUTSZ(EACH, INPAIRZ1, INONEZ1, PAIRZ1, ONEZ1, ADV, pair, last, store) \
	EACH(STOREZ1) \
	ADDQ $64, CX \
	MOVQ R12, AX \
	SUBQ CX, AX \
	JG   chunk \
	JMP  zexit

#define LOOPZ4(EACH, next, l1, l2, l3, l4, l5) \
	LOOPZ(EACH, LOADZ4, ZEROZ4, STOREZ4, INPAIRZ4, INONEZ4, PAIRZ4, ONEZ4, NOADV13, 256, next, l1, l2, l3, l4, l5)
#define LOOPZ2(EACH, ADV, next, l1, l2, l3, l4, l5) \
	LOOPZ(EACH, LOADZ2, ZEROZ2, STOREZ2, INPAIRZ2, INONEZ2, PAIRZ2, ONEZ2, ADV, 128, next, l1, l2, l3, l4, l5)

// func mulGFNI512Loop(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulGFNI512Loop(SB), NOSPLIT, $0-89
	SETUP(3)
	MOVQ ins_len+32(FP), R10
	ANDQ $-2, R10
	LEAQ (R10)(R10*2), R10
	LEAQ (R9)(R10*8), R10
	MOVQ outs_len+56(FP), AX
	CMPQ AX, $1
	JEQ  z1
	CMPQ AX, $2
	JEQ  z2
	CMPQ AX, $3
	JEQ  z3
	CMPQ AX, $4
	JEQ  z4
	CMPQ AX, $5
	JEQ  z5
	CMPQ AX, $6
	JEQ  z6
	CMPQ AX, $7
	JEQ  z7
	JMP  z8

z1:
	LOOPZ4(EACHZ4_1, z1b, z1c4, z1z4, z1p4, z1l4, z1s4)
z1b:
	LOOPZ2(EACHZ2_1, NOADV13, z1a, z1c2, z1z2, z1p2, z1l2, z1s2)
z1a:
	TAILZ(EACHZ2_1, NOADV13, z1c1, z1z1, z1i1, z1p1, z1l1, z1s1)
z2:
	LOOPZ4(EACHZ4_2, z2b, z2c4, z2z4, z2p4, z2l4, z2s4)
z2b:
	LOOPZ2(EACHZ2_2, NOADV13, z2a, z2c2, z2z2, z2p2, z2l2, z2s2)
z2a:
	TAILZ(EACHZ2_2, NOADV13, z2c1, z2z1, z2i1, z2p1, z2l1, z2s1)
z3:
	LOOPZ4(EACHZ4_3, z3b, z3c4, z3z4, z3p4, z3l4, z3s4)
z3b:
	LOOPZ2(EACHZ2_3, NOADV13, z3a, z3c2, z3z2, z3p2, z3l2, z3s2)
z3a:
	TAILZ(EACHZ2_3, NOADV13, z3c1, z3z1, z3i1, z3p1, z3l1, z3s1)
z4:
	LOOPZ4(EACHZ4_4, z4b, z4c4, z4z4, z4p4, z4l4, z4s4)
z4b:
	LOOPZ2(EACHZ2_4, NOADV13, z4a, z4c2, z4z2, z4p2, z4l2, z4s2)
z4a:
	TAILZ(EACHZ2_4, NOADV13, z4c1, z4z1, z4i1, z4p1, z4l1, z4s1)
z5:
	LOOPZ2(EACHZ2_5, ADV13Z, z5a, z5c2, z5z2, z5p2, z5l2, z5s2)
z5a:
	TAILZ(EACHZ2_5, ADV13Z, z5c1, z5z1, z5i1, z5p1, z5l1, z5s1)
z6:
	LOOPZ2(EACHZ2_6, ADV13Z, z6a, z6c2, z6z2, z6p2, z6l2, z6s2)
z6a:
	TAILZ(EACHZ2_6, ADV13Z, z6c1, z6z1, z6i1, z6p1, z6l1, z6s1)
z7:
	LOOPZ2(EACHZ2_7, ADV13Z, z7a, z7c2, z7z2, z7p2, z7l2, z7s2)
z7a:
	TAILZ(EACHZ2_7, ADV13Z, z7c1, z7z1, z7i1, z7p1, z7l1, z7s1)
z8:
	LOOPZ2(EACHZ2_8, ADV13Z, z8a, z8c2, z8z2, z8p2, z8l2, z8s2)
z8a:
	TAILZ(EACHZ2_8, ADV13Z, z8c1, z8z1, z8i1, z8p1, z8l1, z8s1)
zexit:
	VZEROUPPER
	RET

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

#define ADV13 ADDQ $32, R13

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
