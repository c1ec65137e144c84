// collide-load's command line: the flag values as given (LoadToolFlags,
// copied from the flags load_test_main.cc defines) and what they ask for,
// parsed and checked (LoadToolOptions), ready for RunLoadTool (load_tool.h).
#ifndef COLLIDE_CLIENT_LOAD_LOAD_TOOL_OPTIONS_H_
#define COLLIDE_CLIENT_LOAD_LOAD_TOOL_OPTIONS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/load/load_runner.h"
#include "client/load/query_mix.h"
#include "client/load/run_plan.h"

namespace collide::client::load {

// One member per flag of collide-load, same name, same default.
struct LoadToolFlags {
  std::string address = "127.0.0.1:50051";
  std::string target;  // wins over address when set
  std::string load_balancing = "round_robin";
  std::string level = "arena";
  int connections = 1;
  int streams = 4;
  int window = 4;
  int batch_size = 16;
  bool packed = false;
  bool fixed_width = false;
  double rate = 0;
  std::string ramp = "none";
  double ramp_to = 0;
  int ramp_steps = 5;
  absl::Duration duration = absl::Seconds(10);
  int64_t count = 0;
  absl::Duration warmup = absl::Seconds(1);
  std::string mix = "ray=6,circle=3,polygon=1";
  std::string queries;
  std::string length = "1:20";
  std::string radius = "0.25:1";
  uint64_t seed = 1;
  bool json = false;
  std::string plot;
  std::string csv;
  absl::Duration progress = absl::Seconds(1);
  absl::Duration interval = absl::ZeroDuration();
  absl::Duration drain_timeout = absl::Seconds(30);
  bool tls = false;
  std::string tls_ca_file;
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string tls_server_name;
  std::vector<std::string> metadata;
  absl::Duration call_timeout = absl::Seconds(10);
};

// A load test as collide-load runs it.
struct LoadToolOptions {
  // Where and how to connect: target, load balancing, TLS, metadata and the
  // deadline of the first DescribeLevel. Its files are read on connecting.
  ClientOptions client;
  // TCP connections (channels), checked on connecting (>= 1).
  int connections = 1;
  // The run, checked by ValidateLoadOptions; replay_queries holds the
  // --queries file's queries. on_progress and stop_requested are left to
  // the runner.
  LoadOptions load;
  // The --queries file, named in the reports; empty: the mix.
  std::string queries_file;
  // The generated queries' kinds, lengths and radii; the bounds are the
  // level's, known once the server has described it.
  QueryMixOptions mix;
  // The warm-up and measured duration as given (the reports print them).
  absl::Duration warmup;
  absl::Duration duration;
  bool json = false;
  // Plot file (.svg, .html or .htm, any case) and CSV file; empty: none.
  std::string plot;
  std::string csv;
};

// Parses and checks `flags` in command-line order of dependence, without
// contacting a server: INVALID_ARGUMENT whose message starts with the flag's
// name ("window must be >= 1, not 0", "ramp \"up\" must be none, linear or
// step"); the --queries file's own error when it cannot be read.
absl::StatusOr<LoadToolOptions> ParseLoadToolOptions(
    const LoadToolFlags& flags);

// The time series' interval when --interval is 0: one second with a count,
// else the first 1-2-5 step (10 ms to 10 s) giving at most about 60
// intervals over `duration`.
absl::Duration AutoInterval(absl::Duration duration, int64_t count);

// How the reports name a ramp: "" for none, "linear to R batches/s",
// "N steps to R batches/s".
std::string DescribeRamp(const RateRamp& ramp);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LOAD_TOOL_OPTIONS_H_
