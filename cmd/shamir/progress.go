package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is shown only for work that takes a while: on inputs of at least
// progressMinSize, or of unknown size, and only once progressDelay has
// passed, so that quick runs print nothing.
const (
	progressMinSize = 64 << 20
	progressDelay   = time.Second
	progressTick    = 200 * time.Millisecond
)

// A progress draws a progress bar on stderr, when stderr is a terminal, for
// the bytes read through its reader.
type progress struct {
	label string
	total int64 // -1 when unknown
	n     atomic.Int64
	stopc chan struct{}
	wg    sync.WaitGroup
}

// startProgress returns a progress for label (a verb and a name, such as
// "splitting secret.tar") over total bytes, or -1 if unknown. It draws nothing
// when quiet, when stderr is no terminal, or for a small input.
func startProgress(label string, total int64, quiet bool) *progress {
	p := &progress{label: label, total: total}
	if quiet || !isTerminal(os.Stderr) || 0 <= total && total < progressMinSize {
		return p
	}
	p.stopc = make(chan struct{})
	p.wg.Add(1)
	go p.draw()
	return p
}

// reader counts what is read from r.
func (p *progress) reader(r io.Reader) io.Reader { return &countingReader{r, &p.n} }

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// stop erases the bar.
func (p *progress) stop() {
	if p.stopc == nil {
		return
	}
	close(p.stopc)
	p.wg.Wait()
	p.stopc = nil
}

func (p *progress) draw() {
	defer p.wg.Done()
	start := time.Now()
	tick := time.NewTicker(progressTick)
	defer tick.Stop()
	drawn := false
	for {
		select {
		case <-p.stopc:
			if drawn {
				fmt.Fprint(os.Stderr, "\r\033[K")
			}
			return
		case <-tick.C:
		}
		elapsed := time.Since(start)
		if elapsed < progressDelay {
			continue
		}
		drawn = true
		n := p.n.Load()
		rate := fmt.Sprintf("%s/s", size(int64(float64(n)/elapsed.Seconds())))
		if p.total <= 0 {
			fmt.Fprintf(os.Stderr, "\r\033[K%s  %s  %s", p.label, size(n), rate)
			continue
		}
		const width = 30
		frac := min(float64(n)/float64(p.total), 1)
		full := int(frac * width)
		bar := strings.Repeat("=", full) + strings.Repeat(" ", width-full)
		fmt.Fprintf(os.Stderr, "\r\033[K%s  [%s] %3.0f%%  %s of %s  %s", p.label, bar, frac*100, size(n), size(p.total), rate)
	}
}

// size formats a byte count for people: 1.5 GiB.
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 4 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTP"[i])
}
