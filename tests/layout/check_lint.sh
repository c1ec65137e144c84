#!/usr/bin/env bash
# yamllint (strict: warnings count) over the YAML of docker/ (the compose
# file and the Kubernetes manifests), and shellcheck over scripts/ (every
# finding) and the tests' shell drivers (warnings and errors; their
# trap-called functions read as unreachable to shellcheck's info level).
# Usage: check_lint.sh REPOSITORY_ROOT. Exits 0 when both are clean.
set -euo pipefail
root=$1
for tool in yamllint shellcheck; do
  if ! command -v "${tool}" >/dev/null; then
    echo "${tool} not found: install it (bash scripts/install_deps.sh)" >&2
    exit 1
  fi
done
cd "${root}"
status=0
yamllint --strict docker || status=1
shellcheck scripts/*.sh || status=1
mapfile -t test_scripts < <(find tests -name '*.sh' | sort)
shellcheck --severity=warning "${test_scripts[@]}" || status=1
[ "${status}" -eq 0 ] && echo "yamllint and shellcheck: clean"
exit "${status}"
