package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func hexOf(c byte, n int) string { return strings.Repeat(string(c), n) }

// valid returns a manifest as split writes one, of parts shares.
func valid(parts int) *Manifest {
	m := &Manifest{Version: Version, SplitID: hexOf('a', 32), SplitIDSource: "ssms", ShareFormat: "ssms",
		Name: "key.bin", Parts: parts, Threshold: 2}
	for i := 1; i <= parts; i++ {
		h := fmt.Sprintf("h%d", i)
		m.Shares = append(m.Shares, Share{Share: i, Holder: h, Recipient: "age1xyz", File: h + ".shamir.age",
			EncryptedSHA256: fmt.Sprintf("%064x", i), PlainSHA256: fmt.Sprintf("%064x", 1000+i)})
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	m := valid(3)
	got, err := Parse(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("got %+v", got)
	}
	// A version 2 manifest made from the shares (shamir attest manifest)
	// has no files; a version 1 manifest is still read.
	m.Shares[0].AttestKey, m.Shares[0].PreviousAttestKey = hexOf('b', 64), []string{hexOf('c', 64)}
	m.Shares[1].File, m.Shares[1].Recipient, m.Shares[1].EncryptedSHA256 = "", "", ""
	if _, err := Parse(m.Encode()); err != nil {
		t.Fatalf("version 2, attestation keys, an entry without a file: %v", err)
	}
	v1 := valid(3)
	v1.Version = VersionV1
	if _, err := Parse(v1.Encode()); err != nil || !IsManifest(v1.Encode()) {
		t.Fatalf("version 1: %v", err)
	}
	if !IsManifest(m.Encode()) || IsManifest([]byte(`{"a": 1}`)) {
		t.Fatal("IsManifest")
	}
}

// TestMalformed feeds Parse the manifests of issue 19, item 4, and others:
// each is refused, with a message that names the field.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"version", func(m *Manifest) { m.Version = "shamir-manifest/3" }, "not a manifest of this version"},
		{"attest key", func(m *Manifest) { m.Shares[0].AttestKey = "zz" }, "share entry 1: attest_key: not 64 hex digits"},
		{"previous key", func(m *Manifest) { m.Shares[1].PreviousAttestKey = []string{hexOf('b', 63)} }, "share entry 2: previous_attest_keys"},
		{"attest key, v1", func(m *Manifest) { m.Version, m.Shares[0].AttestKey = VersionV1, hexOf('b', 64) }, "attestation keys are in shamir-manifest/2"},
		{"x of SSMS", func(m *Manifest) { m.Shares[0].X = 3 }, "share entry 1: x 3: only the Vault-format shares"},
		{"x twice", func(m *Manifest) {
			m.ShareFormat, m.SplitIDSource, m.Name, m.Shares[0].X, m.Shares[1].X = "vault-hex", "random", "", 7, 7
		}, "share entry 2: x 7 is listed twice"},
		{"no file, v1", func(m *Manifest) {
			m.Version, m.Shares[0].File, m.Shares[0].Recipient, m.Shares[0].EncryptedSHA256 = VersionV1, "", "", ""
		}, `share entry 1: file "": not a file name`},
		{"half a file", func(m *Manifest) { m.Shares[0].File = "" }, `share entry 1: file "": not a file name`},
		{"threshold -5", func(m *Manifest) { m.Threshold = -5 }, "threshold -5: from 2 to the 3 parts"},
		{"threshold over parts", func(m *Manifest) { m.Threshold = 4 }, "threshold 4"},
		{"parts 999", func(m *Manifest) { m.Parts = 999 }, "parts 999: a split has 2 to 255 shares"},
		{"share -7", func(m *Manifest) { m.Shares[0].Share = -7 }, "share entry 1: share -7: shares are numbered from 1 to the 3 parts"},
		{"share 999", func(m *Manifest) { m.Shares[1].Share = 999 }, "share entry 2: share 999"},
		{"share twice", func(m *Manifest) { m.Shares[1].Share = 1 }, "share entry 2: share 1 is listed twice"},
		{"one file, two holders", func(m *Manifest) { m.Shares[1].File = m.Shares[0].File }, `share entry 2: file "h1.shamir.age" is listed twice`},
		{"holder twice", func(m *Manifest) { m.Shares[2].Holder = "h1" }, `share entry 3: holder "h1" is listed twice`},
		{"holder escape", func(m *Manifest) { m.Shares[0].Holder = "\x1b[31mmallory" }, `holder name "\x1b[31mmallory": 1 to 64`},
		{"file path", func(m *Manifest) { m.Shares[0].File = "../x" }, `file "../x": not a file name`},
		{"split ID", func(m *Manifest) { m.SplitID = "xyz" }, `split_id "xyz": not 32 hex digits`},
		{"format", func(m *Manifest) { m.ShareFormat = "zip" }, `share_format "zip"`},
		{"source", func(m *Manifest) { m.SplitIDSource = "random" }, `split_id_source "random"`},
		{"hash", func(m *Manifest) { m.Shares[0].PlainSHA256 = "00" }, "64 hex digits"},
		{"recipient", func(m *Manifest) { m.Shares[0].Recipient = "" }, "recipient"},
		{"too few", func(m *Manifest) { m.Shares = m.Shares[:2] }, "2 shares listed, and parts is 3"},
		{"age header hash", func(m *Manifest) { m.Shares[0].HeaderSHA256 = "zz" }, "share entry 1: age_header_sha256: not 64 hex digits"},
		{"age header, no file", func(m *Manifest) {
			m.Shares[1].File, m.Shares[1].Recipient, m.Shares[1].EncryptedSHA256, m.Shares[1].HeaderSHA256 = "", "", "", hexOf('c', 64)
		}, "share entry 2: age_header_sha256 without a file"},
	} {
		m := valid(3)
		tc.edit(m)
		_, err := Parse(m.Encode())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%s: the message holds a raw escape: %q", tc.name, err)
		}
	}
	for _, data := range []string{``, `[]`, `{"version": "shamir-manifest/1", "extra": 1}`, `{} {}`, `{"shares": {}}`} {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("Parse(%q) succeeded", data)
		}
	}
}

