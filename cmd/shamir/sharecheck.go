package main

import (
	"bufio"
	bin "encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/gf256/shamir"
)

// This file checks an SSMS share on its own, as far as one share can tell
// about itself without the others (docs/FORMAT.md, Records): its header's
// checksum and, for each chunk, its record's length and CRC-32C, and that
// the share ends with its last record. That finds damage, a cut and bytes
// appended: what attest answer must refuse before it signs with a share,
// since the coordinator could only call the answer "not this split's".
// It cannot find a share altered on purpose with its checksums recomputed:
// combine and verify do, with the other shares (a header's signature,
// which the library checks when the shares disagree; a record's tag,
// under a key derived from the split's key, which it checks once it has
// the key where the records disagree).

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// SSMS header fields used here (docs/FORMAT.md, Header).
const (
	ssmsAEAD       = 7
	ssmsThreshold  = 8
	ssmsChunkSize  = 9
	ssmsGeneration = 30
	lastChunk      = 1 << 31
	recordTagSize  = 16 // after the fragment, before the CRC, which covers it
)

// errShareDamaged is a share that fails a check it can make on its own.
var errShareDamaged = errors.New("damaged")

// checkShareAlone reads the SSMS share r whole, writing every byte read
// to w, and checks it on its own. The error says where it fails.
func checkShareAlone(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(io.TeeReader(r, w), copyBufSize)
	// The header's length is in its first bytes; a share may be shorter
	// than the longest header.
	head, _ := br.Peek(ssmsHeadLen)
	info, err := shamir.InspectSSMS(head)
	if err != nil {
		return fmt.Errorf("%w: its header: %v", errShareDamaged, err)
	}
	h := make([]byte, info.HeaderSize)
	if _, err := io.ReadFull(br, h); err != nil {
		return fmt.Errorf("%w: its header is cut short", errShareDamaged)
	}
	t := int(h[ssmsThreshold])
	chunk := int(bin.BigEndian.Uint32(h[ssmsChunkSize:]))
	overhead := 16
	if h[ssmsAEAD] == 3 {
		overhead = 28
	}
	seed := crc32.Checksum(h[:ssmsGeneration], castagnoli)
	rec := make([]byte, 0, 8+recordTagSize+(chunk+overhead+t-1)/t)
	var num [8]byte
	for k := uint64(0); ; k++ {
		rec = rec[:4]
		if _, err := io.ReadFull(br, rec); err != nil {
			return fmt.Errorf("%w: cut short before the record of chunk %d", errShareDamaged, k)
		}
		v := bin.BigEndian.Uint32(rec)
		n, last := int(v&^lastChunk), v&lastChunk != 0
		if n > chunk || !last && n != chunk || n == 0 && k > 0 {
			return fmt.Errorf("%w: the record of chunk %d has a length no share has", errShareDamaged, k)
		}
		f := (n+overhead+t-1)/t + recordTagSize // the fragment and the tag
		rec = rec[:4+f+4]
		if _, err := io.ReadFull(br, rec[4:]); err != nil {
			return fmt.Errorf("%w: cut short in the record of chunk %d", errShareDamaged, k)
		}
		bin.BigEndian.PutUint64(num[:], k)
		sum := crc32.Update(crc32.Update(seed, castagnoli, num[:]), castagnoli, rec[:4+f])
		if sum != bin.BigEndian.Uint32(rec[4+f:]) {
			return fmt.Errorf("%w: the record of chunk %d fails its checksum", errShareDamaged, k)
		}
		if last {
			break
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		if err != nil {
			return err
		}
		return fmt.Errorf("%w: bytes after its last record", errShareDamaged)
	}
	return nil
}
