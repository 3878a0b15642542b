package shamir

import (
	"bytes"
	"crypto/fips140"
	"crypto/sha256"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// lcAEAD is id, or AEAD 3 under GODEBUG=fips140=only, where the others
// cannot seal.
func lcAEAD(id byte) byte {
	if fips140.Enforced() {
		return aesGCMRandom
	}
	return id
}

// recreateBoth runs RecreateSSMS and RecreateSSMSTo on shares, checks that
// they agree, and returns the first's results.
func recreateBoth(t *testing.T, shares [][]byte, indexes ...int) ([][]byte, []BadShare, error) {
	t.Helper()
	got, bad, err := RecreateSSMS(shares, indexes...)
	rs := make([]io.Reader, len(shares))
	for i, s := range shares {
		rs[i] = bytes.NewReader(s)
	}
	bufs := make([]bytes.Buffer, len(indexes))
	ws := make([]io.Writer, len(indexes))
	for i := range ws {
		ws[i] = &bufs[i]
	}
	sbad, serr := RecreateSSMSTo(ws, rs, indexes...)
	if (err == nil) != (serr == nil) || !slices.Equal(bad, sbad) {
		t.Fatalf("RecreateSSMS: %v, bad %v; RecreateSSMSTo: %v, bad %v", err, bad, serr, sbad)
	}
	if err == nil {
		for i := range got {
			if !bytes.Equal(got[i], bufs[i].Bytes()) {
				t.Fatalf("RecreateSSMSTo wrote share %d other than RecreateSSMS made", i)
			}
		}
	}
	return got, bad, err
}

// TestRecreateSSMSEveryIndex recreates every share of splits from threshold
// others and compares the bytes: one at a time from a random selection, in
// random order, for the small splits; for (255,128), the upper 127 shares
// from the lower 128 and the lower 127 from the upper 128, in one call each,
// and 16 single shares from random selections (every index one at a time
// costs a 128×128 inversion each, too long for the emulated runs).
func TestRecreateSSMSEveryIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		parts, th, size, chunk int
		aead                   byte
	}{
		{5, 3, 100, defaultChunkSize, aesGCM},
		{5, 3, 1000, 64, chaCha20Poly1305}, // 16 chunks
		{5, 3, 0, defaultChunkSize, aesGCMRandom},
		{4, 2, 128, 64, aesGCM}, // chunks exactly full
		{255, 128, 300, defaultChunkSize, chaCha20Poly1305},
	} {
		secret := testSecret(c.size, uint64(c.parts))
		shares := mustSplitSSMS(t, secret, c.parts, c.th, c.chunk, lcAEAD(c.aead), uint64(c.size))
		if c.parts > 5 {
			lower, upper := shares[:c.th], shares[c.th:]
			got, bad, err := recreateBoth(t, lower, seq(c.th, c.parts)...)
			if err != nil || bad != nil || !equalShares(got, upper) {
				t.Fatalf("(%d,%d): upper from lower: %v, bad %v, or other shares", c.parts, c.th, err, bad)
			}
			lower, upper = shares[:c.parts-c.th], shares[c.parts-c.th:]
			got, bad, err = recreateBoth(t, upper, seq(0, c.parts-c.th)...)
			if err != nil || bad != nil || !equalShares(got, lower) {
				t.Fatalf("(%d,%d): lower from upper: %v, bad %v, or other shares", c.parts, c.th, err, bad)
			}
		}
		for i := range c.parts {
			if c.parts > 5 && i%16 != 0 {
				continue
			}
			var given [][]byte
			for _, p := range rng.Perm(c.parts) {
				if p != i && len(given) < c.th {
					given = append(given, shares[p])
				}
			}
			got, bad, err := recreateBoth(t, given, i)
			if err != nil || bad != nil {
				t.Fatalf("(%d,%d): recreate %d: %v, bad %v", c.parts, c.th, i, err, bad)
			}
			if !bytes.Equal(got[0], shares[i]) {
				t.Fatalf("(%d,%d) of %d bytes: share %d recreated differs", c.parts, c.th, c.size, i)
			}
		}
	}
}

