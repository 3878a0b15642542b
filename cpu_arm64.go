//go:build !purego

package shamir

import "golang.org/x/sys/cpu"

// hasASIMD reports Advanced SIMD, which the NEON kernel needs. It is part of
// the arm64 base architecture, so this only fails on an odd emulator or
// kernel; then the portable kernel is used.
var hasASIMD = cpu.ARM64.HasASIMD
