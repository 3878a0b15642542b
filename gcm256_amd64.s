//go:build !purego

#include "textflag.h"

// AES-256-GCM's kernels with 256-bit VAES and VPCLMULQDQ (AVX2, no
// AVX-512): gcm_amd64.s's on YMM registers, two blocks per register, for
// the CPUs that have VAES and VPCLMULQDQ but not AVX-512 (AMD Zen 3, Intel
// Alder Lake and later client cores). The counter layout, GHASH's
// bit-reflected arithmetic, the powers of H in htab (H^i·x^−1, then the
// Karatsuba factors), the aggregation, the reduction and the constant-time
// argument are those of gcm_amd64.s. Only Y0…Y15 are used: VZEROALL clears
// every register that held a round key, a power of H or keystream. The
// round keys are broadcast from memory to both lanes as each round needs
// them (VBROADCASTI128), as in aesctr_amd64.s: sixteen registers do not
// hold them all.

DATA g2Bswap<>+0x00(SB)/8, $0x08090a0b0c0d0e0f
DATA g2Bswap<>+0x08(SB)/8, $0x0001020304050607
DATA g2Bswap<>+0x10(SB)/8, $0x08090a0b0c0d0e0f
DATA g2Bswap<>+0x18(SB)/8, $0x0001020304050607
GLOBL g2Bswap<>(SB), RODATA|NOPTR, $32

// g2Steps adds 0 and 1 to the counter dwords of the two lanes.
DATA g2Steps<>+0x00(SB)/8, $0
DATA g2Steps<>+0x08(SB)/8, $0
DATA g2Steps<>+0x10(SB)/8, $1
DATA g2Steps<>+0x18(SB)/8, $0
GLOBL g2Steps<>(SB), RODATA|NOPTR, $32

// g2Two adds 2 to the counter dword of each lane.
DATA g2Two<>+0x00(SB)/8, $2
DATA g2Two<>+0x08(SB)/8, $0
DATA g2Two<>+0x10(SB)/8, $2
DATA g2Two<>+0x18(SB)/8, $0
GLOBL g2Two<>(SB), RODATA|NOPTR, $32

DATA g2Poly<>+0x00(SB)/8, $0x0000000000000001
DATA g2Poly<>+0x08(SB)/8, $0xc200000000000000
GLOBL g2Poly<>(SB), RODATA|NOPTR, $16

// CTR2 sets y to the next two counter blocks XOR round key 0 (in Y10) and
// advances the counters in Y8.
#define CTR2(y) \
	VPSHUFB g2Bswap<>(SB), Y8, y; \
	VPADDD  g2Two<>(SB), Y8, Y8; \
	VPXOR   Y10, y, y

#define RND8(off) \
	VBROADCASTI128 off(AX), Y10; \
	VAESENC        Y10, Y0, Y0; \
	VAESENC        Y10, Y1, Y1; \
	VAESENC        Y10, Y2, Y2; \
	VAESENC        Y10, Y3, Y3; \
	VAESENC        Y10, Y4, Y4; \
	VAESENC        Y10, Y5, Y5; \
	VAESENC        Y10, Y6, Y6; \
	VAESENC        Y10, Y7, Y7

#define RND2(off) \
	VBROADCASTI128 off(AX), Y10; \
	VAESENC        Y10, Y0, Y0; \
	VAESENC        Y10, Y1, Y1

// func gcmCTR256(rk *[240]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmCTR256 is gcmCTR512 (gcm_amd64.s) on YMM registers: 16 blocks per
// iteration, then four at a time. nblocks must be a multiple of 4.
TEXT ·gcmCTR256(SB), NOSPLIT, $0-40
	MOVQ rk+0(FP), AX
	MOVQ dst+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), BX
	MOVQ ctr+32(FP), CX

	VBROADCASTI128 (CX), Y8
	VPSHUFB        g2Bswap<>(SB), Y8, Y8
	VPADDD         g2Steps<>(SB), Y8, Y8

