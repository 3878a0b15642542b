//go:build !purego

#include "textflag.h"

// AES-256-GCM's kernels with 512-bit VAES and VPCLMULQDQ (AVX-512): the
// counter-mode encryption (gcmCTR512), GHASH (ghash512), the two in one
// pass (gcmSeal512, gcmOpen512), the powers of the hash key (gcmPowers)
// and a check of the CPU (clmulLanesWork). See gcm_amd64.go.
//
// Constant time. AESENC, AESENCLAST and PCLMULQDQ (and their VEX and EVEX
// forms) take a time independent of their operands, and no kernel looks
// anything up in a table: the key, the round keys, the hash key H and
// its powers, the keystream and the data only go through these, XOR,
// shuffles, loads and stores. Every address is a pointer argument plus a
// constant or plus a multiple of 16 that depends only on nblocks, and every
// branch depends only on nblocks. The vector registers that held round
// keys, powers of H or keystream are zeroed before returning: Z16 and up,
// which VZEROALL does not touch, one by one.

// gcmBswap reverses the bytes of each 128-bit lane.
DATA gcmBswap<>+0x00(SB)/8, $0x08090a0b0c0d0e0f
DATA gcmBswap<>+0x08(SB)/8, $0x0001020304050607
GLOBL gcmBswap<>(SB), RODATA|NOPTR, $16

// gcmSteps adds 0, 1, 2, 3 to the counter dwords of the four lanes.
DATA gcmSteps<>+0x00(SB)/8, $0
DATA gcmSteps<>+0x08(SB)/8, $0
DATA gcmSteps<>+0x10(SB)/8, $1
DATA gcmSteps<>+0x18(SB)/8, $0
DATA gcmSteps<>+0x20(SB)/8, $2
DATA gcmSteps<>+0x28(SB)/8, $0
DATA gcmSteps<>+0x30(SB)/8, $3
DATA gcmSteps<>+0x38(SB)/8, $0
GLOBL gcmSteps<>(SB), RODATA|NOPTR, $64

// gcmFour adds 4 to the counter dword of a lane.
DATA gcmFour<>+0x00(SB)/8, $4
DATA gcmFour<>+0x08(SB)/8, $0
GLOBL gcmFour<>(SB), RODATA|NOPTR, $16

// gcmPoly is x^-1 in GHASH's bit-reflected representation (below):
// x^127 + x^6 + x + 1, that is bit 0 and bits 121, 126 and 127. Its high
// quadword, 0xc2 << 56, is the multiplier of the reduction.
DATA gcmPoly<>+0x00(SB)/8, $0x0000000000000001
DATA gcmPoly<>+0x08(SB)/8, $0xc200000000000000
GLOBL gcmPoly<>(SB), RODATA|NOPTR, $16

// Counter mode. A counter block is the 12-byte nonce, then a 32-bit
// big-endian counter that GCM increments modulo 2^32 (inc32, NIST SP
// 800-38D). Byte-reversed (VPSHUFB with gcmBswap), the counter is the
// lowest dword of the lane, little-endian, and the nonce the three above
// it: VPADDD on that dword alone is inc32, wrap included, and leaves the
// nonce as it is. Z8 holds the counters of the next four blocks in this
// form, one per lane.
//
// Register roles of gcmCTR512: AX the round keys, DI dst, SI src, BX the
// blocks still to do, CX the counter block; Z0…Z7 the AES states of 32
// blocks, four per register; Z8 the counters; Z9 gcmFour in every lane; Z10
// gcmBswap in every lane; Z16…Z30 the 15 round keys, each broadcast to all
// four lanes.

#define CTR4(z) \
	VPSHUFB Z10, Z8, z; \
	VPADDD  Z9, Z8, Z8; \
	VPXORQ  Z16, z, z

#define ROUND8(k) \
	VAESENC k, Z0, Z0; \
	VAESENC k, Z1, Z1; \
	VAESENC k, Z2, Z2; \
	VAESENC k, Z3, Z3; \
	VAESENC k, Z4, Z4; \
	VAESENC k, Z5, Z5; \
	VAESENC k, Z6, Z6; \
	VAESENC k, Z7, Z7

