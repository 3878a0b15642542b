package shamir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// testRNG is a deterministic randomness source for the internal functions.
func testRNG(seed uint64) io.Reader {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	return rand.NewChaCha8(s)
}

func testSecret(n int, seed uint64) []byte {
	b := make([]byte, n)
	testRNG(seed ^ 0x5ec2e7).Read(b)
	return b
}

func mustSplitSSMS(t testing.TB, secret []byte, parts, threshold, chunk int, aead byte, seed uint64) [][]byte {
	t.Helper()
	shares, err := splitSSMS(secret, parts, threshold, chunk, aead, testRNG(seed))
	if err != nil {
		t.Fatalf("splitSSMS(%d bytes, %d, %d): %v", len(secret), parts, threshold, err)
	}
	for _, s := range shares {
		if size := shareSize(len(secret), parts, threshold, chunk, aeadOverhead(aead)); len(s) != size {
			t.Fatalf("share of %d bytes, shareSize says %d", len(s), size)
		}
	}
	return shares
}

// combineStream is CombineSSMS through NewCombineReader, reading in odd
// sizes. Like CombineSSMS, it returns the bad shares beside the secret when
// it recovered it; unlike it, it returns what it read when it did not.
func combineStream(shares [][]byte) ([]byte, []BadShare, error) {
	rs := make([]io.Reader, len(shares))
	for i, s := range shares {
		rs[i] = bytes.NewReader(s)
	}
	r, err := NewCombineReader(rs)
	if err != nil {
		return nil, nil, err
	}
	var out []byte
	buf := make([]byte, 1000)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, r.BadShares(), nil
		}
		if err != nil {
			return out, nil, err
		}
	}
}

// allBad returns the bad shares a combining function reported: bad when it
// recovered the secret, those of its *CombineError otherwise.
func allBad(bad []BadShare, err error) []BadShare {
	if err == nil {
		return bad
	}
	var ce *CombineError
	if errors.As(err, &ce) {
		return ce.Bad
	}
	return nil
}

// positions returns the positions of bad.
func positions(bad []BadShare) []int {
	var pos []int
	for _, b := range bad {
		pos = append(pos, b.Position)
	}
	return pos
}

// checkReasons checks that bad is by increasing position, each with one of
// the documented reasons, and returns the reasons.
func checkReasons(t *testing.T, bad []BadShare) []Reason {
	t.Helper()
	var why []Reason
	for i, b := range bad {
		if b.Reason < Inconsistent || b.Reason > OtherGeneration || b.Reason.String() == "" {
			t.Fatalf("share %d: reason %d is not one of the documented ones", b.Position, b.Reason)
		}
		if i > 0 && b.Position <= bad[i-1].Position {
			t.Fatalf("bad shares not by increasing position: %v", bad)
		}
		if (b.Reason == Unreadable) != (b.Err != nil) {
			t.Fatalf("share %d: reason %v with Err %v", b.Position, b.Reason, b.Err)
		}
		why = append(why, b.Reason)
	}
	return why
}

// wantReasons checks the reasons CombineSSMS and the reader give.
func wantReasons(t *testing.T, shares [][]byte, want ...Reason) {
	t.Helper()
	_, bad, err := CombineSSMS(shares)
	_, sbad, serr := combineStream(shares)
	for _, e := range []struct {
		bad []BadShare
		err error
	}{{bad, err}, {sbad, serr}} {
		if got := checkReasons(t, allBad(e.bad, e.err)); !slices.Equal(got, want) {
			t.Fatalf("reasons %v (err %v), want %v", got, e.err, want)
		}
	}
}

// checkCombine runs CombineSSMS and the reader on shares. If want is not nil,
// both must recover it with a nil error and name exactly bad; otherwise both
// must fail with a *CombineError, name exactly bad (when bad is not nil),
// and the reader must have returned only a prefix of the secret.
func checkCombine(t *testing.T, shares [][]byte, secret, want []byte, bad []int) {
	t.Helper()
	got, gbad, err := CombineSSMS(shares)
	sgot, sbad, serr := combineStream(shares)
	for _, form := range []struct {
		name string
		got  []byte
		bad  []BadShare
		err  error
	}{{"CombineSSMS", got, gbad, err}, {"reader", sgot, sbad, serr}} {
		all := allBad(form.bad, form.err)
		pos := positions(all)
		checkReasons(t, all)
		if want != nil {
			if form.err != nil || !bytes.Equal(form.got, want) {
				t.Fatalf("%s: got %d bytes, err %v; want the secret", form.name, len(form.got), form.err)
			}
			if form.name == "CombineSSMS" && form.got == nil {
				t.Fatalf("CombineSSMS: nil secret with a recovered one")
			}
		} else {
			var ce *CombineError
			if !errors.As(form.err, &ce) {
				t.Fatalf("%s: err = %v, want a *CombineError", form.name, form.err)
			}
			if !errors.Is(form.err, ErrNotEnoughShares) && !errors.Is(form.err, ErrInconsistentShares) && !errors.Is(form.err, ErrMixedSplits) {
				t.Fatalf("%s: err = %v, not one of the documented causes", form.name, form.err)
			}
			if form.bad != nil {
				t.Fatalf("%s: bad shares returned beside an error", form.name)
			}
			if form.name == "CombineSSMS" && form.got != nil {
				t.Fatalf("CombineSSMS: returned %d bytes with an error", len(form.got))
			}
			if !bytes.HasPrefix(secret, form.got) {
				t.Fatalf("%s: returned bytes that are not the secret's", form.name)
			}
		}
		if bad != nil && !slices.Equal(pos, bad) || bad == nil && want != nil && len(pos) > 0 {
			t.Fatalf("%s: bad shares %v (err %v), want %v", form.name, pos, form.err, bad)
		}
	}
}

