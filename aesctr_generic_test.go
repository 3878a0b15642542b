//go:build !amd64 || purego

package shamir

// aesCTRAsmExpected tells whether newAESCTR should take the assembly here:
// never, in this build.
func aesCTRAsmExpected() (bool, string) {
	if purego {
		return false, "purego build"
	}
	return false, "no AES-CTR assembly for this architecture"
}
