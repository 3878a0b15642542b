//go:build !purego

#include "textflag.h"

// The kernels of galois_amd64.go. Each is
//
//	func(tab []byte, ins, outs [][]byte, off, n int, xor bool)
//
// with n > 0 a multiple of the chunk size, 1 <= len(outs) <= 8, len(ins) >= 1,
// every row at least off+n bytes long, and the table of coefficient (r, j) at
// tab[(r*len(ins)+j)*tableSize:].
//
// They share one shape. The outer loop walks the columns k = off, off+V, …
// (V the vector size); the inner loop walks the inputs j, loads the V bytes
// x_j = ins[j][k:k+V] once and folds c(r, j)·x_j into the accumulator of every
// output r. So after the inner loop the accumulator of output r holds
// Σ_j c(r, j)·x_j (plus outs[r][k:k+V] if xor is set, loaded before the inner
// loop), and it is stored to outs[r][k:k+V]. Only bytes in [off, off+n) of a
// row are ever loaded or stored.
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
// gfni512: 64 bytes per chunk, Z16…Z23 the accumulators of outputs 0…7.
//
// GF2P8AFFINEQB multiplies each byte of x by the 8×8 bit matrix of
// multiplication by c, broadcast from its 8-byte table to all eight lanes.
// The inner loop takes the inputs in pairs (x_j in Z0, x_{j+1} in Z1), so
// that VPTERNLOGD (truth table 0x96, a three-way XOR) adds both products to an
// accumulator at once; an odd last input is added alone. R10 is the end of the
// pairs: &ins[len(ins) &^ 1].

// acc ^= A(c(r, j))·Z0 ^ A(c(r, j+1))·Z1
#define PAIR512(t, u, acc) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VGF2P8AFFINEQB.BCST $0, u, Z1, Z3 \
	VPTERNLOGD          $0x96, Z2, Z3, acc

// acc ^= A(c(r, j))·Z0
#define ONE512(t, acc) \
	VGF2P8AFFINEQB.BCST $0, t, Z0, Z2 \
	VPXORQ              Z2, acc, acc

#define LOAD512(h, acc) \
	MOVQ      h(R11), AX \
	VMOVDQU64 (AX)(CX*1), acc

#define STORE512(h, acc) \
	MOVQ      h(R11), AX \
	VMOVDQU64 acc, (AX)(CX*1)

#define ZERO512(acc) VPXORQ acc, acc, acc

#define PAIRS512_1 PAIR512(T0, U0, Z16)
#define PAIRS512_2 PAIRS512_1 \
	PAIR512(T1, U1, Z17)
#define PAIRS512_3 PAIRS512_2 \
	PAIR512(T2, U2, Z18)
#define PAIRS512_4 PAIRS512_3 \
	PAIR512(T3, U3, Z19)
#define PAIRS512_5 PAIRS512_4 \
	PAIR512(T4, U4, Z20)
#define PAIRS512_6 PAIRS512_5 \
	PAIR512(T5, U5, Z21)
#define PAIRS512_7 PAIRS512_6 \
	PAIR512(T6, U6, Z22)
#define PAIRS512_8 PAIRS512_7 \
	PAIR512(T7, U7, Z23)

#define ONES512_1 ONE512(T0, Z16)
#define ONES512_2 ONES512_1 \
	ONE512(T1, Z17)
#define ONES512_3 ONES512_2 \
	ONE512(T2, Z18)
#define ONES512_4 ONES512_3 \
	ONE512(T3, Z19)
#define ONES512_5 ONES512_4 \
	ONE512(T4, Z20)
#define ONES512_6 ONES512_5 \
	ONE512(T5, Z21)
#define ONES512_7 ONES512_6 \
	ONE512(T6, Z22)
#define ONES512_8 ONES512_7 \
	ONE512(T7, Z23)

#define LOADS512_1 LOAD512(H0, Z16)
#define LOADS512_2 LOADS512_1 \
	LOAD512(H1, Z17)
#define LOADS512_3 LOADS512_2 \
	LOAD512(H2, Z18)
#define LOADS512_4 LOADS512_3 \
	LOAD512(H3, Z19)
#define LOADS512_5 LOADS512_4 \
	LOAD512(H4, Z20)
#define LOADS512_6 LOADS512_5 \
	LOAD512(H5, Z21)
#define LOADS512_7 LOADS512_6 \
	LOAD512(H6, Z22)
#define LOADS512_8 LOADS512_7 \
	LOAD512(H7, Z23)

#define STORES512_1 STORE512(H0, Z16)
#define STORES512_2 STORES512_1 \
	STORE512(H1, Z17)
#define STORES512_3 STORES512_2 \
	STORE512(H2, Z18)
