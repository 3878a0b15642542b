//go:build purego || !(amd64 || arm64)

package shamir

// archKernels returns no assembly kernels: this build uses the portable one.
func archKernels() []*kernel { return nil }
