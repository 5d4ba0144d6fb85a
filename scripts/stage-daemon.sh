#!/usr/bin/env bash
# Stages cuzk-daemon and cuzk-bench for the H200 machine: builds them here (CUDA build), copies them
# into device-out/daemon/ (replaced; the rest of device-out/ is left alone) with every shared
# library they need that the machine lacks (gRPC, protobuf, abseil, spdlog, fmt, toml++, oneTBB,
# ... found with ldd) in device-out/daemon/lib, and writes device-out/daemon/run-daemon-bench.sh.
# Its own folder (~38 MiB) so that it can travel to the H200 machine alone: what travels there is
# limited to 64 MiB in all, which the GPU test binaries of stage-device.sh already approach.
# Debian 12 binaries run there: the machine is Ubuntu 24.04 with a newer glibc and libstdc++, so
# the C and C++ runtimes are the only libraries not copied.
#
#   CUZK_BUILD_DIR=build/x scripts/stage-daemon.sh   build in an existing tree (nice ninja -j1)
#                                                    instead of the release preset
# Then on the H200 machine: `OUT=/some/dir bash device-out/daemon/run-daemon-bench.sh` (docs/daemon.md
# "On the H200"). The same script runs here with CUZK_BACKEND=cpu for a dry run.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(cuzk-daemon cuzk-bench)
if [[ -n "${CUZK_BUILD_DIR:-}" ]]; then
  build="$CUZK_BUILD_DIR"
  nice ninja -C "$build" -j1 "${targets[@]}"
else
  build=build/release
  scripts/build.sh release "${targets[@]}"
fi
out=device-out/daemon
rm -rf "$out" && mkdir -p "$out/lib"
cp "$build"/apps/cuzk-daemon "$build"/apps/cuzk-bench "$out"/
# Everything ldd resolves except the C/C++ runtime and the loader (newer ones are there).
ldd "$out"/cuzk-daemon "$out"/cuzk-bench |
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
  grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|libgcc_s|libstdc\+\+|ld-linux[^/]*|libcuda)\.so' |
  sort -u | xargs -r -I{} cp -L {} "$out"/lib/
cp scripts/run-daemon-bench.sh "$out"/run-daemon-bench.sh
chmod +x "$out"/run-daemon-bench.sh
echo "staged cuzk-daemon, cuzk-bench and $(ls "$out"/lib | wc -l) libraries in $out ($(du -sh "$out" | cut -f1))"
