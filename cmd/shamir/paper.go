package main

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// This file writes the paper copy of a share (a QR code as PNG and SVG, and
// a printable HTML page with the code and the text form of papertext.go),
// and reads the lines of a share typed from paper; classify.go reads shares
// back from pictures of the code and from text.

// paperInfo is what a holder's page says besides the share.
type paperInfo struct {
	Holder    string // "" for a share without a named holder
	Index     int    // the share's number, from 1
	Parts     int
	Threshold int
	SplitID   string
	Format    string // "SSMS" or "Vault-format"
	Command   string // the command that recombines
}

// paperScale is the size of a module in the PNG, in pixels: 8 pixels keep
// a code of a few thousand modules sharp on paper and on screens.
const paperScale = 8

// writePaper writes base.png, base.svg and base.html in dir, through set,
// for share.
func writePaper(set *outfile.Set, dir, base string, share []byte, info paperInfo) error {
	if len(share) > maxPaperShare {
		return withHints(fmt.Errorf("the shares are %d bytes, and a paper copy holds at most %d", len(share), maxPaperShare),
			"paper copies are for keys and passwords: leave out -paper for larger secrets")
	}
	text := paperText(share)
	mods, err := qrModules(paperCompact(share))
	if err != nil {
		return err
	}
	pngData, err := qrPNG(mods, paperScale)
	if err != nil {
		return err
	}
	svg := qrSVG(mods)
	var page bytes.Buffer
	err = paperPage.Execute(&page, struct {
		paperInfo
		SVG   template.HTML
		Lines []string
	}{info, template.HTML(svg), strings.Split(strings.TrimSpace(text), "\n")})
	if err != nil {
		return err
	}
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".png", pngData}, {".svg", svg}, {".html", page.Bytes()}} {
		if err := writeWhole(set, filepath.Join(dir, base+f.ext), f.data); err != nil {
			return err
		}
	}
	return nil
}

// writeWhole writes data as the file path of set.
func writeWhole(set *outfile.Set, path string, data []byte) error {
	f, err := set.Create(path)
	if err != nil {
		return err
	}
	_, err = (&destWriter{f, path}).Write(data)
	return err
}

// paperPage is a holder's page: made to be printed on one sheet and kept
// in a safe, so it says what it is and how to use it without this tool's
// documentation at hand. The share itself (the code, the text) is on it in
// the clear: the paper is the share.
var paperPage = template.Must(template.New("paper").Parse(`<!DOCTYPE html>
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
are found and their group named. Spaces, line breaks and case do not matter.</p>
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

// paperTags finds the starts of paper shares in a text.
var paperTags = regexp.MustCompile(`(?i)` + paperTag)

// readPaperLines reads, without echo, the lines that follow the first line
// of a share typed from paper, until the share is whole (its first group
// says how long it is) or an empty line ends it.
func readPaperLines(first string) (string, error) {
	text := first
	for {
		c := compactPaper(text)
		if len(c) >= 5 {
			if n := paperGroupCount(c[:5]); n == 0 || len(c) >= 5*n {
				return text, nil
			}
		}
		line, err := readHidden("  continued: ")
		l := strings.TrimSpace(string(line))
		if l == "" {
			return text, err
		}
		text += " " + l
		if err != nil {
			return text, err
		}
	}
}
