package shamir

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// This file is the life of an SSMS split after SplitSSMS: a lost share made
// again (RecreateSSMS), shares for new holders (ExtendSSMS), the key shares
// re-randomized (RefreshSSMS), a new split of the same secret
// (ReshareSSMS). Like the plain forms (lifecycle.go), each is algebra on the
// engine:
//
//   - the record of a new share for a chunk is row index of the dispersal
//     code applied to the chunk's sealed bytes, which the combiner decodes
//     (rsCode.checker, as the decoder re-encodes parity to check shares);
//     its key share is the Lagrange row at x = index+1 applied to threshold
//     key shares (interpolate), never the row at 0;
//   - refreshing adds to every key share the value at its x of a random
//     polynomial with constant term 0 (refresh, the plain form's product),
//     and rewrites the headers only (each batch signed once, its range and
//     so each header's length kept): the record checksums start from
//     the header without its key share (recordSeed), and the record tags'
//     key derives from the key alone, not the generation;
//   - resharing decrypts and encrypts again, chunk by chunk, under a new key.
//
// Recreating authenticates what it derives from: every chunk is opened with
// the AEAD, as CombineSSMS opens it, so the key is computed, and each chunk's
// plaintext passes through scratch memory that is cleared once the chunk is
// dispersed. Nothing derived from a chunk that did not open is written, and
// no record given is copied: every record written is computed from the
// authenticated chunk, its tag with it (rowWriter), so a record whose tag
// was never checked never reaches a new share. RefreshSSMS, which keeps the
// records given, checks every one's tag (combiner.checkEveryTag).

// The errors of the indexes asked for. Like those of the plain forms, none
// is exported: each means that the arguments are unusable, and says how.
var (
	errNoIndexes      = errors.New("shamir: no share indexes to make")
	errIndexRange     = errors.New("shamir: share index out of range 0 to 254")
	errDuplicateIndex = errors.New("shamir: share index asked for twice")
	errIndexInUse     = errors.New("shamir: share index of one of the shares given")
	errNoFreeIndex    = errors.New("shamir: not enough share indexes left")
	errWriterCount    = errors.New("shamir: one io.Writer per new share is needed")
	// errRefreshBad is the Err of the *CombineError with which RefreshSSMS
	// and RefreshSSMSHeaders refuse a bad share that is not inconsistent:
	// damaged, of another format, or a second copy.
	errRefreshBad = errors.New("shamir: every share given to refresh must be good")
)

// RecreateSSMS returns the shares at the given indexes of the SSMS split that
// shares come from: at least threshold shares made by [SplitSSMS] or
// [NewSplitWriter] (or by this package's lifecycle functions). A share at an
// index of the batch of one of shares (the shares one operation made
// together, which share one signature: docs/FORMAT.md) is byte for byte
// the one that operation made there, so a lost share is made again from
// any threshold others, one of its batch among them, and its index: SplitSSMS numbers the
// shares it returns from 0, [InspectSSMS] reads the index of a share that is
// there, and the command's share file names, NAME.I-of-N.shamir, carry it
// plus one. At an index of no given share's batch, the shares made at
// consecutive indexes are a new batch, signed once: a new share, or one
// with the key share and records of the share a lost batch had there,
// which combines with the split's shares as theirs do: RecreateSSMS also
// extends a split at indexes the caller chooses ([ExtendSSMS] picks them,
// one batch).
//
// Indexes run from 0 to 254. RecreateSSMS refuses none, an index given
// twice, and the index of one of shares (whose header could be read): that
// share is there already. At the index of a share of the split that it was
// not given, it makes a copy of that share, which counts once towards the
// threshold.
//
// What is computed. The shares are read and checked chunk by chunk as
// [CombineSSMS] reads them, with its error correction: the key is
// interpolated from threshold key shares, every chunk is decoded and opened
// with the AEAD, and every other share is checked against it. So the secret
// is computed, one chunk at a time, in scratch memory that is cleared as
// soon as the chunk is authenticated; it is never returned or written. A
// new share's records are rows of the dispersal code applied to the
// authenticated ciphertext, and its key share is the Lagrange combination of
// threshold key shares at x = index+1, which never computes the key. Nothing
// is derived from a chunk that does not open.
//
// The results follow [CombineSSMS]'s contract: if err is nil, the shares
// are the split's, derived from authenticated chunks only, in the order of
// indexes, and bad lists the shares found bad on the way (nil if none),
// which should be replaced: a share not in bad is good. Otherwise the new
// shares are nil and err says why: a [*CombineError] as CombineSSMS returns
// ([ErrNotEnoughShares], [ErrInconsistentShares], [ErrMixedSplits]: shares
// of more than one split are refused), or an error about indexes.
//
// [RecreateSSMSTo] is the streaming form.
func RecreateSSMS(shares [][]byte, indexes ...int) (newShares [][]byte, bad []BadShare, err error) {
	return recreateMem(shares, func(given, _ []int) ([]int, error) {
		return indexes, checkNewIndexes(indexes, given)
	})
}

