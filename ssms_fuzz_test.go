package shamir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

// FuzzParseShare feeds arbitrary bytes to the share parser: it must never
// panic, and what it accepts must be within the format's bounds.
func FuzzParseShare(f *testing.F) {
	skipIfEnforced(f, "the seed shares are sealed with AEAD 1")
	for _, s := range mustSplitSSMS(f, []byte("fuzz the parser"), 3, 2, 8, aesGCM, 1) {
		f.Add(s)
		f.Add(s[:len(s)-3])
	}
	f.Add([]byte(ssmsMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		// Half the time, as a forger would, make the header's CRC right,
		// so that the fields behind it are reached.
		if len(b) >= hdrPrefix && b[hdrBatchSize] != 0 && len(b) >= hl(b) && b[len(b)-1]&1 == 1 {
			b = slices.Clone(b)
			binary.BigEndian.PutUint32(b[crcOff(b):], crcOf(b[:crcOff(b)]))
		}
		h, why := parseHeader(b)
		info, ierr := InspectSSMS(b)
		if (h == nil) != (ierr != nil) || (h == nil) != (why != 0) ||
			h != nil && (info.Threshold != h.threshold || info.Index != h.index || info.SplitID != h.id || info.HeaderSize != h.length) {
			t.Fatalf("InspectSSMS = %+v, %v; parseHeader = %+v, %v", info, ierr, h, why)
		}
		if why != NotSSMS && len(b) >= len(ssmsMagic) && !IsSSMS(b) {
			t.Fatalf("IsSSMS is false for a share parseHeader recognizes (%v)", why)
		}
		if h == nil {
			return
		}
		if h.threshold < 2 || h.index > maxIndex || h.x != byte(h.index+1) ||
			h.chunkSize < 1 || h.chunkSize > maxChunkSize ||
			h.size < 1 || h.index < h.first || h.index >= h.first+h.size || h.first+h.size > maxIndex+1 ||
			h.length != headerLen(h.size) || h.length > len(b) || h.length > maxHeaderSize {
			t.Fatalf("parseHeader accepted %+v", h)
		}
		rest := b[hl(b):]
		for count := uint64(0); len(rest) > 0; count++ {
			n, _, why := recordLength(h, count, rest)
			if why != 0 {
				return
			}
			size := min(recordSize(h, n), len(rest))
			var num chunkNum
			num.set(count, false)
			rec, why := parseRecord(h, &num, rest[:size])
			if why != 0 {
				return
			}
			if rec.n > h.chunkSize || len(rec.frag) != fragSize(rec.n, h.threshold, h.overhead) {
				t.Fatalf("parseRecord accepted %d bytes with a %d-byte fragment", rec.n, len(rec.frag))
			}
			rest = rest[size:]
		}
	})
}

// FuzzCombineSSMS replaces one share of a good set with arbitrary bytes:
// CombineSSMS and the reader must agree, and if they return a secret it is
// the one that was split.
func FuzzCombineSSMS(f *testing.F) {
	skipIfEnforced(f, "the seed shares are sealed with AEAD 2")
	secret := []byte("a secret of some length, split in several chunks of 16 bytes")
	shares := mustSplitSSMS(f, secret, 3, 2, 16, chaCha20Poly1305, 2)
	for i, s := range shares {
		f.Add(s, uint8(i), uint8(3))
		f.Add(s[:len(s)/2], uint8(i), uint8(2))
		c := slices.Clone(s)
		c[len(c)-7] ^= 4
		f.Add(c, uint8(i), uint8(3))
	}
	f.Fuzz(func(t *testing.T, b []byte, which, count uint8) {
		given := slices.Clone(shares)[:1+int(count)%3]
		given[int(which)%len(given)] = b
		got, bad, err := CombineSSMS(given)
		if (got != nil) != (err == nil) || got != nil && !bytes.Equal(got, secret) {
			t.Fatalf("CombineSSMS returned %d bytes and err %v", len(got), err)
		}
		sgot, sbad, serr := combineStream(given)
		if !bytes.HasPrefix(secret, sgot) {
			t.Fatalf("the reader returned bytes that are not the secret's (err %v)", serr)
		}
		if serr == nil && !bytes.Equal(sgot, secret) {
			t.Fatalf("the reader returned %d bytes and no error", len(sgot))
		}
		all, sall := allBad(bad, err), allBad(sbad, serr)
		checkReasons(t, all)
		if !slices.Equal(all, sall) || (err == nil) != (serr == nil) {
			t.Fatalf("CombineSSMS: %d bytes, %v, %v; reader: %d bytes, %v, %v", len(got), bad, err, len(sgot), sbad, serr)
		}
	})
}

// FuzzCombineSSMSAll cuts arbitrary bytes into shares: no panic, and both
// forms agree.
func FuzzCombineSSMSAll(f *testing.F) {
	skipIfEnforced(f, "the seed shares are sealed with AEAD 1")
	shares := mustSplitSSMS(f, []byte("0123456789"), 3, 2, 4, aesGCM, 3)
	f.Add(bytes.Join(shares, []byte("|")))
	f.Add(bytes.Join(shares[:2], []byte("|")))
	f.Fuzz(func(t *testing.T, b []byte) {
		given := bytes.Split(b, []byte("|"))
		got, bad, err := CombineSSMS(given)
		sgot, sbad, serr := combineStream(given)
		all, sall := allBad(bad, err), allBad(sbad, serr)
		checkReasons(t, all)
		if !slices.Equal(all, sall) || (err == nil) != (serr == nil) || got != nil && !bytes.Equal(got, sgot) {
			t.Fatalf("CombineSSMS: %q, %v, %v; reader: %q, %v, %v", got, bad, err, sgot, sbad, serr)
		}
	})
}

