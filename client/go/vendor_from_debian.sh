#!/usr/bin/env bash
# Writes MODULE_DIR/vendor/ (and vendor/modules.txt) from the Go sources
# Debian's golang-*-dev packages install under GOCODE (default
# /usr/share/gocode), so the module builds offline in module mode with
# GOFLAGS=-mod=vendor. It vendors exactly the packages the module's
# packages and tests import (as `go list -deps -test` finds them in GOPATH
# mode), each under the version the module's go.mod requires of its module;
# a package whose module go.mod does not require is an error. Debian's
# sources are what gets built, whatever version go.mod names: Debian 12's
# are the versions go.mod requires except genproto (an older snapshot that
# gRPC 1.33 builds with).
#
# Usage: vendor_from_debian.sh MODULE_DIR [GOCODE]
set -euo pipefail

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: $0 MODULE_DIR [GOCODE]" >&2
  exit 2
fi
module_dir=$(cd "$1" && pwd)
gocode=${2:-/usr/share/gocode}
module=$(sed -n 's/^module[[:space:]]*//p' "${module_dir}/go.mod")
[ -n "${module}" ] || { echo "${module_dir}/go.mod names no module" >&2; exit 1; }

# The requirements of go.mod, "path version" a line.
requirements=$(awk '
  /^require[[:space:]]*\($/ { block = 1; next }
  block && /^\)/ { block = 0; next }
  block && NF >= 2 && $1 !~ /^\/\// { print $1, $2 }
  /^require[[:space:]]+[^(]/ { print $2, $3 }' "${module_dir}/go.mod")

work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
mkdir -p "${work}/gopath/src/${module%/*}"
cp -r "${module_dir}" "${work}/gopath/src/${module}"
rm -rf "${work}/gopath/src/${module}/vendor"

# Every package outside the standard library and the module, with its
# directory (test variants, "p [p.test]" and "p.test", are left out).
GO111MODULE=off GOPATH="${work}/gopath:${gocode}" GOFLAGS='' GOPROXY=off \
  GOCACHE="${work}/gocache" go list -deps -test \
  -f '{{if not .Standard}}{{.ImportPath}}	{{.Dir}}{{end}}' "${module}/..." |
  grep -v -e ' \[' -e '\.test	' | sort -u >"${work}/packages"

vendor="${module_dir}/vendor"
rm -rf "${vendor}"
mkdir -p "${vendor}"
: >"${work}/owned"  # "module package" a line
while IFS=$'\t' read -r package dir; do
  case "${package}" in "${module}" | "${module}"/*) continue ;; esac
  # The package's module: the nearest go.mod at or above its directory.
  root=${dir}
  while [ ! -f "${root}/go.mod" ]; do
    if [ "${root}" = "${gocode}/src" ] || [ "${root}" = / ]; then
      echo "${package}: no go.mod above ${dir}" >&2
      exit 1
    fi
    root=$(dirname "${root}")
  done
  owner=$(sed -n 's/^module[[:space:]]*//p' "${root}/go.mod")
  if ! grep -q "^${owner} " <<<"${requirements}"; then
    echo "${package} is in module ${owner}, which go.mod does not require" >&2
    exit 1
  fi
  mkdir -p "${vendor}/${package}"
  find "${dir}" -maxdepth 1 -type f ! -name '*_test.go' \
    -exec cp -t "${vendor}/${package}/" {} +
  printf '%s %s %s\n' "${owner}" "${package}" "${root}" >>"${work}/owned"
done <"${work}/packages"

# modules.txt: every requirement, explicit, with the packages it provides.
while read -r owner version; do
  echo "# ${owner} ${version}"
  root=$(awk -v m="${owner}" '$1 == m { print $3; exit }' "${work}/owned")
  go_version=""
  if [ -n "${root}" ]; then
    go_version=$(sed -n 's/^go[[:space:]]*\([0-9.]*\).*/\1/p' "${root}/go.mod")
  fi
  echo "## explicit${go_version:+; go ${go_version}}"
  awk -v m="${owner}" '$1 == m { print $2 }' "${work}/owned" | sort
done <<<"${requirements}" >"${vendor}/modules.txt"
echo "vendored $(wc -l <"${work}/owned") packages of" \
  "$(grep -c '^# ' "${vendor}/modules.txt") modules into ${vendor}:" \
  "$(du -sh "${vendor}" | cut -f1)"
