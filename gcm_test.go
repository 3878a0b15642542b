package shamir

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The AES-256-GCM that SSMS AEAD 1 seals with (newAESGCM) must be
// crypto/cipher's, byte for byte: every test here compares the two. Where
// there is assembly (gcm_amd64_test.go checks that newAESGCM takes it) they
// are two implementations; elsewhere the tests still run, on the standard
// library alone.

// gcmPair returns newAESGCM and crypto/cipher's GCM under the same key.
func gcmPair(t testing.TB, key []byte) (ours, std cipher.AEAD) {
	t.Helper()
	skipIfEnforced(t, "crypto/cipher.NewGCM refuses caller-chosen nonces (TestGCMAsmChosen checks newAESGCM does too)")
	ours, err := newAESGCM(key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	std, err = cipher.NewGCM(b)
	if err != nil {
		t.Fatal(err)
	}
	return ours, std
}

// checkGCM seals p under nonce and ad with both AEADs, from src at offset
// off in a larger buffer, into a dst that already holds a prefix, and in
// place; it compares the results and opens them with both, in place and
// not.
func checkGCM(t *testing.T, ours, std cipher.AEAD, nonce, p, ad []byte, off int) {
	t.Helper()
	n := len(p)
	want := std.Seal(nil, nonce, p, ad)

	// Disjoint, unaligned, appended to a prefix.
	src := make([]byte, off+n)
	copy(src[off:], p)
	prefix := []byte("prefix")
	dst := make([]byte, len(prefix), len(prefix)+n+16+off)
	copy(dst, prefix)
	got := ours.Seal(dst, nonce, src[off:], ad)
	if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("n=%d ad=%d off=%d: Seal = %x…, want %x…", n, len(ad), off, head(got[len(prefix):]), head(want))
	}
	if !bytes.Equal(src[off:], p) {
		t.Fatalf("n=%d: Seal changed its input", n)
	}
	// Without capacity: Seal allocates.
	if got := ours.Seal(prefix[:len(prefix):len(prefix)], nonce, p, ad); !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("n=%d ad=%d: Seal into a full dst differs", n, len(ad))
	}

	// In place, unaligned.
	buf := make([]byte, off+n+16)
	copy(buf[off:], p)
	got = ours.Seal(buf[off:off], nonce, buf[off:off+n], ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("n=%d ad=%d off=%d: in-place Seal differs", n, len(ad), off)
	}

	// Open, both ways, disjoint and in place.
	for _, a := range []cipher.AEAD{ours, std} {
		pt, err := a.Open(nil, nonce, want, ad)
		if err != nil || !bytes.Equal(pt, p) {
			t.Fatalf("n=%d ad=%d: Open = %v", n, len(ad), err)
		}
	}
	copy(buf[off:], want)
	pt, err := ours.Open(buf[off:off], nonce, buf[off:off+n+16], ad)
	if err != nil || !bytes.Equal(pt, p) {
		t.Fatalf("n=%d ad=%d off=%d: in-place Open = %v", n, len(ad), off, err)
	}
	pt, err = ours.Open(prefix[:len(prefix):len(prefix)], nonce, want, ad)
	if err != nil || !bytes.Equal(pt[:len(prefix)], prefix) || !bytes.Equal(pt[len(prefix):], p) {
		t.Fatalf("n=%d ad=%d: Open appending to a prefix = %v", n, len(ad), err)
	}
}

func head(b []byte) []byte { return b[:min(len(b), 32)] }

// TestGCMLengths compares every length from 0 to 1100 bytes and many
// longer ones, with AAD lengths 0…100, a new key and nonce for each, at
// offsets 0…63.
func TestGCMLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 26))
	lengths := make([]int, 0, 1200)
	for n := range 1101 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1535, 1536, 1537, 2047, 2048, 4095, 4096, 4097, 8191, 8192+48,
		65535, 65536, 65536+1, 65536+16, 65536+17, 65536+28, 1<<20-1, 1<<20, 1<<20+5)
	for i, n := range lengths {
		ours, std := gcmPair(t, randBytes(rng, 32))
		checkGCM(t, ours, std, randBytes(rng, 12), randBytes(rng, n), randBytes(rng, i%101), rng.IntN(64))
	}
}

