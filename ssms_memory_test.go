package shamir

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestSSMSMemoryBound checks that what the combiners allocate follows from
// the bytes given, not from the chunk size the headers claim: 255
// header-only shares, and a whole split of a short secret with the largest
// chunk size, each a few kilobytes.
func TestSSMSMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations")
	}
	secret := []byte("a short secret")
	shares := mustSplitSSMS(t, secret, 255, 2, maxChunkSize, defaultAEAD(), 60)
	headers := make([][]byte, len(shares))
	size := 0
	for i, s := range shares {
		headers[i] = s[:hl(s)]
		size += len(s)
	}
	read := func(given [][]byte) func() {
		return func() {
			rs := make([]io.Reader, len(given))
			for i, s := range given {
				rs[i] = bytes.NewReader(s)
			}
			if r, err := NewCombineReader(rs); err == nil {
				io.Copy(io.Discard, r)
			}
		}
	}
	const limit = 1 << 20
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"reader, 255 headers", read(headers)},
		{"CombineSSMS, 255 headers", func() { CombineSSMS(headers) }},
		{"reader, 255 shares of 1 MiB chunks", read(shares)},
		{"CombineSSMS, 255 shares of 1 MiB chunks", func() {
			if got, _, err := CombineSSMS(shares); err != nil || !bytes.Equal(got, secret) {
				t.Errorf("CombineSSMS: %q, %v", got, err)
			}
		}},
	} {
		if n := allocated(c.f); n > limit {
			t.Errorf("%s (%d bytes given): allocated %d bytes, want at most %d", c.name, size, n, limit)
		}
	}
}

// TestSplitWriterCloseAfterError checks that Close after a failed write
// returns the failure and keeps nothing of the secret.
func TestSplitWriterCloseAfterError(t *testing.T) {
	boom := errors.New("disk full")
	ws := []io.Writer{io.Discard, failWriter{boom}, io.Discard}
	w, err := newSplitWriter(ws, 2, 64, defaultAEAD(), testRNG(61))
	if err != nil {
		t.Fatal(err)
	}
	secret := testSecret(1000, 61)
	if _, err := w.Write(secret); !errors.Is(err, boom) {
		t.Fatalf("Write: %v, want the writer's error", err)
	}
	buf := w.buf[:cap(w.buf)]
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close: %v, want the writer's error", err)
	}
	if w.buf != nil || w.s != nil || !bytes.Equal(buf, make([]byte, len(buf))) {
		t.Fatal("Close after an error kept the chunk or the sealer")
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("second Close: %v", err)
	}
}
