package shamir

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sync"
)

// This file reads SSMS shares, whole in memory or from streams, record by
// record: the first stage of the reading pipeline (ssms_open.go). A share's
// own checksums are checked here; nothing is decided about it beyond what
// its own bytes show.

// A shareIn is one share being combined, whole in memory or read from a
// stream.
type shareIn struct {
	pos   int     // the index into the caller's argument
	hdr   *header // nil when parseHeader found the share bad
	why   Reason  // why the share is bad, once it is; 0 before
	ioErr error   // the stream's error, when why is Unreadable

	mem []byte        // CombineSSMS: the records
	off int           // CombineSSMS: where the next record starts in mem
	r   *bufio.Reader // NewCombineReader: the stream
	buf []byte        // NewCombineReader: the current record
	num chunkNum      // the number of the record being read
}

// next reads and checks the share's record for chunk count, or says why
// it cannot.
func (s *shareIn) next(count uint64) (record, Reason) {
	s.num.set(count, false)
	if s.r == nil {
		rec, why := recordAt(s.hdr, &s.num, s.mem[min(s.off, len(s.mem)):])
		if why == 0 {
			s.off += recordSize(s.hdr, rec.n)
		}
		return rec, why
	}
	var err error
	if s.buf, err = readGrow(s.r, s.buf[:0], 4); err != nil {
		return record{}, s.readErr(err)
	}
	n, _, why := recordLength(s.hdr, count, s.buf)
	if why != 0 {
		return record{}, why
	}
	if s.buf, err = readGrow(s.r, s.buf, recordSize(s.hdr, n)); err != nil {
		return record{}, s.readErr(err)
	}
	return parseRecord(s.hdr, &s.num, s.buf)
}

// recordAt parses the record of the share with header h for the chunk num
// at the start of b.
func recordAt(h *header, num *chunkNum, b []byte) (record, Reason) {
	n, _, why := recordLength(h, chunkCount(num), b)
	if why != 0 {
		return record{}, why
	}
	size := recordSize(h, n)
	if len(b) < size {
		return record{}, Truncated
	}
	return parseRecord(h, num, b[:size])
}

// readStep is the most readGrow reads, and grows its buffer by, at a time.
const readStep = 64 << 10

// readGrow reads from r until buf holds size bytes, growing it as the bytes
// arrive, by at most readStep at a time: a record's length word, which a
// forger chooses, costs memory only for the bytes the stream really has.
func readGrow(r io.Reader, buf []byte, size int) ([]byte, error) {
	for len(buf) < size {
		step := min(size-len(buf), readStep)
		buf = slices.Grow(buf, step)
		n, err := io.ReadFull(r, buf[len(buf):len(buf)+step])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// readErr returns the reason for a read of the share's stream that failed
// with err: the end of the stream inside a record is a truncation, any
// other error makes the share unreadable.
func (s *shareIn) readErr(err error) Reason {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return Truncated
	}
	s.ioErr = err
	return Unreadable
}

// atEnd returns 0 if the share has no bytes after its last record, and why
// it is bad otherwise.
func (s *shareIn) atEnd() Reason {
	if s.r == nil {
		if s.off < len(s.mem) {
			return Extended
		}
		return 0
	}
	switch _, err := s.r.Peek(1); err {
	case nil:
		return Extended
	case io.EOF:
		return 0
	default:
		return s.readErr(err)
	}
}

// eachShare calls f for every share of shares: at once, on a goroutine
// each, when they are streams, so that streams that fill in another order
// than the arguments' (pipes from one writer) never wait for one another.
func eachShare(shares []*shareIn, f func(k int, s *shareIn)) {
	if len(shares) < 2 || shares[0].r == nil {
		for k, s := range shares {
			f(k, s)
		}
		return
	}
	var wg sync.WaitGroup
	for k, s := range shares {
		wg.Go(func() { f(k, s) })
	}
	wg.Wait()
}

// chunkCount returns the chunk number num holds.
func chunkCount(num *chunkNum) uint64 {
	var n uint64
	for _, b := range num.be {
		n = n<<8 | uint64(b)
	}
	return n
}

// memIns returns the shares held in memory as the combiner takes them.
func memIns(shares [][]byte) []*shareIn {
	ins := make([]*shareIn, len(shares))
	slab := make([]struct {
		in  shareIn
		hdr header
	}, len(shares))
	for i, s := range shares {
		in := &slab[i].in
		*in = shareIn{pos: i}
		if in.why = parseHeaderTo(&slab[i].hdr, s); in.why == 0 {
			in.hdr, in.mem = &slab[i].hdr, s[slab[i].hdr.length:]
		}
		ins[i] = in
	}
	return ins
}

// streamIns returns the shares read from streams as the combiner takes them,
// their headers read, concurrently.
func streamIns(shares []io.Reader, fn string) []*shareIn {
	ins := make([]*shareIn, len(shares))
	for i, r := range shares {
		if r == nil {
			panic(fmt.Sprintf("shamir: %s: shares[%d] is a nil io.Reader", fn, i))
		}
		ins[i] = &shareIn{pos: i, r: bufio.NewReaderSize(r, 512)}
	}
	eachShare(ins, func(_ int, s *shareIn) {
		// The first bytes tell the header's length (at most
		// maxHeaderSize), then the rest is read.
		var h [maxHeaderSize]byte
		n, err := io.ReadFull(s.r, h[:hdrPrefix])
		if err == nil {
			var m int
			m, err = io.ReadFull(s.r, h[hdrPrefix:headerLenOf(h[:])])
			n += m
		}
		s.hdr, s.why = parseHeader(h[:n]) // a short header is Truncated
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			s.hdr, s.why = nil, s.readErr(err)
		}
	})
	return ins
}
