#!/usr/bin/env bash
# test.sh runs the whole test suite, as CI does (.ci/run calls it):
# formatting, vet and staticcheck (native, purego, arm64); the root module
# natively (with coverage), in FIPS 140-3 mode (GODEBUG=fips140=on and
# only), with the race detector, with -tags purego and with Go 1.27 (fetched
# through the module proxy); each fuzz target for a number of executions;
# the root package under qemu
# as a CPU with AVX2 but no AVX-512, a CPU without AVX2, and an arm64 CPU;
# the command's module (cmd/shamir) alongside the root in each of the native
# runs; and the interop module against Vault's package. The go.work at the
# root makes cmd/shamir and interop use this checkout of the library. It
# installs qemu-user, and age, zbar-tools, qrencode, chromium,
# poppler-utils and ssss for the command's tests, when they are missing (as
# root, with apt-get).
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

# cmdmod runs a go command in the command's module, cmd/shamir, which has a
# go.mod of its own: "./..." at the root does not reach it.
cmdmod() { (cd cmd/shamir && "$@"); }

if ! command -v qemu-x86_64 >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
	step "installing qemu-user"
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
	else
		echo "qemu-user is missing and cannot be installed here: run as root on Debian/Ubuntu, or install it" >&2
		exit 1
	fi
fi

# The command's tests of shares for people run the real age, zbarimg and
# qrencode, and print the paper page with headless Chromium, reading the PDF
# back with poppler-utils (pdfinfo, pdftotext, pdftoppm), and check the
# shares of ssss (cmd/shamir/internal/ssss) against Debian's ssss-split and
# ssss-combine; under CI a missing one fails them rather than skips them.
if ! command -v age >/dev/null || ! command -v zbarimg >/dev/null || ! command -v qrencode >/dev/null ||
	! command -v chromium >/dev/null || ! command -v pdftoppm >/dev/null || ! command -v ssss-split >/dev/null; then
	step "installing age, zbar-tools, qrencode, chromium, poppler-utils and ssss"
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq age zbar-tools qrencode chromium poppler-utils ssss >/dev/null
	else
		echo "age, zbarimg, qrencode, chromium, pdftoppm or ssss-split is missing and cannot be installed here: run as root on Debian/Ubuntu, or install them" >&2
		exit 1
	fi
fi

step "downloading modules"
# Vault's module is needed by interop/ and by the command's test that has
# Vault's own Combine read the shares the command makes.
go mod download
cmdmod go mod download
(cd interop && go mod download)
# vaultshamir is not in the workspace (it is built on its own, with
# GOWORK=off, by the command's tests).
(cd testdata/cli/vaultshamir && GOWORK=off go mod download)

step "gofmt and go vet"
unformatted=$(gofmt -l . interop)
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
go generate . && git diff --exit-code -- galois_tables.go galois_affine_amd64.go || { echo "galois_tables.go or galois_affine_amd64.go differs from what gen_tables.go makes" >&2; exit 1; }
go vet ./...
go vet -tags purego ./...
GOARCH=arm64 go vet ./...
cmdmod go vet ./...
GOARCH=arm64 cmdmod go vet ./...
(cd interop && go vet ./...)

# kernel prints the kernel and the AES-256-CTR path a test binary selects, so
# the log shows which code each run exercised (a test binary run directly
# prints them itself).
kernel() { "$@" -test.run '^(TestKernelNames|TestAESCTRPath)$' -test.v | grep -E 'active (kernel|AES)'; }

step "staticcheck: native, -tags purego, arm64"
GOBIN=/tmp/shamir-tools go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
/tmp/shamir-tools/staticcheck ./...
/tmp/shamir-tools/staticcheck -tags purego ./...
GOARCH=arm64 /tmp/shamir-tools/staticcheck ./...
cmdmod /tmp/shamir-tools/staticcheck ./...

step "native ($(go env GOARCH)), with coverage of package shamir"
go test -c -o /tmp/shamir-native.test . && kernel /tmp/shamir-native.test
go test -count=1 -coverprofile=/tmp/shamir-cover.out .
coverage=$(go tool cover -func=/tmp/shamir-cover.out | awk '/^total:/ { sub("%", "", $3); print $3 }')
echo "coverage of package shamir: $coverage% of statements"
awk -v c="$coverage" 'BEGIN { exit !(c >= 90) }' || { echo "coverage fell below 90%" >&2; exit 1; }
cmdmod go test -count=1 ./...

