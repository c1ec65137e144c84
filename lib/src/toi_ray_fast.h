// Internal: closed-form ray casts for the pairs that dominate level queries
// (bullets against walls, pillars and crates), without a skin. Each handles
// a ray that starts clearly away from the shape and returns its answer;
// for a start in or near contact it returns `general()`, the caller's call
// of the general machinery of convex_core.h, so both paths give the same
// semantics.
#ifndef COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
#define COLLIDE_LIB_SRC_TOI_RAY_FAST_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "convex_core.h"
#include "exact_sign.h"

namespace collide::internal {

// Defined here so that each folds into its public CastRay and every answer
// is built in the caller's return value (a prvalue returned): these calls
// take ~10 ns, and copying a just-written Hit (a store-forwarding stall),
// GCC's zero-fill of a default-constructed optional<Hit>, or a stack frame
// for the general machinery's answer each cost a share of that.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, Segment segment, double max_fraction,
    double exact_limit, General&& general) {
  const Vec2 e = segment.p2 - segment.p1;
  const Vec2 m = ray.origin - segment.p1;
  const Vec2 d = ray.translation;
  const double length_squared = Dot(e, e);
  // |e| times the signed distance of the origin from the line, and its rate.
  const double cm_left = e.x * m.y;
  const double cm_right = e.y * m.x;
  const double cm = cm_left - cm_right;
  const double cd = Cross(e, d);
  // The start is certainly off the segment's line when cm exceeds its
  // rounding bound (orient2d's filter, exact_sign.h); otherwise (a point, or
  // on or next to the line) the general machinery decides exactly.
  if (length_squared == 0.0 ||
      !(std::abs(cm) >
        kCrossErrorBound * (std::abs(cm_left) + std::abs(cm_right)))) {
    return general();
  }
  if (cm * cd >= 0.0) return std::nullopt;  // not closing on the line
  double t = -cm / cd;
  // Where the ray's end (at exact_limit) is within rounding of the line,
  // the rounded t cannot tell a contact exactly at exact_limit (a move
  // ending on the wall: a hit) from one just after it: decide exactly.
  const double end = cm + exact_limit * cd;
  if (std::abs(end) <=
      kFilterRoundings *
          (std::abs(cm_left) + std::abs(cm_right) +
           exact_limit * (std::abs(e.x * d.y) + std::abs(e.y * d.x)))) {
    const int end_side =
        OrientAfter(segment.p1, segment.p2, ray.origin, d, exact_limit);
    if (end_side == (cm > 0.0 ? 1 : -1)) return std::nullopt;
    t = std::min(t, exact_limit);
  }
  if (t > max_fraction) return std::nullopt;
  const double along = Dot(m + t * d, e);
  if (along < 0.0 || along > length_squared) return std::nullopt;
  return Hit{.fraction = t,
             .point = segment.p1 + (along / length_squared) * e,
             .normal = (1.0 / std::sqrt(length_squared)) *
                       (cm > 0.0 ? LeftPerp(e) : RightPerp(e)),
             .depth = 0.0,
             .feature = along == 0.0 ? Feature{FeatureType::kVertex, 0}
                        : along == length_squared
                            ? Feature{FeatureType::kVertex, 1}
                            : Feature{FeatureType::kEdge, 0},
             .status = HitStatus::kHit};
}

