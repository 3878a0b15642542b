package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // combine reads photographs of the codes
	"image/png"
	"slices"
	"strings"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
	"github.com/makiuchi-d/gozxing/qrcode/encoder"
)

// This file makes and reads the QR codes of paper shares, with gozxing, a
// port of ZXing to Go without cgo: the same library encodes and decodes,
// and the images it makes are read by zbarimg, and those of qrencode by it
// (the tests check both).

// qrQuiet is the white border around a code, in modules: the 4 that the
// QR standard asks for, which scanners rely on to find the code.
const qrQuiet = 4

// qrModules returns the modules of the QR code of text, true for dark, row
// by row. Level M restores up to 15% of a damaged code, enough for a
// crease or a stain, and keeps a key's share in a code small enough to
// scan from a phone at arm's length.
func qrModules(text string) ([][]bool, error) {
	code, err := encoder.Encoder_encode(text, decoder.ErrorCorrectionLevel_M, nil)
	if err != nil {
		return nil, fmt.Errorf("making the QR code: %v", err)
	}
	m := code.GetMatrix()
	rows := make([][]bool, m.GetHeight())
	for y := range rows {
		rows[y] = make([]bool, m.GetWidth())
		for x := range rows[y] {
			rows[y][x] = m.Get(x, y) == 1
		}
	}
	return rows, nil
}

// qrPNG draws the modules as a black-and-white PNG, scale pixels a module,
// with the quiet zone.
func qrPNG(mods [][]bool, scale int) ([]byte, error) {
	n := len(mods) + 2*qrQuiet
	img := image.NewGray(image.Rect(0, 0, n*scale, n*scale))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y, row := range mods {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray((x+qrQuiet)*scale+dx, (y+qrQuiet)*scale+dy, color.Gray{})
				}
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// qrSVG draws the modules as an SVG, one path of unit squares in a
// viewBox of modules, so that it prints sharp at any size. Runs of dark
// modules in a row are one rectangle each, which keeps the file small.
func qrSVG(mods [][]bool) []byte {
	n := len(mods) + 2*qrQuiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%dmm" height="%dmm" shape-rendering="crispEdges">`+"\n", n, n, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", n, n)
	b.WriteString(`<path fill="#000" d="`)
	for y, row := range mods {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", start+qrQuiet, y+qrQuiet, x-start, x-start)
		}
	}
	b.WriteString(`"/>` + "\n</svg>\n")
	return []byte(b.String())
}

// isImage reports whether head starts a PNG or a JPEG file.
func isImage(head []byte) bool {
	return bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")) || bytes.HasPrefix(head, []byte("\xff\xd8\xff"))
}

// maxImageBytes bounds the files read for QR codes: a photo of a page,
// not a film.
const maxImageBytes = 64 << 20

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
// qrWorkSide pixels a side (see readQR), so that its cost does not grow with
// the camera's resolution: a picture within the budget takes at most about
// 600 MB and, on one core of a laptop, a few seconds to decode and ten or so
// to search when it holds no code.
const (
	maxPicturePixels = 100_000_000
	maxPictureMemory = 512 << 20
	qrWorkSide       = 2000
)

// errNoQR is a picture in which no QR code could be read.
var errNoQR = errors.New("no QR code found in the picture")

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

// readQR returns the text of the QR code in the PNG or JPEG data, within
// the budget above. It tries the picture as it is, then in ZXing's slower,
// more thorough mode, then cleaned up in several ways. A picture larger
// than qrWorkSide is first searched once, quickly, at up to twice that
// size (a code photographed from afar needs its pixels), then scaled down
// once, and the slower passes run on the small copy.
func readQR(data []byte) (string, error) {
	if err := checkPicture(data); err != nil {
		return "", err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("not a picture that can be read: %v", err)
	}
	b := img.Bounds()
	if max(b.Dx(), b.Dy()) <= qrWorkSide {
		if text, err := findQR(img); err == nil {
			return text, nil
		}
		return searchGray(grayDown(img, qrWorkSide))
	}
	big := grayDown(img, 2*qrWorkSide)
	img = nil // let the collector have the decoded picture
	if text, err := findQRFast(big); err == nil {
		return text, nil
	}
	return searchGray(grayDown(big, qrWorkSide))
}

