// Internal: the directions an occluder covers from a viewer, as intervals
// of a pseudo-angle computed in double and widened past their rounding.
// They only choose which sight lines an occluder is tested against (a
// sight line it blocks always has its direction inside), never answer.
#ifndef COLLIDE_LIB_SRC_VISIBILITY_SIGHT_ARCS_H_
#define COLLIDE_LIB_SRC_VISIBILITY_SIGHT_ARCS_H_

#include <algorithm>
#include <cmath>

#include "collide/level.h"
#include "collide/vec2.h"

namespace collide::internal {

// Widening of every pseudo-angle interval, far beyond its rounding (a few
// ulps of values below 4).
inline constexpr double kAngleMargin = 1e-9;
// Relative margin on squared distances computed in double (a few
// roundings).
inline constexpr double kDistanceMargin = 1e-9;

// A pseudo-angle of d != 0 in [0, 4), increasing counter-clockwise from +x.
inline double PseudoAngle(Vec2 d) {
  const double p = d.y / (std::abs(d.x) + std::abs(d.y));
  if (d.x >= 0.0) return p >= 0.0 ? p : 4.0 + p;
  return 2.0 - p;
}

// The directions from the viewer a set of points covers, as [lo, hi] with
// hi - lo < 1.9 (lo may be negative, hi may pass 4), or full.
struct Arc {
  double lo = 0.0;
  double hi = 4.0;
  bool full = true;
};

// Whether pseudo-angle `angle` (in [0, 4)) lies in the arc.
inline bool InArc(const Arc& arc, double angle) {
  return arc.full || (angle >= arc.lo && angle <= arc.hi) ||
         (angle + 4.0 >= arc.lo && angle + 4.0 <= arc.hi) ||
         (angle - 4.0 >= arc.lo && angle - 4.0 <= arc.hi);
}

// The arc of the segment [a, b] seen from v.
inline Arc SegmentArc(Vec2 v, Vec2 a, Vec2 b) {
  // An end at v makes a pseudo-angle NaN, and the arc full.
  const double pa = PseudoAngle(a - v);
  double delta = PseudoAngle(b - v) - pa;
  if (delta > 2.0) delta -= 4.0;
  if (delta < -2.0) delta += 4.0;
  if (!(std::abs(delta) <= 1.9)) return {};
  return {std::min(pa, pa + delta) - kAngleMargin,
          std::max(pa, pa + delta) + kAngleMargin, false};
}

// The arc of a box seen from v (full when v is in it or near).
inline Arc BoxArc(Vec2 v, Vec2 lower, Vec2 upper) {
  const double slack_x = 1e-12 * (std::abs(lower.x) + std::abs(upper.x));
  const double slack_y = 1e-12 * (std::abs(lower.y) + std::abs(upper.y));
  if (v.x >= lower.x - slack_x && v.x <= upper.x + slack_x &&
      v.y >= lower.y - slack_y && v.y <= upper.y + slack_y) {
    return {};
  }
  const Vec2 corners[4] = {
      lower, {upper.x, lower.y}, upper, {lower.x, upper.y}};
  const double p0 = PseudoAngle(corners[0] - v);
  double low = 0.0;
  double high = 0.0;
  for (int i = 1; i < 4; ++i) {
    double delta = PseudoAngle(corners[i] - v) - p0;
    if (delta > 2.0) delta -= 4.0;
    if (delta < -2.0) delta += 4.0;
    low = std::min(low, delta);
    high = std::max(high, delta);
  }
  if (high - low > 1.9) return {};
  return {p0 + low - kAngleMargin, p0 + high + kAngleMargin, false};
}

// A lower bound of the squared distance from v to the box.
inline double BoxDistanceSquared(Vec2 v, Vec2 lower, Vec2 upper) {
  const double dx = std::max({0.0, lower.x - v.x, v.x - upper.x});
  const double dy = std::max({0.0, lower.y - v.y, v.y - upper.y});
  return (dx * dx + dy * dy) * (1.0 - kDistanceMargin);
}

// The directions primitive p covers from v, and a lower bound of its
// squared distance: no sight line from v shorter than that, or outside the
// arc, can meet p.
struct Extent {
  Arc arc;
  double near_squared = 0.0;
};

inline Extent ExtentOf(Vec2 v, const Level::Primitive& p) {
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
    case Level::PrimitiveKind::kConcaveEdge: {
      const Vec2 lower{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)};
      const Vec2 upper{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)};
      // A concave edge answers for its whole polygon only in its own
      // directions, which is enough: a sight line through the polygon's
      // interior leaves it, towards the viewer, through an edge (or at
      // the viewer on one), in that edge's directions and nearer than
      // the target.
      return {SegmentArc(v, p.a, p.b), BoxDistanceSquared(v, lower, upper)};
    }
    case Level::PrimitiveKind::kCircle: {
      const Vec2 r{p.radius, p.radius};
      return {BoxArc(v, p.a - r, p.a + r),
              BoxDistanceSquared(v, p.a - r, p.a + r)};
    }
    case Level::PrimitiveKind::kCapsule: {
      const Vec2 r{p.radius, p.radius};
      const Vec2 lower =
          Vec2{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)} - r;
      const Vec2 upper =
          Vec2{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)} + r;
      return {BoxArc(v, lower, upper), BoxDistanceSquared(v, lower, upper)};
    }
    case Level::PrimitiveKind::kConvexPolygon:
      // p.a and p.b are the polygon's bounding box.
      return {BoxArc(v, p.a, p.b), BoxDistanceSquared(v, p.a, p.b)};
  }
  return {};
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VISIBILITY_SIGHT_ARCS_H_