// seq returns lo…hi−1.
func seq(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func equalShares(a, b [][]byte) bool {
	return slices.EqualFunc(a, b, bytes.Equal)
}

// TestRecreateSSMSSeveral recreates several shares at once, with spare
// shares given, one of them forged (named, the shares still right), and
// one damaged.
func TestRecreateSSMSSeveral(t *testing.T) {
	secret := testSecret(5000, 3)
	shares := mustSplitSSMS(t, secret, 9, 3, 1024, lcAEAD(aesGCM), 4)
	given := [][]byte{shares[8], shares[0], shares[5], shares[2], shares[6]}
	got, bad, err := recreateBoth(t, given, 7, 1, 3)
	if err != nil || bad != nil {
		t.Fatalf("recreate: %v, bad %v", err, bad)
	}
	for k, i := range []int{7, 1, 3} {
		if !bytes.Equal(got[k], shares[i]) {
			t.Fatalf("share %d differs", i)
		}
	}
	forged := slices.Clone(shares[5])
	forge(forged, hl(forged)+100, 0x40) // a fragment byte of the first chunk, checksums recomputed
	damaged := slices.Clone(shares[2])
	damaged[len(damaged)-3] ^= 1
	given = [][]byte{shares[8], shares[0], forged, damaged, shares[6]}
	got, bad, err = recreateBoth(t, given, 7, 4)
	if err != nil {
		t.Fatalf("recreate with a forged and a damaged share: %v", err)
	}
	// The forged record's tag fails: Forged.
	if want := []BadShare{{Position: 2, Reason: Forged}, {Position: 3, Reason: Damaged}}; !slices.Equal(bad, want) {
		t.Fatalf("bad = %v, want %v", bad, want)
	}
	if !bytes.Equal(got[0], shares[7]) || !bytes.Equal(got[1], shares[4]) {
		t.Fatal("shares recreated with bad ones given differ")
	}
	// A forged key share among exactly threshold: refused, nothing made,
	// and the forged share named (its signature fails).
	forgedKey := slices.Clone(shares[1])
	forge(forgedKey, keyShareOff(forgedKey)+3, 1)
	got, _, err = recreateBoth(t, [][]byte{shares[0], forgedKey, shares[2]}, 4)
	var ce *CombineError
	if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrNotEnoughShares) ||
		!slices.Equal(ce.Bad, []BadShare{{Position: 1, Reason: Forged}}) {
		t.Fatalf("forged key share among threshold: %d shares, %v", len(got), err)
	}
	// With a spare share, it is named.
	got, bad, err = recreateBoth(t, [][]byte{shares[0], forgedKey, shares[2], shares[3], shares[4]}, 5)
	if err != nil || !slices.Equal(bad, []BadShare{{Position: 1, Reason: Forged}}) || !bytes.Equal(got[0], shares[5]) {
		t.Fatalf("forged key share with spares: %v, bad %v", err, bad)
	}
}

