package manifest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/gf256/shamir/cmd/shamir/internal/hint"
)

// holderRule says what CheckHolder accepts.
const holderRule = "1 to 64 letters, digits, '-', '_' or '.', not starting with '.' or '-'"

// CheckHolder checks a holder's name as split takes it: a name that can be
// a file name, since the holder's share file and paper copy are named for
// them.
func CheckHolder(name string) error {
	ok := name != "" && len(name) <= 64 && name[0] != '.' && name[0] != '-'
	for _, r := range name {
		if !(r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '-' || r == '_' || r == '.') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("holder name %s: %s", quote(name), holderRule)
	}
	return nil
}

// maxRecipient bounds a recipient's length: a post-quantum age recipient
// has some 2,000 characters, an SSH RSA key of 16384 bits under 3,000.
const maxRecipient = 4096

// check checks every field of m.
func (m *Manifest) check() error {
	if !knownVersion(m.Version) {
		return hint.With(fmt.Errorf("not a manifest of this version (%s, want %s)", quote(m.Version), quote(Version)),
			"a newer shamir may read it")
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !isHex(m.SplitID, 32) {
		bad("split_id %s: not 32 hex digits", quote(m.SplitID))
	}
	ssms := m.ShareFormat == "ssms"
	switch {
	case m.ShareFormat != "ssms" && m.ShareFormat != "vault-base64" && m.ShareFormat != "vault-hex":
		bad(`share_format %s: not "ssms", "vault-base64" or "vault-hex"`, quote(m.ShareFormat))
	case m.SplitIDSource != pick(ssms, "ssms", "random"):
		bad("split_id_source %s: %s shares' is %s", quote(m.SplitIDSource), quote(m.ShareFormat), quote(pick(ssms, "ssms", "random")))
	}
	if m.Name != "" && (!ssms || !printable(m.Name) || strings.ContainsAny(m.Name, `/\`) || m.Name == "." || m.Name == "..") {
		bad("name %s: not the name of SSMS share files", quote(m.Name))
	}
	switch {
	case m.Parts < 2 || m.Parts > MaxShares:
		bad("parts %d: a split has 2 to %d shares", m.Parts, MaxShares)
	case m.Threshold < 2 || m.Threshold > m.Parts:
		bad("threshold %d: from 2 to the %d parts", m.Threshold, m.Parts)
	case len(m.Shares) != m.Parts:
		bad("%d shares listed, and parts is %d: a manifest lists every share", len(m.Shares), m.Parts)
	}
	errs = append(errs, m.checkShares()...)
	if len(errs) > 8 {
		errs = append(errs[:8], fmt.Errorf("and %d more problems", len(errs)-8))
	}
	if len(errs) > 0 {
		return hint.With(fmt.Errorf("not a valid manifest:\n%w", errors.Join(errs...)),
			"it is not what split wrote: get the manifest kept with the ceremony's records")
	}
	return nil
}

// checkShares checks the entries of m.Shares, each and against each other.
func (m *Manifest) checkShares() []error {
	var errs []error
	numbers, holders, files, xs := map[int]bool{}, map[string]bool{}, map[string]bool{}, map[int]bool{}
	for i, s := range m.Shares {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("share entry %d: "+format, append([]any{i + 1}, args...)...))
		}
		switch {
		case s.Share < 1 || s.Share > max(m.Parts, 1) || s.Share > MaxShares:
			bad("share %d: shares are numbered from 1 to the %d parts", s.Share, m.Parts)
		case numbers[s.Share]:
			bad("share %d is listed twice", s.Share)
		}
		numbers[s.Share] = true
		if err := CheckHolder(s.Holder); err != nil {
			bad("%v", err)
		} else if holders[s.Holder] {
			bad("holder %s is listed twice", quote(s.Holder))
		}
		holders[s.Holder] = true
		m.checkFile(s, files, bad)
		m.checkKeys(s, xs, bad)
	}
	return errs
}

// checkFile checks the file s was handed out as: its name, recipient and
// hashes. A version 2 manifest made from the shares themselves (shamir
// attest manifest) lists no file, recipient or encrypted_sha256 at all.
func (m *Manifest) checkFile(s Share, files map[string]bool, bad func(string, ...any)) {
	if !isHex(s.PlainSHA256, 64) {
		bad("plain_sha256: not 64 hex digits")
	}
	if m.Version != VersionV1 && s.File == "" && s.Recipient == "" && s.EncryptedSHA256 == "" {
		if s.HeaderSHA256 != "" {
			bad("age_header_sha256 without a file")
		}
		return
	}
	switch {
	case s.File == "" || s.File != filepath.Base(s.File) || strings.ContainsAny(s.File, `/\`) || s.File == "." || s.File == ".." || !printable(s.File):
		bad("file %s: not a file name", quote(s.File))
	case files[s.File]:
		bad("file %s is listed twice: each holder is handed a file of their own", quote(s.File))
	}
	files[s.File] = true
	if s.Recipient == "" || len(s.Recipient) > maxRecipient || !printable(s.Recipient) {
		bad("recipient %s: not an age or SSH recipient", quote(short(s.Recipient)))
	}
	if !isHex(s.EncryptedSHA256, 64) {
		bad("encrypted_sha256: not 64 hex digits")
	}
	if s.HeaderSHA256 != "" && !isHex(s.HeaderSHA256, 64) {
		bad("age_header_sha256: not 64 hex digits")
	}
}

// checkKeys checks what version 2 added to an entry: the x coordinate of
// a Vault-format share, and the attestation keys.
func (m *Manifest) checkKeys(s Share, xs map[int]bool, bad func(string, ...any)) {
	v1 := m.Version == VersionV1
	switch {
	case s.X != 0 && (v1 || m.ShareFormat == "ssms"):
		bad("x %d: only the Vault-format shares of a %s manifest record it", s.X, Version)
	case s.X < 0 || s.X > 255:
		bad("x %d: an x coordinate is from 1 to 255", s.X)
	case s.X != 0 && xs[s.X]:
		bad("x %d is listed twice", s.X)
	}
	xs[s.X] = s.X != 0
	if v1 && (s.AttestKey != "" || len(s.PreviousAttestKey) > 0) {
		bad("attestation keys are in %s manifests, not %s ones", Version, VersionV1)
		return
	}
	if s.AttestKey != "" && !isHex(s.AttestKey, 64) {
		bad("attest_key: not 64 hex digits")
	}
	if len(s.PreviousAttestKey) > MaxPreviousKeys {
		bad("previous_attest_keys: more than %d", MaxPreviousKeys)
		return
	}
	for _, k := range s.PreviousAttestKey {
		if !isHex(k, 64) {
			bad("previous_attest_keys: %s is not 64 hex digits", quote(short(k)))
			break
		}
	}
}

// knownVersion reports whether v is a version of the manifest this reads.
func knownVersion(v string) bool { return v == Version || v == VersionV1 }

// isHex reports whether s is n lowercase hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// printable reports whether s holds no control characters.
func printable(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar })
}

// short cuts a long string for a message.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
