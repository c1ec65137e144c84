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

// A load ramp (ghz's step and line schedules). Due times follow
// the integral of the rate.
TEST(RunPlanTest, LinearRampDueTimesFollowTheRisingRate) {
  RunPlan plan(kStart, {.rate = 100,
                        .ramp = {.shape = RampShape::kLinear, .to_rate = 300},
                        .warmup = seconds(1),
                        .duration = seconds(2)});
  // The warm-up at 100/s: batch 100 is due as it ends.
  EXPECT_LE(std::chrono::abs(plan.DueTime(100) - (kStart + seconds(1))),
            nanoseconds(10));
  // Then 100 -> 300/s over 2 s: 100 s + 50 s^2 batches after s seconds,
  // so 150 in the first second and 400 in all.
  EXPECT_LT(plan.DueTime(100 + 149), kStart + seconds(2));
  EXPECT_LE(std::chrono::abs(plan.DueTime(100 + 150) - (kStart + seconds(2))),
            nanoseconds(10));
  EXPECT_LT(plan.DueTime(100 + 399), plan.measure_end());
  EXPECT_EQ(plan.Claim(plan.DueTime(100 + 399)), RunPlan::Slot::kMeasured);
  EXPECT_EQ(plan.Claim(plan.DueTime(100 + 400)), RunPlan::Slot::kDone);
  for (int64_t k = 1; k < 500; ++k) {
    EXPECT_GE(plan.DueTime(k), plan.DueTime(k - 1)) << k;
  }
  EXPECT_EQ(plan.RateAt(milliseconds(500)), 100);
  EXPECT_DOUBLE_EQ(plan.RateAt(seconds(2)), 200);
  EXPECT_DOUBLE_EQ(plan.RateAt(seconds(3)), 300);
}

TEST(RunPlanTest, StepRampHoldsEachRateForItsShareOfTheDuration) {
  RunPlan plan(kStart,
               {.rate = 100,
                .ramp = {.shape = RampShape::kStep, .to_rate = 300, .steps = 3},
                .warmup = seconds(0),
                .duration = seconds(3)});
  // 100/s, then 200/s, then 300/s, a second each.
  EXPECT_LE(std::chrono::abs(plan.DueTime(50) - (kStart + milliseconds(500))),
            nanoseconds(10));
  EXPECT_LE(std::chrono::abs(plan.DueTime(100) - (kStart + seconds(1))),
            nanoseconds(10));
  EXPECT_LE(std::chrono::abs(plan.DueTime(300) - (kStart + seconds(2))),
            nanoseconds(10));
  EXPECT_LE(std::chrono::abs(plan.DueTime(450) - (kStart + milliseconds(2500))),
            nanoseconds(10));
  EXPECT_EQ(plan.Claim(plan.DueTime(599)), RunPlan::Slot::kMeasured);
  EXPECT_EQ(plan.Claim(plan.DueTime(600)), RunPlan::Slot::kDone);
  EXPECT_EQ(plan.RateAt(milliseconds(999)), 100);
  EXPECT_EQ(plan.RateAt(milliseconds(1500)), 200);
  EXPECT_EQ(plan.RateAt(milliseconds(2999)), 300);
}

// A ramp down ends where it should too (the rate never turns negative).
TEST(RunPlanTest, LinearRampDownSendsTheIntegral) {
  RunPlan plan(kStart, {.rate = 300,
                        .ramp = {.shape = RampShape::kLinear, .to_rate = 100},
                        .warmup = seconds(0),
                        .duration = seconds(2)});
  EXPECT_EQ(plan.Claim(plan.DueTime(399)), RunPlan::Slot::kMeasured);
  EXPECT_EQ(plan.Claim(plan.DueTime(400)), RunPlan::Slot::kDone);
  // 300 s - 50 s^2: 250 batches in the first second.
  EXPECT_LE(std::chrono::abs(plan.DueTime(250) - (kStart + seconds(1))),
            nanoseconds(10));
}

}  // namespace
}  // namespace collide::client::load
