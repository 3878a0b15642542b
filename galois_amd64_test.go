//go:build !purego

package shamir

import (
	"encoding/binary"
	"math/bits"
	"testing"

	"golang.org/x/sys/cpu"
)

// affineByte is GF2P8AFFINEQB on one byte with imm8 = 0, as the Intel SDM
// defines it: bit i of the result is the parity of x AND byte 7−i of the
// matrix.
func affineByte(m uint64, x byte) byte {
	var r byte
	for i := range 8 {
		row := byte(m >> (8 * (7 - i)))
		r |= byte(bits.OnesCount8(row&x)&1) << i
	}
	return r
}

// TestExpansions checks the kernels' tables against the field, independently
// of the assembly.
func TestExpansions(t *testing.T) {
	var tab [32]byte
	for c := range 256 {
		coef := []byte{byte(c)}
		expandAll(tab[:], gfni512Kernel, coef)
		m := binary.LittleEndian.Uint64(tab[:])
		expandAll(tab[:], gfni256Kernel, coef)
		for i := range 4 {
			if binary.LittleEndian.Uint64(tab[8*i:]) != m {
				t.Fatalf("gfni256 expansion of %#x: lane %d differs from gfni512's", c, i)
			}
		}
		expandAll(tab[:], avx2Kernel, coef)
		for x := range 256 {
			want := mulSlow(byte(c), byte(x))
			if got := affineByte(m, byte(x)); got != want {
				t.Fatalf("affine matrix of %#x maps %#x to %#x, want %#x", c, x, got, want)
			}
			if got := tab[x&15] ^ tab[16+x>>4]; got != want {
				t.Fatalf("nibble tables of %#x map %#x to %#x, want %#x", c, x, got, want)
			}
		}
	}
}

// TestAffineTable checks the generated table against affineMatrix, which
// derives the same operands another way (TestExpansions checks the table
// against the field).
func TestAffineTable(t *testing.T) {
	for c := range 256 {
		if got, want := affineTable[c], affineMatrix(byte(c)); got != want {
			t.Fatalf("affineTable[%#x] = %#016x, affineMatrix gives %#016x", c, got, want)
		}
	}
}

// TestArchKernels checks that the kernels offered match the CPU's features,
// so that a detection bug cannot silently leave a kernel untested.
func TestArchKernels(t *testing.T) {
	has := map[string]bool{}
	for _, k := range archKernels() {
		has[k.name] = true
	}
	want := map[string]bool{
		"gfni512": cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512GFNI && cpu.X86.HasBMI2,
		"gfni256": cpu.X86.HasAVX2 && hasGFNI,
		"avx2":    cpu.X86.HasAVX2,
	}
	for name, w := range want {
		if has[name] != w {
			t.Errorf("kernel %s offered: %v, want %v", name, has[name], w)
		}
	}
	if cpu.X86.HasAVX512GFNI && !hasGFNI {
		t.Errorf("CPUID reports AVX512GFNI but hasGFNI is false")
	}
}

// kernelForms returns the forms of the amd64 kernels this CPU runs (gfni512
// has two; gfni256 and avx2 one, which the driver's tests reach), each
// with the contract of kernel.mulRows within its limits, so that the tests
// reach each one whatever length the driver would choose it for.
func kernelForms() []kernelForm {
	var fs []kernelForm
	form := func(name string, k *kernel, maxOut, width int, mul func(tab []byte, ins, outs [][]byte, off, n int, xor bool)) {
		fs = append(fs, kernelForm{name, k, maxOut, width, func(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
			checkRows(k.tableSize, width, tab, ins, outs, off, n)
			if n > 0 {
				mul(tab, ins, outs, off, n, xor)
			}
		}})
	}
	if hasGFNI512 {
		form("gfni512/straight", gfni512Kernel, 4, 1, mulGFNI512Groups)
		form("gfni512/loop", gfni512Kernel, 8, 1, func(tab []byte, ins, outs [][]byte, off, n int, xor bool) {
			mulGFNI512Loop(tab, ins, outs, off, n, xor)
		})
	}
	return fs
}

// TestGFNI512Dispatch checks that mulRowsGFNI512 takes each form where it
// is meant to, so that TestKernelForms covers what the package runs.
func TestGFNI512Dispatch(t *testing.T) {
	if !hasGFNI512 {
		t.Skip("no gfni512 on this CPU")
	}
	if gfni512StraightMin > blockSize || gfni512GroupsMin > blockSize {
		t.Errorf("the straight-line form is never chosen for whole blocks of %d columns", blockSize)
	}
	for r := 1; r <= 4; r++ {
		if groupGFNI512[r] < 2 {
			t.Errorf("groupGFNI512[%d] = %d: the straight-line form should take at least two inputs", r, groupGFNI512[r])
		}
	}
}
