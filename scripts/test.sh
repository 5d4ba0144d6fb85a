#!/usr/bin/env bash
# Installs what the tests need, builds with warnings as errors, and runs every test (unit,
# vector, differential, and the live @noble/curves cross-check) in parallel with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh ci
ctest --preset ci
