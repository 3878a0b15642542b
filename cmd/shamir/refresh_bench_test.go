package main

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

// BenchmarkRefresh5x1MiB refreshes in place, in process, a folder of the 5
// share files of a 1 MiB secret (threshold 3), with the transaction of
// issue 23 ("tx=on": the folders' lock, the check that the files read are
// unchanged, the journal and its commit point) and without it ("tx=none":
// test hooks turn them off; no lock, no check, each new file renamed over
// its old one and the folder synced, as a set without a journal commits).
// The two measure what the transaction costs, in one process; interleaved,
// so that a change in the machine's load meets both:
//
//	go test -c -o refresh.test .
//	for i in $(seq 10); do for tx in on none; do
//		./refresh.test -test.run '^$' -test.bench "Refresh5x1MiB/tx=$tx\$" -test.benchtime 30x
//	done; done | tee new.txt
//	benchstat -col /tx new.txt
//
// The folder is made in $SHAMIR_BENCHDIR when set, else in the system's
// temporary folder: most of what the transaction costs is syncs, whose
// cost is that of the file system the shares are on (on a tmpfs, nothing),
// so measure on a disk.
func BenchmarkRefresh5x1MiB(b *testing.B) {
	for _, c := range []struct {
		name string
		off  bool
	}{{"tx=on", false}, {"tx=none", true}} {
		b.Run(c.name, func(b *testing.B) {
			testNoTransaction, outfile.TestHookNoJournal = c.off, c.off
			defer func() { testNoTransaction, outfile.TestHookNoJournal = false, false }()
			benchRefresh(b)
		})
	}
}

func benchRefresh(b *testing.B) {
	dir, err := os.MkdirTemp(os.Getenv("SHAMIR_BENCHDIR"), "refresh-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
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
