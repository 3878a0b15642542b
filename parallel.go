package shamir

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// This file is the engine's driver: callers describe a product — a matrix
// of public constants and the rows it is applied to — and run decides how
// it is computed: in blocks that stay in the first-level cache (see
// matrix.apply), on the caller's goroutine or on GOMAXPROCS of them, with
// the matrix and the row headers on the stack or on the heap.

// parallelChunk is the unit of work spread over goroutines. A chunk takes tens of
// microseconds on one core with the vector kernels, so a goroutine's start
// (about a microsecond) is noise; inputs of one chunk or less stay on the
// caller's goroutine and pay nothing.
const parallelChunk = 256 << 10

// A product is the engine's unit of work: outs = M·ins over the first n bytes
// of every row, where M is the len(outs)×len(ins) matrix of public constants
// coef, row-major, or outs += M·ins when add is set. No output row may
// overlap an input row.
type product struct {
	coef      []byte
	ins, outs [][]byte
	n         int
	add       bool

	// The last random rows of ins are not given but drawn from run's rng, a
	// block at a time just before the block is used: into the row itself,
	// or, where the row is nil, into scratch that run clears when done (the
	// random coefficients of a polynomial must not outlive their block).
	// When the product is longer than a parallel chunk, run reads a 32-byte
	// key per chunk from rng, in chunk order, and draws each chunk's rows
	// from a keystream under its key: the result depends on rng alone, not
	// on how the chunks are spread over goroutines.
	random int
}

// smallRows is the number of row headers a product with nil random rows
// keeps on its stack.
const smallRows = 16

// run computes p, drawing its random rows, if any, from rng. It fails only
// if reading rng does.
//
// A product of one parallel chunk or less, and any product when GOMAXPROCS
// is 1, runs on the caller's goroutine with the matrix and, for up to
// smallRows rows, the row headers it needs on its stack: a short secret's
// Split or Combine allocates nothing here. Longer ones run on up to
// GOMAXPROCS goroutines, which get heap copies of both.
//
// rng is not a field of p: escape analysis does not tell a struct's fields
// apart, and rng leaking (to its Read method) would move the row lists and
// coefficients that p points to to the heap. Callers make p with &product{}:
// a product{} literal is built aside and then copied, wider loads of
// narrower stores that stall the CPU, which a short secret's Combine feels.
func (p *product) run(rng io.Reader) error {
	if p.n <= parallelChunk {
		if done, err := p.short(rng); done {
			return err
		}
	}
	chunks := (p.n + parallelChunk - 1) / parallelChunk
	// In FIPS 140-3 mode every random byte comes from rng itself, which
	// reads crypto/rand, not from keystreams of the package's own. Chunks
	// then run in parallel only when rng reads the module's DRBG, which is
	// safe for concurrent use and whose output does not depend on the order
	// of the reads; any other reader (a test's, or crypto/rand.Reader as
	// testing/cryptotest.SetGlobalRandom replaces it) is read in order on
	// the caller's goroutine, so that the result depends on it alone.
	direct := fipsMode && p.random > 0
	var keys []byte
	if chunks > 1 && p.random > 0 && !direct {
		keys = make([]byte, chunks*32)
		if _, err := io.ReadFull(rng, keys); err != nil {
			clear(keys)
			return fmt.Errorf("shamir: reading randomness: %w", err)
		}
	}
	if chunks > 1 && runtime.GOMAXPROCS(0) > 1 && (!direct || readsDRBG(rng)) {
		var direct io.Reader
		if keys == nil {
			direct = rng
		}
		p.parallel(keys, direct)
		clear(keys)
		return nil
	}
	var m matrix
	m.init(active, p.coef, len(p.outs), len(p.ins), p.n)
	if p.random == 0 {
		m.apply(p.ins, p.outs, 0, p.n, p.add) // apply blocks the columns itself
		return nil
	}
	var hdr [][]byte
	var scratch []byte
	if p.nilRows() > 0 {
		var buf [smallRows][]byte
		hdr, scratch = p.headers(buf[:])
	}
	var err error
	if keys == nil {
		err = p.blocks(&m, hdr, scratch, 0, p.n, rng)
	} else {
		for i := range chunks {
			p.chunk(&m, hdr, scratch, i, keys, nil)
		}
		clear(keys)
	}
	clear(scratch)
	return err
}

