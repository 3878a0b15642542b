package shamir

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestAESCTRGuardPages reads the keystream into slices that start or end
// right at an inaccessible page, for every length up to 40 blocks, from a
// fresh stream and from one with part of a block left over, so a read or
// write of a byte outside the slice crashes the test.
func TestAESCTRGuardPages(t *testing.T) {
	g := newGuardedRow(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, impl := range aesCTRImpls {
		t.Run(impl.name, func(t *testing.T) {
			key := randomKey(rng)
			iv := makeIV(rng.Uint64(), ^uint64(0)-5)
			want := ctrReference(key, iv, 7+640)
			for n := 0; n <= 640; n++ {
				for _, atEnd := range []bool{false, true} {
					for _, skip := range []int{0, 7} {
						s := impl.new(key, iv)
						if skip > 0 {
							s.Read(g.row(skip, !atEnd))
						}
						row := g.row(n, atEnd)
						s.Read(row)
						if !bytes.Equal(row, want[skip:skip+n]) {
							t.Fatalf("%d bytes after %d (at the end of the page: %v): wrong keystream", n, skip, atEnd)
						}
					}
				}
			}
		})
	}
}
