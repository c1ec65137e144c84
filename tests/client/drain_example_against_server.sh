#!/usr/bin/env bash
# Drains a real collide_server under a client example's query loop, DRAINS
# times, and passes when the example lost no call.
#
# A rolling restart of one replica on one address, as a caller that knows
# one address sees it (a load balancer in front, or a single server being
# replaced): the server starts on a free loopback port with the bundled
# level, the example runs its loop (--loop_seconds, a unary loop and a
# stream) against that address, and each round waits until the server
# carries the loop's load (an open stream and answered RunQueries calls, read
# from its /metrics page), sends it SIGTERM, waits for it to exit, and
# starts a new server on the same port. After the last round it waits for
# the load to reach the new server, stops the example with SIGTERM and
# checks that it exited 0 (every call answered), printed its summary and
# resent a stream at least once (a drain ends every stream). Between a
# server's exit and its replacement listening the port is closed: the
# example's calls wait for it (waitForReady) rather than fail.
#
# Every wait is bounded (20 s each); the whole run stays well under CTest's
# timeout. Nothing asserts on timing.
#
# Usage: drain_example_against_server.sh SERVER DRAINS COMMAND [ARG...]
# (the example gets --address=127.0.0.1:PORT --loop_seconds=120 appended).
# Exits 0 when the example lost nothing, 1 otherwise.
set -euo pipefail

if [ "$#" -lt 3 ]; then
  echo "usage: $0 SERVER DRAINS COMMAND [ARG...]" >&2
  exit 2
fi
server=$1
drains=$2
shift 2

if ! command -v "$1" >/dev/null; then
  echo "$1 not found: install it (bash scripts/install_deps.sh)" >&2
  exit 1
fi

workdir=$(mktemp -d)
server_pid=""
client_pid=""
client_out="${workdir}/client.out"
client_err="${workdir}/client.err"

cleanup() {
  for pid in "${client_pid}" "${server_pid}"; do
    [ -n "${pid}" ] || continue
    kill -KILL "${pid}" 2>/dev/null || true
    wait "${pid}" 2>/dev/null || true
  done
  rm -rf "${workdir}"
}
trap cleanup EXIT

fail() {
  echo "drain test: $*" >&2
  for f in "${workdir}"/server*.log; do
    [ -f "${f}" ] && { echo "--- ${f##*/}:" >&2; cat "${f}" >&2; }
  done
  echo "--- example stdout:" >&2
  cat "${client_out}" >&2 2>/dev/null || true
  echo "--- example stderr:" >&2
  cat "${client_err}" >&2 2>/dev/null || true
  exit 1
}

# Starts a server listening on 127.0.0.1:$1 (0: any free port) with metrics
# on a free port; sets server_pid, port and metrics_port.
start_server() {
  local log="${workdir}/server${round}.log"
  : >"${log}"
  "${server}" --listen="127.0.0.1:$1" --admin_listen=127.0.0.1:0 \
    --metrics_listen=127.0.0.1:0 2>"${log}" &
  server_pid=$!
  port=""
  metrics_port=""
  local give_up=$((SECONDS + 20))
  while [ "${SECONDS}" -lt "${give_up}" ]; do
    port=$(sed -n 's/.*listening on .*(port \([0-9][0-9]*\)).*/\1/p' "${log}")
    metrics_port=$(sed -n 's/.*(metrics port \([0-9][0-9]*\)).*/\1/p' "${log}")
    [ -n "${port}" ] && [ -n "${metrics_port}" ] && return 0
    kill -0 "${server_pid}" 2>/dev/null || break
    sleep 0.1
  done
  fail "collide_server (round ${round}) did not start listening on port $1"
}

# One sample of the server's /metrics page (0 when absent).
metric() {
  curl -s --max-time 2 "http://127.0.0.1:${metrics_port}/metrics" |
    awk -v name="$1" '$1 == name { print $2; found = 1 } END { if (!found) print 0 }'
}

# Waits until the server carries the loop: a stream open and at least 10
# RunQueries calls answered since it started.
wait_for_load() {
  local unary='grpc_server_handled_total{grpc_type="unary",grpc_service="collide.v1.CollisionService",grpc_method="RunQueries",grpc_code="OK"}'
  local give_up=$((SECONDS + 20))
  local streams=0 calls=0
  while [ "${SECONDS}" -lt "${give_up}" ]; do
    kill -0 "${client_pid}" 2>/dev/null ||
      fail "the example exited before round ${round} was done"
    streams=$(metric collide_streams_open)
    calls=$(metric "${unary}")
    if [ "${streams%.*}" -ge 1 ] && [ "${calls%.*}" -ge 10 ]; then
      return 0
    fi
    sleep 0.1
  done
  fail "round ${round}: the example's calls did not reach the server" \
    "(streams open ${streams}, RunQueries answered ${calls})"
}

round=0
start_server 0
address="127.0.0.1:${port}"
"$@" --address="${address}" --loop_seconds=120 >"${client_out}" \
  2>"${client_err}" &
client_pid=$!

for round in $(seq "${drains}"); do
  wait_for_load
  kill -TERM "${server_pid}"
  give_up=$((SECONDS + 20))
  while [ "${SECONDS}" -lt "${give_up}" ]; do
    kill -0 "${server_pid}" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "${server_pid}" 2>/dev/null &&
    fail "round ${round}: collide_server did not exit after SIGTERM"
  wait "${server_pid}" || fail "round ${round}: collide_server exited $?"
  start_server "${port}"
done
round=$((drains + 1))
wait_for_load

kill -TERM "${client_pid}"
status=0
give_up=$((SECONDS + 20))
while [ "${SECONDS}" -lt "${give_up}" ]; do
  kill -0 "${client_pid}" 2>/dev/null || break
  sleep 0.1
done
kill -0 "${client_pid}" 2>/dev/null &&
  fail "the example did not stop within 20 s of SIGTERM"
wait "${client_pid}" || status=$?
client_pid=""
summary=$(grep '^loop: ' "${client_out}" || true)
echo "${drains} drains: ${summary:-no summary}"
[ "${status}" -eq 0 ] || fail "the example exited ${status}"
[ -n "${summary}" ] || fail "the example printed no summary"
reopens=$(sed -n 's/.* \([0-9][0-9]*\) stream reopens.*/\1/p' <<<"${summary}")
[ "${reopens:-0}" -ge 1 ] || fail "no stream was resent: the drains missed it"
exit 0
