//go:build !race

// The race detector's instrumentation allocates, so the counts are only
// pinned without it.

package shamir

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// allocsPerRun is testing.AllocsPerRun without its GOMAXPROCS(1): the
// average number of allocations of f over runs calls, at the current
// GOMAXPROCS.
func allocsPerRun(runs int, f func()) float64 {
	f() // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64((after.Mallocs - before.Mallocs) / uint64(runs))
}

// TestAllocs pins the allocations of Split, Combine and AppendCombine (with
// room in dst) at 32 B and 1 MiB, 5 of 3 and 10 of 10, so that they cannot
// grow unnoticed. It runs at GOMAXPROCS 1 (through testing.AllocsPerRun),
// and at 2 and the default, where a product of more than one parallel chunk
// is spread over w = min(GOMAXPROCS, chunks) goroutines.
//
// On one goroutine, Split allocates the shares (their buffer and their
// headers: one object for a short secret in few shares, as 32 B in 5, two
// otherwise), and for more than one parallel chunk the chunks' keys and
// their keystreams (two allocations each); Combine allocates the secret,
// AppendCombine nothing. Over w goroutines, a product adds its matrix, one
// list of row headers, the set-up function and the chunk queue they share,
// and per goroutine its work function and the goroutine's closure (the
// caller starts all w and waits: forChunksOf says why).
//
// The runtime allocates too, depending on the schedule and the collector: a
// goroutine's g when the free list of the P that starts it is empty, a
// sudog for WaitGroup.Wait, and, for a long Split, which makes the
// collector run, the per-P array of the request pool after a collection.
// So each count is the least of three measurements, and in those cases may
// be one more than what the package allocates.
func TestAllocs(t *testing.T) {
	type counts struct{ split, combine, appendCombine float64 }
	for _, c := range []struct {
		name             string
		size             int
		parts, threshold int
		seq              counts // on one goroutine
		parallel         counts // over w goroutines: these + 2w
	}{
		{"32B_n5_t3", 32, 5, 3, counts{1, 1, 0}, counts{}},
		{"64B_n5_t3", 64, 5, 3, counts{2, 1, 0}, counts{}},
		{"1MiB_n5_t3", 1 << 20, 5, 3, counts{11, 1, 0}, counts{15, 5, 4}},
		{"1MiB_n10_t10", 1 << 20, 10, 10, counts{11, 1, 0}, counts{15, 5, 4}},
	} {
		secret := make([]byte, c.size)
		shares, err := Split(secret, c.parts, c.threshold)
		if err != nil {
			t.Fatal(err)
		}
		parts := shares[:c.threshold]
		buf := make([]byte, 0, c.size)
		fs := [3]func(){
			func() {
				if _, err := Split(secret, c.parts, c.threshold); err != nil {
					panic(err)
				}
			},
			func() {
				if _, err := Combine(parts); err != nil {
					panic(err)
				}
			},
			func() {
				if _, err := AppendCombine(buf, parts); err != nil {
					panic(err)
				}
			},
		}
		// The counts are those of the keystreams of the AES-CTR assembly and
		// of ChaCha20, two allocations each. crypto/cipher's AES-CTR, which
		// an emulator whose VAES is wrong gets, makes four: Split draws a
		// keystream per parallel chunk.
		stream := testing.AllocsPerRun(10, func() { var key [32]byte; newKeystream(&key).wipe() })
		moreSplit := 0.0
		if chunks := (c.size + parallelChunk - 1) / parallelChunk; chunks > 1 && !fipsMode {
			moreSplit = float64(chunks) * max(0, stream-2)
		}
		check := func(procs int, allocs func(int, func()) float64) {
			want := [3]float64{c.seq.split + moreSplit, c.seq.combine, c.seq.appendCombine}
			var slack [3]float64
			if c.size > parallelChunk {
				slack[0] = 1 // the request pool
			}
			if w := min(procs, (c.size+parallelChunk-1)/parallelChunk); w > 1 {
				p, w := c.parallel, float64(w)
				want = [3]float64{p.split + moreSplit + 2*w, p.combine + 2*w, p.appendCombine + 2*w}
				slack = [3]float64{1, 1, 1} // the scheduler
			}
			var got [3]float64
			for i, f := range fs {
				got[i] = allocs(20, f)
				for range 2 {
					got[i] = min(got[i], allocs(20, f))
				}
			}
			for i, name := range []string{"Split", "Combine", "AppendCombine"} {
				if got[i] > want[i]+slack[i] {
					t.Errorf("%s at GOMAXPROCS %d: %s allocates %v times, want %v (or %v more from the runtime)", c.name, procs, name, got[i], want[i], slack[i])
				}
			}
		}
		check(1, testing.AllocsPerRun)
		procs := runtime.GOMAXPROCS(0)
		for _, p := range []int{2, procs} {
			if p == 2 && procs == 2 {
				continue // the default
			}
			if p > 1 {
				runtime.GOMAXPROCS(p)
				check(p, allocsPerRun)
			}
		}
		runtime.GOMAXPROCS(procs)
	}
}