template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, Circle circle, double max_fraction,
    double /*exact_limit*/, General&& general) {
  const Vec2 m = ray.origin - circle.center;
  const Vec2 d = ray.translation;
  const double r = circle.radius;
  const double mm = Dot(m, m);
  const double rr = r * r;
  const double dd = Dot(d, d);
  // Only a start certainly apart (|m| > r, rounding included) is answered
  // here; the general machinery decides the rest exactly.
  if (r == 0.0 ||
      !(mm * (1.0 - kFilterRoundings) > rr * (1.0 + kFilterRoundings))) {
    return general();
  }
  const double b = Dot(d, m);
  if (b >= 0.0) return std::nullopt;
  // Discriminant as a r^2 - (d x m)^2 and the root as c / q: see
  // SweepPointCircle.
  const double cross = Cross(d, m);
  double discriminant = dd * r * r - cross * cross;
  const double c0 = mm - rr;
  const double near_tangent = 1e-6 * (dd * rr + cross * cross);
  if (discriminant <= near_tangent) {
    if (discriminant < -near_tangent) return std::nullopt;
    // Near tangency the rounded discriminant's sign is not the line's:
    // decide whether the ray's line meets the circle exactly (a tangent
    // line touches, at discriminant 0).
    const int apart =
        DirectionDistanceVs(circle.center, d, ray.origin, r, 0.0, 0.0);
    if (apart > 0) return std::nullopt;
    discriminant = apart == 0 ? 0.0 : std::max(discriminant, 0.0);
  }
  const double q = -b + std::sqrt(discriminant);
  // t = c0 / q: a contact after max_fraction is a miss, told without the
  // division (which decides the rounding-level rest).
  if (c0 > max_fraction * q) return std::nullopt;
  const double t = c0 / q;
  if (t > max_fraction) return std::nullopt;
  // The contact offset m + t d scaled by q > 0, available without waiting
  // for the division, is of length q r: dividing by that and one Newton
  // step on the length (1 / sqrt(1 + e) = 1 - e / 2 + O(e^2)) make the
  // normal without a square root. The offset's two terms cancel to about
  // r / |m| of their size, so for rays from far away (beyond ~1e8 radii)
  // rounding leaves the estimate too far from unit: normalise those.
  const Vec2 offset = q * m + c0 * d;
  const Vec2 estimate = (1.0 / (q * r)) * offset;
  const double excess = Dot(estimate, estimate) - 1.0;
  // From far enough away the offset can cancel to exactly zero: no
  // direction left, which the general machinery's fallback then gives.
  if (offset == Vec2{}) return general();
  const Vec2 normal = std::abs(excess) < 1e-7 ? (1.0 - 0.5 * excess) * estimate
                                              : Normalize(offset);
  return Hit{.fraction = t,
             .point = circle.center + r * normal,
             .normal = normal,
             .depth = 0.0,
             .feature = {FeatureType::kSurface, 0},
             .status = HitStatus::kHit};
}

// A convex polygon, read through `polygon.count()`, `vertex(i)` and
// `normal(i)` (the outward normal of edge i, from vertex i to i + 1), so a
// level can keep a packed copy and get the same answer, bit for bit.
template <typename ConvexView, typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClearConvex(
    const RayInput& ray, const ConvexView& polygon, double max_fraction,
    double exact_limit, General&& general) {
  const Vec2 p = ray.origin;
  const Vec2 d = ray.translation;
  // Cyrus-Beck clipping, entering side only. A ray that starts outside an
  // edge's line and does not close on it, or reaches it only after
  // max_fraction, misses. Otherwise it meets the polygon, if at all, where
  // it crosses the last of the lines it starts outside of (edge `enter`).
  // These answers are final only for a ray that certainly starts outside:
  // more than its rounding bound (the rounded normal's and the dot
  // product's few ulps of the offset, ClearMargin) outside some line, which
  // edge `enter` usually shows, else all the lines are looked at again.
  const auto clear_margin = [](Vec2 m) {
    return kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
  };
  // Whether line i's closing ray ends (at exact_limit) within rounding of
  // it, where the rounded t cannot tell a contact exactly at exact_limit (a
  // move ending on the polygon: a hit) from one just after it; and whether
  // it reaches the line by then, decided exactly on the edge's vertices.
  const int count = polygon.count();
  const double end_margin = exact_limit * clear_margin(d);
  const auto end_is_near = [&](double distance, double closing, Vec2 m) {
    return std::abs(distance - exact_limit * closing) <=
           clear_margin(m) + end_margin;
  };
  const auto reaches_by_end = [&](int i) {
    return OrientAfterExact(polygon.vertex(i),
                            polygon.vertex(i + 1 == count ? 0 : i + 1), p, d,
                            exact_limit) >= 0;
  };
  double t_enter = 0.0;
  double enter_distance = 0.0;
  int enter = -1;
  bool misses = false;     // a miss, once the start is known to be clear
  bool ends_near = false;  // some line reached in time is near the end
  for (int i = 0; i < count; ++i) {
    const Vec2 n = polygon.normal(i);
    const Vec2 m = p - polygon.vertex(i);
    const double distance = Dot(m, n);
    if (distance <= 0.0) continue;
    // Divided before the closing rate's sign is tested, so that the only
    // branch a random ray makes unpredictable is the one above: t is a time
    // only where the ray closes on the line.
    const double closing = -Dot(d, n);
    double t = distance / closing;
    if (closing <= 0.0 || t > max_fraction) {
      // Past max_fraction is final unless that is the sweep's own limit and
      // the end is near the line (then decided exactly here; before it,
      // once the rest makes a hit, below).
      if (closing > 0.0 && max_fraction >= exact_limit &&
          end_is_near(distance, closing, m) && reaches_by_end(i)) {
        t = exact_limit;
      } else {
        if (distance > clear_margin(m)) return std::nullopt;
        misses = true;
        continue;
      }
    } else {
      ends_near |= end_is_near(distance, closing, m);
    }
    if (t > t_enter) {
      t_enter = t;
      enter_distance = distance;
      enter = i;
    }
  }
  if (misses || enter < 0 ||
      !(enter_distance > clear_margin(p - polygon.vertex(enter)))) {
    bool clear = false;  // some line certainly has the start outside
    for (int i = 0; i < count; ++i) {
      const Vec2 m = p - polygon.vertex(i);
      clear |= Dot(m, polygon.normal(i)) > clear_margin(m);
    }
    if (!clear) return general();
    if (misses) return std::nullopt;
    // Clear, yet every line it is outside of gave t = 0: the distance over
    // the closing rate underflowed (subnormal offsets).
    if (enter < 0) return general();
  }
  // The start is clear (some line is certainly out) and the ray
  // closes on every line it starts outside of, in time: the farthest out
  // set a positive t_enter.
  COLLIDE_DCHECK(enter >= 0);
  const int previous = enter == 0 ? count - 1 : enter - 1;
  const int next = enter + 1 == count ? 0 : enter + 1;
  const Vec2 a = polygon.vertex(enter);
  const Vec2 e = polygon.vertex(next) - a;
  const Vec2 entry = (p - a) + t_enter * d;  // relative to a
  const double along = Dot(entry, e);
  const double length_squared = Dot(e, e);
  // Entering line `enter` before its edge starts (or past its end) is being
  // outside the previous (next) edge's line, which the ray must then be
  // moving out of (a line it closes on, it would cross before): it has
  // passed beside the polygon. Moving into that line instead, the point is
  // the shared vertex and along's sign only rounding.
  if ((along < 0.0 && Dot(d, polygon.normal(previous)) > 0.0) ||
      (along > length_squared && Dot(d, polygon.normal(next)) > 0.0)) {
    return std::nullopt;
  }
  // A hit: each line the ray starts outside of is reached by t_enter <=
  // max_fraction as rounded; where the end is near a line, check that it is
  // reached by exact_limit exactly.
  for (int i = 0; ends_near && i < count; ++i) {
    const Vec2 n = polygon.normal(i);
    const Vec2 m = p - polygon.vertex(i);
    const double distance = Dot(m, n);
    if (distance > 0.0 && end_is_near(distance, -Dot(d, n), m) &&
        !reaches_by_end(i)) {
      return std::nullopt;
    }
  }
  const Vec2 normal = polygon.normal(enter);
  Vec2 point;
  Feature feature;
  if (along <= 0.0) {
    point = a;
    feature = {FeatureType::kVertex, enter};
  } else if (along >= length_squared) {
    point = polygon.vertex(next);
    feature = {FeatureType::kVertex, next};
  } else {
    // The entry point projected onto the edge's line (no division by the
    // edge's length).
    point = a + (entry - Dot(entry, normal) * normal);
    feature = {FeatureType::kEdge, enter};
  }
  return Hit{.fraction = t_enter,
             .point = point,
             .normal = normal,
             .depth = 0.0,
             .feature = feature,
             .status = HitStatus::kHit};
}

