//go:build dudect

package shamir

// A statistical test of constant time in the style of dudect (Reparaz,
// Balasch and Verbauwhede, "Dude, is my code constant time?", 2017). Each
// target is run many times on inputs from two classes, interleaved at random:
// one fixed input, and fresh random inputs. Only the secret data differ
// between the classes; lengths, x coordinates and coefficients are the same.
// If the time of an operation depends on its secret data, the two
// distributions of run times differ, and Welch's t-test tells them apart
// once there are enough samples. As dudect does, the test is also run on the
// samples below several percentiles, which removes the long tail of
// interruptions that would otherwise hide a small difference.
//
// A |t| above 4.5 is dudect's threshold for a likely leak; the test fails
// above -dudect.t (10 by default), as shared and virtual machines produce
// occasional false positives between the two. A pass is evidence, not proof:
// it says nothing about CPUs and compilers it did not run on, and it cannot
// see leaks smaller than the noise. Run it with
//
//	go test -tags dudect -run Dudect -v [-dudect.samples N]
//
// and on every kernel the CPU has (the kernels subtests run each one).

import (
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var (
	dudectSamples = flag.Int("dudect.samples", 100000, "measurements per target")
	dudectT       = flag.Float64("dudect.t", 10, "fail when |t| exceeds this")
	dudectFixed   = flag.String("dudect.fixed", "zero", "the fixed class: zero or pattern")
)

// welch accumulates the two classes' means and variances (Welford).
type welch struct {
	n, mean, m2 [2]float64
}

func (w *welch) add(class int, x float64) {
	w.n[class]++
	d := x - w.mean[class]
	w.mean[class] += d / w.n[class]
	w.m2[class] += d * (x - w.mean[class])
}

func (w *welch) t() float64 {
	if w.n[0] < 2 || w.n[1] < 2 {
		return 0
	}
	v0 := w.m2[0] / (w.n[0] - 1)
	v1 := w.m2[1] / (w.n[1] - 1)
	return (w.mean[0] - w.mean[1]) / math.Sqrt(v0/w.n[0]+v1/w.n[1])
}

// A target prepares the input of one run for a class (0 fixed, 1 random)
// into slot, outside the measurement, and runs on slot.
type target struct {
	name    string
	slots   int
	prepare func(slot, class int)
	run     func(slot int)
}

// dudect measures tg and returns the largest |t| over the crops.
func dudect(t *testing.T, tg target) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	n := *dudectSamples
	times := make([]float64, 0, n)
	classes := make([]int, 0, n)
	cls := make([]int, tg.slots)
	for len(times) < n {
		for s := range cls {
			cls[s] = rng.IntN(2)
			tg.prepare(s, cls[s])
		}
		for s := range cls {
			start := time.Now()
			tg.run(s)
			d := time.Since(start)
			times = append(times, float64(d))
			classes = append(classes, cls[s])
		}
	}
	// The first batch warms caches and the branch predictor.
	times, classes = times[tg.slots:], classes[tg.slots:]

	sorted := slices.Clone(times)
	slices.Sort(sorted)
	worst := 0.0
	for _, p := range []float64{1, 0.99, 0.9, 0.75, 0.5} {
		limit := sorted[int(p*float64(len(sorted)-1))]
		var w welch
		for i, x := range times {
			if x <= limit {
				w.add(classes[i], x)
			}
		}
		tv := w.t()
		t.Logf("%-28s below p%-3.0f (%6.0f ns): n=%d mean fixed %.0f ns, random %.0f ns, t = %+.2f",
			tg.name, p*100, limit, int(w.n[0]+w.n[1]), w.mean[0], w.mean[1], tv)
		worst = max(worst, math.Abs(tv))
	}
	t.Logf("%-28s max |t| = %.2f", tg.name, worst)
	return worst
}

const dudectSlots = 256

// fill sets b to the fixed input or to fresh random bytes. The fixed input
// is all zeros, the value most likely to take a shortcut, or with
// -dudect.fixed=pattern the same pseudo-random bytes every time, which tells
// an effect of the value zero from one of changing data.
func fill(rng *rand.Rand, b []byte, class int) {
	for i := range b {
		switch {
		case class == 1:
			b[i] = byte(rng.Uint32())
		case *dudectFixed == "pattern":
			b[i] = byte(i*167 + i>>8*13 + 0x5b)
		default:
			b[i] = 0
		}
	}
}

