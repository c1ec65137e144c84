#include "client/load/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace collide::client::load {

namespace {

constexpr int kValueBits = 42;  // kMaxValue = 2^42 - 1

}  // namespace

LatencyHistogram::LatencyHistogram(int precision_bits)
    : precision_bits_(std::clamp(precision_bits, 2, 16)) {
  const int exact = 1 << precision_bits_;
  const int half = exact / 2;
  // Exact values [0, 2^b), then (kValueBits - b) octaves of `half` buckets.
  counts_.assign(
      static_cast<size_t>(exact + (kValueBits - precision_bits_) * half), 0);
}

// Below 2^b: the value itself. Above: with p the top bit's position and
// e = p - (b - 1), the value's top b bits m = v >> e lie in [2^(b-1), 2^b),
// so octave e holds 2^(b-1) buckets of width 2^e.
int LatencyHistogram::BucketIndex(int64_t value) const {
  const int exact = 1 << precision_bits_;
  if (value < exact) return static_cast<int>(value);
  const int half = exact / 2;
  const int top_bit =
      static_cast<int>(std::bit_width(static_cast<uint64_t>(value))) - 1;
  const int shift = top_bit - (precision_bits_ - 1);
  const int mantissa = static_cast<int>(value >> shift);
  return exact + (shift - 1) * half + (mantissa - half);
}

int64_t LatencyHistogram::BucketLower(int index) const {
  const int exact = 1 << precision_bits_;
  if (index < exact) return index;
  const int half = exact / 2;
  const int shift = (index - exact) / half + 1;
  const int64_t mantissa = half + (index - exact) % half;
  return mantissa << shift;
}

int64_t LatencyHistogram::BucketUpper(int index) const {
  const int exact = 1 << precision_bits_;
  if (index < exact) return index;
  return BucketLower(index + 1) - 1;
}

void LatencyHistogram::Record(int64_t value) {
  value = std::max<int64_t>(value, 0);
  if (count_ == 0 || value < min_) min_ = value;
  max_ = std::max(max_, value);
  sum_ += static_cast<double>(value);
  ++count_;
  ++counts_[static_cast<size_t>(
      BucketIndex(std::min(value, LatencyHistogram::kMaxValue)))];
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (count_ == 0 || other.min_ < min_) min_ = other.min_;
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  count_ += other.count_;
  const size_t n = std::min(counts_.size(), other.counts_.size());
  for (size_t i = 0; i < n; ++i) counts_[i] += other.counts_[i];
}

double LatencyHistogram::mean() const {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

double LatencyHistogram::RelativeError() const {
  return std::ldexp(1.0, -(precision_bits_ - 1));
}

int64_t LatencyHistogram::ValueAtQuantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // The rank of the quantile's sample, 1-based: at least the first. The
  // tiny subtraction keeps 0.99 * 100 (= 99.00000000000001 in double) at
  // rank 99.
  const int64_t rank = std::max<int64_t>(
      1,
      static_cast<int64_t>(std::ceil(q * static_cast<double>(count_) - 1e-9)));
  int64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    // The bucket holding the largest sample answers with it exactly (the
    // top bucket also holds values beyond kMaxValue).
    if (seen == count_) return max_;
    if (seen >= rank) {
      return std::clamp(BucketUpper(static_cast<int>(i)), min_, max_);
    }
  }
  return max_;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::NonEmptyBuckets()
    const {
  std::vector<Bucket> buckets;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    const int index = static_cast<int>(i);
    buckets.push_back({std::max(BucketLower(index), min_),
                       std::min(BucketUpper(index), max_), counts_[i]});
  }
  return buckets;
}

}  // namespace collide::client::load
