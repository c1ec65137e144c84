#!/usr/bin/env bash
# CI's image check: builds docker/Dockerfile's runtime stage from the
# Release build BUILD_DIR (scripts/build_image.sh --from-build, with
# buildah where no Docker daemon runs, on a debootstrap base when none is
# stored), then runs the image as its configuration says and checks:
#  1. its config: user 10001:10001, HEALTHCHECK present (docker format),
#     STOPSIGNAL SIGTERM; its size printed;
#  2. no certificate of this host's /usr/local/share/ca-certificates (the
#     extra CAs a TLS-intercepting network needs) in the image's
#     /usr/local/share/ca-certificates or /etc/ssl/certs;
#  3. its ENTRYPOINT and CMD started with `buildah run` (host network, the
#     image's user, environment and volume; chroot isolation, which needs
#     no cgroups or OCI runtime) on a free loopback port: the server runs
#     as uid 10001, health says SERVING from this host's collide-cli and
#     from the image's own HEALTHCHECK command run inside it, the sample
#     workload (BUILD_DIR's collide_sample_workload) is answered, /metrics
#     is scraped and counts its calls, and SIGTERM stops it with exit 0.
# Prints the time each phase took. Exits non-zero, naming the step, if any
# fails. Needs root (buildah); reruns itself with sudo otherwise.
#
# Usage: scripts/check_image.sh [BUILD_DIR (default: build)]
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  exec sudo bash "$(realpath "$0")" "$@"
fi
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
tag="localhost/collide:check"

fail() {
  echo "check_image: $*" >&2
  exit 1
}

for program in collide-cli collide_sample_workload; do
  if [ ! -x "${build_dir}/client/${program}" ]; then
    fail "${build_dir}/client/${program} is not built"
  fi
done

start="${SECONDS}"
bash scripts/build_image.sh --engine buildah --from-build "${build_dir}" \
  --tag "${tag}"
build_seconds=$((SECONDS - start))
start="${SECONDS}"

# --- 1. the image's configuration (docker format: HEALTHCHECK kept).
config="$(buildah inspect --type image "${tag}" | python3 -c '
import json, shlex, sys
config = json.load(sys.stdin)["Docker"]["config"]
health = (config.get("Healthcheck") or {}).get("Test") or []
print("user=" + shlex.quote(config.get("User") or ""))
print("stop_signal=" + shlex.quote(config.get("StopSignal") or ""))
print("entrypoint=(" + " ".join(map(shlex.quote, config.get("Entrypoint") or [])) + ")")
print("health=(" + " ".join(map(shlex.quote, health)) + ")")
')"
user="" stop_signal="" entrypoint=() health=()
eval "${config}"
if [ "${user}" != "10001:10001" ]; then
  fail "the image's user is '${user}', not 10001:10001"
fi
if [ "${#health[@]}" -ne 2 ] || [ "${health[0]}" != CMD-SHELL ]; then
  fail "the image has no HEALTHCHECK command (built in OCI format?):" \
    "'${health[*]}'"
fi
if [ "${stop_signal}" != SIGTERM ]; then
  fail "the image's STOPSIGNAL is '${stop_signal}', not SIGTERM"
fi
if [ "${#entrypoint[@]}" -eq 0 ]; then fail "the image has no ENTRYPOINT"; fi
size="$(podman image inspect --format '{{.Size}}' "${tag}")"
echo "check_image: ${tag}: ${size} bytes ($((size / 1000000)) MB), user" \
  "${user}, HEALTHCHECK '${health[1]}', STOPSIGNAL ${stop_signal}"

container="$(buildah from --quiet --pull=never "${tag}")"
run_pid=""
server_pid=""
cleanup() {
  if [ -n "${server_pid}" ]; then kill -KILL "${server_pid}" 2>/dev/null || true; fi
  if [ -n "${run_pid}" ]; then wait "${run_pid}" 2>/dev/null || true; fi
  buildah umount "${container}" >/dev/null 2>&1 || true
  buildah rm "${container}" >/dev/null 2>&1 || true
  rm -f "${log:-}"
}
trap cleanup EXIT

