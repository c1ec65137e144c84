#include "server/rpc/packed_handler.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/packed_convert.h"
#include "server/rpc/status_convert.h"
#include "server/rpc/stop_check.h"

namespace collide::server {
namespace {

template <typename Results>
void AddError(int index, const absl::Status& status, Results* results) {
  v1::PackedQueryError* error = results->add_errors();
  error->set_index(index);
  *error->mutable_status() = ToResultStatus(status);
}

// Answers rows 0..count-1 of `results` (resized to `count` rows) with
// `answer(i)` (OK, or the query's own error), asking `stop` every
// kQueriesPerStopCheck queries as the per-query form does; rows not reached
// get the stop status.
template <typename Results, typename AnswerOne>
void AnswerRows(int count, absl::string_view field, StopCheck stop,
                Results* results, AnswerOne answer) {
  int i = 0;
  absl::Status stopped;
  for (; i < count; ++i) {
    if (i % kQueriesPerStopCheck == 0) {
      stopped = stop();
      if (!stopped.ok()) break;
    }
    if (absl::Status s = answer(i); !s.ok()) AddError(i, s, results);
  }
  for (; i < count; ++i) {
    AddError(i,
             absl::Status(stopped.code(),
                          absl::StrCat(field, "[", i,
                                       "]: not answered: ", stopped.message())),
             results);
  }
}

absl::Status AnswerRays(const Level& level, const v1::PackedRayCasts& rays,
                        const formats::InputLimits& limits, StopCheck stop,
                        v1::PackedCastResults* results) {
  constexpr absl::string_view kField = "packed_rays";
  const absl::StatusOr<formats::PackedCastBatch> batch =
      formats::PackedRaysFromProto(rays, limits, kField);
  if (!batch.ok()) return batch.status();
  const formats::CastSettings& settings = batch->settings;
  const bool fixed_width = batch->fixed_width_results;
  formats::ResizePackedResults(batch->count, fixed_width, results);
  AnswerRows(batch->count, kField, stop, results, [&](int i) {
    const absl::StatusOr<RayInput> ray = formats::PackedRayAt(rays, i, kField);
    if (!ray.ok()) return ray.status();
    if (const std::optional<WorldHit> hit =
            CastRay(*ray, level, settings.filter, settings.options)) {
      formats::SetPackedHit(i, *hit, fixed_width, results);
    }
    return absl::OkStatus();
  });
  return absl::OkStatus();
}

absl::Status AnswerCircles(const Level& level,
                           const v1::PackedCircleCasts& circles,
                           const formats::InputLimits& limits, StopCheck stop,
                           v1::PackedCastResults* results) {
  constexpr absl::string_view kField = "packed_circles";
  const absl::StatusOr<formats::PackedCastBatch> batch =
      formats::PackedCirclesFromProto(circles, limits, kField);
  if (!batch.ok()) return batch.status();
  const formats::CastSettings& settings = batch->settings;
  const bool fixed_width = batch->fixed_width_results;
  formats::ResizePackedResults(batch->count, fixed_width, results);
  AnswerRows(batch->count, kField, stop, results, [&](int i) {
    const absl::StatusOr<CircleCast> cast =
        formats::PackedCircleAt(circles, i, kField);
    if (!cast.ok()) return cast.status();
    if (const std::optional<WorldHit> hit =
            CastCircle(*cast, level, settings.filter, settings.options)) {
      formats::SetPackedHit(i, *hit, fixed_width, results);
    }
    return absl::OkStatus();
  });
  return absl::OkStatus();
}

absl::Status AnswerMoves(const Level& level,
                         const v1::PackedMoveValidations& moves,
                         const formats::InputLimits& limits, StopCheck stop,
                         v1::PackedMoveResults* results) {
  constexpr absl::string_view kField = "packed_moves";
  const absl::StatusOr<formats::PackedMoveBatch> batch =
      formats::PackedMovesFromProto(moves, limits, kField);
  if (!batch.ok()) return batch.status();
  const formats::MoveSettings& settings = batch->settings;
  formats::ResizePackedResults(batch->count, results);
  AnswerRows(batch->count, kField, stop, results, [&](int i) {
    const absl::StatusOr<MoveClaim> claim =
        formats::PackedMoveAt(moves, i, kField);
    if (!claim.ok()) return claim.status();
    formats::SetPackedMove(
        i, ValidateMove(*claim, level, settings.filter, settings.options),
        results);
    return absl::OkStatus();
  });
  return absl::OkStatus();
}

// The stream and unary messages have the same packed arms.
template <typename Request>
bool IsPackedRequest(const Request& request) {
  return request.packed_case() != Request::PACKED_NOT_SET;
}

template <typename Request>
int PackedCount(const Request& request) {
  switch (request.packed_case()) {
    case Request::kPackedRays:
      return request.packed_rays().origin_x_size();
    case Request::kPackedCircles:
      return request.packed_circles().center_x_size();
    case Request::kPackedMoves:
      return request.packed_moves().center_x_size();
    case Request::PACKED_NOT_SET:
      break;
  }
  return 0;
}

template <typename Request, typename Response>
absl::Status AnswerPackedRequest(const Level& level, const Request& request,
                                 const formats::InputLimits& limits,
                                 Response* response, StopCheck stop) {
  if (!request.queries().empty()) {
    return absl::InvalidArgumentError(
        "set either queries or one packed form (packed_rays, packed_circles, "
        "packed_moves), not both");
  }
  switch (request.packed_case()) {
    case Request::kPackedRays:
      return AnswerRays(level, request.packed_rays(), limits, stop,
                        response->mutable_packed_casts());
    case Request::kPackedCircles:
      return AnswerCircles(level, request.packed_circles(), limits, stop,
                           response->mutable_packed_casts());
    case Request::kPackedMoves:
      return AnswerMoves(level, request.packed_moves(), limits, stop,
                         response->mutable_packed_moves());
    case Request::PACKED_NOT_SET:
      break;
  }
  return absl::InternalError("AnswerPacked called without a packed form");
}

}  // namespace

bool IsPacked(const v1::StreamQueriesRequest& request) {
  return IsPackedRequest(request);
}
bool IsPacked(const v1::RunQueriesRequest& request) {
  return IsPackedRequest(request);
}

int PackedQueryCount(const v1::StreamQueriesRequest& request) {
  return PackedCount(request);
}
int PackedQueryCount(const v1::RunQueriesRequest& request) {
  return PackedCount(request);
}

absl::Status AnswerPacked(const Level& level,
                          const v1::StreamQueriesRequest& request,
                          const formats::InputLimits& limits,
                          v1::StreamQueriesResponse* response, StopCheck stop) {
  return AnswerPackedRequest(level, request, limits, response, stop);
}

absl::Status AnswerPacked(const Level& level,
                          const v1::RunQueriesRequest& request,
                          const formats::InputLimits& limits,
                          v1::RunQueriesResponse* response, StopCheck stop) {
  return AnswerPackedRequest(level, request, limits, response, stop);
}

}  // namespace collide::server
