#!/usr/bin/env bash
# The command-line convention every collide program and example keeps
# (docs/tools.md), checked against the real programs and a real server:
#   --help exits 0 with text on stdout;
#   --version prints "PROGRAM VERSION" (the CMake project VERSION), exit 0;
#   an unknown flag exits 2; a duration without its unit exits 2 and says
#   which unit is missing;
#   a refusal by the server (unknown level, missing admin token) exits 1;
#   "-" is standard input and output; health SERVICE asks for that service.
# Starts one collide_server on free loopback ports (stopped on exit,
# whatever happened); every wait is bounded, about 60 s in all.
#
# Usage: tool_conventions.sh VERSION SERVER CLI LOAD SAMPLE PYTHON PY_EXAMPLE
#          NODE NODE_EXAMPLE GO_EXAMPLE [FLAGS_ONLY_PROGRAM...]
# FLAGS_ONLY_PROGRAMs (the benchmarks) get the --help, --version and
# unknown-flag checks only. Exits 0 when every check holds, else 1 after
# printing each failed check.
set -uo pipefail

if [ "$#" -lt 10 ]; then
  echo "usage: $0 VERSION SERVER CLI LOAD SAMPLE PYTHON PY_EXAMPLE NODE" \
    "NODE_EXAMPLE GO_EXAMPLE [PROGRAM...]" >&2
  exit 2
fi
version=$1 server=$2 cli=$3 load=$4 sample=$5 python=$6 py_example=$7
node=$8 node_example=$9 go_example=${10}
shift 10
flags_only=("$@")

workdir=$(mktemp -d)
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_exit CODE DESCRIPTION COMMAND...: runs COMMAND (60 s at most) with
# stdout and stderr in ${workdir}/out and ${workdir}/err.
expect_exit() {
  local want=$1 what=$2
  shift 2
  timeout 60 "$@" >"${workdir}/out" 2>"${workdir}/err" </dev/null
  local got=$?
  if [ "${got}" -ne "${want}" ]; then
    fail "${what}: exit ${got}, want ${want}: $*"
    sed 's/^/  stderr: /' "${workdir}/err" | head -5 >&2
    return 1
  fi
}

expect_in() {
  local file=$1 text=$2 what=$3
  grep -qF -- "${text}" "${workdir}/${file}" ||
    fail "${what}: \"${text}\" not in ${file}: $(head -c 300 "${workdir}/${file}")"
}

# --- --help, --version and a bad flag: every C++ program.
check_flags() {
  local name=$1 program=$2
  expect_exit 0 "${name} --help" "${program}" --help &&
    { [ -s "${workdir}/out" ] || fail "${name} --help printed nothing"; }
  expect_exit 0 "${name} --version" "${program}" --version &&
    { [ "$(cat "${workdir}/out")" = "${name} ${version}" ] ||
      fail "${name} --version printed \"$(cat "${workdir}/out")\", want \"${name} ${version}\""; }
  expect_exit 2 "${name} unknown flag" "${program}" --no_such_flag=1 &&
    expect_in err "--no_such_flag" "${name} unknown flag"
}
check_flags collide_server "${server}"
check_flags collide-cli "${cli}"
check_flags collide-load "${load}"
check_flags collide_sample_workload "${sample}"
for program in "${flags_only[@]}"; do
  check_flags "$(basename "${program}")" "${program}"
done
# A duration without its unit names the unit it lacks.
expect_exit 2 "collide-cli --timeout=3" "${cli}" health --timeout=3 &&
  expect_in err "--timeout=3: a duration needs a unit, e.g. 3s" "cli duration"
expect_exit 2 "collide-load --duration=3" "${load}" --duration=3 &&
  expect_in err "--duration=3: a duration needs a unit, e.g. 3s" "load duration"
expect_exit 2 "collide_server --shutdown_grace=3" "${server}" \
  --shutdown_grace=3 &&
  expect_in err "--shutdown_grace=3: a duration needs a unit" "server duration"

# --- The examples: --help 0, a bad flag 2.
examples=(
  "python:${python} ${py_example}"
  "node:${node} ${node_example}"
  "go:${go_example}"
)
for example in "${examples[@]}"; do
  name=${example%%:*}
  read -r -a command <<<"${example#*:}"
  expect_exit 0 "${name} example --help" "${command[@]}" --help
  expect_exit 2 "${name} example unknown flag" "${command[@]}" \
    --no_such_flag=1