// TestAllocsSSMS pins the allocations of CombineSSMS of 1 MiB from 3 shares
// of (5, 3) on one goroutine. Most are the reading pipeline's, a handful
// per stage whatever the size: the shares and their groups by name and by
// parameters, the key's checks, the decoder and its scratch, and the
// secret. No signature is checked: the shares agree. Those of the
// standard library's crypto (the split ID's and the key check's SHA-256,
// the AEAD and its Open of each chunk) differ
// between its implementations (assembly, purego, FIPS 140-only), so they
// are measured and added.
func TestAllocsSSMS(t *testing.T) {
	secret := make([]byte, 1<<20)
	shares, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	var key [keySize]byte
	crypto := testing.AllocsPerRun(10, func() {
		var pub [32]byte
		check := keyCheckOf(&key)
		splitIDOf(&pub, &check)
		mustAEAD(defaultAEAD(), key[:])
	})
	// And an AEAD's Open per chunk (ChaCha20-Poly1305's in Go allocates).
	h, _ := parseHeader(shares[0])
	aead := mustAEAD(h.aead, key[:])
	nonce := make([]byte, aead.NonceSize())
	sealed := aead.Seal(nil, nonce, []byte("chunk"), nil)
	out := make([]byte, 0, len(sealed))
	open := testing.AllocsPerRun(10, func() { aead.Open(out, nonce, sealed, nil) })
	crypto += open * float64((len(secret)+h.chunkSize-1)/h.chunkSize)
	combine := func() {
		if _, _, err := CombineSSMS(shares[:3]); err != nil {
			panic(err)
		}
	}
	got := testing.AllocsPerRun(20, combine)
	for range 2 {
		got = min(got, testing.AllocsPerRun(20, combine))
	}
	const pipeline = 24
	if got > pipeline+crypto+1 {
		t.Errorf("CombineSSMS allocates %v times, want %v (%v of them the crypto's) or one more from the runtime", got, pipeline+crypto, crypto)
	}
	t.Logf("CombineSSMS: %v allocations, %v of them the crypto's", got, crypto)

	// Records altered in place by an outsider: every chunk's records
	// disagree, so every chunk checks the tags of its records and decodes
	// again. That costs the record key once (its derivation and the
	// AEAD's: tags below) and nothing per record (TestAllocsRecordTags).
	altered := slices.Clone(shares[2])
	for off, k := fmtHeaderLen(altered), 0; off < len(altered); k++ {
		altered[off+4] ^= 1
		n := int(binary.BigEndian.Uint32(altered[off:]) &^ lastFlag)
		off += recordSize(h, n)
	}
	fixCRCsFromFormat(altered)
	var tags float64
	for range 3 {
		tags = testing.AllocsPerRun(5, func() { newTagger(h.aead, &key) })
	}
	given := [][]byte{shares[0], shares[1], altered, shares[3]}
	combineAltered := func() {
		if _, bad, err := CombineSSMS(given); err != nil || len(bad) != 1 {
			panic(fmt.Sprint(bad, err))
		}
	}
	got = testing.AllocsPerRun(5, combineAltered)
	for range 2 {
		got = min(got, testing.AllocsPerRun(5, combineAltered))
	}
	// The first chunk's records disagree: its first threshold records are
	// decoded, the tags checked, and the chunk decoded again from the
	// others (measured: the decoding matrices of two sets of indexes, the
	// naming, about 17 allocations); the share is then dropped, and the
	// later chunks are clean.
	const disagreement = 24
	if got > pipeline+crypto+tags+disagreement {
		t.Errorf("CombineSSMS with a share altered in place allocates %v times, want at most %v (%v the tags')", got, pipeline+crypto+tags+disagreement, tags)
	}
	t.Logf("CombineSSMS, a share altered in place: %v allocations, %v of them the record key's", got, tags)
}

// TestAllocsRecordTags: computing and checking a record's tag allocates
// nothing, with every AEAD: the writers tag n/t times the secret's bytes,
// in records of up to a chunk's size.
func TestAllocsRecordTags(t *testing.T) {
	var key [keySize]byte
	for _, id := range testAEADs() {
		g := newTagger(id, &key)
		body := make([]byte, 4+defaultChunkSize/3)
		tag := make([]byte, tagSize)
		var num chunkNum
		num.set(7, true)
		// x/crypto's ChaCha20-Poly1305 in Go (purego builds, arm64)
		// allocates its cipher state in each Seal and Open; its amd64
		// assembly does not. The tagger may allocate what it does, no more.
		want := 0.0
		if id == chaCha20Poly1305 {
			aead, err := chacha20poly1305.New(key[:])
			if err != nil {
				t.Fatal(err)
			}
			nonce := make([]byte, chacha20poly1305.NonceSize)
			want = testing.AllocsPerRun(50, func() { aead.Seal(tag[:0], nonce, nil, body) })
		}
		if a := testing.AllocsPerRun(50, func() { g.put(tag, body, 3, &num) }); a != want {
			t.Errorf("AEAD %d: a tag allocates %v times, want %v", id, a, want)
		}
		if a := testing.AllocsPerRun(50, func() { g.holds(tag, body, 3, &num) }); a != want {
			t.Errorf("AEAD %d: checking a tag allocates %v times, want %v", id, a, want)
		}
		if !g.holds(tag, body, 3, &num) || g.holds(tag, body, 4, &num) {
			t.Errorf("AEAD %d: the tag does not hold for its record, or holds at another index", id)
		}
		g.release()
	}
}