loop16:
	CMPQ           BX, $16
	JB             loop4
	VBROADCASTI128 0(AX), Y10
	CTR2(Y0)
	CTR2(Y1)
	CTR2(Y2)
	CTR2(Y3)
	CTR2(Y4)
	CTR2(Y5)
	CTR2(Y6)
	CTR2(Y7)
	RND8(16)
	RND8(32)
	RND8(48)
	RND8(64)
	RND8(80)
	RND8(96)
	RND8(112)
	RND8(128)
	RND8(144)
	RND8(160)
	RND8(176)
	RND8(192)
	RND8(208)
	VBROADCASTI128 224(AX), Y10
	VAESENCLAST    Y10, Y0, Y0
	VAESENCLAST    Y10, Y1, Y1
	VAESENCLAST    Y10, Y2, Y2
	VAESENCLAST    Y10, Y3, Y3
	VAESENCLAST    Y10, Y4, Y4
	VAESENCLAST    Y10, Y5, Y5
	VAESENCLAST    Y10, Y6, Y6
	VAESENCLAST    Y10, Y7, Y7
	VPXOR          0(SI), Y0, Y0
	VPXOR          32(SI), Y1, Y1
	VPXOR          64(SI), Y2, Y2
	VPXOR          96(SI), Y3, Y3
	VPXOR          128(SI), Y4, Y4
	VPXOR          160(SI), Y5, Y5
	VPXOR          192(SI), Y6, Y6
	VPXOR          224(SI), Y7, Y7
	VMOVDQU        Y0, 0(DI)
	VMOVDQU        Y1, 32(DI)
	VMOVDQU        Y2, 64(DI)
	VMOVDQU        Y3, 96(DI)
	VMOVDQU        Y4, 128(DI)
	VMOVDQU        Y5, 160(DI)
	VMOVDQU        Y6, 192(DI)
	VMOVDQU        Y7, 224(DI)
	ADDQ           $256, SI
	ADDQ           $256, DI
	SUBQ           $16, BX
	JMP            loop16

loop4:
	TESTQ          BX, BX
	JZ             done
	VBROADCASTI128 0(AX), Y10
	CTR2(Y0)
	CTR2(Y1)
	RND2(16)
	RND2(32)
	RND2(48)
	RND2(64)
	RND2(80)
	RND2(96)
	RND2(112)
	RND2(128)
	RND2(144)
	RND2(160)
	RND2(176)
	RND2(192)
	RND2(208)
	VBROADCASTI128 224(AX), Y10
	VAESENCLAST    Y10, Y0, Y0
	VAESENCLAST    Y10, Y1, Y1
	VPXOR          0(SI), Y0, Y0
	VPXOR          32(SI), Y1, Y1
	VMOVDQU        Y0, 0(DI)
	VMOVDQU        Y1, 32(DI)
	ADDQ           $64, SI
	ADDQ           $64, DI
	SUBQ           $4, BX
	JMP            loop4

done:
	VZEROALL
	RET

// REDUCE2 sets X0 to the reduction of the 256-bit product whose low half is
// X5 ⊕ (X7 << 64) and high half X6 ⊕ (X7 >> 64); X14 holds g2Poly.
#define REDUCE2 \
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

// MULACC2 adds the products of the two blocks in b and the two powers at m
// to Y5, Y6, Y7.
#define MULACC2(b, m) \
	VPCLMULQDQ $0x00, m, b, Y8; \
	VPXOR      Y8, Y5, Y5; \
	VPCLMULQDQ $0x11, m, b, Y8; \
	VPXOR      Y8, Y6, Y6; \
	VPCLMULQDQ $0x01, m, b, Y8; \
	VPXOR      Y8, Y7, Y7; \
	VPCLMULQDQ $0x10, m, b, Y8; \
	VPXOR      Y8, Y7, Y7

// func ghash256(htab *[512]byte, y *[16]byte, src *byte, nblocks int)
//
// ghash256 is ghash512 (gcm_amd64.s) on YMM registers: 8 blocks per
// reduction, under htab's last eight powers, then the tail block by block
// under the last n powers, one reduction for all.
TEXT ·ghash256(SB), NOSPLIT, $0-32
	MOVQ htab+0(FP), AX
	MOVQ y+8(FP), CX
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), BX

	VBROADCASTI128 g2Bswap<>(SB), Y15
	VMOVDQU        g2Poly<>(SB), X14
	VMOVDQU        (CX), X0
	VPSHUFB        X15, X0, X0