func TestSSMSRoundTrip(t *testing.T) {
	shapes := [][2]int{{2, 2}, {3, 2}, {5, 3}, {4, 4}, {10, 7}, {16, 2}, {255, 2}, {255, 255}, {40, 17}}
	sizes := []int{0, 1, 2, 15, 16, 17, 63, 64, 65, 200, 1000}
	for _, aead := range testAEADs() {
		for _, sh := range shapes {
			for _, n := range sizes {
				secret := testSecret(n, uint64(n))
				shares := mustSplitSSMS(t, secret, sh[0], sh[1], 64, aead, uint64(n*sh[0]))
				// Any threshold shares, here the last ones (all parity when possible).
				checkCombine(t, shares[sh[0]-sh[1]:], secret, secret, nil)
			}
		}
	}
	// The default chunk size, around its boundaries.
	for _, n := range []int{0, 1, defaultChunkSize - 1, defaultChunkSize, defaultChunkSize + 1, 3*defaultChunkSize + 5} {
		secret := testSecret(n, 9)
		shares, err := SplitSSMS(secret, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		checkCombine(t, [][]byte{shares[4], shares[0], shares[2]}, secret, secret, nil)
		checkCombine(t, shares, secret, secret, nil)
	}
}

// TestSSMSEverySubset combines every subset of the shares, in a shuffled
// order: those of at least threshold shares recover the secret, the others
// fail without naming any share.
func TestSSMSEverySubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	secret := testSecret(150, 1)
	for parts := 2; parts <= 6; parts++ {
		for th := 2; th <= parts; th++ {
			shares := mustSplitSSMS(t, secret, parts, th, 64, defaultAEAD(), uint64(parts*10+th))
			for mask := 1; mask < 1<<parts; mask++ {
				var sub [][]byte
				for i := range parts {
					if mask>>i&1 == 1 {
						sub = append(sub, shares[i])
					}
				}
				rng.Shuffle(len(sub), func(i, j int) { sub[i], sub[j] = sub[j], sub[i] })
				if len(sub) >= th {
					checkCombine(t, sub, secret, secret, nil)
				} else {
					checkCombine(t, sub, secret, nil, []int{})
				}
			}
		}
	}
}

