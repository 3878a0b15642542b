package shamir

import (
	"crypto/fips140"
	"testing"
)

// skipIfEnforced skips t under GODEBUG=fips140=only, where what it tests
// cannot run through approved constructions; why says what it needs.
func skipIfEnforced(t testing.TB, why string) {
	t.Helper()
	if fips140.Enforced() {
		t.Skip("GODEBUG=fips140=only: " + why)
	}
}

// skipIfFIPS skips t in FIPS 140-3 mode (GODEBUG=fips140=on or only), where
// the package's own generator is not used; why says what t needs.
func skipIfFIPS(t testing.TB, why string) {
	t.Helper()
	if fipsMode {
		t.Skip("FIPS 140-3 mode: " + why)
	}
}

// testAEADs returns the AEADs the tests seal with: all of them, or AEAD 3
// alone under GODEBUG=fips140=only.
func testAEADs() []byte {
	if fips140.Enforced() {
		return []byte{aesGCMRandom}
	}
	return []byte{aesGCM, chaCha20Poly1305, aesGCMRandom}
}