// TestRecreateSSMSRefusals checks the refusals: indexes, too few shares,
// shares of several splits.
func TestRecreateSSMSRefusals(t *testing.T) {
	shares := mustSplitSSMS(t, testSecret(200, 5), 5, 3, defaultChunkSize, lcAEAD(aesGCM), 6)
	other := mustSplitSSMS(t, testSecret(200, 5), 5, 3, defaultChunkSize, lcAEAD(aesGCM), 7)
	given := shares[:3]
	for _, c := range []struct {
		idx  []int
		want error
	}{
		{nil, errNoIndexes},
		{[]int{-1}, errIndexRange},
		{[]int{255}, errIndexRange},
		{[]int{4, 4}, errDuplicateIndex},
		{[]int{3, 1}, errIndexInUse},
	} {
		if got, _, err := RecreateSSMS(given, c.idx...); got != nil || !errors.Is(err, c.want) {
			t.Errorf("RecreateSSMS(%v) = %v, want %v", c.idx, err, c.want)
		}
	}
	if _, err := RecreateSSMSTo(nil, nil, 3); !errors.Is(err, errWriterCount) {
		t.Errorf("RecreateSSMSTo with no writer: %v", err)
	}
	if got, _, err := RecreateSSMS(shares[:2], 4); got != nil || !errors.Is(err, ErrNotEnoughShares) {
		t.Errorf("two shares of threshold 3: %v", err)
	}
	var ce *CombineError
	got, _, err := RecreateSSMS(append(slices.Clone(given), other[3]), 4)
	if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrMixedSplits) || len(ce.Splits) != 2 {
		t.Errorf("mixed splits: %v", err)
	}
	if _, _, err := ExtendSSMS(given, 0, nil); !errors.Is(err, errNoIndexes) {
		t.Errorf("extend by 0: %v", err)
	}
	if _, _, err := ExtendSSMS(given, 1, []int{254}); !errors.Is(err, errNoFreeIndex) {
		t.Errorf("extend above 254: %v", err)
	}
	if _, _, err := ExtendSSMS(given, 1, []int{300}); !errors.Is(err, errIndexRange) {
		t.Errorf("in use 300: %v", err)
	}
}

// TestExtendSSMSEveryMixture extends a (5,3) split by 2 and combines every
// 3 of the 7 shares.
func TestExtendSSMSEveryMixture(t *testing.T) {
	secret := testSecret(3000, 8)
	shares := mustSplitSSMS(t, secret, 5, 3, 1000, lcAEAD(chaCha20Poly1305), 9)
	added, bad, err := ExtendSSMS(shares[1:4], 2, []int{0, 4})
	if err != nil || bad != nil {
		t.Fatalf("ExtendSSMS: %v, bad %v", err, bad)
	}
	for k, s := range added {
		if info, err := InspectSSMS(s); err != nil || info.Index != 5+k {
			t.Fatalf("new share %d: index %d, %v", k, info.Index, err)
		}
	}
	// The streaming form makes the same shares.
	rs := []io.Reader{bytes.NewReader(shares[1]), bytes.NewReader(shares[2]), bytes.NewReader(shares[3])}
	var b0, b1 bytes.Buffer
	idx, bad, err := ExtendSSMSTo([]io.Writer{&b0, &b1}, rs, []int{0, 4})
	if err != nil || bad != nil || !slices.Equal(idx, []int{5, 6}) || !bytes.Equal(b0.Bytes(), added[0]) || !bytes.Equal(b1.Bytes(), added[1]) {
		t.Fatalf("ExtendSSMSTo: %v, %v, bad %v, or other shares", idx, err, bad)
	}
	all := append(slices.Clone(shares), added...)
	n := 0
	for a := range all {
		for b := a + 1; b < len(all); b++ {
			for c := b + 1; c < len(all); c++ {
				got, bad, err := CombineSSMS([][]byte{all[a], all[b], all[c]})
				if err != nil || bad != nil || !bytes.Equal(got, secret) {
					t.Fatalf("shares %d, %d, %d: %v, bad %v", a, b, c, err, bad)
				}
				n++
			}
		}
	}
	if n != 35 {
		t.Fatalf("%d subsets", n)
	}
	// Without inUse, the new indexes are above those given and their
	// batch's (the split's five): never a copy of share 3 or 4.
	added, _, err = ExtendSSMS([][]byte{shares[0], shares[2], shares[1]}, 1, nil)
	if info, _ := InspectSSMS(added[0]); err != nil || info.Index != 5 {
		t.Fatalf("extend of 0, 1, 2 without inUse: index %d, %v", info.Index, err)
	}
}

// refreshed returns the shares with the new headers.
func refreshed(shares, headers [][]byte) [][]byte {
	out := make([][]byte, len(shares))
	for i, s := range shares {
		out[i] = append(slices.Clone(headers[i]), s[hl(s):]...)
	}
	return out
}

