package shamir

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// rsRoundTrip encodes random data with c, then checks that the fragments
// have rebuild the data fragments.
func rsRoundTrip(t *testing.T, c *rsCode, rng *rand.Rand, have []int, n int) {
	t.Helper()
	frags := make([][]byte, c.parts)
	for i := range frags {
		frags[i] = make([]byte, n)
		if i < c.threshold {
			for k := range frags[i] {
				frags[i][k] = byte(rng.Uint32())
			}
		}
	}
	c.encode(frags[:c.threshold], frags[c.threshold:], 0, n)

	m, missing, err := c.decoder(have)
	if err != nil {
		t.Fatalf("(%d,%d) decoder(%v): %v", c.parts, c.threshold, have, err)
	}
	ins := make([][]byte, len(have))
	for k, i := range have {
		ins[k] = frags[i]
	}
	outs := make([][]byte, len(missing))
	for k := range outs {
		outs[k] = make([]byte, n)
	}
	if m != nil {
		m.apply(ins, outs, 0, n, false)
	}
	for k, j := range missing {
		if !bytes.Equal(outs[k], frags[j]) {
			t.Fatalf("(%d,%d) from %v: data fragment %d rebuilt wrong", c.parts, c.threshold, have, j)
		}
	}
}

// TestRSEverySubset decodes from every threshold-subset, in every rotation
// of its order, for all codes with up to 8 fragments.
func TestRSEverySubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for parts := 1; parts <= 8; parts++ {
		for th := 1; th <= parts; th++ {
			c := newRSCode(parts, th)
			idx := make([]int, th)
			for i := range idx {
				idx[i] = i
			}
			for {
				have := append([]int(nil), idx...)
				for range th {
					rsRoundTrip(t, c, rng, have, 37)
					have = append(have[1:], have[0])
				}
				if !nextSubset(idx, parts) {
					break
				}
			}
		}
	}
}

// TestRSLarge checks the largest codes on random subsets.
func TestRSLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int{{255, 2}, {255, 128}, {255, 254}, {255, 255}, {200, 100}} {
		c := newRSCode(shape[0], shape[1])
		for range 3 {
			have := rng.Perm(c.parts)[:c.threshold]
			rsRoundTrip(t, c, rng, have, 19)
		}
	}
}

func TestRSSystematic(t *testing.T) {
	c := newRSCode(6, 4)
	for i := range 4 {
		for j := range 4 {
			if want := byte(0); i == j && c.coef(i, j) != 1 || i != j && c.coef(i, j) != want {
				t.Fatalf("G[%d][%d] = %#x, not the identity", i, j, c.coef(i, j))
			}
		}
	}
	m, missing, err := c.decoder([]int{0, 1, 2, 3})
	if m != nil || missing != nil || err != nil {
		t.Fatalf("decoding from the data fragments needs no matrix: %v %v %v", m, missing, err)
	}
}

func TestInvert(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 12; n++ {
		for range 20 {
			a := make([]byte, n*n)
			for i := range a {
				a[i] = byte(rng.Uint32())
			}
			inv, err := invert(a, n)
			if err == errSingular {
				continue
			}
			// a·inv must be the identity.
			for i := range n {
				for j := range n {
					var s byte
					for k := range n {
						s ^= gfMul(a[i*n+k], inv[k*n+j])
					}
					if want := byte(0); i == j && s != 1 || i != j && s != want {
						t.Fatalf("n=%d: (a·a⁻¹)[%d][%d] = %#x", n, i, j, s)
					}
				}
			}
		}
	}
	// Two equal rows: singular.
	if _, err := invert([]byte{1, 2, 1, 2}, 2); err != errSingular {
		t.Fatalf("invert of a singular matrix: err = %v", err)
	}
	if _, _, err := newRSCode(3, 2).decoder([]int{0}); err == nil {
		t.Fatal("decoder accepted fewer than threshold fragments")
	}
}

// The RS part of SSMS alone, on the shapes of BenchmarkSplitSSMS: 1 MiB of
// data in 3 fragments, 2 parity fragments. Compare with
// github.com/klauspost/reedsolomon's Encode and ReconstructData on the same
// shards (BenchmarkRS in interop/). Every fragment, the outputs too, is
// filled with random bytes first (rsBenchFrags), so that no read is served
// from the zero page, as klauspost's shards are in BenchmarkRS.
func BenchmarkRSEncode(b *testing.B) {
	data, parity := rsBenchFrags(5, 3, 1<<20)
	c := newRSCode(5, 3)
	b.Run("1MiB_n5_t3", func(b *testing.B) {
		b.SetBytes(1 << 20)
		b.ReportAllocs()
		for b.Loop() {
			c.encode(data, parity, 0, len(data[0]))
		}
	})
}

// BenchmarkRSDecode rebuilds data fragments 0 and 1 from 2, 3 and 4, into
// output rows filled with random bytes beforehand.
func BenchmarkRSDecode(b *testing.B) {
	data, parity := rsBenchFrags(5, 3, 1<<20)
	c := newRSCode(5, 3)
	c.encode(data, parity, 0, len(data[0]))
	b.Run("1MiB_n5_t3", func(b *testing.B) {
		// Data fragments 0 and 1 lost: rebuilt from 2, 3 and 4.
		ins := [][]byte{data[2], parity[0], parity[1]}
		outs := [][]byte{make([]byte, len(data[0])), make([]byte, len(data[0]))}
		for i, o := range outs {
			benchFill(o, uint64(10+i))
		}
		b.SetBytes(1 << 20)
		b.ReportAllocs()
		for b.Loop() {
			m, _, err := c.decoder([]int{2, 3, 4})
			if err != nil {
				b.Fatal(err)
			}
			m.apply(ins, outs, 0, len(outs[0]), false)
		}
	})
}

func rsBenchFrags(parts, threshold, size int) (data, parity [][]byte) {
	f := (size + threshold - 1) / threshold
	rng := rand.New(rand.NewPCG(1, 1))
	for range threshold {
		d := make([]byte, f)
		for i := range d {
			d[i] = byte(rng.Uint32())
		}
		data = append(data, d)
	}
	for range parts - threshold {
		p := make([]byte, f)
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		parity = append(parity, p)
	}
	return data, parity
}
