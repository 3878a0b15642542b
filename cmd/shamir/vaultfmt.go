package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
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
	where string // for messages: "keys.txt:3", "argument 2", "stdin:1"
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
// lines (the root token and the prose); otherwise every other line must be
// a share. It also reads the JSON that vault operator init -format=json
// prints, and then returns the threshold recorded there (otherwise 0). name
// labels the lines in messages.
func readTextShares(r io.Reader, name string) (shares []textShare, threshold int, err error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTextInput+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > maxTextInput {
		return nil, 0, fmt.Errorf("%s: more than %d MiB of text; Vault-format shares are one short line each", name, maxTextInput>>20)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return readVaultJSON(t, name)
	}
	shares, err = readLines(data, name)
	return shares, 0, err
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

func readVaultJSON(data []byte, name string) ([]textShare, int, error) {
	var v vaultInit
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, 0, fmt.Errorf("%s: not the JSON of vault operator init: %v", name, err)
	}
	keys, field, t := v.UnsealKeysB64, "unseal_keys_b64", v.UnsealThreshold
	if len(keys) == 0 {
		keys, field, t = v.RecoveryKeysB64, "recovery_keys_b64", v.RecoveryKeysThreshold
	}
	if len(keys) == 0 {
		return nil, 0, fmt.Errorf("%s: JSON without unseal_keys_b64 or recovery_keys_b64", name)
	}
	var shares []textShare
	for i, k := range keys {
		shares = append(shares, textShare{where: fmt.Sprintf("%s: %s[%d]", name, field, i), token: k})
	}
	return shares, t, nil
}

// readLines reads the shares in data one per line; see readTextShares.
func readLines(data []byte, name string) ([]textShare, error) {
	var (
		shares   []textShare
		others   []textShare // lines that are not labelled keys
		hasLabel bool
	)
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, maxTextInput+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, n)
		if m := labelled.FindStringSubmatch(line); m != nil {
			hasLabel = true
			shares = append(shares, textShare{where: where, token: m[1]})
			continue
		}
		others = append(others, textShare{where: where, token: line})
	}
	if !hasLabel {
		// Bare lines, as split writes them. Any that is no share is
		// reported when decoded, by line number.
		shares = others
	}
	return shares, sc.Err()
}

// A problem is a share that cannot be used, and why.
type problem struct {
	where string
	why   string
}

// decodeTextShares decodes the tokens of shares in place and returns the
// shares that decoded, and a problem for each that did not. With enc empty it
// tells the encoding itself: hex when every token is hex, else base64. Hex
// digits are also base64 characters, so the choice is made for the whole set:
// random base64 of a few characters can by chance be all hex digits, but a
// whole set of shares cannot.
func decodeTextShares(shares []textShare, enc string) (good []textShare, bad []problem, usedEnc string) {
	if enc == "" {
		enc = encHex
		for _, s := range shares {
			if !isHex(s.token) {
				enc = encBase64
				break
			}
		}
	}
	for _, s := range shares {
		var err error
		if enc == encHex {
			s.data, err = hex.DecodeString(s.token)
		} else {
			s.data, err = decodeBase64(s.token)
		}
		if err != nil {
			why := "not a " + enc + " share"
			if strings.HasPrefix(s.where, "argument ") {
				why = "no such file, and " + why
			}
			bad = append(bad, problem{s.where, why})
			continue
		}
		good = append(good, s)
	}
	return good, bad, enc
}

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
		return nil, nil, fmt.Errorf("the shares are of different lengths, as many of one as of another, so which belong to the secret cannot be told:\n\t%s", strings.Join(lens, "\n\t"))
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
