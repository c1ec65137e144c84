// RunPlan: the open-loop schedule and which batches are warm-up, measured
// or past the end.
#include "client/load/run_plan.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

const Clock::time_point kStart = Clock::time_point() + seconds(1000);

TEST(RunPlanTest, OpenLoopBatchesAreDueEveryOneOverRateFromTheStart) {
  RunPlan plan(kStart, {.rate = 300});
  EXPECT_TRUE(plan.open_loop());
  EXPECT_EQ(plan.DueTime(0), kStart);
  // Computed from k, not accumulated: batch 3 million is due 10000 s after
  // the start to the nanosecond.
  EXPECT_LE(
      std::chrono::abs(plan.DueTime(3'000'000) - (kStart + seconds(10000))),
      nanoseconds(1));
  EXPECT_LE(std::chrono::abs(plan.DueTime(1) - (kStart + nanoseconds(3333333))),
            nanoseconds(1));
  for (int64_t k = 1; k < 1000; ++k) {
    EXPECT_GT(plan.DueTime(k), plan.DueTime(k - 1));
  }
}

TEST(RunPlanTest, ZeroRateIsAClosedLoop) {
  RunPlan plan(kStart, {.rate = 0});
  EXPECT_FALSE(plan.open_loop());
}

TEST(RunPlanTest, IndicesAreSharedAndNeverRepeat) {
  RunPlan plan(kStart, {.rate = 100});
  std::vector<std::vector<int64_t>> taken(4);
  std::vector<std::thread> threads;
  for (auto& mine : taken) {
    threads.emplace_back([&plan, &mine] {
      for (int i = 0; i < 1000; ++i) mine.push_back(plan.TakeNextIndex());
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<bool> seen(4000, false);
  for (const auto& mine : taken) {
    for (int64_t k : mine) {
      ASSERT_LT(k, 4000);
      EXPECT_FALSE(seen[static_cast<size_t>(k)]) << k;
      seen[static_cast<size_t>(k)] = true;
    }
  }
}

TEST(RunPlanTest, DurationRunsWarmThenMeasureThenEnd) {
  RunPlan plan(
      kStart,
      {.rate = 10, .warmup = milliseconds(500), .duration = seconds(2)});
  EXPECT_EQ(plan.measure_start(), kStart + milliseconds(500));
  EXPECT_EQ(plan.measure_end(), kStart + milliseconds(2500));
  EXPECT_EQ(plan.Claim(kStart), RunPlan::Slot::kWarmup);
  EXPECT_EQ(plan.Claim(kStart + milliseconds(499)), RunPlan::Slot::kWarmup);
  EXPECT_EQ(plan.Claim(kStart + milliseconds(500)), RunPlan::Slot::kMeasured);
  EXPECT_EQ(plan.Claim(kStart + milliseconds(2499)), RunPlan::Slot::kMeasured);
  EXPECT_EQ(plan.Claim(kStart + milliseconds(2500)), RunPlan::Slot::kDone);
  // A batch due earlier, claimed later by a slower stream, still counts.
  EXPECT_EQ(plan.Claim(kStart + milliseconds(2000)), RunPlan::Slot::kMeasured);
  // The schedule at 10/s measures batches 5 to 24: 20 batches in 2 s.
  int measured = 0;
  for (int64_t k = 0; k < 100; ++k) {
    measured += plan.Claim(plan.DueTime(k)) == RunPlan::Slot::kMeasured;
  }
  EXPECT_EQ(measured, 20);
}

TEST(RunPlanTest, CountRunsMeasureExactlyCountBatchesAcrossThreads) {
  RunPlan plan(kStart, {.warmup = milliseconds(100), .count = 1000});
  EXPECT_EQ(plan.Claim(kStart + milliseconds(50)), RunPlan::Slot::kWarmup);
  std::atomic<int> measured{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (plan.Claim(kStart + seconds(1)) == RunPlan::Slot::kMeasured) {
        ++measured;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(measured.load(), 1000);
  // Once the count is reached, later claims end the run too.
  EXPECT_EQ(plan.Claim(kStart + seconds(100000)), RunPlan::Slot::kDone);
}

TEST(RunPlanTest, StopEndsEveryLaterClaim) {
  RunPlan plan(kStart, {.warmup = milliseconds(0), .duration = seconds(60)});
  EXPECT_EQ(plan.Claim(kStart + seconds(1)), RunPlan::Slot::kMeasured);
  plan.Stop();
  EXPECT_TRUE(plan.stopped());
  EXPECT_EQ(plan.Claim(kStart + seconds(1)), RunPlan::Slot::kDone);
  EXPECT_EQ(plan.Claim(kStart), RunPlan::Slot::kDone);
}

}  // namespace
}  // namespace collide::client::load
