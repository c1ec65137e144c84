#!/usr/bin/env bash
# Installs the built programs (CMakeLists.txt's COLLIDE_INSTALLED_PROGRAMS:
# collide_server and the client tools) into PREFIX/bin, stripped. The
# Docker build stage runs this to fill the runtime image, and
# scripts/check_runtime_deps.sh runs it into a temporary prefix, so CI
# checks the very files the image ships.
#
# Usage: scripts/install_binaries.sh PREFIX [BUILD_DIR (default: build)]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -lt 1 ]; then
  echo "usage: $0 PREFIX [BUILD_DIR]" >&2
  exit 2
fi
prefix="$1"
build_dir="${2:-build}"
cmake --install "${build_dir}" --prefix "${prefix}" --strip --component runtime