// func gcmCTR512(rk *[240]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmCTR512 sets dst[0:16*nblocks] to src[0:16*nblocks] XOR the keystream
// whose first block is the encryption of the counter block ctr, the next
// ones those of its inc32 successors. nblocks must be a multiple of 4 (zero
// included). dst and src may be the same; otherwise they must not overlap.
// ctr is not updated.
TEXT ·gcmCTR512(SB), NOSPLIT, $0-40
	MOVQ rk+0(FP), AX
	MOVQ dst+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), BX
	MOVQ ctr+32(FP), CX

	VBROADCASTI32X4 gcmBswap<>(SB), Z10
	VBROADCASTI32X4 gcmFour<>(SB), Z9
	VBROADCASTI32X4 (CX), Z8
	VPSHUFB         Z10, Z8, Z8
	VPADDD          gcmSteps<>(SB), Z8, Z8

	VBROADCASTI32X4 0(AX), Z16
	VBROADCASTI32X4 16(AX), Z17
	VBROADCASTI32X4 32(AX), Z18
	VBROADCASTI32X4 48(AX), Z19
	VBROADCASTI32X4 64(AX), Z20
	VBROADCASTI32X4 80(AX), Z21
	VBROADCASTI32X4 96(AX), Z22
	VBROADCASTI32X4 112(AX), Z23
	VBROADCASTI32X4 128(AX), Z24
	VBROADCASTI32X4 144(AX), Z25
	VBROADCASTI32X4 160(AX), Z26
	VBROADCASTI32X4 176(AX), Z27
	VBROADCASTI32X4 192(AX), Z28
	VBROADCASTI32X4 208(AX), Z29
	VBROADCASTI32X4 224(AX), Z30

	// 32 blocks at a time: eight independent chains of 14 rounds keep the
	// AES units busy while each VAESENC's result is pending.
loop32:
	CMPQ BX, $32
	JB   loop4
	CTR4(Z0)
	CTR4(Z1)
	CTR4(Z2)
	CTR4(Z3)
	CTR4(Z4)
	CTR4(Z5)
	CTR4(Z6)
	CTR4(Z7)
	ROUND8(Z17)
	ROUND8(Z18)
	ROUND8(Z19)
	ROUND8(Z20)
	ROUND8(Z21)
	ROUND8(Z22)
	ROUND8(Z23)
	ROUND8(Z24)
	ROUND8(Z25)
	ROUND8(Z26)
	ROUND8(Z27)
	ROUND8(Z28)
	ROUND8(Z29)
	VAESENCLAST Z30, Z0, Z0
	VAESENCLAST Z30, Z1, Z1
	VAESENCLAST Z30, Z2, Z2
	VAESENCLAST Z30, Z3, Z3
	VAESENCLAST Z30, Z4, Z4
	VAESENCLAST Z30, Z5, Z5
	VAESENCLAST Z30, Z6, Z6
	VAESENCLAST Z30, Z7, Z7
	VPXORQ      0(SI), Z0, Z0
	VPXORQ      64(SI), Z1, Z1
	VPXORQ      128(SI), Z2, Z2
	VPXORQ      192(SI), Z3, Z3
	VPXORQ      256(SI), Z4, Z4
	VPXORQ      320(SI), Z5, Z5
	VPXORQ      384(SI), Z6, Z6
	VPXORQ      448(SI), Z7, Z7
	VMOVDQU64   Z0, 0(DI)
	VMOVDQU64   Z1, 64(DI)
	VMOVDQU64   Z2, 128(DI)
	VMOVDQU64   Z3, 192(DI)
	VMOVDQU64   Z4, 256(DI)
	VMOVDQU64   Z5, 320(DI)
	VMOVDQU64   Z6, 384(DI)
	VMOVDQU64   Z7, 448(DI)
	ADDQ        $512, SI
	ADDQ        $512, DI
	SUBQ        $32, BX
	JMP         loop32

	// Fewer than 32 blocks remain, a multiple of 4: one register at a time.
