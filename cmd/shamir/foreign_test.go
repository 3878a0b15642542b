package main

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/openpgp"        //lint:ignore SA1019 what vault operator init -pgp-keys wrote with
	"golang.org/x/crypto/openpgp/packet" //lint:ignore SA1019 as above
)

// TestPGPKeyShape tells unseal keys that vault operator init -pgp-keys
// encrypted from Vault-format shares, which are random bytes: a share whose
// first byte happens to be a packet tag's (1 in 85 of them) is still a
// share, read as one, not named an OpenPGP message.
func TestPGPKeyShape(t *testing.T) {
	config := &packet.Config{DefaultHash: crypto.SHA256}
	e, err := openpgp.NewEntity("vault", "", "vault@example.com", config)
	if err != nil {
		t.Fatal(err)
	}
	// Each encryption another RSA ciphertext: half of them start with a
	// zero bit, which Go's openpgp counts in the integer's length.
	var vault []byte
	for range 16 {
		var msg bytes.Buffer
		w, err := openpgp.Encrypt(&msg, []*openpgp.Entity{e}, nil, nil, config)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(randomBytes(33))
		w.Close()
		vault = msg.Bytes()
		if !isPGPKey(base64.StdEncoding.EncodeToString(vault)) {
			t.Errorf("an unseal key encrypted as Vault does (%x…) is not told", vault[:24])
		}
	}
	// GnuPG writes the same packet in the old format, with a two-octet
	// length.
	if vault[0] != 0xc1 || vault[1] < 192 || vault[1] >= 224 {
		t.Fatalf("the packet starts %x, not a new-format one of a two-octet length", vault[:3])
	}
	n := (int(vault[1])-192)<<8 + int(vault[2]) + 192
	old := append([]byte{0x85, byte(n >> 8), byte(n)}, vault[3:]...)
	if !isPGPKey(base64.StdEncoding.EncodeToString(old)) {
		t.Errorf("an unseal key encrypted as GnuPG does (%x…) is not told", old[:8])
	}
	// Cut after its first packet, it is no message.
	if isPGPKey(base64.StdEncoding.EncodeToString(vault[:3+n])) {
		t.Errorf("a session key packet alone is told an unseal key")
	}

	rng := rand.New(rand.NewChaCha8([32]byte{'p', 'g', 'p'}))
	for i := range 30000 {
		share := make([]byte, 80+rng.IntN(2000))
		for j := range share {
			share[j] = byte(rng.Uint32())
		}
		share[0] = []byte{0xc1, 0x84, 0x85}[i%3]
		if isPGPKey(base64.StdEncoding.EncodeToString(share)) {
			t.Fatalf("a Vault-format share of %d bytes, %x…, is told an unseal key encrypted with OpenPGP", len(share), share[:12])
		}
	}
}
