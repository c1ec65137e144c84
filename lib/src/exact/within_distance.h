// Internal: exact "within distance" decisions for shapes at rest, the
// predicates behind Overlaps (intersect.h) and ClosestPoint (query.h), and
// for a sweep's very start (sweep/start_state.cc): whether two grown hulls come
// within a reach of each other, decided by the exact signs of exact/sign.h.
// Touching (distance exactly the reach) is within.
#ifndef COLLIDE_LIB_SRC_EXACT_WITHIN_DISTANCE_H_
#define COLLIDE_LIB_SRC_EXACT_WITHIN_DISTANCE_H_

#include "collide/shapes.h"
#include "collide/vec2.h"

namespace collide::internal {

// A convex shape as its core's vertices (1: a point, 2: a segment, more: a
// counter-clockwise polygon) grown by a radius.
struct Hull {
  Vec2 vertices[kMaxPolygonVertices];
  int count = 0;
  double radius = 0.0;
};

// Whether p lies within r1 + r2 + r3 (radii >= 0, summed exactly) of the
// segment [a, b] (of the point a when a == b). Exact.
bool PointWithinSegment(Vec2 p, Vec2 a, Vec2 b, double r1, double r2,
                        double r3);

// Whether dist(hull a, hull b) <= a.radius + b.radius + extra, extra >= 0.
// Exact; the callers filter with a rounded distance first.
bool HullsWithin(const Hull& a, const Hull& b, double extra);

// The same with a moved by f times the motion (to - from, neither f (to -
// from) nor the difference need be doubles). Slower (expansions
// throughout): for the rare decisions of a sweep's very start. The distance
// between convex sets under translation is convex in time, so for a start
// apart this is whether the first contact comes by fraction f, unless the
// shapes have met and parted again by then.
bool HullsWithinAfter(const Hull& a, Vec2 from, Vec2 to, double f,
                      const Hull& b, double extra);

// The bound on the rounding of a distance computed from differences of
// coordinates no larger than `magnitude` in absolute value (with a reach
// that large): generous, 64 roundings of the sum.
inline double DistanceRoundingBound(double magnitude, double reach) {
  return 0x1p-47 * (magnitude + reach);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_WITHIN_DISTANCE_H_