// FuzzCombineSSMSForged alters the shares of a good set as a forger would:
// the fuzzer's bytes are edits, each a share, an offset and a value to XOR
// there (or, with the share's top bit set, a length to cut the share to),
// and the checksums of every altered share are recomputed afterwards, so
// that the edits meet the format's logic rather than its CRCs. Whatever the
// edits: no wrong secret, only altered shares named, CombineSSMS and the
// reader agree, and the secret is recovered whenever the error-correction
// bound holds.
func FuzzCombineSSMSForged(f *testing.F) {
	skipIfEnforced(f, "the seed shares are sealed with AEAD 2")
	secret := []byte("a secret of some length, in 16-byte chunks")
	const parts, threshold = 5, 3
	shares := mustSplitSSMS(f, secret, parts, threshold, 16, chaCha20Poly1305, 4)
	f.Add([]byte{0, 40, 1})                           // a key share byte
	f.Add([]byte{1, 75, 0x80})                        // a fragment byte
	f.Add([]byte{2, byte(hdrIndex), 3})               // the index
	f.Add([]byte{3, byte(hdrThreshold), 1})           // the threshold
	f.Add([]byte{4, byte(hdrSplitID), 0xff})          // the split ID
	f.Add([]byte{0, 40, 1, 1, 90, 7})                 // two shares forged
	f.Add([]byte{0x80, 100, 0, 2, byte(hdrIndex), 1}) // a cut and a move
	f.Add([]byte{1, 82, 0x80})                        // a record's last flag
	f.Fuzz(func(t *testing.T, edits []byte) {
		given := slices.Clone(shares)
		changed := make([]bool, parts)
		xors := make([]map[int]byte, parts)
		cuts := make([]int, parts)
		for i := range cuts {
			cuts[i] = -1
		}
		for ; len(edits) >= 3; edits = edits[3:] {
			i := int(edits[0]&0x7f) % parts
			changed[i] = true
			if edits[0]&0x80 != 0 {
				cuts[i] = int(edits[1]) % len(shares[i])
				continue
			}
			if xors[i] == nil {
				xors[i] = make(map[int]byte)
			}
			xors[i][int(edits[1])%len(shares[i])] ^= edits[2]
		}
		for i := range given {
			if !changed[i] {
				continue
			}
			given[i] = slices.Clone(shares[i])
			var ks []int
			for k := range xors[i] {
				ks = append(ks, k)
			}
			for _, k := range ks {
				given[i][k] ^= xors[i][k]
			}
			fixCRCs(given[i], shares[i])
			if cuts[i] >= 0 {
				given[i] = given[i][:cuts[i]]
			}
		}
		got, bad, err := CombineSSMS(given)
		sgot, sbad, serr := combineStream(given)
		if err == nil && !bytes.Equal(got, secret) || serr == nil && !bytes.Equal(sgot, secret) {
			t.Fatal("a wrong secret")
		}
		all, sall := allBad(bad, err), allBad(sbad, serr)
		checkReasons(t, all)
		if !slices.Equal(all, sall) || (err == nil) != (serr == nil) {
			t.Fatalf("CombineSSMS: %v, %v; reader: %v, %v", bad, err, sbad, serr)
		}
		if errors.Is(err, ErrMixedSplits) {
			return
		}
		nChanged := 0
		for _, b := range all {
			if !changed[b.Position] {
				t.Fatalf("an untouched share named bad: %v (err %v)", all, err)
			}
		}
		for _, c := range changed {
			if c {
				nChanged++
			}
		}
		// Every share was altered without the key (its header's
		// signature or a record's tag fails) or cut: none counts, and
		// any threshold untouched shares recover the secret.
		if nChanged <= parts-threshold && err != nil {
			t.Fatalf("%d shares altered of %d, threshold %d: %v", nChanged, parts, threshold, err)
		}
	})
}

// fixCRCs recomputes, in s, an altered copy of the share orig, the header
// CRC and the record CRCs where orig's records are, as a forger would.
func fixCRCs(s, orig []byte) {
	h, _ := parseHeader(orig)
	if s[hdrBatchSize] != 0 && hl(s) <= len(s) { // else the header has no CRC
		binary.BigEndian.PutUint32(s[crcOff(s):], crcOf(s[:crcOff(s)]))
	}
	var num chunkNum
	for off, count := h.length, uint64(0); off < len(orig); count++ {
		n, _, _ := recordLength(h, count, orig[off:])
		end := off + 4 + fragSize(n, h.threshold, h.overhead) + tagSize // the tag is left as it is
		num.set(count, false)
		binary.BigEndian.PutUint32(s[end:], recordCRC(recordSeed(s), &num, s[off:end]))
		off = end + 4
	}
}