loop4:
	TESTQ       BX, BX
	JZ          done
	CTR4(Z0)
	VAESENC     Z17, Z0, Z0
	VAESENC     Z18, Z0, Z0
	VAESENC     Z19, Z0, Z0
	VAESENC     Z20, Z0, Z0
	VAESENC     Z21, Z0, Z0
	VAESENC     Z22, Z0, Z0
	VAESENC     Z23, Z0, Z0
	VAESENC     Z24, Z0, Z0
	VAESENC     Z25, Z0, Z0
	VAESENC     Z26, Z0, Z0
	VAESENC     Z27, Z0, Z0
	VAESENC     Z28, Z0, Z0
	VAESENC     Z29, Z0, Z0
	VAESENCLAST Z30, Z0, Z0
	VPXORQ      0(SI), Z0, Z0
	VMOVDQU64   Z0, 0(DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $4, BX
	JMP         loop4

done:
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27
	VPXORQ Z28, Z28, Z28
	VPXORQ Z29, Z29, Z29
	VPXORQ Z30, Z30, Z30
	VZEROALL
	RET

// GHASH. GHASH (NIST SP 800-38D) multiplies in GF(2^128) modulo
// P = x^128 + x^7 + x^2 + x + 1, with the bits of a block in reflected
// order: the most significant bit of byte 0 is the coefficient of x^0.
// Byte-reversed, a block loaded into a lane is a 128-bit integer whose bit
// k is the coefficient of x^(127−k). The carry-less product of two such
// integers A' and B' is then a 256-bit integer whose bit k is the
// coefficient of x^(255−k) in A·B·x: one factor x too many, which the
// powers of H cancel, being stored as H^i·x^−1 (gcm_amd64.go computes
// them). Of the product, the high 128 bits are the terms of degree 0…127,
// already reduced, and the low 128 bits L those of degree 128…255. Two
// rounds fold L away: each multiplies its low quadword (the 64 highest
// degrees left) by 0xc2 << 56, gcmPoly's high quadword, and adds the result
// to L with its quadwords swapped, which moves the remaining terms down by
// 64 degrees. The reduced product is the high half XOR what is left of L.
//
// Aggregation. For blocks X1…Xn and the running hash Y, GHASH computes
// Y' = (…((Y⊕X1)·H ⊕ X2)·H … ⊕ Xn)·H = (Y⊕X1)·H^n ⊕ X2·H^(n−1) ⊕ … ⊕ Xn·H.
// The loop takes n = 16 blocks at a time: sixteen independent unreduced
// products (four 128×128-bit multiplications, each of four VPCLMULQDQs,
// per register), added together, then one reduction, whose result only the
// next group's first block waits for.
//
// htab holds the 16 powers in its first 256 bytes (gcmSeal512 below uses
// the rest), H^16·x^−1 first and H^1·x^−1 last, each as the
// byte-reversed block (the lane form above). Four blocks in a register
// (lanes 0…3) take four consecutive powers from htab, so block i of 16
// takes htab[i]: H^(16−i). A last group of n < 16 blocks takes
// htab[16−n…15].
//
// Register roles of ghash512: AX htab, CX y, SI src, BX the blocks still to
// do, DX the power of the tail's next block; X0 the running hash,
// byte-reversed, alone in lane 0 of Z0; Z1…Z4 the 16 blocks; Z5, Z6, Z7
// the sums of the low, high and middle products; Z8…Z13 scratch; X14
// gcmPoly; Z15 gcmBswap in every lane; Z16…Z19 htab.

// FOLD sets the lowest lane of z to the XOR of its four lanes; t is
// scratch.
#define FOLD(z, y, x, t, tx) \
	VEXTRACTI64X4 $1, z, t; \
	VPXORQ        t, y, y; \
	VEXTRACTI128  $1, y, tx; \
	VPXOR         tx, x, x

// REDUCE sets X0 to the reduction of the 256-bit product whose low half is
// X5 ⊕ (X7 << 64) and high half X6 ⊕ (X7 >> 64).
#define REDUCE \
	VPSLLDQ    $8, X7, X8; \
	VPXOR      X8, X5, X5; \
	VPSRLDQ    $8, X7, X7; \
	VPXOR      X7, X6, X6; \
	VPCLMULQDQ $0x01, X5, X14, X8; \
	VPSHUFD    $0x4e, X5, X5; \
	VPXOR      X8, X5, X5; \
	VPCLMULQDQ $0x01, X5, X14, X8; \
	VPSHUFD    $0x4e, X5, X5; \
	VPXOR      X8, X5, X5; \
	VPXOR      X6, X5, X0

// MUL4 adds the products of the four blocks in b and the four powers in k
// to Z5, Z6, Z7.
#define MUL4(b, k) \
	VPCLMULQDQ $0x00, k, b, Z8; \
	VPCLMULQDQ $0x11, k, b, Z9; \
	VPCLMULQDQ $0x01, k, b, Z10; \
	VPCLMULQDQ $0x10, k, b, Z11; \
	VPXORQ     Z8, Z5, Z5; \
	VPXORQ     Z9, Z6, Z6; \
	VPTERNLOGQ $0x96, Z11, Z10, Z7

// func ghash512(htab *[512]byte, y *[16]byte, src *byte, nblocks int)
//
// ghash512 updates the GHASH state y (as GCM's blocks are: not reversed)
// with the nblocks ≥ 0 blocks at src, under the key whose powers are htab.
TEXT ·ghash512(SB), NOSPLIT, $0-32
	MOVQ htab+0(FP), AX
	MOVQ y+8(FP), CX
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), BX

	VBROADCASTI32X4 gcmBswap<>(SB), Z15
	VMOVDQU         gcmPoly<>(SB), X14
	VMOVDQU         (CX), X0
	VPSHUFB         X15, X0, X0

	CMPQ BX, $16
	JB   tail
	VMOVDQU64 0(AX), Z16
	VMOVDQU64 64(AX), Z17
	VMOVDQU64 128(AX), Z18
	VMOVDQU64 192(AX), Z19

