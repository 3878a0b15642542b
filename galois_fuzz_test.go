package shamir

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// FuzzKernels compares every kernel, and every form of a kernel that has
// several (kernelForms), with the portable one on fuzzer-chosen matrices,
// lengths and offsets. The rows sit inside larger buffers, and the
// whole buffers must come out equal, so a write outside a row shows too.
func FuzzKernels(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint16(64), uint8(0), uint8(0), false, uint64(1), []byte{0x57})
	f.Add(uint8(3), uint8(1), uint16(1000), uint8(5), uint8(3), true, uint64(2), []byte{1, 2, 3})
	f.Add(uint8(9), uint8(4), uint16(321), uint8(63), uint8(17), true, uint64(3), []byte{0, 0xff, 0x80})
	f.Add(uint8(16), uint8(16), uint16(129), uint8(1), uint8(2), false, uint64(4), []byte{})
	f.Add(uint8(2), uint8(31), uint16(2047), uint8(33), uint8(0), true, uint64(5), []byte{0x1b, 0x8d})
	f.Fuzz(func(t *testing.T, rows, cols uint8, n16 uint16, off8, skew uint8, xor bool, seed uint64, coefs []byte) {
		r, c := 1+int(rows)%20, 1+int(cols)%32
		n, off := int(n16)%2048, int(off8)%64
		rng := rand.New(rand.NewPCG(seed, uint64(r*c)))
		coef := make([]byte, r*c)
		for i := range coef {
			if i < len(coefs) {
				coef[i] = coefs[i]
			} else {
				coef[i] = byte(rng.Uint32())
			}
		}
		// Each row starts at its own misalignment: off plus a per-row skew
		// past a 64-byte guard.
		const guard = 64
		mk := func(count int) (rows, bufs [][]byte) {
			for i := range count {
				pad := (int(skew) + 7*i) % 64
				b := make([]byte, guard+pad+off+n+guard)
				for k := range b {
					b[k] = byte(rng.Uint32())
				}
				bufs = append(bufs, b)
				rows = append(rows, b[guard+pad:guard+pad+off+n])
			}
			return rows, bufs
		}
		ins, inBufs := mk(c)
		wantOuts, wantBufs := mk(r)
		inSaved := clone2(inBufs)
		outSaved := clone2(wantBufs)
		newMatrix(genericKernel, coef, r, c).apply(ins, wantOuts, off, n, xor)
		for _, k := range kernels() {
			if k == genericKernel {
				continue
			}
			gotBufs := clone2(outSaved)
			gotOuts := make([][]byte, r)
			for i := range gotOuts {
				start := len(wantBufs[i]) - guard - off - n
				gotOuts[i] = gotBufs[i][start : start+off+n]
			}
			newMatrix(k, coef, r, c).apply(ins, gotOuts, off, n, xor)
			for i := range gotBufs {
				if !bytes.Equal(gotBufs[i], wantBufs[i]) {
					t.Fatalf("%s: %dx%d matrix, off %d n %d xor %v: output row %d differs from generic", k.name, r, c, off, n, xor, i)
				}
			}
			for j := range inBufs {
				if !bytes.Equal(inBufs[j], inSaved[j]) {
					t.Fatalf("%s: input row %d was modified", k.name, j)
				}
			}
		}
		// Each form of a kernel that has several (kernelForms), directly,
		// on the first rows up to the outputs a form takes, and the
		// columns up to the last multiple of its width.
		for _, f := range kernelForms() {
			fr, fn := min(r, f.maxOut), n-n%f.width
			gotBufs := clone2(outSaved)
			gotOuts := make([][]byte, fr)
			for i := range gotOuts {
				start := len(wantBufs[i]) - guard - off - n
				gotOuts[i] = gotBufs[i][start : start+off+n]
			}
			tab := make([]byte, fr*c*f.k.tableSize)
			expandAll(tab, f.k, coef[:fr*c])
			f.mul(tab, ins, gotOuts, off, fn, xor)
			for i := range fr {
				// The columns past off+fn keep their earlier bytes.
				want := clone2(wantBufs[i : i+1])[0]
				start := len(want) - guard - off - n
				copy(want[start+off+fn:], outSaved[i][start+off+fn:])
				if !bytes.Equal(gotBufs[i], want) {
					t.Fatalf("%s: %dx%d matrix, off %d n %d xor %v: output row %d differs from generic", f.name, fr, c, off, n, xor, i)
				}
			}
			for j := range inBufs {
				if !bytes.Equal(inBufs[j], inSaved[j]) {
					t.Fatalf("%s: input row %d was modified", f.name, j)
				}
			}
		}
	})
}
