package shamir

import (
	"fmt"
	"testing"
)

// The benchmarks run every kernel this CPU can run through the driver, as the
// package uses them. Throughput (SetBytes) counts the bytes of input rows
// consumed, the convention of Reed–Solomon benchmarks. Every row, input and
// output, is filled with random bytes before the timing (benchFill), so
// that no read is served from the zero page.

var benchSizes = []struct {
	name string
	n    int
}{{"64B", 64}, {"4KiB", 4 << 10}, {"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

// benchApply times m.apply over rows of n bytes, m having rows×cols
// coefficients, the rows filled with random bytes.
func benchApply(b *testing.B, k *kernel, rows, cols, n int, xor bool) {
	coef := make([]byte, rows*cols)
	for i := range coef {
		coef[i] = byte(0x57 + 29*i) // arbitrary, none of them 0 or 1
	}
	m := newMatrix(k, coef, rows, cols)
	mk := func(count int, seed uint64) [][]byte {
		r := make([][]byte, count)
		for i := range r {
			r[i] = make([]byte, n)
			benchFill(r[i], seed+uint64(i))
		}
		return r
	}
	ins, outs := mk(cols, 100), mk(rows, 200)
	b.SetBytes(int64(cols * n))
	b.ReportAllocs()
	for b.Loop() {
		m.apply(ins, outs, 0, n, xor)
	}
}

// BenchmarkMulAdd is the primitive: out ^= c·in.
func BenchmarkMulAdd(b *testing.B) {
	for _, k := range kernels() {
		for _, s := range benchSizes {
			b.Run(k.name+"/"+s.name, func(b *testing.B) { benchApply(b, k, 1, 1, s.n, true) })
		}
	}
}

// BenchmarkDot has Combine's shape: t shares into one secret. The 64KiB
// rows stay in the second-level cache, the 1MiB ones do not.
func BenchmarkDot(b *testing.B) {
	for _, k := range kernels() {
		for _, t := range []int{3, 10} {
			for _, s := range benchSizes[2:] {
				b.Run(fmt.Sprintf("%s/%dx%s", k.name, t, s.name), func(b *testing.B) { benchApply(b, k, 1, t, s.n, false) })
			}
		}
	}
}

// BenchmarkSpread has the shape of a 3-of-5 Split by interpolation, or of
// three Reed–Solomon parity rows: 3 inputs into 3 outputs.
func BenchmarkSpread(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name+"/3x3_1MiB", func(b *testing.B) { benchApply(b, k, 3, 3, 1<<20, false) })
	}
}
