#!/usr/bin/env bash
# Checks, without Docker, what docker/Dockerfile's runtime stage relies on:
#  1. scripts/install_binaries.sh installs the built programs (as the build
#     stage does) into a temporary prefix;
#  2. every shared library each installed program loads (ldd) belongs to
#     a Debian package (dpkg -S) named by `install_deps.sh --runtime`, the
#     runtime stage's only packages;
#  3. the installed collide_server starts on a loopback port and the
#     installed health tool (collide-cli health)
#     says SERVING, and SIGTERM stops it with exit status 0.
# scripts/test.sh runs it after the Release build; exits non-zero on any
# failure, naming the library, package or step.
#
# Usage: scripts/check_runtime_deps.sh [BUILD_DIR (default: build)]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"

prefix="$(mktemp -d "${TMPDIR:-/tmp}/collide_install.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "${server_pid}" ]; then kill -KILL "${server_pid}" 2>/dev/null || true; fi
  rm -rf "${prefix}"
}
trap cleanup EXIT

bash scripts/install_binaries.sh "${prefix}" "${build_dir}" >/dev/null
mapfile -t runtime_packages < <(bash scripts/install_deps.sh --list --runtime)

# Every library path each program loads, as ldd prints it.
declare -A needed_by  # library path -> the programs that load it
failures=0
programs=("${prefix}"/bin/*)
if [ ! -x "${prefix}/bin/collide_server" ]; then
  echo "check_runtime_deps: collide_server was not installed" >&2
  exit 1
fi
for program in "${programs[@]}"; do
  name="$(basename "${program}")"
  while read -r line; do
    case "${line}" in
      *"not found"*)
        echo "check_runtime_deps: ${name}: ${line}" >&2
        failures=$((failures + 1))
        continue
        ;;
      *"=> /"*) library="$(awk '{print $3}' <<<"${line}")" ;;
      /*) library="$(awk '{print $1}' <<<"${line}")" ;;
      *) continue ;;  # linux-vdso: provided by the kernel
    esac
    needed_by["${library}"]+="${name} "
  done < <(ldd "${program}")
done

# Their owning packages, with one dpkg query. Debian 12 merged /lib into
# /usr/lib, and dpkg knows each file under the path its package shipped, so
# ask for the printed path, its /usr twin, and the link's target.
candidates_of() {
  printf '%s\n' "$1" "/usr$1" "${1#/usr}" "$(readlink -f "$1")"
}
declare -A owner  # path -> package
while IFS= read -r line; do
  # "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6"
  package="${line%%: *}"
  owner["${line#*: }"]="${package%%:*}"
done < <(for library in "${!needed_by[@]}"; do candidates_of "${library}"; done |
  sort -u | xargs dpkg -S 2>/dev/null || true)

for library in "${!needed_by[@]}"; do
  package=""
  while IFS= read -r candidate; do
    if [ -n "${owner[${candidate}]:-}" ]; then
      package="${owner[${candidate}]}"
      break
    fi
  done < <(candidates_of "${library}")
  if [ -z "${package}" ]; then
    echo "check_runtime_deps: ${library} (loaded by ${needed_by[${library}]% })" \
      "belongs to no Debian package" >&2
    failures=$((failures + 1))
    continue
  fi
  listed=0
  for runtime_package in "${runtime_packages[@]}"; do
    if [ "${package}" = "${runtime_package}" ]; then listed=1; fi
  done
  if [ "${listed}" -eq 0 ]; then
    echo "check_runtime_deps: ${library} (loaded by" \
      "${needed_by[${library}]% }) is in ${package}, which" \
      "install_deps.sh --runtime does not install" >&2
    failures=$((failures + 1))
  fi
done
if [ "${failures}" -ne 0 ]; then
  exit 1
fi
echo "check_runtime_deps: ${#programs[@]} installed program(s) load" \
  "${#needed_by[@]} libraries, all from: ${runtime_packages[*]}"

# The installed server, as the image starts it: a level directory, any free
# loopback port (read back from its "listening ... (port N)" log line).
mkdir "${prefix}/levels"
log="${prefix}/server.log"
# The admin listener on a free port too, not the default 50052 that a
# server already running here may hold.
"${prefix}/bin/collide_server" --listen=127.0.0.1:0 \
  --admin_listen=127.0.0.1:0 \
  --level_dir="${prefix}/levels" --shutdown_grace=5s 2>"${log}" &
server_pid=$!
port=""
for _ in $(seq 1 300); do  # at most 30 s
  port="$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "${log}" | head -n 1)"
  if [ -n "${port}" ] || ! kill -0 "${server_pid}" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "${port}" ]; then
  echo "check_runtime_deps: the installed collide_server did not start:" >&2
  cat "${log}" >&2
  exit 1
fi
health=("${prefix}/bin/collide-cli" health "--address=127.0.0.1:${port}"
  --wait=30s)
if ! "${health[@]}"; then
  echo "check_runtime_deps: $(basename "${health[0]}") did not see SERVING" >&2
  cat "${log}" >&2
  exit 1
fi
kill -TERM "${server_pid}"
status=0
wait "${server_pid}" || status=$?
server_pid=""
if [ "${status}" -ne 0 ]; then
  echo "check_runtime_deps: collide_server exited ${status} on SIGTERM" >&2
  cat "${log}" >&2
  exit 1
fi
echo "check_runtime_deps: the installed collide_server served health and" \
  "stopped cleanly"
