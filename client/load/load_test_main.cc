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
// Exit status (docs/tools.md): 0 when every measured batch and query was
// answered without error; 1 when the run finished with errors (counted in
// the summary) or the server or level cannot be reached; 2 for a bad
// command line (a flag unknown, a value that does not parse or does not fit
// the others, named in the message).
#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "client/load/load_tool.h"
#include "client/load/load_tool_options.h"
#include "proto/formats/tool_command_line.h"

namespace {

// The flags' defaults: LoadToolFlags holds them.
const collide::client::load::LoadToolFlags& Defaults() {
  static const auto* const defaults = new collide::client::load::LoadToolFlags;
  return *defaults;
}

}  // namespace

ABSL_FLAG(std::string, address, Defaults().address,
          "Server: host:port; several IP:port separated by commas (one per "
          "replica); or a gRPC target such as dns:///name:port (every "
          "address it resolves to is used).");
ABSL_FLAG(std::string, target, Defaults().target,
          "Same as --address (wins when set).");
ABSL_FLAG(std::string, load_balancing, Defaults().load_balancing,
          "round_robin (spread streams over every address) or pick_first.");
ABSL_FLAG(std::string, level, Defaults().level,
          "Level to query: its id (arena) or full name (levels/arena).");
ABSL_FLAG(int, connections, Defaults().connections,
          "TCP connections (gRPC channels) to open, each with --streams "
          "streams.");
ABSL_FLAG(int, streams, Defaults().streams, "Streams per connection.");
ABSL_FLAG(int, window, Defaults().window,
          "Batches in flight per stream at most (closed loop: always).");
ABSL_FLAG(int, batch_size, Defaults().batch_size, "Queries per batch.");
ABSL_FLAG(bool, packed, Defaults().packed,
          "Send each batch in the packed form (packed_rays or packed_circles "
          "columns instead of one Query message per query); the --mix or "
          "--queries file must then hold one kind, ray or circle, e.g. "
          "--mix=ray.");
ABSL_FLAG(bool, fixed_width, Defaults().fixed_width,
          "With --packed: ask for the packed results in fixed-width columns "
          "(fixed_width_results: hit_status_fixed, shape_id_fixed, ...), "
          "cheaper to write and read than varints.");
ABSL_FLAG(double, rate, Defaults().rate,
          "Open loop: batches per second over all streams (queries/s = rate "
          "x batch_size). 0: closed loop.");
ABSL_FLAG(std::string, ramp, Defaults().ramp,
          "Open loop: how the rate changes while measuring: none, linear "
          "(from --rate to --ramp_to over --duration) or step (--ramp_steps "
          "equal steps from --rate to --ramp_to). The warm-up runs at "
          "--rate.");
ABSL_FLAG(double, ramp_to, Defaults().ramp_to,
          "With --ramp: batches per second at the end of --duration.");
ABSL_FLAG(int, ramp_steps, Defaults().ramp_steps,
          "With --ramp=step: how many rates, the first --rate and the last "
          "--ramp_to (>= 2).");
ABSL_FLAG(absl::Duration, duration, Defaults().duration,
          "How long to measure after the warm-up.");
ABSL_FLAG(int64_t, count, Defaults().count,
          "When > 0: measure this many batches instead of --duration.");
ABSL_FLAG(absl::Duration, warmup, Defaults().warmup,
          "Load sent before measuring starts (not counted).");
ABSL_FLAG(std::string, mix, Defaults().mix,
          "Query kinds and weights: ray, circle, polygon, capsule, move "
          "(move validation with slide), shot (hit validation, 4 moving "
          "targets).");
ABSL_FLAG(std::string, queries, Defaults().queries,
          "Replay the queries of this file instead of --mix: JSON lines, "
          "each a collide.v1.Query in protobuf JSON, sent in order and "
          "cycled through.");
ABSL_FLAG(std::string, length, Defaults().length,
          "Translation length range MIN:MAX (level units).");
