//go:build !amd64 || purego

package shamir

// There is no AES-CTR assembly in this build: newAESCTR always takes the
// standard library's crypto/aes and crypto/cipher.NewCTR. aesCTR is an empty
// stand-in that keystream embeds.

// useAESCTRAsm is false: there is no assembly to use.
var useAESCTRAsm = false

// aesCTRAsm names the implementation in tests and benchmarks.
const aesCTRAsm = "none"

type aesCTR struct{}

func (*aesCTR) init(*[32]byte, *[16]byte) { panic("shamir: no AES-CTR assembly in this build") }

// read is reached only by a keystream that was wiped.
func (*aesCTR) read([]byte) { panic("shamir: keystream read after wipe") }

func (*aesCTR) wipe() {}
