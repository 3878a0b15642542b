package shamir

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// mulSlow is multiplication straight from the definition: carry-less
// multiplication of the two polynomials, then reduction modulo
// x^8+x^4+x^3+x+1 (0x11b), bit by bit.
func mulSlow(a, b byte) byte {
	var p uint16
	for i := range 8 {
		if b>>i&1 == 1 {
			p ^= uint16(a) << i
		}
	}
	for i := 15; i >= 8; i-- {
		if p>>i&1 == 1 {
			p ^= 0x11b << (i - 8)
		}
	}
	return byte(p)
}

func TestMulAllProducts(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			if got, want := gfMul(byte(a), byte(b)), mulSlow(byte(a), byte(b)); got != want {
				t.Fatalf("gfMul(%#x, %#x) = %#x, want %#x", a, b, got, want)
			}
		}
	}
}

func TestInverseAll(t *testing.T) {
	if gfInv(0) != 0 {
		t.Fatalf("gfInv(0) = %#x, want 0", gfInv(0))
	}
	for a := 1; a < 256; a++ {
		inv := gfInv(byte(a))
		if mulSlow(byte(a), inv) != 1 {
			t.Fatalf("gfInv(%#x) = %#x: product %#x, want 1", a, inv, mulSlow(byte(a), inv))
		}
	}
}

func TestFieldLaws(t *testing.T) {
	edge := []byte{0, 1, 2, 3, 0x1b, 0x53, 0x7f, 0x80, 0x8d, 0xca, 0xfe, 0xff}
	for _, a := range edge {
		if gfMul(a, 1) != a || gfMul(a, 0) != 0 {
			t.Errorf("identity or zero law fails for %#x", a)
		}
		for _, b := range edge {
			if gfMul(a, b) != gfMul(b, a) {
				t.Errorf("gfMul(%#x, %#x) is not commutative", a, b)
			}
			for _, c := range edge {
				if gfMul(a, gfMul(b, c)) != gfMul(gfMul(a, b), c) {
					t.Errorf("associativity fails for %#x, %#x, %#x", a, b, c)
				}
				if gfMul(a, b^c) != gfMul(a, b)^gfMul(a, c) {
					t.Errorf("distributivity fails for %#x, %#x, %#x", a, b, c)
				}
			}
		}
	}
	// The AES test value: {53}·{ca} = {01} (FIPS 197, section 4.4).
	if gfMul(0x53, 0xca) != 1 {
		t.Errorf("gfMul(0x53, 0xca) = %#x, want 1", gfMul(0x53, 0xca))
	}
}

// applyRef computes outs = M·ins (or ^=) one byte at a time with gfMul.
func applyRef(coef []byte, ins, outs [][]byte, off, n int, xor bool) {
	for r, out := range outs {
		for k := off; k < off+n; k++ {
			var acc byte
			for j, in := range ins {
				acc ^= gfMul(coef[r*len(ins)+j], in[k])
			}
			if xor {
				out[k] ^= acc
			} else {
				out[k] = acc
			}
		}
	}
}

// kernelCase runs one application of a rows×cols matrix under kernel k and
// under the byte-wise reference, with the rows placed at the given offsets
// inside larger buffers whose other bytes must not change.
func kernelCase(t *testing.T, k *kernel, rng *rand.Rand, coef []byte, rows, cols, inOff, outOff, off, n int, xor bool) {
	t.Helper()
	const guard = 64
	mk := func(count, pad int) (rows [][]byte, bufs [][]byte) {
		for range count {
			b := make([]byte, guard+pad+off+n+guard)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			bufs = append(bufs, b)
			rows = append(rows, b[guard+pad:guard+pad+off+n])
		}
		return rows, bufs
	}
	ins, inBufs := mk(cols, inOff)
	outs, outBufs := mk(rows, outOff)
	inSaved := clone2(inBufs)
	want := clone2(outBufs)
	wantRows := make([][]byte, rows)
	for r := range wantRows {
		wantRows[r] = want[r][guard+outOff : guard+outOff+off+n]
	}
	applyRef(coef, ins, wantRows, off, n, xor)

	newMatrix(k, coef, rows, cols).apply(ins, outs, off, n, xor)
	for r := range outBufs {
		if !bytes.Equal(outBufs[r], want[r]) {
			t.Fatalf("%s: %dx%d matrix, inOff %d outOff %d off %d n %d xor %v: output row %d differs from the reference",
				k.name, rows, cols, inOff, outOff, off, n, xor, r)
		}
	}
	for j := range inBufs {
		if !bytes.Equal(inBufs[j], inSaved[j]) {
			t.Fatalf("%s: input row %d was modified", k.name, j)
		}
	}
}

func clone2(b [][]byte) [][]byte {
	c := make([][]byte, len(b))
	for i := range b {
		c[i] = bytes.Clone(b[i])
	}
	return c
}

// forEachKernel runs f on every kernel this CPU can run, the portable one
// included, and names them in the log so CI shows which were exercised.
func forEachKernel(t *testing.T, f func(t *testing.T, k *kernel)) {
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) { f(t, k) })
	}
}

