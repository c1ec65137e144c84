// Timing of a closest-hit query over a whole query set: one warm-up pass that
// also records every result, then `passes` timed passes with steady_clock.
// interleaved_timing.h runs several libraries' passes in turn.
#ifndef COLLIDE_BENCH_WORLD_TIMING_H_
#define COLLIDE_BENCH_WORLD_TIMING_H_

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "scenes.h"

namespace collide_bench {

struct Timing {
  double median_ns = 0.0;  // per query
  double min_ns = 0.0;
  double max_ns = 0.0;
};

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// Folds a result into a checksum so the optimiser cannot drop the query.
inline uint64_t Fold(uint64_t sink, const WorldHit& hit) {
  uint64_t bits;
  std::memcpy(&bits, &hit.fraction, sizeof bits);
  return sink * 31 + bits + static_cast<uint64_t>(hit.shape);
}

// Where timed loops leave their checksum.
inline volatile uint64_t g_timing_sink = 0;

// query(i) -> WorldHit for i in [0, n): results (resized to n) gets every
// answer. The untimed warm-up pass.
template <typename Query>
void RecordResults(size_t n, Query& query, std::vector<WorldHit>& results) {
  results.resize(n);
  for (size_t i = 0; i < n; ++i) results[i] = query(i);
}

// One timed pass over [0, n); ns per query. The answers are folded into
// *sink so the optimiser cannot drop the queries.
template <typename Query>
double TimePass(size_t n, Query& query, uint64_t* sink) {
  uint64_t folded = *sink;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < n; ++i) folded = Fold(folded, query(i));
  const double ns = SecondsSince(start) * 1e9 / static_cast<double>(n);
  *sink = folded;
  return ns;
}

// Median, min and max of the passes' ns per query (ns is sorted here).
Timing Summarize(std::vector<double>& ns);

// A warm-up pass that records results, then `passes` timed passes.
template <typename Query>
Timing TimeQueries(size_t n, Query&& query, std::vector<WorldHit>& results,
                   int passes = 5) {
  RecordResults(n, query, results);
  std::vector<double> ns;
  uint64_t sink = 0;
  for (int p = 0; p < passes; ++p) ns.push_back(TimePass(n, query, &sink));
  g_timing_sink = g_timing_sink + sink;
  return Summarize(ns);
}

// Bytes of heap in use now (mallinfo2: small blocks plus mmapped ones);
// the difference around a build is what the built index keeps alive.
size_t HeapInUse();

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_TIMING_H_
