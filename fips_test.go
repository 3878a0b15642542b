package shamir

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/fips140"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"testing"
	"testing/cryptotest"
)

// skipIfEnforced skips t under GODEBUG=fips140=only, where what it tests
// cannot run through approved constructions; why says what it needs.
func skipIfEnforced(t testing.TB, why string) {
	t.Helper()
	if fips140.Enforced() {
		t.Skip("GODEBUG=fips140=only: " + why)
	}
}

// skipIfFIPS skips t in FIPS 140-3 mode (GODEBUG=fips140=on or only), where
// the package's own generator is not used; why says what t needs.
func skipIfFIPS(t testing.TB, why string) {
	t.Helper()
	if fipsMode {
		t.Skip("FIPS 140-3 mode: " + why)
	}
}

// testAEADs returns the AEADs the tests seal with: all of them, or AEAD 3
// alone under GODEBUG=fips140=only.
func testAEADs() []byte {
	if fips140.Enforced() {
		return []byte{aesGCMRandom}
	}
	return []byte{aesGCM, chaCha20Poly1305, aesGCMRandom}
}

// ssmsCombine is CombineSSMS, called from this file only here.
func ssmsCombine(shares [][]byte) ([]byte, error) {
	secret, _, err := CombineSSMS(shares)
	return secret, err
}

// ssmsRecords cuts an SSMS share into its header and records.
func ssmsRecords(t *testing.T, s []byte) (hdr []byte, recs [][]byte) {
	t.Helper()
	h, why := parseHeader(s)
	if h == nil {
		t.Fatal(why)
	}
	rest := s[hl(s):]
	for count := uint64(0); len(rest) > 0; count++ {
		n, _, why := recordLength(h, count, rest)
		if why != 0 {
			t.Fatal(why)
		}
		size := recordSize(h, n)
		recs = append(recs, rest[:size])
		rest = rest[size:]
	}
	return s[:hl(s)], recs
}

// rejoin makes a share of hdr and recs, with the last flag on the last
// record only and every record's CRC right for its new place, so that the
// share passes every check but the AEAD's.
func rejoin(t *testing.T, hdr []byte, recs [][]byte) []byte {
	t.Helper()
	s := slices.Clone(hdr)
	var num chunkNum
	for k, r := range recs {
		r = slices.Clone(r)
		v := binary.BigEndian.Uint32(r) &^ lastFlag
		if k == len(recs)-1 {
			v |= lastFlag
		}
		binary.BigEndian.PutUint32(r, v)
		num.set(uint64(k), false)
		end := len(r) - 4
		binary.BigEndian.PutUint32(r[end:], recordCRC(recordSeed(hdr), &num, r[:end]))
		s = append(s, r...)
	}
	h, why := parseHeader(s)
	if h == nil {
		t.Fatal(why)
	}
	rest := s[hl(s):]
	for k := range recs {
		n, _, why := recordLength(h, uint64(k), rest)
		if why != 0 {
			t.Fatal(why)
		}
		num.set(uint64(k), false)
		if _, why := parseRecord(h, &num, rest[:recordSize(h, n)]); why != 0 {
			t.Fatalf("record %d of the rejoined share: %v", k, why)
		}
		rest = rest[recordSize(h, n):]
	}
	return s
}

