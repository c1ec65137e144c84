#!/usr/bin/env bash
# Installs client/python as a user would, into a fresh venv, offline:
# Debian's /usr/bin/python3 -m venv --system-site-packages (so the venv sees
# python3-grpcio and python3-protobuf) and pip install --no-build-isolation
# --no-index of a copy of the package directory (the build then writes
# nothing into the source tree; COLLIDE_SOURCE_DIR points it at the protos
# and the project version). Checks the installed version is VERSION, that
# the generated stubs and type information are there, and prints the
# installed size.
#
# Usage: install_python_package.sh SOURCE_DIR VENV VERSION
set -euo pipefail

if [ "$#" -ne 3 ]; then
  echo "usage: $0 SOURCE_DIR VENV VERSION" >&2
  exit 2
fi
source_dir=$1
venv=$2
version=$3

work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
cp -r "${source_dir}/client/python" "${work}/python"
rm -rf "${work}/python/build" "${work}/python/src/"*.egg-info

rm -rf "${venv}"
/usr/bin/python3 -m venv --system-site-packages "${venv}"
COLLIDE_SOURCE_DIR="${source_dir}" "${venv}/bin/pip" install --quiet \
  --no-build-isolation --no-index "${work}/python"

installed=$("${venv}/bin/pip" show collide-client |
  sed -n 's/^Version: //p')
if [ "${installed}" != "${version}" ]; then
  echo "installed collide-client ${installed}, expected ${version}" >&2
  exit 1
fi
package=$("${venv}/bin/python" -c \
  'import collide, os; print(os.path.dirname(collide.__file__))')
for file in py.typed v1/collision_service_pb2.py v1/collision_service_pb2.pyi \
  v1/collision_service_pb2_grpc.py v1/level_service_pb2_grpc.py; do
  if [ ! -f "${package}/${file}" ]; then
    echo "the installed package lacks ${file}" >&2
    exit 1
  fi
done
echo "collide-client ${installed} installed in ${venv}:" \
  "$(du -sh --exclude=__pycache__ "${package}" | cut -f1)"
