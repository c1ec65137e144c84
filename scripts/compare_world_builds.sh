#!/usr/bin/env bash
# Compares the world queries of two builds: for each of the nine cells
# (scenes S1 S2 S3 x query sets R20 R300 C20, docs/performance.md) runs
# collide_world_profile of the old and the new build alternately, ROUNDS
# times, and prints per cell the median over rounds of each run's fastest
# pass, the change, and whether every answer's checksum is the same.
#
# A changed checksum means the two builds answer some query differently:
# the script then exits 1. On a shared 2-core machine, run it while nothing
# else builds; a change within a few percent either way is noise.
#
# usage: scripts/compare_world_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]
#   e.g. scripts/compare_world_builds.sh /tmp/old/build build 5
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]" >&2
  exit 2
fi
old=$1/bench/world/collide_world_profile
new=$2/bench/world/collide_world_profile
rounds=${3:-5}
for binary in "$old" "$new"; do
  [ -x "$binary" ] || { echo "missing $binary (build collide_world_profile)" >&2; exit 2; }
done

# One run's fastest pass (ns per query) and checksum: the profile prints
# "S1 R20 collide: 100000 queries: 1070 ns (1069-1104), 19748 hits,
# checksum b937e5ff25c3028f".
run() {
  "$1" --scene="$2" --set="$3" --library=collide --passes=3 |
    sed -n 's/.*(\([0-9.]*\)-[0-9.]*).*checksum \([0-9a-f]*\).*/\1 \2/p'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

status=0
printf '%-8s %10s %10s %8s  %s\n' cell old_ns new_ns change answers
for scene in S1 S2 S3; do
  for set in R20 R300 C20; do
    old_times=() new_times=() old_sum="" new_sum=""
    for ((r = 0; r < rounds; r++)); do
      read -r t old_sum < <(run "$old" "$scene" "$set")
      old_times+=("$t")
      read -r t new_sum < <(run "$new" "$scene" "$set")
      new_times+=("$t")
    done
    o=$(printf '%s\n' "${old_times[@]}" | median)
    n=$(printf '%s\n' "${new_times[@]}" | median)
    same=same
    if [ "$old_sum" != "$new_sum" ]; then
      same="DIFFER ($old_sum vs $new_sum)"
      status=1
    fi
    printf '%-8s %10s %10s %+7.1f%%  %s\n' "$scene $set" "$o" "$n" \
      "$(awk -v o="$o" -v n="$n" 'BEGIN { print (n - o) * 100 / o }')" "$same"
  done
done
exit $status