// TestGCMAssociatedData runs every AAD length from 0 to 100 (SSMS uses 29
// and 41) with plaintexts around block and group boundaries.
func TestGCMAssociatedData(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 26))
	ours, std := gcmPair(t, randBytes(rng, 32))
	for a := range 101 {
		for _, n := range []int{0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1000} {
			checkGCM(t, ours, std, randBytes(rng, 12), randBytes(rng, n), randBytes(rng, a), (a+n)%64)
		}
	}
	// Around the short path's bounds: 48 bytes of message, 192 of
	// associated data.
	for a := 160; a <= 210; a++ {
		for _, n := range []int{0, 1, 32, 47, 48, 49, 64} {
			checkGCM(t, ours, std, randBytes(rng, 12), randBytes(rng, n), randBytes(rng, a), a%64)
		}
	}
	// Long associated data, through the hash's 16-block loop.
	for _, a := range []int{255, 256, 257, 4096 + 3} {
		checkGCM(t, ours, std, randBytes(rng, 12), randBytes(rng, 100), randBytes(rng, a), 0)
	}
}

// TestGCMNonces tries nonces of all zeros and all ones, and ending in
// ff ff ff fe and ff ff ff ff. With 12-byte nonces the 32-bit block counter
// starts at 2 after them (J0 ends in 00 00 00 01) and cannot wrap within the
// longest plaintext; the wrap of the counter itself is tested on the kernel
// (TestGCMCounterWrap in gcm_amd64_test.go).
func TestGCMNonces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 26))
	ours, std := gcmPair(t, randBytes(rng, 32))
	nonces := [][]byte{
		make([]byte, 12),
		bytes.Repeat([]byte{0xff}, 12),
		append(randBytes(rng, 8), 0xff, 0xff, 0xff, 0xfe),
		append(randBytes(rng, 8), 0xff, 0xff, 0xff, 0xff),
		append(bytes.Repeat([]byte{0xff}, 8), 0xff, 0xff, 0xff, 0xfe),
	}
	for _, nonce := range nonces {
		for _, n := range []int{0, 16, 100, 4096 + 7, 65536} {
			checkGCM(t, ours, std, nonce, randBytes(rng, n), randBytes(rng, 29), 0)
		}
	}
	// SSMS's own nonces: the chunk number, then 0 or 1 for the last chunk.
	var c chunkNum
	for _, i := range []uint64{0, 1, 255, 1 << 32, 1<<56 - 1} {
		for _, last := range []bool{false, true} {
			c.set(i, last)
			checkGCM(t, ours, std, c.nonce[:], randBytes(rng, 1000), randBytes(rng, 41), 0)
		}
	}
}