// TestSSMSStreamCompatible checks that NewSplitWriter writes, from the same
// randomness, exactly the shares splitSSMS makes, whatever the sizes of the
// writes, and that each form reads the other's.
func TestSSMSStreamCompatible(t *testing.T) {
	skipIfEnforced(t, "seals with ChaCha20-Poly1305 (TestSSMSStreamCompatibleAEAD3 covers AEAD 3)")
	for _, n := range []int{0, 1, 63, 64, 65, 128, 1000} {
		for _, step := range []int{1, 7, 64, 100, 5000} {
			secret := testSecret(n, 3)
			want := mustSplitSSMS(t, secret, 5, 3, 64, chaCha20Poly1305, 42)
			bufs := make([]bytes.Buffer, 5)
			ws := make([]io.Writer, 5)
			for i := range ws {
				ws[i] = &bufs[i]
			}
			w, err := newSplitWriter(ws, 3, 64, chaCha20Poly1305, testRNG(42))
			if err != nil {
				t.Fatal(err)
			}
			for p := secret; len(p) > 0; p = p[min(step, len(p)):] {
				if k, err := w.Write(p[:min(step, len(p))]); err != nil || k != min(step, len(p)) {
					t.Fatalf("Write: %d, %v", k, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte{1}); !errors.Is(err, errClosed) {
				t.Fatalf("Write after Close: %v", err)
			}
			got := make([][]byte, 5)
			for i := range got {
				got[i] = bufs[i].Bytes()
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("n=%d step=%d: share %d differs between the writer and splitSSMS", n, step, i)
				}
			}
		}
	}
	// The exported forms, with their own randomness.
	secret := testSecret(3*defaultChunkSize+77, 4)
	var bufs [4]bytes.Buffer
	w, err := NewSplitWriter([]io.Writer{&bufs[0], &bufs[1], &bufs[2], &bufs[3]}, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(secret[:1000])
	w.Write(secret[1000:])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	shares := [][]byte{bufs[0].Bytes(), bufs[1].Bytes(), bufs[2].Bytes(), bufs[3].Bytes()}
	checkCombine(t, shares[2:], secret, secret, nil)
	one, err := SplitSSMS(secret, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkCombine(t, one[1:3], secret, secret, nil)
}

// TestSSMSPipes connects the writer to the reader through pipes.
// splitToPipes runs a split writer of threshold into parts pipes, fed with
// write, on a goroutine of its own; it returns the pipes' read ends and a
// channel that gets the writer's error once every pipe is closed.
func splitToPipes(parts, threshold int, write func(io.Writer) error) ([]io.Reader, <-chan error) {
	rs := make([]io.Reader, parts)
	ws := make([]io.Writer, parts)
	pws := make([]*io.PipeWriter, parts)
	for i := range rs {
		pr, pw := io.Pipe()
		rs[i], ws[i], pws[i] = pr, pw, pw
	}
	done := make(chan error, 1)
	go func() {
		w, err := NewSplitWriter(ws, threshold)
		if err == nil {
			err = write(w)
		}
		if err == nil {
			err = w.Close()
		}
		for _, pw := range pws {
			pw.CloseWithError(err)
		}
		done <- err
	}()
	return rs, done
}

func TestSSMSPipes(t *testing.T) {
	secret := testSecret(5*defaultChunkSize+3, 5)
	rs, done := splitToPipes(4, 3, func(w io.Writer) error { _, err := w.Write(secret); return err })
	r, err := NewCombineReader(rs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("read %d bytes, err %v", len(got), err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// flips are the single-byte changes tried on every byte.
var flips = []byte{0x01, 0x80, 0xff}

// TestSSMSEveryByteChange changes every byte of every share of small share
// sets, one at a time: with all shares the secret is recovered and the
// changed share named; with the changed share among only threshold shares,
// recovery fails and names it.
func TestSSMSEveryByteChange(t *testing.T) {
	for _, sh := range [][2]int{{3, 2}, {5, 3}} {
		parts, th := sh[0], sh[1]
		secret := testSecret(100, 6)
		shares := mustSplitSSMS(t, secret, parts, th, 32, defaultAEAD(), 11)
		for i := range shares {
			for k := range shares[i] {
				for _, f := range flips {
					changed := slices.Clone(shares)
					changed[i] = slices.Clone(shares[i])
					changed[i][k] ^= f
					checkCombine(t, changed, secret, secret, []int{i})
					// Only threshold shares, the changed one last.
					sub := append(slices.Clone(changed[:i]), changed[i+1:]...)[:th-1]
					sub = append(sub, changed[i])
					checkCombine(t, sub, secret, nil, []int{th - 1})
				}
			}
		}
	}
}

// forge changes byte k of the share s (in place) and recomputes the CRCs, as
// someone altering it on purpose would; k must be in the key share or in a
// fragment.
func forge(s []byte, k int, f byte) {
	h, _ := parseHeader(s)
	s[k] ^= f
	hcrc := crcOf(s[:crcOff(s)])
	binary.BigEndian.PutUint32(s[crcOff(s):], hcrc)
	var num chunkNum
	for off, count := h.length, uint64(0); off < len(s); count++ {
		n, _, _ := recordLength(h, count, s[off:])
		f := fragSize(n, h.threshold, h.overhead)
		num.set(count, false)
		end := off + 4 + f + tagSize // the tag is left as it is
		binary.BigEndian.PutUint32(s[end:], recordCRC(recordSeed(s), &num, s[off:end]))
		off += recordOverhead + f
	}
}

// TestSSMSForgedShare alters the key share and every fragment byte of each
// share with valid CRCs: the share cannot be told bad on its own, but with
// all shares given the secret is recovered and the forged one named.
func TestSSMSForgedShare(t *testing.T) {
	for _, sh := range [][2]int{{4, 2}, {5, 3}} {
		parts, th := sh[0], sh[1]
		secret := testSecret(70, 7)
		shares := mustSplitSSMS(t, secret, parts, th, 32, defaultAEAD(), 12)
		for i := range shares {
			for _, k := range forgeable(shares[i]) {
				changed := slices.Clone(shares)
				changed[i] = slices.Clone(shares[i])
				forge(changed[i], k, 0x5a)
				if h, why := parseHeader(changed[i]); h == nil {
					t.Fatalf("forged share does not parse: %v", why)
				}
				checkCombine(t, changed, secret, secret, []int{i})
				// With threshold shares, it is still never a wrong secret.
				// A changed header fails its signature, checked without the
				// key: the share is named; a changed record cannot be told
				// from the others.
				sub := append(slices.Clone(changed[:i]), changed[i+1:]...)[:th-1]
				var named []int
				if k < hl(shares[i]) {
					named = []int{th - 1}
				}
				checkCombine(t, append(sub, changed[i]), secret, nil, named)
			}
		}
	}
}

func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// forgeable returns the offsets of the key share and fragment bytes of s.
func forgeable(s []byte) []int {
	h, _ := parseHeader(s)
	var ks []int
	// The signature's bytes are not among them: a header changed there
	// alone still holds the genuine fields, and is named only once its
	// signature is checked (TestSSMSSignatureOnly).
	for k := hdrKeyCheck; k < hdrSignature; k++ {
		ks = append(ks, k)
	}
	for k := keyShareOff(s); k < crcOff(s); k++ {
		ks = append(ks, k)
	}
	for off, count := hl(s), uint64(0); off < len(s); count++ {
		n, _, _ := recordLength(h, count, s[off:])
		f := fragSize(n, h.threshold, h.overhead)
		for k := off + 4; k < off+4+f; k++ {
			ks = append(ks, k)
		}
		off += recordOverhead + f
	}
	return ks
}

func TestSSMSTruncateExtend(t *testing.T) {
	secret := testSecret(100, 8)
	shares := mustSplitSSMS(t, secret, 4, 2, 32, defaultAEAD(), 13)
	for i := range shares {
		for n := range len(shares[i]) {
			changed := slices.Clone(shares)
			changed[i] = shares[i][:n]
			checkCombine(t, changed, secret, secret, []int{i})
		}
		for _, tail := range [][]byte{{0}, shares[i][len(shares[i])-20:], shares[i][hl(shares[i]):]} {
			changed := slices.Clone(shares)
			changed[i] = append(slices.Clone(shares[i]), tail...)
			checkCombine(t, changed, secret, secret, []int{i})
		}
	}
	// Every share cut after its first record: a truncated secret is never
	// returned.
	cut := make([][]byte, len(shares))
	for i, s := range shares {
		cut[i] = s[:hl(s)+recordOverhead+fragSize(32, 2, aeadOverhead(defaultAEAD()))]
	}
	checkCombine(t, cut, secret, nil, []int{0, 1, 2, 3})
	// Records swapped in every share.
	rec := recordOverhead + fragSize(32, 2, aeadOverhead(defaultAEAD()))
	swapped := make([][]byte, len(shares))
	for i, s := range shares {
		s = slices.Clone(s)
		a, b := s[hl(s):hl(s)+rec], s[hl(s)+rec:hl(s)+2*rec]
		tmp := slices.Clone(a)
		copy(a, b)
		copy(b, tmp)
		swapped[i] = s
	}
	checkCombine(t, swapped, secret, nil, []int{0, 1, 2, 3})
}

// TestSSMSMixedSplits: shares of more than one split are never combined
// without the caller naming the split (issue #11, item 1).
func TestSSMSMixedSplits(t *testing.T) {
	a := testSecret(300, 9)
	b := testSecret(300, 10)
	sa := mustSplitSSMS(t, a, 5, 3, 64, defaultAEAD(), 14)
	sb := mustSplitSSMS(t, b, 3, 2, 64, defaultAEAD(), 15)
	ida, idb := splitID(t, sa[0]), splitID(t, sb[0])

	// An old split of 5 and a new one of 3, in one folder: refused, both
	// listed, however many shares each has.
	for _, given := range [][][]byte{
		{sa[0], sa[1], sa[2], sa[3], sa[4], sb[0], sb[1], sb[2]},
		{sb[0], sa[0], sb[1], sa[1]},
		{sa[0], sb[1], sa[2], sb[2]},
	} {
		for name, combine := range map[string]func([][]byte) ([]byte, []BadShare, error){"CombineSSMS": CombineSSMS, "reader": combineStream} {
			got, bad, err := combine(given)
			var ce *CombineError
			if got != nil || bad != nil || !errors.As(err, &ce) || !errors.Is(err, ErrMixedSplits) || len(ce.Splits) != 2 {
				t.Fatalf("%s: %d bytes, %v, %v; want ErrMixedSplits listing two splits", name, len(got), bad, err)
			}
			for _, sp := range ce.Splits {
				var want []int
				for i, s := range given {
					if splitID(t, s) == sp.ID {
						want = append(want, i)
					}
				}
				wantT, wantGood := 3, min(len(want), 5)
				if sp.ID == idb {
					wantT = 2
				}
				if len(want) < wantT {
					wantGood = 0 // the first chunk cannot open
				}
				if !slices.Equal(sp.Positions, want) || sp.Threshold != wantT || sp.Good != wantGood {
					t.Errorf("%s: split %v: %+v, want positions %v, threshold %d, %d good", name, sp.ID, sp, want, wantT, wantGood)
				}
			}
			if !strings.Contains(err.Error(), ida.String()) || !strings.Contains(err.Error(), idb.String()) {
				t.Errorf("%s: %v does not name both splits", name, err)
			}
		}
	}

	// Naming the split recovers it, the others' shares named as such.
	given := [][]byte{sa[0], sa[1], sa[2], sa[3], sa[4], sb[0], sb[1], sb[2]}
	for _, c := range []struct {
		id     SplitID
		secret []byte
		other  []int
	}{{ida, a, []int{5, 6, 7}}, {idb, b, []int{0, 1, 2, 3, 4}}} {
		got, bad, err := CombineSSMSSplit(given, SplitName{ID: c.id})
		var want []BadShare
		for _, p := range c.other {
			want = append(want, BadShare{Position: p, Reason: OtherSplit})
		}
		if err != nil || !bytes.Equal(got, c.secret) || !slices.Equal(bad, want) {
			t.Errorf("CombineSSMSSplit(%v) = %d bytes, %v, %v; want the secret, %v", c.id, len(got), bad, err, want)
		}
		rs := make([]io.Reader, len(given))
		for i, s := range given {
			rs[i] = bytes.NewReader(s)
		}
		r, err := NewCombineReaderSplit(rs, SplitName{ID: c.id})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, c.secret) || !slices.Equal(r.BadShares(), want) {
			t.Errorf("NewCombineReaderSplit(%v): %d bytes, %v, bad %v", c.id, len(got), err, r.BadShares())
		}
	}
	// A split named but absent: not enough shares.
	if _, _, err := CombineSSMSSplit(given, SplitName{ID: SplitID{1}}); !errors.Is(err, ErrNotEnoughShares) {
		t.Errorf("CombineSSMSSplit of an absent split: %v", err)
	}
	// 4 shares of A (2 truncated) and 3 good of B, B named: B recovers.
	mixed := [][]byte{sa[0][:100], sa[1], sa[2][:70], sa[3], sb[0], sb[1], sb[2]}
	if got, _, err := CombineSSMSSplit(mixed, SplitName{ID: idb}); err != nil || !bytes.Equal(got, b) {
		t.Errorf("B named among 4 of A (2 truncated): %d bytes, %v", len(got), err)
	}
	// The same secret split twice is still two splits.
	sa2 := mustSplitSSMS(t, a, 5, 3, 64, defaultAEAD(), 16)
	if _, _, err := CombineSSMS([][]byte{sa2[0], sa[1], sa[2], sa[3]}); !errors.Is(err, ErrMixedSplits) {
		t.Errorf("two splits of one secret: %v", err)
	}
	if id, err := ParseSplitID(ida.String()); err != nil || id != ida {
		t.Errorf("ParseSplitID(%q) = %v, %v", ida.String(), id, err)
	}
	for _, s := range []string{"", "00", ida.String() + "0", "g" + ida.String()[1:]} {
		if _, err := ParseSplitID(s); err == nil {
			t.Errorf("ParseSplitID(%q) succeeded", s)
		}
	}
}

func splitID(t *testing.T, share []byte) SplitID {
	t.Helper()
	info, err := InspectSSMS(share)
	if err != nil {
		t.Fatal(err)
	}
	return info.SplitID
}

// TestSSMSDuplicates: copies are told by their content, after the checks,
// so a damaged copy never hides a good one (issue #11, item 2).
func TestSSMSDuplicates(t *testing.T) {
	secret := testSecret(100, 11)
	s := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 17)
	checkCombine(t, [][]byte{s[0], s[1], s[1], s[2]}, secret, secret, []int{2})
	wantReasons(t, [][]byte{s[0], s[1], s[1], s[2]}, Duplicate)
	checkCombine(t, [][]byte{s[3], s[3], s[3], s[4], s[0]}, secret, secret, []int{1, 2})
	checkCombine(t, [][]byte{s[0], s[0], s[1]}, secret, nil, []int{1})

	// A damaged copy before the good copy of share 1, threshold 2.
	s2 := mustSplitSSMS(t, secret, 3, 2, 64, defaultAEAD(), 18)
	damaged := slices.Clone(s2[1])
	damaged[len(damaged)-1] ^= 1
	checkCombine(t, [][]byte{damaged, s2[1], s2[2]}, secret, secret, []int{0})
	wantReasons(t, [][]byte{damaged, s2[1], s2[2]}, Damaged)
	// A forged copy (checksums recomputed, the record altered, by an
	// outsider: its tag fails) before or after the good one: named Forged,
	// whatever its place, with three indexes or two.
	forged := slices.Clone(s2[1])
	forge(forged, hl(forged)+4, 0x20)
	for _, given := range [][][]byte{{s2[2], forged, s2[0], s2[1]}, {s2[1], s2[0], s2[2], forged}, {forged, s2[1], s2[2]}, {s2[1], forged, s2[2]}} {
		got, bad, err := CombineSSMS(given)
		pos := slices.IndexFunc(given, func(b []byte) bool { return bytes.Equal(b, forged) })
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, []BadShare{{Position: pos, Reason: Forged}}) {
			t.Errorf("forged copy at %d: %d bytes, %v, %v", pos, len(got), bad, err)
		}
	}
	// The same copy altered by holders of the key (its tag recomputed):
	// with three indexes it is named Inconsistent, whatever its place;
	// with two (threshold 2), the two values of index 1 are as good as
	// each other, beyond the bound, and the shares are refused.
	forged = slices.Clone(s2[1])
	forgeAsHolder(t, forged, hl(forged)+4, 0x20, keyOfShares(t, s2[:2]))
	for _, given := range [][][]byte{{s2[2], forged, s2[0], s2[1]}, {s2[1], s2[0], s2[2], forged}} {
		got, bad, err := CombineSSMS(given)
		pos := slices.IndexFunc(given, func(b []byte) bool { return bytes.Equal(b, forged) })
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, []BadShare{{Position: pos, Reason: Inconsistent}}) {
			t.Errorf("holders' copy at %d: %d bytes, %v, %v", pos, len(got), bad, err)
		}
	}
	for _, given := range [][][]byte{{forged, s2[1], s2[2]}, {s2[1], forged, s2[2]}} {
		got, _, err := CombineSSMS(given)
		var ce *CombineError
		if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || len(ce.Sets) != 2 {
			t.Errorf("holders' copy beside the good one, threshold 2, two indexes: %d bytes, %v", len(got), err)
		}
	}
}

// forgeAsHolder is forge by holders of the key key: the record tags are
// recomputed too (docs/FORMAT.md), so that only the decoding bound can
// tell the change.
func forgeAsHolder(t *testing.T, s []byte, k int, f byte, key []byte) {
	t.Helper()
	forge(s, k, f)
	fmtRetag(s, key)
	fixCRCsFromFormat(s)
}

// TestSSMSBeyondBound: one record altered by holders of the key (its tag
// recomputed) among (3,2) is beyond the bound (2·1 > 3 − 2): the two
// shares that agree cannot be told from holders of the key who made them,
// so the shares are refused, both sets named. Altered by an outsider, its
// tag fails: it is named Forged, and the two others recover the secret.
func TestSSMSBeyondBound(t *testing.T) {
	secret := testSecret(100, 41)
	s := mustSplitSSMS(t, secret, 3, 2, 64, defaultAEAD(), 41)
	altered := slices.Clone(s[2])
	forge(altered, hl(altered)+6, 0x01)
	for _, given := range [][][]byte{{s[0], s[1], altered}, {altered, s[0], s[1]}} {
		p := slices.IndexFunc(given, func(b []byte) bool { return bytes.Equal(b, altered) })
		checkCombine(t, given, secret, secret, []int{p})
		wantReasons(t, given, Forged)
	}
	altered = slices.Clone(s[2])
	forgeAsHolder(t, altered, hl(altered)+6, 0x01, keyOfShares(t, s[:2]))
	for _, given := range [][][]byte{{s[0], s[1], altered}, {altered, s[0], s[1]}} {
		got, _, err := CombineSSMS(given)
		var ce *CombineError
		if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || len(ce.Sets) != 2 || len(ce.Sets[0]) != 2 || len(ce.Sets[1]) != 1 {
			t.Fatalf("%v", err)
		}
		if p := slices.IndexFunc(given, func(b []byte) bool { return bytes.Equal(b, altered) }); ce.Sets[1][0] != p {
			t.Fatalf("sets %v, the altered share is at %d", ce.Sets, p)
		}
	}
}

func TestSSMSErrors(t *testing.T) {
	for _, c := range []struct {
		parts, threshold int
		err              error
	}{
		{2, 3, errPartsBelowThreshold},
		{256, 3, errTooManyParts},
		{5, 1, errThresholdTooSmall},
		{5, 0, errThresholdTooSmall},
		{1, 1, errThresholdTooSmall},
	} {
		if _, err := SplitSSMS([]byte("x"), c.parts, c.threshold); !errors.Is(err, c.err) {
			t.Errorf("SplitSSMS(%d, %d): %v, want %v", c.parts, c.threshold, err, c.err)
		}
		ws := make([]io.Writer, max(c.parts, 0))
		for i := range ws {
			ws[i] = io.Discard
		}
		if _, err := NewSplitWriter(ws, c.threshold); !errors.Is(err, c.err) {
			t.Errorf("NewSplitWriter(%d, %d): %v, want %v", c.parts, c.threshold, err, c.err)
		}
	}
	if msg := panics(func() { NewSplitWriter([]io.Writer{io.Discard, nil}, 2) }); !strings.Contains(msg, "shares[1] is a nil io.Writer") {
		t.Errorf("NewSplitWriter with a nil writer: panic %q", msg)
	}
	if msg := panics(func() { NewCombineReader([]io.Reader{nil}) }); !strings.Contains(msg, "shares[0] is a nil io.Reader") {
		t.Errorf("NewCombineReader with a nil reader: panic %q", msg)
	}
	for _, shares := range [][][]byte{nil, {}, {nil}, {{}, {}}} {
		if got, bad, err := CombineSSMS(shares); got != nil || bad != nil || !errors.Is(err, ErrNotEnoughShares) {
			t.Errorf("CombineSSMS(%q) = %v, %v", shares, got, err)
		}
	}

	// Each share alone has its reason.
	good := mustSplitSSMS(t, []byte("secret"), 2, 2, 64, defaultAEAD(), 18)
	mod := func(k int, b byte, fixCRC bool) []byte {
		s := slices.Clone(good[0])
		s[k] = b
		if fixCRC {
			binary.BigEndian.PutUint32(s[crcOff(s):], crcOf(s[:crcOff(s)]))
		}
		return s
	}
	for _, c := range []struct {
		share []byte
		why   Reason
	}{
		{[]byte("GFSS"), Truncated},
		{[]byte("not a share at all, not at all, not at all, not at all, not at all"), NotSSMS},
		{good[0][:40], Truncated},
		{mod(hdrVersion, 1, false), Unsupported},
		{mod(hdrVersion, 3, true), Unsupported},
		{mod(hdrVersion, 5, true), Unsupported},
		{mod(hdrVersion, 2, true), Unsupported},
		{mod(hdrAEAD, 9, true), Unsupported},
		{mod(hdrAEAD, 9, false), Damaged},
		{mod(hdrThreshold, 1, true), Damaged},
		{mod(hdrIndex, 255, true), Damaged},
		{mod(hdrChunkSize, 0xff, true), Damaged},
		{good[0][:len(good[0])-1], Truncated},
	} {
		_, _, err := CombineSSMS([][]byte{c.share, good[1]})
		_, _, serr := combineStream([][]byte{c.share, good[1]})
		for _, err := range []error{err, serr} {
			var ce *CombineError
			if !errors.As(err, &ce) || !errors.Is(err, ErrNotEnoughShares) ||
				!slices.Equal(ce.Bad, []BadShare{{Position: 0, Reason: c.why}}) || ce.Good != 1 || ce.Needed != 2 {
				t.Errorf("share %q: err = %v, want %v", c.share[:min(len(c.share), 12)], err, c.why)
			}
		}
	}
	// A share with bytes past its end is still good for the secret, which
	// it helped recover, but it is named.
	checkCombine(t, [][]byte{append(slices.Clone(good[0]), 0), good[1]}, []byte("secret"), []byte("secret"), []int{0})
}

// TestSSMSReaderIOError counts a share whose reader fails as bad.
func TestSSMSReaderIOError(t *testing.T) {
	secret := testSecret(1000, 12)
	shares := mustSplitSSMS(t, secret, 3, 2, 64, defaultAEAD(), 19)
	boom := errors.New("boom")
	rs := []io.Reader{
		bytes.NewReader(shares[0]),
		io.MultiReader(bytes.NewReader(shares[1][:300]), &failReader{boom}),
		bytes.NewReader(shares[2]),
	}
	r, err := NewCombineReader(rs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	want := []BadShare{{Position: 1, Reason: Unreadable, Err: boom}}
	if bad := r.BadShares(); err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
		t.Fatalf("got %d bytes, err %v, bad shares %v", len(got), err, bad)
	}
}

type failReader struct{ err error }

func (r *failReader) Read([]byte) (int, error) { return 0, r.err }

// TestSSMSWriterError makes the writer fail and stay failed.
func TestSSMSWriterError(t *testing.T) {
	boom := errors.New("boom")
	w, err := NewSplitWriter([]io.Writer{io.Discard, failWriter{boom}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, 3*defaultChunkSize))
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close: %v", err)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, boom) {
		t.Fatalf("Write after a failure: %v", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestSSMSShareSize(t *testing.T) {
	// The bound of the issue for (5,3): ⌈len/3⌉ + 1% + 1 KiB.
	// SplitSSMS's doc: a header of 184 + 16·⌈log2 parts⌉ bytes and at most
	// 33 bytes per chunk (39 with AEAD 3) beyond 1/threshold of the secret.
	for _, a := range []struct{ overhead, perChunk int }{{16, 33}, {aeadOverhead(aesGCMRandom), 39}} {
		for _, n := range []int{0, 1, 1000, defaultChunkSize, 1 << 20, 10 << 20, 1<<30 + 1} {
			size := shareSize(n, 5, 3, defaultChunkSize, a.overhead)
			if bound := (n+2)/3 + (n+2)/3/100 + 1024; size > bound {
				t.Errorf("share of a %d-byte secret: %d bytes, above %d", n, size, bound)
			}
		}
		for th := 2; th <= 255; th++ {
			for _, n := range []int{0, 1, 17, defaultChunkSize - 1, defaultChunkSize, 5*defaultChunkSize + 1} {
				chunks := max(1, (n+defaultChunkSize-1)/defaultChunkSize)
				hdr := 184 + 16*bits.Len(uint(th-1))
				if size, bound := shareSize(n, th, th, defaultChunkSize, a.overhead), (n+th-1)/th+hdr+a.perChunk*chunks; size > bound {
					t.Errorf("overhead %d, threshold %d, %d bytes: share of %d bytes, above %d", a.overhead, th, n, size, bound)
				}
			}
		}
	}
}

// TestSSMSStreamMemory streams 48 MiB from the writer to the reader through
// pipes and checks that the heap stays bounded by the chunk size, not the
// secret's.
func TestSSMSStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 48 MiB")
	}
	const size = 48 << 20
	peak := heapPeak(t)
	streamOnce(t, size, 5, 3)
	if p := peak(); p > 16<<20 {
		t.Fatalf("the heap grew by %d bytes while streaming %d", p, size)
	} else {
		t.Logf("peak heap growth %d bytes for %d streamed", p, size)
	}
}

// TestSSMSForgedLaterChunk forges a record past the first chunk, so that the
// subset decoded from changes in the middle of the secret and the parity
// shares checked change with it.
func TestSSMSForgedLaterChunk(t *testing.T) {
	secret := testSecret(200, 13)
	s := mustSplitSSMS(t, secret, 5, 2, 32, defaultAEAD(), 20)
	rec := recordOverhead + fragSize(32, 2, aeadOverhead(defaultAEAD()))
	for chunk := range 6 {
		forged := slices.Clone(s[2])
		forge(forged, hl(forged)+chunk*rec+4+3, 0x10)
		checkCombine(t, [][]byte{s[0], forged, s[3], s[4]}, secret, secret, []int{1})
		checkCombine(t, [][]byte{s[4], s[3], forged, s[1], s[0]}, secret, secret, []int{2})
	}
}

// TestSSMSReasons checks the reason given for each kind of bad share, and
// that the message names it.
func TestSSMSReasons(t *testing.T) {
	secret := testSecret(200, 12)
	s := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 18)
	damaged := slices.Clone(s[1])
	damaged[len(damaged)-10] ^= 1
	forged := slices.Clone(s[2])
	forge(forged, forgeable(forged)[0], 0x5a) // the key share: the header's signature fails
	altered := slices.Clone(s[2])
	forge(altered, hl(altered)+4, 0x5a) // a fragment, by an outsider: its tag fails
	holders := slices.Clone(s[2])
	forgeAsHolder(t, holders, hl(holders)+4, 0x5a, keyOfShares(t, s[:3])) // a fragment, its tag recomputed
	for _, c := range []struct {
		name   string
		shares [][]byte
		want   []Reason
	}{
		{"damaged", [][]byte{s[0], damaged, s[2], s[3]}, []Reason{Damaged}},
		{"truncated", [][]byte{s[0], s[1][:len(s[1])-1], s[2], s[3]}, []Reason{Truncated}},
		{"extended", [][]byte{s[0], append(slices.Clone(s[1]), 0), s[2], s[3]}, []Reason{Extended}},
		{"not a share", [][]byte{s[0], []byte("hello, world"), s[2], s[3]}, []Reason{NotSSMS}},
		{"forged", [][]byte{s[0], s[1], forged, s[3], s[4]}, []Reason{Forged}},
		{"altered", [][]byte{s[0], s[1], altered, s[3], s[4]}, []Reason{Forged}},
		{"inconsistent", [][]byte{s[0], s[1], holders, s[3], s[4]}, []Reason{Inconsistent}},
		{"two kinds", [][]byte{s[0], damaged, s[2], s[2], s[4]}, []Reason{Damaged, Duplicate}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantReasons(t, c.shares, c.want...)
			// Without enough good shares, the error's message names the
			// bad ones. (An extended share still serves, and a forged one
			// among exactly threshold cannot be named.)
			if c.name == "extended" || c.name == "inconsistent" || c.name == "forged" || c.name == "altered" {
				return
			}
			_, _, err := CombineSSMS(c.shares[:3])
			if err == nil {
				t.Fatal("three shares, one bad, of a 3-of-5 split recovered the secret")
			}
			if !strings.Contains(err.Error(), "shares[1]: "+c.want[0].String()) {
				t.Errorf("message %q does not give the reason %q", err, c.want[0])
			}
		})
	}
}