ABSL_FLAG(std::string, radius, Defaults().radius,
          "Radius range MIN:MAX of circles and capsules, circumradius of "
          "polygons (level units).");
ABSL_FLAG(uint64_t, seed, Defaults().seed, "Seed of the query generator.");
ABSL_FLAG(bool, json, Defaults().json,
          "Print the summary as JSON instead of text.");
ABSL_FLAG(std::string, plot, Defaults().plot,
          "Write a latency-over-time plot with the histogram: FILE.svg, or "
          "FILE.html (with the summary).");
ABSL_FLAG(std::string, csv, Defaults().csv,
          "Write the per-interval figures (see --interval) to this CSV file: "
          "start_s, end_s, target_batches_per_s, batches and queries "
          "answered and per second, errors, p50/p90/p99/max ms.");
ABSL_FLAG(absl::Duration, progress, Defaults().progress,
          "Interval of progress lines on stderr; 0: none.");
ABSL_FLAG(absl::Duration, interval, Defaults().interval,
          "Interval of the plot's and JSON's time series; 0: about "
          "--duration/50 (1s with --count).");
ABSL_FLAG(absl::Duration, drain_timeout, Defaults().drain_timeout,
          "After the last measured send, how long to wait for answers in "
          "flight before counting them as errors.");
ABSL_FLAG(bool, tls, Defaults().tls,
          "Connect with TLS (implied by the other --tls_* flags); without "
          "--tls_ca_file the system's CAs verify the server.");
ABSL_FLAG(std::string, tls_ca_file, Defaults().tls_ca_file,
          "PEM CA certificates that sign the server's certificate.");
ABSL_FLAG(std::string, tls_cert_file, Defaults().tls_cert_file,
          "PEM client certificate (mutual TLS), with --tls_key_file.");
ABSL_FLAG(std::string, tls_key_file, Defaults().tls_key_file,
          "PEM key of --tls_cert_file.");
ABSL_FLAG(std::string, tls_server_name, Defaults().tls_server_name,
          "Name the server's certificate must carry when it is not the host "
          "of --address.");
ABSL_FLAG(std::vector<std::string>, metadata, Defaults().metadata,
          "key:value sent as metadata with every call and stream; repeat "
          "the flag for more, e.g. --metadata=\"authorization:Bearer "
          "TOKEN\" --metadata=x-tenant:blue. Keys are lower case.");
ABSL_FLAG(absl::Duration, timeout, Defaults().call_timeout,
          "Deadline of each unary call (the initial DescribeLevel); streams "
          "run for the whole run.");

