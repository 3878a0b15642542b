//go:build !race

package shamir

func raceRows(ins, outs [][]byte, off, n int) {}
