// Internal: what a cast asks of a one-sided segment (a level segment or
// polyline segment with ShapeDesc::one_sided). Its front is the left of
// a -> b; it blocks a mover only when the mover moves into that front.
#ifndef COLLIDE_LIB_SRC_WORLD_ONE_SIDED_H_
#define COLLIDE_LIB_SRC_WORLD_ONE_SIDED_H_

#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "pairs/cast_dispatch.h"
#include "sweep/core.h"

namespace collide::internal {

// Whether translation d moves against the front normal of a -> b (its left
// normal): Cross(b - a, d) < 0, decided exactly. False for motion along
// the segment, away from its front, a zero translation and a zero-length
// segment (which has no front).
inline bool MovesIntoFront(Vec2 a, Vec2 b, Vec2 d) {
  return CrossSign(a, b, Vec2{}, d) < 0;
}

// For a cast whose per-shape answer against a one-sided segment is a start
// in contact (kInitialOverlap): whether it stands, i.e. the mover starts
// exactly touching the segment and moves in (a mover resting on a
// jump-through platform and pushing down). A mover that starts
// overlapping it is partway through and passes; so does a touching start
// that moves away or along (which stop_at_penetration alone would report).
// Decided exactly (ClassifyStartExact), out of line (world/one_sided.cc):
// asked only of such starts.
bool OneSidedStartStands(const Core& mover, Vec2 d, Vec2 a, Vec2 b,
                         const CastOptions& options);
template <typename Cast>
bool OneSidedStartStands(const Cast& cast, Vec2 a, Vec2 b,
                         const CastOptions& options) {
  return OneSidedStartStands(MoverCore(cast), cast.translation, a, b, options);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_ONE_SIDED_H_
