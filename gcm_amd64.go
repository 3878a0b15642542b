//go:build !purego

package shamir

import (
	"crypto/subtle"
	"encoding/binary"

	"golang.org/x/sys/cpu"
)

// AES-256-GCM in assembly for amd64 with 512-bit VAES and VPCLMULQDQ
// (gcm_amd64.s): the same AEAD, byte for byte, as crypto/cipher.NewGCM over
// crypto/aes with 12-byte nonces and 16-byte tags, in two passes over the
// data: counter mode, 32 blocks per loop iteration, then GHASH over the
// ciphertext, 16 blocks per reduction. Open hashes first and decrypts only
// if the tag matches.
//
// Like aesCTR (aesctr_amd64.go), it keeps its round keys, and the powers of
// the hash key H, in memory the package owns, so that wipe can erase them;
// crypto/aes and crypto/cipher offer no way to.

// useGCMAsm tells newAESGCM to use gcmAsm rather than crypto/cipher: where
// the AES-CTR assembly runs (useAESCTRAsm: VAES, checked lane by lane), with
// its 512-bit form, and where the CPU reports PCLMULQDQ and its 512-bit
// VPCLMULQDQ and these compute each lane as the 128-bit form does
// (clmulLanesWork, a check against emulators that misreport them).
var useGCMAsm = useAESCTRAsm && hasVAES512 && cpu.X86.HasAVX512VL &&
	cpu.X86.HasPCLMULQDQ && cpu.X86.HasAVX512VPCLMULQDQ && clmulLanesWork()

// gcmAsmName names the implementation in tests and benchmarks.
const gcmAsmName = "vaes512"

// A gcmAsm is AES-256-GCM under one key. It is safe for concurrent use,
// until wipe.
type gcmAsm struct {
	rk   [15 * 16]byte // the AES-256 round keys (aesctr_amd64.s)
	htab [16 * 16]byte // H^16·x^−1 … H^1·x^−1, byte-reversed (gcm_amd64.s)
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

	// H^i·x^−1 = (H^(i−1)·x^−1)·H: one GHASH step from a zero state over
	// the block form of the previous power, under htab's last entry alone.
	var y, b [16]byte
	for i := 14; i >= 0; i-- {
		reverse16(&b, g.htab[(i+1)*16:])
		y = [16]byte{}
		ghash512(&g.htab, &y, &b[0], 1)
		reverse16((*[16]byte)(g.htab[i*16:]), y[:])
	}
	clear(y[:])
	clear(b[:])
	return g
}

// reverse16 sets d to the 16 bytes of s in reverse order.
func reverse16(d *[16]byte, s []byte) {
	for i := range d {
		d[i] = s[15-i]
	}
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
	var j0, mask [16]byte
	copy(j0[:], nonce)
	j0[15] = 1
	g.crypt(out[:n], plaintext, &j0, &mask)
	g.tag((*[16]byte)(out[n:]), &mask, ad, out[:n])
	clear(mask[:])
	return ret
}

// Open is crypto/cipher's GCM Open: it checks the tag, in constant time,
// then appends to dst the decryption of ciphertext. On a mismatch it clears
// what it would have written and returns an error, writing no plaintext.
// It panics as Seal does.
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
	var j0, mask, want [16]byte
	copy(j0[:], nonce)
	j0[15] = 1
	g.crypt(nil, nil, &j0, &mask)
	g.tag(&want, &mask, ad, ciphertext[:n])
	ok := subtle.ConstantTimeCompare(want[:], ciphertext[n:])
	clear(mask[:])
	if ok != 1 {
		clear(out)
		return nil, errGCMOpen
	}
	g.crypt(out, ciphertext[:n], &j0, &mask)
	clear(mask[:])
	return ret, nil
}

// crypt sets mask to the encryption of the counter block j0, and dst to
// src XOR the keystream of j0's inc32 successors. len(dst) = len(src).
func (g *gcmAsm) crypt(dst, src []byte, j0, mask *[16]byte) {
	// The first four blocks of keystream come in one call: j0's, for the
	// tag, then those of the first three blocks of data.
	var ks [64]byte
	gcmCTR512(&g.rk, &ks[0], &ks[0], 4, j0)
	copy(mask[:], ks[:16])
	ctr := binary.BigEndian.Uint32(j0[12:])
	used := 0
	if len(src) >= 48 {
		// Whole multiples of four blocks after the first three; ks[16:] is
		// the keystream of the first three.
		subtle.XORBytes(dst[:48], src[:48], ks[16:])
		used = 48
		ctr += 4
		if m := (len(src) - 48) / 64 * 4; m > 0 {
			var c [16]byte
			copy(c[:12], j0[:12])
			binary.BigEndian.PutUint32(c[12:], ctr)
			gcmCTR512(&g.rk, &dst[used], &src[used], m, &c)
			used += 16 * m
			ctr += uint32(m)
		}
		if used < len(src) {
			var c [16]byte
			copy(c[:12], j0[:12])
			binary.BigEndian.PutUint32(c[12:], ctr)
			ks = [64]byte{}
			gcmCTR512(&g.rk, &ks[0], &ks[0], 4, &c)
			subtle.XORBytes(dst[used:], src[used:], ks[:])
		}
	} else {
		subtle.XORBytes(dst, src, ks[16:16+len(src)])
	}
	clear(ks[:])
}

// tag sets t to GCM's tag over ad and ciphertext ct, given mask, the
// encryption of the counter block j0.
func (g *gcmAsm) tag(t, mask *[16]byte, ad, ct []byte) {
	var y [16]byte
	g.hash(&y, ad)
	g.hash(&y, ct)
	var lens [16]byte
	binary.BigEndian.PutUint64(lens[:8], uint64(len(ad))*8)
	binary.BigEndian.PutUint64(lens[8:], uint64(len(ct))*8)
	ghash512(&g.htab, &y, &lens[0], 1)
	subtle.XORBytes(t[:], y[:], mask[:])
}

// hash adds p to the GHASH state y, its last block padded with zeros.
func (g *gcmAsm) hash(y *[16]byte, p []byte) {
	if n := len(p) / 16; n > 0 {
		ghash512(&g.htab, y, &p[0], n)
		p = p[16*n:]
	}
	if len(p) > 0 {
		var b [16]byte
		copy(b[:], p)
		ghash512(&g.htab, y, &b[0], 1)
	}
}

// gcmCTR512 sets dst[:16·nblocks] to src[:16·nblocks] XOR the keystream
// from the counter block ctr, incremented as GCM's inc32. nblocks must be a
// multiple of 4; dst and src must be the same or not overlap.
//
//go:noescape
func gcmCTR512(rk *[15 * 16]byte, dst, src *byte, nblocks int, ctr *[16]byte)

// ghash512 adds the nblocks blocks at src to the GHASH state y, under the
// powers of H in htab.
//
//go:noescape
func ghash512(htab *[16 * 16]byte, y *[16]byte, src *byte, nblocks int)

// clmulLanesWork reports whether the 512-bit VPCLMULQDQ computes each lane
// as the 128-bit form does. It needs AVX-512 and VPCLMULQDQ.
func clmulLanesWork() bool
