// collide-load: a load tester for collide servers, in the manner of ghz and
// wrk2. Opens --connections TCP connections (channels) to --address, each
// with --streams QueryStreams, and sends batches of --batch_size queries
// drawn from --mix inside the level's bounds:
//
//   closed loop (--rate=0): every stream keeps --window batches in flight;
//   open loop (--rate=N): N batches per second over all streams on a fixed
//     schedule, each batch's latency measured from when it was due, so a
//     server that falls behind shows growing latency (no coordinated
//     omission).
//
// After --warmup it measures for --duration (or --count batches), prints a
// progress line every --progress on stderr, then a summary on stdout (text,
// or JSON with --json) and, with --plot=FILE.svg|.html, a latency-over-time
// plot with the histogram.
//
// What ghz users reach for: --ramp=step|linear with --ramp_to (the open
// loop's rate moves from --rate to --ramp_to over --duration, --ramp_steps
// steps), --csv=FILE (per-interval figures with the target rate),
// --queries=FILE (replay JSON lines of collide.v1.Query instead of --mix),
// --metadata=key:value (repeatable, sent on every call and stream, e.g.
// "authorization:Bearer TOKEN"), and TLS (--tls, --tls_ca_file,
// --tls_cert_file, --tls_key_file, --tls_server_name). The level is named
// by id (arena) or full name (levels/arena). --packed sends every batch in
// the packed form (packed_rays / packed_circles columns; the mix must then
// be one kind, ray or circle).
//
// Ctrl-C (SIGINT) or SIGTERM stops sending, waits for the answers in
// flight, and reports the run so far.
//
// Exit status: 0 when every measured batch and query was answered without
// error; 2 when the run finished with errors (counted in the summary); 1 for
// a bad flag (unknown, or a value that does not parse, named in the
// message) or when the server or level cannot be reached.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/load/connections.h"
#include "client/load/intervals_csv.h"
#include "client/load/latency_plot.h"
#include "client/load/load_runner.h"
#include "client/load/query_file.h"
#include "client/load/query_mix.h"
#include "client/load/run_description.h"
#include "client/load/summary_json.h"
#include "client/load/summary_text.h"
#include "client/lib/tool_command_line.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051",
          "Server: host:port; several IP:port separated by commas (one per "
          "replica); or a gRPC target such as dns:///name:port (every "
          "address it resolves to is used).");
ABSL_FLAG(std::string, target, "", "Same as --address (wins when set).");
ABSL_FLAG(std::string, load_balancing, "round_robin",
          "round_robin (spread streams over every address) or pick_first.");
ABSL_FLAG(std::string, level, "arena",
          "Level to query: its id (arena) or full name (levels/arena).");
ABSL_FLAG(int, connections, 1,
          "TCP connections (gRPC channels) to open, each with --streams "
          "streams.");
ABSL_FLAG(int, streams, 4, "Streams per connection.");
ABSL_FLAG(int, window, 4,
          "Batches in flight per stream at most (closed loop: always).");
ABSL_FLAG(int, batch_size, 16, "Queries per batch.");
ABSL_FLAG(bool, packed, false,
          "Send each batch in the packed form (packed_rays or packed_circles "
          "columns instead of one Query message per query); the --mix or "
          "--queries file must then hold one kind, ray or circle, e.g. "
          "--mix=ray.");
ABSL_FLAG(bool, fixed_width, false,
          "With --packed: ask for the packed results in fixed-width columns "
          "(fixed_width_results: hit_status_fixed, shape_id_fixed, ...), "
          "cheaper to write and read than varints.");
ABSL_FLAG(double, rate, 0,
          "Open loop: batches per second over all streams (queries/s = rate "
          "x batch_size). 0: closed loop.");
ABSL_FLAG(std::string, ramp, "none",
          "Open loop: how the rate changes while measuring: none, linear "
          "(from --rate to --ramp_to over --duration) or step (--ramp_steps "
          "equal steps from --rate to --ramp_to). The warm-up runs at "
          "--rate.");
