#include "client/load/intervals_csv.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"

namespace collide::client::load {

namespace {

std::string Ms(int64_t ns) {
  return absl::StrFormat("%.3f", static_cast<double>(ns) / 1e6);
}

double PerSecond(int64_t count, double seconds) {
  return static_cast<double>(count) / seconds;
}

}  // namespace

std::string IntervalsCsv(const LoadResult& result, const PlanOptions& plan) {
  std::string csv =
      "start_s,end_s,target_batches_per_s,batches_answered,batches_per_s,"
      "queries_answered,queries_per_s,errors,p50_ms,p90_ms,p99_ms,max_ms\n";
  // Only for its rate schedule: the start is the zero of `elapsed`.
  const RunPlan schedule(Clock::time_point(), plan);
  const double length = absl::ToDoubleSeconds(result.interval);
  for (size_t i = 0; i < result.intervals.size(); ++i) {
    const IntervalStats& stats = result.intervals[i];
    const double start = length * static_cast<double>(i);
    const Clock::duration middle =
        plan.warmup + absl::ToChronoNanoseconds(result.interval *
                                                (static_cast<double>(i) + 0.5));
    const double target = plan.rate > 0 ? schedule.RateAt(middle) : 0;
    absl::StrAppendFormat(
        &csv, "%.3f,%.3f,%.6g,%d,%.6g,%d,%.6g,%d,", start, start + length,
        target, stats.batches_answered,
        PerSecond(stats.batches_answered, length), stats.queries_answered,
        PerSecond(stats.queries_answered, length), stats.errors);
    const LatencyHistogram& latency = stats.latency;
    if (latency.count() > 0) {
      absl::StrAppend(&csv, Ms(latency.ValueAtQuantile(0.5)), ",",
                      Ms(latency.ValueAtQuantile(0.9)), ",",
                      Ms(latency.ValueAtQuantile(0.99)), ",",
                      Ms(latency.max()));
    } else {
      csv += ",,,";
    }
    csv += "\n";
  }
  return csv;
}

}  // namespace collide::client::load