loop8:
	CMPQ       BX, $8
	JB         tail
	VMOVDQU    0(SI), Y1
	VMOVDQU    32(SI), Y2
	VMOVDQU    64(SI), Y3
	VMOVDQU    96(SI), Y4
	VPSHUFB    Y15, Y1, Y1
	VPSHUFB    Y15, Y2, Y2
	VPSHUFB    Y15, Y3, Y3
	VPSHUFB    Y15, Y4, Y4
	VPXOR      Y0, Y1, Y1
	VPCLMULQDQ $0x00, 128(AX), Y1, Y5
	VPCLMULQDQ $0x11, 128(AX), Y1, Y6
	VPCLMULQDQ $0x01, 128(AX), Y1, Y7
	VPCLMULQDQ $0x10, 128(AX), Y1, Y8
	VPXOR      Y8, Y7, Y7
	MULACC2(Y2, 160(AX))
	MULACC2(Y3, 192(AX))
	MULACC2(Y4, 224(AX))
	VEXTRACTI128 $1, Y5, X8
	VPXOR      X8, X5, X5
	VEXTRACTI128 $1, Y6, X8
	VPXOR      X8, X6, X6
	VEXTRACTI128 $1, Y7, X8
	VPXOR      X8, X7, X7
	REDUCE2
	ADDQ       $128, SI
	SUBQ       $8, BX
	JMP        loop8

tail:
	// 0 ≤ BX < 8 blocks remain: block i of them takes htab[16−BX+i].
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
	REDUCE2

done:
	VPSHUFB X15, X0, X0
	VMOVDQU X0, (CX)
	VZEROALL
	RET

// The one-pass loop, 8 blocks per iteration (gcmSeal512's, halved).
// Register roles: AX the round keys; R8 htab (the powers H^8…H^1 are its
// entries 8…15, at 128…255, their Karatsuba factors at 384…511); CX y; DI
// dst; SI src; BX the blocks still to do; DX the first counter block;
// Y0…Y3 the AES states of 8 blocks; Y4…Y7 the 8 blocks of ciphertext,
// byte-reversed, for GHASH; Y8 the counters; Y9 and Y14 scratch; Y10 the
// round key of the moment; Y11, Y12, Y13 the sums of L, H and M, then the
// low, high and middle sums; X15 the running hash, byte-reversed.

#define RND4(off) \
	VBROADCASTI128 off(AX), Y10; \
	VAESENC        Y10, Y0, Y0; \
	VAESENC        Y10, Y1, Y1; \
	VAESENC        Y10, Y2, Y2; \
	VAESENC        Y10, Y3, Y3

#define LAST4 \
	VBROADCASTI128 224(AX), Y10; \
	VAESENCLAST    Y10, Y0, Y0; \
	VAESENCLAST    Y10, Y1, Y1; \
	VAESENCLAST    Y10, Y2, Y2; \
	VAESENCLAST    Y10, Y3, Y3

#define CTR8 \
	VBROADCASTI128 0(AX), Y10; \
	CTR2(Y0); \
	CTR2(Y1); \
	CTR2(Y2); \
	CTR2(Y3)

#define AES8 \
	CTR8; \
	RND4(16); \
	RND4(32); \
	RND4(48); \
	RND4(64); \
	RND4(80); \
	RND4(96); \
	RND4(112); \
	RND4(128); \
	RND4(144); \
	RND4(160); \
	RND4(176); \
	RND4(192); \
	RND4(208); \
	LAST4

#define H1 \
	VPCLMULQDQ $0x00, 160(R8), Y5, Y11; \
	VPCLMULQDQ $0x11, 160(R8), Y5, Y12

#define H2 \
	VPSHUFD    $0x4e, Y5, Y14; \
	VPXOR      Y5, Y14, Y14; \
	VPCLMULQDQ $0x00, 416(R8), Y14, Y13

#define HLOHI(b, m) \
	VPCLMULQDQ $0x00, m, b, Y14; \
	VPXOR      Y14, Y11, Y11; \
	VPCLMULQDQ $0x11, m, b, Y14; \
	VPXOR      Y14, Y12, Y12

