#!/usr/bin/env bash
# A staged daemon run (scripts/stage-daemon.sh copies this into device-out/): starts cuzk-daemon on
# a temporary unix socket with a temporary parameter cache, waits for readiness, proves one
# warm-up test-circuit job (development parameters are generated on first use, then loaded and
# uploaded to the device), runs `cuzk-bench batch`, and stops the daemon with SIGTERM, which must
# exit 0. Into $OUT: summary.json (cuzk-bench --json, incl. the device idle fraction),
# timeline.svg, status.json and metrics.txt (the daemon's /status and /metrics after the batch),
# daemon.log, warmup.txt. Exit status 0 only when every step passed.
#
# Environment (defaults for the H200 machine: one GPU, two workers, about 1-2 minutes in all):
#   OUT=dir                  output folder (default ./daemon-bench-out)
#   CUZK_BACKEND=cuda        [gpus] backend (cpu for a dry run on a machine without a GPU)
#   K=21 PARTITIONS=2        test circuit: 2^K constraints per partition (parameter setup on 16
#                            cores: ~15 s at K=20, ~30 s at 21, ~60 s at 22, extrapolated from
#                            5.0 s at K=16 on 2 shared cores)
#   N=6 J=2                  batch: proofs, concurrent calls
#   TIME_LIMIT=150           seconds for the whole run; the warm-up and the batch are cut off
#                            (and reported as failed) so that the daemon is still stopped in time
#   WORKERS=2                [gpus] gpu_workers_per_device
#   CUZK_BIN_DIR=dir         where cuzk-daemon and cuzk-bench are (default: next to this script)
#   CUZK_PARAM_CACHE=dir     reuse a parameter cache (default: a fresh temporary one)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${CUZK_BIN_DIR:-$here}"
[[ -d "$here/lib" ]] && export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT="${OUT:-$PWD/daemon-bench-out}"
backend="${CUZK_BACKEND:-cuda}" k="${K:-21}" parts="${PARTITIONS:-2}" n="${N:-6}" j="${J:-2}" workers="${WORKERS:-2}"
limit_s="${TIME_LIMIT:-150}"
mkdir -p "$OUT"
tmp="$(mktemp -d /tmp/cuzk-daemon-bench.XXXXXX)"
params="${CUZK_PARAM_CACHE:-$tmp/params}"
sock="$tmp/cuzk.sock"
log="$OUT/daemon.log"
daemon_pid=""
batch_failed=""
cleanup() {
  [[ -n "$daemon_pid" ]] && kill -KILL "$daemon_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "run-daemon-bench: FAILED: $*" >&2
  echo "--- last lines of $log ---" >&2
  tail -n 20 "$log" >&2
  exit 1
}
elapsed() { echo "$(( $(date +%s%N) / 1000000 - start_ms ))"; }
# Seconds left for a step, keeping 15 s for the status scrape and the shutdown.
left() { local l=$(( limit_s - 15 - $(elapsed) / 1000 )); (( l > 1 )) && echo "$l" || echo 1; }

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "backend=$backend k=$k partitions=$parts n=$n j=$j workers/device=$workers cores=$(nproc)"
cat >"$tmp/cuzk.toml" <<EOF
[daemon]
listen = "unix://$sock"
status_listen = "127.0.0.1:0"
shutdown_grace = "5s"
[srs]
param_cache = "$params"
[gpus]
backend = "$backend"
gpu_workers_per_device = $workers
[synthesis]
concurrency = 2
[logging]
level = "info"
EOF

start_ms=$(( $(date +%s%N) / 1000000 ))
"$bin/cuzk-daemon" --config "$tmp/cuzk.toml" >"$log" 2>&1 &
daemon_pid=$!
for _ in $(seq 1 600); do
  grep -q "listening on unix://" "$log" && break
  kill -0 "$daemon_pid" 2>/dev/null || fail "cuzk-daemon exited during startup"
  sleep 0.1
