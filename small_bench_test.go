package shamir

import "testing"

// The floors of a short secret's Split and Combine: 32 B with Vault's
// default 5 of 3, each timed next to the function itself so that the two
// are compared in one run (go test -bench 'Floor32').
//
// A floor does only the work the function cannot avoid, each part as
// cheaply as the package can do it:
//
//   - Split: the shares, allocated as Split allocates them (allocShares:
//     one buffer and the headers, two objects); one randomness request
//     (newRandom, release) that draws the random bytes Split must use, 5
//     for the x coordinates and the 2·32 bytes of the two random shares;
//     and the multiply-adds, one kernel call of the 3×3 interpolation
//     matrix (already expanded) on 32 columns.
//   - Combine: the secret, allocated, and the multiply-adds, one kernel
//     call of the 1×3 Lagrange row (already expanded) on 32 columns.
//
// What a floor leaves out is the work the function does to know what to
// compute, which its ratio to the floor measures: for Split, picking
// distinct x coordinates and the interpolation matrix they give; for
// Combine, checking the parts and computing the Lagrange weights at 0;
// for both, expanding the coefficients for the kernel and the engine's
// bookkeeping.

const (
	floorSize             = 32
	floorParts, floorT    = 5, 3
	floorBench32          = "32B_n5_t3"
	floorXs               = 5
	floorRandomRows       = floorT - 1
	floorInterpolatedRows = floorParts - floorT + 1
)

// floorMatrix returns the kernel expansion of a rows×cols matrix of
// nonzero coefficients, as the floors use it.
func floorMatrix(rows, cols int) []byte {
	coef := make([]byte, rows*cols)
	for i := range coef {
		coef[i] = byte(0x57 + 29*i)
	}
	tab := make([]byte, len(coef)*active.tableSize)
	expandAll(tab, active, coef)
	return tab
}

func BenchmarkSplitFloor32(b *testing.B) {
	secret := make([]byte, floorSize)
	benchFill(secret, 1)
	b.Run("split/"+floorBench32, func(b *testing.B) {
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Split(secret, floorParts, floorT); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor/"+floorBench32, func(b *testing.B) {
		if floorSize%active.width != 0 {
			b.Skipf("kernel %s takes %d-byte multiples", active.name, active.width)
		}
		tab := floorMatrix(floorInterpolatedRows, floorT)
		ins := make([][]byte, floorT)
		outs := make([][]byte, floorInterpolatedRows)
		var xs [floorXs]byte
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			_, shares := allocShares(floorSize, floorParts)
			r := newRandom()
			r.Read(xs[:])
			for i, s := range shares {
				s[floorSize] = xs[i]
			}
			ins[0] = secret
			for i := range floorRandomRows {
				r.Read(shares[i][:floorSize])
				ins[1+i] = shares[i]
			}
			r.release()
			copy(outs, shares[floorRandomRows:])
			active.mulRows(tab, ins, outs, 0, floorSize, false)
			benchSharesSink = shares
		}
	})
}

func BenchmarkCombineFloor32(b *testing.B) {
	shares, err := Split(make([]byte, floorSize), floorParts, floorT)
	if err != nil {
		b.Fatal(err)
	}
	parts := shares[:floorT]
	b.Run("combine/"+floorBench32, func(b *testing.B) {
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Combine(parts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor/"+floorBench32, func(b *testing.B) {
		if floorSize%active.width != 0 {
			b.Skipf("kernel %s takes %d-byte multiples", active.name, active.width)
		}
		tab := floorMatrix(1, floorT)
		outs := make([][]byte, 1)
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			outs[0] = make([]byte, floorSize)
			active.mulRows(tab, parts, outs, 0, floorSize, false)
			benchSink = outs[0]
		}
	})
}
