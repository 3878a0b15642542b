package shamir

import (
	"crypto/aes"
	"crypto/cipher"
)

// SSMS AEAD 1, AES-256-GCM with the chunks' counter nonces, runs on the
// package's assembly where the CPU has what it needs (useGCMAsm:
// gcm_amd64.go) and on crypto/cipher everywhere else. In FIPS 140-3 mode
// (fipsMode) it always runs on crypto/cipher, the approved module, as
// fips.go requires of every primitive.

// newAESGCM returns AES-256-GCM under key, with 12-byte nonces and 16-byte
// tags: crypto/cipher.NewGCM(aes.NewCipher(key)), or the same AEAD in
// assembly where there is one (and outside FIPS 140-3 mode).
func newAESGCM(key []byte) (cipher.AEAD, error) {
	if useGCMAsm && !fipsMode && len(key) == 32 {
		return newGCMAsm((*[32]byte)(key)), nil
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// wipeAEAD erases the expanded key of an AEAD that newAEAD made, where the
// package owns that memory (the assembly's round keys and powers of H);
// crypto/cipher's AEADs offer no way to do it (docs/SECURITY.md). The AEAD
// must not be used afterwards.
func wipeAEAD(a cipher.AEAD) {
	if w, ok := a.(interface{ wipe() }); ok {
		w.wipe()
	}
}
