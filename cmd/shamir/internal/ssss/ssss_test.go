package ssss

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// needSSSS returns the path of ssss-split, skipping the test when ssss is
// not installed, except under CI, where it must be (test.sh installs it).
func needSSSS(t *testing.T) {
	t.Helper()
	for _, name := range []string{"ssss-split", "ssss-combine"} {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found, and CI=true: test.sh installs Debian's ssss package", name)
			}
			t.Skipf("%s not found: install Debian's ssss package (apt-get install ssss) to test against it", name)
		}
	}
}

// ssssSplit runs ssss-split on secret, given as hex (-x).
func ssssSplit(t *testing.T, secret []byte, n, th int, args ...string) []Share {
	t.Helper()
	cmd := exec.Command("ssss-split", append([]string{"-q", "-x", "-t", fmt.Sprint(th), "-n", fmt.Sprint(n)}, args...)...)
	cmd.Stdin = strings.NewReader(fmt.Sprintf("%x\n", secret))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ssss-split: %v", err)
	}
	var shares []Share
	for _, line := range strings.Fields(string(out)) {
		s, err := Parse(line)
		if err != nil {
			t.Fatalf("ssss-split wrote %q: %v", line, err)
		}
		shares = append(shares, s)
	}
	if len(shares) != n {
		t.Fatalf("ssss-split wrote %d shares, want %d:\n%s", len(shares), n, out)
	}
	return shares
}

// ssssCombine runs ssss-combine on shares, reading the secret in hex.
func ssssCombine(t *testing.T, shares []Share, th int, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("ssss-combine", append([]string{"-q", "-x", "-t", fmt.Sprint(th)}, args...)...)
	var in strings.Builder
	for _, s := range shares {
		fmt.Fprintln(&in, s.String(1))
	}
	cmd.Stdin = strings.NewReader(in.String())
	// ssss-combine writes the secret on stderr, after its warnings.
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ssss-combine: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var secret []byte
	if _, err := fmt.Sscanf(lines[len(lines)-1], "%x", &secret); err != nil {
		t.Fatalf("ssss-combine wrote %q", out)
	}
	return secret
}

// TestAgainstSSSS checks every field size and both settings of the
// diffusion layer, both ways: shares of ssss-split combined here, and
// shares made here combined by ssss-combine.
func TestAgainstSSSS(t *testing.T) {
	needSSSS(t)
	for n := 1; n <= MaxBits/8; n++ {
		if testing.Short() && n%8 != 1 && n != 8 && n != MaxBits/8 {
			continue
		}
		for _, diffusion := range []bool{true, false} {
			secret := make([]byte, n)
			rand.Read(secret)
			secret[0] |= 1 // ssss -x drops leading zero bytes on output
			var args []string
			if !diffusion {
				args = []string{"-D"}
			}
			th := 2 + n%3
			theirs := ssssSplit(t, secret, th+1, th, args...)
			got, err := Combine(theirs[1:], th, diffusion)
			if err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("%d bytes, diffusion %v: Combine of ssss-split's shares = %x, %v; want %x", n, diffusion, got, err, secret)
			}
			ours, err := Split(secret, th+1, th, "", diffusion, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			if got := ssssCombine(t, ours[:th], th, args...); !bytes.Equal(got, secret) {
				t.Fatalf("%d bytes, diffusion %v: ssss-combine of Split's shares = %x, want %x", n, diffusion, got, secret)
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 16, 33, 128} {
		secret := make([]byte, n)
		rand.Read(secret)
		shares, err := Split(secret, 5, 3, "tok", true, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range [][]Share{shares[:3], shares[2:], {shares[4], shares[0], shares[2]}, shares} {
			got, err := Combine(set, 3, true)
			if err != nil || !bytes.Equal(got, secret) {
				t.Fatalf("%d bytes: Combine = %x, %v; want %x", n, got, err, secret)
			}
		}
		// Fewer than the threshold, or the wrong threshold.
		if _, err := Combine(shares[:2], 3, true); err == nil {
			t.Errorf("%d bytes: 2 shares of threshold 3 combined", n)
		}
		if got, err := Combine(shares[:2], 2, true); err == nil && bytes.Equal(got, secret) {
			t.Errorf("%d bytes: threshold 2 recovered a threshold-3 secret", n)
		}
		if _, err := Combine(shares[:4], 2, true); !errors.Is(err, ErrInconsistent) {
			t.Errorf("%d bytes: 4 shares taken at threshold 2: %v, want ErrInconsistent", n, err)
		}
		// A damaged share among more than the threshold.
		bad := append([]Share(nil), shares...)
		bad[4].Y = append([]byte(nil), bad[4].Y...)
		bad[4].Y[0] ^= 1
		if _, err := Combine(bad, 3, true); !errors.Is(err, ErrInconsistent) {
			t.Errorf("%d bytes: a damaged share: %v, want ErrInconsistent", n, err)
		}
	}
}

func TestDiffusionInverse(t *testing.T) {
	for n := 8; n <= 20; n++ {
		b := make([]byte, n)
		rand.Read(b)
		c := append([]byte(nil), b...)
		diffuse(c)
		if bytes.Equal(b, c) {
			t.Fatalf("%d bytes: diffusion changed nothing", n)
		}
		unDiffuse(c)
		if !bytes.Equal(b, c) {
			t.Fatalf("%d bytes: undiffuse(diffuse(b)) != b", n)
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]Share{
		"1-6aeca8":        {X: 1, Y: []byte{0x6a, 0xec, 0xa8}},
		"  03-00ff \n":    {X: 3, Y: []byte{0, 0xff}},
		"tok-10-AB":       {Token: "tok", X: 10, Y: []byte{0xab}},
		"my-token-255-01": {Token: "my-token", X: 255, Y: []byte{1}},
	}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil || got.Token != want.Token || got.X != want.X || !bytes.Equal(got.Y, want.Y) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "-ab", "1-", "1-abc", "0-ab", "256-ab", "1234-ab", "x-ab", "1-xy",
		"1-" + strings.Repeat("ab", 129), strings.Repeat("t", 129) + "-1-ab", "a b-1-ab", "1.5-ab"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

func TestCombineErrors(t *testing.T) {
	a := Share{X: 1, Y: []byte{1, 2}}
	b := Share{X: 2, Y: []byte{3, 4}}
	for _, c := range []struct {
		shares []Share
		t      int
	}{
		{[]Share{a, b}, 1},
		{[]Share{a, b}, 3},
		{[]Share{a, {X: 2, Y: []byte{1}}}, 2},
		{[]Share{a, {X: 1, Y: []byte{3, 4}}}, 2},
		{[]Share{a, {Token: "x", X: 2, Y: []byte{3, 4}}}, 2},
		{[]Share{a, {X: 0, Y: []byte{3, 4}}}, 2},
		{[]Share{{X: 1}, {X: 2}}, 2},
	} {
		if _, err := Combine(c.shares, c.t, true); err == nil {
			t.Errorf("Combine(%+v, %d) accepted", c.shares, c.t)
		}
	}
}
