//go:build !purego

package shamir

import (
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// AES-256-GCM in assembly for amd64 with VAES and VPCLMULQDQ: the same
// AEAD, byte for byte, as crypto/cipher.NewGCM over crypto/aes with 12-byte
// nonces and 16-byte tags. Seal and Open run counter mode and GHASH in one
// pass over each 256 bytes (gcmSeal512, gcmOpen512: 16 blocks per GHASH
// reduction, the AES rounds of one group interleaved with the
// multiplications of another), and the rest in two (gcmCTR512, then
// ghash512); without AVX-512, the same on 256-bit registers, 8 blocks per
// reduction (gcm256_amd64.s). On Zen 5, one core, 64 KiB: about 19 GB/s
// with the 512-bit kernels, 10 GB/s with the 256-bit ones, where
// crypto/cipher runs at 6 GB/s; the 512-bit loop without GHASH runs at
// 32 GB/s, GHASH alone at 22-24 GB/s, and the two passes one after the
// other at 12-13 GB/s.
//
// Like aesCTR (aesctr_amd64.go), it keeps its round keys, and the powers of
// the hash key H, in memory the package owns, so that wipe can erase them;
// crypto/aes and crypto/cipher offer no way to.

// useGCMAsm tells newAESGCM to use gcmAsm rather than crypto/cipher: where
// the AES-CTR assembly runs (useAESCTRAsm: VAES with AVX2, checked lane by
// lane), and where the CPU reports PCLMULQDQ and the 256-bit VPCLMULQDQ
// (CPUID leaf 7, ECX bit 10, which golang.org/x/sys/cpu reports only with
// AVX-512) and these compute each lane as the 128-bit form does
// (clmul256LanesWork, a check against emulators that misreport them).
var useGCMAsm = useAESCTRAsm && cpu.X86.HasPCLMULQDQ && cpuidLeaf7ECX(10) && clmul256LanesWork()

// useGCM512 tells gcmAsm to run its 512-bit kernels (gcm_amd64.s) rather
// than the 256-bit ones (gcm256_amd64.s): where the CPU has AVX-512 with
// its VAES and VPCLMULQDQ encodings, again checked lane by lane.
var useGCM512 = useGCMAsm && hasVAES512 && cpu.X86.HasAVX512VL &&
	cpu.X86.HasAVX512VPCLMULQDQ && clmulLanesWork()

// A gcmAsm is AES-256-GCM under one key. It is safe for concurrent use,
// until wipe.
type gcmAsm struct {
	rk   [15 * 16]byte     // the AES-256 round keys (aesctr_amd64.s)
	htab [2 * 16 * 16]byte // H^16·x^−1 … H^1·x^−1, byte-reversed, then their Karatsuba halves (gcm_amd64.s)
}

// newGCMAsm returns AES-256-GCM under the 32-byte key.
func newGCMAsm(key *[32]byte) *gcmAsm {
	g := new(gcmAsm)
	expandKeyAES256(key, &g.rk)

	// H is the encryption of the zero block. The table's last entry is
	// H·x^−1 in the lane form (the block, byte-reversed, as a 128-bit
	// little-endian integer): there, multiplying by x^−1 is a left shift by
	// one bit, with x^−1 itself (gcmPoly) added if the bit shifted out,
	// the coefficient of x^0, was set. The mask makes that choice without a
	// branch on the key.
	var h [16]byte
	ctrBlocksVAES(&g.rk, &h[0], 1, 0, 0)
	lo := binary.BigEndian.Uint64(h[8:])
	hi := binary.BigEndian.Uint64(h[:8])
	mask := -(hi >> 63)
	hi = hi<<1 | lo>>63
	lo <<= 1
	hi ^= mask & 0xc200000000000000
	lo ^= mask & 1
	binary.LittleEndian.PutUint64(g.htab[15*16:], lo)
	binary.LittleEndian.PutUint64(g.htab[15*16+8:], hi)
	clear(h[:])

	// The other powers, and their Karatsuba factors.
	gcmPowers(&g.htab)
	return g
}

// wipe erases the round keys and the powers of H. g must not be used after.
func (g *gcmAsm) wipe() { *g = gcmAsm{} }

func (*gcmAsm) NonceSize() int { return gcmNonceSize }
func (*gcmAsm) Overhead() int  { return gcmTagSize }

// Seal is crypto/cipher's GCM Seal: it appends to dst the encryption of
// plaintext and the tag over ad and it. It panics as crypto/cipher does on a
// nonce that is not 12 bytes, a plaintext over 2^36−32 bytes, or an output
// that overlaps ad, or plaintext other than exactly.
func (g *gcmAsm) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != gcmNonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if uint64(len(plaintext)) > gcmMaxPlaintext {
		panic("crypto/cipher: message too large for GCM")
	}
	ret, out := sliceForAppend(dst, len(plaintext)+gcmTagSize)
	if inexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if overlaps(out, ad) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	n := len(plaintext)
	if n <= gcmShortMax && len(ad) <= gcmShortAD {
		var ks [64]byte
		g.shortKeystream(&ks, nonce)
		subtle.XORBytes(out[:n], plaintext, ks[16:])
		g.shortTag((*[16]byte)(out[n:]), &ks, ad, out[:n])
		clear(ks[:])
		return ret
	}
	var ctr, mask, y [16]byte
	g.start(&ctr, &mask, nonce)
	g.hash(&y, ad)
	done := 0 // bytes sealed by the one-pass loop
	if m := onePassBlocks(n); m > 0 {
		if useGCM512 {
			gcmSeal512(&g.rk, &g.htab, &y, &out[0], &plaintext[0], m, &ctr)
		} else {
			gcmSeal256(&g.rk, &g.htab, &y, &out[0], &plaintext[0], m, &ctr)
		}
		addCounter(&ctr, m)
		done = 16 * m
	}
	g.ctrXOR(out[done:n], plaintext[done:], &ctr)
	g.hash(&y, out[done:n])
	g.finish((*[16]byte)(out[n:]), &y, &mask, len(ad), n)
	clear(ctr[:])
	return ret
}