#define STORES512_4 STORES512_3 \
	STORE512(H3, Z19)
#define STORES512_5 STORES512_4 \
	STORE512(H4, Z20)
#define STORES512_6 STORES512_5 \
	STORE512(H5, Z21)
#define STORES512_7 STORES512_6 \
	STORE512(H6, Z22)
#define STORES512_8 STORES512_7 \
	STORE512(H7, Z23)

#define ZEROS512_1 ZERO512(Z16)
#define ZEROS512_2 ZEROS512_1 \
	ZERO512(Z17)
#define ZEROS512_3 ZEROS512_2 \
	ZERO512(Z18)
#define ZEROS512_4 ZEROS512_3 \
	ZERO512(Z19)
#define ZEROS512_5 ZEROS512_4 \
	ZERO512(Z20)
#define ZEROS512_6 ZEROS512_5 \
	ZERO512(Z21)
#define ZEROS512_7 ZEROS512_6 \
	ZERO512(Z22)
#define ZEROS512_8 ZEROS512_7 \
	ZERO512(Z23)

// LOOP512 is the whole column loop for one number of outputs. The labels are
// arguments so that each copy has its own.
#define LOOP512(LOADS, ZEROS, PAIRS, ONES, STORES, chunk, zero, inputs, pair, last, store) \
chunk: \
	CMPB xor+88(FP), $0 \
	JEQ  zero \
	LOADS \
	JMP  inputs \
zero: \
	ZEROS \
inputs: \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
	CMPQ SI, R10 \
	JEQ  last \
pair: \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	MOVQ      24(SI), AX \
	VMOVDQU64 (AX)(CX*1), Z1 \
	PAIRS \
	ADDQ      $48, SI \
	ADDQ      $16, DI \
	ADDQ      $16, R13 \
	CMPQ      SI, R10 \
	JNE       pair \
last: \
	TESTB     $1, ins_len+32(FP) \
	JEQ       store \
	MOVQ      (SI), AX \
	VMOVDQU64 (AX)(CX*1), Z0 \
	ONES \
store: \
	STORES \
	ADDQ $64, CX \
	CMPQ CX, R12 \
	JNE  chunk \
	VZEROUPPER \
	RET

// func mulGFNI512(tab []byte, ins, outs [][]byte, off, n int, xor bool)
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
	LOOP512(LOADS512_1, ZEROS512_1, PAIRS512_1, ONES512_1, STORES512_1, chunk1, zero1, inputs1, pair1, last1, store1)
out2:
	LOOP512(LOADS512_2, ZEROS512_2, PAIRS512_2, ONES512_2, STORES512_2, chunk2, zero2, inputs2, pair2, last2, store2)
out3:
	LOOP512(LOADS512_3, ZEROS512_3, PAIRS512_3, ONES512_3, STORES512_3, chunk3, zero3, inputs3, pair3, last3, store3)
out4:
	LOOP512(LOADS512_4, ZEROS512_4, PAIRS512_4, ONES512_4, STORES512_4, chunk4, zero4, inputs4, pair4, last4, store4)
out5:
	LOOP512(LOADS512_5, ZEROS512_5, PAIRS512_5, ONES512_5, STORES512_5, chunk5, zero5, inputs5, pair5, last5, store5)
out6:
	LOOP512(LOADS512_6, ZEROS512_6, PAIRS512_6, ONES512_6, STORES512_6, chunk6, zero6, inputs6, pair6, last6, store6)
out7:
	LOOP512(LOADS512_7, ZEROS512_7, PAIRS512_7, ONES512_7, STORES512_7, chunk7, zero7, inputs7, pair7, last7, store7)
out8:
	LOOP512(LOADS512_8, ZEROS512_8, PAIRS512_8, ONES512_8, STORES512_8, chunk8, zero8, inputs8, pair8, last8, store8)

// ---------------------------------------------------------------------------
// gfni256 and avx2: 32 bytes per chunk, Y0…Y7 the accumulators of outputs
// 0…7, one input per step of the inner loop. R10 is the end of all input
// headers, &ins[len(ins)].

#define LOAD256(h, acc) \
	MOVQ    h(R11), AX \
	VMOVDQU (AX)(CX*1), acc

#define STORE256(h, acc) \
	MOVQ    h(R11), AX \
	VMOVDQU acc, (AX)(CX*1)

#define ZERO256(acc) VPXOR acc, acc, acc

#define LOADS256_1 LOAD256(H0, Y0)
#define LOADS256_2 LOADS256_1 \
	LOAD256(H1, Y1)
#define LOADS256_3 LOADS256_2 \
	LOAD256(H2, Y2)
#define LOADS256_4 LOADS256_3 \
	LOAD256(H3, Y3)
