package main

import (
	"fmt"
	"os"
	"strings"
)

// This file is split for people: each share encrypted with age to the
// holder it is for (-r, -R), a manifest that lists who holds what, and a
// paper copy of each share (-paper).

// holderFileName names the file a holder is handed.
func holderFileName(name string) string { return name + ".shamir.age" }

// sayPaper says where the paper copies of split splitID are.
func sayPaper(o *splitOptions, splitID []byte) {
	sayf(os.Stderr, "wrote a paper copy of each share of split %x in %s: PNG and SVG QR codes, and an HTML page to print", splitID, quote(o.paper))
}

// recombineCommand is the command a paper page gives for recombining.
func recombineCommand(o *splitOptions) string {
	files := "PHOTO1.jpg PHOTO2.png …"
	if o.encode != "" {
		return fmt.Sprintf("shamir combine -t %d -encode %s %s", o.threshold, o.encode, files)
	}
	return fmt.Sprintf("shamir combine -o %s %s", quoteShell(o.name), files)
}

// quoteShell quotes a name for a command line when it needs it.
func quoteShell(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' || r == '/') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
