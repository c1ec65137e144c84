#include "client/load/load_tool.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/load/connections.h"
#include "client/load/intervals_csv.h"
#include "client/load/latency_plot.h"
#include "client/load/load_runner.h"
#include "client/load/query_mix.h"
#include "client/load/run_description.h"
#include "client/load/summary_json.h"
#include "client/load/summary_text.h"

namespace collide::client::load {

namespace {

absl::Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

int Fail(absl::string_view what, const absl::Status& status) {
  std::fprintf(stderr, "collide-load: %s%s\n", std::string(what).c_str(),
               std::string(status.message()).c_str());
  return 1;
}

// `status` with `what` before its message.
absl::Status Prefixed(absl::string_view what, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(what, status.message()));
}

// What the reports say was asked for.
RunDescription Describe(const LoadToolOptions& options, const QueryMix& mix) {
  const LoadOptions& load = options.load;
  RunDescription run;
  run.target = options.client.target;
  run.load_balancing = options.client.load_balancing;
  run.level_id = load.level_id;
  run.connections = options.connections;
  run.streams_per_connection = load.streams_per_connection;
  run.window = load.window;
  run.batch_size = load.batch_size;
  run.rate = load.plan.rate;
  run.ramp = DescribeRamp(load.plan.ramp);
  run.warmup = options.warmup;
  run.duration = options.duration;
  run.count = load.plan.count;
  run.mix = load.replay_queries.empty()
                ? absl::StrCat(
                      mix.Describe(), ", length ", mix.options().length.min,
                      ":", mix.options().length.max, ", radius ",
                      mix.options().radius.min, ":", mix.options().radius.max)
                : absl::StrCat("replay ", options.queries_file, " (",
                               load.replay_queries.size(), " queries)");
  run.seed = load.seed;
  run.packed = load.packed;
  run.fixed_width = load.fixed_width;
  return run;
}

// Writes the CSV and plot files asked for: 1 (after saying why) when one
// cannot be written, else 0.
int WriteReportFiles(const LoadToolOptions& options, const RunDescription& run,
                     const LoadResult& result, const std::string& text) {
  if (!options.csv.empty()) {
    if (absl::Status written =
            WriteTextFile(options.csv, IntervalsCsv(result, options.load.plan));
        !written.ok()) {
      return Fail("", written);
    }
    std::fprintf(stderr, "collide-load: wrote %s\n", options.csv.c_str());
  }
  if (!options.plot.empty()) {
    if (absl::Status written =
            WriteLatencyPlot(options.plot, run, result, text);
        !written.ok()) {
      return Fail("", written);
    }
    std::fprintf(stderr, "collide-load: wrote %s\n", options.plot.c_str());
  }
  return 0;
}

}  // namespace

absl::StatusOr<LoadTool> LoadTool::Connect(LoadToolOptions options) {
  absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> clients =
      ConnectMany(options.client, options.connections);
  // The message names the flag: target (--address) or a tls_* file.
  if (!clients.ok()) return Prefixed("bad flag --", clients.status());

  const std::string& level_id = options.load.level_id;
  absl::StatusOr<v1::LevelSummary> summary =
      (*clients)[0]->DescribeLevel(level_id);
  if (!summary.ok()) {
    return Prefixed(
        absl::StrCat("cannot describe level \"", level_id, "\" at ",
                     options.client.target, ": ",
                     absl::StatusCodeToString(summary.status().code()), ": "),
        summary.status());
  }
  const v1::Aabb& bounds = summary->bounds();
  QueryMixOptions mix_options = options.mix;
  mix_options.bounds = {{bounds.lower().x(), bounds.lower().y()},
                        {bounds.upper().x(), bounds.upper().y()}};
  absl::StatusOr<QueryMix> mix = QueryMix::Create(std::move(mix_options));
  if (!mix.ok()) {
    return Prefixed(absl::StrCat("level \"", level_id, "\": "), mix.status());
  }
  return LoadTool(std::move(options), *std::move(clients), *std::move(mix));
}

LoadTool::LoadTool(LoadToolOptions options,
                   std::vector<std::unique_ptr<CollideClient>> clients,
                   QueryMix mix)
    : options_(std::move(options)),
      clients_(std::move(clients)),
      mix_(std::move(mix)),
      run_(Describe(options_, mix_)) {}

int LoadTool::Run(const std::atomic<bool>* stop_requested) {
  LoadOptions load = options_.load;
  ProgressSnapshot previous;
  double previous_s = 0;
  load.on_progress = [&](Clock::duration elapsed, const ProgressSnapshot& now) {
    const double elapsed_s = absl::ToDoubleSeconds(absl::FromChrono(elapsed));
    std::fprintf(
        stderr, "%s\n",
        ProgressLine(elapsed_s, absl::FromChrono(elapsed) < options_.warmup,
                     now, previous, elapsed_s - previous_s)
            .c_str());
    previous = now;
    previous_s = elapsed_s;
  };
  load.stop_requested = stop_requested;

  std::vector<CollideClient*> connections;
  for (const auto& client : clients_) connections.push_back(client.get());
  absl::StatusOr<LoadResult> result = RunLoad(connections, mix_, load);
  // RunLoad refuses only options that do not fit together: a bad command
  // line (exit status 2, docs/tools.md).
  if (!result.ok()) {
    Fail("bad flag --", result.status());
    return 2;
  }

  const std::string text = SummaryText(run_, *result);
  const std::string out = options_.json ? SummaryJson(run_, *result) : text;
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (int written = WriteReportFiles(options_, run_, *result, text);
      written != 0) {
    return written;
  }
  if (result->error_count() > 0 ||
      result->batches_answered < result->batches_sent) {
    std::fprintf(stderr, "collide-load: %lld errors (see the summary)\n",
                 static_cast<long long>(result->error_count()));
    return 1;
  }
  return 0;
}

}  // namespace collide::client::load