// TestRefreshSSMS refreshes a (5,3) split: only the key shares change, every
// three new shares combine, and old and new do not mix.
func TestRefreshSSMS(t *testing.T) {
	secret := testSecret(2000, 10)
	shares := mustSplitSSMS(t, secret, 5, 3, 512, lcAEAD(aesGCM), 11)
	headers := make([][]byte, len(shares))
	for i, s := range shares {
		headers[i] = s[:hl(s)]
	}
	hs, err := RefreshSSMSHeaders(headers)
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]io.Reader, len(shares))
	for i, s := range shares {
		rs[i] = bytes.NewReader(s)
	}
	hs2, err := RefreshSSMS(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range [][][]byte{hs, hs2} {
		fresh := refreshed(shares, h)
		for i, s := range fresh {
			if !bytes.Equal(s[:hdrGeneration], shares[i][:hdrGeneration]) || bytes.Equal(s[keyShareOff(s):crcOff(s)], shares[i][keyShareOff(shares[i]):crcOff(shares[i])]) {
				t.Fatalf("share %d: fields other than the generation and key share changed, or the key share did not", i)
			}
			if info, err := InspectSSMS(s); err != nil || info.Generation != 1 {
				t.Fatalf("share %d: generation %d, %v; want 1", i, info.Generation, err)
			}
		}
		mixtures := 0
		for mask := range 1 << 10 {
			// Each share old (bit i) or new (bit 5+i); three in all.
			var given [][]byte
			old, new := 0, 0
			for i := range 5 {
				if mask>>i&1 == 1 {
					given, old = append(given, shares[i]), old+1
				}
				if mask>>(5+i)&1 == 1 {
					given, new = append(given, fresh[i]), new+1
				}
			}
			if len(given) != 3 {
				continue
			}
			got, _, err := CombineSSMS(given)
			switch {
			case old == 0 || new == 0:
				if err != nil || !bytes.Equal(got, secret) {
					t.Fatalf("mask %b: %v", mask, err)
				}
			default:
				// Two generations: refused as two splits, each listed.
				var ce *CombineError
				if err == nil || got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrMixedSplits) || len(ce.Splits) != 2 ||
					ce.Splits[0].Generation+ce.Splits[1].Generation != 1 {
					t.Fatalf("mask %b: old and new shares: %v", mask, err)
				}
				mixtures++
			}
		}
		if mixtures != 120-20 {
			t.Fatalf("%d mixtures", mixtures)
		}
		// Two refreshes differ.
		if bytes.Equal(hs[0], hs2[0]) {
			t.Fatal("two refreshes drew the same polynomial")
		}
	}
}

