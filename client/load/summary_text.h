// The load test's report for people: a summary of what was run, throughput,
// batch latency percentiles, errors by status code and a histogram; and the
// one-line progress reports printed while it runs.
#ifndef COLLIDE_CLIENT_LOAD_SUMMARY_TEXT_H_
#define COLLIDE_CLIENT_LOAD_SUMMARY_TEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "client/load/histogram.h"
#include "client/load/load_recorder.h"
#include "client/load/load_result.h"
#include "client/load/run_description.h"

namespace collide::client::load {

// The percentiles every report shows, as quantiles and their names.
struct Percentile {
  double quantile;
  const char* name;
};
inline constexpr Percentile kReportedPercentiles[] = {
    {0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}, {0.999, "p99.9"}};

// Nanoseconds as milliseconds with 3 significant digits or more ("0.312",
// "12.4", "1530").
std::string FormatMs(int64_t ns);

// The whole summary, several lines, ending in a newline.
std::string SummaryText(const RunDescription& run, const LoadResult& result);

// The histogram regrouped into latency ranges (previous upper, upper] on a
// 1-2-5 scale of nanoseconds, from the range holding the smallest sample to
// the one holding the largest (empty ranges between included). A bucket
// goes to the range holding its lowest value, so a sample of exactly 1 ms
// counts as <= 1 ms; one straddling a boundary may hold samples up to
// RelativeError() above its range.
struct HistogramRow {
  int64_t upper_ns = 0;
  int64_t count = 0;
};
std::vector<HistogramRow> HistogramRows(const LatencyHistogram& histogram);

// Those rows as text (ms) with a bar, the count, and its share and
// cumulative share of the samples.
std::string HistogramText(const LatencyHistogram& histogram);

// One progress line: elapsed seconds, answered queries and batches per
// second since the previous line (`previous`, over `since_previous_s`
// seconds), p50 and p99 of the measured batches so far, errors so far.
std::string ProgressLine(double elapsed_s, bool warming_up,
                         const ProgressSnapshot& now,
                         const ProgressSnapshot& previous,
                         double since_previous_s);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_SUMMARY_TEXT_H_
