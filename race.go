//go:build race

package shamir

import (
	"runtime"
	"unsafe"
)

// raceRows tells the race detector about the memory an assembly kernel is
// about to touch, which it cannot see for itself.
func raceRows(ins, outs [][]byte, off, n int) {
	for _, in := range ins {
		runtime.RaceReadRange(unsafeAddr(in[off:off+n]), n)
	}
	for _, out := range outs {
		runtime.RaceReadRange(unsafeAddr(out[off:off+n]), n)
		runtime.RaceWriteRange(unsafeAddr(out[off:off+n]), n)
	}
}

func unsafeAddr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