// TestRefreshSSMSRefusals checks that refresh derives nothing from bad
// headers and names them.
func TestRefreshSSMSRefusals(t *testing.T) {
	shares := mustSplitSSMS(t, testSecret(100, 12), 5, 3, defaultChunkSize, lcAEAD(aesGCM), 13)
	other := mustSplitSSMS(t, testSecret(100, 12), 5, 3, defaultChunkSize, lcAEAD(aesGCM), 14)
	hdrs := func(ss ...[]byte) [][]byte {
		out := make([][]byte, len(ss))
		for i, s := range ss {
			out[i] = slices.Clone(s[:hl(s)])
		}
		return out
	}
	forged := hdrs(shares[2])[0]
	forge(forged, keyShareOff(forged), 0x80)
	damaged := hdrs(shares[1])[0]
	damaged[keyShareOff(damaged)] ^= 1
	moved := hdrs(shares[3])[0]
	forge(moved, hdrThreshold, 3) // threshold 0: damaged
	for _, c := range []struct {
		name    string
		headers [][]byte
		err     error
		bad     []BadShare
	}{
		{"forged key share", hdrs(shares[0], shares[1], forged, shares[3], shares[4]), ErrInconsistentShares,
			[]BadShare{{Position: 2, Reason: Forged}}},
		{"damaged", append(hdrs(shares[0], shares[2], shares[3]), damaged), errRefreshBad,
			[]BadShare{{Position: 3, Reason: Damaged}}},
		{"duplicate", hdrs(shares[0], shares[1], shares[2], shares[1]), errRefreshBad,
			[]BadShare{{Position: 3, Reason: Duplicate}}},
		{"mixed", hdrs(shares[0], shares[1], shares[2], other[3]), ErrMixedSplits, nil},
		{"too few", hdrs(shares[0], shares[1]), ErrNotEnoughShares, nil},
		{"not ssms", [][]byte{[]byte("hello")}, ErrNotEnoughShares, []BadShare{{Position: 0, Reason: NotSSMS}}},
	} {
		got, err := RefreshSSMSHeaders(c.headers)
		var ce *CombineError
		if got != nil || !errors.As(err, &ce) || !errors.Is(err, c.err) || !slices.Equal(ce.Bad, c.bad) {
			t.Errorf("%s: %v (bad %v), want %v (bad %v)", c.name, err, ce, c.err, c.bad)
		}
	}
	// RefreshSSMS checks every signature: exactly threshold shares, one
	// forged, are refused, the forged one named.
	rs := []io.Reader{bytes.NewReader(shares[0]), bytes.NewReader(append(slices.Clone(forged), shares[2][hl(shares[2]):]...)), bytes.NewReader(shares[4])}
	if got, err := RefreshSSMS(rs); got != nil || !errors.Is(err, ErrNotEnoughShares) || !errors.As(err, new(*CombineError)) ||
		!slices.Equal(err.(*CombineError).Bad, []BadShare{{Position: 1, Reason: Forged}}) {
		t.Errorf("RefreshSSMS with a forged key share among threshold: %v", err)
	}
	rs = []io.Reader{bytes.NewReader(shares[0]), bytes.NewReader(append(slices.Clone(forged), shares[2][hl(shares[2]):]...)), bytes.NewReader(shares[4]), bytes.NewReader(shares[1])}
	var ce *CombineError
	if got, err := RefreshSSMS(rs); got != nil || !errors.As(err, &ce) || !slices.Equal(ce.Bad, []BadShare{{Position: 1, Reason: Forged}}) {
		t.Errorf("RefreshSSMS with a forged key share and a spare: %v", err)
	}
	// A record whose tag alone an outsider changed (its fragment intact,
	// its CRC recomputed): CombineSSMS needs no tag and recovers the
	// secret without naming it; RefreshSSMS, which would keep that record
	// in the refreshed share, checks every tag and refuses it, named.
	for _, aead := range []byte{aesGCM, chaCha20Poly1305, aesGCMRandom} {
		shares := mustSplitSSMS(t, testSecret(3*1024+5, 12), 4, 2, 1024, lcAEAD(aead), 13)
		tagged := slices.Clone(shares[1])
		spans := recordSpans(tagged)
		forgeAt(tagged, spans[len(spans)-1].tag+3, 0x08) // the last record's tag
		given := [][]byte{shares[0], tagged, shares[2], shares[3]}
		if got, bad, err := CombineSSMS(given); err != nil || bad != nil || !bytes.Equal(got, testSecret(3*1024+5, 12)) {
			t.Errorf("AEAD %d: CombineSSMS with a tag changed alone: %v, %v", aead, bad, err)
		}
		var rs []io.Reader
		for _, s := range given {
			rs = append(rs, bytes.NewReader(s))
		}
		var ce *CombineError
		if got, err := RefreshSSMS(rs); got != nil || !errors.As(err, &ce) || !slices.Equal(ce.Bad, []BadShare{{Position: 1, Reason: Forged}}) {
			t.Errorf("AEAD %d: RefreshSSMS with a record's tag changed: %v", aead, err)
		}
	}
}

