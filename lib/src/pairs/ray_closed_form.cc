// The exact decisions of the ray closed forms (ray_closed_form.h), out of
// line so that the closed forms' common paths need no register saves.
#include "pairs/ray_closed_form.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"

namespace collide::internal {

ABSL_ATTRIBUTE_NOINLINE double SegmentLineReachedBy(const RayInput& ray,
                                                    Vec2 p1, Vec2 p2, double t,
                                                    double exact_limit) {
  const auto [end, bound] =
      CrossAfter(p1, p2, ray.origin, ray.translation, exact_limit);
  if (std::abs(end) <= bound) {
    const int start_side = Cross(p2 - p1, ray.origin - p1) > 0.0 ? 1 : -1;
    if (OrientAfterExact(p1, p2, ray.origin, Vec2{}, ray.translation,
                         exact_limit) == start_side) {
      return std::numeric_limits<double>::infinity();
    }
    return std::min(t, exact_limit);
  }
  return t;
}

ABSL_ATTRIBUTE_NOINLINE double RayCircleDiscriminant(const RayInput& ray,
                                                     const Circle& circle) {
  return DirectionDiscriminantExact(circle.center, Vec2{}, ray.translation,
                                    ray.origin, circle.radius, 0.0, 0.0);
}

ABSL_ATTRIBUTE_NOINLINE double RayCircleExcess(const RayInput& ray,
                                               const Circle& circle) {
  return DistanceSquaredExcessExact(ray.origin, circle.center, circle.radius,
                                    0.0, 0.0);
}

ABSL_ATTRIBUTE_NOINLINE bool RayReachedCircle(const RayInput& ray,
                                              const Circle& circle, double f) {
  return SweepReachedCircleExact(ray.origin, Vec2{}, ray.translation, f,
                                 circle.center, circle.radius, 0.0, 0.0);
}

}  // namespace collide::internal
