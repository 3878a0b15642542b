package paper

import (
	"bytes"
	"compress/zlib"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/paper/jpegtest"
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
// never panic, and stay within its work budget (checkWork).
func FuzzReadQR(f *testing.F) {
	f.Add(uint32(65535), uint32(65535), byte(16), byte(6), byte(0), []byte{0, 1, 2, 3})
	f.Add(uint32(20000), uint32(20000), byte(8), byte(0), byte(0), []byte{0, 0xff})
	f.Add(uint32(33), uint32(33), byte(1), byte(0), byte(0), bytes.Repeat([]byte{0, 0xf0, 0x0f, 0xaa, 0x55, 0x01}, 33))
	f.Add(uint32(21), uint32(21), byte(8), byte(3), byte(1), bytes.Repeat([]byte{1, 0, 1, 1}, 200))
	if c, err := Make([]byte("correct horse"), Info{}); err == nil {
		f.Add(uint32(0), uint32(0), byte(0), byte(0), byte(0), c.PNG) // raw: the file itself
	}
	// Raw too: a grid of finder patterns, candidates in every pass.
	f.Add(uint32(0), uint32(0), byte(0), byte(0), byte(0), pngtest.FinderGrid(300, 1))
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
		var s qrSearch
		s.read(file)
		checkWork(t, &s, file)
	})
}

// checkWork asserts the work budget of a search: what the decoder was
// given and what the search did are counted, not timed, so that the
// budget holds on every machine. The passes stop once the budget is
// spent, so the work may pass it by one pass at most.
func checkWork(t *testing.T, s *qrSearch, data []byte) {
	t.Helper()
	if s.pixels > maxPicturePixels {
		t.Fatalf("decoded %d pixels, over the budget", s.pixels)
	}
	if IsImage(data) && bytes.HasPrefix(data, []byte("\xff\xd8")) && s.pixels > 0 {
		if n := jpegScans(data); n > maxJPEGScans {
			t.Fatalf("decoded a JPEG of %d scans", n)
		}
		if s.pixels > maxJPEGPixelsPerByte*int64(len(data)) {
			t.Fatalf("decoded %d pixels from %d bytes of JPEG", s.pixels, len(data))
		}
	}
	onePass := int64(4*qrWorkSide*qrWorkSide) + int64(maxQRCandidates+1)*int64(maxQRCandidates+1)*int64(maxQRCandidates+1)/6 + qrCappedWork
	if s.work > s.budget+onePass || s.budget > qrWorkPerByte*int64(len(data)) {
		t.Fatalf("work %d, budget %d, for %d bytes", s.work, s.budget, len(data))
	}
	if s.mostCandidates > maxQRCandidates+1 {
		t.Fatalf("a pass found %d candidates", s.mostCandidates)
	}
}

// FuzzReadJPEG reads JPEGs: the seeds are baseline ones as Go writes them,
// grey and colour, with and without a code, and progressive ones of many
// scans, so that mutations reach the scan counter, the density check and
// the decoder. ReadQR must never panic, and stay within its work budget.
func FuzzReadJPEG(f *testing.F) {
	f.Add(jpegtest.Progressive(64, 48, 12))
	f.Add(jpegtest.Progressive(40, 40, maxJPEGScans+1))
	var b bytes.Buffer
	jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil)
	f.Add(b.Bytes())
	if c, err := Make([]byte("correct horse"), Info{}); err == nil {
		img, _ := png.Decode(bytes.NewReader(c.PNG))
		var j bytes.Buffer
		jpeg.Encode(&j, img, &jpeg.Options{Quality: 90})
		f.Add(j.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s qrSearch
		s.read(data)
		checkWork(t, &s, data)
	})
}