done

# --- Against a real server: refusals exit 1, "-" and health SERVICE.
log="${workdir}/server.log"
: >"${log}"
printf 'conventions-token-%s\n' "$$" >"${workdir}/admin_token"
"${server}" --listen=127.0.0.1:0 --admin_listen=127.0.0.1:0 \
  --metrics_listen= --admin_token_file="${workdir}/admin_token" \
  2>"${log}" &
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

port="" admin_port=""
for _ in $(seq 200); do
  port=$(sed -n 's/.*listening on .*(port \([0-9][0-9]*\)).*/\1/p' "${log}")
  admin_port=$(sed -n 's/.*(admin port \([0-9][0-9]*\)).*/\1/p' "${log}")
  [ -n "${port}" ] && [ -n "${admin_port}" ] && break
  kill -0 "${server_pid}" 2>/dev/null || break
  sleep 0.1
done
if [ -z "${port}" ] || [ -z "${admin_port}" ]; then
  echo "collide_server did not start listening:" >&2
  cat "${log}" >&2
  exit 1
fi
address="127.0.0.1:${port}"
admin_address="127.0.0.1:${admin_port}"
expect_exit 0 "health" "${cli}" health --address="${address}" --wait=20s ||
  exit 1

# health SERVICE: a served service is SERVING, an unknown one is refused.
expect_exit 0 "health collide.v1.CollisionService" "${cli}" health \
  collide.v1.CollisionService --address="${address}" &&
  expect_in out "collide.v1.CollisionService: SERVING" "health SERVICE"
expect_exit 1 "health of an unknown service" "${cli}" health \
  no.such.Service --address="${address}" &&
  expect_in err "NOT_FOUND" "health unknown service"
# The same port taken: the server cannot start.
expect_exit 1 "collide_server on a taken port" "${server}" \
  --listen="${address}" --admin_listen=none --metrics_listen=
expect_exit 1 "collide-cli describe of an unknown level" "${cli}" \
  describe nosuch --address="${address}"
expect_exit 1 "collide-load on an unknown level" "${load}" \
  --address="${address}" --level=nosuch --count=1
expect_exit 1 "collide_sample_workload on an unknown level" "${sample}" \
  --address="${address}" --level=levels/nosuch
# Each example without the admin token: its PutLevel is refused.
for example in "${examples[@]}"; do
  name=${example%%:*}
  read -r -a command <<<"${example#*:}"
  expect_exit 1 "${name} example refused" "${command[@]}" \
    --address="${address}" --admin_address="${admin_address}"
done

# list and describe through server reflection (v1), as grpcurl's; the
# admin port describes LevelService only.
expect_exit 0 "list" "${cli}" list --address="${address}" &&
  expect_in out "grpc.reflection.v1.ServerReflection" "list"
expect_exit 0 "describe a service" "${cli}" describe \
  collide.v1.CollisionService --address="${address}" &&
  expect_in out "rpc RunQueries" "describe collide.v1.CollisionService"
expect_exit 1 "describe CollisionService on the admin port" "${cli}" \
  describe collide.v1.CollisionService --address="${admin_address}"

# "-": a batch from standard input, a level to standard output.
cd "${workdir}" || exit 1
printf '{"queries": [{"rayCast": {"origin": {"x": 0, "y": 0}, %s}}]}' \
  '"translation": {"x": 30, "y": 0}' >batch.json
if ! timeout 60 "${cli}" run - --address="${address}" <batch.json \
  >"${workdir}/out" 2>"${workdir}/err"; then
  fail "run - exited non-zero: $(cat "${workdir}/err")"
else
  expect_in out "(level version" "run -"
fi
expect_exit 0 "get -o -" "${cli}" get arena -o - --address="${address}" &&
  expect_in out '"shapes"' "get -o -"
[ -e "${workdir}/-" ] && fail "get -o - wrote a file named \"-\""

if [ "${failures}" -ne 0 ]; then
  echo "${failures} check(s) failed" >&2
  exit 1
fi
echo "every program keeps the convention"
