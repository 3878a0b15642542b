//go:build purego

package attest

// puregoBuild reports that the test binary was built with -tags purego,
// in which Go refuses FIPS 140-3 mode.
const puregoBuild = true
