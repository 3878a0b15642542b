//go:build !purego

package shamir

import (
	"encoding/binary"
)

// AES-256-CTR in assembly for amd64 with VAES: the keystream is written
// straight into the caller's buffer, 16 blocks per loop iteration, two per
// VAESENC on 256-bit registers, or, where the CPU has AVX-512 and its VAES
// encoding, runs of 32 blocks per iteration, four per VAESENC on 512-bit
// registers (aesctr512_amd64.s): 33.7 GB/s against 18.5 GB/s on Zen 5
// (interleaved, one core, 4 KiB to 1 MiB reads). It is the same stream as crypto/cipher's
// NewCTR over crypto/aes: block n is AES-256 of the 128-bit big-endian
// counter iv+n, carrying across all 128 bits and wrapping at 2^128.
//
// The key schedule is computed here too, with AESKEYGENASSIST: in constant
// time, with no S-box table (as crypto/aes also does where it has AES-NI,
// unlike its portable code), and into memory the package owns, so that the
// keystream can erase the round keys when it ends (wipe), which crypto/aes
// offers no way to do.

// useAESCTRAsm tells newAESCTR to use aesCTR rather than crypto/cipher:
// where the CPU reports VAES and its 256-bit AES rounds work lane by lane.
// The check runs a few instructions once, at start-up. It keeps emulators
// that report VAES but implement it wrongly (qemu 7.2's -cpu max) on the
// standard library's stream instead of a wrong one. A fault in the loop
// itself is the tests' to find: this checks the instructions, not the code.
var useAESCTRAsm = hasVAES && vaesLanesWork()

// useVAES512 tells aesCTR.read to compute runs of 32 blocks and more with
// 512-bit VAES (ctrBlocksVAES512), where the CPU has it.
var useVAES512 = useAESCTRAsm && hasVAES512

// An aesCTR is the AES-256-CTR keystream generator in assembly. The zero
// value is not ready: init it.
type aesCTR struct {
	rk     [15 * 16]byte // the round keys (layout in aesctr_amd64.s)
	hi, lo uint64        // the counter of the next block to compute
	buf    [16]byte      // the keystream of the block before it, if it was cut
	off    int           // buf[off:] is not handed out yet
	ready  bool          // init ran and wipe has not
}

// aesCTRAsm names the implementation in tests and benchmarks.
const aesCTRAsm = "vaes"

// init starts the keystream of key from counter iv.
func (a *aesCTR) init(key *[32]byte, iv *[16]byte) {
	expandKeyAES256(key, &a.rk)
	a.hi = binary.BigEndian.Uint64(iv[:8])
	a.lo = binary.BigEndian.Uint64(iv[8:])
	a.off = len(a.buf)
	a.ready = true
}

// read fills p with the next len(p) bytes of the keystream. Reads of any
// sizes concatenate to the same stream: the rest of a block cut by one read
// waits in buf for the next.
func (a *aesCTR) read(p []byte) {
	if !a.ready {
		panic("shamir: keystream read after wipe")
	}
	if a.off < len(a.buf) {
		n := copy(p, a.buf[a.off:])
		clear(a.buf[a.off : a.off+n])
		a.off += n
		p = p[n:]
	}
	for len(p) >= 16 {
		n := uint64(len(p) / 16)
		// The assembly does not carry from lo into hi: stop this call at
		// the wrap of lo, which then carries here. lo == 0 leaves 2^64
		// blocks before the wrap, more than p can hold.
		if a.lo != 0 && n > -a.lo {
			n = -a.lo
		}
		if m := n &^ 31; useVAES512 && m > 0 {
			ctrBlocksVAES512(&a.rk, &p[0], int(m), a.hi, a.lo)
			a.advance(m)
			p = p[16*m:]
			n -= m
			if n == 0 {
				continue
			}
		}
		ctrBlocksVAES(&a.rk, &p[0], int(n), a.hi, a.lo)
		a.advance(n)
		p = p[16*n:]
	}
	if len(p) > 0 {
		ctrBlocksVAES(&a.rk, &a.buf[0], 1, a.hi, a.lo)
		a.advance(1)
		a.off = copy(p, a.buf[:])
		clear(a.buf[:a.off])
	}
}

// advance moves the counter n blocks on, carrying across the 128 bits; n
// must not take lo past one wrap.
func (a *aesCTR) advance(n uint64) {
	a.lo += n
	if a.lo < n {
		a.hi++
	}
}

// wipe erases the round keys and the unread keystream; read panics after it.
func (a *aesCTR) wipe() {
	*a = aesCTR{}
}

// ctrBlocksVAES writes the keystream of nblocks blocks, from the counter
// (hi, lo), to the 16·nblocks bytes at dst. It requires lo+nblocks ≤ 2^64
// (the low 64 bits do not wrap within the call).
//
//go:noescape
func ctrBlocksVAES(rk *[15 * 16]byte, dst *byte, nblocks int, hi, lo uint64)

// vaesLanesWork reports whether the 256-bit VAESENC and VAESENCLAST compute
// each 128-bit lane as their 128-bit forms do. It needs hasVAES.
func vaesLanesWork() bool

// expandKeyAES256 writes the encryption round keys of key to rk.
//
//go:noescape
func expandKeyAES256(key *[32]byte, rk *[15 * 16]byte)

// ctrBlocksVAES512 is ctrBlocksVAES with 512-bit VAES, for nblocks a
// positive multiple of 32 (aesctr512_amd64.s). It needs hasVAES512.
//
//go:noescape
func ctrBlocksVAES512(rk *[15 * 16]byte, dst *byte, nblocks int, hi, lo uint64)
