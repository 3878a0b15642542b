package shamir

import (
	"fmt"
	"io"
)

// NewSplitWriter returns a writer that splits what is written to it into
// len(shares) SSMS shares, any threshold of which recover it, writing share i
// to shares[i]. The shares are in the format of [SplitSSMS]: [CombineSSMS] and
// [NewCombineReader] read either.
//
// The writer holds one 64 KiB chunk of the secret and one chunk's worth of
// output per share, whatever the length of the secret. It writes the headers
// of all shares, then one record per chunk to each share in turn, so a reader
// that reads them in that order ([NewCombineReader] does, whatever the order
// of its arguments) can be connected to it with pipes.
//
// Close must be called to write the last chunk; it does not close the
// underlying writers. After an error from an underlying writer, every call
// returns that error and the shares are incomplete.
func NewSplitWriter(shares []io.Writer, threshold int) (io.WriteCloser, error) {
	r := newRandom()
	defer r.release() // the writer draws all its randomness as it starts
	return newSplitWriter(shares, threshold, defaultChunkSize, defaultAEAD(), r)
}

func newSplitWriter(shares []io.Writer, threshold, chunkSize int, aeadID byte, rng io.Reader) (*splitWriter, error) {
	for i, w := range shares {
		if w == nil {
			panic(fmt.Sprintf("shamir: NewSplitWriter: shares[%d] is a nil io.Writer", i))
		}
	}
	e, err := newEncoder(len(shares), threshold, chunkSize, aeadID, rng)
	if err != nil {
		return nil, err
	}
	// The writer seals on its own goroutine, with one sealer: the key can
	// go at once.
	s := e.newSealer()
	e.release()
	w := &splitWriter{
		e:    e,
		s:    s,
		ws:   shares,
		buf:  make([]byte, 0, chunkSize),
		recs: make([][]byte, len(shares)),
	}
	rl := recordOverhead + fragSize(chunkSize, threshold, e.overhead)
	recs := make([]byte, len(shares)*rl)
	for i := range w.recs {
		w.recs[i] = recs[i*rl : (i+1)*rl]
	}
	return w, nil
}

type splitWriter struct {
	e       *encoder
	s       *sealer
	count   uint64 // the number of the next chunk
	ws      []io.Writer
	buf     []byte   // the chunk being filled
	recs    [][]byte // each share's record of the last chunk sealed
	started bool     // the headers are written
	closed  bool
	err     error
}

// Write seals and writes every chunk it completes, except the one that p
// ends in: the last chunk is marked as such, so a full chunk is only written
// once the next byte shows it is not the last.
func (w *splitWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errClosed
	}
	written := 0
	for len(p) > 0 {
		size := cap(w.buf)
		if len(w.buf) == size {
			if err := w.flush(w.buf, false); err != nil {
				return written, err
			}
			w.buf = w.buf[:0]
		}
		if len(w.buf) == 0 && len(p) > size {
			// A whole chunk, followed by more: seal it from p directly.
			if err := w.flush(p[:size], false); err != nil {
				return written, err
			}
			written += size
			p = p[size:]
			continue
		}
		k := min(len(p), size-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		written += k
		p = p[k:]
	}
	return written, nil
}

// Close writes the last chunk, which is empty only if nothing was written.
// After an error from an underlying writer, it only clears the chunk it
// holds and releases the sealer, and returns that error.
func (w *splitWriter) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err == nil {
		w.flush(w.buf, true) // sets w.err on failure
	}
	clear(w.buf[:cap(w.buf)])
	w.buf = nil
	w.s.release()
	w.s = nil // and its AEAD, which holds the key expanded
	return w.err
}

// abort closes w without writing its last chunk, after err: what it wrote
// is then not a split that combines (no last-chunk flag), and err is what
// it returns.
func (w *splitWriter) abort(err error) error {
	if w.err == nil {
		w.err = err
	}
	w.Close()
	return err
}

// flush seals the chunk p and writes its records.
func (w *splitWriter) flush(p []byte, last bool) error {
	if !w.started {
		w.started = true
		for i, h := range w.e.headers {
			if err := w.write(i, h); err != nil {
				return err
			}
		}
	}
	rl := recordOverhead + fragSize(len(p), w.e.threshold, w.e.overhead)
	recs := w.recs
	for i := range recs {
		recs[i] = recs[i][:rl]
	}
	w.e.seal(w.s, w.count, p, last, recs)
	w.count++
	for i, r := range recs {
		if err := w.write(i, r); err != nil {
			return err
		}
	}
	return nil
}