ABSL_FLAG(double, ramp_to, 0,
          "With --ramp: batches per second at the end of --duration.");
ABSL_FLAG(int, ramp_steps, 5,
          "With --ramp=step: how many rates, the first --rate and the last "
          "--ramp_to (>= 2).");
ABSL_FLAG(absl::Duration, duration, absl::Seconds(10),
          "How long to measure after the warm-up.");
ABSL_FLAG(int64_t, count, 0,
          "When > 0: measure this many batches instead of --duration.");
ABSL_FLAG(absl::Duration, warmup, absl::Seconds(1),
          "Load sent before measuring starts (not counted).");
ABSL_FLAG(std::string, mix, "ray=6,circle=3,polygon=1",
          "Query kinds and weights: ray, circle, polygon, capsule, move "
          "(move validation with slide), shot (hit validation, 4 moving "
          "targets).");
ABSL_FLAG(std::string, queries, "",
          "Replay the queries of this file instead of --mix: JSON lines, "
          "each a collide.v1.Query in protobuf JSON, sent in order and "
          "cycled through.");
ABSL_FLAG(std::string, length, "1:20",
          "Translation length range MIN:MAX (level units).");
ABSL_FLAG(std::string, radius, "0.25:1",
          "Radius range MIN:MAX of circles and capsules, circumradius of "
          "polygons (level units).");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the query generator.");
ABSL_FLAG(bool, json, false, "Print the summary as JSON instead of text.");
ABSL_FLAG(std::string, plot, "",
          "Write a latency-over-time plot with the histogram: FILE.svg, or "
          "FILE.html (with the summary).");
ABSL_FLAG(std::string, csv, "",
          "Write the per-interval figures (see --interval) to this CSV file: "
          "start_s, end_s, target_batches_per_s, batches and queries "
          "answered and per second, errors, p50/p90/p99/max ms.");
ABSL_FLAG(absl::Duration, progress, absl::Seconds(1),
          "Interval of progress lines on stderr; 0: none.");
ABSL_FLAG(absl::Duration, interval, absl::ZeroDuration(),
          "Interval of the plot's and JSON's time series; 0: about "
          "--duration/50 (1s with --count).");
ABSL_FLAG(absl::Duration, drain_timeout, absl::Seconds(30),
          "After the last measured send, how long to wait for answers in "
          "flight before counting them as errors.");
ABSL_FLAG(bool, tls, false,
          "Connect with TLS (implied by the other --tls_* flags); without "
          "--tls_ca_file the system's CAs verify the server.");
ABSL_FLAG(std::string, tls_ca_file, "",
          "PEM CA certificates that sign the server's certificate.");
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM client certificate (mutual TLS), with --tls_key_file.");
ABSL_FLAG(std::string, tls_key_file, "", "PEM key of --tls_cert_file.");
ABSL_FLAG(std::string, tls_server_name, "",
          "Name the server's certificate must carry when it is not the host "
          "of --address.");
ABSL_FLAG(std::vector<std::string>, metadata, {},
          "key:value sent as metadata with every call and stream; repeat "
          "the flag for more, e.g. --metadata=\"authorization:Bearer "
          "TOKEN\" --metadata=x-tenant:blue. Keys are lower case.");
ABSL_FLAG(absl::Duration, call_timeout, absl::Seconds(10),
          "Deadline of the initial DescribeLevel call.");

