#!/usr/bin/env bash
# The main job: builds cuzk-daemon and cuzk-bench (release), starts the daemon with its built-in
# default configuration on a private unix socket, proves the built-in test circuit through it
# (one 2-partition proof with `cuzk-bench single`, then `cuzk-bench batch -n 4 -j 2`), prints the
# results, stops the daemon with SIGTERM and exits 0 only if every proof succeeded and the daemon
# exited cleanly.
#
# The first run generates development Groth16 parameters for the circuit size (seconds at k=12 on
# two cores) into the parameter cache; later runs reuse them. Environment:
#   CUZK_RUN_K            log2 size of the test circuit (default 12; 4..22)
#   CUZK_RUN_PARAM_CACHE  parameter cache (default /var/tmp/cuzk-dev-params; the daemon gets it as
#                         FIL_PROOFS_PARAMETER_CACHE, which its default [srs] param_cache reads)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release cuzk-daemon cuzk-bench

k="${CUZK_RUN_K:-12}"
cache="${CUZK_RUN_PARAM_CACHE:-/var/tmp/cuzk-dev-params}"
daemon=build/release/apps/cuzk-daemon
bench=build/release/apps/cuzk-bench
work="$(mktemp -d /tmp/cuzk-run-XXXXXX)"
addr="unix://$work/cuzk.sock"
log="$work/daemon.log"
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== cuzk-daemon on $addr (default configuration, parameter cache $cache)"
FIL_PROOFS_PARAMETER_CACHE="$cache" "$daemon" --listen "$addr" >"$log" 2>&1 &
pid=$!
for _ in $(seq 300); do
  grep -q "listening on" "$log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "run: cuzk-daemon exited during startup" >&2; exit 1; }
  sleep 0.1
done
grep -q "listening on" "$log" || { cat "$log"; echo "run: cuzk-daemon did not become ready" >&2; exit 1; }
grep "listening on" "$log"

failed=0
step() {
  echo
  echo "== cuzk-bench $*"
  if ! "$bench" -a "$addr" "$@"; then
    failed=1
    echo "run: FAILED: cuzk-bench $*" >&2
  fi
}
step version
step single -t test --log2-constraints "$k" --partitions 2 --seed 1 --timeout-ms 900000
step batch -n 4 -j 2 -t test --log2-constraints "$k" --timeout-ms 900000
step status

echo
echo "== stopping cuzk-daemon (SIGTERM)"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
echo "== daemon log (parameters and jobs)"
grep -E "test circuit|completed in|failed|error|listening on|exit" "$log" || true
if ((rc != 0)); then
  echo "run: cuzk-daemon exited with status $rc" >&2
  failed=1
fi
if ((failed)); then
  echo "run: FAILED" >&2
  exit 1
fi
echo "run: every proof succeeded (test circuit k=$k); cuzk-daemon exited 0"
