// Whether a convex mover's straight motion can only touch a shape, never go
// into it: the contacts move validation does not count as blocking (a crate
// sliding along a floor of tiles touches each next tile's corner).
#ifndef COLLIDE_LIB_SRC_SWEEP_ONLY_TOUCHES_H_
#define COLLIDE_LIB_SRC_SWEEP_ONLY_TOUCHES_H_

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "sweep/core.h"

namespace collide::internal {

// Whether core a moving by d (not zero) can at most touch core b, never
// overlap it, because some line along d separates them for the whole
// motion (they may touch across it: a graze, a slide along a surface).
// Exact; for any d and any length of motion. For a convex b this is the
// only way a contact can fail to go in; a concave solid may also be only
// touched with parts of it on either side of every such line (a mover in a
// valley), where this answers false.
bool PassesBeside(const Core& a, Vec2 d, const Core& b);
bool PassesBeside(const Core& a, Vec2 d, const ConcavePolygon& b);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_ONLY_TOUCHES_H_
