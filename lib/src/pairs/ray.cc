// Ray casts (a moving point) against static shapes.
#include "collide/toi.h"
#include "pairs/cast_dispatch.h"
#include "pairs/ray_closed_form.h"
#include "pairs/round_closed_form.h"

namespace collide {
namespace {

// Closed form for a skinless ray that starts clear of the shape; the
// general machinery otherwise.
template <typename Shape>
std::optional<Hit> CastRayFast(const RayInput& ray, const Shape& shape,
                               const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(ray, shape, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(ray) && IsValid(shape) && IsValid(options));
    return internal::CastRayClear(ray, shape, options.max_fraction,
                                  options.max_fraction, general);
  }
  return general();
}

}  // namespace

std::optional<Hit> CastRay(const RayInput& ray, const Segment& segment,
                           const CastOptions& options) {
  return CastRayFast(ray, segment, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Circle& circle,
                           const CastOptions& options) {
  return CastRayFast(ray, circle, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Capsule& capsule,
                           const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(ray, capsule, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(ray) && IsValid(capsule) && IsValid(options));
    return internal::CastPointClearCapsule(
        ray.origin, ray.translation, capsule.p1, capsule.p2,
        internal::Grow::Of(0.0, capsule.radius, 0.0), capsule.radius,
        options.max_fraction, general);
  }
  return general();
}

std::optional<Hit> CastRay(const RayInput& ray, const ConvexPolygon& polygon,
                           const CastOptions& options) {
  return CastRayFast(ray, polygon, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const ConcavePolygon& polygon,
                           const CastOptions& options) {
  return CastRayFast(ray, polygon, options);
}

}  // namespace collide
