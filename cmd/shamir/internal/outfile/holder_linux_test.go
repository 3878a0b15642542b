package outfile

import "testing"

// What a holder's command line says is shown only if it is a command's
// name: it could hold a terminal's escape sequences, or a share.
func TestKernelHolderWord(t *testing.T) {
	for s, want := range map[string]bool{
		"refresh": true, "attest manifest": true,
		"": false, " refresh": false, "refresh ": false, "-q": false, "\x1b[2J": false,
		"shares/s.1-of-3.shamir": false, "Refresh": false,
	} {
		if isWord(s) != want {
			t.Errorf("isWord(%q) = %v", s, !want)
		}
	}
}