// sharesAt evaluates the polynomials with coefficient rows coef at xs.
func sharesAt(xs []byte, coef [][]byte, shares [][]byte) {
	n := len(coef[0])
	ys := make([][]byte, len(xs))
	for i := range xs {
		ys[i] = shares[i][:n]
		shares[i][n] = xs[i]
	}
	newMatrix(genericKernel, vandermonde(nil, xs, len(coef)), len(xs), len(coef)).apply(coef, ys, 0, n, false)
}

// shareTarget prepares m shares of a size-byte secret with threshold th at
// fixed x coordinates: the fixed class always the same polynomials, the
// random class fresh ones.
func shareTarget(name string, size, m, th int, damage bool, run func(shares [][]byte)) target {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := []byte{1, 2, 3, 0x53, 0xca, 0xfe, 0xff}[:m]
	slots := make([][][]byte, dudectSlots)
	coef := make([][]byte, th)
	for i := range coef {
		coef[i] = make([]byte, size)
	}
	for s := range slots {
		slots[s] = make([][]byte, m)
		for i := range slots[s] {
			slots[s][i] = make([]byte, size+1)
		}
	}
	return target{
		name:  name,
		slots: dudectSlots,
		prepare: func(s, class int) {
			for _, c := range coef {
				fill(rng, c, class)
			}
			sharesAt(xs, coef, slots[s])
			if damage {
				// The same error in both classes: the time may depend on
				// the errors, not on the secret.
				slots[s][1][size/2] ^= 0x5a
			}
		},
		run: func(s int) { run(slots[s]) },
	}
}

func TestDudect(t *testing.T) {
	const size = 64
	var sink []byte

	secrets := make([][]byte, dudectSlots)
	for s := range secrets {
		secrets[s] = make([]byte, size)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	targets := []target{
		{
			name:    "Split/64B_n5_t3",
			slots:   dudectSlots,
			prepare: func(s, class int) { fill(rng, secrets[s], class) },
			run: func(s int) {
				shares, _ := Split(secrets[s], 5, 3)
				sink = shares[0]
			},
		},
		shareTarget("Combine/64B_t3", size, 3, 3, false, func(shares [][]byte) {
			sink, _ = Combine(shares)
		}),
		shareTarget("Verify/64B_n5_t3", size, 5, 3, false, func(shares [][]byte) {
			if bad, err := Verify(shares, 3); bad != nil || err != nil {
				panic("dudect: Verify failed on good shares")
			}
		}),
		shareTarget("CombineRobust/64B_n7_t3_1bad", size, 7, 3, true, func(shares [][]byte) {
			sink, _, _ = CombineRobust(shares, 3)
		}),
		shareTarget("Recreate/64B_t3", size, 3, 3, false, func(shares [][]byte) {
			out, _ := Recreate(shares, 3, 9)
			sink = out[0]
		}),
		shareTarget("Extend/64B_t3", size, 3, 3, false, func(shares [][]byte) {
			out, _ := Extend(shares, 3, 1, nil)
			sink = out[0]
		}),
		shareTarget("Refresh/64B_n5_t3", size, 5, 3, false, func(shares [][]byte) {
			out, _ := Refresh(shares, 3)
			sink = out[0]
		}),
		shareTarget("Reshare/64B_t3_to_n5_t3", size, 3, 3, false, func(shares [][]byte) {
			out, _ := Reshare(shares, 3, 5, 3)
			sink = out[0]
		}),
	}
	targets = append(targets, ssmsTargets(&sink)...)

	// gfMul, the scalar multiplication: no secret byte meets it (Verify's
	// decoder uses it on syndromes, which depend on the errors alone), but
	// it is the reference. Verify's per-position syndrome goes through the
	// kernels, measured below.
	scalars := make([][]byte, dudectSlots)
	for s := range scalars {
		scalars[s] = make([]byte, 256)
	}
	var acc byte
	targets = append(targets,
		target{
			name:    "gfMul/256",
			slots:   dudectSlots,
			prepare: func(s, class int) { fill(rng, scalars[s], class) },
			run: func(s int) {
				for _, b := range scalars[s] {
					acc ^= gfMul(0x53, b)
				}
			},
		},
	)

	// Every kernel through the engine: a 3×3 matrix of fixed public
	// coefficients over 1 KiB rows of fixed or random bytes.
	for _, k := range kernels() {
		const rowLen = 1024
		coef := []byte{0x02, 0x53, 0xca, 0xff, 0x01, 0x8d, 0x1b, 0x00, 0x80}
		m := newMatrix(k, coef, 3, 3)
		ins := make([][][]byte, dudectSlots)
		for s := range ins {
			ins[s] = [][]byte{make([]byte, rowLen), make([]byte, rowLen), make([]byte, rowLen)}
		}
		outs := [][]byte{make([]byte, rowLen), make([]byte, rowLen), make([]byte, rowLen)}
		targets = append(targets, target{
			name:  "kernel/" + k.name,
			slots: dudectSlots,
			prepare: func(s, class int) {
				for _, in := range ins[s] {
					fill(rng, in, class)
				}
			},
			run: func(s int) { m.apply(ins[s], outs, 0, rowLen, true) },
		})
	}
	// And a 2×5 matrix over 4 KiB rows: on gfni512, the straight-line form
	// (mulGFNI512), which the driver chooses for four inputs or more on
	// rows of a kilobyte or more.
	for _, k := range kernels() {
		const rowLen, cols = 4096, 5
		coef := []byte{0x02, 0x53, 0xca, 0xff, 0x01, 0x8d, 0x1b, 0x00, 0x80, 0x03}
		m := newMatrix(k, coef, 2, cols)
		ins := make([][][]byte, dudectSlots)
		for s := range ins {
			for range cols {
				ins[s] = append(ins[s], make([]byte, rowLen))
			}
		}
		outs := [][]byte{make([]byte, rowLen), make([]byte, rowLen)}
		targets = append(targets, target{
			name:  "kernel/" + k.name + "/2x5",
			slots: dudectSlots,
			prepare: func(s, class int) {
				for _, in := range ins[s] {
					fill(rng, in, class)
				}
			},
			run: func(s int) { m.apply(ins[s], outs, 0, rowLen, false) },
		})
	}

	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			if tv := dudect(t, tg); tv > *dudectT {
				t.Errorf("|t| = %.2f exceeds %.1f: the time depends on the secret input", tv, *dudectT)
			}
		})
	}
	_, _ = sink, acc
}

