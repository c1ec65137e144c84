#include "server/rpc/query_handler.h"

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "proto/formats/turn_convert.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/packed_handler.h"
#include "server/rpc/status_convert.h"
#include "server/rpc/turning_handler.h"
#include "server/rpc/visibility_handler.h"

namespace collide::server {
namespace {

// List queries write into caller spans; one grow-only buffer per thread
// keeps a steady stream of all-hits queries from allocating per query.
template <typename T>
absl::Span<T> ScratchSpan(int32_t size) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < static_cast<size_t>(size)) {
    buffer.resize(static_cast<size_t>(size));
  }
  return absl::MakeSpan(buffer.data(), static_cast<size_t>(size));
}

void FillCast(absl::Span<const WorldHit> hits, bool truncated,
              v1::CastResult* out) {
  out->mutable_hits()->Reserve(static_cast<int>(hits.size()));
  for (const WorldHit& hit : hits) formats::ToProto(hit, out->add_hits());
  out->set_truncated(truncated);
}

// One cast kind: the closest-hit and all-hits lib functions, called with the
// converted input and nothing else, so results match lib/ bitwise.
template <typename Args, typename Closest, typename All>
absl::Status RunCast(const absl::StatusOr<Args>& args, const Level& level,
                     Closest closest, All all, v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  const formats::CastSettings& settings = args->settings;
  v1::CastResult* cast = result->mutable_cast();
  if (settings.all_hits) {
    const absl::Span<WorldHit> buffer =
        ScratchSpan<WorldHit>(settings.max_hits);
    const ListResult list = all(*args, level, buffer, settings);
    FillCast(buffer.first(static_cast<size_t>(list.count)), list.truncated,
             cast);
  } else if (const std::optional<WorldHit> hit =
                 closest(*args, level, settings)) {
    formats::ToProto(*hit, cast->add_hits());
  }
  return absl::OkStatus();
}

absl::Status RunOverlap(const absl::StatusOr<formats::OverlapArgs>& args,
                        const Level& level, v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  const absl::Span<ShapeRef> buffer = ScratchSpan<ShapeRef>(args->max_results);
  const ListResult list = std::visit(
      [&](const auto& shape) -> ListResult {
        using T = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<T, Circle>) {
          return OverlapCircle(shape, level, buffer, args->filter);
        } else if constexpr (std::is_same_v<T, ConvexPolygon>) {
          return OverlapPolygon(shape, level, buffer, args->filter);
        } else {
          return OverlapCapsule(shape, level, buffer, args->filter);
        }
      },
      args->shape);
  v1::OverlapResult* overlap = result->mutable_overlap();
  overlap->mutable_shapes()->Reserve(list.count);
  for (int32_t i = 0; i < list.count; ++i) {
    v1::ShapeRef* ref = overlap->add_shapes();
    ref->set_shape_id(buffer[static_cast<size_t>(i)].shape_id);
    ref->set_user_data(buffer[static_cast<size_t>(i)].user_data);
  }
  overlap->set_truncated(list.truncated);
  return absl::OkStatus();
}

absl::Status RunClosestPoint(
    const absl::StatusOr<formats::ClosestPointArgs>& args, const Level& level,
    v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  v1::ClosestPointResult* out = result->mutable_closest_point();
  if (const std::optional<WorldClosestPoint> closest =
          ClosestPoint(args->point, level, args->max_distance, args->filter)) {
    formats::ToProto(*closest, out);
  }
  return absl::OkStatus();
}

absl::Status RunMoveValidation(
    const absl::StatusOr<formats::MoveValidationArgs>& args, const Level& level,
    v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  formats::ToProto(
      ValidateMove(args->claim, level, args->filter, args->options),
      result->mutable_move_validation());
  return absl::OkStatus();
}

absl::Status RunHitValidation(const v1::HitValidationQuery& query,
                              const Level& level,
                              const formats::InputLimits& limits,
                              v1::QueryResult* result) {
  // One grow-only target buffer per thread, like ScratchSpan: a steady
  // stream of shots converts its targets without allocating.
  thread_local std::vector<ShotTarget> targets;
  const absl::StatusOr<formats::HitValidationArgs> args =
      formats::HitValidationFromProto(query, limits, "hit_validation", targets);
  if (!args.ok()) return args.status();
  formats::ToProto(ValidateShot(args->shot, level, args->targets, args->filter),
                   result->mutable_hit_validation());
  return absl::OkStatus();
}

