#!/usr/bin/env bash
# Installs the development package from a build (cmake --install
# --component development) into WORK/prefix, then builds two consumers
# from outside the source tree against it: tests/install/consumer with
# find_package(collide CONFIG) (WORK/consumer/known_answers, run against a
# server by the next test) and consumer/geometry_only.cc through
# pkg-config, which it runs, and known_answers.cc again through pkg-config
# (compiled and linked only). Prints what the package installs.
#
# Usage: check_cpp_package.sh BUILD_DIR SOURCE_DIR WORK
set -euo pipefail

if [ "$#" -ne 3 ]; then
  echo "usage: $0 BUILD_DIR SOURCE_DIR WORK" >&2
  exit 2
fi
build=$1
source_dir=$2
work=$3
rm -rf "${work}"
mkdir -p "${work}"
prefix="${work}/prefix"
consumer="${source_dir}/tests/install/consumer"

cmake --install "${build}" --prefix "${prefix}" --component development \
  >/dev/null
echo "installed: $(find "${prefix}/include" -name '*.h' | wc -l) headers," \
  "$(find "${prefix}/lib" -name '*.a' | wc -l) libraries," \
  "$(du -sh "${prefix}" | cut -f1) in all"

cmake -S "${consumer}" -B "${work}/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="${prefix}" >/dev/null
cmake --build "${work}/consumer" -j2 >/dev/null
echo "built ${work}/consumer/known_answers with find_package(collide)"

# shellcheck disable=SC2046  # pkg-config's output is a list of flags
g++ -std=c++17 -O1 -o "${work}/geometry_only" "${consumer}/geometry_only.cc" \
  $(PKG_CONFIG_PATH="${prefix}/lib/pkgconfig" pkg-config --cflags --libs \
    collide-geometry)
"${work}/geometry_only"
# The client through pkg-config: it must compile and link.
# shellcheck disable=SC2046
g++ -std=c++17 -O1 -o "${work}/known_answers_pkg_config" \
  "${consumer}/known_answers.cc" \
  $(PKG_CONFIG_PATH="${prefix}/lib/pkgconfig" pkg-config --cflags --libs \
    collide-client)
echo "built ${work}/known_answers_pkg_config with pkg-config collide-client"
