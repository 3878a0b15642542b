package paper

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
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

// IsImage reports whether head starts a PNG or a JPEG file.
func IsImage(head []byte) bool {
	return bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")) || bytes.HasPrefix(head, []byte("\xff\xd8\xff"))
}

// ErrNoQR is a picture in which no QR code could be read.
var ErrNoQR = errors.New("no QR code found in the picture")

// The work budget of the search for a code, counted, not timed, so that a
// picture costs the same on every machine and under every load.
//
// ZXing's detector collects the candidate corners of codes (finder
// patterns) in a pass over the picture, then tries every triple of them: a
// picture tiled with finder patterns, a few kilobytes of PNG, would have it
// try billions. One pass may therefore find at most maxQRCandidates; a pass
// that finds more is stopped before it tries any triple. A photo of speckled
// paper has some 300 in the picture as it is and fewer once cleaned up, so
// the search goes on, but a stopped pass is charged qrCappedWork: a picture
// of nothing but candidates gets a few passes.
//
// Each pass is charged its pixels and the triples it may try, each
// cleaning up of the picture (a median filter, a quarter turn) its pixels,
// and no pass starts once the budget is spent: qrWorkBudget, some 70
// passes over a picture of qrWorkSide² pixels, which is what the slowest
// search, of a picture that holds no code, takes; and no more than
// qrWorkPerByte for each byte of the file. A photo has some 10 pixels a byte, a code split
// writes some 100: the budget of either is the whole search. A picture made
// to cost, a few kilobytes of stripes whose every row reads as finder
// patterns, decodes to millions of pixels and gets some passes only.
const (
	maxQRCandidates = 400
	qrWorkBudget    = 72 * qrWorkSide * qrWorkSide
	qrCappedWork    = qrWorkBudget / 8
	qrWorkPerByte   = 5_000
)

// errTooManyCandidates stops a pass of the detector that found more than
// maxQRCandidates candidates: it is thrown from the detector's callback,
// the one way to stop it from outside.
var errTooManyCandidates = errors.New("over the cap of candidate finder patterns")

// A qrSearch is the search of one picture, with the work it has done.
type qrSearch struct {
	budget         int64 // the work it may do
	work           int64 // pixels looked at and triples tried
	passes         int   // passes of the detector run
	mostCandidates int   // the most candidates a pass found
	pixels         int64 // the pixels of the picture decoded
	givenUp        bool  // the budget is spent: the picture is not searched further
}

// ReadQR returns the text of the QR code in the PNG or JPEG data, within
// the budget above. It tries the picture as it is, then in ZXing's slower,
// more thorough mode, then cleaned up in several ways. A picture larger
// than qrWorkSide is first searched once, quickly, at up to twice that
// size (a code photographed from afar needs its pixels), then scaled down
// once, and the slower passes run on the small copy.
func ReadQR(data []byte) (string, error) {
	var s qrSearch
	return s.read(data)
}

func (s *qrSearch) read(data []byte) (string, error) {
	s.budget = min(qrWorkBudget, qrWorkPerByte*int64(len(data)))
	if err := checkPicture(data); err != nil {
		return "", err
	}
	if err := checkCost(data); err != nil {
		return "", err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("not a picture that can be read: %v", err)
	}
	b := img.Bounds()
	s.pixels = int64(b.Dx()) * int64(b.Dy())
	if max(b.Dx(), b.Dy()) <= qrWorkSide {
		if text, err := s.findQR(img); err == nil || s.givenUp {
			return text, err
		}
		return s.searchGray(grayDown(img, qrWorkSide))
	}
	big := grayDown(img, 2*qrWorkSide)
	img = nil // let the collector have the decoded picture
	if text, err := s.findQRFast(big); err == nil || s.givenUp {
		return text, err
	}
	return s.searchGray(grayDown(big, qrWorkSide))
}

