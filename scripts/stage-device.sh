#!/usr/bin/env bash
# Builds the GPU test binaries here (nvcc, static CUDA runtime) and copies them into
# device-out/ (git-ignored), the folder that travels to the H200 machine, which has a driver
# and nvcc but none of our Debian libraries. Run there: `bash device-out/run-device-tests.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release cuda_field_test
rm -rf device-out && mkdir -p device-out
cp build/release/tests/unit/cuda/cuda_field_test device-out/
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
