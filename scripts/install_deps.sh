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
  # the gRPC service and its clients
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  python3-grpcio
  # Tiled map import (header-only JSON parser)
  nlohmann-json3-dev
  # benchmarks and their reference libraries (never linked by lib/)
  libbenchmark-dev libbox2d-dev libchipmunk-dev
)

missing=()
for package in "${packages[@]}"; do
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
