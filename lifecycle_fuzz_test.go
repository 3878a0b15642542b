package shamir

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// The fuzz targets of Recreate, Extend, Refresh and Reshare: on arbitrary
// bytes as parts, they fail cleanly or derive shares that agree with the
// byte-by-byte reference (evalAt, combineRef), and they derive nothing from
// parts that Verify finds inconsistent.

// checkDerived checks shares derived from parts (threshold th) at the x
// coordinates xs against the reference interpolation.
func checkDerived(t *testing.T, parts, shares [][]byte, th int, xs []byte) {
	t.Helper()
	n := len(parts[0]) - 1
	if len(shares) != len(xs) {
		t.Fatalf("%d shares for %d x coordinates", len(shares), len(xs))
	}
	for i, s := range shares {
		if len(s) != n+1 || s[n] != xs[i] {
			t.Fatalf("share %d: %d bytes at x = %d, want %d at %d", i, len(s), s[len(s)-1], n+1, xs[i])
		}
		if want := evalAt(parts[:th], xs[i]); !bytes.Equal(s[:n], want) {
			t.Fatalf("share %d at x = %d: %x, want %x", i, xs[i], s[:n], want)
		}
	}
}

// checkRefused checks that err refuses parts as Verify does: the same
// error when Verify finds them inconsistent, and none otherwise.
func checkRefused(t *testing.T, name string, parts [][]byte, th int, err error) {
	t.Helper()
	bad, verr := Verify(parts, th)
	var ce *CombineError
	switch {
	case errors.Is(verr, ErrInconsistentShares):
		if err == nil || err.Error() != verr.Error() {
			t.Fatalf("%s = %v; Verify = %v", name, err, verr)
		}
	case verr == nil && len(bad) > 0:
		if !errors.As(err, &ce) || !errors.Is(err, ErrInconsistentShares) || !slices.Equal(ce.Bad, bad) {
			t.Fatalf("%s = %v; Verify = %v", name, err, bad)
		}
	case errors.Is(err, ErrInconsistentShares):
		t.Fatalf("%s = %v; Verify = %v, %v", name, err, bad, verr)
	}
}

func FuzzRecreate(f *testing.F) {
	f.Add([]byte("\x01\x02\x01\x03\x04\x02\x05\x06\x03"), uint8(3), uint8(2), []byte{7, 9}, uint8(2), []byte{4})
	f.Add([]byte("\x01\x02\x01\x03\x04\x02"), uint8(3), uint8(2), []byte{1}, uint8(0), []byte{})
	f.Add([]byte("secret"), uint8(2), uint8(2), []byte{0}, uint8(255), []byte{})
	f.Add([]byte("secret"), uint8(3), uint8(2), []byte{5, 5}, uint8(1), []byte{0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte, size, th uint8, xs []byte, count uint8, inUse []byte) {
		parts := chop(data, int(size))
		_, _, perr := parsePartsThreshold(parts, int(th))

		got, err := Recreate(parts, int(th), xs...)
		if perr != nil {
			if err != perr {
				t.Fatalf("Recreate = %v, want the parts' error %v", err, perr)
			}
		} else {
			if xerr := checkNewXs(xs, xsOf(parts)); xerr != nil {
				if err == nil || err.Error() != xerr.Error() {
					t.Fatalf("Recreate = %v, want %v", err, xerr)
				}
			} else {
				checkRefused(t, "Recreate", parts, int(th), err)
			}
		}
		if err == nil {
			checkDerived(t, parts, got, int(th), xs)
		} else if got != nil {
			t.Fatalf("Recreate = %d shares and %v", len(got), err)
		}

		got, err = Extend(parts, int(th), int(count), inUse)
		if err != nil {
			if got != nil {
				t.Fatalf("Extend = %d shares and %v", len(got), err)
			}
			if perr == nil && count > 0 && !errors.Is(err, errTooManyParts) {
				checkRefused(t, "Extend", parts, int(th), err)
			}
			return
		}
		if perr != nil {
			t.Fatalf("Extend accepted parts that fail with %v", perr)
		}
		if len(got) != int(count) {
			t.Fatalf("Extend made %d shares, want %d", len(got), count)
		}
		newXs := xsOf(got)
		for i, x := range newXs {
			if x == 0 || slices.Contains(inUse, x) || slices.Contains(xsOf(parts), x) || slices.Contains(newXs[:i], x) {
				t.Fatalf("Extend made a share at x = %d: in use", x)
			}
		}
		checkDerived(t, parts, got, int(th), newXs)
		checkRefused(t, "Extend", parts, int(th), nil)
	})
}

func FuzzRefresh(f *testing.F) {
	f.Add([]byte("secret"), uint8(5), uint8(3), []byte{0, 0, 1}, uint8(7), uint8(4))
	f.Add([]byte("a"), uint8(2), uint8(2), []byte{}, uint8(2), uint8(2))
	f.Add([]byte("a longer secret"), uint8(9), uint8(2), []byte{1, 0, 1, 2, 3, 4}, uint8(3), uint8(9))
	f.Fuzz(func(t *testing.T, secret []byte, n, th uint8, damage []byte, newN, newT uint8) {
		// The references cost up to parts·threshold²·len(secret) field
		// multiplications: small splits of short secrets only (the tests
		// have the large ones).
		n, th, secret = n%24, th%24, secret[:min(len(secret), 64)]
		// Shares of a split, maybe damaged, maybe not all of them.
		parts, _, ok := damaged(secret, n, th, damage)
		if !ok {
			// Arbitrary bytes: no panic, and no shares from what Verify
			// refuses.
			raw := chop(damage, 2+int(n%8))
			_, err := Refresh(raw, int(th))
			if _, _, perr := parsePartsThreshold(raw, int(th)); perr != nil {
				if err != perr {
					t.Fatalf("Refresh = %v, want the parts' error %v", err, perr)
				}
			} else {
				checkRefused(t, "Refresh", raw, int(th), err)
			}
			return
		}
		if len(damage) > 0 && len(parts) > int(th) {
			parts = parts[:int(th)+int(damage[0])%(len(parts)-int(th)+1)]
		}
		want := combineRef(parts[:th])

		fresh, err := Refresh(parts, int(th))
		checkRefused(t, "Refresh", parts, int(th), err)
		if err == nil {
			if !bytes.Equal(xsOf(fresh), xsOf(parts)) {
				t.Fatal("Refresh moved the x coordinates")
			}
			checkDelta(t, parts, fresh, int(th), "Refresh")
			if got := combineRef(fresh[len(fresh)-int(th):]); !bytes.Equal(got, want) {
				t.Fatalf("refreshed shares combine to %x, want %x", got, want)
			}
		}

		re, err := Reshare(parts, int(th), int(newN), int(newT))
		if cerr := checkScheme(int(newN), int(newT)); cerr != nil {
			if !errors.Is(err, cerr) {
				t.Fatalf("Reshare to (%d, %d) = %v, want %v", newN, newT, err, cerr)
			}
			return
		}
		checkRefused(t, "Reshare", parts, int(th), err)
		if err == nil {
			if len(re) != int(newN) {
				t.Fatalf("Reshare made %d shares, want %d", len(re), newN)
			}
			if got := combineRef(re[:newT]); !bytes.Equal(got, want) {
				t.Fatalf("reshared shares combine to %x, want %x", got, want)
			}
		}
	})
}
