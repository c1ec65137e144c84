#include "client/load/load_tool_options.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "client/load/query_file.h"

namespace collide::client::load {

namespace {

absl::StatusOr<RateRamp> ParseRamp(const LoadToolFlags& flags) {
  RateRamp ramp;
  if (flags.ramp == "linear") {
    ramp.shape = RampShape::kLinear;
  } else if (flags.ramp == "step") {
    ramp.shape = RampShape::kStep;
  } else if (flags.ramp != "none") {
    return absl::InvalidArgumentError(
        absl::StrCat("ramp \"", flags.ramp, "\" must be none, linear or step"));
  }
  ramp.to_rate = flags.ramp_to;
  ramp.steps = flags.ramp_steps;
  return ramp;
}

}  // namespace

absl::Duration AutoInterval(absl::Duration duration, int64_t count) {
  if (count > 0) return absl::Seconds(1);
  for (int64_t ms : {10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    if (absl::Milliseconds(ms) * 60 >= duration) return absl::Milliseconds(ms);
  }
  return absl::Seconds(10);
}

std::string DescribeRamp(const RateRamp& ramp) {
  switch (ramp.shape) {
    case RampShape::kNone:
      return "";
    case RampShape::kLinear:
      return absl::StrCat("linear to ", ramp.to_rate, " batches/s");
    case RampShape::kStep:
      return absl::StrCat(ramp.steps, " steps to ", ramp.to_rate, " batches/s");
  }
  return "";
}

absl::StatusOr<LoadToolOptions> ParseLoadToolOptions(
    const LoadToolFlags& flags) {
  LoadToolOptions options;
  ClientOptions& client = options.client;
  client.target = flags.target.empty() ? flags.address : flags.target;
  client.load_balancing = flags.load_balancing;
  client.call_timeout = flags.call_timeout;
  client.tls = flags.tls;
  client.tls_ca_file = flags.tls_ca_file;
  client.tls_cert_file = flags.tls_cert_file;
  client.tls_key_file = flags.tls_key_file;
  client.tls_server_name = flags.tls_server_name;
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> metadata =
      ParseMetadata(flags.metadata);
  if (!metadata.ok()) return metadata.status();
  client.metadata = *std::move(metadata);
  options.connections = flags.connections;

  LoadOptions& load = options.load;
  load.level_id = LevelId(flags.level);
  load.streams_per_connection = flags.streams;
  load.window = flags.window;
  load.batch_size = flags.batch_size;
  load.packed = flags.packed;
  load.fixed_width = flags.fixed_width;
  if (load.fixed_width && !load.packed) {
    return absl::InvalidArgumentError("fixed_width needs --packed");
  }
  load.plan.rate = flags.rate;
  absl::StatusOr<RateRamp> ramp = ParseRamp(flags);
  if (!ramp.ok()) return ramp.status();
  load.plan.ramp = *ramp;
  load.plan.warmup = absl::ToChronoNanoseconds(flags.warmup);
  load.plan.duration = absl::ToChronoNanoseconds(flags.duration);
  load.plan.count = flags.count;
  load.seed = flags.seed;
  load.drain_timeout = absl::ToChronoNanoseconds(flags.drain_timeout);
  const absl::Duration interval =
      flags.interval == absl::ZeroDuration()
          ? AutoInterval(flags.duration, flags.count)
          : flags.interval;
  load.interval = absl::ToChronoNanoseconds(interval);
  load.progress_interval = absl::ToChronoNanoseconds(flags.progress);
  if (absl::Status valid = ValidateLoadOptions(load); !valid.ok()) {
    return valid;
  }
  options.queries_file = flags.queries;
  if (!options.queries_file.empty()) {
    absl::StatusOr<std::vector<v1::Query>> replayed =
        ReadQueryLines(options.queries_file);
    if (!replayed.ok()) return replayed.status();
    load.replay_queries = *std::move(replayed);
  }
  options.plot = flags.plot;
  if (!options.plot.empty() &&
      !absl::EndsWithIgnoreCase(options.plot, ".svg") &&
      !absl::EndsWithIgnoreCase(options.plot, ".html") &&
      !absl::EndsWithIgnoreCase(options.plot, ".htm")) {
    return absl::InvalidArgumentError(
        absl::StrCat("plot \"", options.plot, "\" must end in .svg or .html"));
  }

  absl::StatusOr<std::vector<KindWeight>> kinds = ParseMix(flags.mix);
  if (!kinds.ok()) return kinds.status();
  options.mix.kinds = *std::move(kinds);
  absl::StatusOr<Range> length = ParseRange(flags.length, "length");
  if (!length.ok()) return length.status();
  options.mix.length = *length;
  absl::StatusOr<Range> radius = ParseRange(flags.radius, "radius");
  if (!radius.ok()) return radius.status();
  options.mix.radius = *radius;

  options.warmup = flags.warmup;
  options.duration = flags.duration;
  options.json = flags.json;
  options.csv = flags.csv;
  return options;
}

}  // namespace collide::client::load