# FIPS 140-3 mode: randomness from crypto/rand, SSMS AEAD 3; under "only",
# AEADs 1 and 2 are refused with ErrNotApproved (fips.go, docs/SECURITY.md).
step "native, GODEBUG=fips140=on"
GODEBUG=fips140=on go test -count=1 .

step "native, GODEBUG=fips140=only"
GODEBUG=fips140=only go test -count=1 .

# example.sh runs as the README shows it, and no command line it prints
# names its temporary folder (issue 19).
step "example.sh"
example=$(bash example.sh 2>&1)
if grep -E '^\$ .*(/tmp|tmp\.)' <<<"$example"; then
	echo "example.sh prints a temporary path in a command line" >&2
	exit 1
fi

step "native, race detector"
go test -race -short -count=1 ./...
cmdmod go test -race -short -count=1 ./...

step "native, -tags purego"
go test -c -tags purego -o /tmp/shamir-purego.test . && kernel /tmp/shamir-purego.test
go test -tags purego -count=1 ./...
cmdmod go test -tags purego -count=1 ./...

# The library supports the two newest Go releases. The newer is fetched
# through the module proxy (GOTOOLCHAIN), so a machine with only the older
# tests both.
step "Go 1.27 (GOTOOLCHAIN=go1.27.4)"
GOTOOLCHAIN=go1.27.4 go version
GOTOOLCHAIN=go1.27.4 go vet ./...
GOTOOLCHAIN=go1.27.4 go test -count=1 ./...
GOTOOLCHAIN=go1.27.4 cmdmod go vet ./...
GOTOOLCHAIN=go1.27.4 cmdmod go test -count=1 ./...

step "qemu-x86_64 -cpu max (AVX2, no AVX-512)"
GOARCH=amd64 go test -c -o /tmp/shamir-amd64.test .
qemu-x86_64 -cpu max /tmp/shamir-amd64.test

step "qemu-x86_64 -cpu Westmere (no AVX2)"
qemu-x86_64 -cpu Westmere /tmp/shamir-amd64.test

step "qemu-aarch64 (NEON)"
GOARCH=arm64 go test -c -o /tmp/shamir-arm64.test .
qemu-aarch64 /tmp/shamir-arm64.test

