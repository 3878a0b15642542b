package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/ssss"
)

// FuzzVaultText reads arbitrary text as the classifier reads Vault-format
// shares (vault operator init's text and JSON, bare base64 or hex lines),
// with -decode unset, hex or base64. It must never panic, and the shares
// it accepts (those combine would use) must come back the same, in the same
// order, when written as split -encode writes them and read again; and, in
// base64, as vault operator init -format=json writes them, threshold and
// all.
func FuzzVaultText(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "cli", "vault-*"))
	if len(seeds) == 0 {
		f.Fatal("no seeds in testdata/cli")
	}
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for enc := range uint8(3) {
			f.Add(data, enc)
		}
	}
	for _, s := range []string{
		"TODO\n", "2025\nKeys\n", "# comment\n\nAQID\nBAUG\n", "0102\n0304\n0502\n",
		`{"unseal_keys_b64":["AQID","BAUG"],"unseal_threshold":1}`,
		`{"recovery_keys_b64":["AQID","BAUG","BwgJ"],"recovery_keys_threshold":2}`,
		"Recovery Key 1: AQID\nRecovery Key 2: BAUG\nroot token\n",
		"AQID\nAQID\nAQIE\nAQ\n", "AQI-\nAQI_\nAQI\n",
		// Foreign forms (foreign.go): ssss shares, a mnemonic.
		"1-10cf1315f0\n2-e9e2909d36\n3-9148efe4af\n", "tok-01-a91d739361\ntok-02-4f8ed3d5d5\nnot one\n",
		"duckling enlarge academic academic agency result length solution fridge kidney coal piece\n",
		// An unseal key encrypted by gpg -e to a Curve25519 key: the
		// mutations reach the OpenPGP packets' parser.
		"Unseal Key 1: hF4DYUhGNMLJRWUSAQdAuCC5MX5cQx6Dw/ImmR8QXc0FAagOXJbU2/fCvS3/jU0wGMTC8KD/FeewVHjEMTyhDlffJ4xtI4P/cIdaOvG7L+RMp/jN/Y4CAjIRiwmI4TZ20l8Bhbvnj4cwAYUBniwGYgCOfoXR6LSImKNSmpvyJnhKACJMxcY2V9g+daScnQH5O3flBaDE0P11NeQBGHnO4Tg3aOCrrQ+UhbIIqEwId9NyFy1qx7TF6FWIVAgvzjoanA==\n",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		enc := []string{"", encHex, encBase64}[sel%3]
		shares, threshold, ok := acceptText(t, data, enc)
		if !ok {
			return
		}
		if threshold != 0 && (threshold < 2 || threshold > 255) {
			t.Fatalf("threshold %d accepted", threshold)
		}
		used := enc
		if used == "" {
			used = guessEncoding(shares)
		}
		var text bytes.Buffer
		if err := writeLines(&text, partsOf(shares), used); err != nil {
			t.Fatal(err)
		}
		again, _, ok := acceptText(t, text.Bytes(), used)
		if !ok || !sameShares(shares, again) {
			t.Fatalf("%q accepted as %x; written in %s as %q, read back as %x", data, partsOf(shares), used, text.Bytes(), partsOf(again))
		}
		if used != encBase64 {
			return
		}
		v := vaultInit{UnsealThreshold: threshold}
		for _, s := range shares {
			v.UnsealKeysB64 = append(v.UnsealKeysB64, base64.StdEncoding.EncodeToString(s.data))
		}
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		again, t2, ok := acceptText(t, js, encBase64)
		if !ok || t2 != threshold || !sameShares(shares, again) {
			t.Fatalf("%q accepted as %x, threshold %d; as JSON %s, read back as %x, threshold %d", data, partsOf(shares), threshold, js, partsOf(again), t2)
		}
	})
}

// acceptText reads data as Vault-format text and returns the shares combine
// would use, and the threshold the text records; ok is false when it holds
// none. The only error readText may end a run with is a JSON threshold out
// of range.
func acceptText(t *testing.T, data []byte, enc string) (shares []textShare, threshold int, ok bool) {
	c := &classifier{decode: enc}
	got, err := c.readText(bytes.NewReader(data), "in")
	if err != nil {
		if bt := (*badJSONThreshold)(nil); !errors.As(err, &bt) {
			t.Fatalf("readText: %v", err)
		}
		return nil, 0, false
	}
	if got.kind == kindSSSS {
		// ssss shares: each written back as ssss-split writes it
		// reads the same.
		for _, s := range got.ssss {
			back, err := ssss.Parse(s.share.String(3))
			if err != nil || back.X != s.share.X || !bytes.Equal(back.Y, s.share.Y) || back.Token != s.share.Token {
				t.Fatalf("ssss share %+v does not read back: %v", s.share, err)
			}
		}
	}
	if got.kind != kindText {
		return nil, 0, false
	}
	good, _ := decodeTextShares(got.text.shares, enc)
	good, _, err = sortOutTextShares(good)
	if err != nil || len(good) == 0 {
		return nil, 0, false
	}
	return good, got.text.threshold, true
}

func sameShares(a, b []textShare) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i].data, b[i].data) {
			return false
		}
	}
	return true
}
