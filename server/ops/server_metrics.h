// The server's own metrics: one process-wide set, recorded where
// things happen (the stream and unary reactors, level builds, the level
// service) and exposed by /metrics (metrics_page.h). Process-wide like a
// Prometheus client's default registry: the counters describe the process,
// whichever CollideServer in it did the work.
//
// Recording costs relaxed atomic adds only: a batch is tallied on the stack
// and added once, so workers answering batches in parallel do not fight
// over counters query by query.
#ifndef COLLIDE_SERVER_OPS_SERVER_METRICS_H_
#define COLLIDE_SERVER_OPS_SERVER_METRICS_H_

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "server/ops/metrics.h"

namespace collide::server {

// What became of one query, the "outcome" label of
// collide_queries_total.
enum class QueryOutcome {
  // A cast, pair TOI or hit validation touched something, an overlap or
  // closest-point query found a shape, a move was blocked, a viewer saw a
  // target, a visibility polygon met an occluder.
  kHit,
  // Nothing touched or found; a move allowed.
  kMiss,
  // The moving shape started touching or inside (HIT_STATUS_INITIAL_OVERLAP,
  // MOVE_VERDICT_STARTS_INSIDE); a visibility polygon's viewer is inside a
  // solid (the polygon is empty).
  kStartOverlap,
  // Refused: the query's own status is an error (bad input), or its batch
  // was refused as a whole (unknown level, empty or oversized batch).
  kRefused,
  // Not answered: the call's deadline passed or it was cancelled first.
  kStopped,
};
inline constexpr size_t kQueryOutcomeCount = 5;

// The label value of `outcome` ("hit", "miss", "start_overlap", "refused",
// "stopped").
absl::string_view QueryOutcomeName(QueryOutcome outcome);

// The outcome of `result`, a query's answer.
QueryOutcome OutcomeOf(const v1::QueryResult& result);

// The per-query size limits a query alone is refused for
// (RESOURCE_EXHAUSTED in its own result), the "limit" label of
// collide_queries_over_limit_total.
enum class QueryLimit {
  kVisibilityPairs,
  kVisibilityPolygonVertices,
  kVisibilityPolygonEdges,
  kVisibilityDiscOccluders,
};
inline constexpr size_t kQueryLimitCount = 4;

// The flag that sets `limit` ("max_visibility_pairs",
// "max_visibility_polygon_vertices", "max_visibility_polygon_edges",
// "max_visibility_disc_occluders").
absl::string_view QueryLimitFlag(QueryLimit limit);

struct ServerMetrics {
  // Queries by kind and outcome. The kind is the Query oneof's field
  // number (v1::Query::QueryCase); 0 (no query set) and numbers from
  // kQueryKindSlots on share slot 0.
  static constexpr size_t kQueryKindSlots = 16;
  std::array<std::array<Counter, kQueryOutcomeCount>, kQueryKindSlots> queries;
  // Queries per batch, every batch read (answered or refused).
  Histogram batch_size{
      {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536},
      1};
  // From a batch parsed to its answer ready (queueing for a worker
  // included; writing it back not), nanoseconds.
  Histogram batch_latency_ns{kLatencyBoundsNs, 1e9};
  // StreamQueries calls open now.
  Gauge streams_open;
  // Bytes of requests read and answers not yet written that query calls
  // hold (CallBudget).
  Gauge queued_bytes;
  // Query calls refused for --max_streams_per_connection and for
  // --max_streams.
  Counter streams_refused_per_connection;
  Counter streams_refused_server;
  // Times a stream stopped reading because its connection's
  // (--max_queued_bytes_per_connection) or the server's (--max_queued_bytes)
  // byte budget was spent.
  Counter budget_pauses_per_connection;
  Counter budget_pauses_server;
  // Batches whose answer, growing past what was charged for it, found the
  // connection's or the server's byte budget spent: the rest of the batch
  // is answered RESOURCE_EXHAUSTED.
  Counter budget_cuts_per_connection;
  Counter budget_cuts_server;
  // Batches parsed and not yet answered (queued for a worker or being
  // answered).
  Gauge batches_in_flight;
  // Queries refused in their own result for a size limit, by QueryLimit.
  std::array<Counter, kQueryLimitCount> queries_over_limit;
  // Levels put through LevelService.PutLevel (created or replaced).
  Counter level_puts;
  // Levels changed through a patch (LevelService.PatchLevel):
  // the patch handler calls level_patches.Add() once per patch applied.
  Counter level_patches;
  // Levels deleted through LevelService.DeleteLevel.
  Counter level_deletes;
  // Level files that could not be loaded (skipped at start, or ignored or
  // not restored by the level directory watcher).
  Counter level_load_failures;
  // Connections to the metrics endpoint closed without an answer (no whole
  // request within --metrics_request_timeout, or one it could not read).
  Counter metrics_connections_dropped;
  // Validating and building one level (MakeLevelSnapshot), nanoseconds.
  Histogram level_build_ns{
      {100'000, 1'000'000, 5'000'000, 10'000'000, 25'000'000, 50'000'000,
       100'000'000, 250'000'000, 500'000'000, 1'000'000'000, 2'500'000'000,
       5'000'000'000, 10'000'000'000, 30'000'000'000},
      1e9};
};

// The process's metrics.
ServerMetrics& Metrics();

// Counts a query refused for `limit` (queries_over_limit) and passes its
// error message to the hook SetQueryOverLimitHook installed, if any: the
// server runtime logs it there (at most every 10 s), since the handlers
// that refuse it have no log of their own.
void RecordQueryOverLimit(QueryLimit limit, absl::string_view message);
using QueryOverLimitHook = void (*)(QueryLimit limit,
                                    absl::string_view message);
// Process-wide; nullptr removes it.
void SetQueryOverLimitHook(QueryOverLimitHook hook);

// Records one batch read at `read_at`: its size, its latency until now and
// each query under its kind and outcome. `results` are the answer's, one
// per query in order; empty when the batch was refused as a whole (every
// query then counts as refused).
void RecordBatch(
    const google::protobuf::RepeatedPtrField<v1::Query>& queries,
    const google::protobuf::RepeatedPtrField<v1::QueryResult>& results,
    std::chrono::steady_clock::time_point read_at);

// The same for a whole request and its response, per query or packed (a
// packed batch's queries count under their kind, ray_cast, circle_cast or
// move_validation, with outcomes read from the result columns: a row in
// errors is refused or stopped).
void RecordBatch(const v1::StreamQueriesRequest& request,
                 const v1::StreamQueriesResponse& response,
                 std::chrono::steady_clock::time_point read_at);
void RecordBatch(const v1::RunQueriesRequest& request,
                 const v1::RunQueriesResponse& response,
                 std::chrono::steady_clock::time_point read_at);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_SERVER_METRICS_H_
