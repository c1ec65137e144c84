#include "server/ops/server_metrics.h"

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace collide::server {
namespace {

// gRPC's codes (a result's status.code uses them).
constexpr int32_t kCodeOk = 0;
constexpr int32_t kCodeCancelled = 1;
constexpr int32_t kCodeDeadlineExceeded = 4;

QueryOutcome FromHitStatus(v1::HitStatus status) {
  return status == v1::HIT_STATUS_INITIAL_OVERLAP ? QueryOutcome::kStartOverlap
                                                  : QueryOutcome::kHit;
}

QueryOutcome FromVerdict(int verdict) {
  switch (verdict) {
    case v1::MOVE_VERDICT_BLOCKED:
      return QueryOutcome::kHit;
    case v1::MOVE_VERDICT_STARTS_INSIDE:
      return QueryOutcome::kStartOverlap;
    default:
      return QueryOutcome::kMiss;
  }
}

size_t KindSlot(const v1::Query& query) {
  const size_t kind = static_cast<size_t>(query.query_case());
  return kind < ServerMetrics::kQueryKindSlots ? kind : 0;
}

}  // namespace

absl::string_view QueryOutcomeName(QueryOutcome outcome) {
  switch (outcome) {
    case QueryOutcome::kHit:
      return "hit";
    case QueryOutcome::kMiss:
      return "miss";
    case QueryOutcome::kStartOverlap:
      return "start_overlap";
    case QueryOutcome::kRefused:
      return "refused";
    case QueryOutcome::kStopped:
      return "stopped";
  }
  return "unknown";
}

QueryOutcome OutcomeOf(const v1::QueryResult& result) {
  const int32_t code = result.status().code();
  if (code == kCodeCancelled || code == kCodeDeadlineExceeded) {
    return QueryOutcome::kStopped;
  }
  if (code != kCodeOk) return QueryOutcome::kRefused;
  switch (result.result_case()) {
    case v1::QueryResult::kCast:
      // Hits come closest first: the first says how the cast began.
      return result.cast().hits().empty()
                 ? QueryOutcome::kMiss
                 : FromHitStatus(result.cast().hits(0).status());
    case v1::QueryResult::kOverlap:
      return result.overlap().shapes().empty() ? QueryOutcome::kMiss
                                               : QueryOutcome::kHit;
    case v1::QueryResult::kClosestPoint:
      return result.closest_point().found() ? QueryOutcome::kHit
                                            : QueryOutcome::kMiss;
    case v1::QueryResult::kMoveValidation:
      return FromVerdict(result.move_validation().verdict());
    case v1::QueryResult::kHitValidation:
      return result.hit_validation().outcome() == v1::SHOT_OUTCOME_MISS ||
                     result.hit_validation().outcome() ==
                         v1::SHOT_OUTCOME_UNSPECIFIED
                 ? QueryOutcome::kMiss
                 : FromHitStatus(result.hit_validation().status());
    case v1::QueryResult::kPairToi:
      return result.pair_toi().hit() ? FromHitStatus(result.pair_toi().status())
                                     : QueryOutcome::kMiss;
    case v1::QueryResult::kVisibility:
      // A hit: some viewer sees some target.
      for (const uint64_t word : result.visibility().visible_words()) {
        if (word != 0) return QueryOutcome::kHit;
      }
      return QueryOutcome::kMiss;
    case v1::QueryResult::kVisibilityPolygon: {
      // Empty: the viewer is inside a solid. A hit: an occluder bounds the
      // region somewhere (a vertex on a shape).
      const auto& vertices = result.visibility_polygon().vertices();
      if (vertices.empty()) return QueryOutcome::kStartOverlap;
      for (const v1::VisibilityPolygonVertex& vertex : vertices) {
        switch (vertex.kind()) {
          case v1::VISIBILITY_VERTEX_KIND_ARC:
          case v1::VISIBILITY_VERTEX_KIND_ARC_END:
          case v1::VISIBILITY_VERTEX_KIND_VIEWER:
            break;
          default:
            return QueryOutcome::kHit;
        }
      }
      return QueryOutcome::kMiss;
    }
    case v1::QueryResult::RESULT_NOT_SET:
      break;
  }
  return QueryOutcome::kMiss;
}

ServerMetrics& Metrics() {
  static ServerMetrics metrics;
  return metrics;
}

absl::string_view QueryLimitFlag(QueryLimit limit) {
  switch (limit) {
    case QueryLimit::kVisibilityPairs:
      return "max_visibility_pairs";
    case QueryLimit::kVisibilityPolygonVertices:
      return "max_visibility_polygon_vertices";
    case QueryLimit::kVisibilityPolygonEdges:
      return "max_visibility_polygon_edges";
    case QueryLimit::kVisibilityDiscOccluders:
      return "max_visibility_disc_occluders";
  }
  return "unknown";
}

namespace {
std::atomic<QueryOverLimitHook> over_limit_hook{nullptr};
}  // namespace

void SetQueryOverLimitHook(QueryOverLimitHook hook) {
  over_limit_hook.store(hook, std::memory_order_release);
}

void RecordQueryOverLimit(QueryLimit limit, absl::string_view message) {
  Metrics().queries_over_limit[static_cast<size_t>(limit)].Add();
  if (const QueryOverLimitHook hook =
          over_limit_hook.load(std::memory_order_acquire)) {
    hook(limit, message);
  }
}

namespace {

void ObserveBatch(int query_count,
                  std::chrono::steady_clock::time_point read_at) {
  ServerMetrics& metrics = Metrics();
  const auto latency = std::chrono::steady_clock::now() - read_at;
  metrics.batch_latency_ns.Observe(static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(latency).count()));
  metrics.batch_size.Observe(static_cast<uint64_t>(query_count));
}

using OutcomeTally = std::array<uint32_t, kQueryOutcomeCount>;

void AddTally(size_t kind, const OutcomeTally& tally) {
  for (size_t outcome = 0; outcome < kQueryOutcomeCount; ++outcome) {
    if (tally[outcome] != 0)
      Metrics().queries[kind][outcome].Add(tally[outcome]);
  }
}

QueryOutcome FromPackedHitStatus(int status) {
  return status == v1::HIT_STATUS_UNSPECIFIED
             ? QueryOutcome::kMiss
             : FromHitStatus(static_cast<v1::HitStatus>(status));
}

// Rows of a packed result: their column's outcome, except the rows in
// `errors` (whose columns hold a miss), which are refused or stopped.
template <typename Column, typename Outcome>
OutcomeTally TallyRows(
    const Column& column,
    const google::protobuf::RepeatedPtrField<v1::PackedQueryError>& errors,
    Outcome outcome_of) {
  OutcomeTally tally{};
  for (const auto value : column) {
    ++tally[static_cast<size_t>(outcome_of(value))];
  }
  for (const v1::PackedQueryError& error : errors) {
    const int32_t code = error.status().code();
    const QueryOutcome outcome =
        code == kCodeCancelled || code == kCodeDeadlineExceeded
            ? QueryOutcome::kStopped
            : QueryOutcome::kRefused;
    --tally[static_cast<size_t>(QueryOutcome::kMiss)];
    ++tally[static_cast<size_t>(outcome)];
  }
  return tally;
}

template <typename Request, typename Response>
void RecordRequest(const Request& request, const Response& response,
                   std::chrono::steady_clock::time_point read_at) {
  size_t kind = 0;
  int count = 0;
  switch (request.packed_case()) {
    case Request::PACKED_NOT_SET:
      RecordBatch(request.queries(), response.results(), read_at);
      return;
    case Request::kPackedRays:
      kind = v1::Query::kRayCast;
      count = request.packed_rays().origin_x_size();
      break;
    case Request::kPackedCircles:
      kind = v1::Query::kCircleCast;
      count = request.packed_circles().center_x_size();
      break;
    case Request::kPackedMoves:
      kind = v1::Query::kMoveValidation;
      count = request.packed_moves().center_x_size();
      break;
  }
  ObserveBatch(count, read_at);
  OutcomeTally tally{};
  switch (response.packed_results_case()) {
    case Response::kPackedCasts: {
      // One of the two hit status columns is filled (fixed_width_results).
      // A lambda, not the function's address, so the per-row call inlines.
      const v1::PackedCastResults& casts = response.packed_casts();
      const auto outcome_of = [](int status) {
        return FromPackedHitStatus(status);
      };
      tally =
          casts.hit_status_fixed().empty()
              ? TallyRows(casts.hit_status(), casts.errors(), outcome_of)
              : TallyRows(casts.hit_status_fixed(), casts.errors(), outcome_of);
      break;
    }
    case Response::kPackedMoves:
      tally = TallyRows(response.packed_moves().verdict(),
                        response.packed_moves().errors(),
                        [](int verdict) { return FromVerdict(verdict); });
      break;
    case Response::PACKED_RESULTS_NOT_SET:
      // Refused as a whole.
      tally[static_cast<size_t>(QueryOutcome::kRefused)] =
          static_cast<uint32_t>(count);
      break;
  }
  AddTally(kind, tally);
}

}  // namespace