// TestReshareSSMS reshares to other schemes, in memory and streaming.
func TestReshareSSMS(t *testing.T) {
	secret := testSecret(200000, 15)
	shares := mustSplitSSMS(t, secret, 5, 3, defaultChunkSize, lcAEAD(aesGCM), 16)
	for _, sc := range [][2]int{{5, 3}, {7, 4}, {3, 2}} {
		fresh, bad, err := ReshareSSMS(shares[1:4], sc[0], sc[1])
		if err != nil || bad != nil || len(fresh) != sc[0] {
			t.Fatalf("ReshareSSMS(%v): %v, bad %v", sc, err, bad)
		}
		if got, _, err := CombineSSMS(fresh[len(fresh)-sc[1]:]); err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("new split %v: %v", sc, err)
		}
		if splitID(t, fresh[0]) == splitID(t, shares[0]) {
			t.Fatal("same split ID")
		}
		bufs := make([]bytes.Buffer, sc[0])
		ws := make([]io.Writer, sc[0])
		for i := range ws {
			ws[i] = &bufs[i]
		}
		rs := []io.Reader{bytes.NewReader(shares[0]), bytes.NewReader(shares[4]), bytes.NewReader(shares[2])}
		if bad, err := ReshareSSMSTo(ws, rs, sc[1]); err != nil || bad != nil {
			t.Fatalf("ReshareSSMSTo(%v): %v, bad %v", sc, err, bad)
		}
		var given [][]byte
		for i := range sc[1] {
			given = append(given, bufs[i].Bytes())
		}
		if got, _, err := CombineSSMS(given); err != nil || !bytes.Equal(got, secret) {
			t.Fatalf("new split %v, streamed: %v", sc, err)
		}
	}
	if _, _, err := ReshareSSMS(shares, 3, 4); err == nil {
		t.Fatal("threshold 4 of 3 accepted")
	}
	// A chunk that fails midway: nothing whole is written. The last
	// chunk of two shares of three forged beyond correction.
	bad1, bad2 := slices.Clone(shares[0]), slices.Clone(shares[1])
	forge(bad1, len(bad1)-4-tagSize-6, 1) // a fragment byte: the tag and the CRC end the record
	forge(bad2, len(bad2)-4-tagSize-6, 1)
	var w [3]bytes.Buffer
	if _, err := ReshareSSMSTo([]io.Writer{&w[0], &w[1], &w[2]}, []io.Reader{bytes.NewReader(bad1), bytes.NewReader(bad2), bytes.NewReader(shares[2])}, 2); err == nil {
		t.Fatal("ReshareSSMSTo of shares whose last chunk does not open succeeded")
	}
	if _, _, err := CombineSSMS([][]byte{w[0].Bytes(), w[1].Bytes()}); err == nil {
		t.Fatal("ReshareSSMSTo wrote a split that combines after a failure")
	}
}

// bigStream makes TestRecreateSSMSStreamMemory recreate 1 GiB shares: too
// long for every run of test.sh, several of which are emulated.
var bigStream = flag.Bool("ssms.bigstream", false, "TestRecreateSSMSStreamMemory: recreate shares of 1 GiB")

// TestRecreateSSMSStreamMemory recreates two shares of a (4,2) split, split
// into pipes, from the two others, and checks them against the split's own,
// with the heap under 16 MiB: shares of 48 MiB, or with -ssms.bigstream
// shares of 1 GiB (a secret of 2 GiB) under 64 MiB.
func TestRecreateSSMSStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 96 MiB")
	}
	size, limit := 96<<20, uint64(16<<20)
	if *bigStream {
		size, limit = 2<<30, 64<<20
	}
	prs := make([]*io.PipeReader, 4)
	pws := make([]*io.PipeWriter, 4)
	ws := make([]io.Writer, 4)
	for i := range prs {
		prs[i], pws[i] = io.Pipe()
		ws[i] = pws[i]
	}
	peak := heapPeak(t)
	go func() {
		w, err := NewSplitWriter(ws, 2)
		if err != nil {
			panic(err)
		}
		buf := make([]byte, 1<<20)
		testRNG(1).Read(buf)
		for n := 0; n < size; n += len(buf) {
			buf[0]++
			w.Write(buf)
		}
		err = w.Close()
		for _, pw := range pws {
			pw.CloseWithError(err)
		}
	}()
	// The split's shares 2 and 3, hashed as they are written.
	want := make([][]byte, 2)
	lens := make([]int64, 2)
	done := make(chan struct{})
	for k := range 2 {
		go func() {
			h := sha256.New()
			lens[k], _ = io.Copy(h, prs[2+k])
			want[k] = h.Sum(nil)
			done <- struct{}{}
		}()
	}
	h0, h1 := sha256.New(), sha256.New()
	bad, err := RecreateSSMSTo([]io.Writer{h0, h1}, []io.Reader{prs[1], prs[0]}, 2, 3)
	<-done
	<-done
	p := peak()
	if err != nil || bad != nil {
		t.Fatalf("RecreateSSMSTo: %v, bad %v", err, bad)
	}
	if lens[0] < int64(size/2) || !bytes.Equal(h0.Sum(nil), want[0]) || !bytes.Equal(h1.Sum(nil), want[1]) {
		t.Fatalf("recreated shares differ from the split's (of %d bytes)", lens[0])
	}
	t.Logf("shares of %d MiB, peak heap %d MiB", lens[0]>>20, p>>20)
	if p > limit {
		t.Fatalf("peak heap %d MiB", p>>20)
	}
}