// searchGray runs the slower passes of readQR on g.
func searchGray(g *image.Gray) (string, error) {
	if text, err := findQR(g); err == nil {
		return text, nil
	}
	// ZXing's finder counts runs of dark and light pixels along rows, which
	// speckles (dust, sensor noise, JPEG blocks) break up; a median filter
	// removes them and keeps the modules' edges.
	clean := median3(g)
	if text, err := findQR(clean); err == nil {
		return text, nil
	}
	// At another resolution the detector samples the modules at other
	// pixels, which gets past a misjudged finder pattern.
	if text, err := findQR(half(clean)); err == nil {
		return text, nil
	}
	// Speckles that survive one median filter rarely survive two, and a
	// picture reduced to black and white, at the midpoint of its darkest
	// and lightest grey, leaves the binarizers nothing to misjudge.
	cleaner := median3(clean)
	if text, err := findQR(cleaner); err == nil {
		return text, nil
	}
	bw := blackWhite(cleaner)
	if text, err := findQR(bw); err == nil {
		return text, nil
	}
	// ZXing's detector should not care which way up a code is, but now
	// and then it misjudges a finder pattern that it reads right in
	// another orientation: turn the picture a quarter at a time.
	for _, g := range []*image.Gray{clean, bw} {
		for range 3 {
			g = quarterTurn(g)
			if text, err := findQR(g); err == nil {
				return text, nil
			}
		}
	}
	return "", errNoQR
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

// quarterTurn returns g turned a quarter turn clockwise.
func quarterTurn(g *image.Gray) *image.Gray {
	b := g.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetGray(b.Max.Y-1-y, x-b.Min.X, g.GrayAt(x, y))
		}
	}
	return out
}

// blackWhite returns g with each pixel black or white, split at the
// midpoint of g's darkest and lightest pixels.
func blackWhite(g *image.Gray) *image.Gray {
	lo, hi := uint8(255), uint8(0)
	for _, p := range g.Pix {
		lo, hi = min(lo, p), max(hi, p)
	}
	mid := (int(lo) + int(hi)) / 2
	out := image.NewGray(g.Rect)
	for i, p := range g.Pix {
		if int(p) > mid {
			out.Pix[i] = 255
		}
	}
	return out
}

// half returns g at half its size, each pixel the mean of four.
func half(g *image.Gray) *image.Gray {
	b := g.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			px, py := b.Min.X+2*x, b.Min.Y+2*y
			sum := int(g.GrayAt(px, py).Y) + int(g.GrayAt(px+1, py).Y) + int(g.GrayAt(px, py+1).Y) + int(g.GrayAt(px+1, py+1).Y)
			out.SetGray(x, y, color.Gray{Y: uint8(sum / 4)})
		}
	}
	return out
}

// findQRFast is findQR's first, quickest pass alone.
func findQRFast(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(gozxing.NewLuminanceSourceFromImage(img)))
	if err != nil {
		return "", errNoQR
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		return "", errNoQR
	}
	return res.GetText(), nil
}

// findQR looks for a QR code in img.
func findQR(img image.Image) (string, error) {
	for _, hints := range []map[gozxing.DecodeHintType]any{
		nil,
		{gozxing.DecodeHintType_TRY_HARDER: true},
		{gozxing.DecodeHintType_TRY_HARDER: true, gozxing.DecodeHintType_ALSO_INVERTED: true},
		// A code as it was made (a PNG written by split, a screenshot):
		// its modules are read straight off the grid, which finds codes
		// whose finder patterns the general detector misjudges.
		{gozxing.DecodeHintType_PURE_BARCODE: true},
	} {
		for _, binarize := range []func(gozxing.LuminanceSource) gozxing.Binarizer{gozxing.NewHybridBinarizer, gozxing.NewGlobalHistgramBinarizer} {
			src := gozxing.NewLuminanceSourceFromImage(img)
			bmp, err := gozxing.NewBinaryBitmap(binarize(src))
			if err != nil {
				continue
			}
			res, err := qrcode.NewQRCodeReader().Decode(bmp, hints)
			if err == nil {
				return res.GetText(), nil
			}
		}
	}
	return "", errNoQR
}

// median3 returns img in grey, each pixel the median of its 3×3
// neighbourhood.
func median3(img image.Image) *image.Gray {
	b := img.Bounds()
	g := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g.Set(x, y, color.GrayModel.Convert(img.At(x, y)))
		}
	}
	out := image.NewGray(b)
	var win [9]uint8
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			n := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					px, py := min(max(x+dx, b.Min.X), b.Max.X-1), min(max(y+dy, b.Min.Y), b.Max.Y-1)
					win[n] = g.GrayAt(px, py).Y
					n++
				}
			}
			slices.Sort(win[:])
			out.SetGray(x, y, color.Gray{Y: win[4]})
		}
	}
	return out
}
