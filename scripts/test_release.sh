#!/usr/bin/env bash
# The Release half of scripts/test.sh, and exactly what docker/Dockerfile's
# build stage runs: installs what is missing, builds everything in Release
# (build/), runs the whole test suite, then checks that the installed
# programs need only the runtime image's packages and that the installed
# server starts and answers health (scripts/check_runtime_deps.sh).
# Exits non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
bash scripts/check_runtime_deps.sh build
