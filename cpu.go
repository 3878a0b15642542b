package shamir

import "golang.org/x/sys/cpu"

// CPU features are read here and in cpu_amd64.go and cpu_arm64.go, once,
// at start-up; the rest of the package asks these variables.

// hasAESHardware tells whether AES-GCM runs in hardware (AES rounds and
// carry-less multiplication) here; otherwise ChaCha20-Poly1305 is faster and
// free of the timing leaks of table-based AES. purego builds (ssms_purego.go)
// never count it: their AES is the standard library's, in Go.
var hasAESHardware = !purego && (cpu.X86.HasAES && cpu.X86.HasPCLMULQDQ ||
	cpu.ARM64.HasAES && cpu.ARM64.HasPMULL ||
	cpu.S390X.HasAES && cpu.S390X.HasAESGCM ||
	cpu.PPC64.IsPOWER8)
