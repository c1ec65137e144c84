#!/usr/bin/env bash
# Instructions per call of each collide TOI pair, counted by callgrind, for
# one or more builds side by side.
#
# Wall-clock A/B on a shared or frequency-scaling host mixes the machine's
# state into the figure (scripts/bench_layouts.sh handles code layout, not
# load). An instruction count is the same on every run: it shows what a
# change adds to a pair's path even while other work runs, though not what
# the instructions cost (cache misses, branch mispredictions, dependency
# chains). Use it to find and size a regression; confirm its time with
# scripts/bench_layouts.sh on an idle machine.
#
# Each pair runs exactly N calls (--toi_iterations; N = one pass over its
# cases) with callgrind collecting only inside the timed loop, so the count
# per call excludes the set-up. Needs valgrind (scripts/install_deps.sh
# installs it).
#
# usage: scripts/bench_instructions.sh [--filter=REGEX] BUILD_DIR...
#   e.g. scripts/bench_instructions.sh --filter=Circle /tmp/old/build build
set -euo pipefail

filter='/collide$'
builds=()
for arg in "$@"; do
  case "$arg" in
    --filter=*) filter=${arg#--filter=} ;;
    -*) echo "unknown flag $arg" >&2; exit 2 ;;
    *) builds+=("$(cd "$arg" && pwd)") ;;
  esac
done
if [ ${#builds[@]} -lt 1 ]; then
  echo "usage: $0 [--filter=REGEX] BUILD_DIR..." >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 2; }

calls=4096  # the cases per pair (kCaseCount in bench/toi_cases.h)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

first="${builds[0]}/bench/collide_toi_bench"
mapfile -t names < <("$first" --benchmark_list_tests \
  --benchmark_filter="$filter" | grep '/collide$')
if [ ${#names[@]} -eq 0 ]; then
  echo "no collide benchmark matches $filter" >&2
  exit 2
fi

printf '%-40s' "instructions per call"
for b in "${builds[@]}"; do printf ' %12s' "$(basename "$(dirname "$b")")"; done
[ ${#builds[@]} -gt 1 ] && printf ' %8s' "change"
printf '\n'
for name in "${names[@]}"; do
  printf '%-40s' "$name"
  base=""
  for b in "${builds[@]}"; do
    valgrind --tool=callgrind --callgrind-out-file="$work/out" \
      --toggle-collect='*TimeCases*' "$b/bench/collide_toi_bench" \
      --toi_iterations=$calls --benchmark_filter="^${name}/" \
      >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    total=$(callgrind_annotate "$work/out" | awk '/PROGRAM TOTALS/ {
      gsub(",", "", $1); print $1; exit }')
    per=$(awk -v t="$total" -v n=$calls 'BEGIN { printf "%.1f", t / n }')
    printf ' %12s' "$per"
    [ -z "$base" ] && base=$per
  done
  if [ ${#builds[@]} -gt 1 ]; then
    awk -v a="$base" -v b="$per" 'BEGIN { printf " %+7.1f%%", 100 * (b - a) / a }'
  fi
  printf '\n'
done
