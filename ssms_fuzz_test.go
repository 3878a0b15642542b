package shamir

import (
	"bytes"
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
		h, why := parseHeader(b)
		info, ierr := InspectSSMS(b)
		if (h == nil) != (ierr != nil) || (h == nil) != (why != 0) ||
			h != nil && (info.Threshold != h.threshold || info.Index != h.index || info.SplitID != h.id) {
			t.Fatalf("InspectSSMS = %+v, %v; parseHeader = %+v, %v", info, ierr, h, why)
		}
		if why != NotSSMS && len(b) >= len(ssmsMagic) && !IsSSMS(b) {
			t.Fatalf("IsSSMS is false for a share parseHeader recognizes (%v)", why)
		}
		if h == nil {
			return
		}
		if h.threshold < 2 || h.index > maxIndex || h.x != byte(h.index+1) ||
			h.chunkSize < 1 || h.chunkSize > maxChunkSize {
			t.Fatalf("parseHeader accepted %+v", h)
		}
		rest := b[headerSize:]
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
