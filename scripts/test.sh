#!/usr/bin/env bash
# Installs what the tests need, builds with warnings as errors, and runs every test (unit,
# vector, differential, integration, and the live @noble/curves and snarkjs cross-checks) in
# parallel with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh ci

# The decoders of untrusted bytes (point encodings, .params/.vk/proof files, .zkey/.wtns) once
# more under AddressSanitizer + UndefinedBehaviorSanitizer: corrupt and truncated inputs must be
# rejected with an error, never read out of bounds. About a minute on two cores.
scripts/build.sh debug groth16_test ec_test snarkjs_test
build/debug/tests/unit/groth16/groth16_test --gtest_brief=1
build/debug/tests/unit/ec/ec_test --gtest_brief=1 --gtest_filter='ec_codec*'
build/debug/tests/unit/snarkjs/snarkjs_test --gtest_brief=1

ctest --preset ci