#define LOADS256_5 LOADS256_4 \
	LOAD256(H4, Y4)
#define LOADS256_6 LOADS256_5 \
	LOAD256(H5, Y5)
#define LOADS256_7 LOADS256_6 \
	LOAD256(H6, Y6)
#define LOADS256_8 LOADS256_7 \
	LOAD256(H7, Y7)

#define STORES256_1 STORE256(H0, Y0)
#define STORES256_2 STORES256_1 \
	STORE256(H1, Y1)
#define STORES256_3 STORES256_2 \
	STORE256(H2, Y2)
#define STORES256_4 STORES256_3 \
	STORE256(H3, Y3)
#define STORES256_5 STORES256_4 \
	STORE256(H4, Y4)
#define STORES256_6 STORES256_5 \
	STORE256(H5, Y5)
#define STORES256_7 STORES256_6 \
	STORE256(H6, Y6)
#define STORES256_8 STORES256_7 \
	STORE256(H7, Y7)

#define ZEROS256_1 ZERO256(Y0)
#define ZEROS256_2 ZEROS256_1 \
	ZERO256(Y1)
#define ZEROS256_3 ZEROS256_2 \
	ZERO256(Y2)
#define ZEROS256_4 ZEROS256_3 \
	ZERO256(Y3)
#define ZEROS256_5 ZEROS256_4 \
	ZERO256(Y4)
#define ZEROS256_6 ZEROS256_5 \
	ZERO256(Y5)
#define ZEROS256_7 ZEROS256_6 \
	ZERO256(Y6)
#define ZEROS256_8 ZEROS256_7 \
	ZERO256(Y7)

// LOOP256 is the column loop of gfni256 and avx2 for one number of outputs.
// INPUT loads the input at AX+CX into the kernel's input registers, MULS
// adds its products to the accumulators; tsize is the table size in bytes.
#define LOOP256(INPUT, MULS, tsize, LOADS, ZEROS, STORES, chunk, zero, inputs, input, store) \
chunk: \
	CMPB xor+88(FP), $0 \
	JEQ  zero \
	LOADS \
	JMP  inputs \
zero: \
	ZEROS \
inputs: \
	MOVQ R9, SI \
	MOVQ R8, DI \
	LEAQ (DI)(BX*4), R13 \
input: \
	MOVQ (SI), AX \
	INPUT \
	MULS \
	ADDQ $24, SI \
	ADDQ $tsize, DI \
	ADDQ $tsize, R13 \
	CMPQ SI, R10 \
	JNE  input \
store: \
	STORES \
	ADDQ $32, CX \
	CMPQ CX, R12 \
	JNE  chunk \
	VZEROUPPER \
	RET

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
// gfni256: Y8 is the input x_j; Y9 the product. The 32-byte tables hold the
// affine matrix of c four times, since VEX encodings cannot broadcast.

#define INPUTG \
	VMOVDQU (AX)(CX*1), Y8

// acc ^= A(c(r, j))·Y8
#define MULG(t, acc) \
	VGF2P8AFFINEQB $0, t, Y8, Y9 \
	VPXOR          Y9, acc, acc

#define MULG_1 MULG(T0, Y0)
#define MULG_2 MULG_1 \
	MULG(T1, Y1)
#define MULG_3 MULG_2 \
	MULG(T2, Y2)
#define MULG_4 MULG_3 \
	MULG(T3, Y3)
#define MULG_5 MULG_4 \
	MULG(T4, Y4)
#define MULG_6 MULG_5 \
	MULG(T5, Y5)
#define MULG_7 MULG_6 \
	MULG(T6, Y6)
#define MULG_8 MULG_7 \
	MULG(T7, Y7)

// func mulGFNI256(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulGFNI256(SB), NOSPLIT, $0-89
	SETUP256
	DISPATCH256(g1, g2, g3, g4, g5, g6, g7, g8)

g1:
	LOOP256(INPUTG, MULG_1, 32, LOADS256_1, ZEROS256_1, STORES256_1, gchunk1, gzero1, ginputs1, ginput1, gstore1)
g2:
	LOOP256(INPUTG, MULG_2, 32, LOADS256_2, ZEROS256_2, STORES256_2, gchunk2, gzero2, ginputs2, ginput2, gstore2)
g3:
	LOOP256(INPUTG, MULG_3, 32, LOADS256_3, ZEROS256_3, STORES256_3, gchunk3, gzero3, ginputs3, ginput3, gstore3)
g4:
	LOOP256(INPUTG, MULG_4, 32, LOADS256_4, ZEROS256_4, STORES256_4, gchunk4, gzero4, ginputs4, ginput4, gstore4)
