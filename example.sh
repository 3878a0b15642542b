#!/usr/bin/env bash
# example.sh builds the shamir command and runs it on real inputs from
# testdata/: a file split into SSMS share files and recovered from three of
# them, one of which is then damaged, with a note beside the shares that is
# ignored, not counted; an empty input, refused; and the unseal keys that
# HashiCorp Vault's own package made, recombined from a file and from stdin.
# Everything happens in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

show() { printf "\n$ %s\n" "$*"; "$@" 2>&1; }

go build -o "$d/shamir" ./cmd/shamir
export PATH="$d:$PATH"
cp testdata/vault/vectors.json "$d/secret.json"
cd "$d"

show shamir split -n 5 -t 3 -o shares secret.json
show ls -l shares
show shamir combine -o recovered.json shares/secret.json.1-of-5.shamir shares/secret.json.3-of-5.shamir shares/secret.json.5-of-5.shamir
show cmp secret.json recovered.json
echo "identical: 3 of 5 shares recovered the file"

printf 'XY' | dd of=shares/secret.json.2-of-5.shamir bs=1 seek=1000 conv=notrunc status=none
echo
echo "(two bytes of share 2 changed)"
show shamir verify shares || true
show shamir combine -o recovered2.json shares
show cmp secret.json recovered2.json

echo "Keep these on separate USB sticks; any 3 recover secret.json." > shares/README.txt
echo
echo "(a note put beside the shares)"
show shamir combine -o recovered3.json shares

echo
echo "(an empty input, as a broken pipe gives)"
show shamir split -n 3 -t 2 -o empty /dev/null || true

cd - >/dev/null
show cat testdata/cli/vault-unseal-keys.txt
show shamir combine -t 3 -encode hex testdata/cli/vault-unseal-keys.txt
printf '\n$ head -3 testdata/cli/vault-unseal-keys.txt | shamir combine -t 3 -encode hex\n'
head -3 testdata/cli/vault-unseal-keys.txt | shamir combine -t 3 -encode hex 2>&1
printf '\nthe key Vault split:\n%s\n' "$(cat testdata/cli/vault-unseal-key.hex)"
