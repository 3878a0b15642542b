//go:build !purego

#include "textflag.h"

// AES-256-CTR keystream with VEX-encoded 256-bit VAES, and the AES-256 key
// schedule with AESKEYGENASSIST. See aesctr_amd64.go.
//
// Round keys. rk holds the 15 round keys of AES-256 encryption, 16 bytes
// each, in the order the rounds use them: rk[0:16] is XORed into the block,
// rk[16:32]…rk[208:224] are the keys of the 13 AESENC rounds, rk[224:240]
// that of AESENCLAST. The block loop broadcasts each to both 128-bit lanes of
// a YMM register with VBROADCASTI128, so one VAESENC applies a round to two
// blocks.
//
// Counter layout. Block n of the stream is the encryption of the counter
// iv+n, a 128-bit big-endian number: bytes 0…7 of the block are the high 64
// bits (hi), bytes 8…15 the low 64 bits (lo). In Y8, each 128-bit lane holds
// one counter as two little-endian quadwords, lo in quadword 0 and hi in
// quadword 1, so that VPADDQ advances lo. Reversing the 16 bytes of a lane
// (VPSHUFB with ·bswapMask) turns it into the block layout: byte 15−i of the
// lane, i.e. byte 7−i of lo for i < 8, becomes byte i. VPADDQ does not carry
// from lo into hi; the caller splits its calls so that lo does not wrap
// within one (lo+nblocks ≤ 2^64), so no block it stores needs a carry.
//
// Constant time. AESENC, AESENCLAST and AESKEYGENASSIST (and their VEX
// forms) take a time independent of their operands; there are no table
// lookups. The key, round keys and keystream only go through these, XOR,
// shuffles, shifts, loads and stores. Every address is rk plus a constant or
// dst plus a multiple of 16, and every branch depends only on nblocks.

// bswapMask reverses the bytes of each 128-bit lane: byte i of the result is
// byte 15−i of the source.
DATA bswapMask<>+0x00(SB)/8, $0x08090a0b0c0d0e0f
DATA bswapMask<>+0x08(SB)/8, $0x0001020304050607
DATA bswapMask<>+0x10(SB)/8, $0x08090a0b0c0d0e0f
DATA bswapMask<>+0x18(SB)/8, $0x0001020304050607
GLOBL bswapMask<>(SB), RODATA|NOPTR, $32

// laneOne adds 1 to the low quadword of the upper lane: (lo, hi, lo, hi)
// becomes the counters of two consecutive blocks.
DATA laneOne<>+0x00(SB)/8, $0
DATA laneOne<>+0x08(SB)/8, $0
DATA laneOne<>+0x10(SB)/8, $1
DATA laneOne<>+0x18(SB)/8, $0
GLOBL laneOne<>(SB), RODATA|NOPTR, $32

// laneTwo adds 2 to the low quadword of both lanes: the next pair of blocks.
DATA laneTwo<>+0x00(SB)/8, $2
DATA laneTwo<>+0x08(SB)/8, $0
DATA laneTwo<>+0x10(SB)/8, $2
DATA laneTwo<>+0x18(SB)/8, $0
GLOBL laneTwo<>(SB), RODATA|NOPTR, $32

// Register roles of ctrBlocksVAES:
//
//	AX       rk, the round keys
//	DI       dst: where the next block goes
//	BX       the number of blocks still to write
//	CX, DX   hi and lo of the first counter (only while Y8 is set up)
//	Y0…Y7    the AES states of 16 blocks, two per register: Yk holds blocks
//	         2k (lower lane) and 2k+1 (upper lane) of the current group
//	Y8       the counters of the next two blocks (lower lane, upper lane),
//	         in the quadword layout above
//	Y9       laneTwo
//	Y10      bswapMask
//	Y11…Y15  round keys, broadcast to both lanes; Y11 holds round key 0
//	         while the counters are whitened, then the five take the round
//	         keys in turn, so a key's load need not wait for the rounds
//	         that use the previous contents of its register

// COUNTER sets y to the next two counter blocks XOR round key 0 and advances
// Y8 by two blocks.
#define COUNTER(y) \
	VPSHUFB Y10, Y8, y; \
	VPADDQ  Y9, Y8, Y8; \
	VPXOR   Y11, y, y

// ROUND loads the round key at off(AX) into k and applies an AESENC round to
// the 16 blocks.
#define ROUND(off, k) \
	VBROADCASTI128 off(AX), k; \
	VAESENC        k, Y0, Y0; \
	VAESENC        k, Y1, Y1; \
	VAESENC        k, Y2, Y2; \
	VAESENC        k, Y3, Y3; \
	VAESENC        k, Y4, Y4; \
	VAESENC        k, Y5, Y5; \
	VAESENC        k, Y6, Y6; \
	VAESENC        k, Y7, Y7

