package shamir

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	mrand "math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// The attacks of issue #18, as an attacker would mount them: from the
// public format (docs/FORMAT.md) alone. The offsets and computations below
// are written from the document, not from the package's constants, so that
// they check the document too.

// Header offsets of format 4, from docs/FORMAT.md. The path, the key share
// and the CRC follow at offsets that depend on the batch size.
const (
	fmtSplitID    = 13
	fmtIndex      = 29
	fmtGeneration = 30
	fmtBatchFirst = 34
	fmtBatchSize  = 35
	fmtKeyCheck   = 36
	fmtPublicKey  = 52
	fmtSignature  = 84
	fmtPath       = 148
)

var fmtCastagnoli = crc32.MakeTable(crc32.Castagnoli)

// fmtDepth is the depth of the Merkle tree of a batch of size shares:
// ⌈log2 size⌉.
func fmtDepth(size int) int {
	d := 0
	for 1<<d < size {
		d++
	}
	return d
}

// fmtHeaderLen is the length of the header of the share s, 184 + 16·depth;
// fmtKeyShareAt and fmtCRCAt where its key share and CRC are.
func fmtHeaderLen(s []byte) int     { return 184 + 16*fmtDepth(int(s[fmtBatchSize])) }
func fmtKeyShareAt(s []byte) int    { return fmtHeaderLen(s) - 36 }
func fmtCRCAt(s []byte) int         { return fmtHeaderLen(s) - 4 }
func fmtKeyShareOf(s []byte) []byte { return s[fmtKeyShareAt(s):fmtCRCAt(s)] }

// fmtRoot computes the root of the batch tree that the leaf of the share s
// reaches through its path: the leaf SHA-256("GFSSMS leaf" ‖ index ‖
// key share)[0:16], then at each level SHA-256("GFSSMS node" ‖ left ‖
// right)[0:16], the leaf's side given by the bits of index − first, from
// the lowest.
func fmtRoot(s []byte) []byte {
	h := sha256.Sum256(slices.Concat([]byte("GFSSMS leaf"), s[fmtIndex:fmtIndex+1], fmtKeyShareOf(s)))
	pos := int(s[fmtIndex]) - int(s[fmtBatchFirst])
	for i := range fmtDepth(int(s[fmtBatchSize])) {
		sib := s[fmtPath+16*i : fmtPath+16*i+16]
		if pos&1 == 0 {
			h = sha256.Sum256(slices.Concat([]byte("GFSSMS node"), h[:16], sib))
		} else {
			h = sha256.Sum256(slices.Concat([]byte("GFSSMS node"), sib, h[:16]))
		}
		pos >>= 1
	}
	return h[:16]
}

// fmtStatement is the batch statement of the share s, with its batch's
// root: bytes 0…28, the generation, the batch's first index and size, the
// key check, the public key, the root.
func fmtStatement(s, root []byte) []byte {
	return slices.Concat(s[:fmtIndex], s[fmtGeneration:fmtSignature], root)
}

