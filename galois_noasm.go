//go:build purego || !(amd64 || arm64)

package shamir

// archKernels returns no assembly kernels: this build uses the portable one.
func archKernels() []*kernel { return nil }

// archExpandAll and archMulRows would serve the assembly kernels; there are
// none.
func archExpandAll(k *kernel, tab []byte, coef []byte) {
	panic("shamir: unknown kernel " + k.name)
}

func archMulRows(k *kernel, tab []byte, ins, outs [][]byte, off, n int, xor bool) {
	panic("shamir: unknown kernel " + k.name)
}