loop16:
	VMOVDQU64  0(SI), Z1
	VMOVDQU64  64(SI), Z2
	VMOVDQU64  128(SI), Z3
	VMOVDQU64  192(SI), Z4
	VPSHUFB    Z15, Z1, Z1
	VPSHUFB    Z15, Z2, Z2
	VPSHUFB    Z15, Z3, Z3
	VPSHUFB    Z15, Z4, Z4
	VPXORQ     Z0, Z1, Z1
	VPCLMULQDQ $0x00, Z16, Z1, Z5
	VPCLMULQDQ $0x11, Z16, Z1, Z6
	VPCLMULQDQ $0x01, Z16, Z1, Z7
	VPCLMULQDQ $0x10, Z16, Z1, Z8
	VPXORQ     Z8, Z7, Z7
	MUL4(Z2, Z17)
	MUL4(Z3, Z18)
	MUL4(Z4, Z19)
	FOLD(Z5, Y5, X5, Y8, X8)
	FOLD(Z6, Y6, X6, Y8, X8)
	FOLD(Z7, Y7, X7, Y8, X8)
	REDUCE
	ADDQ       $256, SI
	SUBQ       $16, BX
	CMPQ       BX, $16
	JAE        loop16

tail:
	// 0 ≤ BX < 16 blocks remain: block i of them takes htab[16−BX+i].
	TESTQ BX, BX
	JZ    done
	MOVQ  $16, DX
	SUBQ  BX, DX
	SHLQ  $4, DX
	ADDQ  AX, DX
	VPXOR X5, X5, X5
	VPXOR X6, X6, X6
	VPXOR X7, X7, X7

tailloop:
	VMOVDQU    (SI), X1
	VPSHUFB    X15, X1, X1
	VPXOR      X0, X1, X1
	VPXOR      X0, X0, X0 // only the first block takes y
	VMOVDQU    (DX), X2
	VPCLMULQDQ $0x00, X2, X1, X8
	VPCLMULQDQ $0x11, X2, X1, X9
	VPCLMULQDQ $0x01, X2, X1, X10
	VPCLMULQDQ $0x10, X2, X1, X11
	VPXOR      X8, X5, X5
	VPXOR      X9, X6, X6
	VPXOR      X10, X7, X7
	VPXOR      X11, X7, X7
	ADDQ       $16, SI
	ADDQ       $16, DX
	DECQ       BX
	JNZ        tailloop
	REDUCE

done:
	VPSHUFB X15, X0, X0
	VMOVDQU X0, (CX)
	VPXORQ  Z16, Z16, Z16
	VPXORQ  Z17, Z17, Z17
	VPXORQ  Z18, Z18, Z18
	VPXORQ  Z19, Z19, Z19
	VZEROALL
	RET

// clmulProbe holds two pairs of different 128-bit operands for
// clmulLanesWork: lanes 0 and 2 of the first 64 bytes, lanes 1 and 3 of
// the next.
DATA clmulProbe<>+0x00(SB)/8, $0x0123456789abcdef
DATA clmulProbe<>+0x08(SB)/8, $0xfedcba9876543210
DATA clmulProbe<>+0x10(SB)/8, $0x8badf00ddeadbeef
DATA clmulProbe<>+0x18(SB)/8, $0x0f1e2d3c4b5a6978
DATA clmulProbe<>+0x20(SB)/8, $0x1122334455667788
DATA clmulProbe<>+0x28(SB)/8, $0x99aabbccddeeff00
DATA clmulProbe<>+0x30(SB)/8, $0xc3a5c3a5f00f5a5a
DATA clmulProbe<>+0x38(SB)/8, $0x7766554433221100
DATA clmulProbe<>+0x40(SB)/8, $0xa5a5a5a55a5a5a5a
DATA clmulProbe<>+0x48(SB)/8, $0x13579bdf02468ace
DATA clmulProbe<>+0x50(SB)/8, $0xfeedfacecafebabe
DATA clmulProbe<>+0x58(SB)/8, $0x0000000100000003
DATA clmulProbe<>+0x60(SB)/8, $0x8000000000000001
DATA clmulProbe<>+0x68(SB)/8, $0x3141592653589793
DATA clmulProbe<>+0x70(SB)/8, $0x2718281828459045
DATA clmulProbe<>+0x78(SB)/8, $0xffffffffffffffff
GLOBL clmulProbe<>(SB), RODATA|NOPTR, $128

