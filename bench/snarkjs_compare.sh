#!/usr/bin/env bash
# Times `snarkjs groth16 prove` against `cuzk prove` on the same .zkey and .wtns (BLS12-381), for
# the chain circuit (testdata/snarkjs/chain.circom) sized to domains of 2^K.
#
# Usage: bench/snarkjs_compare.sh [-b BUILD_DIR] [-w WORK_DIR] [-r RUNS] K [K ...]
#   e.g. bench/snarkjs_compare.sh 12 16
#   BUILD_DIR  where apps/cuzk is built (default build/h-snark, then build/lead)
#   WORK_DIR   cache of ptau, circuits and keys (default /tmp/cuzk-snarkjs-bench); the
#              powers of tau (power = the largest K, one contribution) is made once and reused,
#              and takes long (snarkjs's prepare phase2: minutes at 14, ~30 min at 16 on 2 cores)
#   RUNS       timed runs of each prover (default 3); the best is reported
# Not run in CI. Needs tests/snarkjs/node_modules (scripts/install-deps.sh).
#
# Chain(N) has 2N + 3 constraints and 3 public signals; N = 2^(K-1) - 4 fills a domain of 2^K
# (constraints + nPublic + 1 <= 2^K).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD=""
WORK=/tmp/cuzk-snarkjs-bench
RUNS=3
while getopts "b:w:r:" o; do
  case $o in
    b) BUILD=$OPTARG ;;
    w) WORK=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(($# > 0)) || { sed -n '2,16p' "$0"; exit 2; }
if [[ -z $BUILD ]]; then
  for b in build/h-snark build/lead build; do [[ -x $ROOT/$b/apps/cuzk ]] && BUILD=$ROOT/$b && break; done
fi
CUZK=$BUILD/apps/cuzk
[[ -x $CUZK ]] || { echo "no cuzk binary (build the cuzk target; -b BUILD_DIR)" >&2; exit 2; }
BIN=$ROOT/tests/snarkjs/node_modules/.bin
[[ -x $BIN/snarkjs ]] || { echo "run: npm install --prefix tests/snarkjs" >&2; exit 2; }
export PATH=$BIN:$PATH
mkdir -p "$WORK"
cd "$WORK"

max=0
for k in "$@"; do ((k > max)) && max=$k; done
# Any cached ptau of power >= max will do.
PTAU=""
for p in $(seq "$max" 20); do [[ -f pot$p.ptau ]] && PTAU=pot$p.ptau && break; done
if [[ -z $PTAU ]]; then
  echo "making a power-$max powers of tau (slow)..." >&2
  snarkjs powersoftau new bls12381 "$max" "pot${max}_0.ptau" >/dev/null
  snarkjs powersoftau contribute "pot${max}_0.ptau" "pot${max}_1.ptau" --name=bench -e="cuzk bench" >/dev/null
  snarkjs powersoftau prepare phase2 "pot${max}_1.ptau" "pot$max.ptau.tmp" >/dev/null
  mv "pot$max.ptau.tmp" "pot$max.ptau"
  PTAU=pot$max.ptau
fi

now_ms() { date +%s%3N; }
best_of() {  # best wall time in ms of RUNS runs of "$@"
  local best=0 t0 t
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_ms)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    t=$(($(now_ms) - t0))
    ((best == 0 || t < best)) && best=$t
  done
  echo "$best"
}

printf "%-4s %-11s %-8s %-14s %-12s %-7s\n" K constraints nVars "snarkjs (ms)" "cuzk (ms)" ratio
for k in "$@"; do
  n=$(((1 << (k - 1)) - 4))
  d=chain_$k
  if [[ ! -f $d/chain.zkey ]]; then
    mkdir -p "$d"
    sed "s/Chain(200)/Chain($n)/" "$ROOT/testdata/snarkjs/chain.circom" >"$d/chain.circom"
    (cd "$d" && circom2 chain.circom --r1cs --wasm --prime bls12381 >/dev/null)
    snarkjs groth16 setup "$d/chain.r1cs" "$PTAU" "$d/chain0.zkey" >/dev/null
    snarkjs zkey contribute "$d/chain0.zkey" "$d/chain.zkey" --name=bench -e="cuzk bench $k" >/dev/null
    snarkjs zkey export verificationkey "$d/chain.zkey" "$d/vk.json" >/dev/null
    echo '{"a": "3", "b": "11"}' >"$d/input.json"
    snarkjs wtns calculate "$d/chain_js/chain.wasm" "$d/input.json" "$d/w.wtns" >/dev/null
  fi
  cons=$(snarkjs r1cs info "$d/chain.r1cs" 2>/dev/null | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
  nvars=$("$CUZK" zkey info "$d/chain.zkey" | sed -n 's/^n_vars: //p')
  ts=$(best_of snarkjs groth16 prove "$d/chain.zkey" "$d/w.wtns" "$d/sj_proof.json" "$d/sj_public.json")
  tc=$(best_of "$CUZK" prove --zkey "$d/chain.zkey" --wtns "$d/w.wtns" --proof "$d/cz_proof.json" --public "$d/cz_public.json")
  # Both proofs must verify with snarkjs.
  snarkjs groth16 verify "$d/vk.json" "$d/cz_public.json" "$d/cz_proof.json" >/dev/null || { echo "snarkjs rejects the cuzk proof at K=$k" >&2; exit 1; }
  "$CUZK" verify --vkey "$d/vk.json" --proof "$d/sj_proof.json" --public "$d/sj_public.json" >/dev/null || { echo "cuzk rejects the snarkjs proof at K=$k" >&2; exit 1; }
  printf "%-4s %-11s %-8s %-14s %-12s %-7s\n" "$k" "$cons" "$nvars" "$ts" "$tc" "$(awk -v a="$ts" -v b="$tc" 'BEGIN { printf "%.1fx", a / b }')"
  "$CUZK" prove --zkey "$d/chain.zkey" --wtns "$d/w.wtns" --proof "$d/cz_proof.json" --public "$d/cz_public.json" --time 2>&1 | sed 's/^/     /'
done
echo "(wall times, best of $RUNS, each including process start and key loading; $(nproc) cores)"
