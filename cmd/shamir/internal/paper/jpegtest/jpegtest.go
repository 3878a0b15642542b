// Package jpegtest makes JPEG files for tests that Go's encoder does not
// write: progressive ones of any number of scans, a few bytes a scan.
package jpegtest

import (
	"encoding/binary"
	"math/bits"
)

// segment appends a marker segment: 0xff, marker, its length, data.
func segment(b []byte, marker byte, data []byte) []byte {
	b = append(b, 0xff, marker)
	b = binary.BigEndian.AppendUint16(b, uint16(2+len(data)))
	return append(b, data...)
}

// A bitWriter packs bits, most significant first, stuffing a zero byte after
// each 0xff as the entropy-coded data of a scan must; it pads the last
// byte with ones.
type bitWriter struct {
	out  []byte
	acc  uint32
	nacc uint
}

func (w *bitWriter) put(v uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | (v>>uint(i))&1
		w.nacc++
		if w.nacc == 8 {
			w.flushByte()
		}
	}
}

func (w *bitWriter) flushByte() {
	c := byte(w.acc)
	w.out = append(w.out, c)
	if c == 0xff {
		w.out = append(w.out, 0)
	}
	w.acc, w.nacc = 0, 0
}

func (w *bitWriter) done() []byte {
	for w.nacc != 0 {
		w.put(1, 1)
	}
	return w.out
}

// Progressive returns a valid progressive JPEG of w×h grey pixels, all
// mid-grey, made of scans scans: a DC scan, one bit a block, then scans-1
// AC scans of the whole band 1–63, each a few runs of end-of-band codes
// that cover every block. Each scan costs a decoder a pass over every
// block; the file grows by some 20 bytes a scan.
func Progressive(w, h, scans int) []byte {
	b := []byte{0xff, 0xd8}
	dqt := []byte{0} // table 0, 8-bit
	for range 64 {
		dqt = append(dqt, 1)
	}
	b = segment(b, 0xdb, dqt)
	sof := []byte{8}
	sof = binary.BigEndian.AppendUint16(sof, uint16(h))
	sof = binary.BigEndian.AppendUint16(sof, uint16(w))
	sof = append(sof, 1, 1, 0x11, 0) // one component: id 1, 1×1, table 0
	b = segment(b, 0xc2, sof)
	// A DC table of one code, "0": the difference 0; an AC table of
	// the 15 end-of-band runs EOB0–EOB14, 4 bits each: EOBr is code r,
	// followed by r bits, for a run of 2^r blocks and up to 2^r-1 more.
	dht := []byte{0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	b = segment(b, 0xc4, dht)
	dht = []byte{0x10, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	for r := range 15 {
		dht = append(dht, byte(r<<4))
	}
	b = segment(b, 0xc4, dht)
	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	// The DC scan: Ss=0, Se=0, Ah=Al=0.
	b = segment(b, 0xda, []byte{1, 1, 0x00, 0, 0, 0})
	var dc bitWriter
	for range blocks {
		dc.put(0, 1)
	}
	b = append(b, dc.done()...)
	for range scans - 1 {
		// An AC scan: Ss=1, Se=63, Ah=Al=0.
		b = segment(b, 0xda, []byte{1, 1, 0x00, 1, 63, 0})
		var ac bitWriter
		for left := blocks; left > 0; {
			run := min(left, 1<<15-1)
			r := bits.Len(uint(run)) - 1
			ac.put(uint32(r), 4)                // EOBr
			ac.put(uint32(run-(1<<r)), uint(r)) // the run's low bits
			left -= run
		}
		b = append(b, ac.done()...)
	}
	return append(b, 0xff, 0xd9)
}