// TestSSMSParallelSplit checks that sealing chunks on several goroutines
// makes the same shares as sealing them on one, for chunk counts around the
// group size, and with the stream writer's.
func TestSSMSParallelSplit(t *testing.T) {
	skipIfEnforced(t, "compares two splits from one seed, which needs counter nonces (AEAD 1)")
	for _, c := range []struct{ size, chunk int }{
		{0, 64}, {1, 64}, {parallelChunk, 64 << 10}, {parallelChunk + 1, 64 << 10},
		{3*parallelChunk + 5, 64 << 10}, {300 << 10, 1000}, {(parallelChunk/64)*64*3 + 64, 64},
	} {
		secret := testSecret(c.size, uint64(c.size))
		split := func(procs int) [][]byte {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			return mustSplitSSMS(t, secret, 5, 3, c.chunk, aesGCM, 21)
		}
		one, four := split(1), split(4)
		for i := range one {
			if !bytes.Equal(one[i], four[i]) {
				t.Fatalf("%d bytes, chunks of %d: share %d differs between 1 and 4 goroutines", c.size, c.chunk, i)
			}
		}
		bufs := make([]bytes.Buffer, 5)
		ws := make([]io.Writer, 5)
		for i := range ws {
			ws[i] = &bufs[i]
		}
		w, err := newSplitWriter(ws, 3, c.chunk, aesGCM, testRNG(21))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(secret)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for i := range one {
			if !bytes.Equal(one[i], bufs[i].Bytes()) {
				t.Fatalf("%d bytes, chunks of %d: share %d differs from the writer's", c.size, c.chunk, i)
			}
		}
		checkCombine(t, four, secret, secret, nil)
	}
}

