package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	be "encoding/binary"
	"hash/crc32"
	"os"
	"slices"
	"strconv"

	"github.com/gf256/shamir"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/crypto/chacha20poly1305"
)

// The offsets of an SSMS share (version 4, docs/FORMAT.md) that forge
// rewrites.
const (
	forgeSplitID    = 13 // 16 bytes
	forgeGeneration = 30 // 4 bytes; the end of the record CRCs' seed
	forgeKeyCheck   = 36 // 16 bytes, then the 32-byte public key
	forgeSignature  = 84 // 64 bytes, over the batch statement
)

// forgeHeaderCRC is where the header CRC of s is: the header's last 4
// bytes. The header is 184 bytes and 16 more per level of its batch's
// Merkle tree, ⌈log2 size⌉ levels, the batch size at byte 35.
func forgeHeaderCRC(s []byte) int {
	d := 0
	for 1<<d < int(s[35]) {
		d++
	}
	return 184 + 16*d - 4
}

// cmdForge is the outsider's attack on a split: shares of a split of their
// own, made with the library, under the split ID (and generation) of a
// genuine share, with its key check and public key copied (all public),
// every CRC recomputed, so that only the signature, which the outsider
// made with their own key, tells them apart.
//
//	forge GENUINE SECRET T OUT...
//
// writes the first shares of a split of SECRET (one chunk: at most 64
// KiB), any T of which recover it, one per OUT, the first OUT being index
// 0; fewer than T OUTs are shares of a split of T.
func cmdForge(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 5 {
		ts.Fatalf("usage: forge GENUINE SECRET T OUT...")
	}
	genuine, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	info, err := shamir.InspectSSMS(genuine)
	ts.Check(err)
	secret, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	if len(secret) > 64<<10 {
		ts.Fatalf("forge: a secret of one chunk only (at most 64 KiB)")
	}
	t, err := strconv.Atoi(args[2])
	ts.Check(err)
	outs := args[3:]
	shares, err := shamir.SplitSSMS(secret, max(len(outs), t), t)
	shares = shares[:len(outs)]
	ts.Check(err)
	for i, s := range shares {
		copy(s[forgeSplitID:], genuine[forgeSplitID:forgeSplitID+16])
		copy(s[forgeGeneration:], genuine[forgeGeneration:forgeGeneration+4])
		copy(s[forgeKeyCheck:forgeSignature], genuine[forgeKeyCheck:forgeSignature])
		hcrc := forgeHeaderCRC(s)
		be.BigEndian.PutUint32(s[hcrc:], crc32.Checksum(s[:hcrc], castagnoli))
		// The one record: its CRC continues that of the header up to the
		// generation with the chunk number (0, 8 bytes) and the record.
		rec := s[hcrc+4:]
		crc := crc32.Update(crc32.Checksum(s[:forgeGeneration], castagnoli), castagnoli, make([]byte, 8))
		crc = crc32.Update(crc, castagnoli, rec[:len(rec)-4])
		be.BigEndian.PutUint32(rec[len(rec)-4:], crc)
		if got, err := shamir.InspectSSMS(s); err != nil || got.SplitID != info.SplitID || got.Generation != info.Generation {
			ts.Fatalf("forge: share %d does not pass for the genuine split: %v", i+1, err)
		}
		ts.Check(os.WriteFile(ts.MkAbs(outs[i]), s, 0o600))
	}
}

// cmdSetgen plants a generation number in a copy of a share, as an
// outsider can without any key: the 4 bytes of the generation rewritten,
// and the header's CRC recomputed (the records' CRCs do not cover it).
//
//	setgen SHARE GEN OUT
func cmdSetgen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: setgen SHARE GEN OUT")
	}
	s, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	gen, err := strconv.ParseUint(args[1], 10, 32)
	ts.Check(err)
	be.BigEndian.PutUint32(s[forgeGeneration:], uint32(gen))
	hcrc := forgeHeaderCRC(s)
	be.BigEndian.PutUint32(s[hcrc:], crc32.Checksum(s[:hcrc], castagnoli))
	if got, err := shamir.InspectSSMS(s); err != nil || got.Generation != uint32(gen) {
		ts.Fatalf("setgen: the share does not pass for generation %d: %v", gen, err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), s, 0o600))
}