// TestGCMOpenTampered flips every bit of the tag, of the ciphertext and of
// the associated data in turn: each Open must fail with crypto/cipher's
// error, return nil, and clear the bytes of dst it would have written.
func TestGCMOpenTampered(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 26))
	ours, _ := gcmPair(t, randBytes(rng, 32))
	nonce := randBytes(rng, 12)
	for _, n := range []int{0, 1, 17, 48, 49, 100, 256, 300, 1000} {
		ad := randBytes(rng, 29)
		sealed := ours.Seal(nil, nonce, randBytes(rng, n), ad)
		fails := func(what string, i int, ct, ad []byte) {
			t.Helper()
			dst := bytes.Repeat([]byte{0xaa}, 3+n)
			out, err := ours.Open(dst[:3], nonce, ct, ad)
			if err == nil || out != nil {
				t.Fatalf("n=%d: Open with bit %d of the %s flipped = %v, %x", n, i, what, err, out)
			}
			if err.Error() != "cipher: message authentication failed" {
				t.Fatalf("n=%d: Open's error is %q", n, err)
			}
			if !bytes.Equal(dst[:3], []byte{0xaa, 0xaa, 0xaa}) || !bytes.Equal(dst[3:], make([]byte, n)) {
				t.Fatalf("n=%d: a failed Open left %x in dst", n, dst)
			}
		}
		for i := range 8 * len(sealed) {
			ct := bytes.Clone(sealed)
			ct[i/8] ^= 1 << (i % 8)
			what := "ciphertext"
			if i >= 8*n {
				what = "tag"
			}
			fails(what, i, ct, ad)
		}
		for i := range 8 * len(ad) {
			bad := bytes.Clone(ad)
			bad[i/8] ^= 1 << (i % 8)
			fails("associated data", i, sealed, bad)
		}
		fails("nonce", 0, sealed, append(bytes.Clone(ad), 0))
		if _, err := ours.Open(nil, nonce, sealed, ad); err != nil {
			t.Fatalf("n=%d: the untouched ciphertext does not open: %v", n, err)
		}
		// Truncated: shorter than a tag, and missing a byte.
		for _, ct := range [][]byte{sealed[:len(sealed)-1], sealed[:15], nil} {
			if out, err := ours.Open(nil, nonce, ct, ad); err == nil || out != nil {
				t.Fatalf("n=%d: Open of %d bytes = %v", n, len(ct), err)
			}
		}
	}
}

// TestGCMPanics checks that newAESGCM panics where crypto/cipher does, with
// its messages: a nonce of the wrong length, and outputs that overlap the
// input other than exactly or the associated data.
func TestGCMPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 26))
	ours, std := gcmPair(t, randBytes(rng, 32))
	buf := make([]byte, 200)
	cases := map[string]func(a cipher.AEAD){
		"short nonce":        func(a cipher.AEAD) { a.Seal(nil, buf[:11], buf[:10], nil) },
		"long nonce":         func(a cipher.AEAD) { a.Open(nil, buf[:13], buf[:20], nil) },
		"overlap in Seal":    func(a cipher.AEAD) { a.Seal(buf[1:1], buf[100:112], buf[:50], nil) },
		"ad overlap in Seal": func(a cipher.AEAD) { a.Seal(buf[:0], buf[100:112], buf[60:70], buf[10:20]) },
		"overlap in Open":    func(a cipher.AEAD) { a.Open(buf[1:1], buf[100:112], buf[:50], nil) },
		"ad overlap in Open": func(a cipher.AEAD) { a.Open(buf[:0], buf[100:112], buf[60:90], buf[10:20]) },
	}
	for name, f := range cases {
		msg := func(a cipher.AEAD) (r any) {
			defer func() { r = recover() }()
			f(a)
			return nil
		}
		got, want := msg(ours), msg(std)
		if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: panic %v, crypto/cipher's %v", name, got, want)
		}
	}
	if ours.NonceSize() != 12 || ours.Overhead() != 16 {
		t.Errorf("NonceSize, Overhead = %d, %d", ours.NonceSize(), ours.Overhead())
	}
	if _, err := newAESGCM(make([]byte, 16)); err == nil {
		// crypto/aes takes 16-byte keys; newAESGCM is for 32 and hands any
		// other size to it, which then runs AES-128.
		ours, std := gcmPair(t, make([]byte, 16))
		checkGCM(t, ours, std, make([]byte, 12), []byte("sixteen byte key"), nil, 0)
	}
	if _, err := newAESGCM(make([]byte, 31)); err == nil {
		t.Error("newAESGCM takes a 31-byte key")
	}
}

