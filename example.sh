#!/usr/bin/env bash
# example.sh builds the shamir command and runs it on real inputs from
# testdata/: a file split into SSMS share files and recovered from three of
# them, one of which is then damaged, and the unseal keys that HashiCorp
# Vault's own package made, recombined. Everything happens in a temporary
# folder, removed at the end.
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

printf 'X' | dd of=shares/secret.json.2-of-5.shamir bs=1 seek=1000 conv=notrunc status=none
echo
echo "(one byte of share 2 changed)"
show shamir verify shares || true
show shamir combine -o recovered2.json shares
show cmp secret.json recovered2.json

cd - >/dev/null
show cat testdata/cli/vault-unseal-keys.txt
show "$d/shamir" combine -t 3 -encode hex testdata/cli/vault-unseal-keys.txt
printf '\nthe key Vault split:\n%s\n' "$(cat testdata/cli/vault-unseal-key.hex)"
