//go:build purego

package shamir

// purego builds have the standard library's AES in Go, which uses lookup
// tables: SSMS then writes ChaCha20-Poly1305 shares whatever the CPU.
const purego = true
