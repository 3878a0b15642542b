//go:build !purego

package shamir

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"

	"golang.org/x/sys/cpu"
)

// aesCTRAsmExpected tells whether newAESCTR should take the assembly here,
// from the CPU's features, and why.
func aesCTRAsmExpected() (bool, string) {
	if !cpu.X86.HasAVX2 {
		return false, "this CPU or OS has no AVX2"
	}
	if !cpu.X86.HasAES {
		return false, "this CPU has no AES-NI"
	}
	if maxID, _, _, _ := cpuid(0, 0); maxID < 7 {
		return false, "this CPU has no CPUID leaf 7"
	}
	if _, _, ecx, _ := cpuid(7, 0); ecx&(1<<9) == 0 {
		return false, "this CPU has no VAES"
	}
	if !vaesLanesWork() {
		return false, "this CPU reports VAES, but its 256-bit VAESENC does not work lane by lane (an emulator?)"
	}
	return true, "this CPU has AVX2, AES-NI and VAES"
}

// TestExpandKeyAES256 checks the assembly key schedule against FIPS 197,
// appendix A.3, whose key is that of TestKeystreamNIST. It needs AES-NI
// only, so it also runs where the CTR loop does not.
func TestExpandKeyAES256(t *testing.T) {
	if !cpu.X86.HasAES {
		t.Log("no AES-NI: the key schedule is not run")
		return
	}
	var key [32]byte
	copy(key[:], unhex(t, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
	var rk [15 * 16]byte
	expandKeyAES256(&key, &rk)
	// Words w[8…11] and w[56…59] of the appendix: round keys 2 and 14.
	if want := unhex(t, "9ba354118e6925afa51a8b5f2067fcde"); !bytes.Equal(rk[32:48], want) {
		t.Errorf("round key 2 = %x, want %x", rk[32:48], want)
	}
	if want := unhex(t, "fe4890d1e6188d0b046df344706c631e"); !bytes.Equal(rk[224:240], want) {
		t.Errorf("round key 14 = %x, want %x", rk[224:240], want)
	}
	if !bytes.Equal(rk[:32], key[:]) {
		t.Errorf("round keys 0 and 1 = %s, want the key", hex.EncodeToString(rk[:32]))
	}
}

// TestAESCTRBothWidths runs the stream tests with the 512-bit loop and
// without it, where the CPU has both: each must give crypto/cipher's stream.
func TestAESCTRBothWidths(t *testing.T) {
	if !useAESCTRAsm || !hasVAES512 {
		t.Skip("no 512-bit VAES on this CPU")
	}
	saved := useVAES512
	defer func() { useVAES512 = saved }()
	for _, wide := range []bool{false, true} {
		useVAES512 = wide
		t.Run(fmt.Sprintf("vaes512=%v", wide), func(t *testing.T) {
			t.Run("Lengths", TestAESCTRLengths)
			t.Run("Long", TestAESCTRLong)
			t.Run("NIST", TestKeystreamNIST)
		})
	}
}