// BLOCKS16 computes the keystream of the next 16 blocks into Y0…Y7: eight
// independent chains of 14 rounds, enough to keep the AES units busy while
// each VAESENC's result is pending.
#define BLOCKS16 \
	VBROADCASTI128 0(AX), Y11; \
	COUNTER(Y0); \
	COUNTER(Y1); \
	COUNTER(Y2); \
	COUNTER(Y3); \
	COUNTER(Y4); \
	COUNTER(Y5); \
	COUNTER(Y6); \
	COUNTER(Y7); \
	ROUND(16, Y12); \
	ROUND(32, Y13); \
	ROUND(48, Y14); \
	ROUND(64, Y15); \
	ROUND(80, Y11); \
	ROUND(96, Y12); \
	ROUND(112, Y13); \
	ROUND(128, Y14); \
	ROUND(144, Y15); \
	ROUND(160, Y11); \
	ROUND(176, Y12); \
	ROUND(192, Y13); \
	ROUND(208, Y14); \
	VBROADCASTI128 224(AX), Y15; \
	VAESENCLAST    Y15, Y0, Y0; \
	VAESENCLAST    Y15, Y1, Y1; \
	VAESENCLAST    Y15, Y2, Y2; \
	VAESENCLAST    Y15, Y3, Y3; \
	VAESENCLAST    Y15, Y4, Y4; \
	VAESENCLAST    Y15, Y5, Y5; \
	VAESENCLAST    Y15, Y6, Y6; \
	VAESENCLAST    Y15, Y7, Y7

// func ctrBlocksVAES(rk *[240]byte, dst *byte, nblocks int, hi, lo uint64)
//
// ctrBlocksVAES writes the keystream of nblocks ≥ 0 blocks to
// dst[0:16*nblocks], the first being the encryption of the counter (hi, lo).
// It requires lo+nblocks ≤ 2^64. It stores only inside dst[0:16*nblocks].
TEXT ·ctrBlocksVAES(SB), NOSPLIT, $0-40
	MOVQ rk+0(FP), AX
	MOVQ dst+8(FP), DI
	MOVQ nblocks+16(FP), BX
	MOVQ hi+24(FP), CX
	MOVQ lo+32(FP), DX

	// Y8 = (lo, hi | lo+1, hi): the counters of blocks 0 and 1.
	VMOVQ       DX, X8
	VPINSRQ     $1, CX, X8, X8
	VINSERTI128 $1, X8, Y8, Y8
	VPADDQ      laneOne<>(SB), Y8, Y8
	VMOVDQU     laneTwo<>(SB), Y9
	VMOVDQU     bswapMask<>(SB), Y10

	CMPQ BX, $16
	JB   tail

	// Invariant at loop: Y8 holds the counters of the next two blocks to
	// write, DI points where the first of them goes, BX ≥ 16 blocks remain.
loop:
	BLOCKS16
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	ADDQ    $256, DI
	SUBQ    $16, BX
	CMPQ    BX, $16
	JAE     loop

tail:
	// 0 ≤ BX < 16 blocks remain. Compute a whole group of 16 (its latency
	// is that of one chain anyway) and store only the first BX blocks: the
	// register pairs whose both blocks are wanted in full, then the lower
	// lane of the next if BX is odd. The counters of the blocks not stored
	// may have wrapped in lo; they are discarded.
	TESTQ BX, BX
	JZ    done
	BLOCKS16
	CMPQ    BX, $2
	JB      half0
	VMOVDQU Y0, 0(DI)
	CMPQ    BX, $4
	JB      half1
	VMOVDQU Y1, 32(DI)
	CMPQ    BX, $6
	JB      half2
	VMOVDQU Y2, 64(DI)
	CMPQ    BX, $8
	JB      half3
	VMOVDQU Y3, 96(DI)
	CMPQ    BX, $10
	JB      half4
	VMOVDQU Y4, 128(DI)
	CMPQ    BX, $12
	JB      half5
	VMOVDQU Y5, 160(DI)
	CMPQ    BX, $14
	JB      half6
	VMOVDQU Y6, 192(DI)
	JMP     half7

	// At halfK, 2K ≤ BX < 2K+2: block 2K, the lower lane of YK, is wanted
	// if BX is odd.
half0:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X0, 0(DI)
	JMP     done
half1:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X1, 32(DI)
	JMP     done
half2:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X2, 64(DI)
	JMP     done
half3:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X3, 96(DI)
	JMP     done
half4:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X4, 128(DI)
	JMP     done
half5:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X5, 160(DI)
	JMP     done
half6:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X6, 192(DI)
	JMP     done
half7:
	TESTQ   $1, BX
	JZ      done
	VMOVDQU X7, 224(DI)

done:
	// Zero all sixteen vector registers, which held round keys and
	// keystream, and leave the upper halves clean for SSE code.
	VZEROALL
	RET

