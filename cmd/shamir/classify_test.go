package main

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
)

// TestClassify gives the classifier one input of each kind, plain and
// sealed in an age file, and checks what it tells each holds.
func TestClassify(t *testing.T) {
	shares, err := shamir.SplitSSMS([]byte("a secret of some length"), 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := age.GenerateX25519Identity()
	seal := func(data []byte, armored bool, to age.Recipient) []byte {
		var b bytes.Buffer
		var dst io.Writer = &b
		var aw io.WriteCloser
		if armored {
			aw = armor.NewWriter(&b)
			dst = aw
		}
		w, err := age.Encrypt(dst, to)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		w.Close()
		if aw != nil {
			aw.Close()
		}
		return b.Bytes()
	}
	vault := "MyWg9YaSf3Y4+l4PzIsXqwYZIJFpzo6OyCrUPlqe/KKd\nn6rIuDxu6GhZ82aBgSAE7bZqBXjXy7gdumxrJsJzJ802\n"
	for _, c := range []struct {
		name   string
		data   []byte
		decode string
		kind   contentKind
		why    string // for kindNone and kindAside; the note for kindText
	}{
		{"empty", nil, "", kindNone, "empty"},
		{"SSMS", shares[0], "", kindSSMS, ""},
		{"SSMS, -decode", shares[0], "base64", kindAside, "-decode base64 reads Vault-format shares"},
		{"binary", []byte{0, 1, 2, 3}, "", kindNone, "neither an SSMS share nor text"},
		{"Vault text", []byte(vault), "", kindText, ""},
		{"Vault text, -decode hex", []byte(vault), "hex", kindNone, "no line is a hex share"},
		{"prose", []byte("These are my shares.\nAsk Alice.\n"), "", kindNone, "no line is a share"},
		{"word", []byte("TODO\n"), "", kindText, "a note: 1 line, too short to be told from words beside SSMS shares"},
		{"year", []byte("2025\n"), "", kindText, "a note: 1 line, too short"},
		{"word, -decode", []byte("Keys\n"), "base64", kindText, ""},
		{"x 0", []byte("AAAAAAAAAA==\n"), "", kindNone, "no line is a share"},
		{"prose and a share", []byte("Shares:\n" + vault), "", kindText, "a note: line 1 is no share"},
		{"manifest", []byte(`{"version": "` + manifest.Version + `", "shares": []}`), "", kindAside, "the manifest of a split"},
		{"age, ours", seal(shares[1], false, id.Recipient()), "", kindSSMS, ""},
		{"age armored, ours", seal(shares[1], true, id.Recipient()), "", kindSSMS, ""},
		{"age, text", seal([]byte(vault), false, id.Recipient()), "", kindText, ""},
		{"age, another's", seal(shares[1], false, other.Recipient()), "", kindAside, "not ours"},
		{"age, prose", seal([]byte("no share here\n"), false, id.Recipient()), "", kindNone, "what it holds is no share"},
		{"age in age", seal(seal(shares[1], false, id.Recipient()), false, id.Recipient()), "", kindNone, "what it holds is no share"},
	} {
		cl := &classifier{decode: c.decode, ids: []age.Identity{id}}
		got, err := cl.classify(bufio.NewReader(bytes.NewReader(c.data)), "in", int64(len(c.data)))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		why := got.why
		if got.kind == kindText {
			why = got.text.note
		}
		if got.kind != c.kind || c.why == "" && why != "" || !strings.Contains(why, c.why) {
			t.Errorf("%s: kind %d (%q), want %d (%q)", c.name, got.kind, why, c.kind, c.why)
		}
	}
}