// CHECKLANE compares lane i of Z2 (the 512-bit result) with the 128-bit
// form's on lane i of Z0 and Z1, and clears AX if they differ.
#define CHECKLANE(i, imm) \
	VEXTRACTI32X4 $i, Z0, X3; \
	VEXTRACTI32X4 $i, Z1, X4; \
	VPCLMULQDQ    $imm, X4, X3, X5; \
	VEXTRACTI32X4 $i, Z2, X6; \
	VPCMPEQB      X5, X6, X6; \
	VPMOVMSKB     X6, DX; \
	CMPL          DX, $0xffff; \
	CMOVLNE       BX, AX

// func clmulLanesWork() bool
//
// clmulLanesWork reports whether VPCLMULQDQ on ZMM registers gives, in each
// 128-bit lane and for each of its four operand choices, what the 128-bit
// form gives on that lane alone: a check against emulators that report
// the feature and compute it wrongly. It uses public constants only.
TEXT ·clmulLanesWork(SB), NOSPLIT, $0-1
	VMOVDQU64 clmulProbe<>+0(SB), Z0
	VMOVDQU64 clmulProbe<>+64(SB), Z1
	MOVL      $1, AX
	XORL      BX, BX

	VPCLMULQDQ $0x00, Z1, Z0, Z2
	CHECKLANE(0, 0x00)
	CHECKLANE(1, 0x00)
	CHECKLANE(2, 0x00)
	CHECKLANE(3, 0x00)
	VPCLMULQDQ $0x01, Z1, Z0, Z2
	CHECKLANE(0, 0x01)
	CHECKLANE(1, 0x01)
	CHECKLANE(2, 0x01)
	CHECKLANE(3, 0x01)
	VPCLMULQDQ $0x10, Z1, Z0, Z2
	CHECKLANE(0, 0x10)
	CHECKLANE(1, 0x10)
	CHECKLANE(2, 0x10)
	CHECKLANE(3, 0x10)
	VPCLMULQDQ $0x11, Z1, Z0, Z2
	CHECKLANE(0, 0x11)
	CHECKLANE(1, 0x11)
	CHECKLANE(2, 0x11)
	CHECKLANE(3, 0x11)

	MOVB AX, ret+0(FP)
	VZEROUPPER
	RET

// Seal and Open in one pass: gcmSeal512 and gcmOpen512 run counter mode
// and GHASH over 16 blocks per loop iteration, the AES rounds of one group
// interleaved with the carry-less multiplications of another (Seal hashes
// the group it encrypted in the iteration before; Open the group it
// decrypts), so that they overlap where the two-pass functions above wait
// for each in turn. The counters, the round keys and GHASH's arithmetic are
// as above, but for the products of the blocks, which take three
// multiplications each (Karatsuba) rather than four: the low halves'
// product L, the high halves' H, and M, that of the XORs of the halves,
// from which the middle product is M ⊕ L ⊕ H; summed over the 16 blocks,
// the same holds of the sums. On Zen 5 they share execution units with
// the AES rounds, so every multiplication saved counts.
//
// htab, 512 bytes: the 16 powers of H as ghash512 takes them, then for
// each power the XOR of its two quadwords, in both quadwords, the other
// factor of M.
//
// Register roles: AX the round keys; R8 htab, whose entries the
// multiplications take straight from memory, four per 64 bytes; CX y; DI
// dst; SI src; BX the blocks still to do; DX the first counter block;
// Z0…Z3 the AES states of the 16 blocks; Z4…Z7 the 16 blocks of
// ciphertext, byte-reversed, for GHASH; Z8 the counters; Z9 gcmFour in
// every lane; Z10 gcmBswap in every lane; Z11, Z12, Z13 the sums of L, H
// and M, then the low, high and middle sums; Z14 and Z31 scratch; X15 the
// running hash, byte-reversed (the rest of Z15 zero); Z16…Z30 the round
// keys.

#define ROUND4(k) \
	VAESENC k, Z0, Z0; \
	VAESENC k, Z1, Z1; \
	VAESENC k, Z2, Z2; \
	VAESENC k, Z3, Z3

