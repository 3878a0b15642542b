package manifest

import (
	"fmt"
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	m := valid(3)
	s1, s2, s3 := &m.Shares[0], &m.Shares[1], &m.Shares[2]
	s3.HeaderSHA256 = hexOf('7', 64)
	for _, tc := range []struct {
		name string
		f    File
		want Verdict
		of   *Share
		msg  string
	}{
		{"as handed out", File{Name: "d/h1.shamir.age", SHA256: s1.EncryptedSHA256}, Good, s1, `share 1, of holder "h1", as handed out`},
		{"renamed", File{Name: "x.age", SHA256: s1.EncryptedSHA256}, Good, s1, `as handed out (as "h1.shamir.age")`},
		{"decrypted", File{Name: "h2.shamir", SHA256: s2.PlainSHA256, ShareSHA256: s2.PlainSHA256, How: "decrypted"}, Good, s2, "the share in the file handed out, decrypted"},
		{"paper picture", File{Name: "h2.png", SHA256: hexOf('0', 64), ShareSHA256: s2.PlainSHA256, How: "from a picture"}, Good, s2, "from a picture"},
		{"paper page, any name", File{Name: "page.html", SHA256: hexOf('0', 64), ShareSHA256: s3.PlainSHA256, How: "from its text"}, Good, s3, "share 3"},
		{"swapped", File{Name: "h1.shamir.age", SHA256: s2.EncryptedSHA256}, Swapped, s2, `swapped: this is the share of holder "h2" (share 2, handed out as "h2.shamir.age"), not of "h1"`},
		{"swapped paper", File{Name: "h1.png", SHA256: hexOf('0', 64), ShareSHA256: s3.PlainSHA256}, Swapped, s3, `not of "h1"`},
		{"altered", File{Name: "h3.shamir.age", SHA256: hexOf('0', 64), MayHoldShare: true}, Altered, s3, `altered: not the file handed to holder "h3" (share 3)`},
		{"re-protected", File{Name: "h3.shamir.age", SHA256: hexOf('0', 64), MayHoldShare: true, Sealed: true, HeaderSHA256: hexOf('8', 64)}, Unchecked, s3, `holder "h3"'s file (share 3), not the one handed out: re-protected since the split`},
		{"altered past its age header", File{Name: "h3.shamir.age", SHA256: hexOf('0', 64), MayHoldShare: true, Sealed: true, HeaderSHA256: hexOf('7', 64)}, Altered, s3, `altered: not the file handed to holder "h3"`},
		{"altered, replaced by a note", File{Name: "h3.shamir.age", SHA256: hexOf('0', 64)}, Altered, s3, "altered"},
		{"altered decrypted share", File{Name: "mine.shamir", SHA256: hexOf('0', 64), ShareSHA256: hexOf('0', 64), SplitID: m.SplitID, Number: 2}, Altered, s2, "altered: share 2 of this split"},
		{"foreign age", File{Name: "found.age", SHA256: hexOf('0', 64), MayHoldShare: true}, Foreign, nil, "foreign: not a file of this split (split ID " + m.SplitID + ")"},
		{"foreign SSMS", File{Name: "s.ssms", SHA256: hexOf('0', 64), ShareSHA256: hexOf('0', 64), SplitID: hexOf('b', 32), Number: 1}, Foreign, nil, "an SSMS share of split " + hexOf('b', 32)},
		{"a note", File{Name: "notes.txt", SHA256: hexOf('0', 64)}, NotShare, nil, "not a share file"},
	} {
		j := m.Judge(tc.f)
		if j.Verdict != tc.want || j.Of != tc.of || !strings.Contains(j.String(), tc.msg) {
			t.Errorf("%s: %v %v %q, want %v %v %q", tc.name, j.Verdict, j.Of, j.String(), tc.want, tc.of, tc.msg)
		}
		for _, g := range j.Given() {
			if g == nil {
				t.Errorf("%s: Given holds nil", tc.name)
			}
		}
	}
}

// A holder name with a terminal's escape sequence is quoted in every
// verdict.
func TestJudgeQuotes(t *testing.T) {
	m := valid(2)
	m.Shares[0].Holder = "a\x1b[2Jb"
	m.Shares[0].File = "f1"
	for _, f := range []File{
		{Name: "f1", SHA256: m.Shares[0].EncryptedSHA256},
		{Name: "f1", SHA256: m.Shares[1].EncryptedSHA256},
		{Name: "f1", SHA256: hexOf('0', 64)},
	} {
		if s := m.Judge(f).String(); strings.ContainsRune(s, 0x1b) || !strings.Contains(s, fmt.Sprintf("%q", m.Shares[0].Holder)) {
			t.Errorf("unquoted: %q", s)
		}
	}
}