namespace {

namespace load = collide::client::load;
using collide::client::ClientOptions;
using collide::client::CollideClient;

// Set by the first SIGINT or SIGTERM: the run stops sending and reports
// what it measured so far. A second signal ends the program at once.
std::atomic<bool> g_stop_requested{false};

extern "C" void RequestStop(int signal_number) {
  g_stop_requested.store(true);
  std::signal(signal_number, SIG_DFL);
}

// "key:value" pairs of --metadata: INVALID_ARGUMENT naming the flag for
// one without a colon or with a key gRPC cannot send.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ParseMetadata(
    const std::vector<std::string>& pairs) {
  std::vector<std::pair<std::string, std::string>> metadata;
  for (const std::string& pair : pairs) {
    const size_t colon = pair.find(':');
    const std::string key = pair.substr(0, colon);
    const bool valid_key = !key.empty() && !absl::StartsWith(key, "grpc-") &&
                           std::all_of(key.begin(), key.end(), [](char c) {
                             return absl::ascii_islower(c) ||
                                    absl::ascii_isdigit(c) || c == '-' ||
                                    c == '_' || c == '.';
                           });
    if (colon == std::string::npos || !valid_key) {
      return absl::InvalidArgumentError(absl::StrCat(
          "metadata \"", pair,
          "\" must be key:value with a key of lower case letters, digits, "
          "'-', '_' or '.' (not grpc-...)"));
    }
    metadata.emplace_back(key, absl::StripLeadingAsciiWhitespace(
                                   absl::string_view(pair).substr(colon + 1)));
  }
  return metadata;
}

absl::StatusOr<load::RateRamp> RampFromFlags() {
  load::RateRamp ramp;
  const std::string shape = absl::GetFlag(FLAGS_ramp);
  if (shape == "linear") {
    ramp.shape = load::RampShape::kLinear;
  } else if (shape == "step") {
    ramp.shape = load::RampShape::kStep;
  } else if (shape != "none") {
    return absl::InvalidArgumentError(
        absl::StrCat("ramp \"", shape, "\" must be none, linear or step"));
  }
  ramp.to_rate = absl::GetFlag(FLAGS_ramp_to);
  ramp.steps = absl::GetFlag(FLAGS_ramp_steps);
  return ramp;
}

std::string DescribeRamp(const load::RateRamp& ramp) {
  switch (ramp.shape) {
    case load::RampShape::kNone:
      return "";
    case load::RampShape::kLinear:
      return absl::StrCat("linear to ", ramp.to_rate, " batches/s");
    case load::RampShape::kStep:
      return absl::StrCat(ramp.steps, " steps to ", ramp.to_rate, " batches/s");
  }
  return "";
}

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

// The time series' interval: the first 1-2-5 step (10 ms to 10 s) giving at
// most about 60 intervals over the run.
absl::Duration AutoInterval(absl::Duration duration, int64_t count) {
  if (count > 0) return absl::Seconds(1);
  for (int64_t ms : {10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    if (absl::Milliseconds(ms) * 60 >= duration) return absl::Milliseconds(ms);
  }
  return absl::Seconds(10);
}

}  // namespace

