#include "client/load/latency_plot.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "client/load/summary_text.h"
#include "client/svg/svg_layer.h"

namespace collide::client::load {

namespace {

using svg_internal::EscapeXml;
using svg_internal::FormatPixels;

constexpr double kWidth = 880;
constexpr double kHeight = 640;
constexpr double kLeft = 80;
constexpr double kRight = kWidth - 20;
// Latency over time.
constexpr double kTimeTop = 85;
constexpr double kTimeBottom = 330;
// Histogram.
constexpr double kHistTop = 400;
constexpr double kHistBottom = 590;

struct Series {
  const char* name;
  const char* colour;
  // The quantile plotted; 1 plots the exact maximum.
  double quantile;
};
constexpr Series kP50 = {"p50", "#1971c2", 0.5};
constexpr Series kP99 = {"p99", "#e8590c", 0.99};
constexpr Series kMax = {"max", "#c92a2a", 1.0};

// The 1-2-5 steps (ns) from the largest one <= lo to the smallest >= hi.
std::vector<int64_t> Steps125(int64_t lo, int64_t hi) {
  std::vector<int64_t> steps;
  for (int64_t decade = 1; decade <= int64_t{1} << 50; decade *= 10) {
    for (int64_t m : {1, 2, 5}) {
      const int64_t step = m * decade;
      if (step <= lo)
        steps.assign(1, step);
      else if (steps.empty() || steps.back() < hi)
        steps.push_back(step);
    }
  }
  return steps;
}

// A "nice" tick spacing (1, 2 or 5 times a power of ten) giving at most
// `most` ticks over `span`.
double NiceStep(double span, int most) {
  const double raw = std::max(span, 1e-9) / most;
  const double decade = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * decade >= raw) return m * decade;
  }
  return 10 * decade;
}

// `text` for an HTML <pre>: & < > escaped, lines kept.
std::string EscapePre(absl::string_view text) {
  return absl::StrReplaceAll(text,
                             {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}});
}

std::string Text(double x, double y, absl::string_view text,
                 absl::string_view attributes = "") {
  return absl::StrCat("<text x=\"", FormatPixels(x), "\" y=\"", FormatPixels(y),
                      "\"", attributes, ">", EscapeXml(text), "</text>\n");
}

std::string Line(double x1, double y1, double x2, double y2,
                 absl::string_view attributes) {
  return absl::StrCat("<line x1=\"", FormatPixels(x1), "\" y1=\"",
                      FormatPixels(y1), "\" x2=\"", FormatPixels(x2),
                      "\" y2=\"", FormatPixels(y2), "\"", attributes, "/>\n");
}

