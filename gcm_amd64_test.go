//go:build !purego

package shamir

import (
	"bytes"
	"crypto/aes"
	"crypto/fips140"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// gcmAsmExpected tells whether newAESGCM should take the assembly here, from
// the CPU's features, and why.
func gcmAsmExpected() (bool, string) {
	if ok, why := aesCTRAsmExpected(); !ok {
		return false, why
	}
	if !cpu.X86.HasPCLMULQDQ || !cpuidLeaf7ECX(10) {
		return false, "this CPU has no VPCLMULQDQ"
	}
	if !clmul256LanesWork() {
		return false, "this CPU reports VPCLMULQDQ, but its 256-bit form does not work lane by lane (an emulator?)"
	}
	return true, "this CPU has VAES and VPCLMULQDQ"
}

// gcm512Expected tells whether gcmAsm should run its 512-bit kernels here.
func gcm512Expected() (bool, string) {
	if ok, why := gcmAsmExpected(); !ok {
		return false, why
	}
	if !hasVAES512 || !cpu.X86.HasAVX512VL || !cpu.X86.HasAVX512VPCLMULQDQ {
		return false, "this CPU has no AVX-512 VAES and VPCLMULQDQ"
	}
	if !clmulLanesWork() {
		return false, "this CPU reports 512-bit VPCLMULQDQ, but it does not work lane by lane (an emulator?)"
	}
	return true, "this CPU has AVX-512 VAES and VPCLMULQDQ"
}

// needGCMAsm skips the test where the assembly cannot run.
func needGCMAsm(t *testing.T) {
	t.Helper()
	if ok, why := gcmAsmExpected(); !ok {
		t.Skip(why)
	}
}

// TestGCMAsmChosen checks that newAESGCM takes the assembly exactly where
// it should: on a CPU that has it, outside FIPS 140-3 mode.
func TestGCMAsmChosen(t *testing.T) {
	ok, why := gcmAsmExpected()
	t.Log(why)
	if useGCMAsm != ok {
		t.Fatalf("useGCMAsm = %v; %s", useGCMAsm, why)
	}
	if ok512, why512 := gcm512Expected(); useGCM512 != ok512 {
		t.Fatalf("useGCM512 = %v; %s", useGCM512, why512)
	}
	if fips140.Enforced() {
		// GODEBUG=fips140=only: crypto/cipher refuses GCM with
		// caller-chosen nonces, and so must newAESGCM.
		if a, err := newAESGCM(make([]byte, 32)); err == nil {
			t.Fatalf("newAESGCM returned %T in FIPS 140-only mode", a)
		}
		return
	}
	a, err := newAESGCM(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	_, isAsm := a.(*gcmAsm)
	if want := ok && !fipsMode; isAsm != want {
		t.Fatalf("newAESGCM returned %T (fipsMode %v, %s)", a, fipsMode, why)
	}
	if fipsMode {
		t.Log("FIPS 140-3 mode: newAESGCM returns crypto/cipher's GCM")
	}
	if a, err = newAEAD(aesGCM, make([]byte, 32)); err != nil {
		t.Fatal(err)
	}
	if _, ssmsAsm := a.(*gcmAsm); ssmsAsm != isAsm {
		t.Fatalf("SSMS AEAD 1 is %T, newAESGCM's %v", a, isAsm)
	}
}

// ghashMul multiplies in GHASH's field, bit by bit as NIST SP 800-38D,
// algorithm 1, states it: the reference the kernel is checked against.
func ghashMul(x, y [16]byte) [16]byte {
	var z [16]byte
	v := y
	for i := range 128 {
		if x[i/8]>>(7-i%8)&1 == 1 {
			for k := range z {
				z[k] ^= v[k]
			}
		}
		lsb := v[15] & 1
		for k := 15; k > 0; k-- {
			v[k] = v[k]>>1 | v[k-1]<<7
		}
		v[0] >>= 1
		if lsb == 1 {
			v[0] ^= 0xe1
		}
	}
	return z
}

// TestGHASHKernel checks ghash512 against ghashMul for every block count from
// 0 to 70 (the 16-block loop, the tail of every length) and a few more,
// from random states, under random keys.
func TestGHASHKernel(t *testing.T) {
	needGCMAsm(t)
	rng := rand.New(rand.NewPCG(6, 26))
	for _, nblocks := range blockCounts() {
		key := randBytes(rng, 32)
		g := newGCMAsm((*[32]byte)(key))
		b, _ := aes.NewCipher(key)
		var h [16]byte
		b.Encrypt(h[:], h[:])
		src := randBytes(rng, 16*nblocks+1)[1:] // unaligned
		var y0 [16]byte
		copy(y0[:], randBytes(rng, 16))
		want := y0
		for i := range nblocks {
			for k := range want {
				want[k] ^= src[16*i+k]
			}
			want = ghashMul(want, h)
		}
		got := y0
		var p *byte
		if nblocks > 0 {
			p = &src[0]
		}
		g.ghash(&got, p, nblocks)
		if got != want {
			t.Fatalf("%d blocks: GHASH = %x, want %x", nblocks, got, want)
		}
	}
}

func blockCounts() []int {
	s := []int{100, 255, 256, 1000}
	for n := range 71 {
		s = append(s, n)
	}
	return s
}

// TestGHASHPowers checks the table of powers of H against ghashMul: entry i
// is the block form, byte-reversed, of H^(16−i)·x^−1, and x^−1·x = 1.
func TestGHASHPowers(t *testing.T) {
	needGCMAsm(t)
	key := randBytes(rand.New(rand.NewPCG(7, 26)), 32)
	g := newGCMAsm((*[32]byte)(key))
	b, _ := aes.NewCipher(key)
	var h, x [16]byte
	b.Encrypt(h[:], h[:])
	x[0] = 0x40 // the polynomial x: bit 1, reflected
	p := h
	for i := 15; i >= 0; i-- {
		var e [16]byte
		reverse16(&e, g.htab[16*i:])
		if got := ghashMul(e, x); got != p {
			t.Fatalf("htab[%d]·x = %x, want H^%d = %x", i, got, 16-i, p)
		}
		p = ghashMul(p, h)
		// The Karatsuba factor: the XOR of the entry's quadwords, twice.
		k := binary.LittleEndian.Uint64(g.htab[16*i:]) ^ binary.LittleEndian.Uint64(g.htab[16*i+8:])
		if binary.LittleEndian.Uint64(g.htab[256+16*i:]) != k || binary.LittleEndian.Uint64(g.htab[256+16*i+8:]) != k {
			t.Fatalf("htab[%d]'s Karatsuba factor = %x, want %x twice", i, g.htab[256+16*i:256+16*i+16], k)
		}
	}
}

// reverse16 sets d to the 16 bytes of s in reverse order.
func reverse16(d *[16]byte, s []byte) {
	for i := range d {
		d[i] = s[15-i]
	}
}

// TestGCMCounterWrap checks gcmCTR512 against AES on counter blocks
// incremented as inc32, including across the wrap of the low 32 bits, which
// must leave the 12 bytes before them as they are: GCM with 12-byte nonces
// never reaches it, other uses of the kernel could.
func TestGCMCounterWrap(t *testing.T) {
	needGCMAsm(t)
	rng := rand.New(rand.NewPCG(8, 26))
	key := randBytes(rng, 32)
	g := newGCMAsm((*[32]byte)(key))
	b, _ := aes.NewCipher(key)
	for _, start := range []uint32{0, 1, 0xfffffffe, 0xffffffff, 0xfffffff0, 0xffffffe3} {
		for _, nblocks := range []int{0, 4, 8, 28, 32, 36, 64, 100} {
			var ctr [16]byte
			copy(ctr[:12], bytes.Repeat([]byte{0xff}, 12))
			if start&1 == 0 {
				copy(ctr[:12], randBytes(rng, 12))
			}
			binary.BigEndian.PutUint32(ctr[12:], start)
			src := randBytes(rng, 16*nblocks)
			want := make([]byte, len(src))
			c := ctr
			for i := range nblocks {
				var ks [16]byte
				b.Encrypt(ks[:], c[:])
				for k := range ks {
					want[16*i+k] = src[16*i+k] ^ ks[k]
				}
				binary.BigEndian.PutUint32(c[12:], binary.BigEndian.Uint32(c[12:])+1)
			}
			got := make([]byte, len(src)+16)
			var dst, s *byte
			if nblocks > 0 {
				dst, s = &got[0], &src[0]
			}
			g.ctrBlocks(dst, s, nblocks, &ctr)
			if !bytes.Equal(got[:len(src)], want) || !bytes.Equal(got[len(src):], make([]byte, 16)) {
				t.Fatalf("counter %08x, %d blocks: keystream differs from AES's", start, nblocks)
			}
		}
	}
}

// TestGCMBothWidths runs the tests of the kernels and of the AEAD with the
// 256-bit kernels and with the 512-bit ones, where the CPU has both: each
// must give crypto/cipher's results.
func TestGCMBothWidths(t *testing.T) {
	if ok, why := gcm512Expected(); !ok {
		t.Skip(why)
	}
	saved := useGCM512
	defer func() { useGCM512 = saved }()
	for _, wide := range []bool{false, true} {
		useGCM512 = wide
		t.Run(fmt.Sprintf("gcm512=%v", wide), func(t *testing.T) {
			t.Run("GHASHKernel", TestGHASHKernel)
			t.Run("CounterWrap", TestGCMCounterWrap)
			t.Run("Lengths", TestGCMLengths)
			t.Run("AssociatedData", TestGCMAssociatedData)
			t.Run("Nonces", TestGCMNonces)
			t.Run("OpenTampered", TestGCMOpenTampered)
			t.Run("Allocs", TestGCMAllocs)
		})
	}
}

// TestGCMWipe checks that wipe erases the round keys and the powers of H.
func TestGCMWipe(t *testing.T) {
	needGCMAsm(t)
	g := newGCMAsm((*[32]byte)(bytes.Repeat([]byte{7}, 32)))
	g.wipe()
	if *g != (gcmAsm{}) {
		t.Fatal("wipe left key material")
	}
}

// TestGCMErrorIdentity checks that a failed Open's error reads as
// crypto/cipher's: callers that print it see the same text.
func TestGCMErrorIdentity(t *testing.T) {
	_, std := gcmPair(t, make([]byte, 32))
	_, want := std.Open(nil, make([]byte, 12), make([]byte, 16), nil)
	if want == nil || errGCMOpen.Error() != want.Error() {
		t.Errorf("errGCMOpen = %q, crypto/cipher's %q", errGCMOpen, want)
	}
}

// BenchmarkGCMWidths times Seal and Open of 64 KiB with the 256-bit and the
// 512-bit kernels, where the CPU has both.
func BenchmarkGCMWidths(b *testing.B) {
	if ok, why := gcm512Expected(); !ok {
		b.Skip(why)
	}
	saved := useGCM512
	defer func() { useGCM512 = saved }()
	g := newGCMAsm(new([32]byte))
	nonce, ad := make([]byte, 12), make([]byte, 29)
	p := make([]byte, 64<<10)
	buf := make([]byte, 0, len(p)+16)
	sealed := g.Seal(nil, nonce, p, ad)
	for _, wide := range []bool{false, true} {
		useGCM512 = wide
		name := map[bool]string{false: "vaes256", true: "vaes512"}[wide]
		b.Run(name+"/seal/64KiB", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				g.Seal(buf, nonce, p, ad)
			}
		})
		b.Run(name+"/open/64KiB", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				if _, err := g.Open(buf, nonce, sealed, ad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSSMSWipesAEAD checks that SSMS erases the assembly AEAD's round keys
// and powers of H when a sealer or a decoder is released
// (docs/SECURITY.md, What is erased).
func TestSSMSWipesAEAD(t *testing.T) {
	if !useGCMAsm || fipsMode {
		t.Skip("AEAD 1 runs on crypto/cipher here")
	}
	e, err := newEncoder(3, 2, defaultChunkSize, aesGCM, newRandom())
	if err != nil {
		t.Fatal(err)
	}
	defer e.release()
	s := e.newSealer()
	g, ok := s.aead.(*gcmAsm)
	if !ok {
		t.Fatalf("the sealer's AEAD is %T, not the assembly's", s.aead)
	}
	if *g == (gcmAsm{}) {
		t.Fatal("the sealer's AEAD has no key before release")
	}
	s.release()
	if *g != (gcmAsm{}) {
		t.Error("the sealer's release left the AEAD's key in memory")
	}

	shares, err := SplitSSMS([]byte("a secret"), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	h, reason := parseHeader(shares[0])
	if reason != 0 {
		t.Fatalf("parseHeader: %v", reason)
	}
	var key [keySize]byte
	key[0] = 1
	d := newDecoder(h, &key)
	g, ok = d.aead.(*gcmAsm)
	if !ok {
		t.Fatalf("the decoder's AEAD is %T, not the assembly's", d.aead)
	}
	d.release()
	if *g != (gcmAsm{}) {
		t.Error("the decoder's release left the AEAD's key in memory")
	}
}