// ssmsTargets are the SSMS paths that meet key shares and plaintext: the
// fixed class is always the same split of the same secret (one key, one
// key polynomial), the random class a fresh split of a fresh secret, so
// that the key, the key shares, the plaintext and the ciphertext differ
// between the classes while every length, index and parameter is the same.
//
// The lifecycle functions that check every header's signature before they
// write (RecreateSSMS, ExtendSSMS, RefreshSSMSHeaders) cannot be measured
// so: two splits have two sets of signatures, public bytes that
// crypto/ed25519 verifies in a time that depends on them, and dudect would
// see that. Their targets split the same key and key shares in both
// classes (so the same headers and signatures) and differ in the secret,
// so in the plaintext and ciphertext they recreate; what they do with key
// shares is interpolation by the engine, as in CombineSSMS, and signing,
// which headers/derive_sign_n3 measures with the key and key shares
// varying, as headers/leaf_statement does the hash of a key share into
// its leaf and root. RefreshSSMSHeaders reads nothing but headers,
// so with the same headers in both classes it has no target.
func ssmsTargets(sink *[]byte) []target {
	const size, n, th = 64, 3, 2
	rng := rand.New(rand.NewPCG(7, 8))
	slots := make([][][]byte, dudectSlots)
	// Both classes split in prepare, into fresh memory, so that the runs
	// meet the same cache state; the fixed class with the same secret and
	// randomness every time, so the same shares.
	prepare := func(s, class int) {
		secret := make([]byte, size)
		var seed [32]byte
		fill(rng, secret, class)
		fill(rng, seed[:], class)
		var err error
		slots[s], err = splitSSMS(secret, n, th, defaultChunkSize, defaultAEAD(), rand.NewChaCha8(seed))
		if err != nil {
			panic(err)
		}
	}
	ssms := func(name string, run func(shares [][]byte)) target {
		return target{name: name, slots: dudectSlots, prepare: prepare, run: func(s int) { run(slots[s]) }}
	}
	sameKey := func(name string, run func(shares [][]byte)) target {
		return target{name: name, slots: dudectSlots, prepare: func(s, class int) {
			secret := make([]byte, size)
			fill(rng, secret, class)
			var err error
			slots[s], err = splitSSMS(secret, n, th, defaultChunkSize, defaultAEAD(), rand.NewChaCha8([32]byte{7}))
			if err != nil {
				panic(err)
			}
		}, run: func(s int) { run(slots[s]) }}
	}
	return append([]target{signTarget(sink), checkTarget()},
		ssms("CombineSSMS/64B_n3_t2", func(shares [][]byte) {
			*sink, _, _ = CombineSSMS(shares[:n])
		}),
		sameKey("RecreateSSMS/64B_t2_samekey", func(shares [][]byte) {
			out, _, _ := RecreateSSMS(shares[:th], 2)
			*sink = out[0]
		}),
		sameKey("ExtendSSMS/64B_t2_samekey", func(shares [][]byte) {
			out, _, _ := ExtendSSMS(shares[:th], 1, []int{2})
			*sink = out[0]
		}),
		ssms("ReshareSSMS/64B_t2_to_n3_t2", func(shares [][]byte) {
			out, _, _ := ReshareSSMS(shares[:th], 3, 2)
			*sink = out[0]
		}),
	)
}

