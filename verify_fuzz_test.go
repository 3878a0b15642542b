package shamir

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// The fuzz targets check properties that hold for every input, against
// independent references: byte-by-byte Lagrange interpolation for Combine,
// and for Verify and CombineRobust the shares as they were before the damage
// and, for small cases, the brute-force definition. Their seeds
// are in testdata/fuzz; CI runs each with -fuzztime.

// chop cuts data into parts of size bytes, dropping a short tail.
func chop(data []byte, size int) [][]byte {
	var parts [][]byte
	for len(data) >= size && size > 0 {
		parts = append(parts, data[:size:size])
		data = data[size:]
	}
	return parts
}

// combineRef is Combine one byte at a time, straight from the Lagrange form.
func combineRef(parts [][]byte) []byte {
	n := len(parts[0]) - 1
	xs := make([]byte, len(parts))
	for i, p := range parts {
		xs[i] = p[n]
	}
	secret := make([]byte, n)
	for j, p := range parts {
		num, den := byte(1), byte(1)
		for m, xm := range xs {
			if m != j {
				num = gfMul(num, xm)
				den = gfMul(den, xs[j]^xm)
			}
		}
		w := gfMul(num, gfInv(den))
		for k := range n {
			secret[k] ^= gfMul(w, p[k])
		}
	}
	return secret
}

func FuzzCombine(f *testing.F) {
	f.Add([]byte("\x01\x02\x01\x03\x04\x02"), uint8(3), uint8(5), uint8(3))
	f.Add([]byte("secret"), uint8(2), uint8(2), uint8(2))
	f.Add([]byte{}, uint8(0), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, size, n, th uint8) {
		// Arbitrary bytes as parts: Combine fails cleanly or agrees with
		// the reference.
		parts := chop(data, int(size))
		secret, err := Combine(parts)
		if err == nil {
			if want := combineRef(parts); !bytes.Equal(secret, want) {
				t.Fatalf("Combine = %x, reference %x", secret, want)
			}
		} else if secret != nil {
			t.Fatalf("Combine returned a secret and %v", err)
		}
		// AppendCombine agrees, after a prefix, in a buffer with room.
		buf := make([]byte, 1, 1+len(data))
		app, appErr := AppendCombine(buf, parts)
		if (appErr == nil) != (err == nil) || err == nil && !bytes.Equal(app[1:], secret) {
			t.Fatalf("AppendCombine = %x, %v; Combine = %x, %v", app, appErr, secret, err)
		}

		// data as a secret: any threshold of its shares give it back.
		shares, err := split(data, int(n), int(th), rand.NewChaCha8([32]byte{size}))
		if err != nil {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(size), 0))
		rng.Shuffle(len(shares), func(i, j int) { shares[i], shares[j] = shares[j], shares[i] })
		got, err := Combine(shares[:th])
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Combine of %d of %d shares = %x, %v; want %x", th, n, got, err, data)
		}
	})
}

// damaged splits secret into n shares with threshold th (when those are
// valid) and applies damage, read as triples (part, position, XOR value),
// where the position may be the x coordinate. It returns the shares and the
// parts that ended up different, unless the damage made a format error.
func damaged(secret []byte, n, th uint8, damage []byte) (parts [][]byte, changed []int, ok bool) {
	parts, err := split(secret, int(n), int(th), rand.NewChaCha8([32]byte{n, th}))
	if err != nil {
		return nil, nil, false
	}
	orig := clone2(parts)
	for ; len(damage) >= 3; damage = damage[3:] {
		p := parts[int(damage[0])%len(parts)]
		p[int(damage[1])%len(p)] ^= damage[2]
	}
	if _, _, err := parsePartsThreshold(parts, int(th)); err != nil {
		return nil, nil, false // a duplicate or zero x coordinate
	}
	// A part is bad where it is off the shares' polynomial at its x
	// coordinate, which may have moved.
	size := len(secret)
	for i, p := range parts {
		if !bytes.Equal(p[:size], evalAt(orig[:th], p[size])) {
			changed = append(changed, i)
		}
	}
	return parts, changed, true
}

// evalAt returns the values at x of the polynomials through parts.
func evalAt(parts [][]byte, x byte) []byte {
	n := len(parts[0]) - 1
	out := make([]byte, n)
	for j, p := range parts {
		w := byte(1) // L_j(x) = Π_{m≠j} (x − x_m)/(x_j − x_m)
		for m, q := range parts {
			if m != j {
				w = gfMul(w, gfMul(x^q[n], gfInv(p[n]^q[n])))
			}
		}
		for k := range n {
			out[k] ^= gfMul(w, p[k])
		}
	}
	return out
}

