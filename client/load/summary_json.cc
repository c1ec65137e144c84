// nlohmann/json aborts instead of throwing here (-fno-exceptions); nothing
// below can fail: only numbers and strings are stored, and dump() replaces
// invalid UTF-8 instead of failing on it.
#include "client/load/summary_json.h"

#include <cstdint>

#include "absl/status/status.h"
#include "client/load/summary_text.h"
#include "nlohmann/json.hpp"

namespace collide::client::load {

namespace {

using Json = nlohmann::ordered_json;

double Ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

Json LatencyJson(const LatencyHistogram& latency) {
  Json json = Json::object();
  json["min"] = Ms(latency.min());
  for (const Percentile& p : kReportedPercentiles) {
    json[p.name] = Ms(latency.ValueAtQuantile(p.quantile));
  }
  json["max"] = Ms(latency.max());
  json["mean"] = latency.mean() / 1e6;
  json["count"] = latency.count();
  return json;
}

}  // namespace

std::string SummaryJson(const RunDescription& run, const LoadResult& result) {
  Json json = Json::object();
  Json& settings = json["run"];
  settings["target"] = run.target;
  settings["load_balancing"] = run.load_balancing;
  settings["level"] = run.level_id;
  settings["loop"] = run.rate > 0 ? "open" : "closed";
  settings["rate_batches_per_s"] = run.rate;
  settings["ramp"] = run.ramp;
  settings["connections"] = run.connections;
  settings["streams_per_connection"] = run.streams_per_connection;
  settings["window"] = run.window;
  settings["batch_size"] = run.batch_size;
  settings["packed"] = run.packed;
  settings["fixed_width"] = run.fixed_width;
  settings["warmup_s"] = absl::ToDoubleSeconds(run.warmup);
  settings["duration_s"] =
      run.count > 0 ? 0.0 : absl::ToDoubleSeconds(run.duration);
  settings["count"] = run.count;
  settings["mix"] = run.mix;
  settings["seed"] = run.seed;

  json["measured_s"] = absl::ToDoubleSeconds(result.elapsed);
  json["interrupted"] = result.interrupted;
  json["warmup_batches"] = result.warmup_batches;
  json["batches_sent"] = result.batches_sent;
  json["batches_answered"] = result.batches_answered;
  json["queries_answered"] = result.queries_answered;
  json["queries_ok"] = result.queries_ok;
  json["batches_per_s"] = result.BatchesPerSecond();
  json["queries_per_s"] = result.QueriesPerSecond();
  json["max_send_lag_ms"] = absl::ToDoubleMilliseconds(result.max_send_lag);
  json["latency_ms"] = LatencyJson(result.latency);

  Json& errors = json["errors"];
  errors = Json::array();
  for (const auto& [key, count] : result.errors) {
    errors.push_back({{"where", ErrorOriginName(key.origin)},
                      {"code", static_cast<int>(key.code)},
                      {"status", absl::StatusCodeToString(key.code)},
                      {"count", count.count},
                      {"example", count.example}});
  }
  json["error_count"] = result.error_count();

  Json& histogram = json["histogram"];
  histogram = Json::array();
  for (const LatencyHistogram::Bucket& bucket :
       result.latency.NonEmptyBuckets()) {
    histogram.push_back({{"le_ms", Ms(bucket.upper)}, {"count", bucket.count}});
  }

  json["interval_s"] = absl::ToDoubleSeconds(result.interval);
  Json& intervals = json["intervals"];
  intervals = Json::array();
  const double width = absl::ToDoubleSeconds(result.interval);
  for (size_t i = 0; i < result.intervals.size(); ++i) {
    const IntervalStats& slot = result.intervals[i];
    intervals.push_back({{"start_s", width * static_cast<double>(i)},
                         {"batches", slot.latency.count()},
                         {"p50_ms", Ms(slot.latency.ValueAtQuantile(0.5))},
                         {"p99_ms", Ms(slot.latency.ValueAtQuantile(0.99))},
                         {"max_ms", Ms(slot.latency.max())},
                         {"errors", slot.errors},
                         {"answered_queries_per_s",
                          static_cast<double>(slot.queries_answered) / width}});
  }
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collide::client::load