// cmdAlter alters the first record of a share: one byte of its fragment
// flipped and the record's CRC recomputed (docs/FORMAT.md, Records), the
// header unchanged, so that its signature still holds.
//
//	alter [-tag | -sig] SHARE OUT [HOLDER...]
//
// With -tag, one byte of the first record's tag is flipped instead, its
// fragment left right; with -sig, one byte of the header's signature, and
// the header's CRC recomputed: changes that reading the secret takes no
// notice of, and that verify must name. Without HOLDER shares it is an outsider's alteration: the record's tag,
// under a key derived from the split's key, is left as it was, and fails.
// With threshold HOLDER shares of the split it is the alteration of
// holders who know the key: the key is recovered from their key shares
// (the Shamir shares at the end of each header, at x = index+1), and the
// record's tag computed again under the record key, so that only the
// decoding bound tells the altered share from the others.
func cmdAlter(ts *testscript.TestScript, neg bool, args []string) {
	what := "fragment"
	if len(args) > 0 && (args[0] == "-tag" || args[0] == "-sig") {
		what, args = args[0][1:], args[1:]
	}
	if neg || len(args) < 2 || (what != "fragment" && len(args) != 2) {
		ts.Fatalf("usage: alter [-tag | -sig] SHARE OUT [HOLDER...]")
	}
	s, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	info, err := shamir.InspectSSMS(s)
	if err != nil || len(s) < info.HeaderSize+9 {
		ts.Fatalf("alter: %s is not an SSMS share: %v", args[0], err)
	}
	overhead := 16 // the AEAD's tag (header byte 7), and with AEAD 3 its nonce
	if s[7] == 3 {
		overhead = 28
	}
	t := info.Threshold
	rec := s[info.HeaderSize:]
	n := int(be.BigEndian.Uint32(rec) &^ (1 << 31))
	f := (n + overhead + t - 1) / t
	if len(rec) < 4+f+16+4 {
		ts.Fatalf("alter: %s is truncated", args[0])
	}
	switch what {
	case "tag":
		rec[4+f+5] ^= 0x5a
	case "sig":
		s[forgeSignature+9] ^= 0x5a
		hcrc := forgeHeaderCRC(s)
		be.BigEndian.PutUint32(s[hcrc:], crc32.Checksum(s[:hcrc], castagnoli))
	default:
		rec[4] ^= 0x5a
	}
	if holders := args[2:]; len(holders) > 0 {
		key := holdersKey(ts, holders)
		copy(rec[4+f:4+f+16], recordTag(ts, key, s[7], s[29], 0, rec[0]&0x80 != 0, rec[:4+f]))
	}
	crc := crc32.Update(crc32.Checksum(s[:forgeGeneration], castagnoli), castagnoli, make([]byte, 8))
	be.BigEndian.PutUint32(rec[4+f+16:], crc32.Update(crc, castagnoli, rec[:4+f+16]))
	if _, err := shamir.InspectSSMS(s); err != nil {
		ts.Fatalf("alter: the altered share does not pass its checks: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), s, 0o600))
}

// holdersKey recovers the key of a split from the key shares of threshold
// of its shares, the files holders, as they can together: each key share
// is the 32 bytes before the header's CRC, a Shamir share at x = index+1,
// in Vault's layout once x is appended.
func holdersKey(ts *testscript.TestScript, holders []string) []byte {
	var parts [][]byte
	for _, h := range holders {
		b, err := os.ReadFile(ts.MkAbs(h))
		ts.Check(err)
		info, err := shamir.InspectSSMS(b)
		ts.Check(err)
		ks := b[info.HeaderSize-36 : info.HeaderSize-4]
		parts = append(parts, append(slices.Clone(ks), byte(info.Index+1)))
	}
	key, err := shamir.Combine(parts)
	ts.Check(err)
	return key
}

// recordTag is the tag of a record (docs/FORMAT.md, Records): under the
// record key HKDF-SHA256(key, no salt, "GFSSMS record key"), over the
// record nonce index ‖ chunk (10 bytes) ‖ last flag and body, the record's
// length word and fragment: the split's AEAD sealing nothing with body as
// associated data (AEADs 1 and 2), or HMAC-SHA256 of the nonce and body,
// its first 16 bytes (AEAD 3).
func recordTag(ts *testscript.TestScript, key []byte, aeadID, index byte, chunk uint64, last bool, body []byte) []byte {
	rk, err := hkdf.Key(sha256.New, key, nil, "GFSSMS record key", 32)
	ts.Check(err)
	nonce := make([]byte, 12)
	nonce[0] = index
	be.BigEndian.PutUint64(nonce[3:11], chunk)
	if last {
		nonce[11] = 1
	}
	var aead cipher.AEAD
	switch aeadID {
	case 1:
		b, err := aes.NewCipher(rk)
		ts.Check(err)
		aead, err = cipher.NewGCM(b)
		ts.Check(err)
	case 2:
		aead, err = chacha20poly1305.New(rk)
		ts.Check(err)
	default:
		m := hmac.New(sha256.New, rk)
		m.Write(nonce)
		m.Write(body)
		return m.Sum(nil)[:16]
	}
	return aead.Seal(nil, nonce, nil, body)
}
