#!/usr/bin/env bash
# Installs the Debian 12 packages collide needs. The README's commands, CI
# and both stages of docker/Dockerfile run this one script, so a fresh
# machine gets exactly what the image gets.
#
# Usage: scripts/install_deps.sh            build, test and benchmark
#        scripts/install_deps.sh --runtime  only the shared libraries the
#                                           installed programs load (the
#                                           image's runtime stage)
#        scripts/install_deps.sh --image    the image builder without a
#                                           Docker daemon: buildah, podman
#                                           and debootstrap
#                                           (scripts/build_image.sh, and
#                                           CI's scripts/check_image.sh)
#        scripts/install_deps.sh --list [--runtime|--image]
#                                           print the packages, one a line,
#                                           and install nothing
# scripts/check_runtime_deps.sh (run by scripts/test.sh) checks that every
# library the installed programs load belongs to a --runtime package.
set -euo pipefail

build_packages=(
  # toolchain
  g++ cmake make pkg-config ca-certificates
  # the fuzz targets (scripts/fuzz.sh): clang and its libFuzzer runtime
  clang-14 libclang-rt-14-dev
  # lib/ and tests
  libabsl-dev libgtest-dev libgmock-dev libgmp-dev libmpfr-dev
  # tests of the SVG renderer parse its output (test-only)
  libtinyxml2-dev
  # the gRPC service and its clients
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  # the callers in other languages (client/examples/) and the Node package
  # (client/node); their own npm packages come from npm (scripts/test.sh
  # runs npm ci)
  python3-grpcio python3-protobuf nodejs npm
  # the Python package (client/python), installed offline into a venv
  python3-venv python3-setuptools python3-wheel
  # the Go example, built offline from Debian's Go sources; gRPC 1.33
  # marshals through github.com/golang/protobuf, which must be 1.5 (1.3
  # crashes on today's generated code)
  golang-go protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev
  golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev
  # TLS tests make their certificates at test time (test-only)
  openssl
  # Tiled map import and JSON log lines (header-only JSON library)
  nlohmann-json3-dev
  # the server's Prometheus endpoint (/metrics), and the tests scraping it
  libcivetweb-dev curl
  # the shared level store (--level_store=redis://...): the hiredis client,
  # and a real redis-server (with redis-cli) that its tests start
  libhiredis-dev redis-server
  # crc32 of binary level files (zlib1g at run time, already loaded by gRPC)
  zlib1g-dev
  # SHA-256 of level content hashes (libssl3's libcrypto at run time,
  # already loaded by gRPC)
  libssl-dev
  # benchmarks and their reference libraries (never linked by lib/)
  libbenchmark-dev libbox2d-dev libchipmunk-dev
  # instruction counts per call (scripts/bench_instructions.sh)
  valgrind
  # the deployment checks: the Kubernetes manifests rendered by kubectl
  # kustomize, yamllint over docker/, shellcheck over scripts/ (test-only)
  kubernetes-client yamllint shellcheck python3-yaml
  # promtool (check metrics on a real scrape, check rules on the
  # PrometheusRule; test-only). Debian ships it only in the server's
  # package, which on a systemd machine also starts a Prometheus on :9090
  # (stopped and disabled below when this script installed it)
  prometheus
)

# What collide_server and the client tools load at run time (ldd), by
# owning package. The -dev packages above depend on all of them.
runtime_packages=(
  libgrpc++1.51 libgrpc29 libprotobuf32 libabsl20220623
  libre2-9 libssl3 libc-ares2 zlib1g libcivetweb1 libhiredis0.14
  libstdc++6 libgcc-s1 libc6
)

# scripts/build_image.sh builds the image with these where no Docker
# daemon runs: buildah (docker-format images, chroot isolation), a base
# made with debootstrap, and podman's image inspection. Not in the list
# above, so neither the image's build stage nor a plain test run
# installs them.
image_packages=(buildah podman debootstrap)

list_only=0
packages=("${build_packages[@]}")
for arg in "$@"; do
  case "$arg" in
    --runtime) packages=("${runtime_packages[@]}") ;;
    --image) packages=("${image_packages[@]}") ;;
    --list) list_only=1 ;;
    *)
      echo "usage: $0 [--runtime|--image] [--list]" >&2
      exit 2
      ;;
  esac
done
if [ "$list_only" -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  # A Node.js from elsewhere (NodeSource, nvm) brings its own npm and
  # conflicts with Debian's npm package: use it as it is.
  if [[ "${package}" == nodejs || "${package}" == npm ]] &&
      command -v node >/dev/null && command -v npm >/dev/null; then
    continue
  fi
  # Likewise a kubectl from elsewhere (Google's kubectl package, a
  # download) conflicts with kubernetes-client over /usr/bin/kubectl; any
  # kubectl with kustomize (1.14 and later) renders the manifests.
  if [[ "${package}" == kubernetes-client ]] && command -v kubectl >/dev/null; then
    continue
  fi
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "installing: ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y \
  --no-install-recommends "${missing[@]}"

# Installed only for promtool: a Prometheus server the package started
# here (systemd) would hold :9090 and scrape for nothing, so it is stopped
# and not started at boot. One that was installed before is left alone.
if [[ " ${missing[*]} " == *" prometheus "* ]] &&
  command -v systemctl >/dev/null &&
  systemctl is-enabled --quiet prometheus 2>/dev/null; then
  "${sudo[@]}" systemctl disable --now prometheus || true
fi
