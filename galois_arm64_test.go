//go:build !purego

package shamir

import "testing"

// TestNEONContractChecks makes sure the Go wrapper refuses arguments that
// would let the assembly run outside the rows, instead of trusting them.
func TestNEONContractChecks(t *testing.T) {
	row := func(n int) []byte { return make([]byte, n) }
	tab := make([]byte, 5*2*32)
	cases := []struct {
		name      string
		tab       []byte
		ins, outs [][]byte
		off, n    int
	}{
		{"n not a multiple of 16", tab, [][]byte{row(64)}, [][]byte{row(64)}, 0, 24},
		{"negative n", tab, [][]byte{row(64)}, [][]byte{row(64)}, 0, -16},
		{"negative off", tab, [][]byte{row(64)}, [][]byte{row(64)}, -16, 16},
		{"no inputs", tab, nil, [][]byte{row(64)}, 0, 16},
		{"five outputs", tab, [][]byte{row(64)}, [][]byte{row(64), row(64), row(64), row(64), row(64)}, 0, 16},
		{"short table", tab[:3*32], [][]byte{row(64), row(64)}, [][]byte{row(64), row(64)}, 0, 16},
		{"short input", tab, [][]byte{row(64), row(47)}, [][]byte{row(64)}, 16, 32},
		{"short output", tab, [][]byte{row(64)}, [][]byte{row(64), row(31)}, 0, 32},
	}
	for _, c := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: mulRowsNEON did not panic", c.name)
				}
			}()
			mulRowsNEON(c.tab, c.ins, c.outs, c.off, c.n, false)
		}()
	}
}
