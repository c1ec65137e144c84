// Internal: pair casts whose relative translation d1 - d2 is not a double.
//
// Two shapes translating by d1 and d2 over one step reduce exactly to the
// first moving by d1 - d2 against the second at rest (pairs/cast_dispatch.h),
// but that difference is rounded when it needs more than 53 bits (a long
// translation against a short one, or operands of different exponents).
// The rounding can turn a move that leaves a touching circle into one that
// slides along it, or a point moving exactly along a segment's line into
// one crossing it. The casts here take the two translations apart and
// decide every hit, miss, approach and max_fraction test with predicates in
// d1 and d2 (a double filter with a certified bound, then expansions); only
// the reported fraction, point and normal use the rounded difference.
//
// Each returns false (and leaves *hit alone) where the answer does not
// depend on the translations beyond what the shared path decides exactly
// (an overlapping or touching start that cannot move in), so the caller
// takes the shared path for it.
#ifndef COLLIDE_LIB_SRC_EXACT_PAIR_MOTION_H_
#define COLLIDE_LIB_SRC_EXACT_PAIR_MOTION_H_

#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {

// The rounding error of x - y (TwoSum's error term): x - y equals the
// rounded difference plus this, exactly.
inline double DifferenceError(double x, double y) {
  const double difference = x - y;
  const double back = difference - x;
  return (x - (difference - back)) + (-y - back);
}

// Whether d1 - d2 is exactly a double (then the shared path is exact).
inline bool IsExactDifference(Vec2 d1, Vec2 d2) {
  return DifferenceError(d1.x, d2.x) == 0.0 &&
         DifferenceError(d1.y, d2.y) == 0.0;
}

// A circle by d1 against a circle translating by d2.
bool CastCircleVsMovingCircle(const CircleCast& cast,
                              const Moving<Circle>& target,
                              const CastOptions& options,
                              std::optional<Hit>* hit);

// A point by d1 against a segment translating by d2, without a skin.
bool CastPointVsMovingSegment(const RayInput& ray,
                              const Moving<Segment>& target,
                              const CastOptions& options,
                              std::optional<Hit>* hit);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_PAIR_MOTION_H_
