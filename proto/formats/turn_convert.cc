#include "proto/formats/turn_convert.h"

#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/number_text.h"
#include "collide/turning.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "proto/formats/field_checks.h"
#include "proto/formats/proto_convert.h"

namespace collide::formats {
namespace {

Vec2 CentroidOf(Circle circle) { return circle.center; }
Vec2 CentroidOf(const Capsule& capsule) {
  return 0.5 * (capsule.p1 + capsule.p2);
}
// The area centroid, summed over the fan of triangles from vertex 0 in
// coordinates relative to it (accurate to the polygon's size, not its
// distance from the origin).
Vec2 CentroidOf(const ConvexPolygon& polygon) {
  const Vec2 origin = polygon.vertices[0];
  double area2 = 0.0;
  Vec2 sum;
  for (int i = 1; i + 1 < polygon.count; ++i) {
    const Vec2 a = polygon.vertices[i] - origin;
    const Vec2 b = polygon.vertices[i + 1] - origin;
    const double cross = Cross(a, b);
    area2 += cross;
    sum = sum + cross * (a + b);
  }
  return origin + (1.0 / (3.0 * area2)) * sum;
}

absl::Status CheckPivot(const v1::Vec2& pivot, const FieldPath& field) {
  if (absl::Status s = CheckInRange(pivot.x(), FieldPath(field, ".x"));
      !s.ok()) {
    return s;
  }
  return CheckInRange(pivot.y(), FieldPath(field, ".y"));
}

absl::Status RefuseWithTurn(const FieldPath& field, absl::string_view what,
                            absl::string_view turn_field) {
  return absl::InvalidArgumentError(absl::StrCat(field.ToString(), " must be ",
                                                 what, " when ", turn_field,
                                                 ".angle is not 0"));
}

template <typename Shape, typename Query, typename Args>
absl::StatusOr<TurningCastArgs<Shape>> TurningCast(
    const Query& query, const absl::StatusOr<Args>& args,
    absl::string_view field) {
  if (!args.ok()) return args.status();
  const FieldPath root(field);
  const std::string turn_field = absl::StrCat(field, ".turn");
  const CastOptions& options = args->settings.options;
  if (options.target_distance != 0.0) {
    const FieldPath options_path(root, ".options");
    return RefuseWithTurn(FieldPath(options_path, ".target_distance"), "0",
                          turn_field);
  }
  if (options.stop_at_penetration) {
    const FieldPath options_path(root, ".options");
    return RefuseWithTurn(FieldPath(options_path, ".stop_at_penetration"),
                          "false", turn_field);
  }
  Shape shape;
  if constexpr (std::is_same_v<Shape, Circle>) {
    shape = args->cast.circle;
  } else if constexpr (std::is_same_v<Shape, Capsule>) {
    shape = args->cast.capsule;
  } else {
    shape = args->cast.polygon;
  }
  absl::StatusOr<TurnArgs> turn =
      TurnFromProto(query.turn(), CentroidOf(shape), FieldPath(root, ".turn"));
  if (!turn.ok()) return turn.status();
  return TurningCastArgs<Shape>{
      Turning<Shape>{shape, args->cast.translation, turn->angle, turn->pivot},
      args->settings};
}

}  // namespace

bool Swings(const v1::HitValidationQuery& query) {
  if (query.has_swing()) return true;
  for (const v1::ShotTarget& target : query.targets()) {
    if (target.has_turn()) return true;
  }
  return false;
}

Vec2 Centroid(const BodyShape& shape) {
  return std::visit([](const auto& body) { return CentroidOf(body); }, shape);
}

absl::StatusOr<TurnArgs> TurnFromProto(const v1::Turn& turn, Vec2 default_pivot,
                                       const FieldPath& field) {
  const double angle = turn.angle();
  if (!std::isfinite(angle)) {
    return absl::InvalidArgumentError(
        absl::StrCat(FieldPath(field, ".angle").ToString(), " must be finite"));
  }
  if (std::abs(angle) > kMaxTurnAngle) {
    return absl::InvalidArgumentError(absl::StrCat(
        FieldPath(field, ".angle").ToString(),
        " must be within +-1048576 (2^20) radians, got ", NumberText(angle)));
  }
  TurnArgs args{angle, default_pivot};
  if (turn.has_pivot()) {
    if (absl::Status s = CheckPivot(turn.pivot(), FieldPath(field, ".pivot"));
        !s.ok()) {
      return s;
    }
    args.pivot = FromProto(turn.pivot());
  }
  return args;
}

absl::StatusOr<TurningCastArgs<Circle>> TurningCastFromProto(
    const v1::CircleCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  return TurningCast<Circle>(query, CircleCastFromProto(query, limits, field),
                             field);
}
absl::StatusOr<TurningCastArgs<ConvexPolygon>> TurningCastFromProto(
    const v1::PolygonCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  return TurningCast<ConvexPolygon>(
      query, PolygonCastFromProto(query, limits, field), field);
}
absl::StatusOr<TurningCastArgs<Capsule>> TurningCastFromProto(
    const v1::CapsuleCastQuery& query, const InputLimits& limits,
    absl::string_view field) {
  return TurningCast<Capsule>(query, CapsuleCastFromProto(query, limits, field),
                              field);
}

absl::StatusOr<TurningMoveArgs> TurningMoveFromProto(
    const v1::MoveValidationQuery& query, const InputLimits& limits,
    absl::string_view field) {
  absl::StatusOr<MoveValidationArgs> args =
      MoveValidationFromProto(query, limits, field);
  if (!args.ok()) return args.status();
  const FieldPath root(field);
  const std::string turn_field = absl::StrCat(field, ".turn");
  if (args->options.skin != 0.0) {
    return RefuseWithTurn(FieldPath(root, ".skin"), "0", turn_field);
  }
  if (args->options.max_slide_iterations != 0) {
    return RefuseWithTurn(FieldPath(root, ".max_slide_iterations"), "0",
                          turn_field);
  }
  absl::StatusOr<TurnArgs> turn = TurnFromProto(
      query.turn(), Centroid(args->claim.mover), FieldPath(root, ".turn"));
  if (!turn.ok()) return turn.status();
  return TurningMoveArgs{
      TurningMoveClaim{args->claim.mover, args->claim.translation, turn->angle,
                       turn->pivot},
      args->filter, args->options};
}

absl::StatusOr<SwingArgs> SwingFromProto(
    const v1::HitValidationQuery& query, const InputLimits& limits,
    absl::string_view field, std::vector<ShotTarget>& plain_storage,
    std::vector<TurningShotTarget>& target_storage) {
  const FieldPath root(field);
  if (!query.has_swing()) {
    for (int i = 0; i < query.targets_size(); ++i) {
      if (!query.targets(i).has_turn()) continue;
      const FieldPath targets(root, ".targets");
      const FieldPath target(targets, i);
      return absl::InvalidArgumentError(
          absl::StrCat(FieldPath(target, ".turn").ToString(), " needs ", field,
                       ".swing: a point or disc shot meets only translating "
                       "targets"));
    }
  }
  // The translation, targets and filter as for any shot.
  absl::StatusOr<HitValidationArgs> plain =
      HitValidationFromProto(query, limits, field, plain_storage);
  if (!plain.ok()) return plain.status();
  if (plain->shot.origin != Vec2{}) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".origin must be unset with ", field,
                     ".swing (the swing's body places it)"));
  }
  if (plain->shot.radius != 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".radius must be 0 with ", field, ".swing, got ",
                     NumberText(plain->shot.radius)));
  }
  const FieldPath swing_path(root, ".swing");
  absl::StatusOr<BodyShape> body =
      SwingBodyFromProto(query.swing(), swing_path);
  if (!body.ok()) return body.status();
  absl::StatusOr<TurnArgs> turn = TurnFromProto(
      query.swing().turn(), Centroid(*body), FieldPath(swing_path, ".turn"));
  if (!turn.ok()) return turn.status();
  target_storage.clear();
  const FieldPath targets_path(root, ".targets");
  for (int i = 0; i < query.targets_size(); ++i) {
    const ShotTarget& target = plain->targets[static_cast<size_t>(i)];
    TurnArgs target_turn{0.0, Centroid(target.hitbox)};
    if (query.targets(i).has_turn()) {
      const FieldPath path(targets_path, i);
      absl::StatusOr<TurnArgs> t = TurnFromProto(
          query.targets(i).turn(), target_turn.pivot, FieldPath(path, ".turn"));
      if (!t.ok()) return t.status();
      target_turn = *t;
    }
    target_storage.push_back({.id = target.id,
                              .hitbox = target.hitbox,
                              .translation = target.translation,
                              .angle = target_turn.angle,
                              .pivot = target_turn.pivot});
  }
  return SwingArgs{TurningShot{*std::move(body), plain->shot.translation,
                               turn->angle, turn->pivot},
                   plain->filter, target_storage};
}