// searchGray runs the slower passes of ReadQR on g.
func (s *qrSearch) searchGray(g *image.Gray) (string, error) {
	if text, err := s.findQR(g); err == nil || s.givenUp {
		return text, err
	}
	// ZXing's finder counts runs of dark and light pixels along rows, which
	// speckles (dust, sensor noise, JPEG blocks) break up; a median filter
	// removes them and keeps the modules' edges.
	if !s.afford(g) {
		return "", ErrNoQR
	}
	clean := median3(g)
	if text, err := s.findQR(clean); err == nil || s.givenUp {
		return text, err
	}
	// At another resolution the detector samples the modules at other
	// pixels, which gets past a misjudged finder pattern.
	if text, err := s.findQR(half(clean)); err == nil || s.givenUp {
		return text, err
	}
	// Speckles that survive one median filter rarely survive two, and a
	// picture reduced to black and white, at the midpoint of its darkest
	// and lightest grey, leaves the binarizers nothing to misjudge.
	if !s.afford(clean) {
		return "", ErrNoQR
	}
	cleaner := median3(clean)
	if text, err := s.findQR(cleaner); err == nil || s.givenUp {
		return text, err
	}
	bw := blackWhite(cleaner)
	if text, err := s.findQR(bw); err == nil || s.givenUp {
		return text, err
	}
	// ZXing's detector should not care which way up a code is, but now
	// and then it misjudges a finder pattern that it reads right in
	// another orientation: turn the picture a quarter at a time.
	for _, g := range []*image.Gray{clean, bw} {
		for range 3 {
			if !s.afford(g) {
				return "", ErrNoQR
			}
			g = quarterTurn(g)
			if text, err := s.findQR(g); err == nil || s.givenUp {
				return text, err
			}
		}
	}
	return "", ErrNoQR
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

// afford charges the budget for a pass of the cleaning up over img (a
// median filter, a quarter turn), and reports whether it was left.
func (s *qrSearch) afford(img image.Image) bool {
	b := img.Bounds()
	px := int64(b.Dx()) * int64(b.Dy())
	if s.givenUp || s.work+px > s.budget {
		s.givenUp = true
		return false
	}
	s.work += px
	return true
}

// findQRFast is findQR's first, quickest pass alone.
func (s *qrSearch) findQRFast(img image.Image) (string, error) {
	return s.pass(img, gozxing.NewHybridBinarizer, nil)
}

// findQR looks for a QR code in img. (ZXing's hint ALSO_INVERTED is not
// tried: its QR reader ignores it.)
func (s *qrSearch) findQR(img image.Image) (string, error) {
	for _, hints := range []map[gozxing.DecodeHintType]any{
		nil,
		{gozxing.DecodeHintType_TRY_HARDER: true},
		// A code as it was made (a PNG written by split, a screenshot):
		// its modules are read straight off the grid, which finds codes
		// whose finder patterns the general detector misjudges.
		{gozxing.DecodeHintType_PURE_BARCODE: true},
	} {
		for _, binarize := range []func(gozxing.LuminanceSource) gozxing.Binarizer{gozxing.NewHybridBinarizer, gozxing.NewGlobalHistgramBinarizer} {
			if text, err := s.pass(img, binarize, hints); err == nil || s.givenUp {
				return text, err
			}
		}
	}
	return "", ErrNoQR
}

// pass runs one pass of the detector and decoder on img, within the work
// budget: none once it is spent, and one that finds more than
// maxQRCandidates candidates is stopped.
func (s *qrSearch) pass(img image.Image, binarize func(gozxing.LuminanceSource) gozxing.Binarizer, hints map[gozxing.DecodeHintType]any) (text string, err error) {
	b := img.Bounds()
	px := int64(b.Dx()) * int64(b.Dy())
	if s.givenUp || s.work+px > s.budget {
		s.givenUp = true
		return "", ErrNoQR
	}
	s.passes++
	candidates := 0
	defer func() {
		s.mostCandidates = max(s.mostCandidates, candidates)
		n := int64(candidates)
		s.work += px + n*n*n/6
		if r := recover(); r != nil {
			if r != errTooManyCandidates {
				panic(r)
			}
			s.work += qrCappedWork
			text, err = "", ErrNoQR
		}
	}()
	h := map[gozxing.DecodeHintType]any{
		// Called for each new candidate, where the count can stop the
		// pass before the detector tries its triples.
		gozxing.DecodeHintType_NEED_RESULT_POINT_CALLBACK: gozxing.ResultPointCallback(func(gozxing.ResultPoint) {
			candidates++
			if candidates > maxQRCandidates {
				panic(errTooManyCandidates)
			}
		}),
	}
	maps.Copy(h, hints)
	bmp, err := gozxing.NewBinaryBitmap(binarize(gozxing.NewLuminanceSourceFromImage(img)))
	if err != nil {
		return "", ErrNoQR
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, h)
	if err != nil {
		return "", ErrNoQR
	}
	return res.GetText(), nil
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
