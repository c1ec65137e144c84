#!/usr/bin/env bash
# Compares collide_toi_bench across builds over several code layouts.
#
# On some hosts (an AMD EPYC here) a pair's time moves by up to 40% with
# where its code lands, so one binary per build compares layouts as much
# as code. This relinks each build's benchmark with 0..2064 bytes of
# padding ahead of all its code (from the build's own CMake link line),
# runs builds and layouts alternated, and prints per benchmark the median
# over layouts of the per-layout medians, the layouts' range, and each
# build's change against the first.
#
# usage: scripts/bench_layouts.sh [--filter=REGEX] [--rounds=N] BUILD_DIR...
#   e.g. scripts/bench_layouts.sh --filter=collide /tmp/old/build build
set -euo pipefail

filter=collide
rounds=2
builds=()
for arg in "$@"; do
  case "$arg" in
    --filter=*) filter=${arg#--filter=} ;;
    --rounds=*) rounds=${arg#--rounds=} ;;
    -*) echo "unknown flag $arg" >&2; exit 2 ;;
    *) builds+=("$(cd "$arg" && pwd)") ;;
  esac
done
if [ ${#builds[@]} -lt 1 ]; then
  echo "usage: $0 [--filter=REGEX] [--rounds=N] BUILD_DIR..." >&2
  exit 2
fi

pads=(0 16 48 272 1040 2064)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for pad in "${pads[@]}"; do
  {
    echo '.section .note.GNU-stack,"",@progbits'
    echo '.text'
    [ "$pad" -gt 0 ] && echo ".skip $pad, 0x90"
  } > "$work/pad_$pad.s"
  as "$work/pad_$pad.s" -o "$work/pad_$pad.o"
done

for i in "${!builds[@]}"; do
  dir=${builds[$i]}/bench
  link=$(cat "$dir/CMakeFiles/collide_toi_bench.dir/link.txt")
  for pad in "${pads[@]}"; do
    # The padding object first among the inputs, the output renamed.
    cmd=${link/ CMakeFiles\/collide_toi_bench.dir\// $work/pad_$pad.o CMakeFiles/collide_toi_bench.dir/}
    cmd=${cmd/-o collide_toi_bench /-o $work/bench_${i}_$pad }
    (cd "$dir" && eval "$cmd")
  done
done

for round in $(seq "$rounds"); do
  for pad in "${pads[@]}"; do
    for i in "${!builds[@]}"; do
      "$work/bench_${i}_$pad" --benchmark_min_time=0.2 \
        --benchmark_filter="$filter" --benchmark_format=json \
        > "$work/run_${i}_${pad}_$round.json" 2>/dev/null
    done
  done
done

python3 - "$work" "${#builds[@]}" "$rounds" "${pads[*]}" <<'PY'
import collections, json, statistics, sys
work, count, rounds, pads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
per_build = []
for i in range(count):
    per_layout = collections.defaultdict(dict)
    for pad in pads:
        times = collections.defaultdict(list)
        for r in range(1, rounds + 1):
            with open(f"{work}/run_{i}_{pad}_{r}.json") as f:
                for b in json.load(f)["benchmarks"]:
                    times[b["name"]].append(b["real_time"])
        for name, values in times.items():
            per_layout[name][pad] = statistics.median(values)
    per_build.append(per_layout)
for name in per_build[0]:
    medians = [statistics.median(b[name].values()) for b in per_build]
    cells = [f"{m:8.2f} [{min(b[name].values()):.1f}-{max(b[name].values()):.1f}]"
             for m, b in zip(medians, per_build)]
    changes = [f"{(m / medians[0] - 1) * 100:+6.1f}%" for m in medians[1:]]
    print(f"{name:45s} " + "  ".join(cells) + "  " + " ".join(changes))
PY
