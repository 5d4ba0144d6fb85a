#!/usr/bin/env bash
# Installs every Debian package the build, tests and benchmarks need, and the npm packages the
# cross-checks use (`--fuzz`: also clang, for libFuzzer builds). Idempotent: packages already
# present are not reinstalled, and apt-get update runs only when something is missing. Needs root
# (or sudo) on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake ninja-build pkg-config git ca-certificates
  libgtest-dev libgmock-dev libbenchmark-dev libtbb-dev libb2-dev
  # daemon: gRPC/protobuf, logging, TOML config, command lines
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libspdlog-dev libtomlplusplus-dev libcli11-dev
  # JSON input (snarkjs files, parameters.json)
  libsimdjson-dev
)
# --fuzz: clang (with libFuzzer) for the `fuzz` preset (tests/fuzz); not needed by CI, whose
# ctest replays the fuzz corpus with g++.
if [[ " $* " == *" --fuzz "* ]]; then
  packages+=(clang)
fi
# Node.js may come from elsewhere than Debian (a newer release): any node and npm on PATH do.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: Debian packages present"
fi

# npm packages for the @noble/curves cross-checks (versions pinned in tests/noble/package.json).
if [[ -f tests/noble/package.json ]]; then
  if [[ ! -d tests/noble/node_modules/@noble/curves ]]; then
    echo "install-deps: npm packages for tests/noble"
    npm install --prefix tests/noble --no-audit --no-fund --loglevel=error
  else
    echo "install-deps: npm packages present"
  fi
fi

# npm packages for the snarkjs cross-checks (snarkjs and circom2, pinned in tests/snarkjs/package.json).
if [[ -f tests/snarkjs/package.json ]]; then
  if [[ ! -d tests/snarkjs/node_modules/snarkjs ]]; then
    echo "install-deps: npm packages for tests/snarkjs"
    npm install --prefix tests/snarkjs --no-audit --no-fund --loglevel=error
  else
    echo "install-deps: npm packages for tests/snarkjs present"
  fi
fi
