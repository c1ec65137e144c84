#!/usr/bin/env bash
# Installs every Debian 12 package collide needs to build, test and
# benchmark. The README's commands, CI and the Docker build stage all run
# this one script, so a fresh machine gets exactly what the image gets.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake make pkg-config ca-certificates
  # lib/ and tests
  libabsl-dev libgtest-dev libgmock-dev libgmp-dev
  # tests of the SVG renderer parse its output (test-only)
  libtinyxml2-dev
  # the gRPC service and its clients
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  # the callers in other languages (client/examples/); the Node example's
  # own packages come from npm (scripts/test.sh runs npm ci)
  python3-grpcio python3-protobuf nodejs npm
  # Tiled map import (header-only JSON parser)
  nlohmann-json3-dev
  # benchmarks and their reference libraries (never linked by lib/)
  libbenchmark-dev libbox2d-dev libchipmunk-dev
)

missing=()
for package in "${packages[@]}"; do
  # A Node.js from elsewhere (NodeSource, nvm) brings its own npm and
  # conflicts with Debian's npm package: use it as it is.
  if [[ "${package}" == nodejs || "${package}" == npm ]] &&
      command -v node >/dev/null && command -v npm >/dev/null; then
    continue
  fi
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "installing: ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y \
  --no-install-recommends "${missing[@]}"
