#!/usr/bin/env bash
# Builds client/go as a user would, offline, from a copy of it (nothing is
# written into the source tree), then vets and tests it and builds its
# programs into WORK/bin:
#   gopath: the copy in a fresh GOPATH (WORK/gopath/src/<module path>),
#           GO111MODULE=off with Debian's /usr/share/gocode on GOPATH;
#   vendor: the copy as a module (WORK/module) whose vendor/ is assembled
#           from /usr/share/gocode by client/go/vendor_from_debian.sh, built
#           with GO111MODULE=on GOFLAGS=-mod=vendor.
# GOPROXY=off in both: nothing is downloaded. The unit tests check that
# collide.Version is VERSION. The build cache is WORK/../gocache, shared by
# both modes and kept between runs. Prints the size of the module's source
# and of the programs.
#
# Usage: build_go_package.sh SOURCE_DIR WORK gopath|vendor VERSION
set -euo pipefail

if [ "$#" -ne 4 ]; then
  echo "usage: $0 SOURCE_DIR WORK gopath|vendor VERSION" >&2
  exit 2
fi
source_dir=$1
work=$2
mode=$3
version=$4
module=github.com/collide-dev/collide/client/go

command -v go >/dev/null ||
  { echo "go not found: install golang-go (scripts/install_deps.sh)" >&2; exit 1; }
rm -rf "${work}"
mkdir -p "${work}/bin"
export GOCACHE
GOCACHE="$(cd "${work}/.." && pwd)/gocache"
export GOPROXY=off GOFLAGS='' CGO_ENABLED=0 COLLIDE_PROJECT_VERSION="${version}"
case "${mode}" in
  gopath)
    copy="${work}/gopath/src/${module}"
    mkdir -p "${copy%/*}"
    cp -r "${source_dir}/client/go" "${copy}"
    export GO111MODULE=off GOPATH="${work}/gopath:/usr/share/gocode"
    ;;
  vendor)
    copy="${work}/module"
    cp -r "${source_dir}/client/go" "${copy}"
    "${copy}/vendor_from_debian.sh" "${copy}"
    export GO111MODULE=on GOFLAGS=-mod=vendor GOPATH="${work}/gopath"
    ;;
  *)
    echo "mode must be gopath or vendor, got ${mode}" >&2
    exit 2
    ;;
esac
cd "${copy}"
go vet ./...
go test -count=1 ./...
go build -buildvcs=false -o "${work}/bin/" ./cmd/...
echo "client/go source: $(du -sh --exclude=vendor . | cut -f1)" \
  "(generated code $(du -sh collidev1 | cut -f1)); programs:" \
  "$(du -sh "${work}/bin" | cut -f1)"
