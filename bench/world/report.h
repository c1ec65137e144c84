// Scoring a library's results against the reference, and printing them.
#ifndef COLLIDE_BENCH_WORLD_REPORT_H_
#define COLLIDE_BENCH_WORLD_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "scenes.h"
#include "timing.h"

namespace collide_bench {

// One library on one scene x query set.
struct LibraryRun {
  std::string library;
  std::string config;  // e.g. the chosen hash cell size
  bool ran = false;
  Timing timing;
  int64_t hits = 0;
  int64_t disagreements = 0;
  std::vector<int64_t> examples;  // first few disagreeing query indices
};

// Fills hits, disagreements and examples from results vs reference.
void Score(const std::vector<WorldHit>& results,
           const std::vector<WorldHit>& reference, LibraryRun& run);

// Prints each example: the query (exact doubles) and both answers.
void PrintExamples(const Scene& scene, const QuerySet& set,
                   const std::vector<WorldHit>& results,
                   const std::vector<WorldHit>& reference,
                   const LibraryRun& run);

// "median (min-max)" or "-" when the library did not run.
std::string FormatNs(const LibraryRun& run);

// A library counts as correct on a cell when at most 0.1% of its queries
// disagree with the reference (grazing float flips; see docs/performance.md).
bool IsCorrect(const LibraryRun& run, size_t queries);

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_REPORT_H_
