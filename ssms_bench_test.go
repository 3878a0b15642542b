package shamir

import (
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// The shapes the issue sets targets for: 1 MiB, 5 shares, threshold 3.
const benchSize = 1 << 20

// BenchmarkSplitSSMS times SplitSSMS of a 1 MiB secret of random bytes
// (testSecret: filled, so that its reads are not served from the zero page)
// with AES-256-GCM and with ChaCha20-Poly1305.
func BenchmarkSplitSSMS(b *testing.B) {
	for _, aead := range []struct {
		name string
		id   byte
	}{{"", defaultAEAD()}, {"_chacha", chaCha20Poly1305}, {"_aead3", aesGCMRandom}} {
		b.Run("1MiB_n5_t3"+aead.name, func(b *testing.B) {
			if aead.id == chaCha20Poly1305 {
				skipIfEnforced(b, "ChaCha20-Poly1305 is not approved")
			}
			secret := testSecret(benchSize, 1)
			b.SetBytes(benchSize)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := splitSSMS(secret, 5, 3, defaultChunkSize, aead.id, newRandom()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCombineSSMS times CombineSSMS of the shares of a 1 MiB secret
// of random bytes; the shares are written by SplitSSMS, so no read is
// served from the zero page.
func BenchmarkCombineSSMS(b *testing.B) {
	secret := testSecret(benchSize, 1)
	shares, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		shares [][]byte
	}{
		{"1MiB_n5_t3", shares[:3]},              // the data fragments: no decoding
		{"1MiB_n5_t3_parity", shares[2:]},       // two data fragments rebuilt
		{"1MiB_n5_t3_all", shares},              // two extra shares checked
		{"1MiB_n5_t3_onebad", badFirst(shares)}, // one share fails its CRC
		// Every record of one of t+1 shares altered in place by an outsider,
		// CRCs recomputed: the first chunk's tags checked, the share named
		// Forged and dropped, the others clean.
		{"1MiB_n5_t3_alteredInPlace", alteredFirst(shares[:4])},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchSize)
			b.ReportAllocs()
			for b.Loop() {
				if got, _, _ := CombineSSMS(c.shares); got == nil {
					b.Fatal("not recovered")
				}
			}
		})
	}
}

// alteredFirst returns shares with a byte of every record of the first
// altered and the CRCs recomputed, as an outsider can (docs/FORMAT.md).
func alteredFirst(shares [][]byte) [][]byte {
	s := append([][]byte(nil), shares...)
	s[0] = append([]byte(nil), s[0]...)
	recs, _ := fmtRecords(s[0])
	for _, r := range recs {
		s[0][r[0]+4] ^= 1
	}
	fixCRCsFromFormat(s[0])
	return s
}

func badFirst(shares [][]byte) [][]byte {
	s := append([][]byte(nil), shares...)
	s[0] = append([]byte(nil), s[0]...)
	s[0][1000] ^= 1
	return s
}

// BenchmarkSSMSStream pushes 64 MiB through NewSplitWriter and
// NewCombineReader and reports the largest heap seen while it runs. The
// block written again and again is filled with random bytes, so that its
// reads are not served from the zero page.
func BenchmarkSSMSStream(b *testing.B) {
	const size = 64 << 20
	b.Run("64MiB_n5_t3", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		peak := heapPeak(b)
		for b.Loop() {
			streamOnce(b, size, 5, 3)
		}
		b.ReportMetric(float64(peak()), "peak-heap-B")
	})
}

// streamOnce splits size bytes (one 32 KiB block of random bytes, over and
// over) through the writer into pipes and combines them through the reader,
// all in O(chunk) memory.
func streamOnce(b testing.TB, size, parts, threshold int) {
	rs, _ := splitToPipes(parts, threshold, func(w io.Writer) error {
		buf := make([]byte, 32<<10)
		benchFill(buf, 5)
		for n := 0; n < size; n += len(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	})
	r, err := NewCombineReader(rs)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if err != nil || n != int64(size) {
		b.Fatalf("read %d bytes, err %v", n, err)
	}
}

// heapPeak samples HeapInuse until the benchmark ends and returns a function
// that stops the sampling and reports the largest value seen above the
// starting heap.
func heapPeak(b testing.TB) func() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base && ms.HeapInuse-base > peak.Load() {
				peak.Store(ms.HeapInuse - base)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

// BenchmarkCombineSSMSPlanted times CombineSSMS of three genuine shares of
// a (5, 3) split, 32 B and 1 MiB, beside 50 shares an outsider planted
// (their own split under the victim's split ID and public key, at random
// indexes): the cost of checking the 53 signatures, against
// BenchmarkCombineSSMS's, which checks none.
func BenchmarkCombineSSMSPlanted(b *testing.B) {
	for _, size := range []int{32, benchSize} {
		secret := testSecret(size, 1)
		shares, err := SplitSSMS(secret, 5, 3)
		if err != nil {
			b.Fatal(err)
		}
		evil := outsiderSplit(b, shares[0], make([]byte, size), 50)
		given := append(evil, shares[:3]...)
		name := "32B_n5_t3_50planted"
		if size == benchSize {
			name = "1MiB_n5_t3_50planted"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if got, _, _ := CombineSSMS(given); got == nil {
					b.Fatal("not recovered")
				}
			}
		})
	}
}
