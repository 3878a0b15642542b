package paper

import (
	"errors"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
)

// TestQRFinderGrid reads pictures tiled with QR finder patterns, up to
// 17 KB: ZXing's detector tries every triple of the candidate corners it
// finds, which made 1.7 KB of them cost 10 s and 17 KB hours. Each must be
// given up within the candidate cap and under a second of CPU.
func TestQRFinderGrid(t *testing.T) {
	for _, tc := range []struct {
		side, module int
		stripes      bool
	}{{1000, 1, false}, {1000, 2, false}, {2000, 1, false}, {2000, 2, false}, {4000, 2, false}, {5600, 2, false},
		{2000, 1, true}, {2000, 2, true}, {4000, 1, true}} {
		data := pngtest.FinderGrid(tc.side, tc.module)
		if tc.stripes {
			data = pngtest.FinderStripes(tc.side, tc.module)
		}
		if len(data) > 20<<10 {
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
		if s.mostCandidates > maxQRCandidates+1 { // +1: the one that stops the pass
			t.Errorf("%d candidates, over the cap of %d", s.mostCandidates, maxQRCandidates)
		}
		if cpuTime() > 0 && used > time.Second {
			t.Errorf("%v of CPU, over a second", used)
		}
	}
}