// AES16 computes the keystream of the next 16 blocks into Z0…Z3.
#define AES16 \
	CTR4(Z0); \
	CTR4(Z1); \
	CTR4(Z2); \
	CTR4(Z3); \
	ROUND4(Z17); \
	ROUND4(Z18); \
	ROUND4(Z19); \
	ROUND4(Z20); \
	ROUND4(Z21); \
	ROUND4(Z22); \
	ROUND4(Z23); \
	ROUND4(Z24); \
	ROUND4(Z25); \
	ROUND4(Z26); \
	ROUND4(Z27); \
	ROUND4(Z28); \
	ROUND4(Z29); \
	VAESENCLAST Z30, Z0, Z0; \
	VAESENCLAST Z30, Z1, Z1; \
	VAESENCLAST Z30, Z2, Z2; \
	VAESENCLAST Z30, Z3, Z3

// G1…G13 add the 16 byte-reversed blocks in Z4…Z7 to the hash in X15, in
// 13 steps that AESGHASH16 interleaves with the AES rounds of other blocks.
// By linearity, (Y⊕X1)·H^16 ⊕ X2·H^15 ⊕ … = Y·H^16 ⊕ (X1·H^16 ⊕ … ⊕
// X16·H): the sixteen products of the blocks (G1…G8) and their sums folded
// to one lane (G9…G11) do not wait for the hash Y of the group before; only
// Y·H^16 (G12, four multiplications on one lane) and the reduction (G13)
// do, which keeps the chain from one group's hash to the next short.
#define G1 \
	VPCLMULQDQ $0x00, 64(R8), Z5, Z11; \
	VPCLMULQDQ $0x11, 64(R8), Z5, Z12

#define G2 \
	VPSHUFD    $0x4e, Z5, Z14; \
	VPXORQ     Z5, Z14, Z14; \
	VPCLMULQDQ $0x00, 320(R8), Z14, Z13

#define GLOHI(b, m) \
	VPCLMULQDQ $0x00, m, b, Z14; \
	VPXORQ     Z14, Z11, Z11; \
	VPCLMULQDQ $0x11, m, b, Z14; \
	VPXORQ     Z14, Z12, Z12

#define GMID(b, m) \
	VPSHUFD    $0x4e, b, Z14; \
	VPXORQ     b, Z14, Z14; \
	VPCLMULQDQ $0x00, m, Z14, Z31; \
	VPXORQ     Z31, Z13, Z13

#define G3 GLOHI(Z6, 128(R8))
#define G4 GMID(Z6, 384(R8))
#define G5 GLOHI(Z7, 192(R8))
#define G6 GMID(Z7, 448(R8))
#define G7 GLOHI(Z4, 0(R8))
#define G8 GMID(Z4, 256(R8))
#define G9 FOLD(Z11, Y11, X11, Y14, X14)
#define G10 FOLD(Z12, Y12, X12, Y14, X14)

// G11 folds the Karatsuba sum and turns it into the middle one.
#define G11 \
	FOLD(Z13, Y13, X13, Y14, X14); \
	VPTERNLOGQ $0x96, X12, X11, X13

// G12 adds Y·H^16 (H^16·x^−1 is the first 16 bytes of htab), with four
// multiplications.
#define G12 \
	VPCLMULQDQ $0x00, 0(R8), X15, X14; \
	VPXOR      X14, X11, X11; \
	VPCLMULQDQ $0x11, 0(R8), X15, X14; \
	VPXOR      X14, X12, X12; \
	VPCLMULQDQ $0x01, 0(R8), X15, X14; \
	VPCLMULQDQ $0x10, 0(R8), X15, X31; \
	VPTERNLOGQ $0x96, X31, X14, X13

#define GREDUCE \
	VPCLMULQDQ $0x10, gcmPoly<>(SB), X11, X14; \
	VPSHUFD    $0x4e, X11, X11; \
	VPXOR      X14, X11, X11

// G13 adds the middle sum to the low and high ones and reduces.
#define G13 \
	VPSLLDQ $8, X13, X14; \
	VPXOR   X14, X11, X11; \
	VPSRLDQ $8, X13, X13; \
	VPXOR   X13, X12, X12; \
	GREDUCE; \
	GREDUCE; \
	VPXOR   X12, X11, X15

// GHASH16 runs G1…G13 alone.
#define GHASH16 G1; G2; G3; G4; G5; G6; G7; G8; G9; G10; G11; G12; G13

