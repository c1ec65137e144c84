#include "validate/shot_times.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <variant>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "exact/exact_time.h"
#include "exact/sign.h"
#include "world/caster.h"
#include "world/exact_ties.h"

namespace collide::internal {
namespace {

template <typename Cast>
std::optional<ExactTime> WallTimeOf(const Cast& cast, const Level& level,
                                    const WorldHit& wall) {
  if (wall.hit.status == HitStatus::kInitialOverlap) {
    return ExactTime{Expansion(), Expansion(1.0)};
  }
  // The layer holding the shape: a patched level's own shapes shadow its
  // base's.
  const Level* layer = &level;
  std::optional<int> shape = level.FindShape(wall.shape_id);
  if (!shape && level.base() != nullptr) {
    layer = level.base();
    shape = layer->FindShape(wall.shape_id);
  }
  if (!shape) return std::nullopt;
  const CastOptions options{};
  if (layer->kind(*shape) != ShapeKind::kPolyline) {
    return CandidateTime(cast, options, *layer, Candidate{wall.hit, *shape, 0});
  }
  // A polyline's feature: edge i is segment i; vertex j ends segments j - 1
  // and j, each met at or before the contact at j, one of them at it: the
  // later of their times.
  const PolylineDesc polyline = layer->polyline(*shape);
  const int32_t n = static_cast<int32_t>(polyline.vertices.size());
  const int32_t segments = polyline.closed ? n : n - 1;
  const int32_t at = wall.hit.feature.index;
  if (wall.hit.feature.type != FeatureType::kVertex) {
    return CandidateTime(cast, options, *layer,
                         Candidate{wall.hit, *shape, at});
  }
  std::optional<ExactTime> latest;
  for (const int32_t part : {at - 1, at}) {
    const int32_t p = polyline.closed ? (part + n) % n : part;
    if (p < 0 || p >= segments) continue;
    const std::optional<ExactTime> t =
        CandidateTime(cast, options, *layer, Candidate{wall.hit, *shape, p});
    if (t && (!latest || CompareTimes(*t, *latest) > 0)) latest = t;
  }
  return latest;
}

void HitboxCorners(const BodyShape& hitbox, Corners* c, double* radius) {
  *radius = 0.0;
  if (const auto* circle = std::get_if<Circle>(&hitbox)) {
    c->points[0] = circle->center;
    c->count = 1;
    *radius = circle->radius;
  } else if (const auto* capsule = std::get_if<Capsule>(&hitbox)) {
    SegmentCorners(capsule->p1, capsule->p2, c);
    *radius = capsule->radius;
  } else {
    const ConvexPolygon& p = std::get<ConvexPolygon>(hitbox);
    for (int i = 0; i < p.count; ++i) c->points[i] = p.vertices[i];
    c->count = p.count;
  }
}

}  // namespace

std::optional<ExactTime> WallTime(const Shot& shot, const Level& level,
                                  const WorldHit& wall) {
  if (shot.radius > 0.0) {
    return WallTimeOf(
        CircleCast{Circle{shot.origin, shot.radius}, shot.translation}, level,
        wall);
  }
  return WallTimeOf(RayInput{shot.origin, shot.translation}, level, wall);
}

std::optional<ExactTime> TargetTime(const Shot& shot, const ShotTarget& target,
                                    const Hit& hit) {
  Corners mover;
  mover.points[0] = shot.origin;
  mover.count = 1;
  Corners obstacle;
  double obstacle_radius = 0.0;
  HitboxCorners(target.hitbox, &obstacle, &obstacle_radius);
  const ExactTime zero{Expansion(), Expansion(1.0)};
  if (hit.status == HitStatus::kInitialOverlap) return zero;
  if (!(hit.fraction >= 0.0)) return std::nullopt;
  if (hit.fraction == 0.0 &&
      StartsWithin(mover, shot.radius, obstacle, obstacle_radius, 0.0)) {
    return zero;
  }
  // The shot relative to the target: d_shot - d_target, exactly.
  const ExactVec d = Difference(shot.translation, target.translation);
  const std::optional<ExactTime> t =
      shot.radius == 0.0 && obstacle_radius == 0.0
          ? FirstContactTime(mover, obstacle, d)
          : FirstRoundContactTime(mover, shot.radius, obstacle, obstacle_radius,
                                  0.0, d);
  if (t && !NearTie(RoundTime(*t), hit.fraction)) return std::nullopt;
  return t;
}

}  // namespace collide::internal
