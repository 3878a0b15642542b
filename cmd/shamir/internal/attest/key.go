// Package attest lets the holder of a share prove that they still hold it,
// without showing it to anyone: proof of possession.
//
// Each share has a signing key derived from the share's bytes alone
// ([DeriveKey], [KeyWriter]); its public half ([PublicKey]) is recorded,
// when the split is made, in the manifest beside the share's SHA-256. A
// coordinator issues a [Challenge] (a random nonce, the split's ID and the
// time); each holder answers it with an [Answer], one line holding an
// Ed25519 signature over the challenge, the split ID and the share's
// number, made with their share's key; [Check] says, against the manifest's
// keys, who answered, who did not, whose answer is refused and why, and
// whether those who answered reach the threshold.
//
// An answer proves that whoever made it had the share's bytes when the
// challenge was issued. It does not prove that nobody else has a copy.
//
// Everything here is approved in FIPS 140-3 (HMAC-SHA-256 and HKDF-SHA-256,
// Ed25519 without context, SHA-256) and works under GODEBUG=fips140=only.
package attest

import (
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
)

// The key derivation is HKDF-SHA-256 (RFC 5869) with the share's bytes as
// the input keying material. The salt and the info string separate it from
// every other use of the share's bytes: in particular from the share's
// plain SHA-256, which the manifest publishes, and from which nothing here
// can be computed (SHA-256 cannot be extended at the front).
const (
	keySalt = "shamir attest: share key salt, version 1"
	keyInfo = "shamir attest: Ed25519 seed, version 1"
)

// MinShareLen is the fewest bytes a share must have to derive a key from.
// The public key is a function of the share: a share with fewer bytes of
// randomness could be found by trying each possible share against it. A
// Vault-format share of a 16-byte secret (17 bytes: the secret's length
// and the x coordinate) is the shortest accepted; SSMS share files are
// always longer.
const MinShareLen = 17

// ErrShortShare is returned for a share of fewer than MinShareLen bytes.
var ErrShortShare = fmt.Errorf("attest: a share of fewer than %d bytes has too little randomness: its public key would give it away", MinShareLen)

// A PublicKey verifies the answers made with one share's key. It is
// public: the manifest records it.
type PublicKey [ed25519.PublicKeySize]byte

// String returns the key as 64 lowercase hexadecimal digits, the form
// [ParsePublicKey] reads.
func (k PublicKey) String() string { return hex.EncodeToString(k[:]) }

// ParsePublicKey parses a key in the form [PublicKey.String] writes.
func ParsePublicKey(s string) (PublicKey, error) {
	var k PublicKey
	if len(s) != hex.EncodedLen(len(k)) {
		return k, fmt.Errorf("attest: public key %q: not %d hexadecimal digits", s, hex.EncodedLen(len(k)))
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return k, fmt.Errorf("attest: public key %q: not %d hexadecimal digits", s, hex.EncodedLen(len(k)))
	}
	return k, nil
}

// A Key signs answers for one share. It is as secret as the share.
type Key struct {
	priv ed25519.PrivateKey
	pub  PublicKey
}

// Public returns the key's public half.
func (k *Key) Public() PublicKey { return k.pub }

// A KeyWriter derives a share's key from the share's bytes written to it,
// so that a share file of any size is read once, as a stream. It computes
// exactly [DeriveKey] of the bytes written.
type KeyWriter struct {
	mac hash.Hash
	n   int64
}

// NewKeyWriter returns a KeyWriter to which nothing is written yet.
func NewKeyWriter() *KeyWriter {
	// HKDF-Extract is HMAC(salt, IKM): streamed here, with the salt as
	// HMAC's key (long enough for FIPS 140-only mode).
	return &KeyWriter{mac: hmac.New(sha256.New, []byte(keySalt))}
}

// Write adds p to the share's bytes. It never fails.
func (w *KeyWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return w.mac.Write(p)
}

// Key returns the key of the share written, or ErrShortShare.
func (w *KeyWriter) Key() (*Key, error) {
	if w.n < MinShareLen {
		return nil, ErrShortShare
	}
	prk := w.mac.Sum(nil)
	seed, err := hkdf.Expand(sha256.New, prk, keyInfo, ed25519.SeedSize)
	clear(prk)
	if err != nil {
		return nil, fmt.Errorf("attest: deriving the key: %v", err)
	}
	priv := ed25519.NewKeyFromSeed(seed)
	clear(seed)
	k := &Key{priv: priv}
	copy(k.pub[:], priv.Public().(ed25519.PublicKey))
	return k, nil
}

// DeriveKey derives the key of a share from its bytes: an SSMS share
// file's bytes as written, or a Vault-format share's bytes (not its base64
// or hex text, so that either text of one share gives one key). The seed
// of the Ed25519 key is HKDF-SHA-256 of the bytes, with a salt and an info
// string of this package's own.
func DeriveKey(share []byte) (*Key, error) {
	w := NewKeyWriter()
	w.Write(share)
	return w.Key()
}
