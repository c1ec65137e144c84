// Internal: world casts' ties decided on exact times. Two candidates whose
// rounded fractions are within kNearTie (exact/exact_time.h) may meet at
// one exact time along different paths (a mover's vertex on one shape's
// edge, another shape's vertex on a mover's edge), which rounding can
// report an ulp apart, or at exact times that differ by less than an ulp.
// So a near tie is decided on their exact times (a ratio for two
// zero-radius shapes, the smaller root of a quadratic where one is round:
// a circle, a capsule of positive radius): the exactly earlier ranks
// first, equal ones go on to the Rank order (the id) and both report their
// time correctly rounded, and where the rounded times of different ones
// contradict their order (the earlier as the larger) both are correctly
// rounded too: one exact time is one double, in an answer and across the
// closest hit and the list, and a list's fractions never decrease.
//
// A skin (target_distance > 0) grows both shapes by it: the contact is
// where the gap first equals the skin, a round time even between flat
// shapes, and a start within the skin closing on it is at exactly 0.
//
// Undecided here (the rounded order stands): initial overlaps, which their
// own rules rank; a hit on a concave solid that starts within the skin of
// an edge, or at fraction 0 touching an edge (its own rules); a hit whose
// exact time this cannot place within kNearTie of its fraction.
#ifndef COLLIDE_LIB_SRC_WORLD_EXACT_TIES_H_
#define COLLIDE_LIB_SRC_WORLD_EXACT_TIES_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "absl/base/attributes.h"
#include "collide/level.h"
#include "collide/toi.h"
#include "exact/exact_time.h"
#include "world/caster.h"
#include "world/query_common.h"