namespace {

namespace load = collide::client::load;

// Set by the first SIGINT or SIGTERM: the run stops sending and reports
// what it measured so far. A second signal ends the program at once.
std::atomic<bool> g_stop_requested{false};

extern "C" void RequestStop(int signal_number) {
  g_stop_requested.store(true);
  std::signal(signal_number, SIG_DFL);
}

// Exit statuses: the server or a file said no; the command line is bad.
constexpr int kRefused = 1;
constexpr int kBadCommandLine = 2;

int Fail(absl::string_view what, const absl::Status& status, int exit_code) {
  std::fprintf(stderr, "collide-load: %s%s\n", std::string(what).c_str(),
               std::string(status.message()).c_str());
  return exit_code;
}

load::LoadToolFlags FlagsFromCommandLine() {
  load::LoadToolFlags flags;
  flags.address = absl::GetFlag(FLAGS_address);
  flags.target = absl::GetFlag(FLAGS_target);
  flags.load_balancing = absl::GetFlag(FLAGS_load_balancing);
  flags.level = absl::GetFlag(FLAGS_level);
  flags.connections = absl::GetFlag(FLAGS_connections);
  flags.streams = absl::GetFlag(FLAGS_streams);
  flags.window = absl::GetFlag(FLAGS_window);
  flags.batch_size = absl::GetFlag(FLAGS_batch_size);
  flags.packed = absl::GetFlag(FLAGS_packed);
  flags.fixed_width = absl::GetFlag(FLAGS_fixed_width);
  flags.rate = absl::GetFlag(FLAGS_rate);
  flags.ramp = absl::GetFlag(FLAGS_ramp);
  flags.ramp_to = absl::GetFlag(FLAGS_ramp_to);
  flags.ramp_steps = absl::GetFlag(FLAGS_ramp_steps);
  flags.duration = absl::GetFlag(FLAGS_duration);
  flags.count = absl::GetFlag(FLAGS_count);
  flags.warmup = absl::GetFlag(FLAGS_warmup);
  flags.mix = absl::GetFlag(FLAGS_mix);
  flags.queries = absl::GetFlag(FLAGS_queries);
  flags.length = absl::GetFlag(FLAGS_length);
  flags.radius = absl::GetFlag(FLAGS_radius);
  flags.seed = absl::GetFlag(FLAGS_seed);
  flags.json = absl::GetFlag(FLAGS_json);
  flags.plot = absl::GetFlag(FLAGS_plot);
  flags.csv = absl::GetFlag(FLAGS_csv);
  flags.progress = absl::GetFlag(FLAGS_progress);
  flags.interval = absl::GetFlag(FLAGS_interval);
  flags.drain_timeout = absl::GetFlag(FLAGS_drain_timeout);
  flags.tls = absl::GetFlag(FLAGS_tls);
  flags.tls_ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  flags.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  flags.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  flags.tls_server_name = absl::GetFlag(FLAGS_tls_server_name);
  flags.metadata = absl::GetFlag(FLAGS_metadata);
  flags.call_timeout = absl::GetFlag(FLAGS_timeout);
  return flags;
}

}  // namespace

int main(int argc, char** argv) {
  collide::tools::SetToolUsage(
      "Load-tests a collide server: closed or open loop (with a step or "
      "linear ramp), a seeded query mix or queries replayed from a file, "
      "latency percentiles, errors by status code, JSON, CSV and a plot.\n"
      "  collide-load --address=127.0.0.1:50051 [--rate=2000] "
      "[--duration=30s] [--plot=load.html]\n"
      "  collide-load --rate=500 --ramp=linear --ramp_to=5000 --duration=60s "
      "--csv=ramp.csv\n"
      "Exit status: 0 no errors, 1 the run had errors or the server or "
      "level cannot be reached, 2 a bad command line.",
      __FILE__, "collide-load");
  std::vector<char*> args(argv, argv + argc);
  // Every --metadata counts (Abseil keeps only a flag's last value).
  absl::SetFlag(&FLAGS_metadata,
                collide::tools::TakeRepeatedFlag(args, "metadata"));
  if (absl::Status flags = collide::tools::CheckFlags(args); !flags.ok()) {
    return Fail("bad flag ", flags, kBadCommandLine);
  }
  const std::vector<char*> positional =
      collide::tools::ParseToolCommandLine(args);
  if (positional.size() > 1) {
    std::fprintf(stderr,
                 "collide-load: unexpected argument \"%s\" (flags only; see "
                 "--help)\n",
                 positional[1]);
    return kBadCommandLine;
  }
  absl::StatusOr<load::LoadToolOptions> options =
      load::ParseLoadToolOptions(FlagsFromCommandLine());
  if (!options.ok()) {
    return Fail("bad flag --", options.status(), kBadCommandLine);
  }
  absl::StatusOr<load::LoadTool> tool =
      load::LoadTool::Connect(*std::move(options));
  if (!tool.ok()) {
    // Flags that do not fit the level (a --packed mix of two kinds) are a
    // bad command line; a server that cannot describe the level refused.
    const bool refused =
        !absl::IsInvalidArgument(tool.status()) ||
        absl::StartsWith(tool.status().message(), "cannot describe");
    return Fail("", tool.status(), refused ? kRefused : kBadCommandLine);
  }
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  return tool->Run(&g_stop_requested);
}
