package paper

import (
	"bytes"
	"errors"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/paper/jpegtest"
	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
)

// TestQRFinderGrid reads pictures tiled with QR finder patterns, up to
// 17 KB: ZXing's detector tries every triple of the candidate corners it
// finds, which made 1.7 KB of them cost 10 s and 17 KB hours. Each must be
// given up within the candidate cap and the work budget, counted
// (checkWork); the CPU time is logged (some 0.4 s for 17 KB), not checked:
// a timed test fails on a loaded machine and passes a slow search on a fast
// one.
func TestQRFinderGrid(t *testing.T) {
	for _, tc := range []struct {
		side, module int
		stripes      bool
	}{{1000, 1, false}, {1000, 2, false}, {2000, 1, false}, {2000, 2, false}, {4000, 2, false}, {5300, 2, false},
		{2000, 1, true}, {2000, 2, true}, {4000, 1, true}} {
		if testing.Short() && tc.side > 2000 {
			continue // the race detector's run (test.sh): the small ones will do
		}
		data := pngtest.FinderGrid(tc.side, tc.module)
		if tc.stripes {
			data = pngtest.FinderStripes(tc.side, tc.module)
		}
		// The 17 KB: Go 1.26's compress/flate makes 16 KB of the
		// largest grid, Go 1.27's 25 KB of the same pixels.
		if len(data) > 32<<10 {
			t.Fatalf("%d px, module %d: %d bytes", tc.side, tc.module, len(data))
		}
		var s qrSearch
		cpu := cpuTime()
		start := time.Now()
		_, err := s.read(data)
		used, wall := cpuTime()-cpu, time.Since(start)
		t.Logf("stripes %v, %d×%d px, module %d px, %d bytes: %v (%v CPU, %v wall, %d passes, at most %d candidates)",
			tc.stripes, tc.side, tc.side, tc.module, len(data), err, used, wall, s.passes, s.mostCandidates)
		if !errors.Is(err, ErrNoQR) {
			t.Errorf("got %v, want ErrNoQR", err)
		}
		checkWork(t, &s, data)
		// The grids are made to reach the cap, the stripes to find no
		// candidate but cost pixels: each exercises what it is for.
		if !tc.stripes && s.mostCandidates != maxQRCandidates+1 { // +1: the one that stops the pass
			t.Errorf("at most %d candidates in a pass: the cap of %d never stopped one", s.mostCandidates, maxQRCandidates)
		}
		if s.passes == 0 || s.work == 0 {
			t.Errorf("%d passes, %d work: the picture was never searched", s.passes, s.work)
		}
	}
}

// TestJPEGScans reads progressive JPEGs of many scans: each scan costs a
// pass over every block, so that 1,000 scans of a picture within the
// pixel budget, 142 KB, took 22 seconds. The scans are counted before
// anything is decoded, and a JPEG of more than maxJPEGScans is refused
// with no pixel decoded; the CPU time is logged, not checked.
func TestJPEGScans(t *testing.T) {
	for _, size := range []int{8, 100, 1000} {
		if _, _, err := image.Decode(bytes.NewReader(jpegtest.Progressive(size, size, 12))); err != nil {
			t.Fatalf("jpegtest.Progressive(%d, %d, 12) does not decode: %v", size, size, err)
		}
	}
	for _, scans := range []int{10, maxJPEGScans, maxJPEGScans + 1, 1000} {
		data := jpegtest.Progressive(4000, 4000, scans)
		if n := jpegScans(data); n < scans {
			t.Errorf("%d scans counted as %d", scans, n)
		}
		cpu := cpuTime()
		err := checkCost(data)
		t.Logf("%d scans, %d bytes: %v (%v CPU)", scans, len(data), err, cpuTime()-cpu)
		if (err == nil) != (scans <= maxJPEGScans) {
			t.Errorf("%d scans: %v", scans, err)
		}
		if scans > maxJPEGScans {
			var s qrSearch
			cpu := cpuTime()
			_, err := s.read(data)
			t.Logf("ReadQR of %d scans: %v (%v CPU)", scans, err, cpuTime()-cpu)
			if err == nil || !strings.Contains(err.Error(), "scans") || s.pixels != 0 || s.passes != 0 {
				t.Errorf("ReadQR of %d scans: %v, %d pixels decoded, %d passes", scans, err, s.pixels, s.passes)
			}
			checkWork(t, &s, data)
		}
	}
}

// TestPictureDensity refuses a JPEG that declares more pixels than its
// bytes can hold: every block of a JPEG costs at least a bit of its file
// (2 in a baseline one), and one that does not is made to cost.
func TestPictureDensity(t *testing.T) {
	if err := checkCost(jpegtest.Progressive(4000, 4000, 1)); err != nil {
		t.Errorf("a progressive JPEG of one bit a block: %v", err)
	}
	// The DC scan, one bit a block, left out: end-of-band runs alone.
	data := jpegtest.Progressive(10000, 10000, 2)
	sos := bytes.Index(data, []byte{0xff, 0xda})
	next := bytes.Index(data[sos+2:], []byte{0xff, 0xda}) + sos + 2
	data = append(data[:sos:sos], data[next:]...)
	if !testing.Short() { // 100 megapixels: not under the race detector
		if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
			t.Fatalf("the JPEG without its DC scan does not decode: %v", err)
		}
	}
	err := checkCost(data)
	if err == nil || !strings.Contains(err.Error(), "pixels a byte") {
		t.Errorf("%d bytes of 10000×10000 pixels: %v", len(data), err)
	}
}
