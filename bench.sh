#!/usr/bin/env bash
# bench.sh measures what the README's speed section reports and writes
# docs/PERFORMANCE.md (and prints it): this package beside Vault's
# (interop/), SSMS on 64 MiB with one and two cores, many rows into one
# beside klauspost/reedsolomon (BenchmarkParity, one and two cores), and a
# short secret's Split and Combine beside their floors (BenchmarkSplitFloor32,
# BenchmarkCombineFloor32). The page names the machine (lscpu's model name). It runs ROUNDS (default 6) rounds, each running every
# benchmark once, so that the two packages are measured side by side in time
# and a slow moment of a shared machine touches both; figures are medians
# over the rounds, ratios medians of each round's ratio (interop/speed).
# Each -cpu value runs in a process of its own (with b.Loop, -cpu 1,2 in one
# process gave -cpu 1 rows equal to the -cpu 2 ones; golang/go#49980).
# Vault's Combine of 1 MiB with threshold 10 takes about 15 s an operation,
# so a round takes about a minute.
set -euo pipefail
cd "$(dirname "$0")"
rounds=${ROUNDS:-6}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -c -o "$out/root.test" .
(cd interop && go test -c -o "$out/interop.test" .)
interop='^Benchmark(Split|Combine)$/^(gf256|gf256ssms|vault)$/^(32B_n5_t3|32B_n255_t255|1MiB_n5_t3|1MiB_n10_t10)$'
for r in $(seq "$rounds"); do
	echo "round $r of $rounds" >&2
	(cd interop && "$out/interop.test" -test.run '^$' -test.bench "$interop" -test.benchmem -test.cpu 1) >"$out/interop-cpu1-$r.txt"
	"$out/root.test" -test.run '^$' -test.bench '^BenchmarkSSMS64MiB$' -test.benchmem -test.cpu 1 >"$out/root-cpu1-$r.txt"
	"$out/root.test" -test.run '^$' -test.bench '^BenchmarkSSMS64MiB$' -test.benchmem -test.cpu 2 >"$out/root-cpu2-$r.txt"
	"$out/root.test" -test.run '^$' -test.bench '^Benchmark(Split|Combine)Floor32$' -test.benchmem -test.cpu 1 >"$out/floor-cpu1-$r.txt"
	for cpu in 1 2; do
		(cd interop && "$out/interop.test" -test.run '^$' -test.bench '^BenchmarkParity$/^(klauspost|gf256append)$' -test.benchmem -test.cpu "$cpu") >"$out/parity-cpu$cpu-$r.txt"
	done
done
machine=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
echo "${machine:-unknown CPU}, $(nproc) logical CPUs, $(go version | cut -d' ' -f3-)" >"$out/machine.txt"
# The page is what speed prints, then the part of the page after the line
# that says bench.sh keeps it (earlier measurements, not regenerated).
(cd interop && go run ./speed "$out") | tee docs/PERFORMANCE.md.tmp
echo >>docs/PERFORMANCE.md.tmp
sed -n '/^<!-- bench.sh keeps/,$p' docs/PERFORMANCE.md >>docs/PERFORMANCE.md.tmp
mv docs/PERFORMANCE.md.tmp docs/PERFORMANCE.md
