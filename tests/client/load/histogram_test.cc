// LatencyHistogram against exact quantiles of the same samples, sorted.
#include "client/load/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/splitmix64.h"

namespace collide::client::load {
namespace {

// The exact quantile by the histogram's definition: the sample of rank
// ceil(q * n) (at least 1) in sorted order.
int64_t ExactQuantile(const std::vector<int64_t>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank =
      std::max<int64_t>(1, static_cast<int64_t>(std::ceil(q * n - 1e-9)));
  return sorted[static_cast<size_t>(rank - 1)];
}

constexpr double kQuantiles[] = {0,   0.001, 0.1,   0.25,   0.5, 0.75,
                                 0.9, 0.99,  0.999, 0.9999, 1.0};

TEST(LatencyHistogramTest, QuantilesAreWithinTheRelativeErrorOfExactOnes) {
  for (int bits : {7, 9, 12}) {
    LatencyHistogram histogram(bits);
    testing::SplitMix64 rng(42 + static_cast<uint64_t>(bits));
    std::vector<int64_t> values;
    // Log-uniform from 1 ns to about 100 s: every octave gets samples.
    for (int i = 0; i < 50000; ++i) {
      const auto value =
          static_cast<int64_t>(std::exp(rng.Uniform(0, std::log(1e11))));
      values.push_back(value);
      histogram.Record(value);
    }
    std::sort(values.begin(), values.end());
    const double error = histogram.RelativeError();
    EXPECT_DOUBLE_EQ(error, std::ldexp(1.0, -(bits - 1)));
    for (double q : kQuantiles) {
      const int64_t exact = ExactQuantile(values, q);
      const int64_t reported = histogram.ValueAtQuantile(q);
      EXPECT_GE(reported, exact) << "bits " << bits << " q " << q;
      EXPECT_LE(static_cast<double>(reported),
                static_cast<double>(exact) * (1 + error))
          << "bits " << bits << " q " << q;
    }
    EXPECT_EQ(histogram.min(), values.front());
    EXPECT_EQ(histogram.max(), values.back());
    EXPECT_EQ(histogram.ValueAtQuantile(1.0), values.back());
    EXPECT_EQ(histogram.count(), 50000);
  }
}

TEST(LatencyHistogramTest, SmallValuesAreCountedExactly) {
  LatencyHistogram histogram(9);
  std::vector<int64_t> values;
  for (int64_t v = 0; v < 512; ++v) {
    for (int64_t copies = 0; copies <= v % 3; ++copies) {
      histogram.Record(v);
      values.push_back(v);
    }
  }
  for (double q : kQuantiles) {
    EXPECT_EQ(histogram.ValueAtQuantile(q), ExactQuantile(values, q))
        << "q " << q;
  }
}

TEST(LatencyHistogramTest, MeanMinMaxAreExactAndEmptyIsZero) {
  LatencyHistogram histogram;
  EXPECT_EQ(histogram.count(), 0);
  EXPECT_EQ(histogram.ValueAtQuantile(0.5), 0);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 0);
  EXPECT_EQ(histogram.mean(), 0);
  histogram.Record(1000);
  histogram.Record(3001);
  histogram.Record(-5);  // counts as 0
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 3001);
  EXPECT_DOUBLE_EQ(histogram.mean(), 4001.0 / 3);
}

TEST(LatencyHistogramTest, ValuesBeyondTheRangeKeepTheirExactMaximum) {
  LatencyHistogram histogram(7);
  const int64_t huge = LatencyHistogram::kMaxValue * 4;
  histogram.Record(5);
  histogram.Record(huge);
  EXPECT_EQ(histogram.max(), huge);
  EXPECT_EQ(histogram.ValueAtQuantile(1.0), huge);
  EXPECT_EQ(histogram.ValueAtQuantile(0.5), 5);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverySample) {
  LatencyHistogram a(9);
  LatencyHistogram b(9);
  LatencyHistogram all(9);
  testing::SplitMix64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    const auto value = static_cast<int64_t>(rng.Uniform(0, 1e9));
    (i % 3 == 0 ? a : b).Record(value);
    all.Record(value);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
  for (double q : kQuantiles) {
    EXPECT_EQ(a.ValueAtQuantile(q), all.ValueAtQuantile(q)) << "q " << q;
  }
}

TEST(LatencyHistogramTest, BucketsAreIncreasingAndHoldEverySample) {
  LatencyHistogram histogram(7);
  testing::SplitMix64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    histogram.Record(static_cast<int64_t>(rng.Uniform(0, 1e8)));
  }
  const std::vector<LatencyHistogram::Bucket> buckets =
      histogram.NonEmptyBuckets();
  int64_t total = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    EXPECT_GT(buckets[i].count, 0);
    if (i > 0) {
      EXPECT_GT(buckets[i].lower, buckets[i - 1].upper);
    }
    EXPECT_LE(buckets[i].lower, buckets[i].upper);
    total += buckets[i].count;
  }
  EXPECT_EQ(total, histogram.count());
  EXPECT_EQ(buckets.back().upper, histogram.max());
}

}  // namespace
}  // namespace collide::client::load
