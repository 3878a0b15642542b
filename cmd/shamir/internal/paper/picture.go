package paper

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
)

// MaxImageBytes bounds the files read for QR codes: a photo of a page,
// not a film.
const MaxImageBytes = 64 << 20

// The budget of a picture. Its header is read first, and a picture over the
// budget is refused before any pixel is decoded: a file of a few bytes can
// declare a picture of billions of pixels, whose decoding would take all the
// memory there is.
//
// maxPicturePixels is twice what a 50-megapixel phone camera takes. The
// decoded picture is estimated from its colour model (8 bytes a pixel for a
// 16-bit RGBA PNG, 1 for a grey one), and must fit in maxPictureMemory; a
// JPEG is counted at 4 bytes a pixel, for its colour planes and the
// coefficients a progressive one keeps while it is decoded.
//
// The search for the code then works on a grey copy no more than
// qrWorkSide pixels a side (see ReadQR), so that its cost does not grow with
// the camera's resolution: a picture within the budget takes at most about
// 600 MB and, on one core of a laptop, a few seconds to decode and ten or so
// to search when it holds no code.
const (
	maxPicturePixels = 100_000_000
	maxPictureMemory = 512 << 20
	qrWorkSide       = 2000
)

// checkPicture reads the header of the picture in data and checks it
// against the budget.
func checkPicture(data []byte) error {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not a picture that can be read: %v", err)
	}
	w, h := int64(cfg.Width), int64(cfg.Height)
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%d×%d pixels, which hold nothing", w, h)
	}
	if w*h > maxPicturePixels {
		return fmt.Errorf("%d×%d pixels, over the limit of %d megapixels", w, h, maxPicturePixels/1_000_000)
	}
	if mem := w * h * int64(bytesPerPixel(cfg.ColorModel, format)); mem > maxPictureMemory {
		return fmt.Errorf("%d×%d pixels that would take %d MiB decoded, over the limit of %d MiB", w, h, mem>>20, maxPictureMemory>>20)
	}
	return nil
}

// bytesPerPixel estimates the memory a decoded picture takes a pixel.
func bytesPerPixel(m color.Model, format string) int {
	if format == "jpeg" {
		return 4
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// grayDown returns img in grey, on white where it is transparent, shrunk
// by the smallest whole factor that makes its longer side at most side
// pixels: each pixel of the result is the mean of a square of img's.
func grayDown(img image.Image, side int) *image.Gray {
	b := img.Bounds()
	f := (max(b.Dx(), b.Dy()) + side - 1) / side
	f = max(f, 1)
	out := image.NewGray(image.Rect(0, 0, b.Dx()/f, b.Dy()/f))
	lum := luminance(img)
	w := out.Rect.Dx()
	sums := make([]int, w)
	for y := range out.Rect.Dy() {
		clear(sums)
		for dy := range f {
			py := b.Min.Y + y*f + dy
			for x := range w * f {
				sums[x/f] += int(lum(b.Min.X+x, py))
			}
		}
		row := out.Pix[y*out.Stride:]
		for x, s := range sums {
			row[x] = uint8(s / (f * f))
		}
	}
	return out
}

// luminance returns a function giving the grey of img's pixel at x, y,
// composed on white, with fast paths for the pictures decoders return.
func luminance(img image.Image) func(x, y int) uint8 {
	switch m := img.(type) {
	case *image.Gray:
		return func(x, y int) uint8 { return m.Pix[m.PixOffset(x, y)] }
	case *image.YCbCr:
		return func(x, y int) uint8 { return m.Y[m.YOffset(x, y)] }
	}
	return func(x, y int) uint8 {
		r, g, b, a := img.At(x, y).RGBA()
		lum := (r + 2*g + b) / 4
		return uint8((lum + 0xffff - a) >> 8)
	}
}
