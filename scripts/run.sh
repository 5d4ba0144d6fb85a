#!/usr/bin/env bash
# The main job. Until the daemon lands it is the demonstration program: it checks BLS12-381
# against the published vectors, runs a pairing check, times the core operations and (when a
# GPU is present) runs the field arithmetic on the GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release cuzk-demo
exec build/release/apps/cuzk-demo "$@"