// keyOfShares recovers the key of a split from threshold of its shares, as
// anyone holding them can: the key shares are Shamir shares of it at
// x = index+1, in Vault's layout once x is appended.
func keyOfShares(t testing.TB, shares [][]byte) []byte {
	t.Helper()
	parts := make([][]byte, len(shares))
	for i, s := range shares {
		parts[i] = append(slices.Clone(fmtKeyShareOf(s)), s[fmtIndex]+1)
	}
	key, err := Combine(parts)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// fmtSigningKey derives the header signing key of the split key key, as
// docs/FORMAT.md defines it: the Ed25519 key whose seed is
// HKDF-SHA256(key, no salt, "GFSSMS header signing key").
func fmtSigningKey(key []byte) ed25519.PrivateKey {
	seed, err := hkdf.Key(sha256.New, key, nil, "GFSSMS header signing key", 32)
	if err != nil {
		panic(err)
	}
	return ed25519.NewKeyFromSeed(seed)
}

// reseal recomputes, as docs/FORMAT.md defines them, the signature of the
// share s under the signing key of the split key key over the statement
// of the root that its leaf (its key share) reaches through its path
// (unchanged), its header CRC, every record tag under the record key of
// key, and every record CRC. It does not touch the public key or the key
// check. The shares of one batch whose leaves did not change keep one
// root, so one statement.
func reseal(s, key []byte) {
	copy(s[fmtSignature:fmtPath], ed25519.Sign(fmtSigningKey(key), fmtStatement(s, fmtRoot(s))))
	fmtRetag(s, key)
	fixCRCsFromFormat(s)
}

// fmtRecords returns the records of s, as docs/FORMAT.md lays them out:
// each record's start, where its tag starts (after the length word and
// the fragment) and where its CRC starts (after the 16-byte tag), and
// whether it is the last.
func fmtRecords(s []byte) (recs [][3]int, last []bool) {
	overhead := 16
	if s[7] == 3 {
		overhead = 28
	}
	t := int(s[8])
	for off := fmtHeaderLen(s); off+4 <= len(s); {
		w := binary.BigEndian.Uint32(s[off:])
		n := int(w &^ (1 << 31))
		f := (n + overhead + t - 1) / t
		recs = append(recs, [3]int{off, off + 4 + f, off + 4 + f + 16})
		last = append(last, w>>31 == 1)
		off += 4 + f + 16 + 4
	}
	return recs, last
}

// fmtRetag recomputes every record tag of s under the record key of the
// split key key, HKDF-SHA256(key, no salt, "GFSSMS record key"), over the
// nonce i ‖ k (10 bytes) ‖ last flag and the record's length word and
// fragment: the split's AEAD sealing nothing, the record's bytes as
// associated data (AEADs 1 and 2), or HMAC-SHA256 of the nonce and the
// record's bytes, its first 16 bytes (AEAD 3). Only holders of the key can.
func fmtRetag(s, key []byte) {
	rk, err := hkdf.Key(sha256.New, key, nil, "GFSSMS record key", 32)
	if err != nil {
		panic(err)
	}
	var aead cipher.AEAD
	switch s[7] {
	case 1:
		b, _ := aes.NewCipher(rk)
		aead, err = cipher.NewGCM(b)
	case 2:
		aead, err = chacha20poly1305.New(rk)
	}
	if err != nil {
		panic(err)
	}
	recs, last := fmtRecords(s)
	for k, r := range recs {
		if r[2]+4 > len(s) {
			break
		}
		nonce := make([]byte, 12)
		nonce[0] = s[fmtIndex]
		binary.BigEndian.PutUint64(nonce[3:11], uint64(k))
		if last[k] {
			nonce[11] = 1
		}
		body := s[r[0]:r[1]]
		var tag []byte
		if s[7] == 3 {
			m := hmac.New(sha256.New, rk)
			m.Write(nonce)
			m.Write(body)
			tag = m.Sum(nil)[:16]
		} else {
			tag = aead.Seal(nil, nonce, nil, body)
		}
		copy(s[r[1]:r[2]], tag)
	}
}

// fixCRCsFromFormat recomputes the header CRC and every record CRC of s,
// as anyone can: a record's CRC covers header bytes 0…29, the chunk
// number (8 bytes), and the record up to its CRC, its tag included.
func fixCRCsFromFormat(s []byte) {
	crc := fmtCRCAt(s)
	binary.BigEndian.PutUint32(s[crc:], crc32.Checksum(s[:crc], fmtCastagnoli))
	seed := crc32.Checksum(s[:30], fmtCastagnoli)
	recs, _ := fmtRecords(s)
	for k, r := range recs {
		if r[2]+4 > len(s) {
			break
		}
		var num [8]byte
		binary.BigEndian.PutUint64(num[:], uint64(k))
		crc := crc32.Update(crc32.Update(seed, fmtCastagnoli, num[:]), fmtCastagnoli, s[r[0]:r[2]])
		binary.BigEndian.PutUint32(s[r[2]:], crc)
	}
}

// How an outsider forges headers: the split ID copied, and either the
// victim's public key and key check copied too (the split ID checks, the
// signature, made with the outsider's own key, does not), or their own
// kept (the signature checks under it, the split ID does not).
const (
	copyPublicKey = iota
	ownPublicKey
)

// outsiderSplit returns the shares of a split of secret that an outsider
// makes under the split ID of victim, a share they can read: their own
// key, the victim's parameters, split ID, public key and key check (public
// in every header), every signature they can make and checksum computed.
func outsiderSplit(t testing.TB, victim, secret []byte, parts int) [][]byte {
	return outsiderSplitAs(t, victim, secret, parts, copyPublicKey)
}

// outsiderSplitAs is outsiderSplit, the public key copied or not.
func outsiderSplitAs(t testing.TB, victim, secret []byte, parts, how int) [][]byte {
	t.Helper()
	threshold := int(victim[8])
	chunk := int(binary.BigEndian.Uint32(victim[9:]))
	shares, err := splitSSMS(secret, parts, threshold, chunk, victim[7], rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key := keyOfShares(t, shares[:threshold])
	for _, s := range shares {
		copy(s[fmtSplitID:fmtIndex], victim[fmtSplitID:fmtIndex])
		if how == copyPublicKey {
			copy(s[fmtKeyCheck:fmtSignature], victim[fmtKeyCheck:fmtSignature])
		}
		reseal(s, key)
	}
	return shares
}

// insiderSplit returns the shares of a split of secret made under the key
// of victims (threshold of its shares), as holders who know the key can:
// the split ID and the signatures are then right, and the key shares lie on
// another polynomial through the same key.
func insiderSplit(t testing.TB, victims [][]byte, secret []byte, parts int) [][]byte {
	t.Helper()
	v := victims[0]
	key := keyOfShares(t, victims)
	chunk := int(binary.BigEndian.Uint32(v[9:]))
	shares, err := splitSSMS(secret, parts, int(v[8]), chunk, v[7], io.MultiReader(bytes.NewReader(key), rand.Reader))
	if err != nil {
		t.Fatal(err)
	}
	return shares
}

// attackCase checks one set of shares given to every combining form: never
// the attacker's secret; the genuine secret, with exactly the shares at
// forged named, when want is set; otherwise the genuine secret or a refusal.
func attackCase(t *testing.T, where string, given [][]byte, genuine, attacker []byte, want bool, forged []int, why Reason) {
	t.Helper()
	forms := []struct {
		name    string
		combine func([][]byte) ([]byte, []BadShare, error)
	}{{"CombineSSMS", CombineSSMS}, {"reader", combineStream}}
	for _, f := range forms {
		got, bad, err := f.combine(given)
		if err == nil && !bytes.Equal(got, genuine) {
			t.Fatalf("%s: %s: a wrong secret (the attacker's: %v), bad %v", where, f.name, bytes.Equal(got, attacker), bad)
		}
		if !want {
			if err != nil && !errors.Is(err, ErrInconsistentShares) && !errors.Is(err, ErrNotEnoughShares) {
				t.Fatalf("%s: %s: %v", where, f.name, err)
			}
			continue
		}
		var wantBad []BadShare
		for _, p := range forged {
			wantBad = append(wantBad, BadShare{Position: p, Reason: why})
		}
		if err != nil || !slices.Equal(bad, wantBad) {
			t.Fatalf("%s: %s: %d bytes, bad %v, %v; want the secret and %v", where, f.name, len(got), bad, err, wantBad)
		}
	}
}

// TestSSMSOutsiderSplit is issue #18's item 1: an outsider's own valid
// split under the genuine split ID, its shares replacing genuine ones or
// added to them, before and after, with and without copies, is never
// recovered, and its shares are named Forged.
func TestSSMSOutsiderSplit(t *testing.T) {
	schemes := [][2]int{{3, 2}, {7, 2}, {10, 3}, {12, 4}, {9, 5}}
	if !testing.Short() {
		schemes = append(schemes, [2]int{255, 60})
	}
	for _, sh := range schemes {
		n, th := sh[0], sh[1]
		for _, size := range []int{40, 300} {
			genuine := testSecret(size, uint64(n+size))
			attacker := bytes.Repeat([]byte("attacker"), size/8)
			shares := mustSplitSSMS(t, genuine, n, th, 128, defaultAEAD(), uint64(n*th))
			evil := outsiderSplit(t, shares[0], attacker, n)
			if id := splitID(t, evil[0]); id != splitID(t, shares[0]) {
				t.Fatal("the outsider's split has another ID")
			}
			// Replacing: the first k shares are the outsider's.
			for _, k := range []int{1, th - 1, th, n - th, n - 1} {
				if k < 1 || k >= n {
					continue
				}
				given := append(slices.Clone(evil[:k]), shares[k:]...)
				where := fmt.Sprintf("(%d,%d) %d bytes, %d replaced", n, th, size, k)
				attackCase(t, where, given, genuine, attacker, n-k >= th, seq(0, k), Forged)
				// Last instead of first.
				given = append(slices.Clone(shares[:n-k]), evil[n-k:]...)
				attackCase(t, where+" at the end", given, genuine, attacker, n-k >= th, seq(n-k, n), Forged)
			}
			// Adding: every genuine share, and threshold of the outsider's
			// (copies of genuine indexes), before and after.
			before := append(slices.Clone(evil[:th]), shares...)
			attackCase(t, fmt.Sprintf("(%d,%d) %d added before", n, th, th), before, genuine, attacker, true, seq(0, th), Forged)
			after := append(slices.Clone(shares), evil[:th]...)
			attackCase(t, fmt.Sprintf("(%d,%d) %d added after", n, th, th), after, genuine, attacker, true, seq(n, n+th), Forged)
			// With the outsider's shares given twice over, and all of theirs.
			many := append(append(slices.Clone(evil), evil...), shares[:th]...)
			attackCase(t, fmt.Sprintf("(%d,%d) all forged twice, %d genuine", n, th, th), many, genuine, attacker, true, seq(0, 2*n), Forged)
		}
	}
}

// TestSSMSOutsiderStreams: the lifecycle functions keep to the genuine
// split too.
func TestSSMSOutsiderLifecycle(t *testing.T) {
	genuine := testSecret(500, 3)
	shares := mustSplitSSMS(t, genuine, 7, 2, 128, defaultAEAD(), 3)
	evil := outsiderSplit(t, shares[0], bytes.Repeat([]byte{0xee}, 500), 7)
	given := append(slices.Clone(evil[:2]), shares[2:]...) // shares 1 and 2 replaced
	got, bad, err := RecreateSSMS(given, 0, 1)
	if err != nil || !bytes.Equal(got[0], shares[0]) || !bytes.Equal(got[1], shares[1]) || len(bad) != 2 || bad[0].Reason != Forged {
		t.Fatalf("RecreateSSMS: %v, bad %v", err, bad)
	}
	ext, _, err := ExtendSSMS(given, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err := CombineSSMS(append(ext, shares[3])); err != nil || !bytes.Equal(s, genuine) {
		t.Fatalf("ExtendSSMS made a share that does not combine with the genuine ones: %v", err)
	}
	re, _, err := ReshareSSMS(given, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err := CombineSSMS(re); err != nil || !bytes.Equal(s, genuine) {
		t.Fatalf("ReshareSSMS: %v", err)
	}
	rs := make([]io.Reader, len(given))
	for i, s := range given {
		rs[i] = bytes.NewReader(s)
	}
	if h, err := RefreshSSMS(rs); h != nil || !errors.Is(err, ErrInconsistentShares) {
		t.Fatalf("RefreshSSMS with forged shares: %v", err)
	}
}

// TestSSMSInsiderSplit: holders who know the key make shares of another
// plaintext under it (the ID and signatures right, the key shares on another
// polynomial). Within the bound the genuine secret comes back with them
// named; beyond it, the genuine secret or a refusal, never theirs.
func TestSSMSInsiderSplit(t *testing.T) {
	for _, sh := range [][2]int{{3, 2}, {5, 2}, {7, 3}, {9, 4}} {
		n, th := sh[0], sh[1]
		genuine := testSecret(200, uint64(n))
		attacker := bytes.Repeat([]byte{0xaa}, 200)
		shares := mustSplitSSMS(t, genuine, n, th, 64, defaultAEAD(), uint64(n+th))
		evil := insiderSplit(t, shares[:th], attacker, n)
		for e := 1; e <= n; e++ {
			given := append(slices.Clone(evil[:e]), shares[e:]...)
			within := 2*e <= n-th
			where := fmt.Sprintf("(%d,%d) %d of the insider's in place of genuine ones", n, th, e)
			if 2*(n-e) > n-th {
				// Unless the insiders' shares are within the bound of
				// theirs: then the genuine ones are, to the decoder, the
				// altered ones, and a majority of holders who know the
				// key is as strong as the dealer.
				attackCase(t, where, given, genuine, attacker, within, seq(0, e), Inconsistent)
			}
			// Added beside all the genuine shares, as copies.
			added := append(slices.Clone(evil[:e]), shares...)
			// Per index: a = n, and e values disagree: within when n >= th+e.
			attackCase(t, where+", added", added, genuine, attacker, n >= th+e, seq(0, e), Inconsistent)
		}
	}
}

// TestSSMSTwoConsistentSets: two groups of threshold shares that each open
// (the insider's split and the genuine one, as many of each) are refused,
// the error listing both, whatever the order.
func TestSSMSTwoConsistentSets(t *testing.T) {
	genuine := testSecret(100, 9)
	shares := mustSplitSSMS(t, genuine, 4, 2, 64, defaultAEAD(), 9)
	evil := insiderSplit(t, shares[:2], bytes.Repeat([]byte{1}, 100), 4)
	given := [][]byte{shares[0], shares[1], evil[2], evil[3]}
	for _, perm := range permutations(len(given)) {
		p := make([][]byte, len(given))
		for i, j := range perm {
			p[i] = given[j]
		}
		got, _, err := CombineSSMS(p)
		var ce *CombineError
		if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) {
			t.Fatalf("order %v: %d bytes, %v; want a refusal", perm, len(got), err)
		}
	}
}

// permutations returns every order of 0…n−1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(slices.Clone(p[:i]), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestSSMSOrderIndependent: the result (the secret or the kind of error,
// and which shares are bad, by content) does not depend on the order of
// the shares or on which copy of an index comes first.
func TestSSMSOrderIndependent(t *testing.T) {
	genuine := testSecret(150, 21)
	shares := mustSplitSSMS(t, genuine, 4, 2, 64, defaultAEAD(), 21)
	evil := outsiderSplit(t, shares[0], bytes.Repeat([]byte{2}, 150), 4)
	insider := insiderSplit(t, shares[:2], bytes.Repeat([]byte{3}, 150), 4)
	altered := slices.Clone(shares[1])
	forge(altered, hl(altered)+10, 0x44)
	sets := [][][]byte{
		{shares[0], evil[0], shares[1], evil[1], shares[2]},
		{shares[0], insider[1], shares[1], shares[2]},
		{shares[0], altered, shares[1], shares[2]},
		{evil[0], evil[1], shares[2], insider[3], shares[3]},
		{shares[0], shares[0], altered, evil[2]},
	}
	for si, set := range sets {
		var first string
		for _, perm := range permutations(len(set)) {
			p := make([][]byte, len(set))
			for i, j := range perm {
				p[i] = set[j]
			}
			got, bad, err := CombineSSMS(p)
			var badOf []string
			for _, b := range allBad(bad, err) {
				if b.Reason != Duplicate {
					badOf = append(badOf, fmt.Sprintf("%x:%v", sha256.Sum256(p[b.Position]), b.Reason))
				}
			}
			slices.Sort(badOf)
			kind := "ok"
			switch {
			case errors.Is(err, ErrInconsistentShares):
				kind = "inconsistent"
			case errors.Is(err, ErrNotEnoughShares):
				kind = "not enough"
			case err != nil:
				kind = err.Error()
			}
			if err == nil && !bytes.Equal(got, genuine) {
				t.Fatalf("set %d order %v: a wrong secret", si, perm)
			}
			res := fmt.Sprint(kind, badOf)
			if first == "" {
				first = res
			} else if res != first {
				t.Fatalf("set %d order %v: %s; another order gave %s", si, perm, res, first)
			}
		}
	}
}

// TestSSMSManyCopies is issue #18's item 4: copies are grouped in linear
// time. (The figure is BenchmarkCombineSSMSCopies's; this bound is
// generous.)
func TestSSMSManyCopies(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	secret := testSecret(32, 5)
	shares := mustSplitSSMS(t, secret, 3, 2, defaultChunkSize, defaultAEAD(), 5)
	given := make([][]byte, 0, n+2)
	for range n {
		given = append(given, shares[0])
	}
	given = append(given, shares[1], shares[2])
	got, bad, err := CombineSSMS(given)
	if err != nil || !bytes.Equal(got, secret) || len(bad) != n-1 {
		t.Fatalf("%d copies: %v, %d bad", n, err, len(bad))
	}
}

// FuzzCombineSSMSAttack mixes, under one split ID, genuine shares of the
// current generation, shares of the generation before (a refresh), an
// outsider's own valid split, and genuine shares altered with every
// checksum recomputed, in any order and number: never a wrong secret, an
// untouched current share never named bad but as a copy, and within the
// bound (counting the altered shares) the secret recovered.
func FuzzCombineSSMSAttack(f *testing.F) {
	secret := testSecret(90, 8)
	const parts, threshold = 5, 2
	old := mustSplitSSMS(f, secret, parts, threshold, 32, defaultAEAD(), 8)
	headers, err := refreshHeaders(old)
	if err != nil {
		f.Fatal(err)
	}
	cur := make([][]byte, parts)
	for i := range cur {
		cur[i] = append(slices.Clone(headers[i]), old[i][hl(old[i]):]...)
	}
	evil := outsiderSplit(f, cur[0], bytes.Repeat([]byte{0xee}, 90), parts)
	info, err := InspectSSMS(cur[0])
	if err != nil {
		f.Fatal(err)
	}
	name := SplitName{ID: info.SplitID, Generation: 1}
	// Each op is two bytes: the source (0 current, 1 old, 2 outsider, 3
	// current altered) and index in the first, a byte offset or value in
	// the second.
	f.Add([]byte{0x00, 0, 0x01, 0, 0x02, 0})
	f.Add([]byte{0x20, 0, 0x21, 0, 0x02, 0, 0x03, 0, 0x04, 0})
	f.Add([]byte{0x10, 0, 0x11, 0, 0x02, 0, 0x03, 0, 0x04, 0})
	f.Add([]byte{0x30, 100, 0x01, 0, 0x02, 0, 0x03, 0})
	f.Add([]byte{0x30, 40, 0x31, 50, 0x02, 0, 0x03, 0, 0x04, 0, 0x00, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var given [][]byte
		var untouched []bool // a current share, unchanged
		recordAltered := map[string]bool{}
		for ; len(ops) >= 2 && len(given) < 24; ops = ops[2:] {
			i := int(ops[0]&0x0f) % parts
			switch ops[0] >> 4 & 3 {
			case 0:
				given, untouched = append(given, cur[i]), append(untouched, true)
			case 1:
				given, untouched = append(given, old[i]), append(untouched, false)
			case 2:
				given, untouched = append(given, evil[i]), append(untouched, false)
			case 3:
				s := slices.Clone(cur[i])
				k := int(ops[1]) % len(s)
				if k >= crcOff(s) && k < hl(s) || k >= hdrSignature && k < keyShareOff(s) && ops[1]&1 == 0 {
					k = keyShareOff(s)
				}
				s[k] ^= 1 + ops[1]>>4
				fixCRCs(s, cur[i])
				given, untouched = append(given, s), append(untouched, false)
				if k >= hl(cur[i]) && !bytes.Equal(s, cur[i]) {
					recordAltered[string(s)] = true
				}
			}
		}
		got, bad, err := CombineSSMSSplit(given, name)
		if err == nil && !bytes.Equal(got, secret) {
			t.Fatalf("a wrong secret (the outsider's: %v)", bytes.Equal(got[:1], []byte{0xee}))
		}
		all := allBad(bad, err)
		checkReasons(t, all)
		for _, b := range all {
			if untouched[b.Position] && b.Reason != Duplicate {
				t.Fatalf("an untouched current share named: %v (err %v)", b, err)
			}
		}
		good := map[int]bool{}
		for k, s := range given {
			if untouched[k] {
				good[int(s[hdrIndex])] = true
			}
		}
		// Everything but the untouched current shares was made or altered
		// without the key: a header altered fails its signature, a record
		// altered its tag, and neither counts. Any threshold genuine
		// indexes recover the secret.
		if len(good) >= threshold && err != nil {
			t.Fatalf("%d good indexes, %d shares with altered records: %v", len(good), len(recordAltered), err)
		}
	})
}

// refreshHeaders returns shares' refreshed headers.
func refreshHeaders(shares [][]byte) ([][]byte, error) {
	hs := make([][]byte, len(shares))
	for i, s := range shares {
		hs[i] = s[:hl(s)]
	}
	return RefreshSSMSHeaders(hs)
}

// TestSSMSAlteredCopiesFirst: holders of the key give altered copies of
// six of the fourteen shares of a (14,8) split, each before the genuine
// share of its index. The genuine codeword is within the bound (a = 14
// indexes agree, e = 6 values disagree), so it must be recovered and the
// six named, though the first value of each index is altered at six of
// them, beyond what decoding from first values corrects, and C(20,8)
// subsets are far more than the decoder tries. Once in the records, once
// in the key shares (the signatures made again with the key), where the key
// polynomial is decided.
func TestSSMSAlteredCopiesFirst(t *testing.T) {
	secret := testSecret(300, 51)
	shares := mustSplitSSMS(t, secret, 14, 8, 64, defaultAEAD(), 51)
	key := keyOfShares(t, shares[:8])
	for _, where := range []string{"record", "key share"} {
		var given [][]byte
		var want []BadShare
		for i := range 6 {
			c := slices.Clone(shares[i])
			if where == "record" {
				c[fmtHeaderLen(c)+4+i] ^= 0x33
			} else {
				c[fmtKeyShareAt(c)+i] ^= 0x33
			}
			reseal(c, key)
			want = append(want, BadShare{Position: len(given), Reason: Inconsistent})
			given = append(given, c)
		}
		given = append(given, shares...)
		got, bad, err := CombineSSMS(given)
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
			t.Errorf("%s: CombineSSMS = %d bytes, %v, %v; want the secret, %v", where, len(got), bad, err, want)
		}
		got, bad, err = combineStream(given)
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
			t.Errorf("%s: reader = %d bytes, %v, %v; want the secret, %v", where, len(got), bad, err, want)
		}
	}
}

// TestSSMSSignatureOnly: a genuine share whose signature alone was changed
// (checksums recomputed) holds every genuine field, so combining shares
// that all agree takes the secret from it without checking a signature;
// it is named Forged as soon as the signatures decide something: beside a
// share that disagrees, and always before a lifecycle function writes.
func TestSSMSSignatureOnly(t *testing.T) {
	secret := testSecret(100, 77)
	shares := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 77)
	changed := slices.Clone(shares[1])
	changed[fmtSignature+7] ^= 0x10
	fixCRCsFromFormat(changed)
	given := [][]byte{shares[0], changed, shares[2]}
	if got, bad, err := CombineSSMS(given); err != nil || !bytes.Equal(got, secret) || len(bad) != 0 {
		t.Fatalf("shares that agree: %v, %v", bad, err)
	}
	evil := outsiderSplit(t, shares[0], bytes.Repeat([]byte{9}, 100), 5)
	want := []BadShare{{Position: 1, Reason: Forged}, {Position: 3, Reason: Forged}}
	if got, bad, err := CombineSSMS(append(slices.Clone(given), evil[3], shares[3])); err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
		t.Fatalf("beside a forged share: %v, %v; want %v", bad, err, want)
	}
	if _, bad, err := RecreateSSMS(append(slices.Clone(given), shares[4]), 1); err != nil || !slices.Equal(bad, want[:1]) {
		t.Fatalf("RecreateSSMS: %v, %v", bad, err)
	}
	hs := [][]byte{shares[0][:fmtHeaderLen(shares[0])], changed[:fmtHeaderLen(changed)], shares[2][:fmtHeaderLen(shares[2])], shares[3][:fmtHeaderLen(shares[3])]}
	var ce *CombineError
	if _, err := RefreshSSMSHeaders(hs); !errors.As(err, &ce) || !slices.Equal(ce.Bad, want[:1]) {
		t.Fatalf("RefreshSSMSHeaders: %v", err)
	}
}

