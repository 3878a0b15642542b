// Speed prints the tables of docs/PERFORMANCE.md from the output of
// bench.sh: benchmark lines of several interleaved rounds, one file per
// round and kind. Each figure is the median over the rounds; each ratio is
// the median of the ratios taken within a round, so that a round that ran
// slow for everything moves no ratio.
//
//	go run ./speed DIR
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A result is one benchmark line.
type result struct {
	ns, bytes, allocs float64
}

// rounds[i][name] is round i's result for the benchmark name (without the
// -cpu suffix, which is in the file's name).
type rounds []map[string]result

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./speed DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	cpu1, err := read(dir, "cpu1")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cpu2, err := read(dir, "cpu2")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Medians of %d interleaved rounds, `-cpu 1` unless said (bench.sh).\n\n", len(cpu1))
	fmt.Println("| benchmark | Vault | gf256 | × | gf256 allocs/op |")
	fmt.Println("|---|---|---|---|---|")
	for _, row := range []struct{ label, op, c string }{
		{"Split, 32 B, 5 shares, threshold 3", "Split", "32B_n5_t3"},
		{"Combine, 32 B, threshold 3", "Combine", "32B_n5_t3"},
		{"Split, 32 B, (255, 255)", "Split", "32B_n255_t255"},
		{"Combine, 32 B, 255 shares", "Combine", "32B_n255_t255"},
		{"Split, 1 MiB, (5, 3)", "Split", "1MiB_n5_t3"},
		{"Combine, 1 MiB, threshold 3", "Combine", "1MiB_n5_t3"},
		{"Split, 1 MiB, (10, 10)", "Split", "1MiB_n10_t10"},
		{"Combine, 1 MiB, threshold 10", "Combine", "1MiB_n10_t10"},
	} {
		ours := "Benchmark" + row.op + "/gf256/" + row.c
		theirs := "Benchmark" + row.op + "/vault/" + row.c
		fmt.Printf("| %s | %s | %s | %s | %s |\n", row.label,
			duration(cpu1.median(theirs, ns)), duration(cpu1.median(ours, ns)),
			ratio(cpu1.ratio(theirs, ours)), count(cpu1.median(ours, allocs)))
	}
	for _, row := range []struct{ label, op, plain string }{
		{"SplitSSMS, 1 MiB, (5, 3)", "Split", "Split"},
		{"CombineSSMS, 1 MiB, 3 shares", "Combine", "Combine"},
	} {
		ours := "Benchmark" + row.op + "/gf256ssms/1MiB_n5_t3"
		theirs := "Benchmark" + row.plain + "/vault/1MiB_n5_t3"
		fmt.Printf("| %s | (%s: %s) | %s | %s | %s |\n", row.label, row.plain,
			duration(cpu1.median(theirs, ns)), duration(cpu1.median(ours, ns)),
			ratio(cpu1.ratio(theirs, ours)), count(cpu1.median(ours, allocs)))
	}
	fmt.Println()
	fmt.Println("| 64 MiB, (5, 3) | `-cpu 1` | `-cpu 2` |")
	fmt.Println("|---|---|---|")
	for _, name := range []string{"BenchmarkSSMS64MiB/Split_n5_t3", "BenchmarkSSMS64MiB/Combine_n5_t3"} {
		if !cpu1.has(name) {
			continue
		}
		fmt.Printf("| %sSSMS | %s | %s |\n", strings.TrimSuffix(strings.TrimPrefix(name, "BenchmarkSSMS64MiB/"), "_n5_t3"),
			duration(cpu1.median(name, ns)), duration(cpu2.median(name, ns)))
	}
}

func ns(r result) float64     { return r.ns }
func allocs(r result) float64 { return r.allocs }

// read reads the rounds of one kind: the files DIR/*-KIND-R.txt, by round.
func read(dir, kind string) (rounds, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*-"+kind+"-*.txt"))
	if err != nil {
		return nil, err
	}
	var rs rounds
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".txt")
		n, err := strconv.Atoi(base[strings.LastIndex(base, "-")+1:])
		if err != nil {
			return nil, fmt.Errorf("%s: no round number", f)
		}
		for len(rs) < n {
			rs = append(rs, map[string]result{})
		}
		if err := parse(f, rs[n-1]); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// parse adds the benchmark lines of the file f to m.
func parse(f string, m map[string]result) error {
	fh, err := os.Open(f)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		var r result
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				r.ns = v
			case "B/op":
				r.bytes = v
			case "allocs/op":
				r.allocs = v
			}
		}
		m[name] = r
	}
	return sc.Err()
}

func (rs rounds) has(name string) bool {
	for _, r := range rs {
		if _, ok := r[name]; ok {
			return true
		}
	}
	return false
}

// median returns the median of f over the rounds that ran name, or -1.
func (rs rounds) median(name string, f func(result) float64) float64 {
	var vs []float64
	for _, r := range rs {
		if v, ok := r[name]; ok {
			vs = append(vs, f(v))
		}
	}
	return median(vs)
}

// ratio returns the median over the rounds of a's time over b's.
func (rs rounds) ratio(a, b string) float64 {
	var vs []float64
	for _, r := range rs {
		x, okx := r[a]
		y, oky := r[b]
		if okx && oky && y.ns > 0 {
			vs = append(vs, x.ns/y.ns)
		}
	}
	return median(vs)
}

func median(vs []float64) float64 {
	if len(vs) == 0 {
		return -1
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}

// duration formats nanoseconds with three significant digits.
func duration(ns float64) string {
	switch {
	case ns < 0:
		return "–"
	case ns < 1e3:
		return fmt.Sprintf("%.3g ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	}
	return fmt.Sprintf("%.3g s", ns/1e9)
}

func ratio(r float64) string {
	switch {
	case r < 0:
		return "–"
	case r < 10:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.0f", r)
}

func count(n float64) string {
	if n < 0 {
		return "–"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}
