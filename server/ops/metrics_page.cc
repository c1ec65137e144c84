#include "server/ops/metrics_page.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/version.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/stubs/common.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/level_snapshot.h"
#include "server/levels/level_store.h"
#include "server/ops/metrics.h"
#include "server/ops/process_metrics.h"
#include "server/ops/rpc_metrics.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

void AppendQueries(const ServerMetrics& metrics, ExpositionWriter& writer) {
  writer.Family("collide_queries_total", "counter",
                "Queries answered, by kind (the Query oneof field) and "
                "outcome (hit, miss, start_overlap, refused, stopped).");
  // Every kind the proto has, with every outcome, so rates start at 0.
  const google::protobuf::OneofDescriptor* kinds =
      v1::Query::descriptor()->FindOneofByName("query");
  const auto append_kind = [&](size_t slot, const std::string& kind) {
    for (size_t outcome = 0; outcome < kQueryOutcomeCount; ++outcome) {
      writer.Sample(
          "collide_queries_total",
          {{"kind", kind},
           {"outcome", QueryOutcomeName(static_cast<QueryOutcome>(outcome))}},
          static_cast<double>(metrics.queries[slot][outcome].value()));
    }
  };
  for (int i = 0; kinds != nullptr && i < kinds->field_count(); ++i) {
    const size_t slot = static_cast<size_t>(kinds->field(i)->number());
    if (slot == 0 || slot >= ServerMetrics::kQueryKindSlots) continue;
    append_kind(slot, kinds->field(i)->name());
  }
  // Queries with no kind set (refused), and kinds past the slots.
  bool any_unnamed = false;
  for (size_t outcome = 0; outcome < kQueryOutcomeCount; ++outcome) {
    any_unnamed |= metrics.queries[0][outcome].value() != 0;
  }
  if (any_unnamed) append_kind(0, "none");
}

void AppendBatches(const ServerMetrics& metrics, ExpositionWriter& writer) {
  writer.Family("collide_batch_size", "histogram",
                "Queries per batch read (RunQueries and StreamQueries).");
  writer.HistogramSamples("collide_batch_size", metrics.batch_size);
  writer.Family("collide_batch_latency_seconds", "histogram",
                "Server-side batch latency: from the batch parsed to its "
                "answer ready, queueing for a worker included.");
  writer.HistogramSamples("collide_batch_latency_seconds",
                          metrics.batch_latency_ns);
  writer.Family("collide_streams_open", "gauge", "StreamQueries calls open.");
  writer.Sample("collide_streams_open", {},
                static_cast<double>(metrics.streams_open.value()));
  writer.Family("collide_batches_in_flight", "gauge",
                "Batches parsed and not yet answered.");
  writer.Sample("collide_batches_in_flight", {},
                static_cast<double>(metrics.batches_in_flight.value()));
  writer.Family("collide_queued_bytes", "gauge",
                "Bytes of requests read and answers not yet written that "
                "query calls hold (bounded by --max_queued_bytes).");
  writer.Sample("collide_queued_bytes", {},
                static_cast<double>(metrics.queued_bytes.value()));
  writer.Family("collide_calls_refused_total", "counter",
                "Query calls refused with RESOURCE_EXHAUSTED, by the limit "
                "(flag) reached.");
  writer.Sample(
      "collide_calls_refused_total", {{"limit", "max_streams_per_connection"}},
      static_cast<double>(metrics.streams_refused_per_connection.value()));
  writer.Sample("collide_calls_refused_total", {{"limit", "max_streams"}},
                static_cast<double>(metrics.streams_refused_server.value()));
  writer.Family("collide_read_pauses_total", "counter",
                "Times a stream stopped reading because a byte budget (flag) "
                "was spent.");
  writer.Sample(
      "collide_read_pauses_total",
      {{"limit", "max_queued_bytes_per_connection"}},
      static_cast<double>(metrics.budget_pauses_per_connection.value()));
  writer.Sample("collide_read_pauses_total", {{"limit", "max_queued_bytes"}},
                static_cast<double>(metrics.budget_pauses_server.value()));
  writer.Family("collide_batches_cut_total", "counter",
                "Batches cut short because the answer being built found a "
                "byte budget (flag) spent; their other queries got "
                "RESOURCE_EXHAUSTED.");
  writer.Sample(
      "collide_batches_cut_total",
      {{"limit", "max_queued_bytes_per_connection"}},
      static_cast<double>(metrics.budget_cuts_per_connection.value()));
  writer.Sample("collide_batches_cut_total", {{"limit", "max_queued_bytes"}},
                static_cast<double>(metrics.budget_cuts_server.value()));
  writer.Family("collide_queries_over_limit_total", "counter",
                "Queries refused with RESOURCE_EXHAUSTED in their own result, "
                "by the size limit (flag) they passed.");
  for (size_t i = 0; i < kQueryLimitCount; ++i) {
    writer.Sample("collide_queries_over_limit_total",
                  {{"limit", QueryLimitFlag(static_cast<QueryLimit>(i))}},
                  static_cast<double>(metrics.queries_over_limit[i].value()));
  }
}