// outsiderCase checks that the shares given, of which those at forged are
// an outsider's and the others genuine (copies of one genuine share
// allowed), recover the genuine secret by every combining form, with
// exactly the forged shares named, each Forged, and a genuine share named
// only as a Duplicate of another.
func outsiderCase(t *testing.T, where string, given [][]byte, forged map[int]bool, genuine []byte) {
	t.Helper()
	for _, f := range []struct {
		name    string
		combine func([][]byte) ([]byte, []BadShare, error)
	}{{"CombineSSMS", CombineSSMS}, {"reader", combineStream}} {
		got, bad, err := f.combine(given)
		if err != nil || !bytes.Equal(got, genuine) {
			t.Fatalf("%s: %s: %d bytes (the genuine secret: %v), %v", where, f.name, len(got), bytes.Equal(got, genuine), err)
		}
		named := 0
		for _, b := range bad {
			switch {
			case forged[b.Position] && b.Reason == Forged:
				named++
			case !forged[b.Position] && b.Reason == Duplicate:
			default:
				t.Fatalf("%s: %s: %v named (forged: %v)", where, f.name, b, forged[b.Position])
			}
		}
		if named != len(forged) {
			t.Fatalf("%s: %s: %d of %d forged shares named", where, f.name, named, len(forged))
		}
	}
}

