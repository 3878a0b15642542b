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
// coef, row-major. No output row may overlap an input row.
type product struct {
	coef      []byte
	ins, outs [][]byte
	n         int

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

// smallRows is the number of row headers a product keeps on its stack.
const smallRows = 16

// run computes p, drawing its random rows, if any, from rng. It fails only
// if reading rng does.
//
// A product of one parallel chunk or less, and any product when GOMAXPROCS
// is 1, runs on the caller's goroutine with the matrix and, for up to
// smallRows rows, the row headers on its stack: a short secret's Split or
// Combine allocates nothing here. Longer ones run on up to GOMAXPROCS
// goroutines, which get heap copies of both.
//
// rng is not a field of p: escape analysis does not tell a struct's fields
// apart, and rng leaking (to its Read method) would move the row lists and
// coefficients that p points to to the heap.
func (p product) run(rng io.Reader) error {
	chunks := max(1, (p.n+parallelChunk-1)/parallelChunk)
	var keys []byte
	if chunks > 1 && p.random > 0 {
		keys = make([]byte, chunks*32)
		defer clear(keys)
		if _, err := io.ReadFull(rng, keys); err != nil {
			return fmt.Errorf("shamir: reading randomness: %w", err)
		}
	}
	if chunks > 1 && runtime.GOMAXPROCS(0) > 1 {
		p.parallel(keys)
		return nil
	}
	var m matrix
	m.init(active, p.coef, len(p.outs), len(p.ins), p.n)
	var hdr [smallRows][]byte
	ins, outs, scratch := p.headers(hdr[:])
	defer clear(scratch)
	if keys == nil {
		return p.blocks(&m, ins, outs, scratch, 0, p.n, rng)
	}
	for i := range chunks {
		p.chunk(&m, ins, outs, scratch, i, keys)
	}
	return nil
}

// parallel computes p's chunks on up to GOMAXPROCS goroutines. The
// goroutines get copies of the row lists, so that the caller's stay on its
// stack.
func (p product) parallel(keys []byte) {
	m := new(matrix)
	m.init(active, p.coef, len(p.outs), len(p.ins), p.n)
	rows := append(append(make([][]byte, 0, len(p.ins)+len(p.outs)), p.ins...), p.outs...)
	q := product{ins: rows[:len(p.ins)], outs: rows[len(p.ins):], n: p.n, random: p.random}
	forChunks(p.n, func() (func(i, lo, hi int), func()) {
		ins, outs, scratch := q.headers(nil)
		work := func(i, _, _ int) { q.chunk(m, ins, outs, scratch, i, keys) }
		if scratch == nil {
			return work, nil
		}
		return work, func() { clear(scratch) }
	})
}

// chunk computes the parallel chunk i of p, its random rows drawn from the
// keystream under the chunk's key if there are keys.
func (p product) chunk(m *matrix, ins, outs [][]byte, scratch []byte, i int, keys []byte) {
	lo, hi := i*parallelChunk, min(p.n, (i+1)*parallelChunk)
	if keys == nil {
		p.blocks(m, ins, outs, scratch, lo, hi, nil)
		return
	}
	s := newKeystream((*[32]byte)(keys[i*32:]))
	p.blocks(m, ins, outs, scratch, lo, hi, s) // a keystream never fails
	s.wipe()
}

// headers returns row headers for blocks, in buf if it has room, and the
// scratch for a block of each nil random row.
func (p product) headers(buf [][]byte) (ins, outs [][]byte, scratch []byte) {
	k := len(p.ins) + len(p.outs)
	if k > len(buf) {
		buf = make([][]byte, k)
	}
	nils := 0
	for _, r := range p.ins[len(p.ins)-p.random:] {
		if r == nil {
			nils++
		}
	}
	if nils > 0 {
		scratch = make([]byte, nils*min(p.n, blockSize))
	}
	return buf[:len(p.ins)], buf[len(p.ins):k], scratch
}

// blocks computes the columns [lo, hi) of p with the matrix m, a block at a
// time, pointing the headers ins and outs at the block's rows and drawing
// the block's random rows from rng.
func (p product) blocks(m *matrix, ins, outs [][]byte, scratch []byte, lo, hi int, rng io.Reader) error {
	for off := lo; off < hi; off += blockSize {
		bn := min(blockSize, hi-off)
		s := scratch
		for j, in := range p.ins {
			if in != nil {
				ins[j] = in[off : off+bn]
			} else {
				ins[j], s = s[:bn], s[bn:]
			}
			if j >= len(p.ins)-p.random {
				if err := readFull(rng, ins[j]); err != nil {
					return fmt.Errorf("shamir: reading randomness: %w", err)
				}
			}
		}
		for i, out := range p.outs {
			outs[i] = out[off : off+bn]
		}
		m.apply(ins, outs, 0, bn, false)
	}
	return nil
}

// forChunks cuts [0, n) into chunks of parallelChunk bytes (the last one
// shorter) and calls, for each chunk i, work(i, lo, hi), where work comes
// from setup. With more than one chunk, the chunks are shared out to up to
// GOMAXPROCS goroutines, the caller's among them, each of which calls setup
// once, so per-goroutine scratch is allocated once per goroutine, not per
// chunk, and calls done, if not nil, when it has no more chunks to take.
// Which goroutine takes which chunk varies; what work computes must not
// depend on it.
func forChunks(n int, setup func() (work func(i, lo, hi int), done func())) {
	forChunksOf(n, parallelChunk, setup)
}

// forChunksOf is forChunks with chunks of size units: [0, n) is cut at
// multiples of size.
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
	q.wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer q.wg.Done()
			q.take()
		}()
	}
	q.take()
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
