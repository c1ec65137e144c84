// Metric primitives and the Prometheus text exposition format (0.0.4).
// Debian has no prometheus-cpp, and the server needs only three kinds of
// metric, so they are written here: counters, gauges and histograms with
// fixed buckets, each a few relaxed atomics. Recording is a handful of
// uncontended atomic adds: no lock, no allocation, no clock of its own.
// Exposition (ExpositionWriter) runs only when /metrics is scraped.
#ifndef COLLIDE_SERVER_OPS_METRICS_H_
#define COLLIDE_SERVER_OPS_METRICS_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace collide::server {

// A count that only goes up. Relaxed: a scrape needs each value, not an
// order between them.
class Counter {
 public:
  void Add(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// A value that goes up and down (streams open, batches in flight).
class Gauge {
 public:
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// A histogram over integer observations (nanoseconds, counts) with at most
// kMaxBuckets fixed upper bounds, ascending, in the observation's unit.
// Exposition divides bounds and the sum by `divisor` (1e9 turns
// nanoseconds into the seconds Prometheus expects; a division by a power of
// ten prints 1e-05, where a multiplication by 1e-9 would print
// 1.0000000000000001e-05).
class Histogram {
 public:
  static constexpr size_t kMaxBuckets = 24;

  // `upper_bounds`: ascending, at most kMaxBuckets; +Inf is implied.
  Histogram(std::initializer_list<uint64_t> upper_bounds, double divisor);
  Histogram(absl::Span<const uint64_t> upper_bounds, double divisor);

  // Counts `value` in the first bucket whose bound is >= it (le), or +Inf.
  void Observe(uint64_t value);

  double divisor() const { return divisor_; }
  size_t bound_count() const { return bound_count_; }
  uint64_t bound(size_t i) const { return bounds_[i]; }
  // Observations in bucket i alone (not cumulative); i == bound_count() is
  // the +Inf bucket.
  uint64_t bucket(size_t i) const {
    return buckets_[i].load(std::memory_order_relaxed);
  }
  // Sum of the observations, in the observation's unit.
  uint64_t sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  std::array<uint64_t, kMaxBuckets> bounds_{};
  size_t bound_count_ = 0;
  double divisor_ = 1;
  std::array<std::atomic<uint64_t>, kMaxBuckets + 1> buckets_{};
  std::atomic<uint64_t> sum_{0};
};

// Bounds for latencies in nanoseconds (divisor 1e9): 1 us to 10 s in 1-2-5
// steps, 22 buckets. Fine enough at the low end that the median of a
// one-query batch (a few microseconds) lands in a bucket of its own, and
// wide enough for a call held by a slow client or a long deadline.
inline constexpr std::array<uint64_t, 22> kLatencyBoundsNs = {
    1'000,         2'000,         5'000,       10'000,        20'000,
    50'000,        100'000,       200'000,     500'000,       1'000'000,
    2'000'000,     5'000'000,     10'000'000,  20'000'000,    50'000'000,
    100'000'000,   200'000'000,   500'000'000, 1'000'000'000, 2'000'000'000,
    5'000'000'000, 10'000'000'000};

// `value` escaped for a label value in the text format: backslash, double
// quote and line feed become \\, \" and \n.
std::string EscapeLabelValue(absl::string_view value);

// One label of a sample; `value` is escaped by the writer.
struct Label {
  absl::string_view name;
  absl::string_view value;
};

// Writes the text exposition format into a string: per family one
// "# HELP" and one "# TYPE" line, then its samples. Names and label names
// are the caller's constants; label values are escaped here.
class ExpositionWriter {
 public:
  // Starts family `name` of `type` ("counter", "gauge", "histogram").
  void Family(absl::string_view name, absl::string_view type,
              absl::string_view help);
  // One sample line: name{labels} value.
  void Sample(absl::string_view name, std::initializer_list<Label> labels,
              double value);
  void Sample(absl::string_view name, absl::Span<const Label> labels,
              double value);
  // The _bucket (cumulative, le), _sum and _count lines of `histogram`
  // under family `name`, each with `labels` too. _count is the sum of the
  // buckets, so it always equals the +Inf bucket.
  void HistogramSamples(absl::string_view name, const Histogram& histogram,
                        std::initializer_list<Label> labels = {});

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_METRICS_H_