// shuffled returns given in the order perm and the forged positions
// moved with it.
func shuffled(given [][]byte, forged map[int]bool, perm []int) ([][]byte, map[int]bool) {
	p := make([][]byte, len(given))
	f := make(map[int]bool)
	for i, j := range perm {
		p[i] = given[j]
		if forged[j] {
			f[i] = true
		}
	}
	return p, f
}

// TestSSMSOutsiderCannotBlock is issue #24's promise, tried from
// docs/FORMAT.md as an outsider would: threshold genuine shares, and
// beside them any number of shares an outsider made (their own key and
// secret, the victim's split ID, parameters, public key and key check
// copied, or their own public key kept; every signature they can make and
// checksum computed), at the indexes the genuine ones use and at others,
// as copies, in place of every other genuine share, in any order: the
// genuine secret, every forged share named Forged, no genuine one blamed.
func TestSSMSOutsiderCannotBlock(t *testing.T) {
	schemes := [][2]int{{3, 2}, {4, 3}, {5, 3}, {10, 3}, {12, 10}, {17, 16}, {20, 8}}
	if !testing.Short() {
		schemes = append(schemes, [2]int{255, 60}, [2]int{255, 128}, [2]int{255, 254})
	}
	rng := mrand.New(mrand.NewPCG(24, 4))
	for _, sh := range schemes {
		n, th := sh[0], sh[1]
		genuine := testSecret(300, uint64(n*th))
		shares := mustSplitSSMS(t, genuine, n, th, 128, defaultAEAD(), uint64(n+th))
		attacker := bytes.Repeat([]byte("attacker"), 300/8)
		// Two outsiders' splits, over every index: one with the victim's
		// public key copied, one with its own.
		more := min(maxIndex+1, n+8)
		evil := outsiderSplitAs(t, shares[0], attacker, more, copyPublicKey)
		own := outsiderSplitAs(t, shares[0], attacker, more, ownPublicKey)
		for round := range 3 {
			// Threshold genuine shares at random indexes.
			idx := rng.Perm(n)[:th]
			var given [][]byte
			forged := map[int]bool{}
			add := func(s []byte, f bool) {
				if f {
					forged[len(given)] = true
				}
				given = append(given, s)
			}
			for _, i := range idx {
				add(shares[i], false)
			}
			where := fmt.Sprintf("(%d,%d) round %d", n, th, round)
			switch round {
			case 0: // replacing every other genuine share, and beyond
				for i := range more {
					if !slices.Contains(idx, i) {
						add(evil[i], true)
					}
				}
				where += ", the others replaced"
			case 1: // at the genuine indexes, twice, both kinds
				for _, i := range idx {
					add(evil[i], true)
					add(own[i], true)
					add(evil[i], true)
				}
				where += ", at the genuine indexes"
			case 2: // 50 planted at random indexes, used or not, and a genuine copy
				for range 50 {
					i := rng.IntN(more)
					if rng.IntN(2) == 0 {
						add(evil[i], true)
					} else {
						add(own[i], true)
					}
				}
				add(shares[idx[0]], false)
				where += ", 50 planted"
			}
			for k := range 3 {
				p, f := shuffled(given, forged, rng.Perm(len(given)))
				outsiderCase(t, fmt.Sprintf("%s, shuffle %d", where, k), p, f, genuine)
			}
		}
	}
}

