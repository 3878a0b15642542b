package main

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRefresh5x1MiB refreshes in place, in process, a folder of the 5
// share files of a 1 MiB secret (threshold 3): the cost of the lock and
// the journal (issue 23) beside that of reading, checking and rewriting
// the shares. It uses only the command's run function, so that the same
// file, copied onto an older tree, measures it before them:
//
//	go test -run '^$' -bench Refresh5x1MiB -count 10 . | tee new.txt
//	benchstat old.txt new.txt
func BenchmarkRefresh5x1MiB(b *testing.B) {
	dir := b.TempDir()
	secret := filepath.Join(dir, "secret")
	data := make([]byte, 1<<20)
	rand.Read(data)
	if err := os.WriteFile(secret, data, 0o600); err != nil {
		b.Fatal(err)
	}
	shares := filepath.Join(dir, "shares")
	if code := run([]string{"split", "-q", "-n", "5", "-t", "3", "-name", "s", "-o", shares, secret}); code != 0 {
		b.Fatalf("split: exit status %d", code)
	}
	b.SetBytes(5 << 20)
	b.ResetTimer()
	for range b.N {
		if code := run([]string{"refresh", "-q", "-n", "5", shares}); code != 0 {
			b.Fatalf("refresh: exit status %d", code)
		}
	}
}