// A point against a deforming segment, reported as a's contact with b: when
// the point is b, the contact is the point itself then, its feature vertex
// 0, and the normal turns round.
std::optional<Hit> CastDeformingPair(const formats::DeformingPair& pair,
                                     const CastOptions& options) {
  std::optional<Hit> hit = CastRay(pair.point, pair.segment, options);
  if (hit && !pair.point_is_a) {
    hit->point = pair.point.origin + hit->fraction * pair.point.translation;
    hit->normal = -hit->normal;
    hit->feature = {FeatureType::kVertex, 0};
  }
  return hit;
}

absl::Status RunPairToi(const absl::StatusOr<formats::PairToiArgs>& args,
                        v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  formats::ToProto(args->deforming
                       ? CastDeformingPair(*args->deforming, args->options)
                       : CastPair(args->a, args->b, args->options),
                   result->mutable_pair_toi());
  return absl::OkStatus();
}

// Computes the result of `query` into `result`; an error leaves it to the
// caller to clear the partial result.
// Error paths are relative to the query ("ray_cast.origin.x ..."); the
// caller prefixes the query's position only when there is an error, so a
// good query builds no strings.
absl::Status Dispatch(const Level& level, const v1::Query& query,
                      const formats::InputLimits& limits,
                      v1::QueryResult* result) {
  switch (query.query_case()) {
    case v1::Query::kRayCast:
      return RunCast(
          formats::RayCastFromProto(query.ray_cast(), limits, "ray_cast"),
          level,
          [](const formats::RayCastArgs& a, const Level& l,
             const formats::CastSettings& s) {
            return CastRay(a.ray, l, s.filter, s.options);
          },
          [](const formats::RayCastArgs& a, const Level& l,
             absl::Span<WorldHit> hits, const formats::CastSettings& s) {
            return CastRayAll(a.ray, l, hits, s.filter, s.options);
          },
          result);
    case v1::Query::kCircleCast:
      if (formats::Turns(query.circle_cast())) {
        return RunTurningCast(query.circle_cast(), level, limits, result);
      }
      return RunCast(
          formats::CircleCastFromProto(query.circle_cast(), limits,
                                       "circle_cast"),
          level,
          [](const formats::CircleCastArgs& a, const Level& l,
             const formats::CastSettings& s) {
            return CastCircle(a.cast, l, s.filter, s.options);
          },
          [](const formats::CircleCastArgs& a, const Level& l,
             absl::Span<WorldHit> hits, const formats::CastSettings& s) {
            return CastCircleAll(a.cast, l, hits, s.filter, s.options);
          },
          result);
    case v1::Query::kPolygonCast:
      if (formats::Turns(query.polygon_cast())) {
        return RunTurningCast(query.polygon_cast(), level, limits, result);
      }
      return RunCast(
          formats::PolygonCastFromProto(query.polygon_cast(), limits,
                                        "polygon_cast"),
          level,
          [](const formats::PolygonCastArgs& a, const Level& l,
             const formats::CastSettings& s) {
            return CastPolygon(a.cast, l, s.filter, s.options);
          },
          [](const formats::PolygonCastArgs& a, const Level& l,
             absl::Span<WorldHit> hits, const formats::CastSettings& s) {
            return CastPolygonAll(a.cast, l, hits, s.filter, s.options);
          },
          result);
    case v1::Query::kCapsuleCast:
      if (formats::Turns(query.capsule_cast())) {
        return RunTurningCast(query.capsule_cast(), level, limits, result);
      }
      return RunCast(
          formats::CapsuleCastFromProto(query.capsule_cast(), limits,
                                        "capsule_cast"),
          level,
          [](const formats::CapsuleCastArgs& a, const Level& l,
             const formats::CastSettings& s) {
            return CastCapsule(a.cast, l, s.filter, s.options);
          },
          [](const formats::CapsuleCastArgs& a, const Level& l,
             absl::Span<WorldHit> hits, const formats::CastSettings& s) {
            return CastCapsuleAll(a.cast, l, hits, s.filter, s.options);
          },
          result);
    case v1::Query::kOverlap:
      return RunOverlap(
          formats::OverlapFromProto(query.overlap(), limits, "overlap"), level,
          result);
    case v1::Query::kClosestPoint:
      return RunClosestPoint(
          formats::ClosestPointFromProto(query.closest_point(), limits,
                                         "closest_point"),
          level, result);
    case v1::Query::kMoveValidation:
      if (formats::Turns(query.move_validation())) {
        return RunTurningMove(query.move_validation(), level, limits, result);
      }
      return RunMoveValidation(
          formats::MoveValidationFromProto(query.move_validation(), limits,
                                           "move_validation"),
          level, result);
    case v1::Query::kHitValidation:
      if (formats::Swings(query.hit_validation())) {
        return RunSwing(query.hit_validation(), level, limits, result);
      }
      return RunHitValidation(query.hit_validation(), level, limits, result);
    case v1::Query::kPairToi:
      return RunPairToi(formats::PairToiFromProto(query.pair_toi(), "pair_toi"),
                        result);
    case v1::Query::kVisibility:
      return RunVisibility(query.visibility(), level, limits, result);
    case v1::Query::kVisibilityPolygon:
      return RunVisibilityPolygon(query.visibility_polygon(), level, limits,
                                  result);
    case v1::Query::QUERY_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError(
      "has no query: set one of ray_cast, circle_cast, polygon_cast, "
      "capsule_cast, overlap, closest_point, move_validation, "
      "hit_validation, pair_toi, visibility, visibility_polygon");
}

// HandleQuery into a result the caller owns (an element of the response,
// so a batch builds each result once, in place).
void AnswerQuery(const Level& level, const v1::Query& query, int index,
                 const formats::InputLimits& limits, v1::QueryResult* result) {
  result->set_request_id(query.request_id());
  if (absl::Status s = Dispatch(level, query, limits, result); !s.ok()) {
    result->clear_result();
    const char* separator =
        query.query_case() == v1::Query::QUERY_NOT_SET ? " " : ".";
    *result->mutable_status() = ToResultStatus(absl::Status(
        s.code(),
        absl::StrCat("queries[", index, "]", separator, s.message())));
  }
}

// How many queries' worth of a stop check's interval `query` spends. A
// line-of-sight query answers up to max_visibility_pairs pairs or
// max_visibility_polygon_vertices vertices, the work and answer bytes of
// many casts: a check follows each, so a deadline stops the batch and the
// call budget sees the answer grow within a few of them.
int StopCheckWeight(const v1::Query& query) {
  switch (query.query_case()) {
    case v1::Query::kVisibility:
    case v1::Query::kVisibilityPolygon:
      return kQueriesPerStopCheck;
    default:
      return 1;
  }
}

// Answers `queries` into `results` (shared by the unary and stream forms),
// asking `stop` every kQueriesPerStopCheck queries.
absl::Status AnswerBatch(
    const LevelSnapshot& snapshot,
    const google::protobuf::RepeatedPtrField<v1::Query>& queries,
    const formats::InputLimits& limits,
    google::protobuf::RepeatedPtrField<v1::QueryResult>* results,
    StopCheck stop) {
  if (absl::Status s = CheckBatchSize(queries.size(), limits); !s.ok()) {
    return s;
  }
  if (snapshot.level == nullptr) {
    return absl::InternalError("level snapshot has no level");
  }
  results->Reserve(queries.size());
  int i = 0;
  absl::Status stopped;
  int since_check = kQueriesPerStopCheck;  // check before the first
  for (; i < queries.size(); ++i) {
    if (since_check >= kQueriesPerStopCheck) {
      stopped = stop();
      if (!stopped.ok()) break;
      since_check = 0;
    }
    since_check += StopCheckWeight(queries[i]);
    AnswerQuery(*snapshot.level, queries[i], i, limits, results->Add());
  }
  // Not answered: each says why in its own result, so a caller can tell
  // them from answered ones (and retry just those).
  for (; i < queries.size(); ++i) {
    v1::QueryResult* result = results->Add();
    result->set_request_id(queries[i].request_id());
    *result->mutable_status() = ToResultStatus(absl::Status(
        stopped.code(),
        absl::StrCat("queries[", i, "]: not answered: ", stopped.message())));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status NeverStop() { return absl::OkStatus(); }

int BatchQueryCount(const v1::RunQueriesRequest& request) {
  return IsPacked(request) ? PackedQueryCount(request) : request.queries_size();
}

int BatchQueryCount(const v1::StreamQueriesRequest& request) {
  return IsPacked(request) ? PackedQueryCount(request) : request.queries_size();
}

absl::Status CheckBatchSize(int query_count,
                            const formats::InputLimits& limits) {
  if (query_count == 0) {
    return absl::InvalidArgumentError("queries must not be empty");
  }
  if (query_count > limits.max_batch_size) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "queries holds ", query_count, " queries, more than max_batch_size ",
        limits.max_batch_size));
  }
  return absl::OkStatus();
}

