#include "interleaved_timing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collide_bench {
namespace {

// A query that answers "hit shape `id` at fraction i" and logs which library
// started a pass (query 0), so the test sees the order passes ran in.
auto LoggingQuery(int id, std::string* log) {
  return [id, log](size_t i) {
    if (i == 0) *log += static_cast<char>('A' + id);
    WorldHit hit;
    hit.hit = true;
    hit.shape = id;
    hit.fraction = static_cast<double>(i);
    return hit;
  };
}

TEST(InterleavedTimingTest, RunsEveryWarmUpThenOnePassOfEachLibraryPerRound) {
  std::string log;
  InterleavedTiming timing(/*n=*/4, /*passes=*/3);
  EXPECT_EQ(timing.Add(LoggingQuery(0, &log)), 0u);
  EXPECT_EQ(timing.Add(LoggingQuery(1, &log)), 1u);
  EXPECT_EQ(timing.Add(LoggingQuery(2, &log)), 2u);
  EXPECT_EQ(log, "");  // Add runs nothing
  timing.Run();
  EXPECT_EQ(log,
            "ABC"
            "ABC"
            "ABC"
            "ABC");  // warm-ups, then 3 rounds
}

TEST(InterleavedTimingTest, KeepsEachLibrarysWarmUpAnswersAndTiming) {
  std::string log;
  InterleavedTiming timing(/*n=*/5, /*passes=*/4);
  timing.Add(LoggingQuery(0, &log));
  timing.Add(LoggingQuery(1, &log));
  timing.Run();
  for (size_t library = 0; library < 2; ++library) {
    const std::vector<WorldHit>& results = timing.results(library);
    ASSERT_EQ(results.size(), 5u);
    for (size_t i = 0; i < results.size(); ++i) {
      EXPECT_EQ(results[i].shape, static_cast<int64_t>(library));
      EXPECT_EQ(results[i].fraction, static_cast<double>(i));
    }
    const Timing& t = timing.timing(library);
    EXPECT_GE(t.min_ns, 0.0);
    EXPECT_LE(t.min_ns, t.median_ns);
    EXPECT_LE(t.median_ns, t.max_ns);
  }
}

}  // namespace
}  // namespace collide_bench
