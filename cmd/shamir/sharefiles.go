package main

import (
	"errors"
	"io"
	"os"
	"slices"
	"sync"
)

// Share files are opened when they are read and closed after, so that the
// number of inputs is bounded by memory, not by the limit on open files: a
// folder may hold thousands of planted copies of a share, and the library
// reads every share given to check them all. A filePool keeps at most
// maxOpenShares of them open, the ones read last; the others are opened
// again when read, at the offset asked for (they are read with ReadAt), and
// each is closed once read to its end.
//
// An age-encrypted share file is pooled too, and decrypted again with the
// file key that first opened it (agereopen.go): what opened it (a key, a
// passphrase typed, a plugin) is not asked again. Only a pipe or a device
// given as a share stays open from the first read, as it cannot be read
// twice.

// maxOpenShares bounds the share files a filePool keeps open: well under
// the 256 descriptors some systems allow a process by default.
const maxOpenShares = 64

// A shareFile is the file an SSMS share is read from: a file kept open, or
// one opened when read (a pooledFile).
type shareFile interface {
	io.ReaderAt
	Close() error
}

// A filePool holds the share files open at a time.
type filePool struct {
	mu   sync.Mutex
	cond *sync.Cond
	open []*pooledFile // the files open, the one read last at the end
}

// add returns the share file at path, whose FileInfo was fi when it was
// first read; it is not open until it is read.
func (p *filePool) add(path string, fi os.FileInfo) *pooledFile {
	return &pooledFile{pool: p, path: path, fi: fi}
}

// A pooledFile is a share file that a filePool opens when it is read.
type pooledFile struct {
	pool *filePool
	path string
	fi   os.FileInfo

	// Guarded by pool.mu.
	f    *os.File
	busy int  // ReadAt calls in progress
	done bool // closed for good
}

// errChanged is a share file replaced between its first read and another.
var errChanged = errors.New("the file was replaced while it was read")

// ReadAt reads the file at off, opening it first if it is not open. The
// file opened must be the one first read: a share file swapped for another
// in between is an error, not another share. Once read to its end, the
// file is closed.
func (f *pooledFile) ReadAt(b []byte, off int64) (int, error) {
	file, err := f.pool.acquire(f)
	if err != nil {
		return 0, err
	}
	n, err := file.ReadAt(b, off)
	f.pool.release(f, err == io.EOF)
	return n, err
}

// Close closes the file, for good.
// Stat returns what the file was when it was added: a change records it as
// read, and checks before its commit point that it has not changed since.
func (f *pooledFile) Stat() (os.FileInfo, error) { return f.fi, nil }

func (f *pooledFile) Close() error {
	p := f.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	f.done = true
	if f.busy == 0 {
		p.closeLocked(f)
	}
	return nil
}

// acquire returns f's file, opened if need be; while the pool is full it
// closes the file read longest ago that no one is reading, or waits for one.
func (p *filePool) acquire(f *pooledFile) (*os.File, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cond == nil {
		p.cond = sync.NewCond(&p.mu)
	}
	if f.done {
		return nil, os.ErrClosed
	}
	for f.f == nil {
		if len(p.open) >= maxOpenShares {
			i := slices.IndexFunc(p.open, func(o *pooledFile) bool { return o.busy == 0 })
			if i < 0 {
				p.cond.Wait()
				continue
			}
			p.closeLocked(p.open[i])
			continue
		}
		file, err := os.Open(f.path)
		if err != nil {
			return nil, err
		}
		if fi, err := file.Stat(); err != nil || !os.SameFile(fi, f.fi) {
			file.Close()
			return nil, &os.PathError{Op: "open", Path: f.path, Err: errChanged}
		}
		f.f = file
		p.open = append(p.open, f)
	}
	f.busy++
	// The one read last goes to the end.
	if i := slices.Index(p.open, f); i >= 0 && i < len(p.open)-1 {
		p.open = append(slices.Delete(p.open, i, i+1), f)
	}
	return f.f, nil
}

// release ends a ReadAt of f; at the end of the file, f is closed (it is
// opened again if read again).
func (p *filePool) release(f *pooledFile, atEnd bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f.busy--
	if f.busy == 0 && (atEnd || f.done) {
		p.closeLocked(f)
	}
	p.cond.Broadcast()
}

// closeLocked closes f's file, if open.
func (p *filePool) closeLocked(f *pooledFile) {
	if f.f == nil {
		return
	}
	f.f.Close()
	f.f = nil
	p.open = slices.DeleteFunc(p.open, func(o *pooledFile) bool { return o == f })
}