// The latency-over-time panel.
std::string TimePanel(const LoadResult& result) {
  std::string svg = Text(kLeft, kTimeTop - 12,
                         "batch latency over the run (ms, log scale), per "
                         "interval of the batches' intended send times",
                         " class=\"title\"");
  const double width_s = absl::ToDoubleSeconds(result.interval);
  int64_t lo = 0;
  int64_t hi = 0;
  for (const IntervalStats& slot : result.intervals) {
    if (slot.latency.count() == 0) continue;
    const int64_t p50 = slot.latency.ValueAtQuantile(0.5);
    lo = lo == 0 ? p50 : std::min(lo, p50);
    hi = std::max(hi, slot.latency.max());
  }
  if (hi == 0) {
    return svg + Text(kLeft + 10, (kTimeTop + kTimeBottom) / 2,
                      "no batch was answered");
  }
  std::vector<int64_t> ticks = Steps125(std::max<int64_t>(lo, 1000), hi);
  if (ticks.size() < 2) ticks.push_back(ticks.back() * 2);
  const double log_lo = std::log10(static_cast<double>(ticks.front()));
  const double log_hi = std::log10(static_cast<double>(ticks.back()));
  auto y_of = [&](int64_t ns) {
    const double v = std::log10(std::max(static_cast<double>(ns), 1.0));
    const double f = (v - log_lo) / (log_hi - log_lo);
    return kTimeBottom - std::clamp(f, 0.0, 1.0) * (kTimeBottom - kTimeTop);
  };
  // Up to the last interval with batches due or sent: later ones only
  // count answers (an overloaded run's drain), which this panel does not
  // show.
  size_t shown = 0;
  for (size_t i = 0; i < result.intervals.size(); ++i) {
    if (result.intervals[i].latency.count() > 0) shown = i + 1;
  }
  const double span_s = std::max(width_s * static_cast<double>(shown), 1e-3);
  auto x_of = [&](double s) { return kLeft + s / span_s * (kRight - kLeft); };
  // Grid and axes.
  const bool sparse = ticks.size() > 10;
  for (int64_t tick : ticks) {
    const bool decade =
        std::abs(std::log10(static_cast<double>(tick)) -
                 std::round(std::log10(static_cast<double>(tick)))) < 1e-9;
    if (sparse && !decade) continue;
    const double y = y_of(tick);
    svg += Line(kLeft, y, kRight, y, " class=\"grid\"");
    svg += Text(kLeft - 6, y + 4, FormatMs(tick), " class=\"ytick\"");
  }
  const double step = NiceStep(span_s, 10);
  for (double s = 0; s <= span_s * (1 + 1e-9); s += step) {
    svg +=
        Line(x_of(s), kTimeBottom, x_of(s), kTimeBottom + 4, " class=\"axis\"");
    svg += Text(x_of(s), kTimeBottom + 18, absl::StrFormat("%g", s),
                " class=\"xtick\"");
  }
  svg += Text((kLeft + kRight) / 2, kTimeBottom + 36,
              "seconds after the warm-up", " class=\"xlabel\"");
  svg += Line(kLeft, kTimeBottom, kRight, kTimeBottom, " class=\"axis\"");
  svg += Line(kLeft, kTimeTop, kLeft, kTimeBottom, " class=\"axis\"");
  // One polyline per series and per run of non-empty intervals.
  const bool dots = shown <= 120;
  for (const Series& series : {kMax, kP99, kP50}) {
    std::string points;
    auto flush = [&] {
      if (!points.empty()) {
        absl::StrAppend(&svg, "<polyline points=\"", points,
                        "\" fill=\"none\" stroke=\"", series.colour,
                        "\" stroke-width=\"1.5\"/>\n");
      }
      points.clear();
    };
    for (size_t i = 0; i < shown; ++i) {
      const LatencyHistogram& latency = result.intervals[i].latency;
      if (latency.count() == 0) {
        flush();
        continue;
      }
      const int64_t value = latency.ValueAtQuantile(series.quantile);
      const double x = x_of((static_cast<double>(i) + 0.5) * width_s);
      const double y = y_of(value);
      absl::StrAppend(&points, points.empty() ? "" : " ", FormatPixels(x), ",",
                      FormatPixels(y));
      if (dots) {
        absl::StrAppend(&svg, "<circle cx=\"", FormatPixels(x), "\" cy=\"",
                        FormatPixels(y), "\" r=\"2\" fill=\"", series.colour,
                        "\"><title>", series.name, " ", FormatMs(value),
                        " ms</title></circle>\n");
      }
    }
    flush();
  }
  // Legend.
  double legend_x = kRight - 200;
  for (const Series& series : {kP50, kP99, kMax}) {
    svg += Line(
        legend_x, kTimeTop + 12, legend_x + 20, kTimeTop + 12,
        absl::StrCat(" stroke=\"", series.colour, "\" stroke-width=\"3\""));
    svg += Text(legend_x + 24, kTimeTop + 16, series.name);
    legend_x += 65;
  }
  return svg;
}

// The histogram panel: one bar per 1-2-5 latency range.
std::string HistogramPanel(const LoadResult& result) {
  std::string svg =
      Text(kLeft, kHistTop - 12,
           absl::StrCat("histogram of batch latency (", result.latency.count(),
                        " batches; share of batches per range, ms)"),
           " class=\"title\"");
  const std::vector<HistogramRow> rows = HistogramRows(result.latency);
  if (rows.empty()) return svg;
  int64_t largest = 0;
  for (const HistogramRow& row : rows) largest = std::max(largest, row.count);
  const double total = static_cast<double>(result.latency.count());
  const double bar = (kRight - kLeft) / static_cast<double>(rows.size());
  const size_t label_every = std::max<size_t>(1, rows.size() / 12);
  svg += Line(kLeft, kHistBottom, kRight, kHistBottom, " class=\"axis\"");
  for (size_t i = 0; i < rows.size(); ++i) {
    const double share = static_cast<double>(rows[i].count) / total;
    const double height = static_cast<double>(rows[i].count) /
                          static_cast<double>(largest) *
                          (kHistBottom - kHistTop - 20);
    const double x = kLeft + bar * static_cast<double>(i);
    const std::string range =
        absl::StrCat(i == 0 ? "" : FormatMs(rows[i - 1].upper_ns), " .. ",
                     FormatMs(rows[i].upper_ns), " ms");
    absl::StrAppend(&svg, "<rect x=\"", FormatPixels(x + 1), "\" y=\"",
                    FormatPixels(kHistBottom - height), "\" width=\"",
                    FormatPixels(std::max(bar - 2, 1.0)), "\" height=\"",
                    FormatPixels(height), "\" class=\"bar\"><title>",
                    EscapeXml(range), ": ", rows[i].count, " batches (",
                    absl::StrFormat("%.2f", 100 * share),
                    "%)</title></rect>\n");
    if (rows[i].count > 0) {
      svg += Text(x + bar / 2, kHistBottom - height - 4,
                  absl::StrFormat("%.3g%%", 100 * share), " class=\"share\"");
    }
    if (i % label_every == 0) {
      svg += Text(x + bar / 2, kHistBottom + 16,
                  absl::StrCat("<=", FormatMs(rows[i].upper_ns)),
                  " class=\"xtick\"");
    }
  }
  return svg;
}

