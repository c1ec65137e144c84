// collide-load --csv: one row per interval with the target rate
// of the schedule, throughput, errors and latency percentiles.
#include "client/load/intervals_csv.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

using std::chrono::milliseconds;

TEST(IntervalsCsvTest, RowsCarryTheRampsTargetRateAndTheFigures) {
  LoadResult result;
  result.interval = absl::Milliseconds(500);
  result.intervals.resize(3);
  result.intervals[0].batches_answered = 30;
  result.intervals[0].queries_answered = 480;
  result.intervals[0].errors = 2;
  result.intervals[0].latency.Record(2'000'000);
  result.intervals[0].latency.Record(4'000'000);
  result.intervals[1].batches_answered = 45;
  // The third interval answered nothing: its latency columns are empty.
  PlanOptions plan{.rate = 100,
                   .ramp = {.shape = RampShape::kLinear, .to_rate = 200},
                   .warmup = milliseconds(1000),
                   .duration = milliseconds(1500)};
  const std::vector<std::string> lines =
      absl::StrSplit(IntervalsCsv(result, plan), '\n');
  ASSERT_EQ(lines.size(), 5u);  // header, 3 rows, and the final newline
  EXPECT_EQ(lines[0],
            "start_s,end_s,target_batches_per_s,batches_answered,batches_per_"
            "s,queries_answered,queries_per_s,errors,p50_ms,p90_ms,p99_ms,"
            "max_ms");
  // Interval middles 0.25, 0.75, 1.25 s into a 1.5 s ramp 100 -> 200.
  EXPECT_THAT(lines[1],
              ::testing::StartsWith("0.000,0.500,116.667,30,60,480,960,2,"));
  EXPECT_THAT(lines[1], ::testing::EndsWith(",4.000"));
  EXPECT_THAT(lines[2], ::testing::StartsWith("0.500,1.000,150,45,90,0,0,0,"));
  EXPECT_EQ(lines[3], "1.000,1.500,183.333,0,0,0,0,0,,,,");
  EXPECT_EQ(lines[4], "");
  // A closed loop has no target rate.
  EXPECT_THAT(IntervalsCsv(result, PlanOptions{}),
              ::testing::HasSubstr("\n0.000,0.500,0,30,"));
}

}  // namespace
}  // namespace collide::client::load