int main(int argc, char** argv) {
  collide::client::tools::SetToolUsage(
      "Load-tests a collide server: closed or open loop (with a step or "
      "linear ramp), a seeded query mix or queries replayed from a file, "
      "latency percentiles, errors by status code, JSON, CSV and a plot.\n"
      "  collide-load --address=127.0.0.1:50051 [--rate=2000] "
      "[--duration=30s] [--plot=load.html]\n"
      "  collide-load --rate=500 --ramp=linear --ramp_to=5000 --duration=60s "
      "--csv=ramp.csv\n"
      "Exit status: 0 no errors, 2 the run had errors, 1 a bad flag or no "
      "server or level.",
      __FILE__);
  std::vector<char*> args(argv, argv + argc);
  // Every --metadata counts (Abseil keeps only a flag's last value).
  absl::SetFlag(&FLAGS_metadata,
                collide::client::tools::TakeRepeatedFlag(args, "metadata"));
  if (absl::Status flags = collide::client::tools::CheckFlags(args);
      !flags.ok()) {
    return Fail("bad flag ", flags);
  }
  const std::vector<char*> positional =
      collide::client::tools::ParseToolCommandLine(args);
  if (positional.size() > 1) {
    std::fprintf(stderr,
                 "collide-load: unexpected argument \"%s\" (flags only; see "
                 "--help)\n",
                 positional[1]);
    return 1;
  }

  ClientOptions client_options;
  client_options.target = absl::GetFlag(FLAGS_target).empty()
                              ? absl::GetFlag(FLAGS_address)
                              : absl::GetFlag(FLAGS_target);
  client_options.load_balancing = absl::GetFlag(FLAGS_load_balancing);
  client_options.call_timeout = absl::GetFlag(FLAGS_call_timeout);
  client_options.tls = absl::GetFlag(FLAGS_tls);
  client_options.tls_ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  client_options.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  client_options.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  client_options.tls_server_name = absl::GetFlag(FLAGS_tls_server_name);
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> metadata =
      ParseMetadata(absl::GetFlag(FLAGS_metadata));
  if (!metadata.ok()) return Fail("bad flag --", metadata.status());
  client_options.metadata = *std::move(metadata);

  load::LoadOptions options;
  options.level_id = collide::client::LevelId(absl::GetFlag(FLAGS_level));
  options.streams_per_connection = absl::GetFlag(FLAGS_streams);
  options.window = absl::GetFlag(FLAGS_window);
  options.batch_size = absl::GetFlag(FLAGS_batch_size);
  options.packed = absl::GetFlag(FLAGS_packed);
  options.fixed_width = absl::GetFlag(FLAGS_fixed_width);
  if (options.fixed_width && !options.packed) {
    return Fail("bad flag --fixed_width",
                absl::InvalidArgumentError("needs --packed"));
  }
  options.plan.rate = absl::GetFlag(FLAGS_rate);
  absl::StatusOr<load::RateRamp> ramp = RampFromFlags();
  if (!ramp.ok()) return Fail("bad flag --", ramp.status());
  options.plan.ramp = *ramp;
  options.plan.warmup = absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_warmup));
  options.plan.duration =
      absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_duration));
  options.plan.count = absl::GetFlag(FLAGS_count);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.drain_timeout =
      absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_drain_timeout));
  absl::Duration interval = absl::GetFlag(FLAGS_interval);
  if (interval == absl::ZeroDuration()) {
    interval = AutoInterval(absl::GetFlag(FLAGS_duration), options.plan.count);
  }
  options.interval = absl::ToChronoNanoseconds(interval);
  options.progress_interval =
      absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_progress));
  if (absl::Status valid = load::ValidateLoadOptions(options); !valid.ok()) {
    return Fail("bad flag --", valid);
  }
  const std::string queries_file = absl::GetFlag(FLAGS_queries);
  if (!queries_file.empty()) {
    absl::StatusOr<std::vector<collide::v1::Query>> replayed =
        load::ReadQueryLines(queries_file);
    if (!replayed.ok()) return Fail("bad flag --", replayed.status());
    options.replay_queries = *std::move(replayed);
  }
  const std::string plot = absl::GetFlag(FLAGS_plot);
  if (!plot.empty() && !absl::EndsWithIgnoreCase(plot, ".svg") &&
      !absl::EndsWithIgnoreCase(plot, ".html") &&
      !absl::EndsWithIgnoreCase(plot, ".htm")) {
    return Fail("bad flag --",
                absl::InvalidArgumentError(absl::StrCat(
                    "plot \"", plot, "\" must end in .svg or .html")));
  }

  load::QueryMixOptions mix_options;
  absl::StatusOr<std::vector<load::KindWeight>> kinds =
      load::ParseMix(absl::GetFlag(FLAGS_mix));
  if (!kinds.ok()) return Fail("bad flag --", kinds.status());
  mix_options.kinds = *kinds;
  absl::StatusOr<load::Range> length =
      load::ParseRange(absl::GetFlag(FLAGS_length), "length");
  if (!length.ok()) return Fail("bad flag --", length.status());
  mix_options.length = *length;
  absl::StatusOr<load::Range> radius =
      load::ParseRange(absl::GetFlag(FLAGS_radius), "radius");
  if (!radius.ok()) return Fail("bad flag --", radius.status());
  mix_options.radius = *radius;

  absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> clients =
      load::ConnectMany(client_options, absl::GetFlag(FLAGS_connections));
  if (!clients.ok()) {
    // The message names the flag: target (--address) or a tls_* file.
    return Fail("bad flag --", clients.status());
  }

  // The level's bounds, which is also the check that the server is there.
  absl::StatusOr<collide::v1::LevelSummary> summary =
      (*clients)[0]->DescribeLevel(options.level_id);
  if (!summary.ok()) {
    return Fail(
        absl::StrCat("cannot describe level \"", options.level_id, "\" at ",
                     client_options.target, ": ",
                     absl::StatusCodeToString(summary.status().code()), ": "),
        summary.status());
  }
  const collide::v1::Aabb& bounds = summary->bounds();
  mix_options.bounds = {{bounds.lower().x(), bounds.lower().y()},
                        {bounds.upper().x(), bounds.upper().y()}};
  absl::StatusOr<load::QueryMix> mix =
      load::QueryMix::Create(std::move(mix_options));
  if (!mix.ok()) {
    return Fail(absl::StrCat("level \"", options.level_id, "\": "),
                mix.status());
  }

  load::RunDescription run;
  run.target = client_options.target;
  run.load_balancing = client_options.load_balancing;
  run.level_id = options.level_id;
  run.connections = absl::GetFlag(FLAGS_connections);
  run.streams_per_connection = options.streams_per_connection;
  run.window = options.window;
  run.batch_size = options.batch_size;
  run.rate = options.plan.rate;
  run.ramp = DescribeRamp(options.plan.ramp);
  run.warmup = absl::GetFlag(FLAGS_warmup);
  run.duration = absl::GetFlag(FLAGS_duration);
  run.count = options.plan.count;
  run.mix = options.replay_queries.empty()
                ? absl::StrCat(
                      mix->Describe(), ", length ", mix->options().length.min,
                      ":", mix->options().length.max, ", radius ",
                      mix->options().radius.min, ":", mix->options().radius.max)
                : absl::StrCat("replay ", queries_file, " (",
                               options.replay_queries.size(), " queries)");
  run.seed = options.seed;
  run.packed = options.packed;
  run.fixed_width = options.fixed_width;

  const absl::Duration warmup = run.warmup;
  load::ProgressSnapshot previous;
  double previous_s = 0;
  options.on_progress = [&](load::Clock::duration elapsed,
                            const load::ProgressSnapshot& now) {
    const double elapsed_s = absl::ToDoubleSeconds(absl::FromChrono(elapsed));
    std::fprintf(
        stderr, "%s\n",
        load::ProgressLine(elapsed_s, absl::FromChrono(elapsed) < warmup, now,
                           previous, elapsed_s - previous_s)
            .c_str());
    previous = now;
    previous_s = elapsed_s;
  };

  options.stop_requested = &g_stop_requested;
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);

  std::vector<CollideClient*> connections;
  for (const auto& client : *clients) connections.push_back(client.get());
  absl::StatusOr<load::LoadResult> result =
      load::RunLoad(connections, *mix, options);
  if (!result.ok()) return Fail("bad flag --", result.status());

  const std::string text = load::SummaryText(run, *result);
  const std::string out =
      absl::GetFlag(FLAGS_json) ? load::SummaryJson(run, *result) : text;
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (const std::string csv = absl::GetFlag(FLAGS_csv); !csv.empty()) {
    if (absl::Status written =
            WriteTextFile(csv, load::IntervalsCsv(*result, options.plan));
        !written.ok()) {
      return Fail("", written);
    }
    std::fprintf(stderr, "collide-load: wrote %s\n", csv.c_str());
  }
  if (!plot.empty()) {
    if (absl::Status written = load::WriteLatencyPlot(plot, run, *result, text);
        !written.ok()) {
      return Fail("", written);
    }
    std::fprintf(stderr, "collide-load: wrote %s\n", plot.c_str());
  }
  if (result->error_count() > 0 ||
      result->batches_answered < result->batches_sent) {
    std::fprintf(stderr, "collide-load: %lld errors (see the summary)\n",
                 static_cast<long long>(result->error_count()));
    return 2;
  }
  return 0;
}
