package attest

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A challenge's text is ChallengePrefix and the base64url (RFC 4648, no
// padding) of 44 bytes: the split ID (16), the time of issue (8: milliseconds
// since 1970 UTC, big-endian), the nonce (16), and a checksum (4: the first
// bytes of SHA-256 of the prefix and the 40 bytes before it). 78 characters
// in all.
const ChallengePrefix = "shamir-challenge-1:"

const (
	splitIDLen     = 16
	nonceLen       = 16
	checksumLen    = 4
	challengeBody  = splitIDLen + 8 + nonceLen
	challengeBytes = challengeBody + checksumLen
)

// text is the base64url encoding the challenges and answers are written in.
var text = base64.RawURLEncoding.Strict()

// A Challenge asks every holder of a split's shares to prove, now, that they
// still hold theirs.
type Challenge struct {
	SplitID [16]byte  // the split the holders' shares are of
	Issued  time.Time // when the coordinator issued it, to the millisecond
	Nonce   [16]byte  // random: no answer to it exists before it is issued
}

// NewChallenge returns a fresh challenge for the split splitID, issued at
// now (in practice time.Now()), with a nonce from crypto/rand.
func NewChallenge(splitID [16]byte, now time.Time) *Challenge {
	c := &Challenge{SplitID: splitID, Issued: now.Truncate(time.Millisecond).UTC()}
	rand.Read(c.Nonce[:]) // never fails
	return c
}

func (c *Challenge) body() []byte {
	b := make([]byte, 0, challengeBytes)
	b = append(b, c.SplitID[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(c.Issued.UnixMilli()))
	return append(b, c.Nonce[:]...)
}

// digest is what an answer signs for the challenge: SHA-256 of its bytes,
// separated from every other hash of them.
func (c *Challenge) digest() [32]byte {
	return sha256.Sum256(append([]byte("shamir attest: challenge, version 1\x00"), c.body()...))
}

// ref is how an answer names the challenge it answers: the time of issue
// (so that an answer to an older one is told as such) and the first bytes
// of the digest.
func (c *Challenge) ref() challengeRef {
	d := c.digest()
	r := challengeRef{issued: c.Issued.UnixMilli()}
	copy(r.hash[:], d[:])
	return r
}

type challengeRef struct {
	issued int64
	hash   [8]byte
}

// String returns the challenge as one line of text, without a newline.
func (c *Challenge) String() string {
	b := c.body()
	b = append(b, checksum(ChallengePrefix, b)...)
	return ChallengePrefix + text.EncodeToString(b)
}

// decodeBody decodes the base64url text s after prefix, of n bytes, in a
// challenge or an answer (what), refusing what the decoder would skip
// (line breaks).
func decodeBody(what, prefix, s string, n int) ([]byte, error) {
	if len(s) != text.EncodedLen(n) {
		return nil, fmt.Errorf("the %s is %w: %d characters after %q, not %d (some were lost or added on the way)",
			what, ErrDamaged, len(s), prefix, text.EncodedLen(n))
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return nil, fmt.Errorf("the %s is %w: %q is not a base64url character", what, ErrDamaged, r)
		}
	}
	b, err := text.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the %s is %w: %s", what, ErrDamaged, checksumFails)
	}
	return b, nil
}

// checksum is the first bytes of SHA-256 of a line's prefix and body.
func checksum(prefix string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(prefix))
	h.Write(body)
	return h.Sum(nil)[:checksumLen]
}

// ErrDamaged is wrapped by the errors of a challenge or an answer whose
// text fails its checksum: a character was changed, lost or added on the
// way.
var ErrDamaged = errors.New("damaged")

const checksumFails = "its checksum fails (a character was changed on the way)"

// ParseChallenge parses a challenge in the form [Challenge.String] writes,
// with spaces around it allowed, and nothing else.
func ParseChallenge(s string) (*Challenge, error) {
	s = strings.TrimSpace(s)
	rest, ok := strings.CutPrefix(s, ChallengePrefix)
	if !ok {
		return nil, fmt.Errorf("not a challenge: it does not start with %q", ChallengePrefix)
	}
	b, err := decodeBody("challenge", ChallengePrefix, rest, challengeBytes)
	if err != nil {
		return nil, err
	}
	body, sum := b[:challengeBody], b[challengeBody:]
	if !bytes.Equal(sum, checksum(ChallengePrefix, body)) {
		return nil, fmt.Errorf("the challenge is %w: %s", ErrDamaged, checksumFails)
	}
	c := &Challenge{}
	copy(c.SplitID[:], body)
	ms := binary.BigEndian.Uint64(body[splitIDLen:])
	if ms > 1<<50 { // beyond year 37000: no real challenge
		return nil, fmt.Errorf("the challenge's time of issue is out of range")
	}
	c.Issued = time.UnixMilli(int64(ms)).UTC()
	copy(c.Nonce[:], body[splitIDLen+8:])
	return c, nil
}