namespace {

// A request's queries, per query or packed, into `response`.
template <typename Request, typename Response>
absl::Status AnswerEitherForm(const LevelSnapshot& snapshot,
                              const Request& request,
                              const formats::InputLimits& limits,
                              Response* response, StopCheck stop) {
  if (!IsPacked(request)) {
    return AnswerBatch(snapshot, request.queries(), limits,
                       response->mutable_results(), stop);
  }
  if (snapshot.level == nullptr) {
    return absl::InternalError("level snapshot has no level");
  }
  return AnswerPacked(*snapshot.level, request, limits, response, stop);
}

// FAILED_PRECONDITION when a batch names content the snapshot does not hold.
absl::Status CheckContentHash(const LevelSnapshot& snapshot,
                              const std::string& expected) {
  if (expected.empty() || expected == snapshot.content_hash) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "expected_content_hash ", expected, " but ",
      formats::LevelName(snapshot.id), " has ", snapshot.content_hash));
}

}  // namespace

v1::QueryResult HandleQuery(const Level& level, const v1::Query& query,
                            int index, const formats::InputLimits& limits) {
  v1::QueryResult result;
  AnswerQuery(level, query, index, limits, &result);
  return result;
}

absl::Status AnswerRunQueries(const LevelSnapshot& snapshot,
                              const v1::RunQueriesRequest& request,
                              const formats::InputLimits& limits,
                              v1::RunQueriesResponse* response,
                              StopCheck stop) {
  if (absl::Status s =
          CheckContentHash(snapshot, request.expected_content_hash());
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          AnswerEitherForm(snapshot, request, limits, response, stop);
      !s.ok()) {
    response->Clear();
    return s;
  }
  response->set_level_version(snapshot.version);
  response->set_content_hash(snapshot.content_hash);
  return absl::OkStatus();
}