func TestKernelsEveryConstantAndLength(t *testing.T) {
	maxLen := 600
	if testing.Short() {
		maxLen = 200
	}
	forEachKernel(t, func(t *testing.T, k *kernel) {
		rng := rand.New(rand.NewPCG(1, 2))
		for c := range 256 {
			for n := 0; n <= maxLen; n += 1 + c%7 {
				kernelCase(t, k, rng, []byte{byte(c)}, 1, 1, 0, 0, 0, n, c&1 == 1)
			}
		}
	})
}

func TestKernelsOffsets(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *kernel) {
		rng := rand.New(rand.NewPCG(3, 4))
		for inOff := range 64 {
			for outOff := range 64 {
				n := []int{1, 31, 64, 100, 257}[(inOff+outOff)%5]
				coef := []byte{byte(rng.Uint32()), byte(rng.Uint32())}
				kernelCase(t, k, rng, coef, 1, 2, inOff, outOff, (inOff*outOff)%17, n, outOff&1 == 0)
			}
		}
	})
}

func TestKernelsFused(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *kernel) {
		rng := rand.New(rand.NewPCG(5, 6))
		for rows := 1; rows <= 16; rows++ {
			for cols := 1; cols <= 16; cols++ {
				coef := make([]byte, rows*cols)
				for i := range coef {
					coef[i] = byte(rng.Uint32())
				}
				for _, n := range []int{0, 1, 33, 64, 200, 1000} {
					kernelCase(t, k, rng, coef, rows, cols, rows, cols, 0, n, (rows+cols+n)&1 == 1)
				}
			}
		}
	})
}

// TestKernelsLongRows crosses the block boundary of the driver.
func TestKernelsLongRows(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *kernel) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, n := range []int{blockSize - 1, blockSize, blockSize + 65, 3*blockSize + 17} {
			coef := []byte{byte(rng.Uint32()), 1, 0, byte(rng.Uint32()), byte(rng.Uint32()), 0xff}
			kernelCase(t, k, rng, coef, 2, 3, 5, 9, 3, n, false)
		}
	})
}

// TestKernelNames names the kernels of this CPU on standard output, so that
// every CI run shows which code it exercised.
func TestKernelNames(t *testing.T) {
	var names []string
	for _, k := range kernels() {
		names = append(names, k.name)
	}
	fmt.Printf("shamir: active kernel %s (this CPU runs %v)\n", active.name, names)
}

// TestKernelWidths checks that every kernel's width is a power of two, as
// product.short's mask relies on.
func TestKernelWidths(t *testing.T) {
	for _, k := range kernels() {
		if k.width <= 0 || k.width&(k.width-1) != 0 {
			t.Errorf("kernel %s: width %d is not a power of two", k.name, k.width)
		}
	}
}

// TestPublicArithmetic checks the table-driven multiplication and inverse
// (and so the generated tables) against the definition.
func TestPublicArithmetic(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			if got, want := gfMulPublic(byte(a), byte(b)), mulSlow(byte(a), byte(b)); got != want {
				t.Fatalf("gfMulPublic(%#x, %#x) = %#x, want %#x", a, b, got, want)
			}
		}
		if got, want := gfInvPublic(byte(a)), gfInv(byte(a)); got != want {
			t.Fatalf("gfInvPublic(%#x) = %#x, want %#x", a, got, want)
		}
	}
	if logTable[0] != 0 {
		t.Fatalf("logTable[0] = %d, lagrange needs 0", logTable[0])
	}
	seen := make(map[byte]bool)
	for i := range 255 {
		if seen[expTable[i]] || expTable[i] != expTable[i+255] {
			t.Fatalf("expTable is not a cycle of length 255 at %d", i)
		}
		seen[expTable[i]] = true
	}
}

// TestLagrangeAgainstDefinition checks lagrange's matrix, with its running
// reductions, against the product formula computed with gfMul and gfInv,
// for random sets of points of every size up to 40 and the full 255.
func TestLagrangeAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for k := 1; k <= 41; k++ {
		size := k
		if k == 41 {
			size = 255
		}
		perm := rng.Perm(256)
		var pts []byte
		for _, p := range perm {
			pts = append(pts, byte(p))
		}
		if size == 255 {
			// 255 known points leave one target: every point but it.
			known, target := pts[:255], pts[255:]
			checkLagrange(t, known, target)
			continue
		}
		checkLagrange(t, pts[:size], pts[size:size+min(5, 256-size)])
	}
}

func checkLagrange(t *testing.T, known, targets []byte) {
	t.Helper()
	got := lagrange(nil, known, targets)
	for i, x := range targets {
		for j, xj := range known {
			want := byte(1)
			for m, xm := range known {
				if m != j {
					want = gfMul(want, gfMul(x^xm, gfInv(xj^xm)))
				}
			}
			if g := got[i*len(known)+j]; g != want {
				t.Fatalf("lagrange with %d known points: L[%d][%d] = %#x, want %#x", len(known), i, j, g, want)
			}
		}
	}
}
