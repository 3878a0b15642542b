//go:build !purego

package shamir

const purego = false
