//go:build !purego

#include "textflag.h"

// AES-256-CTR keystream with EVEX-encoded 512-bit VAES: ctrBlocksVAES's loop
// (aesctr_amd64.s) on ZMM registers, four blocks per VAESENC. The round
// keys, the counter layout and the constant-time argument are those of
// aesctr_amd64.s: each 128-bit lane of Z8 holds a counter as (lo, hi)
// little-endian quadwords, VPADDQ advances lo without carrying into hi (the
// caller keeps lo from wrapping within a call), and VPSHUFB with the
// byte-reversal mask turns a lane into a counter block. Every address is rk
// plus a constant or dst plus a multiple of 64; the one branch depends on
// nblocks alone. Only Z0…Z15 are used, so that VZEROALL clears every
// register that held a round key or keystream.

// bswapMask512 reverses the bytes of each 128-bit lane.
DATA bswapMask512<>+0x00(SB)/8, $0x08090a0b0c0d0e0f
DATA bswapMask512<>+0x08(SB)/8, $0x0001020304050607
GLOBL bswapMask512<>(SB), RODATA|NOPTR, $16

// laneSteps adds 0, 1, 2, 3 to the low quadwords of the four lanes: a
// counter broadcast to every lane becomes those of four consecutive blocks.
DATA laneSteps<>+0x00(SB)/8, $0
DATA laneSteps<>+0x08(SB)/8, $0
DATA laneSteps<>+0x10(SB)/8, $1
DATA laneSteps<>+0x18(SB)/8, $0
DATA laneSteps<>+0x20(SB)/8, $2
DATA laneSteps<>+0x28(SB)/8, $0
DATA laneSteps<>+0x30(SB)/8, $3
DATA laneSteps<>+0x38(SB)/8, $0
GLOBL laneSteps<>(SB), RODATA|NOPTR, $64

// laneFour adds 4 to the low quadword of a lane: the next four blocks.
DATA laneFour<>+0x00(SB)/8, $4
DATA laneFour<>+0x08(SB)/8, $0
GLOBL laneFour<>(SB), RODATA|NOPTR, $16

// Register roles: AX rk; DI dst; BX the blocks still to write; Z0…Z7 the
// AES states of 32 blocks, four per register; Z8 the counters of the next
// four blocks; Z9 laneFour in every lane; Z10 the byte-reversal mask in
// every lane; Z11…Z15 round keys broadcast to every lane, in turn.

#define COUNTER512(z) \
	VPSHUFB Z10, Z8, z; \
	VPADDQ  Z9, Z8, Z8; \
	VPXORQ  Z11, z, z

#define ROUND512(off, k) \
	VBROADCASTI32X4 off(AX), k; \
	VAESENC         k, Z0, Z0; \
	VAESENC         k, Z1, Z1; \
	VAESENC         k, Z2, Z2; \
	VAESENC         k, Z3, Z3; \
	VAESENC         k, Z4, Z4; \
	VAESENC         k, Z5, Z5; \
	VAESENC         k, Z6, Z6; \
	VAESENC         k, Z7, Z7

// func ctrBlocksVAES512(rk *[240]byte, dst *byte, nblocks int, hi, lo uint64)
//
// ctrBlocksVAES512 writes the keystream of nblocks blocks to
// dst[0:16*nblocks], the first being the encryption of the counter (hi, lo).
// nblocks must be a positive multiple of 32, and lo+nblocks ≤ 2^64.
TEXT ·ctrBlocksVAES512(SB), NOSPLIT, $0-40
	MOVQ rk+0(FP), AX
	MOVQ dst+8(FP), DI
	MOVQ nblocks+16(FP), BX
	MOVQ hi+24(FP), CX
	MOVQ lo+32(FP), DX

	VMOVQ           DX, X8
	VPINSRQ         $1, CX, X8, X8
	VSHUFI64X2      $0, Z8, Z8, Z8
	VPADDQ          laneSteps<>(SB), Z8, Z8
	VBROADCASTI32X4 laneFour<>(SB), Z9
	VBROADCASTI32X4 bswapMask512<>(SB), Z10

loop:
	VBROADCASTI32X4 0(AX), Z11
	COUNTER512(Z0)
	COUNTER512(Z1)
	COUNTER512(Z2)
	COUNTER512(Z3)
	COUNTER512(Z4)
	COUNTER512(Z5)
	COUNTER512(Z6)
	COUNTER512(Z7)
	ROUND512(16, Z12)
	ROUND512(32, Z13)
	ROUND512(48, Z14)
	ROUND512(64, Z15)
	ROUND512(80, Z11)
	ROUND512(96, Z12)
	ROUND512(112, Z13)
	ROUND512(128, Z14)
	ROUND512(144, Z15)
	ROUND512(160, Z11)
	ROUND512(176, Z12)
	ROUND512(192, Z13)
	ROUND512(208, Z14)
	VBROADCASTI32X4 224(AX), Z15
	VAESENCLAST     Z15, Z0, Z0
	VAESENCLAST     Z15, Z1, Z1
	VAESENCLAST     Z15, Z2, Z2
	VAESENCLAST     Z15, Z3, Z3
	VAESENCLAST     Z15, Z4, Z4
	VAESENCLAST     Z15, Z5, Z5
	VAESENCLAST     Z15, Z6, Z6
	VAESENCLAST     Z15, Z7, Z7
	VMOVDQU64       Z0, 0(DI)
	VMOVDQU64       Z1, 64(DI)
	VMOVDQU64       Z2, 128(DI)
	VMOVDQU64       Z3, 192(DI)
	VMOVDQU64       Z4, 256(DI)
	VMOVDQU64       Z5, 320(DI)
	VMOVDQU64       Z6, 384(DI)
	VMOVDQU64       Z7, 448(DI)
	ADDQ            $512, DI
	SUBQ            $32, BX
	JNZ             loop

	VZEROALL
	RET
