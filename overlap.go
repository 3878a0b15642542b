package shamir

import "unsafe"

// overlaps reports whether x and y share any memory. Only the addresses are
// compared; nothing is read.
func overlaps(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	xp := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	yp := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return xp < yp+uintptr(len(y)) && yp < xp+uintptr(len(x))
}
