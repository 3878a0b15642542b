package attest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// An answer's text is AnswerPrefix, the share's number in decimal, a
// colon, and the base64url (no padding) of 116 bytes: the answered
// challenge's time of issue (8) and the first 8 bytes of its digest, the
// share's public key (32), the Ed25519 signature (64), and a checksum (4:
// the first bytes of SHA-256 of everything before it, prefix and number
// included). About 175 characters.
const AnswerPrefix = "shamir-answer-1:"

const (
	answerBody  = 8 + 8 + ed25519.PublicKeySize + ed25519.SignatureSize
	answerBytes = answerBody + checksumLen
)

// An Answer is a holder's proof that they hold a share, made for one
// challenge. It holds a signature and the share's public key, and nothing
// from which the share can be learnt.
type Answer struct {
	Share           int       // the share's number, as the share records it
	ChallengeIssued time.Time // the answered challenge's time of issue
	ChallengeHash   [8]byte   // and the first bytes of its digest
	Key             PublicKey // the key that signed
	Signature       [ed25519.SignatureSize]byte
}

// message is what an answer signs: the challenge's digest, the split ID
// and the share's number, after a string that no other signature made
// from a share's key starts with. (Ed25519 with a context string would
// separate it as well, but FIPS 140-only mode refuses Ed25519ctx.)
func message(c *Challenge, share int) []byte {
	d := c.digest()
	m := []byte("shamir attest: answer, version 1\x00")
	m = append(m, d[:]...)
	m = append(m, c.SplitID[:]...)
	return append(m, byte(share))
}

// Answer answers the challenge c for the share numbered share (1 to 255:
// an SSMS share's number in its split, a Vault-format share's x
// coordinate) whose key k is.
func (k *Key) Answer(c *Challenge, share int) (*Answer, error) {
	if share < 1 || share > 255 {
		return nil, fmt.Errorf("share number %d: not between 1 and 255", share)
	}
	a := &Answer{Share: share, ChallengeIssued: c.Issued, Key: k.pub}
	r := c.ref()
	a.ChallengeHash = r.hash
	copy(a.Signature[:], ed25519.Sign(k.priv, message(c, share)))
	return a, nil
}

func (a *Answer) ref() challengeRef {
	return challengeRef{issued: a.ChallengeIssued.UnixMilli(), hash: a.ChallengeHash}
}

// String returns the answer as one line of text, without a newline.
func (a *Answer) String() string {
	prefix := AnswerPrefix + strconv.Itoa(a.Share) + ":"
	b := make([]byte, 0, answerBytes)
	b = binary.BigEndian.AppendUint64(b, uint64(a.ChallengeIssued.UnixMilli()))
	b = append(b, a.ChallengeHash[:]...)
	b = append(b, a.Key[:]...)
	b = append(b, a.Signature[:]...)
	b = append(b, checksum(prefix, b)...)
	return prefix + text.EncodeToString(b)
}

// ErrNotAnswer is wrapped by the errors of a text that is not an answer.
var ErrNotAnswer = errors.New("not an answer")

// ParseAnswer parses an answer in the form [Answer.String] writes, with
// spaces around it allowed, and nothing else. An answer whose checksum
// fails is refused with an error that wraps ErrDamaged.
func ParseAnswer(s string) (*Answer, error) {
	a, _, err := parseAnswer(s)
	return a, err
}

// parseAnswer is ParseAnswer, and also returns the share number the text
// gives when it is damaged, or 0: to say whose damaged answer it is.
func parseAnswer(s string) (a *Answer, claimed int, err error) {
	s = strings.TrimSpace(s)
	rest, ok := strings.CutPrefix(s, AnswerPrefix)
	if !ok {
		return nil, 0, fmt.Errorf("%w: it does not start with %q", ErrNotAnswer, AnswerPrefix)
	}
	num, enc, ok := strings.Cut(rest, ":")
	share, err := strconv.Atoi(num)
	if !ok || err != nil || share < 1 || share > 255 || strconv.Itoa(share) != num {
		return nil, 0, fmt.Errorf("%w: no share number from 1 to 255 after %q", ErrNotAnswer, AnswerPrefix)
	}
	b, err := decodeBody("answer", AnswerPrefix+num+":", enc, answerBytes)
	if err != nil {
		return nil, share, err
	}
	body, sum := b[:answerBody], b[answerBody:]
	if !bytes.Equal(sum, checksum(AnswerPrefix+num+":", body)) {
		return nil, share, fmt.Errorf("the answer is %w: %s", ErrDamaged, checksumFails)
	}
	ms := binary.BigEndian.Uint64(body)
	if ms > 1<<50 {
		return nil, share, fmt.Errorf("%w: its challenge's time of issue is out of range", ErrNotAnswer)
	}
	a = &Answer{Share: share, ChallengeIssued: time.UnixMilli(int64(ms)).UTC()}
	body = body[8:]
	body = body[copy(a.ChallengeHash[:], body):]
	body = body[copy(a.Key[:], body):]
	copy(a.Signature[:], body)
	return a, share, nil
}

// Verify reports whether a is a good answer to c made with the key a.Key
// names, for the share number a.Share. It does not say whether that key is
// the share's in the manifest: [Check] does.
func (a *Answer) Verify(c *Challenge) bool {
	return a.ref() == c.ref() && ed25519.Verify(a.Key[:], message(c, a.Share), a.Signature[:])
}
