// Internal: shapes without radius that start touching and turn or move
// apart. At fraction 0 no rotation has been applied, so the input
// vertices are exact and the start is decided with exact predicates.
#ifndef COLLIDE_LIB_SRC_PAIRS_TURNING_START_H_
#define COLLIDE_LIB_SRC_PAIRS_TURNING_START_H_

#include <cstdint>

#include "collide/vec2.h"

namespace collide::internal {

// A shape without radius at fraction 0, in world coordinates, and its
// motion; reach >= the largest distance of a vertex from the pivot.
struct StartShape {
  const Vec2* vertices = nullptr;
  int32_t count = 0;
  Vec2 pivot;
  Vec2 translation;
  double angle = 0.0;
  double reach = 0.0;
};

// A fraction s > 0 such that the shapes are disjoint for every t in
// (0, s], or 0 when none is proved. It looks for an edge of either shape
// whose line weakly separates them at fraction 0 (decided exactly), then
// bounds the gap along that edge's fixed normal for every vertex pair:
// exactly 0 or more at 0, growing at a rate computed with an error bound,
// and curving by at most the rotations' centripetal terms. A pair that
// touches at 0 must move apart at first order; moving along is not
// proved (0).
double LeavesContactFor(const StartShape& a, const StartShape& b);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_TURNING_START_H_
