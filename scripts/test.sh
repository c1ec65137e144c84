#!/usr/bin/env bash
# Installs what is missing (Debian packages, then the Node example's npm
# packages from its lock file), then builds and runs the whole test suite
# twice: a Release build, and a Debug build with AddressSanitizer and
# UndefinedBehaviorSanitizer (the randomized oracle tests run fewer cases
# there, since the sanitizers slow them down about tenfold).
# Exits non-zero if any build step or test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
# Exactly the versions in package-lock.json, into client/examples/node/
# node_modules (git-ignored); the Node example's test needs them.
(cd client/examples/node && npm ci --no-audit --no-fund)
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCOLLIDE_SANITIZE=ON \
  -DCOLLIDE_BUILD_BENCH=OFF
cmake --build build-sanitize -j"$jobs"
COLLIDE_ORACLE_CASES=1000 ctest --test-dir build-sanitize --output-on-failure -j"$jobs"
