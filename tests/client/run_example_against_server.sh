#!/usr/bin/env bash
# Runs one client example against a real collide_server: starts the server
# on free loopback ports (--listen=127.0.0.1:0 and --admin_listen=
# 127.0.0.1:0; the ports are read from its "(port N)" and "(admin port N)"
# log lines) with mutual TLS (certificates made now by
# tests/support/make_test_certs.sh) and an admin token, waits until its
# health check says SERVING, runs the example with --address=127.0.0.1:N,
# --admin_address, --admin_token_file and the --tls_* flags appended, then
# stops the server (SIGTERM, SIGKILL if it is still there after 10 s)
# whatever happened. Every wait is bounded, 110 s in all, under CTest's
# 150 s.
#
# Usage: run_example_against_server.sh SERVER HEALTH_CHECK COMMAND [ARG...]
# Exits with the example's status, or 1 if the server never came up or the
# example's interpreter is missing.
set -euo pipefail

if [ "$#" -lt 3 ]; then
  echo "usage: $0 SERVER CLI COMMAND [ARG...]" >&2
  exit 2
fi
server=$1
cli=$2
shift 2

if ! command -v "$1" >/dev/null; then
  echo "$1 not found: install it (bash scripts/install_deps.sh)" >&2
  exit 1
fi

workdir=$(mktemp -d)
log="${workdir}/server.log"
: >"${log}"  # exists before the server starts, so the polling can read it
certs="${workdir}/certs"
bash "$(dirname "$0")/../support/make_test_certs.sh" "${certs}" example \
  >/dev/null 2>&1
printf 'example-token-%s\n' "$$" >"${workdir}/admin_token"
# The bundled level levels/arena is served (the examples' fog-of-war tick
# reads it); the examples put (and delete) their own level for the rest.
"${server}" --listen=127.0.0.1:0 --admin_listen=127.0.0.1:0 \
  --tls_cert_file="${certs}/server.pem" \
  --tls_key_file="${certs}/server.key" \
  --tls_client_ca_file="${certs}/ca.pem" \
  --admin_token_file="${workdir}/admin_token" 2>"${log}" &
server_pid=$!

stop_server() {
  kill -TERM "${server_pid}" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "${server_pid}" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "${server_pid}" 2>/dev/null || true
  wait "${server_pid}" 2>/dev/null || true
  rm -rf "${workdir}"
}
trap stop_server EXIT

show_log() {
  echo "--- collide_server log:" >&2
  cat "${log}" >&2
}

# Up to 20 s for the listening line (the server prints it once bound).
port=""
for _ in $(seq 200); do
  port=$(sed -n 's/.*listening on .*(port \([0-9][0-9]*\)).*/\1/p' "${log}" ||
    true)
  [ -n "${port}" ] && break
  kill -0 "${server_pid}" 2>/dev/null || break
  sleep 0.1
done
if [ -z "${port}" ]; then
  echo "collide_server did not start listening" >&2
  show_log
  exit 1
fi
address="127.0.0.1:${port}"
admin_port=$(sed -n 's/.*(admin port \([0-9][0-9]*\)).*/\1/p' "${log}")
tls_flags=(--tls_ca_file="${certs}/ca.pem" --tls_cert_file="${certs}/example.pem"
  --tls_key_file="${certs}/example.key")

if ! "${cli}" health --address="${address}" --wait=20s "${tls_flags[@]}"; then
  echo "collide_server at ${address} did not become SERVING" >&2
  show_log
  exit 1
fi

status=0
timeout 60 "$@" --address="${address}" \
  --admin_address="127.0.0.1:${admin_port}" \
  --admin_token_file="${workdir}/admin_token" "${tls_flags[@]}" ||
  status=$?
if [ "${status}" -ne 0 ]; then
  echo "example exited ${status} (124: timed out): $*" >&2
  show_log
fi
exit "${status}"
