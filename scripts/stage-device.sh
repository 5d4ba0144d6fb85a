#!/usr/bin/env bash
# Builds the GPU test and benchmark binaries here (nvcc, static CUDA runtime) and copies them
# into device-out/ (git-ignored), the folder that travels to the H200 machine (name it in the
# device run's `carry`), which has a driver and nvcc but none of our Debian libraries.
# Run there: `bash device-out/run-device-tests.sh` (every *_test) and `scripts/device-bench`.
#
# CUZK_BUILD_DIR=build/h-cuda scripts/stage-device.sh  builds in an existing build tree at low
# priority (nice ninja -j1) instead of the release preset.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(cuda_field_test cuda_ntt_test cuda_bench)
if [[ -n "${CUZK_BUILD_DIR:-}" ]]; then
  build="$CUZK_BUILD_DIR"
  nice ninja -C "$build" -j1 "${targets[@]}"
else
  build=build/release
  scripts/build.sh release "${targets[@]}"
fi
rm -rf device-out && mkdir -p device-out
cp "$build"/tests/unit/cuda/cuda_field_test "$build"/tests/unit/cuda/cuda_ntt_test device-out/
cp "$build"/src/backend/cuda/cuda_bench device-out/
cat > device-out/run-device-tests.sh <<'SH'
#!/usr/bin/env bash
# Runs every staged GPU test; prints the GPU and each test's result.
set -uo pipefail
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
status=0
for t in ./*_test; do
  "$t" --gtest_brief=1 || status=1
done
exit $status
SH
chmod +x device-out/run-device-tests.sh
echo "staged: $(ls device-out | tr '\n' ' ')"