func (w *splitWriter) write(i int, b []byte) error {
	if _, err := w.ws[i].Write(b); err != nil {
		w.err = fmt.Errorf("shamir: writing shares[%d]: %w", i, err)
		return w.err
	}
	return nil
}

// NewCombineReader returns a reader of the secret whose SSMS shares are read
// from shares, made by [SplitSSMS] or [NewSplitWriter]. It reads the headers
// of the shares before it returns, and fails as [CombineSSMS] does, with a
// [*CombineError], if they cannot make the secret.
//
// The reader returns only authenticated bytes of the secret, one chunk at a
// time, and holds one chunk per share whatever the length of the secret. It
// returns [io.EOF] once the whole secret was read: then, as with
// [CombineSSMS], the secret is good, and [CombineReader.BadShares] lists the
// shares found bad on the way. Any other error means the secret was not
// read in full; it is a [*CombineError] when the shares are at fault.
//
// A share whose reader fails is set aside as [Unreadable], like a damaged
// one: the secret is recovered from the others if they suffice. The headers
// are read concurrently and then the records in the order of the shares'
// indexes, the order [NewSplitWriter] writes them in: pipes from one split
// writer may be given in any order.
//
// Its guarantees are [CombineSSMS]'s: against an outsider (or up to
// threshold−1 holders), whose headers fail their signatures and whose
// altered records, in place in a genuine share's file or in copies, fail
// their tags under a key derived from the split's key, any threshold
// genuine shares recover the secret beside any number of shares they
// added, replaced or altered, those named [Forged]; against holders who
// know the key, the error-correction bound of [CombineSSMS], and beyond it
// a refusal naming [CombineError.Sets].
//
// As with [CombineSSMS], shares of more than one split are refused with
// [ErrMixedSplits]; [NewCombineReaderSplit] reads the split it is told.
func NewCombineReader(shares []io.Reader) (*CombineReader, error) {
	return newCombineReader(shares, nil)
}

// NewCombineReaderSplit is [NewCombineReader] for the split id alone: the
// shares of other splits among shares are reported with the reason
// [OtherSplit].
func NewCombineReaderSplit(shares []io.Reader, name SplitName) (*CombineReader, error) {
	return newCombineReader(shares, &name)
}

func newCombineReader(shares []io.Reader, want *SplitName) (*CombineReader, error) {
	ins := streamIns(shares, "NewCombineReader")
	c, err := openSplit(ins, want, false)
	if err != nil {
		return nil, err
	}
	// The chunk buffer grows as chunks are opened: its size follows from
	// records read, not from the chunk size the headers claim.
	return &CombineReader{c: c}, nil
}

// A CombineReader reads a secret from SSMS shares. See [NewCombineReader].
type CombineReader struct {
	c   *combiner
	out []byte // the current chunk
	pos int    // how much of out was read
	err error  // what to return once out is read
}

// Read reads authenticated bytes of the secret. It returns [io.EOF] at the
// end of the whole secret, and any other error when the secret cannot be
// read in full.
func (r *CombineReader) Read(p []byte) (int, error) {
	for r.pos == len(r.out) {
		if r.err != nil {
			return 0, r.err
		}
		if r.c.finished() {
			r.c.release()
			r.err = io.EOF
			continue
		}
		clear(r.out)
		r.out, r.pos = r.out[:0], 0
		out, err := r.c.chunk(r.out)
		if err != nil {
			r.c.release()
			r.err = err
			continue
		}
		r.out = out
	}
	n := copy(p, r.out[r.pos:])
	r.pos += n
	return n, nil
}

// CheckAll makes r check what reading the secret does not need: every
// header's signature and every record's tag, not only where the shares
// disagree. A verifier calls it before the first Read, so that, once Read
// has returned [io.EOF], [CombineReader.BadShares] also names [Forged] a
// share whose signature or record tags alone were changed (its fragments
// right), which reading the secret alone takes no notice of. It costs one
// signature verification per batch of shares and the tags' hashing of
// every record. It must not be called after the first Read.
func (r *CombineReader) CheckAll() {
	if r.c.count != 0 || r.out != nil || r.err != nil {
		panic("shamir: CombineReader.CheckAll called after Read")
	}
	r.c.checkEverything()
}

// BadShares returns the shares found bad so far, by increasing position.
// After Read has returned [io.EOF], they are all the bad shares among those
// given: the others were checked against the secret.
func (r *CombineReader) BadShares() []BadShare {
	return r.c.badShares()
}
