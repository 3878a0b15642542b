package paper

// The budget of picture.go: pictures that break it, made at test time (a
// few bytes that declare a huge picture, a valid picture too large to
// decode), and large photos read in bounded time.

import (
	"bytes"
	"image"
	"image/jpeg"
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
)

// TestPictureBudget reads the two pictures: each is refused, from its
// header, with no pixel decoded and no pass searched (counted, not timed).
func TestPictureBudget(t *testing.T) {
	bomb := pngtest.Bomb()
	// 77 bytes with Go 1.26's compress/flate, 78 with Go 1.27's.
	if len(bomb) > 100 {
		t.Errorf("the bomb is %d bytes, want under 100", len(bomb))
	}
	var big bytes.Buffer
	if err := pngtest.WriteGrey(&big, 20000, 20000); err != nil {
		t.Fatal(err)
	}
	t.Logf("20000×20000 grey PNG: %d bytes", big.Len())
	for name, data := range map[string][]byte{"bomb": bomb, "grey": big.Bytes()} {
		var s qrSearch
		_, err := s.read(data)
		if err == nil || !strings.Contains(err.Error(), "over the limit") {
			t.Errorf("%s: ReadQR returned %v, want a refusal", name, err)
		}
		if s.pixels != 0 || s.passes != 0 || s.work != 0 {
			t.Errorf("%s: refused after %d pixels decoded, %d passes, %d work", name, s.pixels, s.passes, s.work)
		}
	}
}

// jpegHeader returns the start of a JPEG of w×h pixels, up to its frame
// header and the marker after it: progressive or not, with a component for each sampling factor
// (horizontal<<4 | vertical) given.
func jpegHeader(w, h uint16, progressive bool, sampling ...byte) []byte {
	sof := byte(0xc0)
	if progressive {
		sof = 0xc2
	}
	b := []byte{0xff, 0xd8, 0xff, sof, 0, byte(8 + 3*len(sampling)), 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(sampling))}
	for i, s := range sampling {
		b = append(b, byte(i+1), s, 0)
	}
	return append(b, 0xff, 0xda, 0, 2) // the start of the scan, where the header ends
}

// TestPictureBudgetHeader checks the limits on headers alone: a
// 50-megapixel photo passes in every form a camera or an editor saves it
// (but a progressive JPEG without chroma subsampling, which takes 15 bytes
// a pixel to decode), and pictures over the pixel or the memory limit do
// not.
func TestPictureBudgetHeader(t *testing.T) {
	png := func(w, h uint32, depth, colour byte) []byte {
		return pngtest.Chunk(pngtest.Header(w, h, depth, colour), "IEND", nil)
	}
	for _, c := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"50 MP RGB PNG", png(8165, 6124, 8, 2), true},
		{"50 MP 16-bit RGBA PNG (400 MB)", png(8165, 6124, 16, 6), true},
		{"50 MP 16-bit RGBA PNG, interlaced (800 MB)", pngtest.Interlaced(png(8165, 6124, 16, 6)), false},
		{"50 MP grey PNG, interlaced", pngtest.Interlaced(png(8165, 6124, 8, 0)), true},
		{"100 MP grey PNG", png(10000, 10000, 8, 0), true},
		{"100 MP and one row", png(10000, 10001, 8, 0), false},
		{"100 MP 16-bit RGBA PNG (800 MB)", png(10000, 10000, 16, 6), false},
		{"65535² 16-bit RGBA PNG", png(65535, 65535, 16, 6), false},
		{"2³¹-1 × 1 PNG", png(1<<31-1, 1, 8, 0), false},
		{"50 MP JPEG, 4:2:0", jpegHeader(8165, 6124, false, 0x22, 0x11, 0x11), true},
		{"50 MP progressive JPEG, 4:2:0 (375 MB)", jpegHeader(8165, 6124, true, 0x22, 0x11, 0x11), true},
		{"50 MP progressive JPEG, 4:4:4 (750 MB)", jpegHeader(8165, 6124, true, 0x11, 0x11, 0x11), false},
		{"100 MP JPEG, 4:4:4", jpegHeader(10000, 10000, false, 0x11, 0x11, 0x11), true},
		{"65535² JPEG", jpegHeader(65535, 65535, false, 0x11), false},
	} {
		err := checkPicture(c.data)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// The frames of JPEGs as Go's encoder writes them: grey, and colour
	// at 4:2:0, baseline.
	planes, progressive, ok := jpegFrame(photo(t, 64, 48, "", 0))
	if planes != 64 || progressive || !ok {
		t.Errorf("a grey JPEG: planes %d/64 bytes a pixel, progressive %v, %v", planes, progressive, ok)
	}
	var b bytes.Buffer
	jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil)
	planes, progressive, ok = jpegFrame(b.Bytes())
	if planes != 96 || progressive || !ok {
		t.Errorf("a colour JPEG: planes %d/64 bytes a pixel, progressive %v, %v", planes, progressive, ok)
	}
}

// photo returns a w×h grey JPEG, speckled light grey paper, with the
// code of text drawn on it at scale pixels a module, or no code if text is
// empty.
func photo(t *testing.T, w, h int, text string, scale int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	rng := mrand.New(mrand.NewPCG(3, 4))
	for i := range img.Pix {
		img.Pix[i] = uint8(200 + rng.IntN(40))
	}
	if text != "" {
		mods, err := qrModules(text)
		if err != nil {
			t.Fatal(err)
		}
		x0, y0 := w/3, h/4
		for y, row := range mods {
			for x, dark := range row {
				if !dark {
					continue
				}
				for dy := range scale {
					for dx := range scale {
						img.Pix[(y0+y*scale+dy)*img.Stride+x0+x*scale+dx] = uint8(20 + rng.IntN(40))
					}
				}
			}
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPictureLargePhoto reads a 12-megapixel photo of a code, and gives
// up on one without a code, each in bounded time.
func TestPictureLargePhoto(t *testing.T) {
	if testing.Short() {
		t.Skip("large pictures")
	}
	text := "SHAMIR1" + strings.Repeat("ABCDE", 60)
	for _, c := range []struct {
		text  string
		scale int
	}{{text, 20}, {"", 0}} {
		data := photo(t, 4000, 3000, c.text, c.scale)
		start := time.Now()
		got, err := ReadQR(data)
		d := time.Since(start)
		t.Logf("code %v: %v", c.text != "", d)
		if c.text != "" && (err != nil || got != c.text) {
			t.Errorf("read %q, %v", got, err)
		}
		if c.text == "" && err != ErrNoQR {
			t.Errorf("no code: %v", err)
		}
		if d > 60*time.Second {
			t.Errorf("took %v", d)
		}
	}
}