// shortTable is the size of the expansion short computes on its stack.
const shortTable = 128

// short computes p in one call of the kernel, if p is short enough: one
// block, few enough outputs, columns the kernel takes whole, a matrix whose
// expansion fits shortTable bytes, and random rows, if any, that are given
// (not nil). This is the path of a short secret's Split and Combine, which
// spares them the matrix and the driver's bookkeeping (see matrix.block).
// It reports whether it took p, and then the error of reading rng, if any.
// It draws the random rows from rng as blocks does for a single block, in
// the same order, so the result is the same.
func (p *product) short(rng io.Reader) (bool, error) {
	k := active
	size := len(p.coef) * k.tableSize
	if p.n > blockSize || p.n&(k.width-1) != 0 || len(p.outs) > k.maxOut || size > shortTable {
		return false, nil
	}
	rows := p.ins[len(p.ins)-p.random:]
	for _, r := range rows {
		if r == nil {
			return false, nil
		}
	}
	for _, r := range rows {
		if err := readFull(rng, r[:p.n]); err != nil {
			return true, fmt.Errorf("shamir: reading randomness: %w", err)
		}
	}
	var tab [shortTable]byte
	expandAll(tab[:size], k, p.coef)
	if p.n > 0 {
		if k != genericKernel {
			raceRows(p.ins, p.outs, 0, p.n)
		}
		k.mulRows(tab[:size], p.ins, p.outs, 0, p.n, p.add)
	}
	return true, nil
}

// parallel computes p's chunks on up to GOMAXPROCS goroutines. The
// goroutines share a heap copy of p, with copies of its row lists, so that
// the caller's stay on its stack, and the matrix, in one allocation. The
// random rows are drawn from keystreams under keys or, in FIPS mode, from
// the DRBG reader direct.
func (p *product) parallel(keys []byte, direct io.Reader) {
	s := new(struct {
		p product
		m matrix
	})
	s.m.init(active, p.coef, len(p.outs), len(p.ins), p.n)
	rows := append(append(make([][]byte, 0, len(p.ins)+len(p.outs)), p.ins...), p.outs...)
	s.p = product{ins: rows[:len(p.ins)], outs: rows[len(p.ins):], n: p.n, add: p.add, random: p.random}
	nils := p.nilRows()
	forChunks(p.n, func() (func(i, lo, hi int), func()) {
		if nils == 0 {
			return func(i, _, _ int) { s.p.chunk(&s.m, nil, nil, i, keys, direct) }, nil
		}
		hdr, scratch := s.p.headers(nil)
		return func(i, _, _ int) { s.p.chunk(&s.m, hdr, scratch, i, keys, direct) },
			func() { clear(scratch) }
	})
}

// chunk computes the parallel chunk i of p, its random rows drawn from the
// keystream under the chunk's key if there are keys, and otherwise from
// direct (the FIPS module's DRBG, which never fails), if p has random rows.
func (p *product) chunk(m *matrix, hdr [][]byte, scratch []byte, i int, keys []byte, direct io.Reader) {
	lo, hi := i*parallelChunk, min(p.n, (i+1)*parallelChunk)
	if keys == nil {
		p.blocks(m, hdr, scratch, lo, hi, direct)
		return
	}
	s := newKeystream((*[32]byte)(keys[i*32:]))
	p.blocks(m, hdr, scratch, lo, hi, s) // a keystream never fails
	s.wipe()
}

// nilRows returns the number of nil random rows of p.
func (p *product) nilRows() int {
	n := 0
	for _, r := range p.ins[len(p.ins)-p.random:] {
		if r == nil {
			n++
		}
	}
	return n
}

// headers returns row headers for the inputs and outputs of blocks, in buf
// if it has room, and scratch for a block of each nil random row.
func (p *product) headers(buf [][]byte) (hdr [][]byte, scratch []byte) {
	if k := len(p.ins) + len(p.outs); k > len(buf) {
		buf = make([][]byte, k)
	}
	return buf, make([]byte, p.nilRows()*min(p.n, blockSize))
}