// Open is crypto/cipher's GCM Open: it appends to dst the decryption of
// ciphertext, then checks the tag, in constant time. On a mismatch it
// clears what it wrote (as crypto/cipher does, and with it the ciphertext
// if it was decrypted in place) and returns crypto/cipher's error: no
// unauthenticated plaintext is returned or left in dst. It panics as Seal
// does.
func (g *gcmAsm) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != gcmNonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if len(ciphertext) < gcmTagSize || uint64(len(ciphertext)) > gcmMaxPlaintext+gcmTagSize {
		return nil, errGCMOpen
	}
	n := len(ciphertext) - gcmTagSize
	ret, out := sliceForAppend(dst, n)
	if inexactOverlap(out, ciphertext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if overlaps(out, ad) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	if n <= gcmShortMax && len(ad) <= gcmShortAD {
		var ks [64]byte
		var want [16]byte
		g.shortKeystream(&ks, nonce)
		g.shortTag(&want, &ks, ad, ciphertext[:n])
		if subtle.ConstantTimeCompare(want[:], ciphertext[n:]) != 1 {
			clear(ks[:])
			clear(out)
			return nil, errGCMOpen
		}
		subtle.XORBytes(out, ciphertext[:n], ks[16:])
		clear(ks[:])
		return ret, nil
	}
	// Decrypt and hash in one pass, as crypto/cipher does on amd64, then
	// clear the plaintext if the tag does not match: in place, the
	// ciphertext is then lost, as with crypto/cipher.
	var ctr, mask, y, want [16]byte
	g.start(&ctr, &mask, nonce)
	g.hash(&y, ad)
	done := 0
	if m := onePassBlocks(n); m > 0 {
		if useGCM512 {
			gcmOpen512(&g.rk, &g.htab, &y, &out[0], &ciphertext[0], m, &ctr)
		} else {
			gcmOpen256(&g.rk, &g.htab, &y, &out[0], &ciphertext[0], m, &ctr)
		}
		addCounter(&ctr, m)
		done = 16 * m
	}
	g.hash(&y, ciphertext[done:n]) // before ctrXOR overwrites it, in place
	g.ctrXOR(out[done:], ciphertext[done:n], &ctr)
	g.finish(&want, &y, &mask, len(ad), n)
	ok := subtle.ConstantTimeCompare(want[:], ciphertext[n:])
	clear(ctr[:])
	if ok != 1 {
		clear(out)
		return nil, errGCMOpen
	}
	return ret, nil
}

