#!/usr/bin/env bash
# Regenerates testdata/snarkjs/: the chain circuit compiled by circom2, a small BLS12-381
# powers-of-tau (power 9, not committed), a Groth16 proving key with one phase-2 contribution,
# its verification key, a witness for input.json and a snarkjs proof of it.
#
# Usage (from anywhere): tools/gen/snarkjs_fixtures.sh [OUT_DIR]      (default testdata/snarkjs)
# Needs the npm packages of tests/snarkjs (npm install --prefix tests/snarkjs, or
# scripts/install-deps.sh). Takes about a minute on 2 cores (most of it `prepare phase2`).
# The entropy strings are fixed but snarkjs adds its own randomness to the ceremony, so the key
# (and everything after it) differs from run to run; the circuit files (.r1cs/.wasm) do not.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-$ROOT/testdata/snarkjs}"
BIN="$ROOT/tests/snarkjs/node_modules/.bin"
[[ -x "$BIN/snarkjs" && -x "$BIN/circom2" ]] || { echo "run: npm install --prefix tests/snarkjs" >&2; exit 1; }
export PATH="$BIN:$PATH"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
cp "$ROOT/testdata/snarkjs/chain.circom" "$TMP/chain.circom"
cd "$TMP"

circom2 chain.circom --r1cs --wasm --prime bls12381 >/dev/null
snarkjs powersoftau new bls12381 9 pot0.ptau >/dev/null
snarkjs powersoftau contribute pot0.ptau pot1.ptau --name=cuzk-test -e="cuzk snarkjs fixture tau" >/dev/null
snarkjs powersoftau prepare phase2 pot1.ptau pot.ptau >/dev/null
snarkjs groth16 setup chain.r1cs pot.ptau chain0.zkey >/dev/null
snarkjs zkey contribute chain0.zkey chain.zkey --name=cuzk-test -e="cuzk snarkjs fixture delta" >/dev/null
snarkjs zkey export verificationkey chain.zkey verification_key.json >/dev/null
echo '{"a": "3", "b": "11"}' > input.json
snarkjs wtns calculate chain_js/chain.wasm input.json witness.wtns
snarkjs groth16 prove chain.zkey witness.wtns proof.json public.json
snarkjs groth16 verify verification_key.json public.json proof.json >/dev/null

cp chain.r1cs chain_js/chain.wasm chain.zkey verification_key.json input.json witness.wtns proof.json public.json "$OUT/"
echo "wrote $OUT"