// PREFIXXOR sets each 32-bit word of x to the XOR of it and the words below
// it: (w0, w1, w2, w3) becomes (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3), as the
// key schedule chains its words. t is scratch.
#define PREFIXXOR(x, t) \
	MOVO   x, t; \
	PSLLDQ $4, t; \
	PXOR   t, x; \
	PSLLDQ $4, t; \
	PXOR   t, x; \
	PSLLDQ $4, t; \
	PXOR   t, x

// EVEN computes the round key at off(DI) from the two before it, X0 (words
// 8i…8i+3 of the schedule) and X1 (words 8i+4…8i+7): each new word is the one
// eight before it XOR the one before it, the first taking
// SubWord(RotWord(w[8i+7])) XOR rcon. AESKEYGENASSIST puts
// RotWord(SubWord(X1 word 3)) XOR rcon in word 3 of X2; PSHUFD copies it to
// all four words (RotWord and SubWord commute). The result replaces X0.
#define EVEN(rcon, off) \
	AESKEYGENASSIST $rcon, X1, X2; \
	PSHUFD          $0xff, X2, X2; \
	PREFIXXOR(X0, X3); \
	PXOR            X2, X0; \
	MOVOU           X0, off(DI)

// ODD computes the round key at off(DI) from X1 and the new X0 in the same
// way, the first new word taking SubWord(X0 word 3), without rotation or
// rcon: word 2 of AESKEYGENASSIST's result. The result replaces X1.
#define ODD(off) \
	AESKEYGENASSIST $0, X0, X2; \
	PSHUFD          $0xaa, X2, X2; \
	PREFIXXOR(X1, X3); \
	PXOR            X2, X1; \
	MOVOU           X1, off(DI)

// func expandKeyAES256(key *[32]byte, rk *[240]byte)
//
// expandKeyAES256 writes the AES-256 encryption key schedule of key to rk
// (FIPS 197, section 5.2), in the layout ctrBlocksVAES reads.
TEXT ·expandKeyAES256(SB), NOSPLIT, $0-16
	MOVQ  key+0(FP), AX
	MOVQ  rk+8(FP), DI
	MOVOU 0(AX), X0
	MOVOU 16(AX), X1
	MOVOU X0, 0(DI)
	MOVOU X1, 16(DI)
	EVEN(0x01, 32)
	ODD(48)
	EVEN(0x02, 64)
	ODD(80)
	EVEN(0x04, 96)
	ODD(112)
	EVEN(0x08, 128)
	ODD(144)
	EVEN(0x10, 160)
	ODD(176)
	EVEN(0x20, 192)
	ODD(208)
	EVEN(0x40, 224)

	// The registers held the key.
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
	RET

// probeBytes are the inputs of vaesLanesWork: two states and two round
// keys, all four different.
DATA probeBytes<>+0x00(SB)/8, $0x0706050403020100
DATA probeBytes<>+0x08(SB)/8, $0x0f0e0d0c0b0a0908
DATA probeBytes<>+0x10(SB)/8, $0x1716151413121110
DATA probeBytes<>+0x18(SB)/8, $0x1f1e1d1c1b1a1918
DATA probeBytes<>+0x20(SB)/8, $0x2726252423222120
DATA probeBytes<>+0x28(SB)/8, $0x2f2e2d2c2b2a2928
DATA probeBytes<>+0x30(SB)/8, $0x3736353433323130
DATA probeBytes<>+0x38(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL probeBytes<>(SB), RODATA|NOPTR, $64

// func vaesLanesWork() bool
//
// vaesLanesWork reports whether VAESENC and VAESENCLAST on YMM registers
// give, in each 128-bit lane, what their 128-bit forms give on that lane
// alone. Real CPUs do; qemu 7.2 (-cpu max) reports VAES but computes the
// upper lane from the lower lane's state. It uses public constants only.
TEXT ·vaesLanesWork(SB), NOSPLIT, $0-1
	VMOVDQU probeBytes<>+0(SB), Y0  // states (lower lane, upper lane)
	VMOVDQU probeBytes<>+32(SB), Y1 // round keys (lower lane, upper lane)

	// Both lanes at once, in place as the block loop does.
	VMOVDQU     Y0, Y2
	VAESENC     Y1, Y2, Y2
	VAESENCLAST Y1, Y2, Y2

	// Each lane on its own: the lower in X3, the upper in X4.
	VAESENC      X1, X0, X3
	VAESENCLAST  X1, X3, X3
	VEXTRACTI128 $1, Y0, X4
	VEXTRACTI128 $1, Y1, X5
	VAESENC      X5, X4, X4
	VAESENCLAST  X5, X4, X4
	VINSERTI128  $1, X4, Y3, Y3

	VPCMPEQB  Y2, Y3, Y3
	VPMOVMSKB Y3, AX
	CMPL      AX, $0xffffffff
	SETEQ     ret+0(FP)
	VZEROUPPER
	RET
