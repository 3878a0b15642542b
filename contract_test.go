package shamir

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"
)

// TestContract checks the result contract of every combining function:
// with bad shares among enough good ones, err is nil, the secret is right,
// and the bad shares come back as values; with too few good ones, there is
// no secret and an error that says why.
func TestContract(t *testing.T) {
	secret := testSecret(3000, 40)

	// Plain shares: two bad of seven, threshold 3.
	plain, err := Split(secret, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	plain[2][10] ^= 1
	plain[6][0] ^= 0x80
	wantPlain := []BadShare{{Position: 2, Reason: Inconsistent}, {Position: 6, Reason: Inconsistent}}
	got, bad, err := CombineRobust(plain, 3)
	if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, wantPlain) {
		t.Errorf("CombineRobust = %d bytes, %v, %v; want the secret, %v, nil", len(got), bad, err, wantPlain)
	}
	if bad, err := Verify(plain, 3); err != nil || !slices.Equal(bad, wantPlain) {
		t.Errorf("Verify = %v, %v; want %v, nil", bad, err, wantPlain)
	}
	plain[4][1] ^= 1 // three bad of seven: more than ⌊4/2⌋
	if got, bad, err := CombineRobust(plain, 3); got != nil || bad != nil || !errors.Is(err, ErrInconsistentShares) {
		t.Errorf("CombineRobust with 3 bad of 7 = %d bytes, %v, %v; want ErrInconsistentShares", len(got), bad, err)
	}

	// SSMS shares: one damaged, one truncated, one of another split.
	shares, err := SplitSSMS(secret, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	other, err := SplitSSMS(secret, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	given := [][]byte{shares[0], slices.Clone(shares[1]), shares[2][:len(shares[2])-1], other[3], shares[4], shares[5]}
	given[1][len(given[1])-1] ^= 1
	want := []BadShare{{Position: 1, Reason: Damaged}, {Position: 2, Reason: Truncated}, {Position: 3, Reason: OtherSplit}}
	info, err := InspectSSMS(shares[0])
	if err != nil {
		t.Fatal(err)
	}
	id := info.SplitID
	got, bad, err = CombineSSMSSplit(given, SplitName{ID: id})
	if err != nil || !bytes.Equal(got, secret) || !slices.Equal(bad, want) {
		t.Errorf("CombineSSMSSplit = %d bytes, %v, %v; want the secret, %v, nil", len(got), bad, err, want)
	}
	// Not told the split, it recovers nothing, and says why.
	if got, bad, err := CombineSSMS(given); got != nil || bad != nil || !errors.Is(err, ErrMixedSplits) {
		t.Errorf("CombineSSMS of two splits = %d bytes, %v, %v; want ErrMixedSplits", len(got), bad, err)
	}
	for _, read := range []struct {
		name string
		f    func(io.Reader) ([]byte, error)
	}{
		{"io.ReadAll", io.ReadAll},
		{"io.Copy", func(r io.Reader) ([]byte, error) {
			var b bytes.Buffer
			_, err := io.Copy(&b, r)
			return b.Bytes(), err
		}},
	} {
		rs := make([]io.Reader, len(given))
		for i, s := range given {
			rs[i] = bytes.NewReader(s)
		}
		r, err := NewCombineReaderSplit(rs, SplitName{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		got, err := read.f(r)
		if err != nil || !bytes.Equal(got, secret) || !slices.Equal(r.BadShares(), want) {
			t.Errorf("%s(NewCombineReader) = %d bytes, %v, bad %v; want the secret, nil, %v", read.name, len(got), err, r.BadShares(), want)
		}
	}

	// Too few good shares: no secret, and the error says why.
	got, bad, err = CombineSSMSSplit(given[:4], SplitName{ID: id})
	var ce *CombineError
	if got != nil || bad != nil || !errors.As(err, &ce) || !errors.Is(err, ErrNotEnoughShares) ||
		ce.Good != 1 || ce.Needed != 3 || !slices.Equal(ce.Bad, want) {
		t.Errorf("CombineSSMS of 1 good share = %d bytes, %v, %v", len(got), bad, err)
	}
	rs := make([]io.Reader, 4)
	for i, s := range given[:4] {
		rs[i] = bytes.NewReader(s)
	}
	if r, err := NewCombineReaderSplit(rs, SplitName{ID: id}); err == nil {
		if _, err := io.ReadAll(r); !errors.As(err, &ce) || !errors.Is(err, ErrNotEnoughShares) {
			t.Errorf("io.ReadAll(NewCombineReader) of 1 good share: %v", err)
		}
	} else if !errors.Is(err, ErrNotEnoughShares) {
		t.Errorf("NewCombineReader of 1 good share: %v", err)
	}
}