// blocks computes the columns [lo, hi) of p with the matrix m, a block at a
// time, drawing the block's random rows from rng just before. Without nil
// random rows, m is applied to p's rows directly. With them, hdr holds
// headers that blocks points at the block of each row, or at scratch for
// the nil ones.
func (p *product) blocks(m *matrix, hdr [][]byte, scratch []byte, lo, hi int, rng io.Reader) error {
	if p.random == 0 {
		m.apply(p.ins, p.outs, lo, hi-lo, p.add) // apply blocks the columns itself
		return nil
	}
	for off := lo; off < hi; off += blockSize {
		bn := min(blockSize, hi-off)
		ins, outs, at := p.ins, p.outs, off
		if scratch != nil {
			ins, outs, at = hdr[:len(p.ins)], hdr[len(p.ins):len(p.ins)+len(p.outs)], 0
			s := scratch
			for j, in := range p.ins {
				if in != nil {
					ins[j] = in[off : off+bn]
				} else {
					ins[j], s = s[:bn], s[bn:]
				}
			}
			for i, out := range p.outs {
				outs[i] = out[off : off+bn]
			}
		}
		for _, r := range ins[len(ins)-p.random:] {
			if err := readFull(rng, r[at:at+bn]); err != nil {
				return fmt.Errorf("shamir: reading randomness: %w", err)
			}
		}
		m.apply(ins, outs, at, bn, p.add)
	}
	return nil
}

// forChunks cuts [0, n) into chunks of parallelChunk bytes (the last one
// shorter) and calls, for each chunk i, work(i, lo, hi), where work comes
// from setup. With more than one chunk, the chunks are shared out to up to
// GOMAXPROCS goroutines, each of which calls setup once, so per-goroutine
// scratch is allocated once per goroutine, not per chunk, and calls done, if
// not nil, when it has no more chunks to take. Which goroutine takes which
// chunk varies; what work computes must not depend on it.
func forChunks(n int, setup func() (work func(i, lo, hi int), done func())) {
	forChunksOf(n, parallelChunk, setup)
}

// forChunksOf is forChunks with chunks of size units: [0, n) is cut at
// multiples of size.
//
// The caller starts as many goroutines as it wants workers and waits for
// them, rather than start one fewer and work as one: the scheduler puts the
// goroutine started last in its P's runnext slot, which an idle P steals
// from a running one only as a last resort, after a 3 µs sleep that Linux's
// default timer slack (50 µs) makes 70–110 µs long. A caller that went on
// working left its one helper there, and the second CPU took no chunk of a
// 1 MiB product at all (Combine with 3 to 16 shares, 40–180 µs; measured
// per chunk with getcpu on a 2-CPU AMD EPYC virtual machine). The
// goroutines started before the last one are in the P's ordinary run
// queue, which an idle P takes from as soon as its thread is awake (10–15
// µs there); the last one runs on the caller's P as soon as the caller
// waits.
func forChunksOf(n, size int, setup func() (work func(i, lo, hi int), done func())) {
	chunks := (n + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		work, done := setup()
		for i := range chunks {
			work(i, i*size, min(n, (i+1)*size))
		}
		if done != nil {
			done()
		}
		return
	}
	q := &chunkQueue{n: n, size: size, chunks: chunks, setup: setup}
	q.wg.Add(workers)
	for range workers {
		go func() {
			defer q.wg.Done()
			q.take()
		}()
	}
	q.wg.Wait()
}

// A chunkQueue hands out the chunks of forChunksOf to its goroutines. It is
// one allocation for all they share.
type chunkQueue struct {
	next            atomic.Int64
	wg              sync.WaitGroup
	n, size, chunks int
	setup           func() (work func(i, lo, hi int), done func())
}

// take sets up a goroutine's work and does chunks until there are no more.
func (q *chunkQueue) take() {
	work, done := q.setup()
	if done != nil {
		defer done()
	}
	for {
		i := int(q.next.Add(1) - 1)
		if i >= q.chunks {
			return
		}
		work(i, i*q.size, min(q.n, (i+1)*q.size))
	}
}