// RecreateSSMSTo is [RecreateSSMS] for shares of any size: it reads the shares
// from the readers shares, concurrently as [NewCombineReader] does, and
// writes the share at indexes[i] to dst[i] as it goes, holding one chunk per
// share whatever the size of the secret. len(dst) must be len(indexes).
//
// If err is nil, every new share was written whole. Otherwise what was
// written to dst is incomplete or nothing, and must be discarded: a chunk
// that fails to open is found only once the records before it were written.
// The writers are not closed.
func RecreateSSMSTo(dst []io.Writer, shares []io.Reader, indexes ...int) (bad []BadShare, err error) {
	if len(dst) != len(indexes) {
		return nil, fmt.Errorf("%w: %d writers for %d indexes", errWriterCount, len(dst), len(indexes))
	}
	_, bad, err = recreateStream(dst, shares, func(given, _ []int) ([]int, error) {
		return indexes, checkNewIndexes(indexes, given)
	})
	return bad, err
}

// ExtendSSMS returns count new shares of the SSMS split that shares come
// from, at new indexes: the count lowest above every index of shares, of
// their batches (the indexes the operation that made a share made with it,
// which its header records) and of inUse, the indexes of the split's
// shares that the caller did not give. So a split of n shares made by
// [SplitSSMS], given any of them, gets the indexes n, n+1, …, one batch.
// The new shares are made as [RecreateSSMS] makes them, with its checks and
// results; they combine with the split's shares in any mixture.
//
// A share's header does not say how many shares the split has, only its
// batch. A new share at the index of a share that neither shares, their
// batches nor inUse name (of a batch none of shares is of) would be a copy
// of it, and the split would have fewer distinct shares than its holders
// believe: name every index in use. To fill gaps, or choose the
// indexes, call RecreateSSMS with them. ExtendSSMS fails for a count below
// 1, an index of inUse outside 0…254, and when fewer than count indexes
// are left above the highest in use.
func ExtendSSMS(shares [][]byte, count int, inUse []int) (newShares [][]byte, bad []BadShare, err error) {
	return recreateMem(shares, func(given, batches []int) ([]int, error) {
		return nextIndexes(count, slices.Concat(given, batches), inUse)
	})
}

// ExtendSSMSTo is [ExtendSSMS] in the manner of [RecreateSSMSTo]: the
// len(dst) new shares are written to dst, and indexes are theirs.
func ExtendSSMSTo(dst []io.Writer, shares []io.Reader, inUse []int) (indexes []int, bad []BadShare, err error) {
	return recreateStream(dst, shares, func(given, batches []int) ([]int, error) {
		return nextIndexes(len(dst), slices.Concat(given, batches), inUse)
	})
}

// checkNewIndexes checks the indexes at which new shares are asked for,
// against each other and against given, those of the shares given.
func checkNewIndexes(indexes, given []int) error {
	if len(indexes) == 0 {
		return errNoIndexes
	}
	var used, seen [maxIndex + 1]bool
	for _, i := range given {
		used[i] = true
	}
	for _, i := range indexes {
		switch {
		case i < 0 || i > maxIndex:
			return fmt.Errorf("%w: %d", errIndexRange, i)
		case seen[i]:
			return fmt.Errorf("%w: %d", errDuplicateIndex, i)
		case used[i]:
			return fmt.Errorf("%w: %d", errIndexInUse, i)
		}
		seen[i] = true
	}
	return nil
}

// nextIndexes returns the count lowest indexes above every index of given and
// inUse.
func nextIndexes(count int, given, inUse []int) ([]int, error) {
	if count < 1 {
		return nil, errNoIndexes
	}
	top := -1
	for _, i := range inUse {
		if i < 0 || i > maxIndex {
			return nil, fmt.Errorf("%w: %d in use", errIndexRange, i)
		}
		top = max(top, i)
	}
	for _, i := range given {
		top = max(top, i)
	}
	if top+count > maxIndex {
		return nil, fmt.Errorf("%w: %d new shares asked for, %d indexes above %d", errNoFreeIndex, count, maxIndex-top, top)
	}
	idx := make([]int, count)
	for k := range idx {
		idx[k] = top + 1 + k
	}
	return idx, nil
}