// TestSSMSOutsiderEveryOrder tries every order of small mixed sets:
// genuine shares, an outsider's at used and unused indexes, with and
// without the victim's public key, and copies.
func TestSSMSOutsiderEveryOrder(t *testing.T) {
	for _, sh := range [][2]int{{3, 2}, {4, 3}} {
		n, th := sh[0], sh[1]
		genuine := testSecret(150, uint64(n))
		shares := mustSplitSSMS(t, genuine, n, th, 64, defaultAEAD(), uint64(th))
		evil := outsiderSplitAs(t, shares[0], bytes.Repeat([]byte{5}, 150), n+2, copyPublicKey)
		own := outsiderSplitAs(t, shares[0], bytes.Repeat([]byte{6}, 150), n+2, ownPublicKey)
		sets := [][][]byte{
			append(slices.Clone(shares[:th]), evil[0], own[n+1], evil[n]),
			append(slices.Clone(shares[1:th+1]), evil[0], evil[1], own[1]),
			append(slices.Clone(shares[:th]), evil[th-1], evil[th-1], evil[th]),
		}
		for si, set := range sets {
			forged := map[int]bool{}
			for k := th; k < len(set); k++ {
				forged[k] = true
			}
			for _, perm := range permutations(len(set)) {
				p, f := shuffled(set, forged, perm)
				outsiderCase(t, fmt.Sprintf("(%d,%d) set %d order %v", n, th, si, perm), p, f, genuine)
			}
		}
	}
}