func TestInspectSSMS(t *testing.T) {
	a := mustSplitSSMS(t, testSecret(1000, 13), 5, 3, 64, defaultAEAD(), 19)
	b := mustSplitSSMS(t, testSecret(1000, 13), 5, 3, 64, defaultAEAD(), 20)
	var id [16]byte
	for i, s := range a {
		if !IsSSMS(s) || !IsSSMS(s[:len(ssmsMagic)]) {
			t.Fatalf("share %d: IsSSMS is false", i)
		}
		info, err := InspectSSMS(s[:hl(s)])
		if err != nil {
			t.Fatalf("share %d: %v", i, err)
		}
		if info.Threshold != 3 || info.Index != i || info.HeaderSize != 184+3*16 {
			t.Fatalf("share %d: %+v", i, info)
		}
		if i == 0 {
			id = info.SplitID
		} else if info.SplitID != id {
			t.Fatalf("share %d: split ID %x, share 0's %x", i, info.SplitID, id)
		}
	}
	if info, _ := InspectSSMS(b[0]); info.SplitID == id {
		t.Fatal("two splits have the same split ID")
	}
	damaged := slices.Clone(a[0][:hl(a[0])])
	damaged[hdrThreshold] ^= 1
	// Batch ranges no split writes, the CRC right: Damaged, and a batch
	// size of 0, which gives the header no length, too.
	badBatch := func(first, size, index byte) []byte {
		s := slices.Clone(a[0])
		s[hdrBatchFirst], s[hdrBatchSize], s[hdrIndex] = first, size, index
		if size != 0 {
			binary.BigEndian.PutUint32(s[crcOff(s):], crcOf(s[:crcOff(s)]))
		}
		return s
	}
	for _, c := range []struct {
		b   []byte
		why Reason
	}{
		{a[0][:hl(a[0])-1], Truncated},
		{a[0][:hdrPrefix-1], Truncated},
		{a[0][:hdrPrefix], Truncated},
		{badBatch(0, 0, 0), Damaged},
		{badBatch(250, 6, 250), Damaged},
		{badBatch(2, 3, 1), Damaged},
		{badBatch(2, 3, 5), Damaged},
		{badBatch(0, 255, 255), Damaged},
		{a[0][:3], Truncated},
		{[]byte("GFSSM!"), NotSSMS},
		{[]byte("Unseal Key 1: abc"), NotSSMS},
		{damaged, Damaged},
	} {
		if _, err := InspectSSMS(c.b); err == nil || !strings.HasSuffix(err.Error(), ": "+c.why.String()) {
			t.Errorf("InspectSSMS(%q): %v, want %v", c.b, err, c.why)
		}
	}
	for _, b := range [][]byte{nil, []byte("GFSSM"), []byte("gfssms"), []byte("Unseal Key 1")} {
		if IsSSMS(b) {
			t.Errorf("IsSSMS(%q) is true", b)
		}
	}
}