// AESGHASH16 computes the keystream of the next 16 blocks into Z0…Z3, as
// AES16, and adds the blocks in Z4…Z7 to the hash, as GHASH16, one step of
// the hash after each round.
#define AESGHASH16 \
	CTR4(Z0); \
	CTR4(Z1); \
	CTR4(Z2); \
	CTR4(Z3); \
	ROUND4(Z17); G1; \
	ROUND4(Z18); G2; \
	ROUND4(Z19); G3; \
	ROUND4(Z20); G4; \
	ROUND4(Z21); G5; \
	ROUND4(Z22); G6; \
	ROUND4(Z23); G7; \
	ROUND4(Z24); G8; \
	ROUND4(Z25); G9; \
	ROUND4(Z26); G10; \
	ROUND4(Z27); G11; \
	ROUND4(Z28); G12; \
	ROUND4(Z29); G13; \
	VAESENCLAST Z30, Z0, Z0; \
	VAESENCLAST Z30, Z1, Z1; \
	VAESENCLAST Z30, Z2, Z2; \
	VAESENCLAST Z30, Z3, Z3

// SETUP16 loads the constants, the counters, the round keys
// and the hash.
#define SETUP16 \
	VBROADCASTI32X4 gcmBswap<>(SB), Z10; \
	VBROADCASTI32X4 gcmFour<>(SB), Z9; \
	VBROADCASTI32X4 (DX), Z8; \
	VPSHUFB         Z10, Z8, Z8; \
	VPADDD          gcmSteps<>(SB), Z8, Z8; \
	VBROADCASTI32X4 0(AX), Z16; \
	VBROADCASTI32X4 16(AX), Z17; \
	VBROADCASTI32X4 32(AX), Z18; \
	VBROADCASTI32X4 48(AX), Z19; \
	VBROADCASTI32X4 64(AX), Z20; \
	VBROADCASTI32X4 80(AX), Z21; \
	VBROADCASTI32X4 96(AX), Z22; \
	VBROADCASTI32X4 112(AX), Z23; \
	VBROADCASTI32X4 128(AX), Z24; \
	VBROADCASTI32X4 144(AX), Z25; \
	VBROADCASTI32X4 160(AX), Z26; \
	VBROADCASTI32X4 176(AX), Z27; \
	VBROADCASTI32X4 192(AX), Z28; \
	VBROADCASTI32X4 208(AX), Z29; \
	VBROADCASTI32X4 224(AX), Z30; \
	VMOVDQU         (CX), X15; \
	VPSHUFB         X10, X15, X15

// FINISH16 stores the hash and zeroes every vector register.
#define FINISH16 \
	VPSHUFB X10, X15, X15; \
	VMOVDQU X15, (CX); \
	VPXORQ  Z16, Z16, Z16; \
	VPXORQ  Z17, Z17, Z17; \
	VPXORQ  Z18, Z18, Z18; \
	VPXORQ  Z19, Z19, Z19; \
	VPXORQ  Z20, Z20, Z20; \
	VPXORQ  Z21, Z21, Z21; \
	VPXORQ  Z22, Z22, Z22; \
	VPXORQ  Z23, Z23, Z23; \
	VPXORQ  Z24, Z24, Z24; \
	VPXORQ  Z25, Z25, Z25; \
	VPXORQ  Z26, Z26, Z26; \
	VPXORQ  Z27, Z27, Z27; \
	VPXORQ  Z28, Z28, Z28; \
	VPXORQ  Z29, Z29, Z29; \
	VPXORQ  Z30, Z30, Z30; \
	VPXORQ  Z31, Z31, Z31; \
	VZEROALL

// SEALSTORE XORs the keystream in Z0…Z3 with the next 16 blocks of src,
// stores them to dst, keeps them byte-reversed in Z4…Z7 for the hash, moves
// on, and sets the flags of BX, the blocks still to do.
#define SEALSTORE \
	VPXORQ    0(SI), Z0, Z0; \
	VPXORQ    64(SI), Z1, Z1; \
	VPXORQ    128(SI), Z2, Z2; \
	VPXORQ    192(SI), Z3, Z3; \
	VMOVDQU64 Z0, 0(DI); \
	VMOVDQU64 Z1, 64(DI); \
	VMOVDQU64 Z2, 128(DI); \
	VMOVDQU64 Z3, 192(DI); \
	VPSHUFB   Z10, Z0, Z4; \
	VPSHUFB   Z10, Z1, Z5; \
	VPSHUFB   Z10, Z2, Z6; \
	VPSHUFB   Z10, Z3, Z7; \
	ADDQ      $256, SI; \
	ADDQ      $256, DI; \
	SUBQ      $16, BX