v1::TurnStatus ToProto(TurnStatus status) {
  switch (status) {
    case TurnStatus::kHit:
      return v1::TURN_STATUS_HIT;
    case TurnStatus::kInitialOverlap:
      return v1::TURN_STATUS_INITIAL_OVERLAP;
    case TurnStatus::kNearContact:
      return v1::TURN_STATUS_NEAR_CONTACT;
    case TurnStatus::kUndecided:
      return v1::TURN_STATUS_UNDECIDED;
    case TurnStatus::kMiss:
      break;
  }
  return v1::TURN_STATUS_UNSPECIFIED;
}

void ToProto(const TurnBracket& bracket, v1::TurnContact* out) {
  out->set_status(ToProto(bracket.status));
  out->set_fraction_hi(bracket.fraction_hi);
  out->set_gap_bound(bracket.gap_bound);
}

void ToProto(const WorldHit& hit, const TurnBracket& bracket,
             v1::CastHit* out) {
  ToProto(hit, out);
  ToProto(bracket, out->mutable_turn());
}

void ToProto(const TurningMoveValidation& validation,
             v1::MoveValidationResult* out) {
  ToProto(validation.move, out);
  if (validation.move.first_hit) {
    ToProto(validation.bracket, out->mutable_first_hit()->mutable_turn());
  }
}

void ToProto(const std::optional<TurningShotHit>& hit,
             v1::HitValidationResult* out) {
  if (!hit) {
    ToProto(std::optional<ShotHit>(), out);
    return;
  }
  ToProto(std::optional<ShotHit>(hit->shot), out);
  ToProto(hit->bracket, out->mutable_turn());
}

}  // namespace collide::formats
