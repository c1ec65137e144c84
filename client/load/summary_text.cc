#include "client/load/summary_text.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "client/load/load_recorder.h"

namespace collide::client::load {

namespace {

constexpr int kBarWidth = 40;

double ToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string Plural(int64_t n, absl::string_view one, absl::string_view many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

std::string Rate(double per_second) {
  return absl::StrFormat("%.1f/s", per_second);
}

// 1, 2, 5, 10, 20, 50... nanoseconds: the first such value >= ns.
int64_t NextStep(int64_t ns) {
  int64_t decade = 1;
  while (true) {
    for (int64_t m : {1, 2, 5}) {
      if (m * decade >= ns) return m * decade;
    }
    decade *= 10;
  }
}

std::string RunLine(const RunDescription& run) {
  std::string loop =
      run.rate > 0
          ? absl::StrFormat("open loop at %.6g batches/s (%.6g queries/s)",
                            run.rate, run.rate * run.batch_size)
          : std::string("closed loop");
  if (!run.ramp.empty()) absl::StrAppend(&loop, ", ramp ", run.ramp);
  return absl::StrCat(
      "  ", loop, ": ", Plural(run.connections, "connection", "connections"),
      " x ", Plural(run.streams_per_connection, "stream", "streams"),
      ", window ", run.window, ", ", Plural(run.batch_size, "query", "queries"),
      " per batch",
      run.packed ? (run.fixed_width ? " (packed form, fixed-width results)"
                                    : " (packed form)")
                 : "",
      "\n", "  mix ", run.mix, ", seed ", run.seed, "\n", "  warm-up ",
      absl::FormatDuration(run.warmup), ", then ",
      run.count > 0 ? absl::StrCat(run.count, " batches")
                    : absl::FormatDuration(run.duration),
      " measured\n");
}

}  // namespace

std::string FormatMs(int64_t ns) {
  const double ms = ToMs(ns);
  if (ms < 1) return absl::StrFormat("%.3f", ms);
  if (ms < 10) return absl::StrFormat("%.2f", ms);
  if (ms < 100) return absl::StrFormat("%.1f", ms);
  return absl::StrFormat("%.0f", ms);
}

std::vector<HistogramRow> HistogramRows(const LatencyHistogram& histogram) {
  const std::vector<LatencyHistogram::Bucket> buckets =
      histogram.NonEmptyBuckets();
  std::vector<HistogramRow> rows;
  if (buckets.empty()) return rows;
  for (int64_t step = NextStep(buckets.front().lower);;
       step = NextStep(step + 1)) {
    rows.push_back({step, 0});
    if (step >= buckets.back().lower) break;
  }
  size_t row = 0;
  for (const LatencyHistogram::Bucket& bucket : buckets) {
    while (rows[row].upper_ns < bucket.lower) ++row;
    rows[row].count += bucket.count;
  }
  return rows;
}

std::string HistogramText(const LatencyHistogram& histogram) {
  const std::vector<HistogramRow> rows = HistogramRows(histogram);
  if (rows.empty()) return "  (no samples)\n";
  int64_t largest = 0;
  for (const HistogramRow& row : rows) largest = std::max(largest, row.count);
  const double total = static_cast<double>(histogram.count());
  std::string text;
  int64_t cumulative = 0;
  for (const HistogramRow& row : rows) {
    cumulative += row.count;
    const int bar = static_cast<int>((row.count * kBarWidth + largest - 1) /
                                     std::max<int64_t>(largest, 1));
    absl::StrAppendFormat(&text, "  <= %8s ms |%-*s| %9d %6.2f%% %7.2f%%\n",
                          FormatMs(row.upper_ns), kBarWidth,
                          std::string(static_cast<size_t>(bar), '#'), row.count,
                          100.0 * static_cast<double>(row.count) / total,
                          100.0 * static_cast<double>(cumulative) / total);
  }
  return text;
}

std::string SummaryText(const RunDescription& run, const LoadResult& result) {
  std::string text =
      absl::StrCat("collide-load: ", run.target, " (", run.load_balancing,
                   "), level ", run.level_id, "\n", RunLine(run));
  const double elapsed = absl::ToDoubleSeconds(result.elapsed);
  absl::StrAppend(&text, "measured ", absl::StrFormat("%.2f", elapsed), " s (",
                  result.warmup_batches, " warm-up batches not counted)",
                  result.interrupted ? ", interrupted" : "", "\n");
  absl::StrAppend(&text, "  batches  ", result.batches_answered,
                  " answered of ", result.batches_sent, " sent, ",
                  Rate(result.BatchesPerSecond()), "\n");
  absl::StrAppend(&text, "  queries  ", result.queries_answered, " answered (",
                  result.queries_ok, " OK), ", Rate(result.QueriesPerSecond()),
                  "\n");
  if (run.rate > 0) {
    // The schedule offers run.rate; what left may be less when windows
    // were full, and how late it left says by how much.
    const double span = absl::ToDoubleSeconds(result.send_span);
    absl::StrAppend(
        &text, "  sent     ",
        span > 0 ? Rate(static_cast<double>(result.batches_sent) / span)
                 : std::string("-"),
        " batches (scheduled ", absl::StrFormat("%.6g", run.rate),
        run.ramp.empty() ? "/s" : "/s, then ramped", "); sends left up to ",
        FormatMs(absl::ToInt64Nanoseconds(result.max_send_lag)),
        " ms after their due time\n");
  }
  const LatencyHistogram& latency = result.latency;
  absl::StrAppend(&text,
                  "latency per batch, from its intended send time to its "
                  "answer (ms):\n  min ",
                  FormatMs(latency.min()));
  for (const Percentile& p : kReportedPercentiles) {
    absl::StrAppend(&text, "  ", p.name, " ",
                    FormatMs(latency.ValueAtQuantile(p.quantile)));
  }
  absl::StrAppend(&text, "  max ", FormatMs(latency.max()), "  mean ",
                  FormatMs(static_cast<int64_t>(latency.mean())), "\n");
  if (result.errors.empty()) {
    absl::StrAppend(&text, "errors: none\n");
  } else {
    absl::StrAppend(&text, "errors: ", result.error_count(),
                    " (stream: batches lost with their stream; batch: "
                    "batches refused; query: queries answered with an "
                    "error)\n");
    for (const auto& [key, count] : result.errors) {
      absl::StrAppendFormat(&text, "  %-6s %-20s %9d  e.g. \"%s\"\n",
                            ErrorOriginName(key.origin),
                            absl::StatusCodeToString(key.code), count.count,
                            count.example.substr(0, 120));
    }
  }
  absl::StrAppend(&text, "histogram of batch latency:\n",
                  HistogramText(latency));
  return text;
}

std::string ProgressLine(double elapsed_s, bool warming_up,
                         const ProgressSnapshot& now,
                         const ProgressSnapshot& previous,
                         double since_previous_s) {
  const double seconds = std::max(since_previous_s, 1e-9);
  // Before the first measured answer there are no percentiles to show.
  const bool measured = now.measured_batches > 0;
  return absl::StrFormat(
      "[%6.1fs]%s %10.0f queries/s %8.0f batches/s  p50 %s ms  p99 %s ms  "
      "errors %d",
      elapsed_s, warming_up ? " warm-up" : "",
      static_cast<double>(now.queries_answered - previous.queries_answered) /
          seconds,
      static_cast<double>(now.batches_answered - previous.batches_answered) /
          seconds,
      measured ? FormatMs(now.p50_ns) : "-",
      measured ? FormatMs(now.p99_ns) : "-", now.errors);
}

}  // namespace collide::client::load
