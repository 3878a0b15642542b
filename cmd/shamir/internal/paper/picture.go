package paper

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
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
// memory decoding takes is estimated from the header (decodedBytes: 8 bytes
// a pixel for a 16-bit RGBA PNG, 1 for a grey one, 1.5 for a phone's JPEG),
// and must fit in maxPictureMemory.
//
// The search for the code then works on a grey copy no more than
// qrWorkSide pixels a side (see ReadQR), so that its cost does not grow with
// the camera's resolution, within the work budget of qr.go. A picture within
// the budget takes at most about 750 MB (measured: a 100-megapixel
// progressive grey JPEG, estimated at 500 MB, peaks at 721 MiB resident)
// and, on one core, a few seconds to decode and to search when it holds no
// code.
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
	if mem := decodedBytes(data, cfg, format); mem > maxPictureMemory {
		return fmt.Errorf("%d×%d pixels that would take %d MiB decoded, over the limit of %d MiB", w, h, mem>>20, maxPictureMemory>>20)
	}
	return nil
}

// decodedBytes estimates the memory that decoding the picture data of w×h
// pixels takes, from its header: its colour model's bytes a pixel, twice
// that for an interlaced PNG (the decoder holds each pass as well as the
// whole), and for a JPEG its planes at their sampling, with the
// coefficients a progressive one keeps (4 bytes a pixel of each plane).
func decodedBytes(data []byte, cfg image.Config, format string) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	if format == "jpeg" {
		planes, progressive, ok := jpegFrame(data)
		if !ok {
			return px * 16 // the most any JPEG takes
		}
		per := planes // in 64ths of a byte a pixel
		if progressive {
			per += 4 * planes
		}
		if cfg.ColorModel == color.CMYKModel {
			per += 4 * 64 // converted to CMYK
		}
		return px * per / 64
	}
	n := px * bytesPerPixel(cfg.ColorModel)
	if format == "png" && len(data) > 28 && data[28] == 1 {
		n *= 2
	}
	return n
}

// bytesPerPixel returns the bytes a pixel of the colour model takes.
func bytesPerPixel(m color.Model) int64 {
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

// jpegFrame reads the frame header of the JPEG data: the size of its
// planes together, in 64ths of a byte a pixel (each plane's share of the
// pixels at its sampling), and whether it is progressive.
func jpegFrame(data []byte) (planes int64, progressive, ok bool) {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return 0, false, false
		}
		marker := data[i+1]
		if marker == 0xff { // fill
			i++
			continue
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		isSOF := marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc
		if !isSOF {
			i += 2 + n
			continue
		}
		seg := data[i+4 : min(len(data), i+2+n)]
		if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
			return 0, false, false
		}
		comps := seg[6 : 6+3*int(seg[5])]
		var hmax, vmax int64 = 1, 1
		for c := 0; c < len(comps); c += 3 {
			hmax, vmax = max(hmax, int64(comps[c+1]>>4)), max(vmax, int64(comps[c+1]&15))
		}
		for c := 0; c < len(comps); c += 3 {
			planes += 64 * int64(comps[c+1]>>4) * int64(comps[c+1]&15) / (hmax * vmax)
		}
		progressive = marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce
		return planes, progressive, true
	}
	return 0, false, false
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
	onWhite := func(r, g, b, a uint32) uint8 {
		lum := (r + 2*g + b) / 4 // premultiplied: at most a
		return uint8((lum + 0xffff - a) >> 8)
	}
	if m, ok := img.(image.RGBA64Image); ok {
		// Every picture the decoders return is one: RGBA64At returns a
		// colour without boxing it in an interface, which At does for
		// each pixel, an allocation apiece.
		return func(x, y int) uint8 {
			c := m.RGBA64At(x, y)
			return onWhite(uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A))
		}
	}
	return func(x, y int) uint8 { return onWhite(img.At(x, y).RGBA()) }
}

// The cost of decoding a JPEG grows with its scans as well as its pixels:
// each scan of a progressive JPEG is a pass over every block of the
// picture, and a file may hold any number of them, a few bytes each (1,000
// scans of 100 megapixels took 22 seconds). A progressive JPEG as encoders
// write it has some 10 scans, and one with an embedded thumbnail or preview
// a few more; libjpeg-turbo's tools likewise take a limit on scans. What
// decodes is bounded per byte of the file, too: each block of a JPEG costs
// at least a bit of it (two in a baseline JPEG), so that a real JPEG holds
// at most 512 pixels a byte; one that declares more, by runs of empty
// blocks, is made to cost. (A PNG is bounded so by its compression: some
// 8,000 pixels a byte at most.)
const (
	maxJPEGScans         = 64
	maxJPEGPixelsPerByte = 1024
)

// checkCost checks what the header alone cannot tell: the scans of a
// JPEG, counted before it is decoded, and the pixels it declares for each
// byte of it.
func checkCost(data []byte) error {
	if !bytes.HasPrefix(data, []byte("\xff\xd8\xff")) {
		return nil
	}
	if n := jpegScans(data); n > maxJPEGScans {
		return fmt.Errorf("a JPEG of more than %d scans (%d), each a pass over the whole picture (a progressive JPEG has some 10)", maxJPEGScans, n)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not a picture that can be read: %v", err)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxJPEGPixelsPerByte*int64(len(data)) {
		return fmt.Errorf("a JPEG of %d×%d pixels in %d bytes, over %d pixels a byte: not a photo", cfg.Width, cfg.Height, len(data), maxJPEGPixelsPerByte)
	}
	return nil
}

// jpegScans returns the number of scans the JPEG data may hold: the start
// of scan markers (0xff 0xda) in it. Every scan a decoder reads starts with
// one, and the entropy-coded data between them cannot hold one (an 0xff
// there is followed by 0x00), so this is never less than the scans Go's
// decoder reads, however it resynchronises after damage; it is more only
// where other segments (an embedded thumbnail) hold the bytes.
func jpegScans(data []byte) int {
	return bytes.Count(data, []byte{0xff, 0xda})
}
