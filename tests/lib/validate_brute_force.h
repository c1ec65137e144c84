// The references the validation queries (collide/validate.h) are checked
// against: brute-force casts of a body at any pose (a loop over every level
// shape with the toi.h per-shape functions, query_brute_force.h), and a
// brute-force shot over the level's shapes and every target.
#ifndef COLLIDE_TESTS_LIB_VALIDATE_BRUTE_FORCE_H_
#define COLLIDE_TESTS_LIB_VALIDATE_BRUTE_FORCE_H_

#include <optional>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "query_brute_force.h"

namespace collide::testing {

// `body` moved by `offset` (a polygon rebuilt through MakeConvexPolygon, so
// the test does not share the library's translation helper).
inline BodyShape Moved(const BodyShape& body, Vec2 offset) {
  if (const Circle* c = std::get_if<Circle>(&body)) {
    return Circle{c->center + offset, c->radius};
  }
  if (const Capsule* c = std::get_if<Capsule>(&body)) {
    return Capsule{c->p1 + offset, c->p2 + offset, c->radius};
  }
  const ConvexPolygon& p = std::get<ConvexPolygon>(body);
  std::vector<Vec2> vertices;
  for (int i = 0; i < p.count; ++i) vertices.push_back(p.vertices[i] + offset);
  absl::StatusOr<ConvexPolygon> moved = MakeConvexPolygon(vertices);
  if (moved.ok()) return *moved;
  // Rounding made it degenerate: fall back to shifting the stored copy.
  ConvexPolygon copy = p;
  for (int i = 0; i < p.count; ++i) copy.vertices[i] = p.vertices[i] + offset;
  return copy;
}

// Every matching shape's answer to `body` cast by `translation`, sorted by
// (fraction, id), from the per-shape functions.
inline std::vector<WorldHit> BruteBodyCastAll(const BodyShape& body,
                                              Vec2 translation,
                                              const Level& level,
                                              const QueryFilter& filter,
                                              const CastOptions& options) {
  return std::visit(
      [&](const auto& shape) {
        using Shape = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<Shape, Circle>) {
          return BruteCastAll(CircleCast{shape, translation}, level, filter,
                              options);
        } else if constexpr (std::is_same_v<Shape, Capsule>) {
          return BruteCastAll(CapsuleCast{shape, translation}, level, filter,
                              options);
        } else {
          return BruteCastAll(PolygonCast{shape, translation}, level, filter,
                              options);
        }
      },
      body);
}

inline std::optional<WorldHit> BruteBodyCast(const BodyShape& body,
                                             Vec2 translation,
                                             const Level& level,
                                             const QueryFilter& filter,
                                             const CastOptions& options) {
  std::vector<WorldHit> hits =
      BruteBodyCastAll(body, translation, level, filter, options);
  if (hits.empty()) return std::nullopt;
  return hits.front();
}

// The shapes `body` overlaps beyond rounding at rest (a zero-translation
// cast), with their separation normals and depths.
inline std::vector<WorldHit> BruteOverlaps(const BodyShape& body,
                                           const Level& level,
                                           const QueryFilter& filter) {
  return BruteBodyCastAll(body, Vec2{}, level, filter, {});
}

// The deepest penetration of `body` into any matching shape (0 if none).
inline double BruteDeepest(const BodyShape& body, const Level& level,
                           const QueryFilter& filter) {
  double deepest = 0.0;
  for (const WorldHit& h : BruteOverlaps(body, level, filter)) {
    deepest = std::max(deepest, h.hit.depth);
  }
  return deepest;
}

// One target's cast with the toi.h moving-vs-moving functions.
inline std::optional<Hit> BruteTargetCast(const Shot& shot,
                                          const ShotTarget& target,
                                          const CastOptions& options) {
  return std::visit(
      [&](const auto& hitbox) -> std::optional<Hit> {
        using Shape = std::decay_t<decltype(hitbox)>;
        const Moving<Shape> moving{hitbox, target.translation};
        if (shot.radius > 0.0) {
          return CastCircle(
              CircleCast{{shot.origin, shot.radius}, shot.translation}, moving,
              options);
        }
        return CastRay(RayInput{shot.origin, shot.translation}, moving,
                       options);
      },
      target.hitbox);
}

// The shot by brute force: every level shape and every target over the
// whole tick, then the rules of ValidateShot (earliest; a wall wins a tie;
// then the smallest target id, then the first in the list).
inline std::optional<ShotHit> BruteShot(const Shot& shot, const Level& level,
                                        absl::Span<const ShotTarget> targets,
                                        const QueryFilter& filter) {
  std::optional<ShotHit> best;
  const std::optional<WorldHit> wall =
      shot.radius > 0.0
          ? BruteCast(CircleCast{{shot.origin, shot.radius}, shot.translation},
                      level, filter, {})
          : BruteCast(RayInput{shot.origin, shot.translation}, level, filter,
                      {});
  if (wall) {
    best = ShotHit{ShotHitKind::kWall, wall->shape_id, wall->user_data, -1,
                   wall->hit};
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const std::optional<Hit> hit = BruteTargetCast(shot, targets[i], {});
    if (!hit) continue;
    if (best &&
        (hit->fraction > best->hit.fraction ||
         (hit->fraction == best->hit.fraction &&
          (best->kind == ShotHitKind::kWall || targets[i].id >= best->id)))) {
      continue;
    }
    best = ShotHit{ShotHitKind::kTarget, targets[i].id, 0,
                   static_cast<int32_t>(i), *hit};
  }
  return best;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_LIB_VALIDATE_BRUTE_FORCE_H_
