// The load test's picture: batch latency over the run (p50, p99 and max of
// each interval, on a log scale, against the time the batches were due or
// sent) above the histogram of every measured batch's latency. As an SVG
// file, or a self-contained HTML page with the text summary beside it.
#ifndef COLLIDE_CLIENT_LOAD_LATENCY_PLOT_H_
#define COLLIDE_CLIENT_LOAD_LATENCY_PLOT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "client/load/load_result.h"
#include "client/load/run_description.h"

namespace collide::client::load {

// A standalone SVG 1.1 document.
std::string LatencyPlotSvg(const RunDescription& run, const LoadResult& result);

// An HTML page holding the SVG and `summary_text` (pre-formatted).
std::string LatencyPlotHtml(const RunDescription& run, const LoadResult& result,
                            absl::string_view summary_text);

// Writes the SVG (path ending in ".svg") or the HTML page (".html" or
// ".htm") to `path`. INVALID_ARGUMENT naming "plot" for another extension;
// the I/O error, naming the path, when it cannot be written.
absl::Status WriteLatencyPlot(const std::string& path,
                              const RunDescription& run,
                              const LoadResult& result,
                              absl::string_view summary_text);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LATENCY_PLOT_H_
