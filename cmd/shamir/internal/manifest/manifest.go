// Package manifest reads, writes and checks the manifest of a split for
// people: the public record, written beside the holders' files by
// split -r, of who holds which share, with the SHA-256 of each file handed
// out and of the share in it (docs/MANIFEST.md). A manifest is input like
// any file given to shamir: Read bounds it and checks every field before
// anything in it is believed, and Judge tells what a file given back is by
// the share it holds.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// Version names the manifest's format. Version 2 added the attestation
// keys (shamir attest) and, for Vault-format shares, their x coordinates;
// version 1 manifests are still read, and their holders cannot attest.
const (
	Version   = "shamir-manifest/2"
	VersionV1 = "shamir-manifest/1"
)

// FileName is the manifest's file name, in the folder of the holders'
// files.
const FileName = "manifest.json"

// MaxSize bounds the manifest Read reads: 255 shares, each with a
// post-quantum recipient of some 2,000 characters, take some 600 KB.
const MaxSize = 1 << 20

// MaxShares is the most shares a split has, and a manifest lists.
const MaxShares = 255

// A Manifest is the record of one split for people.
type Manifest struct {
	Version       string  `json:"version"`
	SplitID       string  `json:"split_id"`        // 32 hex digits
	SplitIDSource string  `json:"split_id_source"` // "ssms" or "random"
	ShareFormat   string  `json:"share_format"`    // "ssms", "vault-base64" or "vault-hex"
	Name          string  `json:"name,omitempty"`  // SSMS: the secret's name
	Parts         int     `json:"parts"`
	Threshold     int     `json:"threshold"`
	Shares        []Share `json:"shares"`
}

// A Share is one holder's entry. A manifest made from the shares
// themselves (shamir attest manifest) has no files: its entries have no
// recipient, file or encrypted_sha256.
type Share struct {
	Share           int    `json:"share"`       // from 1
	X               int    `json:"x,omitempty"` // Vault-format shares: the x coordinate
	Holder          string `json:"holder"`
	Recipient       string `json:"recipient,omitempty"`
	File            string `json:"file,omitempty"`
	EncryptedSHA256 string `json:"encrypted_sha256,omitempty"`
	// HeaderSHA256 is the SHA-256 of that file's age header (up to and
	// including its MAC line): a file whose header is the one handed
	// out but whose bytes are not was altered, while one with another
	// header was re-protected (or replaced), which only the holder's key
	// can tell. Absent in manifests made before it was recorded.
	HeaderSHA256 string `json:"age_header_sha256,omitempty"`
	PlainSHA256  string `json:"plain_sha256"`
	// The public key of the share's attestation key (64 hex digits), and
	// those of the holder's shares before a refresh or reshare.
	AttestKey         string   `json:"attest_key,omitempty"`
	PreviousAttestKey []string `json:"previous_attest_keys,omitempty"`
}

// MaxPreviousKeys bounds the previous attestation keys of an entry: one
// per refresh the holder's share went through.
const MaxPreviousKeys = 255

// Encode returns the manifest as split writes it: indented JSON and a
// final newline.
func (m *Manifest) Encode() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings and numbers only
	}
	return append(b, '\n')
}

// Read reads the manifest at path, at most MaxSize bytes of it, and checks
// it as Parse does. Its errors name the file quoted.
func Read(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", quote(path), unwrap(err))
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s is over %d KiB: not a manifest (one of %d shares takes less)", quote(path), MaxSize>>10, MaxShares)
	}
	m, err := Parse(data)
	if err != nil {
		var he *hint.Error
		if errors.As(err, &he) {
			return nil, hint.With(fmt.Errorf("%s: %w", quote(path), he.Err), he.Advice...)
		}
		return nil, fmt.Errorf("%s: %w", quote(path), err)
	}
	return m, nil
}

// Parse decodes a manifest and checks it whole: its keys, by their exact
// names and each once (see checkKeys), its version, the form of
// every field, the ranges of the threshold and share numbers, that no share
// number, file or holder is listed twice, and that it lists every share of
// the split, at most MaxShares.
func Parse(data []byte) (*Manifest, error) {
	var m Manifest
	if err := checkKeys(data); err != nil {
		return nil, fmt.Errorf("not a manifest: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw struct {
		Manifest
		Shares shareList `json:"shares"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a manifest: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not a manifest: more after its JSON object")
	}
	m = raw.Manifest
	m.Shares = raw.Shares
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// shareList decodes the list of shares one at a time, to refuse more than
// MaxShares before they take memory.
type shareList []Share

func (l *shareList) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return errors.New(`"shares" is not a list`)
	}
	for dec.More() {
		if len(*l) == MaxShares {
			return fmt.Errorf(`"shares" lists more than %d shares: a split has at most %d`, MaxShares, MaxShares)
		}
		var s Share
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("share entry %d: %v", len(*l)+1, err)
		}
		*l = append(*l, s)
	}
	return nil
}

// IsManifest reports whether head, the start of a file, starts a manifest,
// which a folder of shares may hold beside them.
func IsManifest(head []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) &&
		(bytes.Contains(head, []byte(`"version": "`+Version+`"`)) || bytes.Contains(head, []byte(`"version": "`+VersionV1+`"`)))
}

// quote quotes a name for a message, so that a name that holds a
// terminal's escape sequence is shown, not obeyed.
func quote(s string) string { return strconv.Quote(s) }

func unwrap(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}
