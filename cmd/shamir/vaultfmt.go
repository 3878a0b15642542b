package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// This file reads and writes Vault-format shares: the bytes that Vault's
// shamir.Split returns (the y bytes, then the x coordinate) written as text,
// one share per line, in base64 as vault operator init prints unseal keys, or
// in hex.

// Text encodings of Vault-format shares, the values of -format.
const (
	encBase64 = "base64"
	encHex    = "hex"
)

// A textShare is one Vault-format share as read from the command line, a
// file or stdin.
type textShare struct {
	where string // for messages: `"keys.txt" line 3`, "stdin line 1", "-share 2"
	token string // the share as written
	data  []byte // decoded by decodeTextShares
}

// maxTextInput bounds the text read as Vault-format shares from one file or
// stdin. Such shares are the size of the secret, and a secret worth writing
// in text is small; the limit keeps a mistaken huge file from filling memory.
const maxTextInput = 16 << 20

// labelled matches the lines that vault operator init prints for each key,
// "Unseal Key 1: …" or "Recovery Key 1: …", so that its whole output can be
// given to combine as it is.
var labelled = regexp.MustCompile(`^(?:[A-Za-z]+ )*Key \d+: *(\S+)$`)

// readTextShares reads shares from text, one per line. It skips blank lines
// and lines starting with #. When the text contains vault operator init's
// labelled key lines, it takes the keys from those and ignores the other
// lines (the root token and the prose); otherwise every other line is taken
// for a share, and those that do not decode are reported as bad shares, by
// line. It also reads the JSON that vault operator init -format=json prints,
// and then returns the threshold recorded there and the name of its field
// (otherwise 0 and ""). where names the input in messages.
func readTextShares(r io.Reader, where string) (shares []textShare, threshold int, field string, err error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTextInput+1))
	if err != nil {
		return nil, 0, "", fmt.Errorf("reading it: %v", unwrapPath(err))
	}
	if len(data) > maxTextInput {
		return nil, 0, "", fmt.Errorf("more than %d MiB of text, where Vault-format shares are one short line each", maxTextInput>>20)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return readVaultJSON(t, where)
	}
	return readLines(data, where), 0, "", nil
}

// vaultInit is the part of the output of vault operator init -format=json
// that holds the key shares. A Vault with auto-unseal has recovery keys
// instead of unseal keys.
type vaultInit struct {
	UnsealKeysB64         []string `json:"unseal_keys_b64"`
	UnsealThreshold       int      `json:"unseal_threshold"`
	RecoveryKeysB64       []string `json:"recovery_keys_b64"`
	RecoveryKeysThreshold int      `json:"recovery_keys_threshold"`
}

func readVaultJSON(data []byte, where string) ([]textShare, int, string, error) {
	var v vaultInit
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, 0, "", fmt.Errorf("JSON, but not that of vault operator init: %v", err)
	}
	keys, field, t, tfield := v.UnsealKeysB64, "unseal_keys_b64", v.UnsealThreshold, "unseal_threshold"
	if len(keys) == 0 {
		keys, field, t, tfield = v.RecoveryKeysB64, "recovery_keys_b64", v.RecoveryKeysThreshold, "recovery_keys_threshold"
	}
	if len(keys) == 0 {
		return nil, 0, "", errors.New("JSON without unseal_keys_b64 or recovery_keys_b64")
	}
	var shares []textShare
	for i, k := range keys {
		shares = append(shares, textShare{where: fmt.Sprintf("%s %s[%d]", where, field, i), token: k})
	}
	switch {
	case t == 0:
		tfield = ""
	case t < 2 || t > 255:
		// No JSON vault operator init wrote: with 1, each key would be
		// the secret itself. Refused, not taken for a note.
		return nil, 0, "", withHints(&badJSONThreshold{fmt.Sprintf("%s: %s %d: a threshold is from 2 to 255", where, tfield, t)},
			"correct it, or give the keys as text, one a line, and the threshold with -t")
	}
	return shares, t, tfield, nil
}

// badJSONThreshold is the error for JSON whose threshold cannot be one.
type badJSONThreshold struct{ msg string }

func (e *badJSONThreshold) Error() string { return e.msg }

// readLines reads the shares in data one per line; see readTextShares.
func readLines(data []byte, where string) []textShare {
	var (
		shares   []textShare
		others   []textShare // lines that are not labelled keys
		hasLabel bool
	)
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		loc := fmt.Sprintf("%s line %d", where, n+1)
		if m := labelled.FindStringSubmatch(line); m != nil {
			hasLabel = true
			shares = append(shares, textShare{where: loc, token: m[1]})
			continue
		}
		others = append(others, textShare{where: loc, token: line})
	}
	if !hasLabel {
		// Bare lines, as split writes them. Any that is no share is
		// reported when decoded, by line number.
		shares = others
	}
	return shares
}

// decodeTextShares decodes the tokens of shares in place and returns the
// shares that decoded, and a problem for each that did not. With enc empty it
// tells the encoding itself, from the tokens that decode as shares in either
// (a line that is no share has no say): hex when every one of them is hex,
// else base64. Hex digits are also base64 characters, so the choice is made
// for the whole set: random base64 of a few characters can by chance be all
// hex digits, but a whole set of shares cannot.
func decodeTextShares(shares []textShare, enc string) (good []textShare, bad []problem) {
	if enc == "" {
		enc = guessEncoding(shares)
	}
	for _, s := range shares {
		if s.data != nil {
			good = append(good, s) // read from paper, already bytes
			continue
		}
		var err error
		s.data, err = decodeToken(s.token, enc)
		if err != nil {
			bad = append(bad, problem{s.where, "not a " + enc + " share"})
			continue
		}
		good = append(good, s)
	}
	return good, bad
}