// checkTarget is where a key share enters a reader's signature check
// (signatureHolds): the leaf, the hash of the index and key share, then
// the root through the path and the batch statement (header.statement).
// The public bytes are one genuine header's in both classes; the key share
// is the fixed class's or a random one. The rest of the check, the split
// ID from the public key and key check and the signature over the
// statement, is on the leaf's root, which the format treats as public
// (docs/FORMAT.md: most leaves are in their siblings' paths):
// crypto/ed25519 verifies in variable time, and its time depends on the
// root, so it is no target. (Nor is a
// whole combine with forged shares: its classes are two splits, whose
// signatures differ.)
func checkTarget() target {
	rng := rand.New(rand.NewPCG(11, 12))
	shares, err := splitSSMS(make([]byte, 64), 3, 2, defaultChunkSize, defaultAEAD(), rand.NewChaCha8([32]byte{1}))
	if err != nil {
		panic(err)
	}
	genuine, _ := parseHeader(shares[0])
	hs := make([]header, dudectSlots)
	var sink [stmtSize]byte
	return target{
		name:  "headers/leaf_statement",
		slots: dudectSlots,
		prepare: func(s, class int) {
			hs[s] = *genuine
			fill(rng, hs[s].keyShare[:], class)
		},
		run: func(s int) {
			stmt := hs[s].statement()
			sink[0] ^= stmt[stmtSize-1]
		},
	}
}

// signTarget is the header path of a writer: the key check, the signing
// key derived from the split's key, and a batch of three headers: their
// key shares' leaves, the Merkle tree over them, one signature. The
// key and the key shares differ between the classes.
func signTarget(sink *[]byte) target {
	rng := rand.New(rand.NewPCG(9, 10))
	type slot struct {
		key       [keySize]byte
		keyShares [3][keySize]byte
	}
	slots := make([]slot, dudectSlots)
	var ad [adSize]byte
	copy(ad[:], ssmsMagic)
	ad[hdrVersion], ad[hdrAEAD], ad[hdrThreshold] = ssmsVersion, aesGCM, 2
	return target{
		name:  "headers/derive_sign_n3",
		slots: dudectSlots,
		prepare: func(s, class int) {
			fill(rng, slots[s].key[:], class)
			for i := range slots[s].keyShares {
				fill(rng, slots[s].keyShares[i][:], class)
			}
		},
		run: func(s int) {
			k := deriveKeys(&slots[s].key)
			ks := &slots[s].keyShares
			hs := k.batchHeaders(&ad, 0, 0, [][]byte{ks[0][:], ks[1][:], ks[2][:]}, []int{0, 1, 2})
			k.release()
			*sink = hs[0]
		},
	}
}

// leakyMul is gfMul with an early exit for zero, the kind of shortcut the
// package must not take.
func leakyMul(a, b byte) byte {
	if b == 0 {
		return 0
	}
	return gfMul(a, b)
}

// TestDudectControl checks that the harness sees a leak when there is one:
// leakyMul costs less on the fixed (zero) class.
func TestDudectControl(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	in := make([][]byte, dudectSlots)
	for s := range in {
		in[s] = make([]byte, 256)
	}
	var acc byte
	tv := dudect(t, target{
		name:    "control/leakyMul/256",
		slots:   dudectSlots,
		prepare: func(s, class int) { fill(rng, in[s], class) },
		run: func(s int) {
			for _, b := range in[s] {
				acc ^= leakyMul(0x53, b)
			}
		},
	})
	if tv <= *dudectT {
		t.Errorf("a leaky multiplication gives |t| = %.2f, not above %.1f: the harness cannot see leaks", tv, *dudectT)
	}
	_ = acc
}
