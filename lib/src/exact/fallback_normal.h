// Internal: the normal a contact gets when its geometry gives none.
#ifndef COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_
#define COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_

#include "collide/vec2.h"

namespace collide::internal {

// The normal of a contact that has no direction of its own: the cores
// meet at a single point (a ray or zero-radius circle exactly on a vertex or
// a point, or a mover whose contact position rounds onto the obstacle's
// point at large coordinates), so the offset between their nearest points
// is zero. Any unit vector separates there; against the motion is the one
// a slide can use. With no motion either, +y.
inline Vec2 DegenerateContactNormal(Vec2 translation) {
  const Vec2 against = Normalize(-translation);
  return against != Vec2{} ? against : Vec2{0.0, 1.0};
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_
