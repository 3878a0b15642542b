package paper

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
)

// Info is what a holder's page says besides the share.
type Info struct {
	Holder    string // "" for a share without a named holder
	Index     int    // the share's number, from 1
	Parts     int
	Threshold int
	SplitID   string
	Format    string // "SSMS" or "Vault-format"
	Command   string // the command that recombines
}

// A Copy is the paper copy of a share: its QR code as a PNG and as an SVG
// picture, and the page to print, in HTML, with the code and the text form
// on it.
type Copy struct {
	PNG, SVG, HTML []byte
}

// pngScale is the size of a module in the PNG, in pixels: 8 pixels keep
// a code of a few thousand modules sharp on paper and on screens.
const pngScale = 8

// codeSize returns the printed size, in millimetres, of a code of n
// modules a side: a millimetre a module, with its quiet zone, which phones
// read at arm's length; no less than 50 mm, so that a small code is easy
// to aim at, and no more than 120 mm, so that the largest fits the width of
// a sheet (0.8 mm a module).
func codeSize(n int) int {
	return min(max(n+2*qrQuiet, 50), 120)
}

// Make returns the paper copy of share, of at most MaxShare bytes.
func Make(share []byte, info Info) (*Copy, error) {
	if len(share) > MaxShare {
		return nil, fmt.Errorf("the share is %d bytes, and a paper copy holds at most %d", len(share), MaxShare)
	}
	mods, err := qrModules(Compact(share))
	if err != nil {
		return nil, err
	}
	pngData, err := qrPNG(mods, pngScale)
	if err != nil {
		return nil, err
	}
	svg := qrSVG(mods)
	var html bytes.Buffer
	err = pageTemplate.Execute(&html, struct {
		Info
		SVG      template.HTML
		CodeSize int
		Lines    []string
	}{info, template.HTML(svg), codeSize(len(mods)), strings.Split(strings.TrimSpace(Text(share)), "\n")})
	if err != nil {
		return nil, err
	}
	return &Copy{PNG: pngData, SVG: svg, HTML: html.Bytes()}, nil
}

// pageTemplate is a holder's page: made to be printed and kept in a safe,
// so it says what it is and how to use it without this tool's
// documentation at hand. The share itself (the code, the text) is on it in
// the clear: the paper is the share.
//
// It is laid out for print on A4 and US Letter alike (the printer's paper,
// not a size the page sets): the code beside the details, the text in
// 11-point type, 1.3 lines apart, so that a share of up to 288 bytes takes
// one sheet of either (Letter, the shorter, decides): an SSMS share of a
// 64-byte key in a batch of up to 8 shares, of a 32-byte key in a batch
// of up to 16 (TestPrintedPage; each record's 16-byte tag took the batches
// of 16 and 32 over). A longer share runs onto more sheets, and the line
// at the top, in the head of the table that holds the page, is repeated on
// every sheet, so that each says which share of which split it is.
var pageTemplate = template.Must(template.New("paper").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Share {{.Index}} of {{.Parts}}{{if .Holder}} for {{.Holder}}{{end}}</title>
<style>
@page { margin: 12mm; }
body { font-family: sans-serif; font-size: 10.5pt; max-width: 186mm; margin: 0 auto; color: #000; }
table.sheet { width: 100%; border-collapse: collapse; }
table.sheet > thead td { font-size: 9pt; border-bottom: 0.3mm solid #000; padding: 0 0 1mm; }
table.sheet > tbody > tr > td { padding: 0; }
h1 { font-size: 15pt; margin: 3mm 0; }
.top { display: flex; flex-wrap: wrap; gap: 4mm 6mm; align-items: flex-start; break-inside: avoid; }
.qr svg { width: {{.CodeSize}}mm; height: {{.CodeSize}}mm; display: block; }
.details td { padding: 0.8mm 3mm 0.8mm 0; vertical-align: top; }
.details { flex: 1 1 70mm; border-collapse: collapse; }
p { margin: 2.5mm 0; }
pre { font-size: 11pt; line-height: 1.3; letter-spacing: 0.06em; margin: 2mm 0; }
pre.cmd { font-size: 10pt; letter-spacing: 0; white-space: pre-wrap; }
</style>
</head>
<body>
<table class="sheet">
<thead><tr><td>Share {{.Index}} of {{.Parts}} of split {{.SplitID}}{{if .Holder}}, held by {{.Holder}}{{end}}</td></tr></thead>
<tbody>
<tr><td>
<h1>Secret share {{.Index}} of {{.Parts}}{{if .Holder}}, held by {{.Holder}}{{end}}</h1>
<div class="top">
<div class="qr">{{.SVG}}</div>
<table class="details">
<tr><td>Split ID</td><td><code>{{.SplitID}}</code></td></tr>
<tr><td>Threshold</td><td>any {{.Threshold}} of the {{.Parts}} shares recover the secret; fewer reveal nothing</td></tr>
<tr><td>Holder</td><td>{{if .Holder}}{{.Holder}}{{else}}(not named){{end}}</td></tr>
<tr><td>Format</td><td>{{.Format}} share, made by shamir (github.com/gf256/shamir)</td></tr>
</table>
</div>
<p>The same share as text, to type if the code will not scan. Each group of
five ends with a check character: a mistyped character or two swapped ones
are found and their group named. Spaces, dashes, line breaks and case do not
matter; 0, 8 and 1 are read as O, B and I or L.</p>
<pre>{{range .Lines}}{{.}}
{{end}}</pre>
<p>To recover the secret, gather {{.Threshold}} shares (photos or scans of
their codes, PNG or JPEG; text files of what is printed above; or their share
files) and run:</p>
<pre class="cmd"><code>{{.Command}}</code></pre>
<p>Keep this page as safe as the secret itself would be, apart from the other
shares.</p>
</td></tr>
</tbody>
</table>
</body>
</html>
`))
