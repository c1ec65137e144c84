#!/usr/bin/env bash
# Fails when client/go/collidev1 (committed, so `go get` needs no protoc)
# differs from what client/go/generate_stubs.sh makes from proto/ now: a
# .proto changed without regenerating, or a hand edit. Prints the
# difference and the command that fixes it.
#
# Usage: check_go_stubs.sh SOURCE_DIR
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 SOURCE_DIR" >&2
  exit 2
fi
source_dir=$1
fresh=$(mktemp -d)
trap 'rm -rf "${fresh}"' EXIT
"${source_dir}/client/go/generate_stubs.sh" "${source_dir}/proto" "${fresh}"
if ! diff -ru "${source_dir}/client/go/collidev1" "${fresh}/collidev1"; then
  echo "client/go/collidev1 is stale: run" \
    "client/go/generate_stubs.sh proto client/go" >&2
  exit 1
fi
echo "client/go/collidev1 matches the protos"
