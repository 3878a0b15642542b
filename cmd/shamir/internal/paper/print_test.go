package paper

// The printed page, checked as a person would check it: printed to PDF by
// headless Chromium on A4 and on US Letter, the sheets counted (pdfinfo),
// their text read (pdftotext), and the code read back by zbarimg from the
// sheet rasterised (pdftoppm). test.sh installs chromium, poppler-utils
// and zbar-tools; without them the test is skipped, except under CI, where
// it fails.

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gf256/shamir"
)

// needTool returns the path of the program name, and skips the test when
// it is missing, except under CI, where it fails it.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing, and CI is set: test.sh installs it (apt-get install chromium poppler-utils zbar-tools)", name)
	}
	t.Skipf("%s is missing (apt-get install chromium poppler-utils zbar-tools); under CI this fails", name)
	return ""
}

// run runs a program with a time limit and returns its stdout.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// printPage prints the page html to a PDF on paper of the size given
// (A4 or letter), as a printer with that paper would, and returns the
// PDF's path.
func printPage(t *testing.T, chromium, dir, name, html, size string) string {
	t.Helper()
	// The page leaves the size to the printer: the test plays one.
	html = strings.Replace(html, "<style>", "<style>\n@page { size: "+size+"; }", 1)
	src := filepath.Join(dir, name+".html")
	if err := os.WriteFile(src, []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, name+".pdf")
	run(t, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--print-to-pdf="+pdf, "file://"+src)
	return pdf
}

var pagesLine = regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`)

// sheets returns the number of pages of pdf, and checks their size.
func sheets(t *testing.T, pdf, size string) int {
	t.Helper()
	info := run(t, "pdfinfo", pdf)
	m := pagesLine.FindStringSubmatch(info)
	if m == nil {
		t.Fatalf("pdfinfo %s: no page count in\n%s", pdf, info)
	}
	if !strings.Contains(info, "("+size+")") {
		t.Errorf("%s is not on %s paper:\n%s", pdf, size, info)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// ssmsShareOf returns an SSMS share of a random secret of n bytes, of a
// split into parts shares, any 3 of which recover it.
func ssmsShareOf(t *testing.T, n, parts int) []byte {
	t.Helper()
	secret := make([]byte, n)
	rand.Read(secret)
	shares, err := shamir.SplitSSMS(secret, parts, 3)
	if err != nil {
		t.Fatal(err)
	}
	return shares[1]
}

// TestPrintedPage prints the pages of shares of a 32-, a 64- and a
// 1000-byte secret on A4 and on Letter: the first two take one sheet of
// each, in a split of 5 (a header of 232 bytes), and the longest shares of
// them that page.go says fit (a 64-byte key in a split of 8, 283 bytes; a
// 32-byte key in a split of 16, 288 bytes) too; the third more, each of
// which names the share and the split; the code scans from the first
// sheet.
func TestPrintedPage(t *testing.T) {
	if testing.Short() {
		t.Skip("printing with Chromium takes seconds a page")
	}
	chromium := needTool(t, "chromium")
	needTool(t, "pdfinfo")
	needTool(t, "pdftoppm")
	needTool(t, "pdftotext")
	zbar := needTool(t, "zbarimg")
	dir := t.TempDir()
	info := Info{Holder: "Carol", Index: 2, Parts: 5, Threshold: 3, SplitID: "0123456789abcdef0123456789abcdef", Format: "SSMS", Command: "shamir combine -o key.bin PHOTO1.jpg PHOTO2.png …"}
	for _, c := range []struct {
		secret int  // bytes
		parts  int  // of the split, its one batch
		one    bool // on one sheet
	}{{32, 5, true}, {64, 5, true}, {64, 8, true}, {32, 16, true}, {1000, 5, false}} {
		share := ssmsShareOf(t, c.secret, c.parts)
		page, err := Make(share, info)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []string{"A4", "letter"} {
			name := fmt.Sprintf("key%d-of%d-%s", c.secret, c.parts, size)
			pdf := printPage(t, chromium, dir, name, string(page.HTML), size)
			n := sheets(t, pdf, size)
			t.Logf("a %d-byte secret's share of %d (%d bytes) on %s: %d sheets", c.secret, c.parts, len(share), size, n)
			if c.one && n != 1 {
				t.Errorf("a %d-byte secret's page, of a split of %d (%d bytes), takes %d sheets of %s", c.secret, c.parts, len(share), n, size)
			}
			if !c.one && n < 2 {
				t.Errorf("a %d-byte secret's page takes %d sheet of %s: the test wants a longer share", c.secret, n, size)
			}
			// Each sheet says which share of which split it is.
			for i := 1; i <= n; i++ {
				text := run(t, "pdftotext", "-f", strconv.Itoa(i), "-l", strconv.Itoa(i), pdf, "-")
				if want := "Share 2 of 5 of split " + info.SplitID + ", held by Carol"; !strings.Contains(text, want) {
					t.Errorf("%s, sheet %d of %d: no %q in\n%s", name, i, n, want, text)
				}
			}
			// The code, read from the first sheet as printed.
			prefix := filepath.Join(dir, name)
			run(t, "pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-png", pdf, prefix)
			raster, err := filepath.Glob(prefix + "-*1.png")
			if err != nil || len(raster) != 1 {
				t.Fatalf("pdftoppm wrote %v, %v", raster, err)
			}
			if got := strings.TrimSpace(run(t, zbar, "-q", "--raw", raster[0])); got != Compact(share) {
				t.Errorf("%s: zbarimg read %q from the sheet, want %q", name, got, Compact(share))
			}
		}
	}
}
