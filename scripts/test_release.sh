#!/usr/bin/env bash
# The Release half of scripts/test.sh, and exactly what docker/Dockerfile's
# build stage runs: installs what is missing (Debian packages, then the npm
# packages of the Node example and of client/node from their lock files),
# builds everything in Release (build/), runs the whole test suite, then
# checks that the installed programs need only the runtime image's packages
# and that the installed server starts and answers health
# (scripts/check_runtime_deps.sh).
# Exits non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
# Exactly the versions in package-lock.json, into client/examples/node/
# node_modules (git-ignored); the Node example's test needs them.
(cd client/examples/node && npm ci --no-audit --no-fund)
# The same for the Node package's build (client/node/node_modules): its
# test packs and installs it.
(cd client/node && npm ci --no-audit --no-fund)
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
bash scripts/check_runtime_deps.sh build
