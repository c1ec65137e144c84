// The references the validation queries (collide/validate.h) are checked
// against: brute-force casts of a body at any pose (a loop over every level
// shape with the toi.h per-shape functions, query_brute_force.h), and a
// brute-force shot over the level's shapes and every target.
#ifndef COLLIDE_TESTS_LIB_VALIDATE_BRUTE_FORCE_H_
#define COLLIDE_TESTS_LIB_VALIDATE_BRUTE_FORCE_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
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

// f(cast) for the toi.h cast of `body` by `translation`.
template <typename F>
auto WithCast(const BodyShape& body, Vec2 translation, F&& f) {
  return std::visit(
      [&](const auto& shape) {
        using Shape = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<Shape, Circle>) {
          return f(CircleCast{shape, translation});
        } else if constexpr (std::is_same_v<Shape, Capsule>) {
          return f(CapsuleCast{shape, translation});
        } else {
          return f(PolygonCast{shape, translation});
        }
      },
      body);
}

// Every matching shape's answer to `body` cast by `translation`, sorted by
// (fraction, id), from the per-shape functions.
inline std::vector<WorldHit> BruteBodyCastAll(const BodyShape& body,
                                              Vec2 translation,
                                              const Level& level,
                                              const QueryFilter& filter,
                                              const CastOptions& options) {
  return WithCast(body, translation, [&](const auto& cast) {
    return BruteCastAll(cast, level, filter, options);
  });
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

// A convex part as points plus a radius (a circle's centre, a capsule's or
// segment's ends, a polygon's vertices).
struct BrutePart {
  std::vector<Vec2> points;
  double radius = 0.0;
};

inline BrutePart PartOf(const BodyShape& body) {
  if (const Circle* c = std::get_if<Circle>(&body)) {
    return {{c->center}, c->radius};
  }
  if (const Capsule* c = std::get_if<Capsule>(&body)) {
    return {{c->p1, c->p2}, c->radius};
  }
  const ConvexPolygon& p = std::get<ConvexPolygon>(body);
  return {std::vector<Vec2>(p.vertices.begin(), p.vertices.begin() + p.count),
          0.0};
}

// The gap across the motion d between a mover and a convex part: how far
// apart their projections on the axis across d lie (negative: they
// overlap), in level units, rounded. A mover meeting a part it is apart
// from across its motion only touches it (validate.h: no block).
inline double BruteAcrossGap(const BrutePart& mover, Vec2 d,
                             const BrutePart& part) {
  const double length = Length(d);
  const auto range = [&](const BrutePart& x) {
    double low = 1e300, high = -1e300;
    for (const Vec2 v : x.points) {
      low = std::min(low, Cross(d, v) / length);
      high = std::max(high, Cross(d, v) / length);
    }
    return std::pair<double, double>{low - x.radius, high + x.radius};
  };
  const auto [a_low, a_high] = range(mover);
  const auto [b_low, b_high] = range(part);
  return std::max(a_low - b_high, b_low - a_high);
}

// The parts of level shape i whose touches do not block when a line along
// the motion separates them from the mover: the shape (a polyline: each
// segment, with its own answer).
inline std::vector<BrutePart> ConvexPartsOf(const Level& level, int i) {
  switch (level.kind(i)) {
    case ShapeKind::kSegment:
      return {{{level.segment(i).p1, level.segment(i).p2}, 0.0}};
    case ShapeKind::kCircle:
      return {{{level.circle(i).center}, level.circle(i).radius}};
    case ShapeKind::kCapsule:
      return {{{level.capsule(i).p1, level.capsule(i).p2},
               level.capsule(i).radius}};
    case ShapeKind::kConvexPolygon: {
      const ConvexPolygon& p = level.convex_polygon(i);
      return {
          {std::vector<Vec2>(p.vertices.begin(), p.vertices.begin() + p.count),
           0.0}};
    }
    case ShapeKind::kPolyline: {
      const PolylineDesc polyline = level.polyline(i);
      const int n = static_cast<int>(polyline.vertices.size());
      std::vector<BrutePart> parts;
      for (int k = 0; k < (polyline.closed ? n : n - 1); ++k) {
        parts.push_back(
            {{polyline.vertices[k], polyline.vertices[(k + 1) % n]}, 0.0});
      }
      return parts;
    }
    case ShapeKind::kConcavePolygon: {
      const ConcavePolygon p = level.concave_polygon(i);
      return {{std::vector<Vec2>(p.vertices.begin(), p.vertices.end()), 0.0}};
    }
  }
  return {};
}

// BruteBodyCast less the contacts that do not block a move (validate.h):
// hits (not overlaps at the start) of parts the mover is apart from across
// its motion. A part within `ambiguous` of touching across the
// motion, where the rounded gap cannot tell, sets *unsure instead.
inline std::optional<WorldHit> BruteBlockingCast(
    const BodyShape& body, Vec2 translation, const Level& level,
    const CastOptions& options, double ambiguous, bool* unsure) {
  const BrutePart mover = PartOf(body);
  std::optional<WorldHit> best;
  int best_shape = 0;
  int best_part = 0;
  // Every blocking hit: (hit, shape, polyline part).
  std::vector<std::tuple<WorldHit, int, int>> blocking_hits;
  for (int i = 0; i < level.shape_count(); ++i) {
    const std::vector<BrutePart> parts = ConvexPartsOf(level, i);
    const auto blocking = [&](const BrutePart& part, const Hit& hit) {
      if (hit.status != HitStatus::kHit) return true;
      const double gap = BruteAcrossGap(mover, translation, part);
      if (std::abs(gap) <= ambiguous) *unsure = true;
      return gap < 0.0;
    };
    std::optional<Hit> hit;
    int hit_part = 0;
    if (level.kind(i) == ShapeKind::kPolyline) {
      const PolylineDesc polyline = level.polyline(i);
      const int n = static_cast<int>(polyline.vertices.size());
      for (size_t k = 0; k < parts.size(); ++k) {
        const BrutePart& part = parts[k];
        const Segment segment{part.points[0], part.points[1]};
        // A slide past a shared vertex onto a convex bend is no hit.
        const std::optional<Hit> h =
            WithCast(body, translation, [&](const auto& cast) {
              std::optional<Hit> found = AnyCast(cast, segment, options);
              if (found) {
                Hit renumbered = *found;
                if (renumbered.feature.type == FeatureType::kVertex &&
                    renumbered.feature.index == 1) {
                  renumbered.feature.index = (static_cast<int>(k) + 1) % n;
                } else {
                  renumbered.feature.index = static_cast<int>(k);
                }
                if (BruteSlidesOntoBend(cast, polyline, static_cast<int>(k),
                                        renumbered)) {
                  found.reset();
                }
              }
              return found;
            });
        if (h && blocking(part, *h) && (!hit || RanksBefore(*h, *hit))) {
          hit = h;
          hit_part = static_cast<int>(k);
        }
      }
    } else {
      hit = WithCast(body, translation, [&](const auto& cast) {
        return BruteShapeCast(cast, level, i, options);
      });
      if (hit && !parts.empty() && !blocking(parts[0], *hit)) hit.reset();
    }
    if (!hit) continue;
    const WorldHit world{*hit, level.id(i), level.user_data(i)};
    blocking_hits.emplace_back(world, i, hit_part);
    if (!best || world.hit.fraction < best->hit.fraction ||
        (world.hit.fraction == best->hit.fraction &&
         (RanksBefore(world.hit, best->hit) ||
          (world.hit.status == best->hit.status &&
           world.shape_id < best->shape_id)))) {
      best = world;
      best_shape = i;
      best_part = hit_part;
    }
  }
  // A blocking hit of another shape at the same exact time is a settled
  // tie: the answer reports that time correctly rounded.
  if (best) {
    for (const auto& [other, shape, part] : blocking_hits) {
      if (shape == best_shape ||
          !internal::NearTie(other.hit.fraction, best->hit.fraction)) {
        continue;
      }
      const bool equal = WithCast(body, translation, [&](const auto& cast) {
        const auto tb =
            BruteTime(cast, options, level, best_shape, best_part, best->hit);
        const auto to = BruteTime(cast, options, level, shape, part, other.hit);
        return tb && to && internal::CompareTimes(*tb, *to) == 0;
      });
      if (equal) {
        best->hit.fraction = WithCast(body, translation, [&](const auto& cast) {
          return internal::RoundTime(*BruteTime(
              cast, options, level, best_shape, best_part, best->hit));
        });
        break;
      }
    }
  }
  return best;
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
