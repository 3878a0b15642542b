//go:build !purego

package shamir

// archKernels returns the assembly kernels this CPU can run, best first.
func archKernels() []*kernel { return nil }
