#!/usr/bin/env bash
# Writes the generated messages and stubs, OUT_DIR/collidev1/*.pb.go, from
# the protos under PROTO_DIR (proto/ of the repository) with Debian 12's
# protoc (protobuf-compiler), protoc-gen-go and protoc-gen-go-grpc. The
# module commits their output so `go get` needs no protoc; run this after
# changing a .proto:
#
#   client/go/generate_stubs.sh proto client/go
#
# (the suite regenerates into a scratch directory and fails on any
# difference: go_package.GeneratedCodeIsCurrent).
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 PROTO_DIR OUT_DIR" >&2
  exit 2
fi
proto_dir=$1
out_dir=$2
module=github.com/collide-dev/collide/client/go
for tool in protoc protoc-gen-go protoc-gen-go-grpc; do
  command -v "${tool}" >/dev/null || {
    echo "${tool} not found: install it (bash scripts/install_deps.sh)" >&2
    exit 1
  }
done
rm -rf "${out_dir}/collidev1"
mkdir -p "${out_dir}/collidev1"
protoc --proto_path="${proto_dir}" \
  --go_out="${out_dir}" --go_opt=module="${module}" \
  --go-grpc_out="${out_dir}" --go-grpc_opt=module="${module}" \
  "${proto_dir}"/collide/v1/*.proto