# --- 2. no extra CA of this host in the runtime image.
root="$(buildah mount "${container}")"
extra_cas=0
for ca in /usr/local/share/ca-certificates/*.crt; do
  [ -f "${ca}" ] || continue
  extra_cas=$((extra_cas + 1))
  # The certificate's first line of base64 identifies it in any bundle.
  body="$(grep -v -- '-----' "${ca}" | head -n 1)"
  [ -n "${body}" ] || continue
  for dir in usr/local/share/ca-certificates etc/ssl/certs; do
    if [ -d "${root}/${dir}" ] &&
        grep -rqF -- "${body}" "${root}/${dir}"; then
      fail "the runtime image's /${dir} holds ${ca}"
    fi
  done
done
echo "check_image: none of this host's ${extra_cas} extra CA certificate(s)" \
  "in the image's /usr/local/share/ca-certificates or /etc/ssl/certs"
buildah umount "${container}" >/dev/null

# --- 3. run it: ENTRYPOINT with CMD's level directory, ports free here.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port="$(free_port)"
metrics_port="$(free_port)"
while [ "${metrics_port}" = "${port}" ]; do metrics_port="$(free_port)"; done
args=(--level_dir=/var/lib/collide/levels
  "--metrics_listen=127.0.0.1:${metrics_port}" --admin_listen=none)
log="$(mktemp "${TMPDIR:-/tmp}/collide_image_check.XXXXXX")"
buildah run --isolation chroot --env "COLLIDE_PORT=${port}" "${container}" \
  -- "${entrypoint[@]}" "${args[@]}" >"${log}" 2>&1 &
run_pid=$!
# The server's process (chroot isolation shares this PID namespace).
for _ in $(seq 1 300); do  # at most 30 s
  server_pid="$(pgrep -f -x "collide_server --listen=0.0.0.0:${port} ${args[*]}" |
    head -n 1 || true)"
  if [ -n "${server_pid}" ] || ! kill -0 "${run_pid}" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "${server_pid}" ]; then
  cat "${log}" >&2
  fail "collide_server did not start in the image"
fi
# The entrypoint's shell must exec the server, so the stop signal reaches
# it: its parent is buildah's, not a shell.
parent="$(ps -o comm= -p "$(ps -o ppid= -p "${server_pid}" | tr -d ' ')")"
case "${parent}" in
  sh | dash | bash) fail "the ENTRYPOINT's ${parent} does not exec collide_server" ;;
esac
server_uid="$(awk '$1 == "Uid:" { print $2 }' "/proc/${server_pid}/status")"
if [ "${server_uid}" != 10001 ]; then
  fail "collide_server runs as uid ${server_uid}, not 10001"
fi
if ! "${build_dir}/client/collide-cli" health --address="127.0.0.1:${port}" \
    --wait=30s; then
  cat "${log}" >&2
  fail "health did not say SERVING"
fi
if ! timeout 30 buildah run --isolation chroot --env "COLLIDE_PORT=${port}" \
    "${container}" -- /bin/sh -c "${health[1]}"; then
  fail "the image's HEALTHCHECK command failed"
fi
workload="$(timeout 60 "${build_dir}/client/collide_sample_workload" \
  --address="127.0.0.1:${port}")" || fail "the sample workload failed"
echo "check_image: the sample workload: $(wc -l <<<"${workload}") line(s)"
metrics="$(curl -fsS --max-time 10 "http://127.0.0.1:${metrics_port}/metrics")" ||
  fail "GET /metrics failed"
# Every known method is listed from the start, at 0: look for a count.
if ! grep -Eq '^grpc_server_handled_total\{[^}]*grpc_service="collide.v1.CollisionService"[^}]*\} [1-9]' \
    <<<"${metrics}"; then
  fail "/metrics counts no CollisionService call"
fi
echo "check_image: /metrics: $(grep -c '^# TYPE' <<<"${metrics}") families"
kill -TERM "${server_pid}"
for _ in $(seq 1 300); do  # at most 30 s; the drain takes --shutdown_grace
  if ! kill -0 "${run_pid}" 2>/dev/null; then break; fi
  sleep 0.1
done
status=0
if kill -0 "${run_pid}" 2>/dev/null; then
  status=timeout
else
  wait "${run_pid}" || status=$?
fi
if [ "${status}" != timeout ]; then
  run_pid=""
  server_pid=""
fi
if [ "${status}" != 0 ]; then
  cat "${log}" >&2
  fail "collide_server in the image ended with '${status}' after SIGTERM"
fi
echo "check_image: uid 10001, health SERVING (collide-cli and HEALTHCHECK)," \
  "sample workload answered, /metrics scraped, SIGTERM -> exit 0"
echo "check_image: build (base included) ${build_seconds} s, checks" \
  "$((SECONDS - start)) s"
