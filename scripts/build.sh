#!/usr/bin/env bash
# Configures and builds one CMake preset: release (default), ci (warnings as errors) or debug
# (AddressSanitizer + UndefinedBehaviorSanitizer). Extra arguments go to the build (targets).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
cmake --preset "$preset" >/dev/null
if (($#)); then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