// TestStrictKeys checks that keys are read as jq or Python read them: by
// their exact names, each once. Go's encoding/json alone matches names
// case-insensitively and takes the last of two, so that "THRESHOLD" would
// override "threshold" unseen by every other reader of the file.
func TestStrictKeys(t *testing.T) {
	good := string(valid(3).Encode())
	for _, tc := range []struct{ name, data, want string }{
		{"upper case", strings.Replace(good, `"threshold": 2`, `"THRESHOLD": 2`, 1), `key "THRESHOLD" is not one of a manifest's (did you mean "threshold"?)`},
		{"added upper case", strings.Replace(good, `"threshold": 2,`, `"threshold": 2, "THRESHOLD": 3,`, 1), `key "THRESHOLD"`},
		{"mixed case in a share", strings.Replace(good, `"holder": "h2"`, `"Holder": "h2"`, 1), `share entry 2: key "Holder" is not one of a share entry's (did you mean "holder"?)`},
		{"duplicate", strings.Replace(good, `"threshold": 2,`, `"threshold": 2, "threshold": 3,`, 1), `key "threshold" given twice`},
		{"duplicate in a share", strings.Replace(good, `"holder": "h1",`, `"holder": "h1", "holder": "h9",`, 1), `share entry 1: key "holder" given twice`},
		{"unknown", strings.Replace(good, `"threshold": 2,`, `"threshold": 2, "comment": "x",`, 1), `key "comment" is not one of a manifest's`},
		{"unknown in a share", strings.Replace(good, `"holder": "h3",`, `"holder": "h3", "note": "x",`, 1), `share entry 3: key "note" is not one of a share entry's`},
	} {
		if tc.data == good {
			t.Fatalf("%s: the edit did not apply", tc.name)
		}
		_, err := Parse([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// More than MaxShares entries are refused as they are decoded.
func TestTooManyShares(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"version": "shamir-manifest/1", "shares": [`)
	for i := range 600000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("{}")
	}
	b.WriteString("]}")
	_, err := Parse(b.Bytes())
	if err == nil || !strings.Contains(err.Error(), "more than 255 shares") {
		t.Fatalf("Parse: %v", err)
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	os.WriteFile(path, b.Bytes(), 0o600)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "is over 1024 KiB") {
		t.Fatalf("Read: %v", err)
	}
}

func TestCheckHolder(t *testing.T) {
	for name, ok := range map[string]bool{
		"alice": true, "share-1": true, "a.b_c": true, strings.Repeat("a", 64): true,
		"": false, ".hidden": false, "-x": false, "a b": false, "a/b": false, "é": false,
		strings.Repeat("a", 65): false, "a\x1b": false,
	} {
		if err := CheckHolder(name); (err == nil) != ok {
			t.Errorf("CheckHolder(%q) = %v", name, err)
		}
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts is
// valid as written back.
func FuzzParse(f *testing.F) {
	f.Add(valid(3).Encode())
	f.Add(valid(2).Encode())
	f.Add([]byte(`{"version": "shamir-manifest/1", "shares": [{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(m.Encode())
		if err != nil {
			t.Fatalf("the encoding of an accepted manifest is refused: %v", err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("round trip: %+v != %+v", again, m)
		}
		var raw map[string]any
		if json.Unmarshal(data, &raw) != nil {
			t.Fatal("accepted what is not JSON")
		}
	})
}
