package shamir

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the vectors in testdata/ made by this package")

func secretBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	schemes := [][2]int{{2, 2}, {3, 2}, {3, 3}, {5, 2}, {5, 3}, {5, 5}, {7, 4}, {10, 10}, {16, 3}, {20, 19}, {50, 7}, {255, 2}, {255, 128}, {255, 255}}
	for _, s := range schemes {
		for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, blockSize + 3} {
			if s[0]*n > 2<<20 {
				continue
			}
			secret := secretBytes(rng, n)
			shares, err := Split(secret, s[0], s[1])
			if err != nil {
				t.Fatal(err)
			}
			if len(shares) != s[0] {
				t.Fatalf("%v: %d shares", s, len(shares))
			}
			for _, sh := range shares {
				if len(sh) != n+ShareOverhead {
					t.Fatalf("%v: share of %d bytes for a %d-byte secret", s, len(sh), n)
				}
			}
			for k := s[1]; k <= s[0]; k += 1 + k/4 {
				perm := rng.Perm(s[0])[:k]
				sub := make([][]byte, k)
				for i, p := range perm {
					sub[i] = shares[p]
				}
				got, err := Combine(sub)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, secret) {
					t.Fatalf("%v, %d bytes, %d shares: wrong secret", s, n, k)
				}
			}
			// One share fewer than the threshold must not give the secret
			// (except by a 2^-8n chance, excluded for n >= 8).
			if n >= 8 {
				if got, _ := Combine(shares[:s[1]-1+boolInt(s[1] == 2)]); s[1] > 2 && bytes.Equal(got, secret) {
					t.Fatalf("%v: threshold-1 shares reconstructed the secret", s)
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEverySubset combines every subset of at least threshold shares of a
// small split.
func TestEverySubset(t *testing.T) {
	secret := []byte("every subset of at least threshold shares")
	for _, s := range [][2]int{{5, 3}, {6, 2}, {7, 4}, {8, 8}} {
		shares, err := Split(secret, s[0], s[1])
		if err != nil {
			t.Fatal(err)
		}
		for mask := 1; mask < 1<<s[0]; mask++ {
			var sub [][]byte
			for i := range s[0] {
				if mask>>i&1 == 1 {
					sub = append(sub, shares[i])
				}
			}
			if len(sub) < s[1] {
				continue
			}
			got, err := Combine(sub)
			if err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("%v, subset %b: %q, %v", s, mask, got, err)
			}
		}
	}
}

func TestSplitErrors(t *testing.T) {
	cases := []struct {
		secret           []byte
		parts, threshold int
		want             error
	}{
		{[]byte("s"), 2, 3, errPartsBelowThreshold},
		{[]byte("s"), 0, 1, errPartsBelowThreshold},
		{[]byte("s"), 5, 1, errThresholdTooSmall},
		{[]byte("s"), 5, -1, errThresholdTooSmall},
		{[]byte("s"), -1, -2, errThresholdTooSmall},
		{[]byte("s"), 256, 2, errTooManyParts},
		{[]byte("s"), 256, 256, errTooManyParts},
		{[]byte("s"), 300, 3, errTooManyParts},
		{nil, 5, 3, errEmptySecret},
		{[]byte{}, 2, 2, errEmptySecret},
	}
	for _, c := range cases {
		shares, err := Split(c.secret, c.parts, c.threshold)
		if !errors.Is(err, c.want) || shares != nil {
			t.Errorf("Split(%d bytes, %d, %d) = %v, %v; want %v", len(c.secret), c.parts, c.threshold, shares, err, c.want)
		}
	}
	// errThresholdTooLarge cannot be reached through Split (parts >= threshold
	// is checked first, then parts <= 255), but checkScheme keeps Vault's check.
	if err := checkScheme(255, 256); !errors.Is(err, errPartsBelowThreshold) {
		t.Errorf("checkScheme(255, 256) = %v", err)
	}
}

func TestCombineErrors(t *testing.T) {
	shares, err := Split([]byte("secret"), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	zeroX := bytes.Clone(shares[1])
	zeroX[len(zeroX)-1] = 0
	many := make([][]byte, 256)
	for i := range many {
		many[i] = []byte{0, byte(i%255 + 1)}
	}
	cases := []struct {
		name  string
		parts [][]byte
		want  error
	}{
		{"nil", nil, errTooFewParts},
		{"one part", shares[:1], errTooFewParts},
		{"empty parts", [][]byte{{}, {}}, errPartTooShort},
		{"one-byte parts", [][]byte{{1}, {2}}, errPartTooShort},
		{"nil parts", [][]byte{nil, nil, nil}, errPartTooShort},
		{"shorter part", [][]byte{shares[0], shares[1][:3]}, errLengthMismatch},
		{"longer part", [][]byte{shares[0], append(bytes.Clone(shares[1]), 1)}, errLengthMismatch},
		{"duplicate", [][]byte{shares[0], shares[1], shares[0]}, errDuplicatePart},
		{"same x", [][]byte{shares[2], append(bytes.Clone(shares[3][:6]), shares[2][6])}, errDuplicatePart},
		{"x = 0", [][]byte{shares[0], zeroX}, errZeroX},
		// Vault checks every length, then the duplicates, then (this
		// package) x = 0, whatever the order of the parts.
		{"duplicate before a shorter part", [][]byte{shares[0], shares[0], shares[1][:3]}, errLengthMismatch},
		{"x = 0 before a duplicate", [][]byte{zeroX, shares[0], shares[0]}, errDuplicatePart},
		{"256 parts", many, errDuplicatePart},
	}
	for _, c := range cases {
		secret, err := Combine(c.parts)
		if !errors.Is(err, c.want) || secret != nil {
			t.Errorf("%s: Combine = %v, %v; want %v", c.name, secret, err, c.want)
		}
	}
}

// TestXCoordinates checks that the x coordinates are distinct, never 0, and
// cover all of 1…255 about evenly: no modulo bias, no fixed order.
func TestXCoordinates(t *testing.T) {
	var first [256]int
	const splits = 25600
	for range splits {
		shares, err := Split([]byte{42}, 5, 2)
		if err != nil {
			t.Fatal(err)
		}
		var seen [256]bool
		for _, s := range shares {
			x := s[1]
			if x == 0 || seen[x] {
				t.Fatalf("x coordinate %d repeated or zero", x)
			}
			seen[x] = true
		}
		first[shares[0][1]]++
	}
	// Expected about 100 per value (σ ≈ 10).
	for x := 1; x < 256; x++ {
		if first[x] < 40 || first[x] > 170 {
			t.Fatalf("x = %d is the first coordinate %d times in %d splits", x, first[x], splits)
		}
	}
}

// TestCoefficientsIncludeZero checks that a share's y byte takes every value,
// including the secret byte itself: a split that forced non-zero coefficients
// would never give y = secret at threshold 2 (the leak of RUSTSEC-2024-0398).
func TestCoefficientsIncludeZero(t *testing.T) {
	secret := make([]byte, 1<<16)
	for _, s := range [][2]int{{2, 2}, {4, 3}} {
		shares, err := Split(secret, s[0], s[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shares {
			var count [256]int
			for _, y := range sh[:len(secret)] {
				count[y]++
			}
			// Expected 256 per value, σ = 16.
			for v, c := range count {
				if c < 128 || c > 384 {
					t.Fatalf("%v: y = %#x occurs %d times in 64 KiB", s, v, c)
				}
			}
		}
	}
}

// TestSplitMemory checks that Split allocates the shares and O(block)
// besides, whatever the secret's length, and Combine the secret and O(parts).
func TestSplitMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of MiB")
	}
	secret := make([]byte, 4<<20)
	for _, s := range [][2]int{{5, 3}, {5, 2}, {10, 10}, {20, 3}} {
		shares := s[0] * (len(secret) + 1)
		got := allocated(func() { Split(secret, s[0], s[1]) })
		if limit := uint64(shares) + 512<<10; got > limit {
			t.Errorf("Split(4 MiB, %d, %d) allocated %d bytes; want at most %d", s[0], s[1], got, limit)
		}
	}
	shares, _ := Split(secret, 10, 10)
	if got, limit := allocated(func() { Combine(shares) }), uint64(len(secret))+64<<10; got > limit {
		t.Errorf("Combine(4 MiB, 10 parts) allocated %d bytes; want at most %d", got, limit)
	}
}

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestConcurrentSplitCombine(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 99))
			for range 20 {
				secret := secretBytes(rng, 1+rng.IntN(3000))
				shares, err := Split(secret, 6, 3)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := Combine(shares[3:])
				if err != nil || !bytes.Equal(got, secret) {
					t.Errorf("concurrent round trip failed: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// A vector is a secret and shares of it, as stored in testdata/.
type vector struct {
	Secret    string   `json:"secret"`
	Parts     int      `json:"parts"`
	Threshold int      `json:"threshold"`
	Shares    []string `json:"shares"`
}

func readVectors(t *testing.T, path string) []vector {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s has no vectors", path)
	}
	return vs
}

func decodeShares(t *testing.T, v vector) [][]byte {
	shares := make([][]byte, len(v.Shares))
	for i, s := range v.Shares {
		shares[i] = unhex(t, s)
	}
	return shares
}

// TestVaultVectors combines shares made by Vault's own package
// (testdata/vault/vectors.json, written by interop's TestWriteVaultVectors).
func TestVaultVectors(t *testing.T) {
	for i, v := range readVectors(t, filepath.Join("testdata", "vault", "vectors.json")) {
		shares := decodeShares(t, v)
		for k := v.Threshold; k <= len(shares); k++ {
			got, err := Combine(shares[len(shares)-k:])
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(got) != v.Secret {
				t.Fatalf("vector %d, %d shares: got %x, want %s", i, k, got, v.Secret)
			}
		}
	}
}

// gf256Vectors are made by split with randomness from AES-256-CTR under a
// fixed key: any change to how Split uses its randomness (x coordinates,
// coefficients, the interpolation choice) changes them.
func gf256Vectors(t *testing.T) []vector {
	var vs []vector
	for i, s := range [][3]int{{1, 2, 2}, {16, 5, 3}, {32, 5, 2}, {32, 10, 10}, {33, 3, 3}, {100, 7, 4}, {5, 255, 255}} {
		var key [32]byte
		copy(key[:], fmt.Sprintf("gf256/shamir test vector %d", i))
		rng := newAESCTR(&key, new([16]byte)) // the same stream in every build
		secret := make([]byte, s[0])
		for j := range secret {
			secret[j] = byte(j*29 + i)
		}
		shares, err := split(secret, s[1], s[2], rng)
		if err != nil {
			t.Fatal(err)
		}
		v := vector{Secret: hex.EncodeToString(secret), Parts: s[1], Threshold: s[2]}
		for _, sh := range shares {
			v.Shares = append(v.Shares, hex.EncodeToString(sh))
		}
		vs = append(vs, v)
	}
	return vs
}

func TestGF256Vectors(t *testing.T) {
	path := filepath.Join("testdata", "gf256", "vectors.json")
	vs := gf256Vectors(t)
	if *update {
		b, _ := json.MarshalIndent(vs, "", "  ")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readVectors(t, path)
	if len(want) != len(vs) {
		t.Fatalf("%d vectors stored, %d made", len(want), len(vs))
	}
	for i := range vs {
		got, _ := json.Marshal(vs[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(got, w) {
			t.Errorf("vector %d changed:\n got %s\nwant %s", i, got, w)
		}
		secret, err := Combine(decodeShares(t, want[i])[:want[i].Threshold])
		if err != nil || hex.EncodeToString(secret) != want[i].Secret {
			t.Errorf("vector %d does not combine: %v", i, err)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&CombineError{Err: ErrNotEnoughShares}, ErrNotEnoughShares.Error()},
		{&CombineError{Err: ErrNotEnoughShares, Good: 1, Needed: 3, Bad: []BadShare{{Position: 0, Reason: Damaged}, {Position: 4, Reason: Duplicate}}},
			"shamir: not enough good shares to recover the secret: 1 good share, 3 needed; bad: shares[0]: damaged, shares[4]: duplicate"},
		{&CombineError{Err: ErrInconsistentShares, Good: 4, Needed: 3},
			"shamir: shares are inconsistent, and which are bad cannot be told: 4 shares not found bad, 3 needed"},
		{&CombineError{Err: ErrNotEnoughShares, Bad: []BadShare{{Position: 2, Reason: Unreadable, Err: errors.New("boom")}}},
			"shamir: not enough good shares to recover the secret; bad: shares[2]: unreadable: boom"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
		if !errors.Is(c.err, c.err.(*CombineError).Err) {
			t.Errorf("%v does not match its Err", c.err)
		}
	}
	for r := Inconsistent; r <= Unreadable; r++ {
		if s := r.String(); s == "" || strings.HasPrefix(s, "Reason(") {
			t.Errorf("reason %d has no text", int(r))
		}
	}
	if s := Reason(0).String(); s != "Reason(0)" {
		t.Errorf("Reason(0).String() = %q", s)
	}
}

// TestReciprocals checks randomXs's division by multiplication for every
// divisor and dividend it can meet.
func TestReciprocals(t *testing.T) {
	for k := uint(1); k < 256; k++ {
		for b := uint(0); b <= 256; b++ {
			if q := b * uint(reciprocals[k]) >> 16; q != b/k {
				t.Fatalf("%d/%d: got %d, want %d", b, k, q, b/k)
			}
		}
	}
}

// TestAppendCombine checks that AppendCombine appends what Combine returns,
// in place when dst has room, and refuses to write over a part.
func TestAppendCombine(t *testing.T) {
	for _, n := range []int{1, 32, 1000, parallelChunk + 17} {
		secret := make([]byte, n)
		for i := range secret {
			secret[i] = byte(i*7 + 1)
		}
		shares, err := Split(secret, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		parts := [][]byte{shares[3], shares[1], shares[4]}

		// In place: the prefix is kept and nothing is allocated.
		buf := make([]byte, 3, 3+n)
		copy(buf, "pre")
		got, err := AppendCombine(buf, parts)
		if err != nil {
			t.Fatal(err)
		}
		if string(got[:3]) != "pre" || !bytes.Equal(got[3:], secret) {
			t.Fatalf("n=%d: AppendCombine did not append the secret", n)
		}
		if &got[0] != &buf[0] {
			t.Fatalf("n=%d: AppendCombine reallocated a buffer with room", n)
		}
		if n <= parallelChunk {
			allocs := testing.AllocsPerRun(10, func() { AppendCombine(buf[:0], parts) })
			if allocs != 0 {
				t.Errorf("n=%d: %v allocations with room in dst, want 0", n, allocs)
			}
		}

		// Without room: a new array, dst untouched beyond its length.
		small := []byte("ab")
		got, err = AppendCombine(small[:1:1], parts)
		if err != nil {
			t.Fatal(err)
		}
		if string(small) != "ab" || got[0] != 'a' || !bytes.Equal(got[1:], secret) {
			t.Fatalf("n=%d: AppendCombine without room", n)
		}

		// Over a part: a programming error, which panics.
		for i, p := range parts {
			if msg := panics(func() { AppendCombine(p[:0], parts) }); !strings.Contains(msg, "over a part") {
				t.Errorf("n=%d: secret over part %d: got panic %q", n, i, msg)
			}
		}
		// Over the end of a part's y bytes.
		backing := make([]byte, 2*(n+1))
		moved := [][]byte{backing[:n+1], parts[1], parts[2]}
		copy(moved[0], parts[0])
		if msg := panics(func() { AppendCombine(backing[n-1:n-1], moved) }); msg == "" {
			t.Errorf("n=%d: secret over the end of a part: no panic", n)
		}
		if msg := panics(func() { AppendCombine(backing[n:n], moved) }); msg == "" {
			t.Errorf("n=%d: secret over a part's x coordinate: no panic", n)
		}
		// Just after it is fine.
		if got, err := AppendCombine(backing[n+1:n+1], moved); err != nil || !bytes.Equal(got, secret) {
			t.Errorf("n=%d: secret after a part: %v", n, err)
		}
	}
	// The errors are Combine's.
	if _, err := AppendCombine(nil, [][]byte{{1, 2}}); !errors.Is(err, errTooFewParts) {
		t.Errorf("one part: got %v, want errTooFewParts", err)
	}
}

// TestShareStride checks the layout of Split's buffer: shares do not
// overlap, cannot be appended to over the next one, and long ones start on
// cache lines an odd number of lines apart.
func TestShareStride(t *testing.T) {
	for _, n := range []int{1, 31, 4094, 4095, 4096, 5000, 1 << 16, 1<<16 + 63} {
		stride := shareStride(n)
		if stride < n+ShareOverhead {
			t.Fatalf("n=%d: stride %d is shorter than a share", n, stride)
		}
		if n+ShareOverhead >= 4096 && (stride%64 != 0 || stride/64%2 != 1) {
			t.Fatalf("n=%d: stride %d is not an odd number of cache lines", n, stride)
		}
		if n+ShareOverhead < 4096 && stride != n+ShareOverhead {
			t.Fatalf("n=%d: short shares are padded to %d", n, stride)
		}
		shares, err := Split(make([]byte, n), 3, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range shares {
			if len(s) != n+ShareOverhead || cap(s) != len(s) {
				t.Fatalf("n=%d: share %d has len %d, cap %d", n, i, len(s), cap(s))
			}
		}
		// Appending to a share or to the list changes no other share.
		if cap(shares) != len(shares) {
			t.Fatalf("n=%d: the list of shares has room for %d more", n, cap(shares)-len(shares))
		}
		second := bytes.Clone(shares[1])
		if grown := append(shares[0], 0xff, 0xff); &grown[0] == &shares[0][0] || !bytes.Equal(shares[1], second) {
			t.Fatalf("n=%d: appending to share 0 did not reallocate it", n)
		}
	}
}

// panics runs f and returns the message it panicked with, or "" if it did
// not panic.
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestSplitSchedule checks that the shares of a secret of several parallel
// chunks depend on the randomness alone, not on how many goroutines the
// engine spreads the chunks over, in both of Split's ways (interpolating for
// 5 of 3, evaluating for 5 of 2), and that they combine.
func TestSplitSchedule(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	secret := make([]byte, 3*parallelChunk+5)
	for i := range secret {
		secret[i] = byte(i*7 + 3)
	}
	for _, s := range [][2]int{{5, 3}, {5, 2}} {
		var first [][]byte
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			shares, err := split(secret, s[0], s[1], rand.NewChaCha8([32]byte{byte(s[0]), byte(s[1])}))
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = shares
				got, err := Combine(shares[s[0]-s[1]:])
				if err != nil || !bytes.Equal(got, secret) {
					t.Fatalf("%v: Combine = %v, wrong secret", s, err)
				}
				continue
			}
			for i := range shares {
				if !bytes.Equal(shares[i], first[i]) {
					t.Fatalf("%v: share %d at GOMAXPROCS %d differs from GOMAXPROCS 1", s, i, procs)
				}
			}
		}
	}
}
