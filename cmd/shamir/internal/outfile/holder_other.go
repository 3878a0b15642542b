//go:build !linux

package outfile

// writeLockInfo is true where the kernel does not list who holds a lock:
// a writer says it in the file lockInfo.
const writeLockInfo = true

// kernelHolder returns "": only Linux lists who holds a lock.
func kernelHolder(string) string { return "" }