// Two heading lines: what was measured where, and what came out.
std::string Heading(const RunDescription& run) {
  return absl::StrFormat(
      "collide-load against %s, level %s: %s, %d x %d streams, window %d, "
      "%d queries per batch",
      run.target, run.level_id,
      run.rate > 0 ? absl::StrFormat("open loop at %.6g batches/s", run.rate)
                   : std::string("closed loop"),
      run.connections, run.streams_per_connection, run.window, run.batch_size);
}

std::string Outcome(const LoadResult& result) {
  return absl::StrFormat(
      "%.0f queries/s, %.0f batches/s; batch latency p50 %s ms, p99 %s ms, "
      "max %s ms; %d errors",
      result.QueriesPerSecond(), result.BatchesPerSecond(),
      FormatMs(result.latency.ValueAtQuantile(0.5)),
      FormatMs(result.latency.ValueAtQuantile(0.99)),
      FormatMs(result.latency.max()), result.error_count());
}

constexpr absl::string_view kStyle =
    "text{font-family:sans-serif;font-size:12px;fill:#212529}"
    ".title{font-size:13px;font-weight:bold}"
    ".heading{font-size:13px}"
    ".ytick{text-anchor:end}.xtick,.xlabel,.share{text-anchor:middle}"
    ".share{font-size:10px}"
    ".grid{stroke:#dee2e6;stroke-width:1}.axis{stroke:#495057;stroke-width:1}"
    ".bar{fill:#4dabf7}";

}  // namespace

std::string LatencyPlotSvg(const RunDescription& run,
                           const LoadResult& result) {
  return absl::StrCat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"",
      kWidth, "\" height=\"", kHeight, "\" viewBox=\"0 0 ", kWidth, " ",
      kHeight, "\">\n<style>", kStyle, "</style>\n",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      Text(20, 22, Heading(run), " class=\"heading\""),
      Text(20, 42, Outcome(result), " class=\"heading\""), TimePanel(result),
      HistogramPanel(result), "</svg>\n");
}

std::string LatencyPlotHtml(const RunDescription& run, const LoadResult& result,
                            absl::string_view summary_text) {
  std::string svg = LatencyPlotSvg(run, result);
  // Inline SVG in HTML takes no XML declaration.
  svg.erase(0, svg.find("<svg"));
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>",
      EscapeXml(Heading(run)),
      "</title>\n<style>body{font-family:sans-serif;margin:1em}"
      "pre{font-size:12px}</style>\n</head>\n<body>\n",
      svg, "<pre>", EscapePre(summary_text), "</pre>\n</body>\n</html>\n");
}

absl::Status WriteLatencyPlot(const std::string& path,
                              const RunDescription& run,
                              const LoadResult& result,
                              absl::string_view summary_text) {
  std::string content;
  if (absl::EndsWithIgnoreCase(path, ".svg")) {
    content = LatencyPlotSvg(run, result);
  } else if (absl::EndsWithIgnoreCase(path, ".html") ||
             absl::EndsWithIgnoreCase(path, ".htm")) {
    content = LatencyPlotHtml(run, result, summary_text);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("plot \"", path, "\" must end in .svg or .html"));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) {
    return absl::UnavailableError(
        absl::StrCat("plot: cannot write ", path, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace collide::client::load