// TestAEAD3Layout reads AEAD 3 shares as docs/FORMAT.md describes them,
// with nothing of the package but Combine for the key: each sealed chunk is
// nonce ‖ ciphertext ‖ tag as crypto/cipher.NewGCMWithRandomNonce makes
// it, opened with the 29 common header bytes and the chunk's counter nonce
// as associated data; each record's 16-byte tag after its fragment is
// HMAC-SHA256 under HKDF-SHA256(key, no salt, "GFSSMS record key") of the
// record's index, chunk number and last flag, then its length word and
// fragment.
func TestAEAD3Layout(t *testing.T) {
	secret := testSecret(150, 31) // chunks of 64, 64 and 22 bytes
	shares := mustSplitSSMS(t, secret, 3, 2, 64, aesGCMRandom, 31)
	s0, s1 := shares[0], shares[1] // the data fragments: the sealed chunk, cut in two
	// A batch of 3: a path of 2 nodes, a header of 184 + 32 bytes, the key
	// share at 148 + 32.
	if s0[hdrAEAD] != 3 || len(s0) != 216+(24+(64+28+1)/2)*2+24+(22+28+1)/2 {
		t.Fatalf("AEAD %d, share of %d bytes", s0[hdrAEAD], len(s0))
	}
	key, err := Combine([][]byte{
		append(slices.Clone(s0[180:212]), s0[29]+1),
		append(slices.Clone(s1[180:212]), s1[29]+1),
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCMWithRandomNonce(b)
	if err != nil {
		t.Fatal(err)
	}
	rk, err := hkdf.Key(sha256.New, key, nil, "GFSSMS record key", 32)
	if err != nil {
		t.Fatal(err)
	}
	var nonces [][]byte
	off := 216
	for k := 0; off < len(s0); k++ {
		word := binary.BigEndian.Uint32(s0[off:])
		n, last := int(word&^(1<<31)), word>>31 == 1
		f := (n + 28 + 1) / 2
		sealed := append(slices.Clone(s0[off+4:off+4+f]), s1[off+4:off+4+f]...)
		if slices.ContainsFunc(sealed[n+28:], func(b byte) bool { return b != 0 }) {
			t.Fatalf("chunk %d: the padding is not zero", k)
		}
		sealed = sealed[:n+28]
		nonces = append(nonces, sealed[:12])
		// The header's bytes 0…28, k in 11 bytes big-endian, the last flag.
		ad := append(slices.Clone(s0[:29]), make([]byte, 12)...)
		binary.BigEndian.PutUint64(ad[32:40], uint64(k))
		if last {
			ad[40] = 1
		}
		got, err := gcm.Open(nil, nil, sealed, ad)
		if err != nil || !bytes.Equal(got, secret[k*64:min(len(secret), (k+1)*64)]) {
			t.Fatalf("chunk %d: %v", k, err)
		}
		ad[40] ^= 1
		if _, err := gcm.Open(nil, nil, sealed, ad); err == nil {
			t.Fatalf("chunk %d opened with the last flag flipped", k)
		}
		for _, s := range [][]byte{s0, s1} {
			nr := make([]byte, 12)
			nr[0] = s[29]
			binary.BigEndian.PutUint64(nr[3:11], uint64(k))
			if last {
				nr[11] = 1
			}
			m := hmac.New(sha256.New, rk)
			m.Write(nr)
			m.Write(s[off : off+4+f])
			if !bytes.Equal(m.Sum(nil)[:16], s[off+4+f:off+4+f+16]) {
				t.Fatalf("chunk %d, index %d: the record's tag is not the HMAC", k, s[29])
			}
		}
		off += 4 + f + 16 + 4
		if last != (off == len(s0)) {
			t.Fatalf("chunk %d: last flag %v", k, last)
		}
	}
	if len(nonces) != 3 || bytes.Equal(nonces[0], nonces[1]) || bytes.Equal(nonces[1], nonces[2]) {
		t.Fatalf("nonces %x", nonces)
	}
}

// TestAEAD3Tampering moves, drops and cuts the chunks of AEAD 3 shares, in
// every share and with every CRC made right, so that only the associated
// data (the chunk number and the last flag) can tell: no secret, or part of
// one, is ever returned that was not split. A forged nonce, in one share of
// more than threshold, is found and named.
func TestAEAD3Tampering(t *testing.T) {
	secret := testSecret(150, 32) // chunks of 64, 64 and 22 bytes
	shares := mustSplitSSMS(t, secret, 4, 2, 64, aesGCMRandom, 32)
	tamper := func(f func(recs [][]byte) [][]byte) [][]byte {
		out := make([][]byte, len(shares))
		for i, s := range shares {
			hdr, recs := ssmsRecords(t, s)
			out[i] = rejoin(t, hdr, f(recs))
		}
		return out
	}
	same := tamper(func(r [][]byte) [][]byte { return r })
	for i := range same {
		if !bytes.Equal(same[i], shares[i]) {
			t.Fatal("rejoin changed a share it should have left alone")
		}
	}
	checkCombine(t, same, secret, secret, nil)

	for _, c := range []struct {
		name string
		f    func(r [][]byte) [][]byte
	}{
		{"chunks 0 and 1 swapped", func(r [][]byte) [][]byte { return [][]byte{r[1], r[0], r[2]} }},
		{"chunk 0 dropped", func(r [][]byte) [][]byte { return r[1:] }},
		{"chunk 1 dropped", func(r [][]byte) [][]byte { return [][]byte{r[0], r[2]} }},
		{"cut after chunk 1", func(r [][]byte) [][]byte { return r[:2] }},
		{"chunk 0 repeated", func(r [][]byte) [][]byte { return [][]byte{r[0], r[0], r[1], r[2]} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkCombine(t, tamper(c.f), secret, nil, nil)
		})
	}

	// The nonce is the first 12 bytes of fragment 0; every byte of every
	// fragment and key share is forged by TestSSMSForgedShare when AEAD 3
	// is the default.
	for k := hl(shares[0]) + 4; k < hl(shares[0])+4+12; k++ {
		forged := slices.Clone(shares)
		forged[0] = slices.Clone(shares[0])
		forge(forged[0], k, 0x01)
		checkCombine(t, forged, secret, secret, []int{0})
		checkCombine(t, forged[:2], secret, nil, nil)
	}
}

// TestSSMSStreamCompatibleAEAD3 checks that NewSplitWriter and splitSSMS
// make the same AEAD 3 shares when the module's DRBG, which draws the
// nonces, is made deterministic, and that each form reads the other's.
func TestSSMSStreamCompatibleAEAD3(t *testing.T) {
	for _, n := range []int{0, 1, 64, 65, 1000} {
		secret := testSecret(n, 33)
		cryptotest.SetGlobalRandom(t, 33)
		want := mustSplitSSMS(t, secret, 5, 3, 64, aesGCMRandom, 33)
		cryptotest.SetGlobalRandom(t, 33)
		bufs := make([]bytes.Buffer, 5)
		ws := make([]io.Writer, 5)
		for i := range ws {
			ws[i] = &bufs[i]
		}
		w, err := newSplitWriter(ws, 3, 64, aesGCMRandom, testRNG(33))
		if err != nil {
			t.Fatal(err)
		}
		for p := secret; len(p) > 0; p = p[min(7, len(p)):] {
			w.Write(p[:min(7, len(p))])
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got := make([][]byte, 5)
		for i := range got {
			got[i] = bufs[i].Bytes()
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%d bytes: share %d differs from splitSSMS's", n, i)
			}
		}
		checkCombine(t, got[2:], secret, secret, nil)
	}
}

// TestSetGlobalRandomSSMS checks that SplitSSMS, sealing a secret of many
// chunks on several goroutines, is deterministic under SetGlobalRandom, as
// Split is (TestSetGlobalRandom): with AEAD 3, whose nonces come from the
// module's DRBG, the chunks are then sealed in order.
func TestSetGlobalRandomSSMS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	secret := testSecret(3*parallelChunk+5, 34)
	run := func(seed uint64) [][]byte {
		cryptotest.SetGlobalRandom(t, seed)
		shares, err := SplitSSMS(secret, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		return shares
	}
	a, b, c := run(1), run(1), run(2)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("share %d differs under the same seed", i)
		}
	}
	if bytes.Equal(a[0][hl(a[0]):], c[0][hl(c[0]):]) {
		t.Fatal("different seeds gave the same share")
	}
	checkCombine(t, a[:3], secret, secret, nil)
}