func BenchmarkRecreateSSMS(b *testing.B) {
	b.Run("1MiB_n5_t3", func(b *testing.B) {
		secret := testSecret(1<<20, 1)
		shares := mustSplitSSMS(b, secret, 5, 3, defaultChunkSize, lcAEAD(defaultAEAD()), 2)
		given := [][]byte{shares[0], shares[2], shares[3]}
		b.SetBytes(1 << 20)
		for b.Loop() {
			if _, _, err := RecreateSSMS(given, 4); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("CombineSSMS_1MiB_n5_t3", func(b *testing.B) {
		secret := testSecret(1<<20, 1)
		shares := mustSplitSSMS(b, secret, 5, 3, defaultChunkSize, lcAEAD(defaultAEAD()), 2)
		given := [][]byte{shares[0], shares[2], shares[3]}
		b.SetBytes(1 << 20)
		for b.Loop() {
			if _, _, err := CombineSSMS(given); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkRefreshSSMS(b *testing.B) {
	b.Run("64MiB", func(b *testing.B) {
		shares := mustSplitSSMS(b, testSecret(64<<20, 1), 5, 3, defaultChunkSize, lcAEAD(defaultAEAD()), 2)
		headers := make([][]byte, len(shares))
		for i, s := range shares {
			headers[i] = s[:hl(s)]
		}
		for b.Loop() {
			if _, err := RefreshSSMSHeaders(headers); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzRecreateSSMS gives RecreateSSMS and RecreateSSMSTo two good shares of a
// (4,2) split of three chunks and arbitrary bytes in place of the third:
// they fail, or make exactly the split's share at the index asked for (every
// chunk is authenticated, so nothing else can come out). RefreshSSMSHeaders
// gets the same three headers: it fails, or its headers combine with the
// records when the bytes given carry share 1's genuine header.
//
// Index 4 is one no share has: the share made there must be the one the two
// good shares make.
func FuzzRecreateSSMS(f *testing.F) {
	secret := testSecret(150, 20)
	shares := mustSplitSSMS(f, secret, 4, 2, 64, lcAEAD(aesGCM), 21)
	f.Add(shares[1], byte(3))
	f.Add(shares[1][:hl(shares[1])], byte(1))
	f.Add(shares[1][:len(shares[1])-1], byte(3))
	f.Add(shares[3], byte(1))
	f.Add(shares[0], byte(3))
	forged := slices.Clone(shares[1])
	forge(forged, hl(forged)+10, 1)
	f.Add(forged, byte(3))
	forged = slices.Clone(shares[1])
	forge(forged, keyShareOff(forged), 1)
	f.Add(forged, byte(3))
	f.Add([]byte("GFSSMS\x02"), byte(200))
	// Index 4 is new: the share the two good ones make there.
	ext, _, err := RecreateSSMS([][]byte{shares[0], shares[2]}, 4)
	if err != nil {
		f.Fatal(err)
	}
	want := append(slices.Clone(shares), ext[0])
	f.Fuzz(func(t *testing.T, data []byte, index byte) {
		i := int(index) % 5
		given := [][]byte{shares[0], data, shares[2]}
		got, bad, err := recreateBoth(t, given, i)
		if err != nil {
			if got != nil || bad != nil {
				t.Fatalf("error %v with shares or bad ones", err)
			}
		} else if !bytes.Equal(got[0], want[i]) {
			t.Fatalf("recreated at %d a share other than the split's", i)
		}
		hs, err := RefreshSSMSHeaders([][]byte{shares[0], data, shares[2]})
		if err == nil && len(data) >= hl(shares[1]) && bytes.Equal(data[:hl(shares[1])], shares[1][:hl(shares[1])]) {
			fresh := refreshed([][]byte{shares[0], shares[1], shares[2]}, hs)
			if s, _, err := CombineSSMS(fresh[1:]); err != nil || !bytes.Equal(s, secret) {
				t.Fatalf("refreshed shares do not combine: %v", err)
			}
		}
	})
}

// TestSSMSBatchLifecycle: each operation signs once per batch it makes,
// and a share of an existing batch is made again byte for byte. A split
// is one batch; an extension another; a refresh keeps each batch's range
// (so each header its length) and signs each once; a share recreated at
// an index of a given share's batch is that batch's, and at an index of
// no given share's batch, a new batch of its own that combines all the
// same.
func TestSSMSBatchLifecycle(t *testing.T) {
	secret := testSecret(500, 91)
	a := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 91)
	sigs := func(ss ...[]byte) int {
		m := map[string]bool{}
		for _, s := range ss {
			m[string(s[hdrSignature:hdrPath])] = true
		}
		return len(m)
	}
	if n := sigs(a...); n != 1 {
		t.Fatalf("a split signed %d times", n)
	}
	e, _, err := ExtendSSMS(a[:3], 3, []int{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if n := sigs(e...); n != 1 || e[0][hdrBatchFirst] != 5 || e[0][hdrBatchSize] != 3 {
		t.Fatalf("an extension: %d signatures, batch (%d, %d)", n, e[0][hdrBatchFirst], e[0][hdrBatchSize])
	}
	again, _, err := RecreateSSMS([][]byte{a[0], a[4], e[0]}, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again[0], e[1]) || !bytes.Equal(again[1], a[1]) {
		t.Fatal("shares of given shares' batches, made again, differ")
	}
	alone, _, err := RecreateSSMS(a[:3], 6)
	if err != nil {
		t.Fatal(err)
	}
	if alone[0][hdrBatchFirst] != 6 || alone[0][hdrBatchSize] != 1 || bytes.Equal(alone[0], e[1]) {
		t.Fatal("a share of no given share's batch is not a batch of its own")
	}
	if got, bad, err := CombineSSMS([][]byte{alone[0], e[1], a[2], e[0]}); err != nil || !bytes.Equal(got, secret) || len(bad) != 1 || bad[0].Reason != Duplicate {
		t.Fatalf("with a share of another batch at one index: %v, %v", bad, err)
	}
	all := append(slices.Clone(a), e...)
	hs := make([][]byte, len(all))
	for i, s := range all {
		hs[i] = s[:hl(s)]
	}
	fresh, err := RefreshSSMSHeaders(hs)
	if err != nil {
		t.Fatal(err)
	}
	next := make([][]byte, len(all))
	for i, h := range fresh {
		if len(h) != hl(all[i]) {
			t.Fatalf("share %d: the refreshed header is %d bytes, the old %d", i, len(h), hl(all[i]))
		}
		next[i] = append(slices.Clone(h), all[i][len(h):]...)
	}
	if n := sigs(fresh...); n != 2 {
		t.Fatalf("a refresh of two batches signed %d times", n)
	}
	again, _, err = RecreateSSMS([][]byte{next[0], next[1], next[5]}, 7, 3)
	if err != nil || !bytes.Equal(again[0], next[7]) || !bytes.Equal(again[1], next[3]) {
		t.Fatalf("refreshed shares made again differ: %v", err)
	}
	if got, _, err := CombineSSMS(next[4:7]); err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("refreshed shares of two batches: %v", err)
	}
}