#define HMID(b, m) \
	VPSHUFD    $0x4e, b, Y14; \
	VPXOR      b, Y14, Y14; \
	VPCLMULQDQ $0x00, m, Y14, Y9; \
	VPXOR      Y9, Y13, Y13

#define H3 HLOHI(Y6, 192(R8))
#define H4 HMID(Y6, 448(R8))
#define H5 HLOHI(Y7, 224(R8))
#define H6 HMID(Y7, 480(R8))
#define H7 HLOHI(Y4, 128(R8))
#define H8 HMID(Y4, 384(R8))

#define H9 \
	VEXTRACTI128 $1, Y11, X14; \
	VPXOR        X14, X11, X11

#define H10 \
	VEXTRACTI128 $1, Y12, X14; \
	VPXOR        X14, X12, X12

#define H11 \
	VEXTRACTI128 $1, Y13, X14; \
	VPXOR        X14, X13, X13; \
	VPXOR        X11, X13, X13; \
	VPXOR        X12, X13, X13

// H12 adds Y·H^8 (H^8·x^−1 is htab's entry 8).
#define H12 \
	VPCLMULQDQ $0x00, 128(R8), X15, X14; \
	VPXOR      X14, X11, X11; \
	VPCLMULQDQ $0x11, 128(R8), X15, X14; \
	VPXOR      X14, X12, X12; \
	VPCLMULQDQ $0x01, 128(R8), X15, X14; \
	VPXOR      X14, X13, X13; \
	VPCLMULQDQ $0x10, 128(R8), X15, X14; \
	VPXOR      X14, X13, X13

#define HREDUCE \
	VPCLMULQDQ $0x10, g2Poly<>(SB), X11, X14; \
	VPSHUFD    $0x4e, X11, X11; \
	VPXOR      X14, X11, X11

#define H13 \
	VPSLLDQ $8, X13, X14; \
	VPXOR   X14, X11, X11; \
	VPSRLDQ $8, X13, X13; \
	VPXOR   X13, X12, X12; \
	HREDUCE; \
	HREDUCE; \
	VPXOR   X12, X11, X15

#define GHASH8 H1; H2; H3; H4; H5; H6; H7; H8; H9; H10; H11; H12; H13

#define AESGHASH8 \
	CTR8; \
	RND4(16); H1; \
	RND4(32); H2; \
	RND4(48); H3; \
	RND4(64); H4; \
	RND4(80); H5; \
	RND4(96); H6; \
	RND4(112); H7; \
	RND4(128); H8; \
	RND4(144); H9; \
	RND4(160); H10; \
	RND4(176); H11; \
	RND4(192); H12; \
	RND4(208); H13; \
	LAST4

#define SEALSTORE8 \
	VPXOR   0(SI), Y0, Y0; \
	VPXOR   32(SI), Y1, Y1; \
	VPXOR   64(SI), Y2, Y2; \
	VPXOR   96(SI), Y3, Y3; \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI); \
	VPSHUFB g2Bswap<>(SB), Y0, Y4; \
	VPSHUFB g2Bswap<>(SB), Y1, Y5; \
	VPSHUFB g2Bswap<>(SB), Y2, Y6; \
	VPSHUFB g2Bswap<>(SB), Y3, Y7; \
	ADDQ    $128, SI; \
	ADDQ    $128, DI; \
	SUBQ    $8, BX

#define SETUP8 \
	VBROADCASTI128 (DX), Y8; \
	VPSHUFB        g2Bswap<>(SB), Y8, Y8; \
	VPADDD         g2Steps<>(SB), Y8, Y8; \
	VMOVDQU        (CX), X15; \
	VPSHUFB        g2Bswap<>(SB), X15, X15

#define FINISH8 \
	VPSHUFB g2Bswap<>(SB), X15, X15; \
	VMOVDQU X15, (CX); \
	VZEROALL

// func gcmSeal256(rk *[240]byte, htab *[512]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmSeal256 is gcmSeal512 on YMM registers; nblocks must be a positive
// multiple of 8.
TEXT ·gcmSeal256(SB), NOSPLIT, $0-56
	MOVQ rk+0(FP), AX
	MOVQ htab+8(FP), R8
	MOVQ y+16(FP), CX
	MOVQ dst+24(FP), DI
	MOVQ src+32(FP), SI
	MOVQ nblocks+40(FP), BX
	MOVQ ctr+48(FP), DX
	SETUP8
	AES8
	SEALSTORE8
	JZ   seal2Last