// onePassBlocks is the number of blocks of an n-byte message that
// gcmSeal512 and gcmOpen512 (16 at a time) or their 256-bit forms (8 at a
// time) take.
func onePassBlocks(n int) int {
	if useGCM512 {
		return n / 256 * 16
	}
	return n / 128 * 8
}

// ctrBlocks is gcmCTR512 or gcmCTR256.
func (g *gcmAsm) ctrBlocks(dst, src *byte, nblocks int, ctr *[16]byte) {
	if useGCM512 {
		gcmCTR512(&g.rk, dst, src, nblocks, ctr)
	} else {
		gcmCTR256(&g.rk, dst, src, nblocks, ctr)
	}
}

// ghash is ghash512 or ghash256.
func (g *gcmAsm) ghash(y *[16]byte, src *byte, nblocks int) {
	if useGCM512 {
		ghash512(&g.htab, y, src, nblocks)
	} else {
		ghash256(&g.htab, y, src, nblocks)
	}
}

// Messages of up to three blocks with up to gcmShortAD bytes of associated
// data (SSMS's last chunk of a short secret) take a short path of two
// kernel calls, where the general one makes six or more: one for the
// keystream of J0 and of the three blocks after it, one for the hash of the
// associated data, the ciphertext and the lengths, copied to one buffer.
// Open then checks the tag before it decrypts.
const (
	gcmShortMax = 48
	gcmShortAD  = 192
)

// shortKeystream sets ks to the keystream of J0 = nonce ‖ 00 00 00 01 and of
// the three counter blocks after it.
func (g *gcmAsm) shortKeystream(ks *[64]byte, nonce []byte) {
	var j0 [16]byte
	copy(j0[:], nonce)
	j0[15] = 1
	g.ctrBlocks(&ks[0], &ks[0], 4, &j0)
}

// shortTag sets tag to GCM's tag over ad and ct, given ks from
// shortKeystream.
func (g *gcmAsm) shortTag(tag *[16]byte, ks *[64]byte, ad, ct []byte) {
	var buf [gcmShortAD + gcmShortMax + 16]byte
	k := (copy(buf[:], ad) + 15) &^ 15
	k = (k + copy(buf[k:], ct) + 15) &^ 15
	binary.BigEndian.PutUint64(buf[k:], uint64(len(ad))*8)
	binary.BigEndian.PutUint64(buf[k+8:], uint64(len(ct))*8)
	var y [16]byte
	g.ghash(&y, &buf[0], k/16+1)
	subtle.XORBytes(tag[:], y[:], ks[:16])
}

// start sets ctr to the first counter block of the data, inc32(J0), and
// mask to the encryption of J0 = nonce ‖ 00 00 00 01, which masks the tag.
func (g *gcmAsm) start(ctr, mask *[16]byte, nonce []byte) {
	copy(ctr[:], nonce)
	ctr[15] = 1
	ctrBlocksVAES(&g.rk, &mask[0], 1, binary.BigEndian.Uint64(ctr[:8]), binary.BigEndian.Uint64(ctr[8:]))
	ctr[15] = 2
}

// addCounter advances the counter block by n blocks, modulo 2^32 in its
// last four bytes (inc32).
func addCounter(ctr *[16]byte, n int) {
	binary.BigEndian.PutUint32(ctr[12:], binary.BigEndian.Uint32(ctr[12:])+uint32(n))
}

// ctrXOR sets dst to src XOR the keystream from the counter block ctr, and
// advances ctr past it. len(dst) = len(src).
func (g *gcmAsm) ctrXOR(dst, src []byte, ctr *[16]byte) {
	if m := len(src) / 64 * 4; m > 0 {
		g.ctrBlocks(&dst[0], &src[0], m, ctr)
		addCounter(ctr, m)
		dst, src = dst[16*m:], src[16*m:]
	}
	if len(src) > 0 {
		var ks [64]byte
		g.ctrBlocks(&ks[0], &ks[0], 4, ctr)
		addCounter(ctr, (len(src)+15)/16)
		subtle.XORBytes(dst, src, ks[:])
		clear(ks[:])
	}
}

