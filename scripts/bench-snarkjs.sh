#!/usr/bin/env bash
# CPU Groth16 benchmark: snarkjs and cuzk on the same files, and cuzk's bellperson-path proof, for
# the built-in test circuit (MiMC x^5 chain; its witness is dense: every value is a random-looking
# field element) at domains of 2^K.
#
# Usage: scripts/bench-snarkjs.sh [-b BUILD_DIR] [-w WORK_DIR] [-r RUNS] [-t THREADS] [-S] [K ...]
#   K          log2 of the domain (default: 16 18 20); the circuit has ~2^K - 3 constraints
#   BUILD_DIR  where apps/cuzk is built (default: the first of build/release build/ci that has it)
#   WORK_DIR   keys, witnesses and params (default /tmp/cuzk-bench-snarkjs); made once per K
#   RUNS       timed runs of each prover (default 3, at least 2); best and median are reported
#   THREADS    cuzk threads (default: all cores); snarkjs uses all cores (its worker threads)
#   -S         skip snarkjs (only the cuzk rows)
# Per K:
#   1. `cuzk zkey new` writes a snarkjs .zkey (random toxic waste) and the .wtns of seed 1;
#   2. `snarkjs groth16 prove` and `cuzk prove` on those files, RUNS times each, alternating;
#      wall-clock per run, end to end (process start, reading the key, proving, writing JSON), and
#      the CPU time (user + sys of the process and its threads): on a shared machine the CPU
#      ratio is the steadier figure;
#   3. both proofs verified by `snarkjs groth16 verify` and by `cuzk verify` (the run stops on a
#      failure);
#   4. the bellperson path: `cuzk setup` once, then `cuzk prove --circuit test-kK --seed 1` RUNS
#      times with its per-stage timings (the best run's stages are printed).
# Prints a markdown table ready for BENCHMARKS.md, then the stage table. Self-contained: needs
# only the cuzk binary and tests/snarkjs/node_modules (npm install --prefix tests/snarkjs).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD=""
WORK=/tmp/cuzk-bench-snarkjs
RUNS=3
THREADS=""
SNARKJS=1
while getopts "b:w:r:t:S" o; do
  case $o in
    b) BUILD=$OPTARG ;;
    w) WORK=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    S) SNARKJS=0 ;;
    *) sed -n '2,23p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
