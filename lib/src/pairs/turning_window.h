// Internal: the window of a turning pair in which its shapes may touch,
// from swept bounding disks, in closed form.
//
// A turning shape stays within its reach (plus radius) of its pivot, and
// the pivot moves on a straight line; a shape that does not turn stays
// within a disk about the middle of its vertices' box, which moves on a
// straight line too. Two such disks are apart while the distance of their
// centres, |D0 + t V|, exceeds the sum of their radii: a quadratic in t
// whose roots bound the only interval where the shapes can touch. Most
// pairs whose shapes never come near are answered without a distance
// evaluation, and the advancement of the others starts where the disks
// first meet and stops where they part.
//
// Rounding: the centres' and radii's errors are folded into the radius
// sum, so the test is on the exact line through the computed doubles D0
// and V; the roots are computed in double and then verified (the value
// and the slope of |D0 + t V|^2 at the claimed fraction, with the rounding
// of that check bounded), falling back to a wider window when the check
// fails. Nothing is decided by a tolerance.
#ifndef COLLIDE_LIB_SRC_PAIRS_TURNING_WINDOW_H_
#define COLLIDE_LIB_SRC_PAIRS_TURNING_WINDOW_H_

#include "collide/vec2.h"
#include "pairs/turning_pose.h"

namespace collide::internal {

struct TurnWindow {
  // The shapes are disjoint for every t in [0, max_fraction].
  bool miss = false;
  // The shapes are disjoint for every t in [0, enter] (enter = 0 proves
  // nothing) and for every t >= leave (leave may exceed max_fraction).
  double enter = 0.0;
  double leave = 0.0;
};

// For bodies in the pair's frame: a's pivot starts at the origin, b's at
// b_base (within b_base_error of the true position).
TurnWindow SweptWindow(const TurnBody& a, const TurnBody& b, Vec2 b_base,
                       double b_base_error, double max_fraction);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_TURNING_WINDOW_H_
