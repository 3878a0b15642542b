package paper

import (
	"bytes"
	"strings"
	"testing"
)

// TestMake makes the paper copy of each kind of share: its PNG reads back
// as the compact text, and its page holds the details, the code and the
// text form.
func TestMake(t *testing.T) {
	for name, share := range testShares(t) {
		info := Info{Holder: "Alice <&>", Index: 2, Parts: 5, Threshold: 3, SplitID: "0123abcd", Format: "SSMS", Command: "shamir combine -o key.bin *.png"}
		c, err := Make(share, info)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadQR(c.PNG)
		if err != nil || got != Compact(share) {
			t.Errorf("%s: the PNG reads as %q, %v", name, got, err)
		}
		if !bytes.HasPrefix(c.SVG, []byte("<svg ")) {
			t.Errorf("%s: the SVG starts %q", name, c.SVG[:min(20, len(c.SVG))])
		}
		html := string(c.HTML)
		for _, want := range []string{"Alice &lt;&amp;&gt;", "0123abcd", "any 3 of the 5", "shamir combine -o key.bin *.png", "<svg ", strings.Split(Text(share), "\n")[1]} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: the page lacks %q", name, want)
			}
		}
	}
	if _, err := Make(make([]byte, MaxShare+1), Info{}); err == nil {
		t.Errorf("a share over MaxShare made a paper copy")
	}
}

// TestSplit checks how a text is cut into shares.
func TestSplit(t *testing.T) {
	shares := testShares(t)
	a, b := Text(shares["ssms key"]), Text(shares["vault key"])
	got := Split("notes\n" + a + strings.ToLower(b))
	if len(got) != 2 || got[0] != a || got[1] != strings.ToLower(b) {
		t.Errorf("Split gives %q", got)
	}
}
