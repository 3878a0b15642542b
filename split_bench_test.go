package shamir

import (
	"testing"
)

// benchFill fills p with pseudo-random bytes. Every buffer a benchmark reads
// is filled before it is timed: memory fresh from the operating system that
// was never written maps the kernel's shared zero page, so reading it hits
// the cache and the benchmark times far less memory traffic than real
// inputs cause.
func benchFill(p []byte, seed uint64) {
	testRNG(seed).Read(p)
}

// BenchmarkSplitFloor splits Split of 1 MiB with (5, 3) into the work it
// cannot avoid, each part timed as Split does it, so that the parts add up
// to what Split costs:
//
//   - split: Split itself, of a random secret, for the sum to be compared
//     with in the same run;
//   - alloc: the shares, allocated as Split allocates them (allocShares:
//     5 shares of shareStride bytes in one buffer, and their headers),
//     which Go zeroes, with the garbage collections that follow;
//   - keystream: the (threshold-1)·1 MiB of random rows, drawn as Split
//     draws them (runChunks): a keystream from newKeystream per chunk of
//     parallelChunk bytes, read 16 KiB block by 16 KiB block into the first
//     two shares, so Split's VAES assembly where the CPU has it;
//   - gf256: the multiply-adds, as Split does them (split's Lagrange matrix
//     applied by splitter.run over the chunks), 3 input rows (the secret
//     and the two random shares) into the 3 other shares.
//     BenchmarkSplitFloor/klauspost/3x1MiB_3 in interop/ times
//     klauspost/reedsolomon on the same shape (3 data into 3 parity shards).
//
// Throughput counts bytes of secret throughout. Every buffer that a part
// reads or writes (secret, shares, keys) is filled with random bytes first,
// so none of its reads is served from the zero page and every page it
// writes is already mapped.
func BenchmarkSplitFloor(b *testing.B) {
	const size, parts, t = 1 << 20, 5, 3
	b.Run("split/1MiB_n5_t3", func(b *testing.B) {
		secret := make([]byte, size)
		benchFill(secret, 1)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Split(secret, parts, t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("alloc/5MiB", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			benchSink, benchSharesSink = allocShares(size, parts)
		}
	})
	b.Run("keystream/2MiB", func(b *testing.B) {
		buf, shares := allocShares(size, parts)
		benchFill(buf, 2)
		rows := shares[:t-1] // interpolation: the random rows are shares
		keys := make([]byte, (size+parallelChunk-1)/parallelChunk*32)
		benchFill(keys, 3)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			forChunks(size, func() (func(i, lo, hi int), func()) {
				return func(i, lo, hi int) {
					s := newKeystream((*[32]byte)(keys[i*32:]))
					for off := lo; off < hi; off += blockSize {
						bn := min(blockSize, hi-off)
						for _, r := range rows {
							s.Read(r[off : off+bn])
						}
					}
					s.wipe()
				}, nil
			})
		}
	})
	b.Run("gf256/3x1MiB_3", func(b *testing.B) {
		secret := make([]byte, size)
		benchFill(secret, 1)
		buf, shares := allocShares(size, parts)
		benchFill(buf, 2)
		p := benchProduct(b, secret, shares, t)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			p.run(nil)
		}
	})
}

// benchProduct builds the product split runs for a long secret when it
// interpolates, as it does for (5, 3), with the random rows (the first
// t−1 shares) given, already filled, instead of drawn.
func benchProduct(b *testing.B, secret []byte, shares [][]byte, t int) *product {
	parts := len(shares)
	if (parts-t+1)*t >= parts*(t-1) {
		b.Fatalf("split evaluates (%d, %d), it does not interpolate", parts, t)
	}
	xs := make([]byte, parts)
	if err := randomXs(testRNG(4), xs, make([]byte, xsScratch)); err != nil {
		b.Fatal(err)
	}
	var known [255]byte // 0, then the first t−1 x coordinates
	copy(known[1:], xs[:t-1])
	ins := append([][]byte{secret}, shares[:t-1]...)
	return &product{coef: lagrange(nil, known[:t], xs[t-1:]), ins: ins, outs: shares[t-1:], n: len(secret)}
}

var (
	benchSink       []byte
	benchSharesSink [][]byte
)
