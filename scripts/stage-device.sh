#!/usr/bin/env bash
# Builds the GPU test and benchmark binaries here (nvcc, static CUDA runtime) and copies them
# into device-out/ (git-ignored), the folder that travels to the H200 machine, which has a
# driver and nvcc but none of our Debian libraries.
# Run there: `bash device-out/run-device-tests.sh` (every *_test), `scripts/device-bench`
# (`scripts/device-bench msm` for the G1 MSM benchmark) and `OUT=dir bash
# device-out/daemon/run-daemon-bench.sh` (the daemon with two GPU workers under cuzk-bench batch;
# device-out/daemon can travel alone).
#
# CUZK_BUILD_DIR=build/h-cuda scripts/stage-device.sh  builds in an existing build tree at low
# priority (nice ninja -j1) instead of the release preset. CUZK_STAGE_DIR=device-out/NAME stages
# into that folder instead (without the daemon), so that separate builds can travel separately.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(cuda_field_test cuda_ntt_test cuda_msm_test cuda_msm_g2_test cuda_setup_test cuda_bench cuda_msm_bench
  cuda_device_memory_test cuda_backend_test cuda_fault_test cuda_prove_bench)
if [[ -n "${CUZK_BUILD_DIR:-}" ]]; then
  build="$CUZK_BUILD_DIR"
  nice ninja -C "$build" -j1 "${targets[@]}"
else
  build=build/release
  scripts/build.sh release "${targets[@]}"
fi
out="${CUZK_STAGE_DIR:-device-out}"
rm -rf "$out" && mkdir -p "$out"
cp "$build"/tests/unit/cuda/cuda_field_test "$build"/tests/unit/cuda/cuda_ntt_test "$build"/tests/unit/cuda/cuda_msm_test \
  "$build"/tests/unit/cuda/cuda_msm_g2_test "$out"/
cp "$build"/src/backend/cuda/cuda_bench "$build"/src/backend/cuda/cuda_msm_bench "$out"/
# The prover backend's binaries link the CPU prover, hence oneTBB (and libb2 where it links
# shared), shared only on Debian: they travel in $out/lib, found through LD_LIBRARY_PATH.
cp "$build"/tests/unit/cuda/cuda_device_memory_test "$build"/tests/unit/cuda/cuda_backend_test \
  "$build"/tests/unit/cuda/cuda_setup_test "$build"/tests/unit/cuda/cuda_fault_test "$build"/src/backend/cuda/cuda_prove_bench \
  "$out"/
# Symbols off: at most 64 MiB travel to the H200 machine, and unstripped these binaries exceed it.
# Packed for the trip, `tar -cf - DIR | xz -9e` shrinks the whole stage ~6x more than xz -6 (the
# binaries share most of their code and -9e's 64 MiB window sees the repeats across files): all
# 12 binaries and the libraries were 9.95 MB against 61.7 MB.
strip "$out"/*_test "$out"/cuda_*bench
mkdir -p "$out"/lib
ldd "$out"/cuda_backend_test "$out"/cuda_setup_test "$out"/cuda_prove_bench | awk '/lib(tbb|b2|gomp)[^ ]*\.so/ {print $3}' |
  sort -u | xargs -r -I{} cp -L {} "$out"/lib/
cat > "$out"/run-device-tests.sh <<'SH'
#!/usr/bin/env bash
# Runs every staged GPU test; prints the GPU and each test's result.
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
status=0
for t in ./*_test; do
  "$t" --gtest_brief=1 || status=1
done
exit $status
SH
chmod +x "$out"/run-device-tests.sh
# cuzk-daemon and cuzk-bench with their libraries and run-daemon-bench.sh in device-out/daemon.
[[ -n "${CUZK_STAGE_DIR:-}" ]] || scripts/stage-daemon.sh
echo "staged in $out: $(ls "$out" | tr '\n' ' ')"
