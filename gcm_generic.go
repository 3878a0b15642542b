//go:build !amd64 || purego

package shamir

import "crypto/cipher"

// There is no AES-GCM assembly in this build: newAESGCM always takes the
// standard library's.

// useGCMAsm is false: there is no assembly to use.
var useGCMAsm = false

// newGCMAsm is never called in this build (useGCMAsm is false).
func newGCMAsm(*[32]byte) cipher.AEAD { panic("shamir: no AES-GCM assembly in this build") }
