//go:build !purego

package shamir

import "golang.org/x/sys/cpu"

// The x86 features the assembly needs (galois_amd64.s, aesctr_amd64.s).

var (
	// hasGFNI512 reports what the gfni512 kernel needs: AVX-512 (F, BW),
	// its GFNI encoding, and BMI2 for the masks of its tail.
	hasGFNI512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512GFNI && cpu.X86.HasBMI2

	// hasGFNI reports the GFNI instructions in their legacy and VEX
	// encodings, which golang.org/x/sys/cpu does not report on its own (its
	// HasAVX512GFNI is the same CPUID bit, but only set when AVX-512 is
	// usable). VEX encodings of 256-bit GFNI need AVX, and the kernel needs
	// AVX2 besides.
	hasGFNI = cpu.X86.HasAVX2 && cpuidLeaf7ECX(8)

	// hasAVX2 includes the operating system's support of the YMM state.
	hasAVX2 = cpu.X86.HasAVX2

	// hasVAES reports VAES (CPUID leaf 7, ECX bit 9) with AES-NI and AVX2,
	// which the AES-CTR loop needs for its VEX-encoded 256-bit AES rounds,
	// broadcasts and shuffles. golang.org/x/sys/cpu reports VAES only when
	// AVX-512 is usable.
	hasVAES = cpu.X86.HasAVX2 && cpu.X86.HasAES && cpuidLeaf7ECX(9)

	// hasVAES512 reports the EVEX-encoded 512-bit VAES and the AVX-512
	// instructions the 512-bit AES-CTR loop needs besides (F, BW).
	hasVAES512 = hasVAES && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VAES
)

// cpuidLeaf7ECX reports the given bit of ECX in CPUID leaf 7, subleaf 0,
// where the VEX-encoded GFNI (bit 8) and VAES (bit 9) are, which
// golang.org/x/sys/cpu only reports for AVX-512.
func cpuidLeaf7ECX(bit uint) bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(7, 0)
	return ecx>>bit&1 != 0
}

// cpuid executes the CPUID instruction with the given EAX and ECX inputs
// (galois_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