// hl returns the length of the header of the share s; crcOff and
// keyShareOff where its CRC and key share are.
func hl(s []byte) int          { return headerLenOf(s) }
func crcOff(s []byte) int      { return hl(s) - 4 }
func keyShareOff(s []byte) int { return hl(s) - 4 - keySize }

// TestCombineReaderCheckAll: reading the secret takes no notice of a
// share whose signature alone, or one record's tag alone, was changed
// (every checksum recomputed): its fragments are right. With CheckAll, the
// reader names each Forged, still recovers the secret, and names nothing
// among genuine shares.
func TestCombineReaderCheckAll(t *testing.T) {
	for _, aead := range []byte{aesGCM, chaCha20Poly1305, aesGCMRandom} {
		secret := testSecret(3*1024+5, 21)
		shares := mustSplitSSMS(t, secret, 5, 3, 1024, lcAEAD(aead), 22)
		signed := slices.Clone(shares[1])
		signed[fmtSignature+7] ^= 0x10
		fixCRCsFromFormat(signed)
		tagged := slices.Clone(shares[3])
		spans := recordSpans(tagged)
		forgeAt(tagged, spans[1].tag+5, 0x40)
		given := [][]byte{shares[0], signed, shares[2], tagged, shares[4]}

		read := func(given [][]byte, all bool) ([]byte, []BadShare, error) {
			rs := make([]io.Reader, len(given))
			for i, s := range given {
				rs[i] = bytes.NewReader(s)
			}
			r, err := NewCombineReader(rs)
			if err != nil {
				return nil, nil, err
			}
			if all {
				r.CheckAll()
			}
			got, err := io.ReadAll(r)
			return got, r.BadShares(), err
		}
		if got, bad, err := read(given, false); err != nil || !bytes.Equal(got, secret) || len(bad) != 0 {
			t.Errorf("AEAD %d: without CheckAll: %v, %v", aead, bad, err)
		}
		want := []BadShare{{Position: 1, Reason: Forged}, {Position: 3, Reason: Forged}}
		if got, bad, err := read(given, true); err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
			t.Errorf("AEAD %d: with CheckAll: %v, %v; want %v", aead, bad, err, want)
		}
		if got, bad, err := read(shares, true); err != nil || !bytes.Equal(got, secret) || len(bad) != 0 {
			t.Errorf("AEAD %d: genuine shares with CheckAll: %v, %v", aead, bad, err)
		}
	}
	shares := mustSplitSSMS(t, []byte("a secret"), 2, 2, 1024, lcAEAD(aesGCM), 1)
	r, err := NewCombineReader([]io.Reader{bytes.NewReader(shares[0]), bytes.NewReader(shares[1])})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("CheckAll after Read did not panic")
		}
	}()
	r.CheckAll()
}