// ConvexPolygon as a ConvexView.
struct ConvexPolygonView {
  const ConvexPolygon& polygon;
  int count() const { return polygon.count; }
  Vec2 vertex(int i) const { return polygon.vertices[i]; }
  Vec2 normal(int i) const { return polygon.normals[i]; }
};

template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, const ConvexPolygon& polygon, double max_fraction,
    double exact_limit, General&& general) {
  return CastRayClearConvex(ray, ConvexPolygonView{polygon}, max_fraction,
                            exact_limit, general);
}

// A solid simple polygon: the closed form against each edge facing the ray
// (outward normal against the motion), earliest wins, first edge on ties as
// in SweepCoreVsConcave. A start inside or on the boundary, or near any
// facing edge's line, is left to the general machinery.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, const ConcavePolygon& polygon, double max_fraction,
    double exact_limit, General&& general) {
  if (PointInPolygonExact(polygon.vertices, ray.origin) >= 0) return general();
  const int n = static_cast<int>(polygon.vertices.size());
  double limit = max_fraction;
  std::optional<Hit> best;
  for (int i = 0; i < n; ++i) {
    const int next = i + 1 == n ? 0 : i + 1;
    const Segment edge{polygon.vertices[i], polygon.vertices[next]};
    // Outward normal orientation * RightPerp(e): facing the ray when
    // orientation * cross(d, e) < 0.
    if (polygon.orientation * Cross(ray.translation, edge.p2 - edge.p1) >=
        0.0) {
      continue;
    }
    bool near = false;
    const std::optional<Hit> hit =
        CastRayClear(ray, edge, limit, exact_limit, [&] {
          near = true;
          return std::optional<Hit>();
        });
    if (near) return general();
    if (hit && (!best || hit->fraction < limit)) {
      best = hit;
      best->feature.index = best->feature.type == FeatureType::kVertex
                                ? (best->feature.index == 0 ? i : next)
                                : i;
      limit = hit->fraction;
    }
  }
  return best;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
