package shamir

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"unsafe"
)

// SSMS AEAD 1, AES-256-GCM with the chunks' counter nonces, runs on the
// package's assembly where the CPU has what it needs (useGCMAsm:
// gcm_amd64.go) and on crypto/cipher everywhere else. In FIPS 140-3 mode
// (fipsMode) it always runs on crypto/cipher, the approved module, as
// fips.go requires of every primitive.

const (
	gcmNonceSize = 12
	gcmTagSize   = 16

	// gcmMaxPlaintext is the longest plaintext GCM seals with a 12-byte
	// nonce: 2^32−2 blocks, so that the 32-bit counter never returns to
	// the one that masks the tag.
	gcmMaxPlaintext = (1<<32 - 2) * 16
)

// errGCMOpen is the error of a failed Open: crypto/cipher's, word for word.
var errGCMOpen = errors.New("cipher: message authentication failed")

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

// wipeAEAD erases the key material of an AEAD that newAESGCM returned in
// assembly, which must not be used after; it does nothing to the others,
// whose expanded keys live in memory the package cannot clear.
func wipeAEAD(a cipher.AEAD) {
	if w, ok := a.(interface{ wipe() }); ok {
		w.wipe()
	}
}

// sliceForAppend extends in by n bytes, in place if it has the capacity,
// and returns the result and its last n bytes, as crypto/cipher does.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}

// inexactOverlap reports whether x and y share memory other than at the
// same start, which in-place encryption allows.
func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || unsafe.SliceData(x) == unsafe.SliceData(y) {
		return false
	}
	return overlaps(x, y)
}