// guessEncoding tells the encoding of shares, as decodeTextShares does
// when none is given.
func guessEncoding(shares []textShare) string {
	for _, s := range shares {
		if decodesAsShare(s.token, "") && !isHex(s.token) {
			return encBase64
		}
	}
	return encHex
}

func decodeToken(tok, enc string) ([]byte, error) {
	if enc == encHex {
		return hex.DecodeString(tok)
	}
	return decodeBase64(tok)
}

// decodesAsShare reports whether tok decodes, in enc or (if enc is empty) in
// hex or base64, into bytes that can be a Vault-format share: at least two.
func decodesAsShare(tok, enc string) bool {
	for _, e := range []string{encHex, encBase64} {
		if enc != "" && e != enc {
			continue
		}
		if b, err := decodeToken(tok, e); err == nil && len(b) >= 2 {
			return true
		}
	}
	return false
}

// minVotingShare is the fewest bytes a line must hold for a text of shares
// to have a say in which format the inputs are, when no -decode says that
// the text is shares. A share is the secret and one byte, and a secret of
// fewer than 4 bytes is rarely split, while the words and numbers of a note
// ("TODO", "Keys", "2025") decode, as base64 or hex, to 2 or 3 bytes.
const minVotingShare = 5

// shareSize returns how many bytes the line tok holds if it could be a
// Vault-format share in enc, or in hex or base64 if enc is empty, and 0 if
// it cannot be one: a share is written in that alphabet, holds at least 2
// bytes, and its x coordinate (its last byte) is not 0 if it decodes. A
// share damaged so that it no longer decodes (a character lost) could still
// be one: it is reported as a bad share, by line, rather than taken for
// prose.
func shareSize(tok, enc string) int {
	size := 0
	for _, e := range []string{encHex, encBase64} {
		if enc != "" && e != enc {
			continue
		}
		var n int
		if e == encHex {
			if strings.Trim(tok, "0123456789abcdefABCDEF") != "" {
				continue
			}
			n = len(tok) / 2
		} else {
			body := strings.TrimRight(tok, "=")
			if len(tok)-len(body) > 2 || strings.Trim(body, base64Alphabet) != "" {
				continue
			}
			n = len(body) * 3 / 4
		}
		if n < 2 {
			continue
		}
		if b, err := decodeToken(tok, e); err == nil && b[len(b)-1] == 0 {
			continue
		}
		size = max(size, n)
	}
	return size
}

// base64Alphabet is the characters of base64, standard and URL-safe.
const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_"

func isHex(s string) bool {
	if len(s)%2 != 0 || s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// decodeBase64 accepts standard base64, which Vault prints, and for shares
// copied through URLs or tools that strip padding, the URL-safe and unpadded
// variants.
func decodeBase64(s string) ([]byte, error) {
	var err error
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		var b []byte
		if b, err = e.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, err
}

func encodeTextShare(b []byte, enc string) string {
	if enc == encHex {
		return hex.EncodeToString(b)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// sortOutTextShares sets aside the decoded shares that cannot belong with the
// others, before any arithmetic: too short, with x coordinate 0, of another
// length than most (another secret's shares), or a second copy of one already
// given. Shares with the same x coordinate but different bytes cannot both be
// right, and nothing here tells which is; both are set aside.
func sortOutTextShares(shares []textShare) (good []textShare, bad []problem, err error) {
	if len(shares) == 0 {
		return nil, nil, nil
	}
	// Most shares are taken to be of the secret wanted; a share of another
	// length belongs to another secret.
	count := map[int]int{}
	for _, s := range shares {
		count[len(s.data)]++
	}
	size, tie := -1, false
	for l, c := range count {
		if size < 0 || c > count[size] {
			size, tie = l, false
		} else if c == count[size] {
			tie = true
		}
	}
	if tie {
		var lens []string
		for _, s := range shares {
			lens = append(lens, fmt.Sprintf("%s: %d bytes", s.where, len(s.data)))
		}
		return nil, nil, fmt.Errorf("the shares are of different lengths, as many of one as of another, so which belong to the secret cannot be told:\n%s", strings.Join(lens, "\n"))
	}
	byX := map[byte]int{} // x coordinate -> index into good
	dropX := map[byte]bool{}
	for _, s := range shares {
		switch {
		case len(s.data) < 2:
			bad = append(bad, problem{s.where, "too short to be a share"})
			continue
		case len(s.data) != size:
			bad = append(bad, problem{s.where, fmt.Sprintf("%d bytes long, where the others are %d: a share of another secret?", len(s.data), size)})
			continue
		}
		x := s.data[len(s.data)-1]
		if x == 0 {
			bad = append(bad, problem{s.where, "x coordinate 0: not a share"})
			continue
		}
		if i, ok := byX[x]; ok {
			first := good[i]
			if string(first.data) == string(s.data) {
				bad = append(bad, problem{s.where, "the same share as " + first.where})
			} else {
				bad = append(bad, problem{s.where, "same x coordinate as " + first.where + " but different bytes: one of the two is damaged"})
				dropX[x] = true
			}
			continue
		}
		byX[x] = len(good)
		good = append(good, s)
	}
	if len(dropX) > 0 {
		kept := good[:0]
		for _, s := range good {
			if x := s.data[len(s.data)-1]; dropX[x] {
				bad = append(bad, problem{s.where, "set aside: it shares its x coordinate with a different share"})
				continue
			}
			kept = append(kept, s)
		}
		good = kept
	}
	return good, bad, nil
}
