#include "server/rpc/turning_handler.h"

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/turning_query.h"
#include "collide/turning_validate.h"
#include "collide/v1/collision_service.pb.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "proto/formats/turn_convert.h"

namespace collide::server {
namespace {

// Grow-only per-thread buffers, as query_handler.cc's ScratchSpan: a steady
// stream of all-hits casts does not allocate per query.
template <typename T>
absl::Span<T> Scratch(int32_t size) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < static_cast<size_t>(size)) {
    buffer.resize(static_cast<size_t>(size));
  }
  return absl::MakeSpan(buffer.data(), static_cast<size_t>(size));
}

template <typename Shape>
absl::Status Answer(const absl::StatusOr<formats::TurningCastArgs<Shape>>& args,
                    const Level& level, v1::QueryResult* result) {
  if (!args.ok()) return args.status();
  const formats::CastSettings& settings = args->settings;
  const TurnOptions options{.max_fraction = settings.options.max_fraction};
  v1::CastResult* cast = result->mutable_cast();
  if (settings.all_hits) {
    const absl::Span<WorldHit> hits = Scratch<WorldHit>(settings.max_hits);
    const absl::Span<TurnBracket> brackets =
        Scratch<TurnBracket>(settings.max_hits);
    const ListResult list = CastTurningAll(args->mover, level, hits, brackets,
                                           settings.filter, options);
    cast->mutable_hits()->Reserve(list.count);
    for (int32_t i = 0; i < list.count; ++i) {
      formats::ToProto(hits[static_cast<size_t>(i)],
                       brackets[static_cast<size_t>(i)], cast->add_hits());
    }
    cast->set_truncated(list.truncated);
  } else if (const std::optional<WorldTurnHit> hit =
                 CastTurning(args->mover, level, settings.filter, options)) {
    formats::ToProto(hit->hit, hit->bracket, cast->add_hits());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RunTurningCast(const v1::CircleCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result) {
  return Answer(formats::TurningCastFromProto(query, limits, "circle_cast"),
                level, result);
}
absl::Status RunTurningCast(const v1::PolygonCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result) {
  return Answer(formats::TurningCastFromProto(query, limits, "polygon_cast"),
                level, result);
}
absl::Status RunTurningCast(const v1::CapsuleCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result) {
  return Answer(formats::TurningCastFromProto(query, limits, "capsule_cast"),
                level, result);
}

absl::Status RunTurningMove(const v1::MoveValidationQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result) {
  const absl::StatusOr<formats::TurningMoveArgs> args =
      formats::TurningMoveFromProto(query, limits, "move_validation");
  if (!args.ok()) return args.status();
  formats::ToProto(
      ValidateTurningMove(args->claim, level, args->filter, args->options),
      result->mutable_move_validation());
  return absl::OkStatus();
}

absl::Status RunSwing(const v1::HitValidationQuery& query, const Level& level,
                      const formats::InputLimits& limits,
                      v1::QueryResult* result) {
  thread_local std::vector<ShotTarget> plain;
  thread_local std::vector<TurningShotTarget> targets;
  const absl::StatusOr<formats::SwingArgs> args =
      formats::SwingFromProto(query, limits, "hit_validation", plain, targets);
  if (!args.ok()) return args.status();
  formats::ToProto(
      ValidateTurningShot(args->shot, level, args->targets, args->filter),
      result->mutable_hit_validation());
  return absl::OkStatus();
}

}  // namespace collide::server
