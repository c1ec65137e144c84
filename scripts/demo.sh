#!/usr/bin/env bash
# Installs what is missing, builds the sample program and runs it: a few
# casts against a small arena, straight from the TOI core (until the gRPC
# server exists, this is the project's main job).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target collide_demo
build/client/collide_demo
