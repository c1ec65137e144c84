// Conversion of the turning forms of the queries (a non-zero Turn on a
// cast, a move validation or a hit validation's swing) between the wire
// messages and collide/turning_query.h and turning_validate.h, with the
// checks the service boundary owes lib/: turn.angle finite with |angle| <=
// kMaxTurnAngle, turn.pivot in range, and the options a turning query
// refuses (a skin, a slide, stop_at_penetration), each an
// INVALID_ARGUMENT naming the field.
#ifndef COLLIDE_FORMATS_TURN_CONVERT_H_
#define COLLIDE_FORMATS_TURN_CONVERT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/turning.h"
#include "collide/turning_query.h"
#include "collide/turning_validate.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {

// Whether a query takes its turning form: turn set with an angle other than
// 0 (NaN included, so that the turning conversion refuses it).
template <typename Query>
bool Turns(const Query& query) {
  return query.has_turn() && !(query.turn().angle() == 0.0);
}

// Whether a hit validation takes its turning form: a swing, or a target
// with a turn (which SwingFromProto refuses without a swing).
bool Swings(const v1::HitValidationQuery& query);

// The default pivot: a circle's centre, a capsule's axis midpoint, a
// polygon's area centroid.
Vec2 Centroid(const BodyShape& shape);

// The angle and pivot of `turn` (pivot unset: `default_pivot`), errors
// under `field` (the path of the Turn message).
struct TurnArgs {
  double angle = 0.0;
  Vec2 pivot;
};
absl::StatusOr<TurnArgs> TurnFromProto(const v1::Turn& turn, Vec2 default_pivot,
                                       const FieldPath& field);

// A cast with a turn: the mover and the cast settings (mode, filter,
// max_fraction, max_hits). options.target_distance must be 0 and
// stop_at_penetration false.
template <typename Shape>
struct TurningCastArgs {
  Turning<Shape> mover;
  CastSettings settings;
};
absl::StatusOr<TurningCastArgs<Circle>> TurningCastFromProto(
    const v1::CircleCastQuery& query, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<TurningCastArgs<ConvexPolygon>> TurningCastFromProto(
    const v1::PolygonCastQuery& query, const InputLimits& limits,
    absl::string_view field);
absl::StatusOr<TurningCastArgs<Capsule>> TurningCastFromProto(
    const v1::CapsuleCastQuery& query, const InputLimits& limits,
    absl::string_view field);

// A move validation with a turn: skin and max_slide_iterations must be 0.
struct TurningMoveArgs {
  TurningMoveClaim claim;
  QueryFilter filter;
  MoveOptions options;
};
absl::StatusOr<TurningMoveArgs> TurningMoveFromProto(
    const v1::MoveValidationQuery& query, const InputLimits& limits,
    absl::string_view field);

// A hit validation with a swing (or a target with a turn, which needs
// one): origin unset or zero and radius 0 beside a swing. The targets are
// converted into `target_storage` (cleared first), which the result views;
// `plain_storage` is scratch for the translating targets' checks.
struct SwingArgs {
  TurningShot shot;
  QueryFilter filter;
  absl::Span<const TurningShotTarget> targets;
};
absl::StatusOr<SwingArgs> SwingFromProto(
    const v1::HitValidationQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<ShotTarget>& plain_storage,
    std::vector<TurningShotTarget>& target_storage);

// --- Results.
v1::TurnStatus ToProto(TurnStatus status);
void ToProto(const TurnBracket& bracket, v1::TurnContact* out);
// A world hit with its bracket.
void ToProto(const WorldHit& hit, const TurnBracket& bracket, v1::CastHit* out);
void ToProto(const TurningMoveValidation& validation,
             v1::MoveValidationResult* out);
void ToProto(const std::optional<TurningShotHit>& hit,
             v1::HitValidationResult* out);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_TURN_CONVERT_H_
