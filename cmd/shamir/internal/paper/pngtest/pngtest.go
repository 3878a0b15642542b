// Package pngtest makes PNG files for tests: valid ones of any size, a row
// at a time, and ones whose header declares far more than they hold. Every
// chunk carries its right CRC, so a decoder reads past it to its
// allocations.
package pngtest

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// Chunk appends to b a PNG chunk of type typ holding data, with its
// length and its CRC.
func Chunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	start := len(b)
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// Header returns a PNG's signature and IHDR chunk for a picture of
// w×h pixels of the bit depth and colour type given, not interlaced.
func Header(w, h uint32, depth, colour byte) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colour, 0, 0, 0)
	return Chunk([]byte("\x89PNG\r\n\x1a\n"), "IHDR", ihdr)
}

// Bomb returns a PNG of about 77 bytes whose header declares 65535×65535 pixels
// of 16-bit RGBA (32 GiB decoded), with a few bytes of compressed data.
func Bomb() []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	zw.Close()
	b := Header(65535, 65535, 16, 6)
	b = Chunk(b, "IDAT", z.Bytes())
	return Chunk(b, "IEND", nil)
}

// WriteGrey writes a valid, white, 8-bit grey PNG of w×h pixels to out,
// a row at a time, so that making it takes no memory to speak of.
func WriteGrey(out io.Writer, w, h int) error {
	bw := bufio.NewWriter(out)
	bw.Write(Header(uint32(w), uint32(h), 8, 0))
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	row := bytes.Repeat([]byte{0xff}, w+1)
	row[0] = 0 // no filter
	for range h {
		zw.Write(row)
		if z.Len() > 1<<16 {
			bw.Write(Chunk(nil, "IDAT", z.Bytes()))
			z.Reset()
		}
	}
	zw.Close()
	bw.Write(Chunk(nil, "IDAT", z.Bytes()))
	bw.Write(Chunk(nil, "IEND", nil))
	return bw.Flush()
}

// Interlaced returns the PNG file with its header's interlace flag set,
// and the header's CRC made right again.
func Interlaced(file []byte) []byte {
	ihdr := append([]byte(nil), file[16:28]...)
	out := Chunk(append([]byte(nil), file[:8]...), "IHDR", append(ihdr, 1))
	return append(out, file[33:]...)
}

// FinderGrid returns a black-and-white PNG of side×side pixels tiled with
// QR finder patterns (a dark ring, a light ring, a dark 3×3 centre, and a
// light module between patterns) of module pixels a module: to a QR
// detector, a picture of nothing but candidate corners of codes. It is
// made a row at a time, 1 bit a pixel, so that making it takes no memory
// to speak of (a test that measures the memory of the commands it runs
// would count the test's own).
func FinderGrid(side, module int) []byte {
	period := 8 * module
	return bilevel(side, func(x, y int) bool {
		mx, my := (x%period)/module, (y%period)/module
		if mx == 7 || my == 7 {
			return false // the light gap between patterns
		}
		ring := max(abs(mx-3), abs(my-3)) // 3: outer ring, 2: light, 0–1: centre
		return ring != 2
	})
}

// FinderStripes returns a black-and-white PNG of side×side pixels of
// vertical stripes whose every row reads, across, as finder patterns
// (dark, light, dark ×3, light, dark, and a light gap), module pixels a
// module: each row is all candidates, none of which checks out down its
// column.
func FinderStripes(side, module int) []byte {
	row := []bool{true, false, true, true, true, false, true, false}
	return bilevel(side, func(x, y int) bool { return row[(x/module)%len(row)] })
}

// bilevel returns a PNG of side×side pixels, 1 bit each, black where dark
// says, made a row at a time.
func bilevel(side int, dark func(x, y int) bool) []byte {
	b := Header(uint32(side), uint32(side), 1, 0) // 1-bit grey: 0 is black
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, 1+(side+7)/8)
	for y := range side {
		clear(row)
		for x := range side {
			if !dark(x, y) {
				row[1+x/8] |= 0x80 >> (x % 8)
			}
		}
		zw.Write(row)
	}
	zw.Close()
	b = Chunk(b, "IDAT", z.Bytes())
	return Chunk(b, "IEND", nil)
}

func abs(x int) int { return max(x, -x) }