namespace collide::internal {

// Whether two rounded fractions are a near tie. One subtraction on the
// common path.
inline bool NearTie(double a, double b) { return std::abs(a - b) <= kNearTie; }

// The reach a cast must keep past its best fraction so far, so that a
// candidate tied with it is still cast and offered.
inline double TieReach(double best, double max_fraction) {
  return std::min(best + kNearTie, max_fraction);
}

// The mover's zero-radius core and its radius.
template <typename Cast>
void MoverCorners(const Cast& cast, Corners* c, double* radius) {
  *radius = 0.0;
  if constexpr (std::is_same_v<Cast, RayInput>) {
    c->points[0] = cast.origin;
    c->count = 1;
  } else if constexpr (std::is_same_v<Cast, CircleCast>) {
    c->points[0] = cast.circle.center;
    c->count = 1;
    *radius = cast.circle.radius;
  } else if constexpr (std::is_same_v<Cast, CapsuleCast>) {
    c->points[0] = cast.capsule.p1;
    c->points[1] = cast.capsule.p2;
    c->count = cast.capsule.p1 == cast.capsule.p2 ? 1 : 2;
    *radius = cast.capsule.radius;
  } else {
    const ConvexPolygon& p = cast.polygon;
    for (int i = 0; i < p.count; ++i) c->points[i] = p.vertices[i];
    c->count = p.count;
  }
}

inline void SegmentCorners(Vec2 a, Vec2 b, Corners* c) {
  c->points[0] = a;
  c->points[1] = b;
  c->count = a == b ? 1 : 2;
}

// The exact time of a candidate's contact (see the file comment for what
// is left undecided), out of line: asked only at near ties. Round shapes
// cost more (up to 40 candidate features of the grown difference, each
// placed from exact coefficients), still only here.
template <typename Cast>
ABSL_ATTRIBUTE_NOINLINE std::optional<ExactTime> CandidateTime(
    const Cast& cast, const CastOptions& options, const Level& level,
    const Candidate& c) {
  if (c.hit.status != HitStatus::kHit || !(c.hit.fraction >= 0.0)) {
    return std::nullopt;
  }
  // A skin grows every shape: the contact is where the gap first equals
  // it, the time of the shapes grown by it (round even when both are flat).
  const double skin = options.target_distance;
  Corners mover;
  double mover_radius = 0.0;
  MoverCorners(cast, &mover, &mover_radius);
  Corners obstacle;
  double obstacle_radius = 0.0;
  std::optional<ExactTime> t;
  const auto first_contact = [&]() {
    return mover_radius == 0.0 && obstacle_radius == 0.0 && skin == 0.0
               ? FirstContactTime(mover, obstacle, cast.translation)
               : FirstRoundContactTime(mover, mover_radius, obstacle,
                                       obstacle_radius, skin, cast.translation);
  };
  switch (level.kind(c.shape)) {
    case ShapeKind::kSegment: {
      const Segment s = level.segment(c.shape);
      SegmentCorners(s.p1, s.p2, &obstacle);
      break;
    }
    case ShapeKind::kPolyline: {
      const PolylineDesc p = level.polyline(c.shape);
      const int32_t n = static_cast<int32_t>(p.vertices.size());
      SegmentCorners(p.vertices[c.part], p.vertices[(c.part + 1) % n],
                     &obstacle);
      break;
    }
    case ShapeKind::kConvexPolygon: {
      const ConvexPolygon& p = level.convex_polygon(c.shape);
      for (int i = 0; i < p.count; ++i) obstacle.points[i] = p.vertices[i];
      obstacle.count = p.count;
      break;
    }
    case ShapeKind::kCircle: {
      const Circle circle = level.circle(c.shape);
      obstacle_radius = circle.radius;
      obstacle.points[0] = circle.center;
      obstacle.count = 1;
      break;
    }
    case ShapeKind::kCapsule: {
      const Capsule capsule = level.capsule(c.shape);
      obstacle_radius = capsule.radius;
      SegmentCorners(capsule.p1, capsule.p2, &obstacle);
      break;
    }
    case ShapeKind::kConcavePolygon: {
      // The first contact with the solid's boundary: the earliest over its
      // edges (a start touching one edge gives none for it). A start within
      // the skin of an edge, or a hit at fraction 0 beside an edge touched
      // at the start, follows the solid's own rules (toi.h: the skin of an
      // edge facing the motion, a slide off a touched edge): undecided. A
      // hit at fraction 0 apart from every edge is a contact whose time
      // rounded to 0: the earliest over the edges, as any later one.
      const absl::Span<const Vec2> v = level.concave_polygon(c.shape).vertices;
      const size_t n = v.size();
      for (size_t i = 0; i < n; ++i) {
        SegmentCorners(v[i], v[(i + 1) % n], &obstacle);
        if ((skin != 0.0 || c.hit.fraction == 0.0) &&
            StartsWithin(mover, mover_radius, obstacle, 0.0, skin)) {
          return std::nullopt;
        }
        const std::optional<ExactTime> edge = first_contact();
        if (edge && (!t || CompareTimes(*edge, *t) < 0)) t = edge;
      }
      obstacle.count = 0;
      break;
    }
  }
  if (obstacle.count > 0) {
    // A hit at fraction 0 is a touching start moving in, or one within the
    // skin closing on it (exactly 0), or a later contact whose time rounded
    // to 0.
    if (c.hit.fraction == 0.0 &&
        StartsWithin(mover, mover_radius, obstacle, obstacle_radius, skin)) {
      return ExactTime{Expansion(), Expansion(1.0)};
    }
    t = first_contact();
  }
  // A contact the per-shape cast placed elsewhere (a rule of its own) is
  // not this one.
  if (t && !NearTie(RoundTime(*t), c.hit.fraction)) return std::nullopt;
  return t;
}

// Decides a near tie between a (of layer level_a) and b (of level_b) on
// exact times: whether a ranks before b, with both fractions rewritten to
// their exact times correctly rounded where the times of two shapes are
// equal (so that one exact time is one double whichever tie examined it,
// in the closest hit and in the list alike) or their rounding contradicts
// the exact order (RoundingContradicts); nullopt, with neither rewritten,
// when either time is not decided here.
template <typename Cast>
ABSL_ATTRIBUTE_NOINLINE std::optional<bool> SettleNearTie(
    const Cast& cast, const CastOptions& options, const Level& level_a,
    Candidate& a, const Level& level_b, Candidate& b) {
  const std::optional<ExactTime> ta = CandidateTime(cast, options, level_a, a);
  if (!ta) return std::nullopt;
  const std::optional<ExactTime> tb = CandidateTime(cast, options, level_b, b);
  if (!tb) return std::nullopt;
  const int order = CompareTimes(*ta, *tb);
  // Two parts of one polyline met at their shared vertex are one contact,
  // computed alike: they keep their value unless it contradicts.
  const bool one_shape = &level_a == &level_b && a.shape == b.shape;
  if ((order == 0 && !one_shape) ||
      RoundingContradicts(order, a.hit.fraction, b.hit.fraction)) {
    a.hit.fraction = RoundTime(*ta);
    b.hit.fraction = RoundTime(*tb);
  }
  if (order != 0) return order < 0;
  return a.RankIn(level_a) < b.RankIn(level_b);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_EXACT_TIES_H_
