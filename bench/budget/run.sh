#!/usr/bin/env bash
# Runs collide_budget_bench's cases against a collide_server it starts
# (cases 1 and 2 of docs/operations.md's bound section):
#   bench/budget/run.sh BUILD_DIR [SERVER_BINARY] [-- extra server flags]
# SERVER_BINARY defaults to BUILD_DIR/server/collide_server. CASES=1 or
# CASES=2 runs one case only. PIN=1 runs the server on CPU 0 and the
# clients on CPU 1 (taskset), so that the clients do not take the server's
# core; PIN=SERVER_CPUS:CLIENT_CPUS picks others (taskset -c lists).
# Case 2 takes PHASE (each phase's length, default 10s) and HEAVY_NICE (a
# nice increment for the heavy client, so that on a small machine it takes
# less of the small client's core).
set -euo pipefail
build=${1:?build directory}
shift
server=${build}/server/collide_server
if [[ $# -gt 0 && $1 != -- ]]; then server=$1; shift; fi
[[ ${1:-} == -- ]] && shift
bench=${build}/bench/budget/collide_budget_bench
server_cpus= client_cpus=
case ${PIN:-} in
  '' | 0) ;;
  1) server_cpus=0 client_cpus=1 ;;
  *:*) server_cpus=${PIN%%:*} client_cpus=${PIN#*:} ;;
  *) echo "PIN must be 1 or SERVER_CPUS:CLIENT_CPUS, got $PIN" >&2; exit 2 ;;
esac
server_cmd=("$server") bench_cmd=("$bench")
if [[ -n $server_cpus ]]; then
  server_cmd=(taskset -c "$server_cpus" "$server")
  bench_cmd=(taskset -c "$client_cpus" "$bench")
fi
work=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

# 300 vertical walls x = 0..299, y in [-1000, 1000]: a ray along +x
# through them hits every one.
python3 - "$work/walls.json" <<'PY'
import json, sys
shapes = [{"id": str(i + 1), "segment": {"p1": {"x": i, "y": -1000},
           "p2": {"x": i, "y": 1000}}} for i in range(300)]
json.dump({"id": "walls", "shapes": shapes}, open(sys.argv[1], "w"))
PY

start_server() {
  "${server_cmd[@]}" --listen=127.0.0.1:0 --admin_listen=none \
    --metrics_listen=127.0.0.1:0 \
    --level_files="$work/walls.json" "$@" >"$work/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    port=$(grep -o '(port [0-9]*' "$work/server.log" | head -1 | cut -d' ' -f2 || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { cat "$work/server.log"; exit 1; }
  mport=$(grep -o 'metrics port [0-9]*' "$work/server.log" | head -1 | cut -d' ' -f3)
}
# The limits the server counted hitting (none before they existed).
limits_hit() {
  curl -s "127.0.0.1:$mport/metrics" |
    grep -E '^collide_(calls_refused|read_pauses|batches_cut)_total' | tr '\n' ' ' || true
  echo
}
# A server that died (the kernel's OOM killer, say) is reported, not fatal.
stop_server() {
  kill "$pid" 2>/dev/null || echo "(the server had exited: $(tail -1 "$work/server.log"))"
  wait "$pid" || true
  pid=
}

echo "== server: $server $*${server_cpus:+ (server on CPUs $server_cpus, clients on CPUs $client_cpus)}"
if [[ ${CASES:-12} == *1* ]]; then
echo "== case 1a: 4 streams on one connection, 8 batches of 1024 CAST_MODE_ALL rays each, never read"
start_server "$@"
"${bench_cmd[@]}" --mode=hold --address=127.0.0.1:$port --server_pid=$pid \
  --streams=4 --connections=1 --batches=8 --batch=1024 --all_hits --rounds=2 || echo "(bench exited $?)"
limits_hit
stop_server
echo "== case 1b: 2000 streams of one 16-query batch, never read"
for conns in 1 20; do
  start_server "$@"
  "${bench_cmd[@]}" --mode=hold --address=127.0.0.1:$port --server_pid=$pid \
    --streams=2000 --connections=$conns --batches=1 --batch=16 --all_hits \
    --rounds=2 || echo "(bench exited $?)"
  limits_hit
  stop_server
done
echo "== case 1c: 64 streams on 4 connections, 4 batches of 1024 CAST_MODE_ALL rays each at once, never read"
start_server "$@"
"${bench_cmd[@]}" --mode=hold --address=127.0.0.1:$port --server_pid=$pid \
  --streams=64 --connections=4 --batches=4 --batch=1024 --all_hits \
  --rounds=2 || echo "(bench exited $?)"
limits_hit
stop_server
fi
[[ ${CASES:-12} == *2* ]] || exit 0
echo "== case 2: 8 streams of 4096-query batches beside 1 query every 5 ms${HEAVY_NICE:+ (heavy client nice +$HEAVY_NICE)}"
start_server "$@"
"${bench_cmd[@]}" --mode=fair --address=127.0.0.1:$port --phase="${PHASE:-10s}" \
  --heavy_nice="${HEAVY_NICE:-0}"
stop_server
grep -E 'max_|reached' "$work/server.log" | head -5 || true
