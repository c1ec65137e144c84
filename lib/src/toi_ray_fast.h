// Internal: closed-form ray casts for the pairs that dominate level queries
// (bullets against walls, pillars and crates), without a skin. Each handles
// a ray that starts clearly away from the shape and returns nullopt in
// `handled` otherwise, leaving starts in or near contact to the general
// machinery of convex_core.h, so both paths give the same semantics.
#ifndef COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
#define COLLIDE_LIB_SRC_TOI_RAY_FAST_H_

#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"

namespace collide::internal {

struct FastCast {
  bool handled = false;
  std::optional<Hit> hit;
};

FastCast CastRayClear(const RayInput& ray, Segment segment, double max_fraction);
FastCast CastRayClear(const RayInput& ray, Circle circle, double max_fraction);
FastCast CastRayClear(const RayInput& ray, const ConvexPolygon& polygon,
                      double max_fraction);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