KS=("$@")
((${#KS[@]} > 0)) || KS=(16 18 20)
((RUNS >= 2)) || { echo "RUNS must be at least 2" >&2; exit 2; }
if [[ -z $BUILD ]]; then
  for b in build/release build/ci; do [[ -x $ROOT/$b/apps/cuzk ]] && BUILD=$ROOT/$b && break; done
fi
CUZK=$(cd "${BUILD:-.}" 2>/dev/null && pwd)/apps/cuzk
[[ -x $CUZK ]] || { echo "no cuzk binary (build the cuzk target; -b BUILD_DIR)" >&2; exit 2; }
SJ_CLI=$ROOT/tests/snarkjs/node_modules/snarkjs/build/cli.cjs
if ((SNARKJS)); then
  [[ -f $SJ_CLI ]] || { echo "no snarkjs: npm install --prefix tests/snarkjs" >&2; exit 2; }
fi
snarkjs() { node --max-old-space-size=16384 "$SJ_CLI" "$@"; }
THREADS=${THREADS:-$(nproc)}
TOPT=(--threads "$THREADS")
mkdir -p "$WORK"
cd "$WORK"

now_ns() { date +%s%N; }
# CPU_MS = user + sys ms of all finished children so far (bash's `times`, second line; run in
# this shell, not in a command substitution, whose `times` would see only its own children).
child_cpu() {
  times >"$WORK/.times"
  CPU_MS=$(sed -n 2p "$WORK/.times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%d", t * 1000 }')
}
# ms of a wall-clock interval.
ms() { echo $((($2 - $1) / 1000000)); }
# best and median of the numbers given (ms).
best() { printf '%s\n' "$@" | sort -n | head -1; }
median() {
  local a
  mapfile -t a < <(printf '%s\n' "$@" | sort -n)
  local n=${#a[@]}
  if ((n % 2)); then echo "${a[$((n / 2))]}"; else echo $(((a[n / 2 - 1] + a[n / 2]) / 2)); fi
}
fmt_s() { awk -v m="$1" 'BEGIN { printf "%.2f s", m / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
die() { echo "bench-snarkjs: $*" >&2; exit 1; }

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $(nproc) cores ($CPU), load $(cut -d' ' -f1-3 /proc/loadavg), cuzk threads $THREADS, runs $RUNS"
echo "cuzk: $CUZK ($(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')); snarkjs $(
  node -e "console.log(require('$ROOT/tests/snarkjs/node_modules/snarkjs/package.json').version)" 2>/dev/null || echo '?')"

declare -A SJ_BEST SJ_MED CZ_BEST CZ_MED CZ_PROVE BP_BEST BP_MED BP_STAGES NCONS SJ_CPU CZ_CPU
for k in "${KS[@]}"; do
  d=k$k
  mkdir -p "$d"
  if [[ ! -f $d/key.zkey || ! -f $d/w.wtns ]]; then
    echo "k=$k: writing zkey + wtns..." >&2
    "$CUZK" zkey new --circuit "test-k$k" --zkey "$d/key.zkey" --wtns "$d/w.wtns" --seed 1 "${TOPT[@]}" --time
  fi
  if [[ ! -f $d/vk.json ]]; then "$CUZK" zkey export-vkey --zkey "$d/key.zkey" --vkey "$d/vk.json"; fi

  sj=() cz=() czp=() sjc=() czc=()
  for ((i = 0; i < RUNS; i++)); do
    if ((SNARKJS)); then
      child_cpu
      c0=$CPU_MS
      t0=$(now_ns)
      snarkjs groth16 prove "$d/key.zkey" "$d/w.wtns" "$d/sj_proof.json" "$d/sj_public.json" >/dev/null ||
        die "k=$k: snarkjs groth16 prove failed"
      sj+=("$(ms "$t0" "$(now_ns)")")
      child_cpu
      sjc+=($((CPU_MS - c0)))
    fi
    child_cpu
    c0=$CPU_MS
    t0=$(now_ns)
    "$CUZK" prove --zkey "$d/key.zkey" --wtns "$d/w.wtns" --proof "$d/cz_proof.json" --public "$d/cz_public.json" \
      "${TOPT[@]}" --time 2>"$d/cz_time.txt" || die "k=$k: cuzk prove failed: $(cat "$d/cz_time.txt")"
    cz+=("$(ms "$t0" "$(now_ns)")")
    child_cpu
    czc+=($((CPU_MS - c0)))
    czp+=("$(sed -n 's/.*prove \([0-9.]*\) ms.*/\1/p' "$d/cz_time.txt" | cut -d. -f1)")
  done
  for who in cz $( ((SNARKJS)) && echo sj); do
    "$CUZK" verify --vkey "$d/vk.json" --proof "$d/${who}_proof.json" --public "$d/${who}_public.json" >/dev/null ||
      die "k=$k: cuzk verify rejects the $who proof"
    if ((SNARKJS)); then
      snarkjs groth16 verify "$d/vk.json" "$d/${who}_public.json" "$d/${who}_proof.json" | grep -q OK ||
        die "k=$k: snarkjs verify rejects the $who proof"
    fi
  done
  if ((SNARKJS)); then SJ_BEST[$k]=$(best "${sj[@]}"); SJ_MED[$k]=$(median "${sj[@]}"); SJ_CPU[$k]=$(best "${sjc[@]}"); fi
  CZ_CPU[$k]=$(best "${czc[@]}")
  CZ_BEST[$k]=$(best "${cz[@]}")
  CZ_MED[$k]=$(median "${cz[@]}")
  CZ_PROVE[$k]=$(best "${czp[@]}")
  echo "k=$k: snarkjs ${sj[*]:-skipped} ms (cpu ${sjc[*]:-}); cuzk ${cz[*]} ms (cpu ${czc[*]}; prove only ${czp[*]} ms);" \
    "proofs verified" >&2

  # The bellperson path on the same circuit.
  if [[ ! -f $d/bp.params ]]; then
    echo "k=$k: bellperson setup..." >&2
    "$CUZK" setup --circuit "test-k$k" --params "$d/bp.params" --vk "$d/bp.vk" "${TOPT[@]}"
  fi
  bp=() best_stage="" best_t=0
  for ((i = 0; i < RUNS; i++)); do
    "$CUZK" prove --circuit "test-k$k" --params "$d/bp.params" --seed 1 --proof "$d/bp.proof" \
      --public "$d/bp.inputs" "${TOPT[@]}" --time --no-subgroup-check 2>"$d/bp_time.txt" ||
      die "k=$k: cuzk prove --circuit failed"
    t=$(sed -n 's/.*stages (ms):.* prove \([0-9.]*\).*/\1/p' "$d/bp_time.txt")
    tm=${t%.*}
    bp+=("$tm")
    if ((best_t == 0 || tm < best_t)); then best_t=$tm; best_stage=$(sed -n 's/.*stages (ms): //p' "$d/bp_time.txt"); fi
  done
  "$CUZK" verify --vk "$d/bp.vk" --proof "$d/bp.proof" --public "$d/bp.inputs" >/dev/null ||
    die "k=$k: cuzk verify rejects the bellperson-path proof"
  BP_BEST[$k]=$(best "${bp[@]}")
  BP_MED[$k]=$(median "${bp[@]}")
  BP_STAGES[$k]=$best_stage
  NCONS[$k]=$("$CUZK" zkey info "$d/key.zkey" | sed -n 's/^n_vars: //p')
done

echo
echo "| circuit (dense witness) | snarkjs prove, best / median | cuzk prove (same zkey), best / median | snarkjs / cuzk (best, median) | CPU time snarkjs / cuzk (best) | cuzk prove only | cuzk bellperson path, best / median |"
echo "|---|---|---|---|---|---|---|"
for k in "${KS[@]}"; do
  if ((SNARKJS)); then
    sjc="$(fmt_s "${SJ_BEST[$k]}") / $(fmt_s "${SJ_MED[$k]}")"
    rc="**$(ratio "${SJ_BEST[$k]}" "${CZ_BEST[$k]}")x**, $(ratio "${SJ_MED[$k]}" "${CZ_MED[$k]}")x"
    cc="$(fmt_s "${SJ_CPU[$k]}") / $(fmt_s "${CZ_CPU[$k]}") = $(ratio "${SJ_CPU[$k]}" "${CZ_CPU[$k]}")x"
  else
    sjc="skipped" rc="" cc=""
  fi
  echo "| 2^$k (test-k$k, nVars ${NCONS[$k]}) | $sjc | $(fmt_s "${CZ_BEST[$k]}") / $(fmt_s "${CZ_MED[$k]}") | $rc | $cc |" \
    "$(fmt_s "${CZ_PROVE[$k]}") | $(fmt_s "${BP_BEST[$k]}") / $(fmt_s "${BP_MED[$k]}") |"
done
echo
echo "snarkjs and cuzk prove: wall clock of the command, end to end (start-up, reading the key, writing JSON);"
echo "prove only: cuzk's own timing without start-up and reading. Bellperson path: proving time without reading params."
echo
echo "| bellperson path, best run (ms) | stages |"
echo "|---|---|"
for k in "${KS[@]}"; do echo "| 2^$k | ${BP_STAGES[$k]} |"; done