// TestSSMSInsiderBound: holders who know the key sign shares of another
// plaintext, on another key polynomial through the same key, in place of
// genuine shares or added beside them. Within the documented bound
// (a >= t + e, docs/FORMAT.md) the genuine secret comes back with theirs
// named Inconsistent; beyond it, unless theirs are within the bound of
// their own polynomial (then they are, to the decoder, the genuine ones),
// a refusal whose Sets name two groups of shares, the first of at least
// threshold.
func TestSSMSInsiderBound(t *testing.T) {
	for _, sh := range [][2]int{{3, 2}, {5, 2}, {7, 3}, {9, 4}, {12, 4}} {
		n, th := sh[0], sh[1]
		genuine := testSecret(200, uint64(n*3))
		attacker := bytes.Repeat([]byte{0xab}, 200)
		shares := mustSplitSSMS(t, genuine, n, th, 64, defaultAEAD(), uint64(n+3*th))
		evil := insiderSplit(t, shares[:th], attacker, n)
		for e := 1; e <= n; e++ {
			for _, added := range []bool{false, true} {
				given := append(slices.Clone(evil[:e]), shares[e:]...)
				a, theirs := n-e, e // indexes on the genuine polynomial; values off it
				if added {
					given = append(slices.Clone(evil[:e]), shares...)
					a = n
				}
				where := fmt.Sprintf("(%d,%d) %d insiders', added %v", n, th, e, added)
				if !added && 2*(n-e) <= n-th {
					continue // theirs within their own bound: as strong as the dealer
				}
				for _, f := range []struct {
					name    string
					combine func([][]byte) ([]byte, []BadShare, error)
				}{{"CombineSSMS", CombineSSMS}, {"reader", combineStream}} {
					got, bad, err := f.combine(given)
					if a >= th+theirs {
						want := make([]BadShare, e)
						for k := range want {
							want[k] = BadShare{Position: k, Reason: Inconsistent}
						}
						if err != nil || !bytes.Equal(got, genuine) || !slices.Equal(bad, want) {
							t.Fatalf("%s: %s: within the bound: %v, %v", where, f.name, bad, err)
						}
						continue
					}
					var ce *CombineError
					if err == nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) ||
						len(ce.Sets) != 2 || len(ce.Sets[0]) < th || len(ce.Sets[1]) == 0 {
						t.Fatalf("%s: %s: beyond the bound: %d bytes (genuine %v), %v; want a refusal with two sets", where, f.name, len(got), bytes.Equal(got, genuine), err)
					}
				}
			}
		}
	}
}

// TestSSMSRefusalNamesSeveral: a refusal lists, index by index, the shares
// that give one index different values: records (copies of genuine
// headers with a record altered, its tag and checksums recomputed by
// holders of the key) or key shares (signed by holders of the key), in
// every order. The same records altered by an outsider, whose tags fail,
// are named Forged and the secret recovered.
func TestSSMSRefusalNamesSeveral(t *testing.T) {
	secret := testSecret(100, 41)
	shares := mustSplitSSMS(t, secret, 3, 2, 64, defaultAEAD(), 41)
	key := keyOfShares(t, shares[:2])
	outsider := func(s []byte) []byte {
		c := slices.Clone(s)
		c[fmtHeaderLen(c)+4+3] ^= 0x5a
		fixCRCsFromFormat(c)
		return c
	}
	record := func(s []byte) []byte {
		c := outsider(s)
		fmtRetag(c, key)
		fixCRCsFromFormat(c)
		return c
	}
	set := [][]byte{shares[0], shares[1], outsider(shares[0]), outsider(shares[1])}
	for _, perm := range permutations(len(set)) {
		p := make([][]byte, len(set))
		var want []BadShare
		for i, j := range perm {
			p[i] = set[j]
			if j >= 2 {
				want = append(want, BadShare{Position: i, Reason: Forged})
			}
		}
		attackCase(t, fmt.Sprintf("outsider's records, order %v", perm), p, secret, nil, true, positionsOf(want), Forged)
	}
	keyShare := func(s []byte) []byte {
		c := slices.Clone(s)
		c[fmtKeyShareAt(c)+3] ^= 0x5a
		reseal(c, key)
		return c
	}
	for name, alter := range map[string]func([]byte) []byte{"record": record, "key share": keyShare} {
		set := [][]byte{shares[0], shares[1], alter(shares[0]), alter(shares[1])}
		for _, perm := range permutations(len(set)) {
			p := make([][]byte, len(set))
			pos := make([]int, len(set)) // where each of set went
			for i, j := range perm {
				p[i], pos[j] = set[j], i
			}
			want := [][]int{{min(pos[0], pos[2]), max(pos[0], pos[2])}, {min(pos[1], pos[3]), max(pos[1], pos[3])}}
			for _, f := range []func([][]byte) ([]byte, []BadShare, error){CombineSSMS, combineStream} {
				_, _, err := f(p)
				var ce *CombineError
				if !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || !slices.EqualFunc(ce.Several, want, slices.Equal) || len(ce.Sets) != 2 {
					t.Fatalf("%s, order %v: %v (several %v, sets %v), want several %v", name, perm, err, ce.Several, ce.Sets, want)
				}
			}
		}
	}
}

// positionsOf returns the positions of bad.
func positionsOf(bad []BadShare) []int {
	var p []int
	for _, b := range bad {
		p = append(p, b.Position)
	}
	return p
}

// fmtRebuild returns the share s with its header rebuilt, as anyone can
// from docs/FORMAT.md: the index, the batch range and the path given, the
// other fields, the key share and the records s's, every CRC recomputed.
func fmtRebuild(s []byte, index, first, size byte, path [][]byte) []byte {
	h := slices.Concat(s[:fmtIndex], []byte{index}, s[fmtGeneration:fmtBatchFirst], []byte{first, size},
		s[fmtKeyCheck:fmtPath], slices.Concat(path...), fmtKeyShareOf(s), make([]byte, 4))
	out := append(h, s[fmtHeaderLen(s):]...)
	fixCRCsFromFormat(out)
	return out
}

