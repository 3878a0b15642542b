package shamir

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"
)

// guardedRow returns a slice of n bytes placed either at the start or at the
// end of a read-write page that has inaccessible pages on both sides, so a
// kernel that reads or writes a single byte before or after [off, off+n)
// crashes the test instead of passing by luck.
type guardedRow struct {
	mem []byte // the whole mapping: guard page, data page, guard page
	ps  int
}

func newGuardedRow(t *testing.T) *guardedRow {
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:ps], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[2*ps:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return &guardedRow{mem: mem, ps: ps}
}

// row returns n bytes touching the lower guard page, or the upper one if
// atEnd is set.
func (g *guardedRow) row(n int, atEnd bool) []byte {
	if atEnd {
		return g.mem[2*g.ps-n : 2*g.ps : 2*g.ps]
	}
	return g.mem[g.ps : g.ps+n : g.ps+n]
}

// TestKernelsGuardPages runs every kernel on rows that end (or start) right
// at an inaccessible page, for every length up to a few vectors.
func TestKernelsGuardPages(t *testing.T) {
	const rows, cols = 3, 3
	var gs []*guardedRow
	for range rows + cols {
		gs = append(gs, newGuardedRow(t))
	}
	rng := rand.New(rand.NewPCG(9, 10))
	coef := make([]byte, rows*cols)
	for i := range coef {
		coef[i] = byte(rng.Uint32())
	}
	forEachKernel(t, func(t *testing.T, k *kernel) {
		m := newMatrix(k, coef, rows, cols)
		for n := 1; n <= 300; n++ {
			for _, atEnd := range []bool{false, true} {
				ins, outs := make([][]byte, cols), make([][]byte, rows)
				for j := range ins {
					ins[j] = gs[j].row(n, atEnd)
					for i := range ins[j] {
						ins[j][i] = byte(rng.Uint32())
					}
				}
				want := make([][]byte, rows)
				for r := range outs {
					outs[r] = gs[cols+r].row(n, atEnd)
					for i := range outs[r] {
						outs[r][i] = byte(rng.Uint32())
					}
					want[r] = bytes.Clone(outs[r])
				}
				xor := n&1 == 1
				applyRef(coef, ins, want, 0, n, xor)
				m.apply(ins, outs, 0, n, xor)
				for r := range outs {
					if !bytes.Equal(outs[r], want[r]) {
						t.Fatalf("%s: n %d atEnd %v: output row %d differs from the reference", k.name, n, atEnd, r)
					}
				}
			}
		}
	})
}