// checkDefinition compares Verify and CombineRobust on parts with the
// brute-force definition, when it is cheap enough to compute.
func checkDefinition(t *testing.T, parts [][]byte, th int) {
	if len(parts) > 9 || len(parts[0]) > 9 {
		return
	}
	want, wantOK := definition(parts, th)
	bad, err := Verify(parts, th)
	if wantOK != (err == nil) || !slices.Equal(bad, want) {
		t.Fatalf("Verify = %v, %v; want %v, %v", bad, err, want, wantOK)
	}
	secret, bad2, err := CombineRobust(parts, th)
	if wantOK != (err == nil) || !slices.Equal(bad2, want) || wantOK && !bytes.Equal(evalAt(onlyGood(parts, want)[:th], 0), secret) {
		t.Fatalf("CombineRobust = %x, %v, %v; want %v, %v", secret, bad2, err, want, wantOK)
	}
}

// onlyGood returns the parts not in bad.
func onlyGood(parts [][]byte, bad []BadShare) [][]byte {
	var good [][]byte
	for i, p := range parts {
		if !slices.ContainsFunc(bad, func(b BadShare) bool { return b.Position == i }) {
			good = append(good, p)
		}
	}
	return good
}

func FuzzVerify(f *testing.F) {
	f.Add([]byte("secret"), uint8(7), uint8(3), []byte{0, 0, 1})
	f.Add([]byte("a"), uint8(5), uint8(2), []byte{0, 0, 1, 3, 0, 2})
	f.Add([]byte("key"), uint8(4), uint8(3), []byte{3, 2, 0xff})
	f.Fuzz(func(t *testing.T, secret []byte, n, th uint8, damage []byte) {
		// Arbitrary bytes as parts: no panic, and the definition.
		raw := chop(damage, 2+int(n%8))
		if _, err := Verify(raw, int(th)); err == nil || errors.Is(err, ErrInconsistentShares) {
			checkDefinition(t, raw, int(th))
		}

		parts, changed, ok := damaged(secret, n, th, damage)
		if !ok {
			return
		}
		spare := int(n) - int(th)
		pos, located, err := verifyPositions(parts, int(th))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(changed) <= spare/2:
			if !located || !slices.Equal(pos, changed) {
				t.Fatalf("Verify = %v, %v; want positions %v", pos, located, changed)
			}
		case len(changed) <= spare:
			if located && len(pos) == 0 {
				t.Fatalf("Verify missed damage to %v", changed)
			}
		}
		checkDefinition(t, parts, int(th))
	})
}

func FuzzCombineRobust(f *testing.F) {
	f.Add([]byte("secret"), uint8(7), uint8(3), []byte{0, 0, 1, 6, 5, 9})
	f.Add([]byte("a longer secret"), uint8(9), uint8(2), []byte{1, 0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte("k"), uint8(3), uint8(3), []byte{})
	f.Fuzz(func(t *testing.T, secret []byte, n, th uint8, damage []byte) {
		parts, changed, ok := damaged(secret, n, th, damage)
		if !ok {
			return
		}
		got, badShares, err := CombineRobust(parts, int(th))
		bad := positions(badShares)
		if !allInconsistent(badShares) {
			t.Fatalf("CombineRobust: bad shares %v", badShares)
		}
		if len(changed) <= (int(n)-int(th))/2 {
			if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, changed) {
				t.Fatalf("CombineRobust = %x, %v, %v; want %x, %v", got, bad, err, secret, changed)
			}
		}
		// Whatever the damage, CombineRobust agrees with Verify, and its
		// secret is that of the parts it kept.
		vpos, located, verr := verifyPositions(parts, int(th))
		switch {
		case verr != nil:
			t.Fatal(verr)
		case err != nil:
			if got != nil || badShares != nil || located || !errors.Is(err, ErrInconsistentShares) {
				t.Fatalf("CombineRobust = %x, %v, %v; Verify located %v", got, bad, err, located)
			}
		default:
			if !located || !slices.Equal(vpos, bad) {
				t.Fatalf("CombineRobust set aside %v; Verify = %v, %v", bad, vpos, located)
			}
		}
		if err == nil {
			var kept [][]byte
			for i, p := range parts {
				if !slices.Contains(bad, i) {
					kept = append(kept, p)
				}
			}
			if want := combineRef(kept[:th]); !bytes.Equal(got, want) {
				t.Fatalf("CombineRobust = %x, interpolation of the kept parts %x", got, want)
			}
		}
	})
}
