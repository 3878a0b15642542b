package shamir

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A kernelForm is one of the code paths of a kernel that the driver
// chooses between by shape or length (kernelForms, per architecture),
// with the contract of kernel.mulRows for at most maxOut outputs and the
// tables of kernel k.
type kernelForm struct {
	name          string
	k             *kernel
	maxOut, width int // mul takes up to maxOut outputs, n a multiple of width
	mul           func(tab []byte, ins, outs [][]byte, off, n int, xor bool)
}

// formCase runs one application of a rows×cols matrix through form f and
// through the byte-wise reference, with each row at its own misalignment
// inside a larger buffer whose other bytes must not change.
func formCase(t *testing.T, f kernelForm, rng *rand.Rand, coef []byte, rows, cols, skew, off, n int, xor bool) {
	t.Helper()
	const guard = 64
	mk := func(count, seed int) (rows, bufs [][]byte) {
		for i := range count {
			pad := (skew + 7*i + seed) % 64
			b := make([]byte, guard+pad+off+n+guard)
			for k := range b {
				b[k] = byte(rng.Uint32())
			}
			bufs = append(bufs, b)
			rows = append(rows, b[guard+pad:guard+pad+off+n])
		}
		return rows, bufs
	}
	ins, inBufs := mk(cols, 0)
	outs, outBufs := mk(rows, 3)
	inSaved, want := clone2(inBufs), clone2(outBufs)
	wantRows := make([][]byte, rows)
	for r := range wantRows {
		start := len(want[r]) - guard - off - n
		wantRows[r] = want[r][start : start+off+n]
	}
	applyRef(coef, ins, wantRows, off, n, xor)
	tab := make([]byte, len(coef)*f.k.tableSize)
	expandAll(tab, f.k, coef)
	f.mul(tab, ins, outs, off, n, xor)
	for r := range outBufs {
		if !bytes.Equal(outBufs[r], want[r]) {
			t.Fatalf("%s: %dx%d matrix, skew %d off %d n %d xor %v: output row %d differs from the reference",
				f.name, rows, cols, skew, off, n, xor, r)
		}
	}
	for j := range inBufs {
		if !bytes.Equal(inBufs[j], inSaved[j]) {
			t.Fatalf("%s: input row %d was modified", f.name, j)
		}
	}
}

// TestKernelForms checks every form of every kernel against the reference
// on every shape up to 8 outputs and 26 inputs (more than any form takes
// in one pass), lengths on both sides of every chunk and pass boundary,
// misaligned rows, and every constant.
func TestKernelForms(t *testing.T) {
	forms := kernelForms()
	if len(forms) == 0 {
		t.Skip("no kernel with several forms on this CPU")
	}
	lengths := []int{1, 2, 31, 32, 63, 64, 65, 96, 127, 128, 129, 191, 192, 200, 255, 256, 257, 300, 1000, 1024}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			for rows := 1; rows <= f.maxOut; rows++ {
				for cols := 1; cols <= 26; cols++ {
					coef := make([]byte, rows*cols)
					for i := range coef {
						coef[i] = byte(rng.Uint32())
					}
					for i, n := range lengths {
						if testing.Short() && i%3 != 0 || n%f.width != 0 {
							continue
						}
						formCase(t, f, rng, coef, rows, cols, rows+cols+i, (rows*cols+i)%5, n, (rows+cols+i)&1 == 1)
					}
				}
			}
			// Every constant, in every position of a pass of two inputs
			// into two outputs.
			for c := range 256 {
				coef := []byte{byte(c), byte(c + 1), byte(c + 2), byte(c + 3)}
				n := (64 + c) &^ (f.width - 1)
				formCase(t, f, rng, coef, 2, 2, c, c%3, n, c&1 == 1)
			}
		})
	}
}

// TestKernelFormsLong runs the forms over rows of a few kilobytes, the
// lengths at which the driver prefers the straight-line forms.
func TestKernelFormsLong(t *testing.T) {
	for _, f := range kernelForms() {
		t.Run(f.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(13, 14))
			for _, shape := range [][2]int{{1, 3}, {1, 16}, {3, 3}, {4, 6}, {5, 2}, {8, 11}, {8, 23}} {
				rows, cols := min(shape[0], f.maxOut), shape[1]
				coef := make([]byte, rows*cols)
				for i := range coef {
					coef[i] = byte(rng.Uint32())
				}
				for _, n := range []int{1 << 10, 4<<10 + 17, 16<<10 - 1} {
					n &^= f.width - 1
					formCase(t, f, rng, coef, rows, cols, rows, 3, n, n&1 == 1)
				}
			}
		})
	}
}