// TestGCMConcurrent seals and opens with one AEAD on several goroutines at
// once, as a cipher.AEAD allows: each result must be crypto/cipher's.
func TestGCMConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 26))
	ours, std := gcmPair(t, randBytes(rng, 32))
	const workers = 4
	inputs := make([][3][]byte, workers)
	for i := range inputs {
		inputs[i] = [3][]byte{randBytes(rng, 12), randBytes(rng, 1000+4000*i), randBytes(rng, 29)}
	}
	errs := make(chan error, workers)
	for _, in := range inputs {
		go func() {
			want := std.Seal(nil, in[0], in[1], in[2])
			for range 50 {
				if got := ours.Seal(nil, in[0], in[1], in[2]); !bytes.Equal(got, want) {
					errs <- fmt.Errorf("%d bytes: a concurrent Seal differs", len(in[1]))
					return
				}
				if p, err := ours.Open(nil, in[0], want, in[2]); err != nil || !bytes.Equal(p, in[1]) {
					errs <- fmt.Errorf("%d bytes: a concurrent Open = %v", len(in[1]), err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestGCMAllocs checks that Seal and Open into a dst with room do not
// allocate.
func TestGCMAllocs(t *testing.T) {
	ours, _ := gcmPair(t, make([]byte, 32))
	p := make([]byte, 1000)
	nonce := make([]byte, 12)
	ad := make([]byte, 29)
	dst := make([]byte, 0, len(p)+16)
	sealed := ours.Seal(nil, nonce, p, ad)
	if n := testing.AllocsPerRun(50, func() { ours.Seal(dst, nonce, p, ad) }); n != 0 {
		t.Errorf("Seal allocates %v times", n)
	}
	if n := testing.AllocsPerRun(50, func() { ours.Open(dst, nonce, sealed, ad) }); n != 0 {
		t.Errorf("Open allocates %v times", n)
	}
}

// FuzzGCM compares newAESGCM with crypto/cipher on any key, nonce,
// associated data, plaintext and offset, and checks that a ciphertext with
// one byte changed does not open.
func FuzzGCM(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 12), []byte{}, []byte{}, uint8(0), uint16(0))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 12), make([]byte, 29), make([]byte, 1000), uint8(3), uint16(7))
	f.Add(make([]byte, 32), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe}, make([]byte, 41), make([]byte, 513), uint8(63), uint16(600))
	f.Fuzz(func(t *testing.T, key, nonce, ad, p []byte, off uint8, flip uint16) {
		// Any bytes make a key and a nonce: cut or padded with zeros.
		key = append(key[:min(len(key), 32):min(len(key), 32)], make([]byte, 32)...)[:32]
		nonce = append(nonce[:min(len(nonce), 12):min(len(nonce), 12)], make([]byte, 12)...)[:12]
		ours, std := gcmPair(t, key)
		checkGCM(t, ours, std, nonce, p, ad, int(off)%64)
		sealed := ours.Seal(nil, nonce, p, ad)
		sealed[int(flip)%len(sealed)] ^= byte(flip>>8) | 1
		if _, err := ours.Open(nil, nonce, sealed, ad); err == nil {
			t.Fatal("a changed ciphertext opens")
		}
	})
}

// BenchmarkGCM compares newAESGCM with crypto/cipher, sealing and opening
// 64 KiB (SSMS's chunk) and 1 MiB with SSMS's 29 bytes of associated data.
func BenchmarkGCM(b *testing.B) {
	key := make([]byte, 32)
	ours, std := gcmPair(b, key)
	nonce := make([]byte, 12)
	ad := make([]byte, 29)
	for _, impl := range []struct {
		name string
		a    cipher.AEAD
	}{{"ours", ours}, {"stdlib", std}} {
		for _, size := range []int{64 << 10, 1 << 20} {
			p := make([]byte, size)
			buf := make([]byte, 0, size+16)
			sealed := impl.a.Seal(nil, nonce, p, ad)
			b.Run(fmt.Sprintf("%s/seal/%dKiB", impl.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					impl.a.Seal(buf, nonce, p, ad)
				}
			})
			b.Run(fmt.Sprintf("%s/open/%dKiB", impl.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := impl.a.Open(buf, nonce, sealed, ad); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
