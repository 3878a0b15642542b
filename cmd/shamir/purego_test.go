//go:build purego

package main

// puregoBuild reports that the test binary, which is also the shamir it
// runs, was built with -tags purego.
const puregoBuild = true
