#!/usr/bin/env bash
# Makes a throw-away certificate authority and certificates it signs, with
# Debian's openssl, for the TLS tests: DIR/ca.pem (and ca.key), a server
# certificate DIR/server.pem + server.key valid for localhost and 127.0.0.1,
# and for each CLIENT name given a client certificate DIR/CLIENT.pem +
# CLIENT.key whose common name is CLIENT. P-256 keys (fast to make), one day
# of validity.
#
# Usage: make_test_certs.sh DIR [CLIENT...]
set -euo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: $0 DIR [CLIENT...]" >&2
  exit 2
fi
dir=$1
shift
mkdir -p "${dir}"
cd "${dir}"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

key ca.key
# A distinct CA name per run, so certificates of two CAs made in one test
# never look alike.
openssl req -x509 -new -key ca.key -out ca.pem -days 1 \
  -subj "/CN=collide test CA $(basename "${dir}") $$"

# issue NAME EXTENSIONS: NAME.key and NAME.pem, signed by ca.
issue() {
  key "$1.key"
  openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$1"
  printf '%s\n' "$2" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial \
    -out "$1.pem" -days 1 -extfile "$1.ext" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

issue server "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth"
for client in "$@"; do
  issue "${client}" "extendedKeyUsage=clientAuth"
done