// finish sets tag to the hash y, completed with the lengths of the
// associated data and the ciphertext in bits, XOR mask; it clears mask.
func (g *gcmAsm) finish(tag, y, mask *[16]byte, adLen, ctLen int) {
	var lens [16]byte
	binary.BigEndian.PutUint64(lens[:8], uint64(adLen)*8)
	binary.BigEndian.PutUint64(lens[8:], uint64(ctLen)*8)
	g.ghash(y, &lens[0], 1)
	subtle.XORBytes(tag[:], y[:], mask[:])
	clear(mask[:])
}

// hash adds p to the GHASH state y, its last block padded with zeros.
func (g *gcmAsm) hash(y *[16]byte, p []byte) {
	if n := len(p) / 16; n > 0 {
		g.ghash(y, &p[0], n)
		p = p[16*n:]
	}
	if len(p) > 0 {
		var b [16]byte
		copy(b[:], p)
		g.ghash(y, &b[0], 1)
	}
}

// gcmCTR512 sets dst[:16·nblocks] to src[:16·nblocks] XOR the keystream
// from the counter block ctr, incremented as GCM's inc32. nblocks must be a
// multiple of 4; dst and src must be the same or not overlap.
//
//go:noescape
func gcmCTR512(rk *[15 * 16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

// gcmPowers computes the rest of htab from its entry 15, H·x^−1.
//
//go:noescape
func gcmPowers(htab *[2 * 16 * 16]byte)

// gcmSeal512 is gcmCTR512 from src to dst, then ghash512 over dst, in one
// pass, for nblocks a positive multiple of 16.
//
//go:noescape
func gcmSeal512(rk *[15 * 16]byte, htab *[2 * 16 * 16]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

// gcmOpen512 is ghash512 over src, then gcmCTR512 from src to dst, in one
// pass, for nblocks a positive multiple of 16.
//
//go:noescape
func gcmOpen512(rk *[15 * 16]byte, htab *[2 * 16 * 16]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

// ghash512 adds the nblocks blocks at src to the GHASH state y, under the
// powers of H in htab.
//
//go:noescape
func ghash512(htab *[2 * 16 * 16]byte, y *[16]byte, src *byte, nblocks int)

// gcmCTR256, ghash256, gcmSeal256 and gcmOpen256 are the kernels above on
// 256-bit registers, for CPUs without AVX-512 (gcm256_amd64.s): the one-pass
// forms take a positive multiple of 8 blocks.
//
//go:noescape
func gcmCTR256(rk *[15 * 16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

//go:noescape
func ghash256(htab *[2 * 16 * 16]byte, y *[16]byte, src *byte, nblocks int)

//go:noescape
func gcmSeal256(rk *[15 * 16]byte, htab *[2 * 16 * 16]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

//go:noescape
func gcmOpen256(rk *[15 * 16]byte, htab *[2 * 16 * 16]byte, y *[16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

// clmul256LanesWork reports whether the 256-bit VPCLMULQDQ computes each
// lane as the 128-bit form does. It needs AVX2 and VPCLMULQDQ.
func clmul256LanesWork() bool

// clmulLanesWork reports whether the 512-bit VPCLMULQDQ computes each lane
// as the 128-bit form does. It needs AVX-512 and VPCLMULQDQ.
func clmulLanesWork() bool

const (
	gcmNonceSize = 12
	gcmTagSize   = 16

	// gcmMaxPlaintext is the longest plaintext GCM seals with a 12-byte
	// nonce: 2^32−2 blocks, so that the 32-bit counter never returns to
	// the one that masks the tag.
	gcmMaxPlaintext = (1<<32 - 2) * 16
)

// errGCMOpen is the error of a failed Open: crypto/cipher's, word for word.
var errGCMOpen = errors.New("cipher: message authentication failed")

// sliceForAppend extends in by n bytes, in place if it has the capacity,
// and returns the result and its last n bytes, as crypto/cipher does.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}

// inexactOverlap reports whether x and y share memory other than at the
// same start, which in-place encryption allows.
func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || unsafe.SliceData(x) == unsafe.SliceData(y) {
		return false
	}
	return overlaps(x, y)
}
