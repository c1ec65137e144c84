// LatencyHistogram: a log-linear histogram of non-negative integer values
// (the load tester records nanoseconds) in the manner of HdrHistogram, for
// quantiles of millions of samples in fixed memory. Debian 12 ships no C or
// C++ HdrHistogram, hence this small one.
//
// Layout: values below 2^precision_bits are counted exactly; above, each
// power-of-two range [2^k, 2^(k+1)) is split into 2^(precision_bits - 1)
// equal buckets. A bucket's width is therefore at most 2^-(precision_bits-1)
// of its lowest value: ValueAtQuantile is never below the exact quantile
// and exceeds it by at most that share (RelativeError()).
#ifndef COLLIDE_CLIENT_LOAD_HISTOGRAM_H_
#define COLLIDE_CLIENT_LOAD_HISTOGRAM_H_

#include <cstdint>
#include <vector>

namespace collide::client::load {

class LatencyHistogram {
 public:
  // precision_bits in [2, 16] (clamped): 9 gives 0.4% relative error in
  // about 72 KB; 7 gives 1.6% in about 19 KB.
  explicit LatencyHistogram(int precision_bits = 9);

  // Values above kMaxValue (about 73 minutes in nanoseconds) are counted in
  // the top bucket; min(), max() and mean() still see them exactly. A
  // negative value counts as 0.
  static constexpr int64_t kMaxValue = (int64_t{1} << 42) - 1;

  void Record(int64_t value);
  // Adds every sample of `other`, which must have the same precision_bits.
  void Merge(const LatencyHistogram& other);

  int64_t count() const { return count_; }
  // Exact smallest / largest recorded value; 0 when empty.
  int64_t min() const { return count_ == 0 ? 0 : min_; }
  int64_t max() const { return max_; }
  double mean() const;

  // The value at quantile q in [0, 1] (0.99 for p99): the smallest recorded
  // value v with at least ceil(q * count) samples <= v, reported as the
  // highest value of v's bucket (clamped to max()), so never below the
  // exact quantile and above it by at most RelativeError() of it. 0 when
  // empty.
  int64_t ValueAtQuantile(double q) const;
  double RelativeError() const;

  // Non-empty buckets in increasing order, each as the lowest and highest
  // value it can hold (clamped to min() and max()) and its count: for
  // printing and plotting.
  struct Bucket {
    int64_t lower = 0;
    int64_t upper = 0;
    int64_t count = 0;
  };
  std::vector<Bucket> NonEmptyBuckets() const;

  int precision_bits() const { return precision_bits_; }

 private:
  int BucketIndex(int64_t value) const;
  int64_t BucketLower(int index) const;
  int64_t BucketUpper(int index) const;

  int precision_bits_;
  std::vector<int64_t> counts_;
  int64_t count_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
  // Sum of samples, in double so that long runs cannot overflow it.
  double sum_ = 0;
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_HISTOGRAM_H_