seal8:
	AESGHASH8
	SEALSTORE8
	JNZ seal8

seal2Last:
	GHASH8
	FINISH8
	RET

// func gcmOpen256(rk *[240]byte, htab *[512]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)
//
// gcmOpen256 is gcmOpen512 on YMM registers; nblocks must be a positive
// multiple of 8.
TEXT ·gcmOpen256(SB), NOSPLIT, $0-56
	MOVQ rk+0(FP), AX
	MOVQ htab+8(FP), R8
	MOVQ y+16(FP), CX
	MOVQ dst+24(FP), DI
	MOVQ src+32(FP), SI
	MOVQ nblocks+40(FP), BX
	MOVQ ctr+48(FP), DX
	SETUP8

open8:
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y6
	VMOVDQU 96(SI), Y7
	VPSHUFB g2Bswap<>(SB), Y4, Y4
	VPSHUFB g2Bswap<>(SB), Y5, Y5
	VPSHUFB g2Bswap<>(SB), Y6, Y6
	VPSHUFB g2Bswap<>(SB), Y7, Y7
	AESGHASH8
	VPXOR   0(SI), Y0, Y0
	VPXOR   32(SI), Y1, Y1
	VPXOR   64(SI), Y2, Y2
	VPXOR   96(SI), Y3, Y3
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $8, BX
	JNZ     open8

	FINISH8
	RET

DATA clmul2Probe<>+0x00(SB)/8, $0x0123456789abcdef
DATA clmul2Probe<>+0x08(SB)/8, $0xfedcba9876543210
DATA clmul2Probe<>+0x10(SB)/8, $0x8badf00ddeadbeef
DATA clmul2Probe<>+0x18(SB)/8, $0x0f1e2d3c4b5a6978
DATA clmul2Probe<>+0x20(SB)/8, $0xa5a5a5a55a5a5a5a
DATA clmul2Probe<>+0x28(SB)/8, $0x13579bdf02468ace
DATA clmul2Probe<>+0x30(SB)/8, $0xfeedfacecafebabe
DATA clmul2Probe<>+0x38(SB)/8, $0x0000000100000003
GLOBL clmul2Probe<>(SB), RODATA|NOPTR, $64

// CHECK2 compares the upper lane of Y2 (the 256-bit result) with the
// 128-bit form's on the upper lanes of Y0 and Y1 (X3 and X4), and the
// lower lane likewise, and clears AX if either differs.
#define CHECK2(imm) \
	VPCLMULQDQ   $imm, Y1, Y0, Y2; \
	VPCLMULQDQ   $imm, X4, X3, X5; \
	VEXTRACTI128 $1, Y2, X6; \
	VPCMPEQB     X5, X6, X6; \
	VPMOVMSKB    X6, DX; \
	CMPL         DX, $0xffff; \
	CMOVLNE      BX, AX; \
	VPCLMULQDQ   $imm, X1, X0, X5; \
	VPCMPEQB     X5, X2, X6; \
	VPMOVMSKB    X6, DX; \
	CMPL         DX, $0xffff; \
	CMOVLNE      BX, AX

// func clmul256LanesWork() bool
//
// clmul256LanesWork reports whether VPCLMULQDQ on YMM registers gives, in
// each lane and for each operand choice, what the 128-bit form gives on
// that lane alone. It uses public constants only.
TEXT ·clmul256LanesWork(SB), NOSPLIT, $0-1
	VMOVDQU      clmul2Probe<>+0(SB), Y0
	VMOVDQU      clmul2Probe<>+32(SB), Y1
	VEXTRACTI128 $1, Y0, X3
	VEXTRACTI128 $1, Y1, X4
	MOVL         $1, AX
	XORL         BX, BX
	CHECK2(0x00)
	CHECK2(0x01)
	CHECK2(0x10)
	CHECK2(0x11)
	MOVB         AX, ret+0(FP)
	VZEROUPPER
	RET
