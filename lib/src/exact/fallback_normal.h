// Internal: the normal a contact gets when its geometry gives none.
#ifndef COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_
#define COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
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

// The perpendicular of d on n's side, unit length (RoundContactNormal's
// rare case). Out of line and cold, so that the common path is one dot
// product and a branch.
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD Vec2 PerpendicularOnSide(Vec2 n,
                                                                     Vec2 d);

// The unit normal of a round contact at time t > 0 from its offset (the
// mover's centre minus the point it meets at t) for a sweep by d. At a
// first contact the exact normal never faces along the motion (the
// distance is falling to the radius), but at a graze, motion nearly
// perpendicular to the normal, t's rounding carries the offset along d by
// |d| ulp(t): after a 2^30 sweep that tilts the normal by ~1e-8 of the
// radius, half the time past the perpendicular. Such a normal is taken
// back to the perpendicular of d on its side, within that tilt of the
// exact one. A contact at t = 0 (a start touching, reported with
// stop_at_penetration) may face along the motion and is left alone.
inline Vec2 RoundContactNormal(Vec2 offset, Vec2 d, double t) {
  const Vec2 n = Normalize(offset);
  if (ABSL_PREDICT_FALSE(Dot(offset, d) > 0.0 && t > 0.0)) {
    return PerpendicularOnSide(n, d);
  }
  return n;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_FALLBACK_NORMAL_H_