void AppendLevels(const ServerMetrics& metrics, const LevelStore& store,
                  ExpositionWriter& writer) {
  const std::vector<std::shared_ptr<const LevelSnapshot>> levels = store.List();
  writer.Family("collide_levels_loaded", "gauge", "Levels served.");
  writer.Sample("collide_levels_loaded", {},
                static_cast<double>(levels.size()));
  // Level labels carry the API's name ("levels/arena"), as requests and
  // logs spell it.
  std::vector<std::string> names;
  names.reserve(levels.size());
  for (const std::shared_ptr<const LevelSnapshot>& level : levels) {
    names.push_back(formats::LevelName(level->id));
  }
  writer.Family("collide_level_held_bytes", "gauge",
                "Memory one served level holds: the built level plus the "
                "message it was built from, bytes.");
  double total = 0;
  for (size_t i = 0; i < levels.size(); ++i) {
    const double bytes = static_cast<double>(HeldBytes(*levels[i]));
    total += bytes;
    writer.Sample("collide_level_held_bytes", {{"level", names[i]}}, bytes);
  }
  writer.Family("collide_level_store_held_bytes", "gauge",
                "Memory all served levels hold together, bytes (what "
                "--max_total_level_bytes bounds).");
  writer.Sample("collide_level_store_held_bytes", {}, total);
  writer.Family("collide_level_version", "gauge",
                "Version of the level served now.");
  for (size_t i = 0; i < levels.size(); ++i) {
    writer.Sample("collide_level_version", {{"level", names[i]}},
                  static_cast<double>(levels[i]->version));
  }
  const auto counter = [&](const char* name, const char* help,
                           const Counter& value) {
    writer.Family(name, "counter", help);
    writer.Sample(name, {}, static_cast<double>(value.value()));
  };
  counter("collide_level_puts_total",
          "Levels put through LevelService.PutLevel.", metrics.level_puts);
  counter("collide_level_patches_total",
          "Levels changed through LevelService.PatchLevel.",
          metrics.level_patches);
  counter("collide_level_deletes_total",
          "Levels deleted through LevelService.DeleteLevel.",
          metrics.level_deletes);
  counter("collide_level_load_failures_total",
          "Level files that could not be loaded (at start or by the level "
          "directory watcher).",
          metrics.level_load_failures);
  counter("collide_metrics_connections_dropped_total",
          "Connections to the metrics endpoint closed without an answer "
          "(no whole request within --metrics_request_timeout).",
          metrics.metrics_connections_dropped);
  writer.Family("collide_level_build_seconds", "histogram",
                "Time to validate and build one level.");
  writer.HistogramSamples("collide_level_build_seconds",
                          metrics.level_build_ns);
}

// Which build answers: the project version and the gRPC and Protobuf
// libraries it runs on, as labels of a constant 1 (join on it in queries).
void AppendBuildInfo(ExpositionWriter& writer) {
  writer.Family("collide_build_info", "gauge",
                "Always 1; the labels name the build: collide's version and "
                "the gRPC and Protobuf versions it runs on.");
  constexpr int kProtobuf = GOOGLE_PROTOBUF_VERSION;  // e.g. 3021012
  writer.Sample("collide_build_info",
                {{"version", kVersion},
                 {"grpc_version", grpc::Version()},
                 {"protobuf_version", absl::StrCat(kProtobuf / 1000000, ".",
                                                   kProtobuf / 1000 % 1000, ".",
                                                   kProtobuf % 1000)}},
                1);
}

// The health service's answers as gauges, for alerts: the whole server
// SERVING (0 while it drains), and the level files skipped now (the
// collide.level_dir health service is NOT_SERVING while there are any).
void AppendHealth(const MetricsPageSources& sources, ExpositionWriter& writer) {
  if (sources.serving != nullptr) {
    writer.Family("collide_serving", "gauge",
                  "1 while the server's health is SERVING, 0 while it is "
                  "NOT_SERVING (draining).");
    writer.Sample("collide_serving", {},
                  sources.serving->load(std::memory_order_relaxed) ? 1 : 0);
  }
  if (sources.skipped_files != nullptr) {
    writer.Family("collide_level_files_skipped", "gauge",
                  "Level files in --level_dir skipped now (unreadable or "
                  "invalid); health collide.level_dir is NOT_SERVING while "
                  "this is above 0.");
    writer.Sample("collide_level_files_skipped", {},
                  static_cast<double>(sources.skipped_files->List().size()));
  }
}

}  // namespace

std::string RenderMetricsPage(const MetricsPageSources& sources) {
  const ServerMetrics& metrics = Metrics();
  ExpositionWriter writer;
  ServerRpcMetrics().Render(writer);
  AppendHealth(sources, writer);
  AppendQueries(metrics, writer);
  AppendBatches(metrics, writer);
  if (sources.store != nullptr) AppendLevels(metrics, *sources.store, writer);
  AppendProcessMetrics(writer);
  AppendBuildInfo(writer);
  return writer.text();
}

}  // namespace collide::server