// recreateMem runs recreate on shares held in memory, into new slices.
func recreateMem(shares [][]byte, choose func(given, batches []int) ([]int, error)) ([][]byte, []BadShare, error) {
	size := 0
	for _, s := range shares {
		size = max(size, len(s))
	}
	var out [][]byte
	_, bad, err := recreate(memIns(shares), choose, func(idx []int) {
		out = make([][]byte, len(idx))
		for k := range out {
			out[k] = make([]byte, 0, size)
		}
	}, func(k int, b []byte) error {
		out[k] = append(out[k], b...)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, bad, nil
}

// recreateStream runs recreate on streams, writing share k to dst[k].
func recreateStream(dst []io.Writer, shares []io.Reader, choose func(given, batches []int) ([]int, error)) ([]int, []BadShare, error) {
	for i, w := range dst {
		if w == nil {
			panic(fmt.Sprintf("shamir: dst[%d] is a nil io.Writer", i))
		}
	}
	return recreate(streamIns(shares, "RecreateSSMSTo"), choose, func([]int) {}, func(k int, b []byte) error {
		if _, err := dst[k].Write(b); err != nil {
			return fmt.Errorf("shamir: writing new share dst[%d]: %w", k, err)
		}
		return nil
	})
}

// recreate makes the shares of the split of ins at the indexes choose
// picks, given the indexes of the split's shares whose headers parsed (and
// authenticate) and the indexes of the batches of the split's good shares. It calls start with them once they are known, then write
// with the bytes of new share k, in order: its header once the first chunk
// opened, then its record of each chunk once that chunk opened.
func recreate(ins []*shareIn, choose func(given, batches []int) ([]int, error), start func(idx []int), write func(k int, b []byte) error) ([]int, []BadShare, error) {
	c, err := openSplit(ins, nil, true)
	if err != nil {
		return nil, nil, err
	}
	defer c.release()
	var given []int
	for _, s := range ins {
		if s.hdr != nil && s.why != Forged {
			given = append(given, s.hdr.index)
		}
	}
	var batches []int
	for _, s := range c.live {
		batches = append(batches, s.hdr.first+s.hdr.size-1)
	}
	idx, err := choose(given, batches)
	if err != nil {
		return nil, nil, err
	}
	start(idx)
	var rw *rowWriter
	var plain []byte // each chunk's plaintext, cleared at once
	defer func() { clear(plain[:cap(plain)]) }()
	for !c.finished() {
		count := c.next()
		out, err := c.chunk(plain[:0])
		clear(out[:cap(out)])
		plain = out[:0]
		if err != nil {
			return nil, nil, err
		}
		if rw == nil {
			rw = newRowWriter(c, idx)
			for k, hd := range rw.headers {
				if err := write(k, hd); err != nil {
					return nil, nil, err
				}
			}
		}
		if err := rw.records(c.sealedData(len(out)), len(out), c.finished(), count, write); err != nil {
			return nil, nil, err
		}
	}
	return idx, c.badShares(), nil
}

// A rowWriter writes the records of new shares of a split, at indexes of
// its choosing, from the data fragments of each authenticated chunk: a
// data row's fragment is the chunk's own, a parity row's is computed by
// the dispersal code (rsCode.checker).
type rowWriter struct {
	idx     []int
	headers [][]byte
	seeds   []uint32 // where the new shares' record CRCs start
	tags    *tagger  // the records' tags, under the split's record key
	t       int
	slot    []int    // for each new share, its place in frags, or −1 for a data row
	chk     *matrix  // computes the parity rows' fragments from the data fragments
	frags   [][]byte // the parity rows' fragments, for one chunk
	fbuf    []byte   // holds frags
	rec     []byte   // one record
	num     chunkNum // the chunk's, here so that the tags' AEAD does not make it escape
}

// newRowWriter returns the writer of c's split's shares at idx, with their
// headers (combiner.newHeaders).
func newRowWriter(c *combiner, idx []int) *rowWriter {
	t := c.threshold()
	w := &rowWriter{idx: idx, headers: c.newHeaders(idx), tags: c.recordTags(), t: t, slot: make([]int, len(idx))}
	var rows []int
	for k, i := range idx {
		w.seeds = append(w.seeds, recordSeed(w.headers[k]))
		w.slot[k] = -1
		if i >= t {
			w.slot[k] = len(rows)
			rows = append(rows, i)
		}
	}
	if len(rows) > 0 {
		w.chk = (&rsCode{parts: maxIndex + 1, threshold: t}).checker(rows)
	}
	w.frags = make([][]byte, len(rows))
	return w
}

// records writes, with write, each new share's record of chunk count, of
// n plaintext bytes (the last if last is set), whose data fragments are
// data.
func (w *rowWriter) records(data [][]byte, n int, last bool, count uint64, write func(k int, b []byte) error) error {
	f := len(data[0])
	if len(w.frags) > 0 {
		if len(w.fbuf) < len(w.frags)*f {
			w.fbuf = make([]byte, len(w.frags)*f)
		}
		for r := range w.frags {
			w.frags[r] = w.fbuf[r*f : (r+1)*f]
		}
		w.chk.apply(data, w.frags, 0, f, false)
	}
	w.num.set(count, last) // the last flag is in the tags' nonce
	rl := recordOverhead + f
	w.rec = slices.Grow(w.rec[:0], rl)[:rl]
	for k, i := range w.idx {
		var frag []byte
		if w.slot[k] >= 0 {
			frag = w.frags[w.slot[k]]
		} else {
			frag = data[i]
		}
		// Every record written is computed here, its tag with it: none
		// is copied from a share given, whose tag may not have been
		// checked.
		putRecord(w.rec, n, last, frag, w.seeds[k], &w.num, w.tags, i)
		if err := write(k, w.rec); err != nil {
			return err
		}
	}
	return nil
}

// RefreshSSMSHeaders returns new headers for the shares of an SSMS split
// whose headers are given, in the same order: each of headers holds at
// least the header of a share ([SSMSInfo.HeaderSize] bytes, at most 312;
// the rest, if any, is not read). A
// share refreshed is its new header followed by its old records, unchanged:
// the record checksums do not cover the key share. So a split of any size
// is refreshed by rewriting its headers. Each batch of the shares given
// (the shares one operation made together, docs/FORMAT.md) is a batch of
// the new generation with the same range, signed once: every new header
// has the old one's length.
//
// The new key shares are the old ones plus the values at their x
// coordinates (index+1) of a uniformly random polynomial of degree below
// the threshold with constant term 0, drawn for this call from the
// generator SplitSSMS uses: any threshold new shares recover the secret, and
// old and new key shares do not mix (they are of two generations, and a
// mixture would interpolate a wrong key). The key is computed, to check it against the split ID
// and to sign the new headers (docs/FORMAT.md), and cleared; no chunk is. As with
// [Refresh], this protects against shares that leak one at a time, only as
// well as the old shares are destroyed; and the ciphertext is unchanged, so
// whoever recovered the key before the refresh can still decrypt the
// records. Against that, [ReshareSSMS] draws a new key.
//
// Give every share of the split, each once: a share not given is not
// refreshed, and no longer combines with the new ones (refreshing the others
// retires a lost share). Nothing can check that all were given: the header
// does not say how many shares a split has.
//
// Consistency first. The headers are read as [CombineSSMS] reads them: the
// every header's signature checked, the key recovered and checked
// against the split ID, the key shares held to one polynomial within the
// bound. RefreshSSMSHeaders refuses, with a [*CombineError] whose Bad names
// them and nothing refreshed, headers that are damaged or not SSMS, the
// same index twice, and headers that are [Forged] or [Inconsistent] (Err
// [ErrInconsistentShares], or wrapping a refusal of bad shares); shares of
// more than one split or generation ([ErrMixedSplits]); fewer shares than
// the threshold ([ErrNotEnoughShares]). The new headers are of the next
// generation: old and new shares are grouped apart and never combine.
// What it cannot check: the records, which are not read; [RefreshSSMS]
// reads them all and checks their tags.
func RefreshSSMSHeaders(headers [][]byte) ([][]byte, error) {
	ins := make([]*shareIn, len(headers))
	for i, s := range headers {
		ins[i] = &shareIn{pos: i}
		ins[i].hdr, ins[i].why = parseHeader(s)
	}
	c, err := openSplit(ins, nil, true)
	if err != nil {
		return nil, err
	}
	defer c.release()
	r := newRandom()
	defer r.release()
	return c.refresh(r)
}

// RefreshSSMS is [RefreshSSMSHeaders] for whole shares, read from shares,
// that checks every share whole first: it reads each share's every record,
// checks every record's tag (the refreshed shares keep the records, so a
// record altered by someone without the key, even one whose fragment agrees
// with the others, must not be kept) and opens every chunk, as
// [CombineSSMS] does, and refuses the refresh if any share is found bad. It returns the new headers, in the order of
// shares; the rest of each share is unchanged. Each chunk's plaintext is
// computed in scratch memory and cleared.
func RefreshSSMS(shares []io.Reader) (headers [][]byte, err error) {
	c, err := openSplit(streamIns(shares, "RefreshSSMS"), nil, true)
	if err != nil {
		return nil, err
	}
	defer c.release()
	c.checkEveryTag()
	var plain []byte
	defer func() { clear(plain[:cap(plain)]) }()
	for !c.finished() {
		out, err := c.chunk(plain[:0])
		clear(out[:cap(out)])
		plain = out[:0]
		if err != nil {
			return nil, err
		}
	}
	r := newRandom()
	defer r.release()
	return c.refresh(r)
}

// ReshareSSMS returns the shares of a new SSMS split, of parts shares any
// threshold of which recover it, of the secret that shares recover with
// [CombineSSMS]. The new split is made as [SplitSSMS] makes one: a new key,
// a new split ID, the secret encrypted again and dispersed for the new
// threshold. Its shares do not combine with the old ones.
//
// Why a new key even for the same threshold: the old key decrypts the old
// records, and whoever combined the old shares once has it; a new split
// worth the name must not be readable with it, so the secret is decrypted
// and encrypted again. (A new threshold needs a new dispersal anyway.) To
// keep the records and change only the key shares, [RefreshSSMSHeaders]; to
// add shares, [ExtendSSMS].
//
// The secret is computed: ReshareSSMS recovers it whole, in a buffer of its
// own that it clears once the new shares are made ([ReshareSSMSTo] holds one
// chunk at a time). Go cannot promise that no copy is left elsewhere; see
// docs/SECURITY.md. The results are CombineSSMS's: bad lists the old shares
// found bad, and err is a [*CombineError] when the secret is not
// recovered, or the error of SplitSSMS for parts and threshold outside
// 2 <= threshold <= parts <= 255.
func ReshareSSMS(shares [][]byte, parts, threshold int) (newShares [][]byte, bad []BadShare, err error) {
	if err := checkScheme(parts, threshold); err != nil {
		return nil, nil, fmt.Errorf("%w, for the new split", err)
	}
	secret, bad, err := CombineSSMS(shares)
	if err != nil {
		return nil, nil, err
	}
	defer clear(secret)
	newShares, err = SplitSSMS(secret, parts, threshold)
	if err != nil {
		return nil, nil, err
	}
	return newShares, bad, nil
}

// ReshareSSMSTo is [ReshareSSMS] for shares of any size: it reads the old
// shares as [NewCombineReader] does and writes the len(dst) new shares, any
// threshold of which recover the secret, as [NewSplitWriter] does, one chunk
// at a time: the secret is in memory a chunk at a time, in buffers cleared
// after use. If err is nil, the new shares were written whole; otherwise what
// was written to dst is incomplete and must be discarded. The writers are
// not closed.
func ReshareSSMSTo(dst []io.Writer, shares []io.Reader, threshold int) (bad []BadShare, err error) {
	if err := checkScheme(len(dst), threshold); err != nil {
		return nil, fmt.Errorf("%w, for the new split", err)
	}
	c, err := openSplit(streamIns(shares, "ReshareSSMSTo"), nil, true)
	if err != nil {
		return nil, err
	}
	defer c.release()
	r := newRandom()
	w, err := newSplitWriter(dst, threshold, defaultChunkSize, defaultAEAD(), r)
	r.release()
	if err != nil {
		return nil, err
	}
	var plain []byte // each chunk, cleared once written
	defer func() { clear(plain[:cap(plain)]) }()
	for !c.finished() {
		out, err := c.chunk(plain[:0])
		plain = out[:0]
		if err == nil {
			_, err = w.Write(out)
		}
		clear(out[:cap(out)])
		if err != nil {
			// The writer must not write its last chunk: the shares would
			// be those of a split of the part of the secret read so far.
			return nil, w.abort(err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return c.badShares(), nil
}
