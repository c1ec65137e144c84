#!/usr/bin/env bash
# The Release half of scripts/test.sh, and exactly what docker/Dockerfile's
# build stage runs: installs what is missing (Debian packages, then the npm
# packages of client/node from its lock file), builds that package (which
# the Node example links to), builds everything in Release (build/), runs
# the whole test suite, then checks that the installed programs need only
# the runtime image's packages and that the installed server starts and
# answers health (scripts/check_runtime_deps.sh).
# Exits non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
# Exactly the versions in package-lock.json, into client/node/node_modules
# (git-ignored): the Node package's build needs them (its test packs and
# installs it), and so does the Node example, which loads the package from
# this folder. `npm run build` copies the protos into it (git-ignored
# outputs) for the example.
(cd client/node && npm ci --no-audit --no-fund && npm run build)
# The Node example's one dependency, collide-client, is a link to
# client/node (file:../../node): nothing is fetched.
(cd client/examples/node && npm ci --no-audit --no-fund)
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
bash scripts/check_runtime_deps.sh build
