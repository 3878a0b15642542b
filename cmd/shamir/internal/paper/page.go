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
		SVG   template.HTML
		Lines []string
	}{info, template.HTML(svg), strings.Split(strings.TrimSpace(Text(share)), "\n")})
	if err != nil {
		return nil, err
	}
	return &Copy{PNG: pngData, SVG: svg, HTML: html.Bytes()}, nil
}

// pageTemplate is a holder's page: made to be printed on one sheet and kept
// in a safe, so it says what it is and how to use it without this tool's
// documentation at hand. The share itself (the code, the text) is on it in
// the clear: the paper is the share.
var pageTemplate = template.Must(template.New("paper").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Share {{.Index}} of {{.Parts}}{{if .Holder}} for {{.Holder}}{{end}}</title>
<style>
body { font-family: sans-serif; max-width: 180mm; margin: 10mm auto; color: #000; }
h1 { font-size: 16pt; margin: 0 0 4mm; }
table { border-collapse: collapse; margin-bottom: 4mm; }
td { padding: 1mm 4mm 1mm 0; vertical-align: top; }
.qr svg { width: 80mm; height: 80mm; }
pre { font-size: 14pt; line-height: 1.5; letter-spacing: 0.08em; }
code { font-size: 11pt; }
@media print { .noprint { display: none; } }
</style>
</head>
<body>
<h1>Secret share {{.Index}} of {{.Parts}}{{if .Holder}}, held by {{.Holder}}{{end}}</h1>
<table>
<tr><td>Split ID</td><td><code>{{.SplitID}}</code></td></tr>
<tr><td>Threshold</td><td>any {{.Threshold}} of the {{.Parts}} shares recover the secret; fewer reveal nothing</td></tr>
<tr><td>Holder</td><td>{{if .Holder}}{{.Holder}}{{else}}(not named){{end}}</td></tr>
<tr><td>Format</td><td>{{.Format}} share, made by shamir (github.com/gf256/shamir)</td></tr>
</table>
<div class="qr">{{.SVG}}</div>
<p>The same share as text, to type if the code will not scan. Each group of
five ends with a check character: a mistyped character or two swapped ones
are found and their group named. Spaces, dashes, line breaks and case do not
matter; 0, 8 and 1 are read as O, B and I or L.</p>
<pre>{{range .Lines}}{{.}}
{{end}}</pre>
<p>To recover the secret, gather {{.Threshold}} shares (photos or scans of
their codes, PNG or JPEG; text files of what is printed above; or their share
files) and run:</p>
<pre><code>{{.Command}}</code></pre>
<p>Keep this page as safe as the secret itself would be, apart from the other
shares.</p>
</body>
</html>
`))