done
grep -q "listening on unix://" "$log" || fail "cuzk-daemon not ready within 60 s"
echo "daemon ready in $(elapsed) ms: $(grep -m1 -o '\[gpus\] backend.*' "$log")"
status_addr="$(grep -m1 -o 'status HTTP listening on [0-9.:]*' "$log" | awk '{print $NF}')"
bench=("$bin/cuzk-bench" -a "unix://$sock")
# /status and /metrics over plain HTTP/1.0 (bash's /dev/tcp: no curl needed).
http_get() {
  local host="${status_addr%:*}" port="${status_addr##*:}"
  exec 3<>"/dev/tcp/$host/$port" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$1" "$status_addr" >&3
  sed '1,/^\r$/d' <&3
  exec 3<&-
}
# A GPU counter summed over devices from a /metrics text.
gpu_sum() { awk -v m="$1" '$1 ~ "^"m"[{]" {s += $2} END {printf "%.6f\n", s + 0}' "$2"; }

t0=$(elapsed)
timeout "$(left)" "${bench[@]}" single -t test --log2-constraints "$k" --partitions 1 >"$OUT/warmup.txt" 2>&1 ||
  { cat "$OUT/warmup.txt"; fail "warm-up proof"; }
echo "warm-up (parameters generated, loaded, uploaded; one proof): $(( $(elapsed) - t0 )) ms"
grep -E "generat|hot|loaded" "$log" | tail -n 4

[[ -n "$status_addr" ]] && http_get /metrics >"$tmp/metrics-before.txt"
t0=$(elapsed)
timeout "$(left)" "${bench[@]}" --json batch -n "$n" -j "$j" -t test --log2-constraints "$k" --partitions "$parts" \
  --timeline "$OUT/timeline.svg" >"$OUT/summary.json" || batch_failed="cuzk-bench batch failed or ran past the time limit"
batch_ms=$(( $(elapsed) - t0 ))
echo "batch: $batch_ms ms"
if command -v python3 >/dev/null; then python3 -m json.tool "$OUT/summary.json"; else cat "$OUT/summary.json"; fi

if [[ -n "$status_addr" ]]; then
  http_get /status >"$OUT/status.json"
  http_get /metrics >"$OUT/metrics.txt"
  echo "GPU state after the batch:"
  grep -E '^cuzk_gpu_' "$OUT/metrics.txt"
  if grep -q '^cuzk_gpu_busy_seconds_total' "$OUT/metrics.txt"; then
    # Kernel-busy share of the batch's wall time (kernel-region lock held / wall, summed over
    # GPUs), and one kernel region per partition proved (1 warm-up + N x PARTITIONS).
    busy=$(awk -v a="$(gpu_sum cuzk_gpu_busy_seconds_total "$tmp/metrics-before.txt")" \
               -v b="$(gpu_sum cuzk_gpu_busy_seconds_total "$OUT/metrics.txt")" -v w="$batch_ms" \
               'BEGIN {printf "%.3f s = %.1f%% of the batch wall time", b - a, 100 * (b - a) / (w / 1000)}')
    echo "GPU kernels busy during the batch: $busy"
    regions=$(gpu_sum cuzk_gpu_kernel_regions_total "$OUT/metrics.txt")
    [[ -n "$batch_failed" || "${regions%.*}" == "$(( 1 + n * parts ))" ]] ||
      batch_failed="$regions kernel regions for $(( 1 + n * parts )) partitions proved"
  fi
fi

kill -TERM "$daemon_pid"
rc=""
for _ in $(seq 1 300); do
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    wait "$daemon_pid"
    rc=$?
    break
  fi
  sleep 0.1
done
daemon_pid_left="$daemon_pid"
[[ -n "$rc" ]] || fail "cuzk-daemon did not exit within 30 s of SIGTERM"
daemon_pid=""
[[ "$rc" == 0 ]] || fail "cuzk-daemon exited $rc after SIGTERM (pid $daemon_pid_left)"
echo "cuzk-daemon exited 0 after SIGTERM; total $(elapsed) ms; outputs in $OUT"
[[ -z "$batch_failed" ]] || { echo "run-daemon-bench: FAILED: $batch_failed" >&2; exit 1; }