absl::StatusOr<v1::RunQueriesResponse> HandleRunQueries(
    const LevelSnapshot& snapshot, const v1::RunQueriesRequest& request,
    const formats::InputLimits& limits) {
  v1::RunQueriesResponse response;
  if (absl::Status s = AnswerRunQueries(snapshot, request, limits, &response);
      !s.ok()) {
    return s;
  }
  return response;
}

absl::Status AnswerStreamQueries(const LevelSnapshot& snapshot,
                                 const v1::StreamQueriesRequest& request,
                                 const formats::InputLimits& limits,
                                 v1::StreamQueriesResponse* response,
                                 StopCheck stop) {
  if (absl::Status s =
          CheckContentHash(snapshot, request.expected_content_hash());
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          AnswerEitherForm(snapshot, request, limits, response, stop);
      !s.ok()) {
    response->Clear();
    return s;
  }
  response->set_batch_id(request.batch_id());
  response->set_level_version(snapshot.version);
  response->set_content_hash(snapshot.content_hash);
  return absl::OkStatus();
}

absl::StatusOr<v1::StreamQueriesResponse> HandleStreamQueries(
    const LevelSnapshot& snapshot, const v1::StreamQueriesRequest& request,
    const formats::InputLimits& limits) {
  v1::StreamQueriesResponse response;
  if (absl::Status s =
          AnswerStreamQueries(snapshot, request, limits, &response);
      !s.ok()) {
    return s;
  }
  return response;
}

void RefuseBatch(const v1::StreamQueriesRequest& request,
                 const absl::Status& status,
                 v1::StreamQueriesResponse* response) {
  response->Clear();
  response->set_batch_id(request.batch_id());
  *response->mutable_status() = ToResultStatus(status);
}

v1::StreamQueriesResponse RefusedBatchResponse(
    const v1::StreamQueriesRequest& request, const absl::Status& status) {
  v1::StreamQueriesResponse response;
  RefuseBatch(request, status, &response);
  return response;
}

}  // namespace collide::server