// func gcmSeal512(rk *[240]byte, htab *[512]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmSeal512 sets dst[0:16*nblocks] to src[0:16*nblocks] XOR the keystream
// from the counter block ctr (as gcmCTR512), and adds the result to the
// GHASH state y (as ghash512). nblocks must be a positive multiple of 16.
// dst and src may be the same; otherwise they must not overlap.
TEXT ·gcmSeal512(SB), NOSPLIT, $0-56
	MOVQ rk+0(FP), AX
	MOVQ htab+8(FP), R8
	MOVQ y+16(FP), CX
	MOVQ dst+24(FP), DI
	MOVQ src+32(FP), SI
	MOVQ nblocks+40(FP), BX
	MOVQ ctr+48(FP), DX
	SETUP16

	// The first group is only encrypted; each iteration then hashes the
	// group before its own while it encrypts, and the last group is hashed
	// after the loop.
	AES16
	SEALSTORE
	JZ sealLast

seal16:
	AESGHASH16
	SEALSTORE
	JNZ seal16

sealLast:
	GHASH16
	FINISH16
	RET

// func gcmOpen512(rk *[240]byte, htab *[512]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmOpen512 adds src[0:16*nblocks] to the GHASH state y, and sets
// dst[0:16*nblocks] to it XOR the keystream from the counter block ctr.
// nblocks must be a positive multiple of 16. dst and src may be the same
// (each group of 16 blocks is read before it is written); otherwise they
// must not overlap.
TEXT ·gcmOpen512(SB), NOSPLIT, $0-56
	MOVQ rk+0(FP), AX
	MOVQ htab+8(FP), R8
	MOVQ y+16(FP), CX
	MOVQ dst+24(FP), DI
	MOVQ src+32(FP), SI
	MOVQ nblocks+40(FP), BX
	MOVQ ctr+48(FP), DX
	SETUP16

open16:
	VMOVDQU64 0(SI), Z4
	VMOVDQU64 64(SI), Z5
	VMOVDQU64 128(SI), Z6
	VMOVDQU64 192(SI), Z7
	VPSHUFB   Z10, Z4, Z4
	VPSHUFB   Z10, Z5, Z5
	VPSHUFB   Z10, Z6, Z6
	VPSHUFB   Z10, Z7, Z7
	AESGHASH16
	VPXORQ    0(SI), Z0, Z0
	VPXORQ    64(SI), Z1, Z1
	VPXORQ    128(SI), Z2, Z2
	VPXORQ    192(SI), Z3, Z3
	VMOVDQU64 Z0, 0(DI)
	VMOVDQU64 Z1, 64(DI)
	VMOVDQU64 Z2, 128(DI)
	VMOVDQU64 Z3, 192(DI)
	ADDQ      $256, SI
	ADDQ      $256, DI
	SUBQ      $16, BX
	JNZ       open16

	FINISH16
	RET

// func gcmPowers(htab *[512]byte)
//
// gcmPowers fills htab from its entry 15, H·x^−1 in the lane form: entry i
// becomes H^(16−i)·x^−1, the product of entry i+1 and entry 15 (the x^−1
// of one factor cancelling the x of the carry-less product), and the next
// 256 bytes the XORs of their halves (gcmSeal512's Karatsuba factors).
TEXT ·gcmPowers(SB), NOSPLIT, $0-8
	MOVQ    htab+0(FP), AX
	VMOVDQU gcmPoly<>(SB), X14
	VMOVDQU 240(AX), X1 // H·x^−1
	VMOVDQU X1, X0
	MOVQ    $224, BX

powers:
	VPCLMULQDQ $0x00, X1, X0, X5
	VPCLMULQDQ $0x11, X1, X0, X6
	VPCLMULQDQ $0x01, X1, X0, X7
	VPCLMULQDQ $0x10, X1, X0, X8
	VPXOR      X8, X7, X7
	REDUCE
	VMOVDQU    X0, (AX)(BX*1)
	SUBQ       $16, BX
	JCC        powers

	// The Karatsuba factors of the 16 entries.
	XORQ BX, BX

halves:
	VMOVDQU (AX)(BX*1), X0
	VPSHUFD $0x4e, X0, X1
	VPXOR   X1, X0, X0
	VMOVDQU X0, 256(AX)(BX*1)
	ADDQ    $16, BX
	CMPQ    BX, $256
	JB      halves

	VZEROALL
	RET