// TestCheckApproved checks the policy: AEAD 3 always, AEADs 1 and 2 unless
// GODEBUG=fips140=only.
func TestCheckApproved(t *testing.T) {
	if err := checkApproved(aesGCMRandom); err != nil {
		t.Errorf("AEAD 3: %v", err)
	}
	for _, id := range []byte{aesGCM, chaCha20Poly1305} {
		err := checkApproved(id)
		if fips140.Enforced() != errors.Is(err, ErrNotApproved) {
			t.Errorf("AEAD %d: %v (enforced: %v)", id, err, fips140.Enforced())
		}
	}
	if fipsMode != (defaultAEAD() == aesGCMRandom) {
		t.Errorf("FIPS mode %v, default AEAD %d", fipsMode, defaultAEAD())
	}
}

// TestFIPSShares checks, in FIPS 140-3 mode, that SplitSSMS and
// NewSplitWriter seal with AEAD 3, and that Split and SplitSSMS take every
// random byte from crypto/rand itself: with crypto/rand.Reader replaced,
// they make exactly the shares split and splitSSMS make reading it
// directly. (The package's generator would read only a key from it.)
func TestFIPSShares(t *testing.T) {
	if !fipsMode {
		t.Skip("not in FIPS 140-3 mode (GODEBUG=fips140=on or only)")
	}
	shares, err := SplitSSMS([]byte("fips"), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := NewSplitWriter([]io.Writer{&buf, io.Discard, io.Discard}, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("fips"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i, s := range append(shares, buf.Bytes()) {
		if s[hdrAEAD] != aesGCMRandom {
			t.Errorf("share %d: AEAD %d, want 3", i, s[hdrAEAD])
		}
	}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{1, 1000, 3*parallelChunk + 5} {
		secret := testSecret(n, 35)
		func() {
			defer func(saved io.Reader) { rand.Reader = saved }(rand.Reader)
			rand.Reader = testRNG(35)
			got, err := Split(secret, 5, 3)
			if err != nil {
				t.Fatal(err)
			}
			want, err := split(secret, 5, 3, testRNG(35))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%d bytes: share %d is not made from crypto/rand's bytes", n, i)
				}
			}
		}()
		// With the module's own DRBG, a long secret's chunks are split on
		// several goroutines.
		shares, err := Split(secret, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Combine(shares[1:4]); err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("%d bytes: Combine: %v", n, err)
		}
	}

	// SplitSSMS: SetGlobalRandom replaces crypto/rand.Reader and the DRBG
	// that draws AEAD 3's nonces with one stream.
	secret := testSecret(5*defaultChunkSize+3, 36)
	cryptotest.SetGlobalRandom(t, 36)
	got, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	cryptotest.SetGlobalRandom(t, 36)
	want, err := splitSSMS(secret, 5, 3, defaultChunkSize, aesGCMRandom, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("SplitSSMS: share %d is not made from crypto/rand's bytes", i)
		}
	}
}