// fmtPathOf returns the path nodes of the share s.
func fmtPathOf(s []byte) [][]byte {
	var p [][]byte
	for i := range fmtDepth(int(s[fmtBatchSize])) {
		p = append(p, s[fmtPath+16*i:fmtPath+16*i+16])
	}
	return p
}

// TestSSMSBatchForged: shares whose batch statement or Merkle path an
// outsider changed, the key share and records genuine and every checksum
// recomputed, are Forged: a genuine path under another batch statement
// (another range), a path that reaches another root (another share's, or
// another split's), a path cut short with the batch size to match, and a
// leaf moved to another index of its batch with that index's path. Named
// wherever signatures are checked: beside an outsider's share, and always
// by the lifecycle functions.
func TestSSMSBatchForged(t *testing.T) {
	secret := testSecret(300, 81)
	a := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 81)
	b := mustSplitSSMS(t, secret, 5, 3, 64, defaultAEAD(), 82)
	evil := outsiderSplit(t, a[0], bytes.Repeat([]byte{7}, 300), 5)
	// The format as documented: every genuine share's leaf and path reach
	// the root whose batch statement the signature covers, and rebuilding
	// a header from its fields gives it back.
	for i, s := range a {
		if !ed25519.Verify(s[fmtPublicKey:fmtSignature], fmtStatement(s, fmtRoot(s)), s[fmtSignature:fmtPath]) {
			t.Fatalf("share %d: the signature does not cover the statement FORMAT.md describes", i)
		}
		if !bytes.Equal(fmtRebuild(s, byte(i), 0, 5, fmtPathOf(s)), s) {
			t.Fatalf("share %d: rebuilt from its fields, it differs", i)
		}
	}
	cases := map[string][]byte{
		"another range, same depth":   fmtRebuild(a[1], 1, 0, 6, fmtPathOf(a[1])),
		"another first index":         fmtRebuild(a[1], 1, 1, 5, fmtPathOf(a[1])),
		"another share's path":        fmtRebuild(a[1], 1, 0, 5, fmtPathOf(a[3])),
		"another split's path":        fmtRebuild(a[1], 1, 0, 5, fmtPathOf(b[1])),
		"path cut short, size 4":      fmtRebuild(a[1], 1, 0, 4, fmtPathOf(a[1])[:2]),
		"no path, batch of one":       fmtRebuild(a[1], 1, 1, 1, nil),
		"leaf moved, its path":        fmtRebuild(a[1], 2, 0, 5, fmtPathOf(a[2])),
		"leaf moved, the target path": fmtRebuild(a[1], 3, 0, 5, fmtPathOf(a[3])),
		"a path node changed": func() []byte {
			p := fmtPathOf(a[1])
			p[1] = slices.Clone(p[1])
			p[1][5] ^= 1
			return fmtRebuild(a[1], 1, 0, 5, p)
		}(),
	}
	for name, f := range cases {
		if h, why := parseHeader(f); h == nil {
			t.Fatalf("%s: the share does not parse: %v", name, why)
		}
		given := [][]byte{a[0], f, a[2], evil[4], a[3]}
		want := []BadShare{{Position: 1, Reason: Forged}, {Position: 3, Reason: Forged}}
		for _, combine := range []func([][]byte) ([]byte, []BadShare, error){CombineSSMS, combineStream} {
			got, bad, err := combine(given)
			if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
				t.Fatalf("%s: %v, %v; want the secret and %v", name, bad, err, want)
			}
		}
		if _, bad, err := RecreateSSMS([][]byte{a[0], f, a[2], a[3]}, 4); err != nil || !slices.Equal(bad, want[:1]) {
			t.Fatalf("%s: RecreateSSMS: %v, %v", name, bad, err)
		}
		// Exactly threshold shares with it: never a wrong secret, and the
		// forged share named when the lifecycle checks every signature.
		if _, _, err := RecreateSSMS([][]byte{a[0], f, a[2]}, 4); !errors.Is(err, ErrNotEnoughShares) {
			t.Fatalf("%s: RecreateSSMS from threshold shares: %v", name, err)
		}
	}
}

// TestSSMSRecordAlteredInPlace: an outsider who can write a genuine
// share's file alters its records in place, their CRCs recomputed (a
// record's CRC covers header bytes 0…29, the chunk number and the record,
// none of it secret), and the share keeps its genuine header and
// signature. The record's tag, under a key derived from the split's key,
// fails: given exactly threshold+1 shares, one altered in place, the
// secret is recovered from the t genuine ones and the altered share named
// Forged (format 4 before record tags refused them, both sets named).
// Holders of the key, who can compute the tag, are held to the bound as
// before: the same alteration with its tag recomputed is refused, both
// sets named, and outvoted with one more genuine share.
func TestSSMSRecordAlteredInPlace(t *testing.T) {
	secret := testSecret(300, 83)
	for _, aead := range testAEADs() {
		s := mustSplitSSMS(t, secret, 5, 3, 64, aead, 83)
		altered := slices.Clone(s[2])
		altered[fmtHeaderLen(altered)+4+3] ^= 0x5a // a fragment byte of the first record
		fixCRCsFromFormat(altered)
		if !bytes.Equal(altered[:fmtHeaderLen(altered)], s[2][:fmtHeaderLen(s[2])]) {
			t.Fatal("the header changed")
		}
		given := [][]byte{s[0], s[1], altered, s[3]}
		attackCase(t, fmt.Sprintf("AEAD %d, t+1 shares, one altered in place", aead), given, secret, nil, true, []int{2}, Forged)
		attackCase(t, fmt.Sprintf("AEAD %d, t+2 shares, one altered in place", aead), append(slices.Clone(given), s[4]), secret, nil, true, []int{2}, Forged)

		holders := slices.Clone(altered)
		fmtRetag(holders, keyOfShares(t, s[:3]))
		fixCRCsFromFormat(holders)
		given = [][]byte{s[0], s[1], holders, s[3]}
		for _, combine := range []func([][]byte) ([]byte, []BadShare, error){CombineSSMS, combineStream} {
			got, bad, err := combine(given)
			var ce *CombineError
			if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || len(ce.Sets) < 2 {
				t.Fatalf("AEAD %d: t+1 shares, one altered by holders: %d bytes, %v, %v; want a refusal naming the sets", aead, len(got), bad, err)
			}
			if slices.ContainsFunc(ce.Bad, func(b BadShare) bool { return b.Reason == Forged }) {
				t.Fatalf("AEAD %d: a share named Forged: %v", aead, ce.Bad)
			}
		}
		attackCase(t, fmt.Sprintf("AEAD %d, t+2 shares, one altered by holders", aead), append(slices.Clone(given), s[4]), secret, nil, true, []int{2}, Inconsistent)
	}
}

