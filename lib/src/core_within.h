// Internal: exact "within distance" decisions for shapes at rest, the
// predicates behind Overlaps (intersect.h) and ClosestPoint (query.h):
// whether two grown cores come within a reach of each other, decided by a
// rounded distance with a bound on its error and, inside that bound, by the
// exact signs of exact_sign.h. Touching (distance exactly the reach) is
// within.
#ifndef COLLIDE_LIB_SRC_CORE_WITHIN_H_
#define COLLIDE_LIB_SRC_CORE_WITHIN_H_

#include "collide/vec2.h"
#include "convex_core.h"

namespace collide::internal {

// Whether p lies within r1 + r2 + r3 (radii >= 0, summed exactly) of the
// segment [a, b] (of the point a when a == b). Exact.
bool PointWithinSegment(Vec2 p, Vec2 a, Vec2 b, double r1, double r2,
                        double r3);

// Whether the closed convex hulls of the cores' vertices meet (radii not
// included). Exact.
bool HullsMeet(const Core& a, const Core& b);

// Whether dist(hull a, hull b) <= a.radius() + b.radius() + extra, extra
// >= 0. Exact: Separate's rounded gap decides when it is clear of the reach
// by more than its rounding, the exact forms otherwise.
bool CoresWithin(const Core& a, const Core& b, double extra = 0.0);

// The bound on the rounding of a distance computed from differences of
// coordinates no larger than `magnitude` in absolute value (with a reach
// that large): generous, 64 roundings of the sum.
inline double DistanceRoundingBound(double magnitude, double reach) {
  return 0x1p-47 * (magnitude + reach);
}

// The largest |coordinate| of the core's vertices.
double Magnitude(const Core& core);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_CORE_WITHIN_H_