// TestFIPSOnlyRefuses checks, under GODEBUG=fips140=only, that shares
// sealed with AEADs 1 and 2 (the known-answer vectors) are refused with
// ErrNotApproved, not a panic, by both readers, that they cannot be
// written, and that they are not bad: without enforcement they are read.
func TestFIPSOnlyRefuses(t *testing.T) {
	if !fips140.Enforced() {
		t.Skip("not under GODEBUG=fips140=only")
	}
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var vs []ssmsVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		shares := make([][]byte, len(v.Shares))
		for i, s := range v.Shares {
			shares[i], _ = hex.DecodeString(s)
		}
		_, err := ssmsCombine(shares)
		_, _, rerr := combineStream(shares) // NewCombineReader
		for _, err := range []error{err, rerr} {
			if !errors.Is(err, ErrNotApproved) {
				t.Errorf("%s: %v, want ErrNotApproved", v.Name, err)
			}
		}
		if _, err := InspectSSMS(shares[0]); err != nil {
			t.Errorf("%s: InspectSSMS: %v", v.Name, err)
		}
		secret, _ := hex.DecodeString(v.Secret)
		fips140.WithoutEnforcement(func() {
			if got, err := ssmsCombine(shares); err != nil || !bytes.Equal(got, secret) {
				t.Errorf("%s: without enforcement: %v", v.Name, err)
			}
		})
	}
	for _, id := range []byte{aesGCM, chaCha20Poly1305} {
		if _, err := splitSSMS([]byte("x"), 3, 2, 64, id, testRNG(1)); !errors.Is(err, ErrNotApproved) {
			t.Errorf("splitSSMS with AEAD %d: %v", id, err)
		}
		if _, err := newSplitWriter([]io.Writer{io.Discard, io.Discard}, 2, 64, id, testRNG(1)); !errors.Is(err, ErrNotApproved) {
			t.Errorf("newSplitWriter with AEAD %d: %v", id, err)
		}
	}
}

// TestFIPSOnlyReaderAcrossEnforcement reads, with enforcement on, a reader
// of AEAD 1 shares made while it was lifted: an error wrapping
// ErrNotApproved, not a panic.
func TestFIPSOnlyReaderAcrossEnforcement(t *testing.T) {
	if !fips140.Enforced() {
		t.Skip("needs GODEBUG=fips140=only")
	}
	var shares [][]byte
	fips140.WithoutEnforcement(func() {
		shares = mustSplitSSMS(t, testSecret(1000, 50), 3, 2, 64, aesGCM, 50)
	})
	rs := []io.Reader{bytes.NewReader(shares[0]), bytes.NewReader(shares[1])}
	var r *CombineReader
	fips140.WithoutEnforcement(func() {
		var err error
		if r, err = NewCombineReader(rs); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := io.ReadAll(r); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("read under enforcement: %v, want ErrNotApproved", err)
	}
}
