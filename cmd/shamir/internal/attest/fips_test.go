package attest

import (
	"crypto/fips140"
	"crypto/hkdf"
	"crypto/sha256"
	"os"
	"os/exec"
	"testing"
)

// TestFIPSOnly runs this package's tests again under GODEBUG=fips140=only,
// in which Go refuses whatever FIPS 140-3 does not approve (Ed25519ctx,
// HMAC keys under 112 bits, …): the key derivation, the challenges and the
// answers use only what it approves.
func TestFIPSOnly(t *testing.T) {
	if os.Getenv("ATTEST_FIPS_CHILD") != "" {
		if !fips140.Enabled() {
			t.Fatal("FIPS 140-3 mode is not on")
		}
		// And enforced: a key of 64 bits is refused.
		if _, err := hkdf.Key(sha256.New, make([]byte, 8), nil, "", 32); err == nil {
			t.Fatal("GODEBUG=fips140=only is not enforced")
		}
		return
	}
	if puregoBuild {
		t.Skip("FIPS 140-3 mode is incompatible with -tags purego")
	}
	if testing.Short() {
		t.Skip("runs the tests again")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^(TestFIPSOnly|TestRoundTrip|TestRefusals|TestDeriveIsHKDF|TestStray)$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GODEBUG=fips140=only", "ATTEST_FIPS_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("under GODEBUG=fips140=only: %v\n%s", err, out)
	}
}
