#!/usr/bin/env bash
# Builds the collide image (docker/Dockerfile) with Docker where a Docker
# daemon answers, else with buildah (Debian's package, no daemon; run as
# root). buildah builds in docker format (OCI image configs have no
# HEALTHCHECK, so buildah drops it otherwise) with chroot isolation (RUN
# steps share the host's network; no user namespaces needed).
#
# The Dockerfile's base (its FROM, debian:bookworm-slim) is used when it
# is in local storage; when it is not, buildah gets one made with
# debootstrap (minbase, from the Debian mirror this host's apt uses, or
# --mirror) and tagged as that name, so no registry is needed, only the
# Debian archive. Docker pulls its base itself.
#
# Usage: scripts/build_image.sh [options]
#   --tag NAME         the image's name (default collide:dev)
#   --ca-file FILE     an extra CA certificate (PEM) that the build stage
#                      trusts, for a network that intercepts TLS (npm ci
#                      fetches from the npm registry); repeatable. Passed
#                      as a build secret: mounted for that one RUN, so it is
#                      in no layer of either stage, and the runtime image
#                      trusts only what its own packages bring.
#   --from-build DIR   only the runtime stage, with the programs of the
#                      existing Release build DIR (installed with
#                      scripts/install_binaries.sh): no compile, no tests;
#                      CI's image check builds it this way.
#   --mirror URL       the Debian mirror for a base made with debootstrap
#   --engine docker|buildah   skip the detection
# Prints the time the base and the build took and the image's size; exits
# non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# usage STATUS: the Usage block above, on stdout for --help (0), else on
# stderr (2, a bad command line).
usage() {
  if [ "$1" -eq 0 ]; then
    sed -n 's/^# \{0,1\}//; /^Usage:/,/^Prints/p' "$0" | sed '$d'
  else
    sed -n 's/^# \{0,1\}//; /^Usage:/,/^Prints/p' "$0" | sed '$d' >&2
  fi
  exit "$1"
}

tag="collide:dev"
ca_files=()
from_build=""
mirror=""
engine=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --tag | --ca-file | --from-build | --mirror | --engine)
      if [ "$#" -lt 2 ]; then usage 2; fi
      case "$1" in
        --tag) tag="$2" ;;
        --ca-file) ca_files+=("$2") ;;
        --from-build) from_build="$2" ;;
        --mirror) mirror="$2" ;;
        --engine) engine="$2" ;;
      esac
      shift 2
      ;;
    -h | --help) usage 0 ;;
    *)
      echo "build_image: unknown argument '$1'" >&2
      usage 2
      ;;
  esac
done

if [ -z "${engine}" ]; then
  # A docker client without a daemon (common on CI machines) is no engine.
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    engine=docker
  else
    engine=buildah
  fi
fi
case "${engine}" in
  docker | buildah) ;;
  *)
    echo "build_image: --engine must be docker or buildah, not '${engine}'" >&2
    exit 2
    ;;
