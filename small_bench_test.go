package shamir

import (
	"bytes"
	"testing"
)

// The floors of a short secret's Split and Combine: 32 B with Vault's
// default 5 of 3, each timed next to the function itself so that the two
// are compared in one run (go test -bench 'Floor32').
//
// A floor does the work the function cannot avoid, whatever its design,
// each part as cheaply as the package can do it, and nothing else. Both
// floors were first only the allocation, the random bytes and one kernel
// call with a matrix expanded once, outside the loop; but the function
// cannot know its matrix before it has its x coordinates, random in Split
// and given in Combine, nor use parts it has not checked, so the floors
// now do that work too, at its cheapest:
//
//   - Split: the shares, allocated as Split allocates them (allocShares:
//     the buffer and the headers in one object, the least Vault's [][]byte
//     allows); one randomness request (newRandom, release); five distinct,
//     non-zero, uniform x coordinates, drawn 8 bytes at a time into the
//     shares' buffer, with 0 and duplicates rejected (no shuffle, no bytes
//     beyond those it uses but the rest of each 8, and no scratch to clear:
//     the first share's y bytes, drawn next, overwrite them); the 2·32
//     bytes of the two random shares; the 3×3 matrix that interpolates the
//     other three shares through (0, s) and those two (lagrange, from the
//     tables: the points are public), expanded for the kernel; and the
//     multiply-adds, one kernel call of that matrix on 32 columns (the
//     fewest: evaluating the polynomial would take 5×2).
//   - Combine: the checks Vault's Combine makes (at least two parts of at
//     least two bytes, equal lengths, no duplicate x coordinate) and the
//     package's refusal of x = 0, in one pass over the parts with a bit per
//     x coordinate; the Lagrange weights at 0 (lagrange), expanded for the
//     kernel; the secret, allocated; and the multiply-adds, one kernel call
//     of the 1×3 row on 32 columns, reading the parts in place.
//
// What a floor leaves out is what the function does beyond that: Split's
// Fisher–Yates shuffle of 1…255 over 64 random bytes (the draw that
// testdata/gf256/vectors.json pins), and for both, the engine's
// bookkeeping (choosing a path, building its row lists, dispatching to the
// kernel). The ratio of a function to its floor measures that.

const (
	floorSize          = 32
	floorParts, floorT = 5, 3
	floorBench32       = "32B_n5_t3"
)

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
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			benchSharesSink = splitFloor32(secret)
		}
	})
}

// splitFloor32 is the floor of Split(secret, 5, 3) for a secret of 32
// bytes, on a kernel that takes 32 columns.
func splitFloor32(secret []byte) [][]byte {
	var (
		ins  [floorT][]byte
		tab  [(floorParts - floorT + 1) * floorT * 32]byte
		coef [(floorParts - floorT + 1) * floorT]byte
	)
	buf, shares := allocShares(floorSize, floorParts)
	r := newRandom()
	var xs [1 + floorParts]byte // 0, then the shares' x coordinates
	seen := [4]uint64{1}        // a bit per x coordinate; 0 is taken
	for i := 1; i < len(xs); {
		draw := buf[:8] // the first share's y bytes, drawn later
		r.Read(draw)
		for _, x := range draw {
			if bit := uint64(1) << (x & 63); seen[x>>6]&bit == 0 && i < len(xs) {
				seen[x>>6] |= bit
				xs[i] = x
				i++
			}
		}
	}
	for i, s := range shares {
		s[floorSize] = xs[1+i]
	}
	ins[0] = secret
	for i := range floorT - 1 {
		r.Read(shares[i][:floorSize])
		ins[1+i] = shares[i]
	}
	r.release()
	c := lagrange(coef[:0], xs[:floorT], xs[floorT:])
	t := tab[:len(c)*active.tableSize]
	expandAll(t, active, c)
	active.mulRows(t, ins[:], shares[floorT-1:], 0, floorSize, false)
	return shares
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
		b.SetBytes(floorSize)
		b.ReportAllocs()
		for b.Loop() {
			secret, err := combineFloor32(parts)
			if err != nil {
				b.Fatal(err)
			}
			benchSink = secret
		}
	})
}

// combineFloor32 is the floor of Combine(parts) for 3 parts of a secret of
// 32 bytes, on a kernel that takes 32 columns.
func combineFloor32(parts [][]byte) ([]byte, error) {
	var (
		tab  [floorT * 32]byte
		coef [floorT]byte
		xs   [floorT]byte
		seen [4]uint64 // a bit per x coordinate
	)
	if len(parts) < 2 {
		return nil, errTooFewParts
	}
	size := len(parts[0])
	if size < 2 {
		return nil, errPartTooShort
	}
	if len(parts) != floorT {
		panic("combineFloor32: not 3 parts")
	}
	for i, p := range parts {
		if len(p) != size {
			return nil, errLengthMismatch
		}
		x := p[size-1]
		bit := uint64(1) << (x & 63)
		if seen[x>>6]&bit != 0 {
			return nil, errDuplicatePart
		}
		seen[x>>6] |= bit
		xs[i] = x
	}
	if seen[0]&1 != 0 {
		return nil, errZeroX
	}
	c := lagrange(coef[:0], xs[:], []byte{0})
	t := tab[:len(c)*active.tableSize]
	expandAll(t, active, c)
	secret := make([]byte, size-1)
	active.mulRows(t, parts, [][]byte{secret}, 0, size-1, false)
	return secret, nil
}

// TestFloor32 checks that the floors compute what Split and Combine do:
// shares of the secret, and the secret from them.
func TestFloor32(t *testing.T) {
	if floorSize%active.width != 0 {
		t.Skipf("kernel %s takes %d-byte multiples", active.name, active.width)
	}
	secret := testSecret(floorSize, 32)
	for range 100 {
		shares := splitFloor32(secret)
		for _, sub := range [][][]byte{shares[:3], shares[2:], {shares[4], shares[0], shares[2]}} {
			if got, err := Combine(sub); err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("splitFloor32's shares combine to %x, %v", got, err)
			}
			if got, err := combineFloor32(sub); err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("combineFloor32 gives %x, %v", got, err)
			}
		}
		if _, err := combineFloor32([][]byte{shares[0], shares[1], shares[0]}); err != errDuplicatePart {
			t.Fatalf("combineFloor32 of a duplicate: %v", err)
		}
	}
}