# Each target runs for a number of executions, 10–20 s on the CI machine
# (FUZZSCALE multiplies them), not for a duration: with a duration, Go 1.26's
# fuzzing coordinator can fail a target with "context deadline exceeded" as
# the time runs out (go.dev/issue/75804, fixed in Go 1.27). Minimizing a new
# interesting input is capped at 100 executions: by default it may take a
# minute, and those executions are not counted.
# The counts were last set from a clean-clone run of 64795ab: each
# target's time there (from 1.7 to 24 s) scaled to about 11 s.
# FuzzCombineSSMSForged, FuzzRecreateSSMS and FuzzCombineSSMSAttack check
# an Ed25519 signature (about 35 µs) per batch statement on most inputs.
step "fuzzing"
declare -A fuzzexecs=(
	[FuzzCombine]=330000 [FuzzCombineRobust]=2100 [FuzzCombineSSMS]=250000
	[FuzzCombineSSMSAll]=400000 [FuzzKernels]=200000 [FuzzParseShare]=400000
	[FuzzVerify]=4300 [FuzzRecreate]=200000 [FuzzRefresh]=85000
	[FuzzCombineSSMSForged]=95000 [FuzzRecreateSSMS]=50000 [FuzzCombineSSMSAttack]=95000
	[FuzzGCM]=440000
)
for target in $(grep -ho '^func Fuzz[A-Za-z0-9]*' ./*_test.go | sed 's/^func //' | sort -u); do
	n=$(( ${fuzzexecs[$target]:-20000} * ${FUZZSCALE:-1} ))
	echo "-- $target, $n executions"
	start=$SECONDS
	go test -run '^$' -fuzz "^$target\$" -fuzztime "${n}x" -fuzzminimizetime 100x .
	# The counts are meant to give each target about 10-20 s here: the
	# log says how long each took, to correct a count that drifted.
	echo "-- $target took $((SECONDS - start)) s"
done

# The command's manifest parser (cmd/shamir/internal/manifest, issue 19):
# about 10 s.
echo "-- cmd/shamir/internal/manifest FuzzParse, $(( 600000 * ${FUZZSCALE:-1} )) executions"
(cd cmd/shamir && go test -run '^$' -fuzz '^FuzzParse$' -fuzztime "$(( 600000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x ./internal/manifest)

# The journal of a change to a split (cmd/shamir/internal/outfile, issue
# 23): what a stopped run left is read by every later one. About 10 s.
echo "-- cmd/shamir/internal/outfile FuzzReadPlan, $(( 70000 * ${FUZZSCALE:-1} )) executions"
(cd cmd/shamir && go test -run '^$' -fuzz '^FuzzReadPlan$' -fuzztime "$(( 70000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x ./internal/outfile)

# The command's paper reader: typed text (FuzzParse) and pictures, built
# as PNGs with right CRCs (FuzzReadQR) and as JPEGs, baseline and
# progressive (FuzzReadJPEG), each asserting the search's work budget
# (pixels, scans, passes and candidates counted). The counts take about
# 10 s each on a 2-core machine shared with other work (FuzzReadJPEG:
# 150,000 took 4 s).
step "fuzzing cmd/shamir/internal/paper"
declare -A paperfuzz=([FuzzParse]=180000 [FuzzReadQR]=85000 [FuzzReadJPEG]=400000)
for target in FuzzParse FuzzReadQR FuzzReadJPEG; do
	n=$(( ${paperfuzz[$target]} * ${FUZZSCALE:-1} ))
	echo "-- $target, $n executions"
	start=$SECONDS
	cmdmod go test -run '^$' -fuzz "^$target\$" -fuzztime "${n}x" -fuzzminimizetime 100x ./internal/paper
	echo "-- $target took $((SECONDS - start)) s"
done

# The command's reader of Vault-format text (cmd/shamir: vaultfmt.go and
# classify.go: vault operator init's text and JSON, bare base64 and hex
# lines): never a panic, and what it accepts re-parses to the same shares.
# 120,000 executions took about 11 s on a 2-core machine shared with other
# work.
step "fuzzing cmd/shamir: Vault-format text"
cmdmod go test -run '^$' -fuzz '^FuzzVaultText$' -fuzztime "$(( 120000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x .

# The command's reader of ssss's shares (cmd/shamir/internal/ssss): lines
# parsed and combined, and Split's shares combined back. 100,000 executions
# took 4.5 s on the CI machine.
step "fuzzing cmd/shamir/internal/ssss"
cmdmod go test -run '^$' -fuzz '^FuzzCombine$' -fuzztime "$(( 230000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x ./internal/ssss

# The check of one SSMS share on its own (attest answer) and the end of an
# age header (the manifest's age_header_sha256): never a panic, every share
# the library makes accepted. About 10 s each (some 2,700 and 50,000
# executions a second on a 2-core machine shared with other work).
step "fuzzing cmd/shamir: a share checked alone, an age header"
cmdmod go test -run '^$' -fuzz '^FuzzCheckShareAlone$' -fuzztime "$(( 55000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x .
cmdmod go test -run '^$' -fuzz '^FuzzAgeHeaderEnd$' -fuzztime "$(( 300000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x .

# The command's attestation package (cmd/shamir/internal/attest): its
# tests under GODEBUG=fips140=only, and its parsers fuzzed (about 500,000
# executions took 10 s on a shared 2-core machine).
step "cmd/shamir/internal/attest: fips140=only, fuzzing"
(cd cmd/shamir && GODEBUG=fips140=only go test -count=1 ./internal/attest)
for target in FuzzParseAnswer FuzzParseChallenge; do
	cmdmod go test -run '^$' -fuzz "^$target\$" -fuzztime "$(( 650000 * ${FUZZSCALE:-1} ))x" -fuzzminimizetime 100x ./internal/attest
done

step "interop: against github.com/hashicorp/vault/shamir"
(cd interop && go test -count=1 ./...)

step "interop, -tags purego: the portable kernel against Vault's package"
(cd interop && go test -tags purego -count=1 ./...)

step "all passed"
