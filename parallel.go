package shamir

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelChunk is the unit of work spread over goroutines. A chunk takes tens of
// microseconds on one core with the vector kernels, so a goroutine's start
// (about a microsecond) is noise; inputs of one chunk or less stay on the
// caller's goroutine and pay nothing.
const parallelChunk = 256 << 10

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
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work, done := setup()
			if done != nil {
				defer done()
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= chunks {
					return
				}
				work(i, i*size, min(n, (i+1)*size))
			}
		}()
	}
	wg.Wait()
}