// alterRecords alters, as an outsider would from docs/FORMAT.md, the
// records of the share s in place: a byte of the fragment of every record
// (all of them, or the first only), every CRC recomputed, the header and
// the tags left as they are.
func alterRecords(s []byte, all bool, rng *mrand.Rand) []byte {
	s = slices.Clone(s)
	recs, _ := fmtRecords(s)
	for k, r := range recs {
		if k > 0 && !all {
			break
		}
		s[r[0]+4+rng.IntN(r[1]-r[0]-4)] ^= byte(1 + rng.IntN(255))
	}
	fixCRCsFromFormat(s)
	return s
}

// TestSSMSOutsiderAltersInPlace is the guarantee against an outsider who
// writes the genuine files: t genuine shares, and any number of other
// genuine files whose records were altered in place (every record or the
// first only, in files of indexes below and above the genuine ones),
// with copies of genuine files among them, in any order, at (n, t) from
// (3, 2) to (255, 254): the genuine secret, every altered share named
// Forged, no genuine share named.
func TestSSMSOutsiderAltersInPlace(t *testing.T) {
	schemes := [][2]int{{3, 2}, {4, 2}, {5, 3}, {7, 4}, {10, 3}, {12, 10}, {17, 16}, {30, 8}, {64, 60}, {255, 60}, {255, 128}, {255, 254}}
	if testing.Short() {
		schemes = [][2]int{{3, 2}, {5, 3}, {12, 10}, {30, 8}, {255, 254}}
	}
	rng := mrand.New(mrand.NewPCG(24, 1))
	for _, sc := range schemes {
		n, th := sc[0], sc[1]
		secret := testSecret(2*defaultChunkSize/3+rng.IntN(defaultChunkSize), uint64(n*th))
		shares := mustSplitSSMS(t, secret, n, th, defaultChunkSize/4, defaultAEAD(), uint64(n+th))
		for trial := range 3 {
			perm := rng.Perm(n)
			genuine := perm[:th]
			altered := perm[th:]
			if len(altered) > 40 {
				altered = altered[:40]
			}
			var set [][]byte
			var isAltered []bool
			for _, i := range genuine {
				set, isAltered = append(set, shares[i]), append(isAltered, false)
			}
			for k, i := range altered {
				set, isAltered = append(set, alterRecords(shares[i], k%2 == 0, rng)), append(isAltered, true)
			}
			// Genuine files of a genuine share's index, altered too.
			for range 1 + rng.IntN(3) {
				i := genuine[rng.IntN(th)]
				set, isAltered = append(set, alterRecords(shares[i], rng.IntN(2) == 0, rng)), append(isAltered, true)
			}
			order := rng.Perm(len(set))
			given := make([][]byte, len(set))
			var forged []int
			for p, j := range order {
				given[p] = set[j]
				if isAltered[j] {
					forged = append(forged, p)
				}
			}
			attackCase(t, fmt.Sprintf("(%d,%d) trial %d: %d altered", n, th, trial, len(forged)), given, secret, nil, true, forged, Forged)
		}
	}
}

// TestSSMSRecordMoved: genuine records, tags and all, moved by an
// outsider to where they do not belong, CRCs recomputed: a record of
// another share at the same chunk, a record of another chunk of the same
// share, a record of another split's share at the same index (the
// same length). Each tag is bound to its index, chunk number and last
// flag, and to the split's key: the share is named Forged, and the others
// recover the secret.
func TestSSMSRecordMoved(t *testing.T) {
	for _, aead := range testAEADs() {
		secret := testSecret(4*64, 84) // four full chunks of 64 bytes
		s := mustSplitSSMS(t, secret, 5, 3, 64, aead, 84)
		other := mustSplitSSMS(t, testSecret(4*64, 85), 5, 3, 64, aead, 85)
		recs, _ := fmtRecords(s[2])
		body := func(sh []byte, k int) []byte {
			r, _ := fmtRecords(sh)
			return sh[r[k][0]:r[k][2]] // the length word, the fragment, the tag
		}
		for name, from := range map[string][]byte{
			"another index": body(s[3], 1),
			"another chunk": body(s[2], 2),
			"another split": body(other[2], 1),
			"the last flag": nil,
		} {
			moved := slices.Clone(s[2])
			r := recs[1]
			if from == nil {
				moved[r[0]] ^= 0x80 // the last flag on chunk 1's record, its tag kept
			} else {
				copy(moved[r[0]:r[2]], from)
			}
			fixCRCsFromFormat(moved)
			given := [][]byte{s[0], moved, s[1], s[4]}
			attackCase(t, fmt.Sprintf("AEAD %d, a record from %s", aead, name), given, secret, nil, true, []int{1}, Forged)
		}
	}
}

// TestSSMSHoldersAlterInPlace: holders who know the key alter records of
// genuine files in place and compute their tags (docs/FORMAT.md): they
// are held to the bound. With m shares, e altered so, the secret is
// recovered and they are named Inconsistent while 2e ≤ m − t; beyond it,
// never a wrong secret: a refusal that names the sets, or the secret.
func TestSSMSHoldersAlterInPlace(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(24, 2))
	for _, sc := range [][2]int{{3, 2}, {7, 3}, {12, 5}} {
		n, th := sc[0], sc[1]
		secret := testSecret(300, uint64(n))
		shares := mustSplitSSMS(t, secret, n, th, 64, defaultAEAD(), uint64(n*th))
		key := keyOfShares(t, shares[:th])
		for e := 1; 2*e <= n-th+2; e++ {
			given := slices.Clone(shares)
			var want []int
			for _, i := range rng.Perm(n)[:e] {
				a := alterRecords(shares[i], true, rng)
				fmtRetag(a, key)
				fixCRCsFromFormat(a)
				given[i] = a
				want = append(want, i)
			}
			slices.Sort(want)
			where := fmt.Sprintf("(%d,%d), %d altered by holders", n, th, e)
			if 2*e <= n-th {
				attackCase(t, where, given, secret, nil, true, want, Inconsistent)
				continue
			}
			// Beyond the bound: refused. When t genuine shares are left,
			// their codeword opens, and the refusal names the two sets.
			for _, combine := range []func([][]byte) ([]byte, []BadShare, error){CombineSSMS, combineStream} {
				got, _, err := combine(given)
				var ce *CombineError
				if got != nil || !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) {
					t.Fatalf("%s: %d bytes, %v; want a refusal", where, len(got), err)
				}
				if n-e >= th && (len(ce.Sets) != 2 || !slices.Equal(ce.Sets[1], want)) {
					t.Fatalf("%s: sets %v, want the altered %v apart", where, ce.Sets, want)
				}
			}
		}
	}
}
