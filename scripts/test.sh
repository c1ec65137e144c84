#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite twice:
# a Release build (scripts/test_release.sh, which also checks the installed
# programs against the Docker runtime image's packages, and is what the
# image's build stage runs), and a Debug build with AddressSanitizer and
# UndefinedBehaviorSanitizer (the randomized oracle tests run fewer cases
# there, since the sanitizers slow them down about tenfold). Between the
# two, beside the sanitizer build, scripts/check_image.sh builds the
# image's runtime stage from the Release build (buildah, a debootstrap
# base) and runs it: health, the sample workload, /metrics, SIGTERM.
# Last, a fuzz smoke: each libFuzzer target (tests/fuzz/, built with
# clang) for 50,000 inputs from a fixed seed (at most 60 s, as many targets
# at once as there are cores), so that its verdict hardly depends on luck.
# Exits non-zero if any build step or test fails, the image check fails, or
# a fuzzer finds a crash, sanitizer report or timeout.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/test_release.sh
jobs=$(nproc)

# Not in test_release.sh: the image's build stage runs that, and builds no
# image inside itself. It runs beside the sanitizer build: it mostly waits
# (downloads, unpacking, the server it starts), the build computes. Its
# log is printed once both are done.
image_log=$(mktemp)
bash scripts/check_image.sh build >"$image_log" 2>&1 &
image_pid=$!
trap 'kill "$image_pid" 2>/dev/null || true; rm -f "$image_log"' EXIT

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCOLLIDE_SANITIZE=ON \
  -DCOLLIDE_BUILD_BENCH=OFF
cmake --build build-sanitize -j"$jobs"

image_status=0
wait "$image_pid" || image_status=$?
cat "$image_log"
if [ "$image_status" -ne 0 ]; then
  echo "test.sh: the image check failed (exit ${image_status}), log above" >&2
  exit 1
fi
COLLIDE_ORACLE_CASES=1000 ctest --test-dir build-sanitize --output-on-failure -j"$jobs"

# Fuzz smoke: a few minutes in all, clang build included, the targets
# side by side on the machine's cores.
# A fixed seed and input count: it guards the checked-in corpus, the
# regressions and their neighbourhood; hunting new bugs is the job of
# longer runs with fresh seeds (docs/testing.md, Fuzzing).
bash scripts/fuzz.sh --seed 1 --runs 50000 --jobs "$jobs" 60
