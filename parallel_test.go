package shamir

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestProductAdd checks that a product with add set adds M·ins into its
// outputs: the same outputs as without add, XORed into what they held, with
// given rows and with random ones (given and nil), on one goroutine and on
// several, over one block, several blocks and several parallel chunks.
func TestProductAdd(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 31, 100, blockSize + 3, 2*parallelChunk + 7} {
		for _, random := range []int{0, 1, 2} {
			for _, nilRows := range []bool{false, true} {
				if nilRows && random == 0 {
					continue
				}
				for _, procs := range []int{1, 2} {
					runtime.GOMAXPROCS(procs)
					const cols, rows = 4, 3
					coef := randBytes(rng, rows*cols)
					ins := make([][]byte, cols)
					for j := range ins {
						if j >= cols-random && nilRows {
							continue
						}
						ins[j] = randBytes(rng, n)
					}
					old := make([][]byte, rows)
					plain := make([][]byte, rows)
					added := make([][]byte, rows)
					for i := range old {
						old[i] = randBytes(rng, n)
						plain[i] = make([]byte, n)
						added[i] = bytes.Clone(old[i])
					}
					seed := [32]byte{byte(n), byte(random)}
					p := &product{coef: coef, ins: ins, outs: plain, n: n, random: random}
					if err := p.run(rand.NewChaCha8(seed)); err != nil {
						t.Fatal(err)
					}
					p = &product{coef: coef, ins: ins, outs: added, n: n, random: random, add: true}
					if err := p.run(rand.NewChaCha8(seed)); err != nil {
						t.Fatal(err)
					}
					for i := range added {
						for k := range n {
							if added[i][k] != old[i][k]^plain[i][k] {
								t.Fatalf("n %d, %d random rows (nil %v), GOMAXPROCS %d: row %d byte %d: %#x, want %#x ^ %#x",
									n, random, nilRows, procs, i, k, added[i][k], old[i][k], plain[i][k])
							}
						}
					}
					if random == 0 && n <= blockSize+3 {
						// Against the definition, byte by byte.
						for i := range rows {
							for k := range n {
								want := old[i][k]
								for j := range cols {
									want ^= gfMul(coef[i*cols+j], ins[j][k])
								}
								if added[i][k] != want {
									t.Fatalf("n %d: row %d byte %d: %#x, want %#x", n, i, k, added[i][k], want)
								}
							}
						}
					}
				}
			}
		}
	}
}
