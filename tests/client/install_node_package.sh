#!/usr/bin/env bash
# Installs client/node as a user would: `npm pack` of a copy of the package
# directory (its prepack build copies the protos and generates the type
# declarations; the copy keeps the source tree clean, COLLIDE_SOURCE_DIR
# points the build at the protos and the project version, and the copy uses
# the package's own node_modules, which `npm ci` in client/node installs),
# then `npm install` of the tarball into PROJECT, a fresh project (its
# dependencies from the npm cache or registry, as the host's npm config
# says). Checks the installed version is VERSION and that the protos and
# declarations are there, type-checks test/consumer.ts against the installed
# types (tsc --noEmit --strict), copies the unit tests and examples next to
# it (so that require('collide-client') finds the installed copy), and
# prints the tarball's and the installed sizes.
#
# Usage: install_node_package.sh SOURCE_DIR PROJECT VERSION
set -euo pipefail

if [ "$#" -ne 3 ]; then
  echo "usage: $0 SOURCE_DIR PROJECT VERSION" >&2
  exit 2
fi
source_dir=$1
project=$2
version=$3
package_source="${source_dir}/client/node"
for tool in node npm; do
  if ! command -v "${tool}" >/dev/null; then
    echo "${tool} not found: install it (bash scripts/install_deps.sh)" >&2
    exit 1
  fi
done
if [ ! -x "${package_source}/node_modules/.bin/tsc" ]; then
  echo "${package_source}/node_modules lacks the build's packages:" \
    "run (cd client/node && npm ci) first (scripts/test_release.sh does)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
mkdir "${work}/node"
tar -C "${package_source}" --exclude=./node_modules --exclude=./proto \
  --exclude=./generated --exclude=./build --exclude=./LICENSE \
  --exclude='./*.tgz' -cf - . | tar -C "${work}/node" -xf -
ln -s "${package_source}/node_modules" "${work}/node/node_modules"
(cd "${work}/node" &&
  COLLIDE_SOURCE_DIR="${source_dir}" npm pack --silent \
    --pack-destination "${work}" >/dev/null)
tarball="${work}/collide-client-${version}.tgz"
if [ ! -f "${tarball}" ]; then
  echo "npm pack made no collide-client-${version}.tgz:" \
    "$(ls "${work}")" >&2
  exit 1
fi

rm -rf "${project}"
mkdir -p "${project}"
cp "${tarball}" "${project}/"
printf '{"name": "collide-client-consumer", "private": true}\n' \
  >"${project}/package.json"
(cd "${project}" &&
  npm install --silent --no-audit --no-fund --prefer-offline \
    "./${tarball##*/}")

installed_dir="${project}/node_modules/collide-client"
installed=$(node -p 'require(process.argv[1]).version' \
  "${installed_dir}/package.json")
if [ "${installed}" != "${version}" ]; then
  echo "installed collide-client ${installed}, expected ${version}" >&2
  exit 1
fi
for file in LICENSE lib/index.js types/index.d.ts generated/v1.d.ts \
  generated/collide/v1/QueryResult.d.ts proto/collide/v1/collision_service.proto \
  proto/collide/v1/level_service.proto proto/collide/v1/geometry.proto; do
  if [ ! -f "${installed_dir}/${file}" ]; then
    echo "the installed package lacks ${file}" >&2
    exit 1
  fi
done

# Type-check a consumer against the installed declarations. skipLibCheck
# spares checking grpc-js's and Node's own declarations (most of the time);
# consumer.ts's @ts-expect-error lines fail the check if the package's types
# degrade to `any`.
cp "${package_source}/test/consumer.ts" "${project}/"
"${package_source}/node_modules/.bin/tsc" --noEmit --strict --skipLibCheck \
  --target es2020 --module node16 --moduleResolution node16 \
  "${project}/consumer.ts"

cp "${package_source}/test/builders.test.js" \
  "${package_source}/examples/known_answers.js" \
  "${package_source}/examples/query_loop.js" "${project}/"
echo "collide-client ${installed}: tarball $(du -h --apparent-size \
  "${tarball}" | cut -f1), installed $(du -sh --apparent-size "${installed_dir}" |
  cut -f1) (with its dependencies $(du -sh --apparent-size "${project}/node_modules" |
  cut -f1))"