esac
if [ "${engine}" = buildah ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "build_image: buildah builds need root here: sudo bash $0 ..." >&2
    exit 1
  fi
  bash scripts/install_deps.sh --image
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/collide_image.XXXXXX")"
base_container=""
cleanup() {
  if [ -n "${base_container}" ]; then
    buildah rm "${base_container}" >/dev/null 2>&1 || true
  fi
  rm -rf "${work}"
}
trap cleanup EXIT

# --- the build secret: every --ca-file in one PEM bundle.
build_args=()
if [ "${#ca_files[@]}" -gt 0 ]; then
  for file in "${ca_files[@]}"; do
    if ! grep -q -- '-----BEGIN CERTIFICATE-----' "${file}"; then
      echo "build_image: ${file} holds no PEM certificate" >&2
      exit 1
    fi
    # A newline between files: a PEM file may lack a final one.
    { cat "${file}" && echo; } >>"${work}/extra_ca.pem"
  done
  build_args+=(--secret "id=extra_ca,src=${work}/extra_ca.pem")
fi

# --- the context: the repository, or for --from-build only what the
# runtime stage reads (install_deps.sh and the installed programs).
context="."
if [ -n "${from_build}" ]; then
  build_type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' \
    "${from_build}/CMakeCache.txt" 2>/dev/null || true)"
  if [ "${build_type}" != Release ]; then
    echo "build_image: ${from_build} is not a Release build" \
      "(CMAKE_BUILD_TYPE '${build_type}')" >&2
    exit 1
  fi
  context="${work}/context"
  mkdir -p "${context}/scripts"
  cp scripts/install_deps.sh "${context}/scripts/"
  bash scripts/install_binaries.sh "${context}/prebuilt" "${from_build}" >/dev/null
  build_args+=(--target runtime-prebuilt)
fi

# The first FROM names the base both stages start from.
base="$(awk '$1 == "FROM" { print $2; exit }' docker/Dockerfile)"
case "${base}" in
  */*) qualified_base="${base}" ;;
  *) qualified_base="docker.io/library/${base}" ;;
esac

# The Debian mirror this host's apt uses (one-line or deb822 sources), the
# first that is not a security or updates archive.
host_mirror() {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }
         $1 == "URIs:" { print $2 }' |
    grep -E '/debian/?$' | head -n 1
}

# Makes the base with debootstrap straight into a buildah container, then
# trims it as Debian's slim images are trimmed: no documentation, manual
# pages or translations, now or in what later stages install.
make_base() {
  local suite="${base#*:}"
  suite="${suite%%-*}"  # bookworm-slim -> bookworm
  if [ -z "${mirror}" ]; then
    mirror="$(host_mirror || true)"
    mirror="${mirror:-http://deb.debian.org/debian}"
  fi
  mirror="${mirror%/}"
  local security="${mirror%/debian}/debian-security"
  echo "build_image: ${base} is not in local storage; making it with" \
    "debootstrap (${suite}, minbase, ${mirror})"
  local start="${SECONDS}" root
  base_container="$(buildah from --name "collide-base-$$" scratch)"
  root="$(buildah mount "${base_container}")"
  if ! debootstrap --variant=minbase "${suite}" "${root}" "${mirror}" \
    >"${work}/debootstrap.log" 2>&1; then
    tail -n 30 "${work}/debootstrap.log" >&2
    echo "build_image: debootstrap failed (full log above, last lines)" >&2
    exit 1
  fi
  cat >"${root}/etc/apt/sources.list" <<EOF
deb ${mirror} ${suite} main
deb ${mirror} ${suite}-updates main
deb ${security} ${suite}-security main
EOF
  cat >"${root}/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  cat >"${root}/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
EOF
  find "${root}/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  find "${root}/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
  rm -rf "${root}/usr/share/man/"* "${root}/usr/share/info/"* \
    "${root}/var/cache/apt/"*.bin "${root}/var/cache/apt/archives/"*.deb \
    "${root}/var/lib/apt/lists/"* "${root}/var/log/"*.log
  find "${root}/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias \
    -exec rm -rf {} +
  buildah umount "${base_container}" >/dev/null
  buildah config --cmd bash --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${base_container}"
  buildah commit --quiet --rm "${base_container}" "${qualified_base}" >/dev/null
  base_container=""
  echo "build_image: base ${qualified_base} made in $((SECONDS - start)) s"
}

start="${SECONDS}"
if [ "${engine}" = docker ]; then
  # BuildKit: secret mounts, and stages the target does not need skipped.
  DOCKER_BUILDKIT=1 docker build -f docker/Dockerfile -t "${tag}" \
    "${build_args[@]}" "${context}"
  size="$(docker image inspect --format '{{.Size}}' "${tag}")"
else
  if ! buildah inspect --type image "${qualified_base}" >/dev/null 2>&1; then
    make_base
    start="${SECONDS}"
  fi
  buildah bud --format docker --isolation chroot --layers \
    -f docker/Dockerfile -t "${tag}" "${build_args[@]}" "${context}"
  # buildah prints sizes rounded; podman (same storage) prints bytes.
  size="$(podman image inspect --format '{{.Size}}' "${tag}")"
fi
echo "build_image: ${tag} built with ${engine} in $((SECONDS - start)) s;" \
  "size ${size} bytes ($((size / 1000000)) MB)"