g5:
	LOOP256(INPUTG, MULG_5, 32, LOADS256_5, ZEROS256_5, STORES256_5, gchunk5, gzero5, ginputs5, ginput5, gstore5)
g6:
	LOOP256(INPUTG, MULG_6, 32, LOADS256_6, ZEROS256_6, STORES256_6, gchunk6, gzero6, ginputs6, ginput6, gstore6)
g7:
	LOOP256(INPUTG, MULG_7, 32, LOADS256_7, ZEROS256_7, STORES256_7, gchunk7, gzero7, ginputs7, ginput7, gstore7)
g8:
	LOOP256(INPUTG, MULG_8, 32, LOADS256_8, ZEROS256_8, STORES256_8, gchunk8, gzero8, ginputs8, ginput8, gstore8)

// ---------------------------------------------------------------------------
// avx2: Y8 holds the low nibbles of x_j and Y9 the high nibbles (each in the
// low four bits of its byte, so that VPSHUFB uses it as an index into a
// 16-byte table and never sees bit 7 set); Y10 is 0x0f in every byte; Y11 and
// Y12 receive the tables of c(r, j), then the two halves of the product. The
// 32-byte table of c is lo[16] then hi[16] with lo[i] = c·i and
// hi[i] = c·(i<<4), and c·x = lo[x & 15] ^ hi[x >> 4] because multiplication
// by c is linear over GF(2). VBROADCASTI128 copies a 16-byte table to both
// 128-bit lanes, since VPSHUFB looks up within each lane.

#define INPUTN \
	VMOVDQU (AX)(CX*1), Y8 \
	VPSRLQ  $4, Y8, Y9 \
	VPAND   Y10, Y8, Y8 \
	VPAND   Y10, Y9, Y9

// acc ^= lo[Y8] ^ hi[Y9] for the tables at t
#define MULN(t, acc) \
	VBROADCASTI128 t, Y11 \
	VBROADCASTI128 16 t, Y12 \
	VPSHUFB        Y8, Y11, Y11 \
	VPSHUFB        Y9, Y12, Y12 \
	VPXOR          Y11, acc, acc \
	VPXOR          Y12, acc, acc

#define MULN_1 MULN(T0, Y0)
#define MULN_2 MULN_1 \
	MULN(T1, Y1)
#define MULN_3 MULN_2 \
	MULN(T2, Y2)
#define MULN_4 MULN_3 \
	MULN(T3, Y3)
#define MULN_5 MULN_4 \
	MULN(T4, Y4)
#define MULN_6 MULN_5 \
	MULN(T5, Y5)
#define MULN_7 MULN_6 \
	MULN(T6, Y6)
#define MULN_8 MULN_7 \
	MULN(T7, Y7)

// func mulAVX2(tab []byte, ins, outs [][]byte, off, n int, xor bool)
TEXT ·mulAVX2(SB), NOSPLIT, $0-89
	SETUP256
	MOVL         $0x0f0f0f0f, AX
	MOVD         AX, X10
	VPBROADCASTD X10, Y10
	DISPATCH256(n1, n2, n3, n4, n5, n6, n7, n8)

n1:
	LOOP256(INPUTN, MULN_1, 32, LOADS256_1, ZEROS256_1, STORES256_1, nchunk1, nzero1, ninputs1, ninput1, nstore1)
n2:
	LOOP256(INPUTN, MULN_2, 32, LOADS256_2, ZEROS256_2, STORES256_2, nchunk2, nzero2, ninputs2, ninput2, nstore2)
n3:
	LOOP256(INPUTN, MULN_3, 32, LOADS256_3, ZEROS256_3, STORES256_3, nchunk3, nzero3, ninputs3, ninput3, nstore3)
n4:
	LOOP256(INPUTN, MULN_4, 32, LOADS256_4, ZEROS256_4, STORES256_4, nchunk4, nzero4, ninputs4, ninput4, nstore4)
n5:
	LOOP256(INPUTN, MULN_5, 32, LOADS256_5, ZEROS256_5, STORES256_5, nchunk5, nzero5, ninputs5, ninput5, nstore5)
n6:
	LOOP256(INPUTN, MULN_6, 32, LOADS256_6, ZEROS256_6, STORES256_6, nchunk6, nzero6, ninputs6, ninput6, nstore6)
n7:
	LOOP256(INPUTN, MULN_7, 32, LOADS256_7, ZEROS256_7, STORES256_7, nchunk7, nzero7, ninputs7, ninput7, nstore7)
n8:
	LOOP256(INPUTN, MULN_8, 32, LOADS256_8, ZEROS256_8, STORES256_8, nchunk8, nzero8, ninputs8, ninput8, nstore8)

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
