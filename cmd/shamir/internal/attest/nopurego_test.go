//go:build !purego

package attest

const puregoBuild = false
