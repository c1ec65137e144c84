// Ray casts (a moving point) against static shapes.
#include "collide/toi.h"

#include "cast_dispatch.h"

namespace collide {

std::optional<Hit> CastRay(const RayInput& ray, Segment segment,
    const CastOptions& options) {
  return internal::CastShape(ray, segment, options);
}

std::optional<Hit> CastRay(const RayInput& ray, Circle circle,
    const CastOptions& options) {
  return internal::CastShape(ray, circle, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Capsule& capsule,
    const CastOptions& options) {
  return internal::CastShape(ray, capsule, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const ConvexPolygon& polygon,
    const CastOptions& options) {
  return internal::CastShape(ray, polygon, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const ConcavePolygon& polygon,
    const CastOptions& options) {
  return internal::CastShape(ray, polygon, options);
}

}  // namespace collide
