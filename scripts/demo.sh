#!/usr/bin/env bash
# README's first command: installs what is missing, builds the server and
# the sample workload, starts collide_server on its bundled level on a
# loopback port, waits until its health check says SERVING, runs a short
# sample workload (describe the level, one batch of casts through the
# stream, print what they hit), then stops the server with SIGTERM and
# checks that it drained and exited 0.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target collide_server \
  collide_sample_workload collide-cli

port="${COLLIDE_DEMO_PORT:-50051}"
target="127.0.0.1:${port}"
# The demo only reads levels: no admin listener (a read-only server), so it
# needs no second port (the default admin listener is 127.0.0.1:50052).
build/server/collide_server --listen="${target}" --admin_listen=none &
server_pid=$!
# Never leave the server behind, whatever fails below.
trap 'kill "${server_pid}" 2>/dev/null || true' EXIT

# Bounded wait: collide-cli health retries for at most 30 s.
if ! build/client/collide-cli health --address="${target}" --wait=30s; then
  echo "demo: the server did not become SERVING" >&2
  exit 1
fi

build/client/collide_sample_workload --address="${target}"

kill -TERM "${server_pid}"
status=0
wait "${server_pid}" || status=$?
trap - EXIT
if [ "${status}" -ne 0 ]; then
  echo "demo: collide_server exited ${status} after SIGTERM" >&2
  exit 1
fi
echo "demo: collide_server drained and exited 0"
