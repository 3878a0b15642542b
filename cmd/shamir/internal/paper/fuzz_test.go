package paper

import (
	"bytes"
	"compress/zlib"
	"errors"
	"strings"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
)

// FuzzParse reads any text as a typed share, whole and a line at a time:
// neither panics, what either accepts is a share whose text reads back as
// it, and when both accept they agree.
func FuzzParse(f *testing.F) {
	for _, share := range [][]byte{{}, {1}, []byte("correct horse"), longShare()} {
		text := Text(share)
		f.Add(text)
		f.Add(Compact(share))
		f.Add(strings.ReplaceAll(strings.ToLower(text), " ", "-"))
		f.Add(strings.Replace(text, "A", "1", 3))
	}
	f.Add("SHAMIR1\nAABB2 XUF76 M7L5S R374E KUEVZ KXPTH\nTH7N7 CZCDQ DZ4CC JAVIY 3CQ7H\n")
	f.Fuzz(func(t *testing.T, s string) {
		whole, err := Parse(s)
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("Parse: %T %v", err, err)
		}
		if err == nil {
			roundTrip(t, whole)
		}
		var e Entry
		lines := strings.Split(s, "\n")
		if !IsText(lines[0]) {
			return // the prompt takes a share only from a line with the tag
		}
		for _, l := range lines {
			if e.Done() {
				break
			}
			if err := e.Line(l); err != nil && !errors.As(err, &pe) {
				t.Fatalf("Line: %T %v", err, err)
			}
		}
		typed, err := e.Share()
		if err != nil {
			return
		}
		roundTrip(t, typed)
		if whole != nil && !bytes.Equal(whole, typed) {
			t.Fatalf("Parse gives %x, Entry %x", whole, typed)
		}
	})
}

// roundTrip checks that share's text, laid out and compact, reads back as
// share.
func roundTrip(t *testing.T, share []byte) {
	t.Helper()
	for _, text := range []string{Text(share), Compact(share)} {
		if got, err := Parse(text); err != nil || !bytes.Equal(got, share) {
			t.Fatalf("%x: its text %q reads as %x, %v", share, text, got, err)
		}
	}
}

// FuzzReadQR reads pictures made of a PNG header's fields and pixel data,
// with every chunk's CRC right and the data compressed, so that the
// mutations get past the checksums to the decoder's allocation and its
// pixels: ReadQR must refuse what breaks the budget before decoding it,
// and never panic.
func FuzzReadQR(f *testing.F) {
	f.Add(uint32(65535), uint32(65535), byte(16), byte(6), byte(0), []byte{0, 1, 2, 3})
	f.Add(uint32(20000), uint32(20000), byte(8), byte(0), byte(0), []byte{0, 0xff})
	f.Add(uint32(33), uint32(33), byte(1), byte(0), byte(0), bytes.Repeat([]byte{0, 0xf0, 0x0f, 0xaa, 0x55, 0x01}, 33))
	f.Add(uint32(21), uint32(21), byte(8), byte(3), byte(1), bytes.Repeat([]byte{1, 0, 1, 1}, 200))
	if c, err := Make([]byte("correct horse"), Info{}); err == nil {
		f.Add(uint32(0), uint32(0), byte(0), byte(0), byte(0), c.PNG) // raw: the file itself
	}
	f.Fuzz(func(t *testing.T, w, h uint32, depth, colour, interlace byte, data []byte) {
		var file []byte
		if w == 0 && h == 0 {
			file = data
		} else {
			file = pngtest.Header(w, h, depth, colour)
			if interlace&1 == 1 {
				file = pngtest.Interlaced(file)
			}
			if colour == 3 { // a palette, so that paletted pictures decode
				file = pngtest.Chunk(file, "PLTE", bytes.Repeat([]byte{0, 0x80, 0xff}, 3))
			}
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			file = pngtest.Chunk(file, "IDAT", z.Bytes())
			file = pngtest.Chunk(file, "IEND", nil)
		}
		if w|h != 0 && uint64(w)*uint64(h) > maxPicturePixels && checkPicture(file) == nil {
			t.Fatalf("%d×%d passed the budget", w, h)
		}
		ReadQR(file)
	})
}
