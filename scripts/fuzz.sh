#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/, clang, in build-fuzz/) and runs
# each for SECONDS (default 60), with a per-input timeout and a memory limit.
# Each run starts from a scratch copy of the checked-in seed corpus and
# regression inputs (tests/fuzz/corpus/<target>, regressions/<target>), so
# the checked-in corpus only grows when a person adds files. Crash, timeout
# and out-of-memory inputs, each target's log and its grown corpus go under
# the output folder, which is printed.
#
# Usage: scripts/fuzz.sh [options] [SECONDS]
#   --only TARGET   run only this target (repeatable)
#   --skip TARGET   do not run this target (repeatable)
#   --jobs N        run up to N targets at once (default 1)
#   --out DIR       output folder (default build-fuzz/runs/<UTC time>)
#   --seed N        libFuzzer's random seed (default: a new one each run)
#   --runs N        stop each target after N inputs (SECONDS stays a bound)
# With --seed and --runs each run of a commit explores about the same
# neighbourhood of the checked-in inputs (not bit for bit: libFuzzer reads
# the corpus folder in the file system's order), so that a CI verdict
# hardly depends on luck. Without them each run explores somewhere new,
# which is what a hunt for bugs wants.
# Targets: level_decode query_batch geometry.
# Exits non-zero if the build fails or any target reports a crash, a
# sanitizer error, a timeout or running out of memory.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(level_decode query_batch geometry)
seconds=60
jobs=1
out=""
seed=""
runs=""
only=()
skip=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    --skip) skip+=("$2"); shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    [0-9]*) seconds="$1"; shift ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

targets=()
for target in "${all_targets[@]}"; do
  if [ "${#only[@]}" -gt 0 ] && [[ " ${only[*]} " != *" ${target} "* ]]; then
    continue
  fi
  if [ "${#skip[@]}" -gt 0 ] && [[ " ${skip[*]} " == *" ${target} "* ]]; then
    echo "fuzz.sh: skipping ${target}"
    continue
  fi
  targets+=("$target")
done

cxx="${COLLIDE_FUZZ_CXX:-clang++-14}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build-fuzz -DCOLLIDE_FUZZ=ON -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fuzzers=()
for target in "${targets[@]}"; do fuzzers+=("${target}_fuzzer"); done
cmake --build build-fuzz -j"$(nproc)" --target "${fuzzers[@]}"

out="${out:-build-fuzz/runs/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
repeat=()
[ -n "$seed" ] && repeat+=(-seed="$seed")
[ -n "$runs" ] && repeat+=(-runs="$runs")
echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each${runs:+ or $runs inputs}${seed:+, seed $seed};" \
  "output in $out"

# Runs one target; its exit status is libFuzzer's (0: nothing found).
run_target() {
  local target="$1"
  local dir="$out/$target"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -r tests/fuzz/corpus/"$target"/. "$dir/corpus/"
  find tests/fuzz/regressions/"$target" -type f ! -name 'README*' \
    ! -name '.*' -exec cp {} "$dir/corpus/" \;
  # -timeout: seconds per input (a hang is a finding); -rss_limit_mb and
  # -malloc_limit_mb: an input needing more memory is a finding too.
  (cd "$dir" && "$OLDPWD/build-fuzz/tests/fuzz/${target}_fuzzer" \
    -max_total_time="$seconds" "${repeat[@]}" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" corpus >"$dir/log.txt" 2>&1)
}

declare -A status
pids=()
names=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  run_target "$target" &
  pids+=("$!")
  names+=("$target")
done
failed=0
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then status[${names[$i]}]=0; else status[${names[$i]}]=$?; fi
done

for target in "${targets[@]}"; do
  dir="$out/$target"
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt")
  corpus=$(find "$dir/corpus" -type f | wc -l)
  artifacts=$(find "$dir/artifacts" -type f | wc -l)
  echo "fuzz.sh: $target: exit ${status[$target]}, ${executions:-?} executions," \
    "corpus $corpus inputs, $artifacts artefacts"
  if [ "${status[$target]}" -ne 0 ] || [ "$artifacts" -ne 0 ]; then
    failed=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|hit:|.*FUZZ_CHECK failed|.*Assertion.*failed)' \
      "$dir/log.txt" | head -8 | sed 's/^/    /'
    # The bytes themselves, so that a failure on a machine whose files are
    # gone (CI) can be replayed: base64 -d > FILE, then replay FILE.
    find "$dir/artifacts" -type f | while read -r artefact; do
      echo "    artefact: $artefact"
      if [ "$(stat -c %s "$artefact")" -le 4096 ]; then
        base64 -w 0 "$artefact" | sed 's/^/    base64: /'
        echo
      fi
    done
    echo "    log: $dir/log.txt"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: FAILED (replay an artefact: build-fuzz/tests/fuzz/<target>_fuzzer FILE)"
  exit 1
fi
echo "fuzz.sh: no crash, sanitizer report or timeout"