void RecordBatch(
    const google::protobuf::RepeatedPtrField<v1::Query>& queries,
    const google::protobuf::RepeatedPtrField<v1::QueryResult>& results,
    std::chrono::steady_clock::time_point read_at) {
  ObserveBatch(queries.size(), read_at);
  // Tallied here, added once per kind and outcome seen: only the kinds
  // the batch has (the bits of `seen`) are visited.
  std::array<OutcomeTally, ServerMetrics::kQueryKindSlots> tally{};
  uint32_t seen = 0;
  static_assert(ServerMetrics::kQueryKindSlots <= 32);
  const bool refused = results.empty();
  for (int i = 0; i < queries.size(); ++i) {
    const QueryOutcome outcome = refused || i >= results.size()
                                     ? QueryOutcome::kRefused
                                     : OutcomeOf(results[i]);
    const size_t kind = KindSlot(queries[i]);
    seen |= uint32_t{1} << kind;
    ++tally[kind][static_cast<size_t>(outcome)];
  }
  for (; seen != 0; seen &= seen - 1) {
    const size_t kind = static_cast<size_t>(std::countr_zero(seen));
    AddTally(kind, tally[kind]);
  }
}

void RecordBatch(const v1::StreamQueriesRequest& request,
                 const v1::StreamQueriesResponse& response,
                 std::chrono::steady_clock::time_point read_at) {
  RecordRequest(request, response, read_at);
}

void RecordBatch(const v1::RunQueriesRequest& request,
                 const v1::RunQueriesResponse& response,
                 std::chrono::steady_clock::time_point read_at) {
  RecordRequest(request, response, read_at);
}

}  // namespace collide::server
