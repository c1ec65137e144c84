// Moving against moving: both shapes translate during the step, which
// reduces exactly to the mover's motion relative to the target. Where that
// relative translation is not a double, the pairs of exact_motion.h decide
// from the two translations (two circles, and a point against a segment
// without a skin: always).
#include "cast_dispatch.h"
#include "collide/toi.h"
#include "exact_motion.h"

namespace collide {

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Segment>& segment,
                           const CastOptions& options) {
  // Taken apart always (without a skin): every decision exact either way.
  std::optional<Hit> hit;
  if (internal::CastPointVsMovingSegment(ray, segment, options, &hit)) {
    return hit;
  }
  return internal::CastShape(ray, segment, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Circle>& circle,
                           const CastOptions& options) {
  return internal::CastShape(ray, circle, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Capsule>& capsule,
                           const CastOptions& options) {
  return internal::CastShape(ray, capsule, options);
}

std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConvexPolygon>& polygon,
                           const CastOptions& options) {
  return internal::CastShape(ray, polygon, options);
}

std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConcavePolygon>& polygon,
                           const CastOptions& options) {
  return internal::CastShape(ray, polygon, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Moving<Vec2>& point,
                              const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Segment>& segment,
                              const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Circle>& circle,
                              const CastOptions& options) {
  // Taken apart always: cheaper than the general sweep, and exact.
  std::optional<Hit> hit;
  if (internal::CastCircleVsMovingCircle(cast, circle, options, &hit)) {
    return hit;
  }
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Capsule>& capsule,
                              const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConvexPolygon>& polygon,
                              const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConcavePolygon>& polygon,
                              const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Vec2>& point,
                               const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Segment>& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Circle>& circle,
                               const CastOptions& options) {
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Capsule>& capsule,
                               const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<ConvexPolygon>& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<ConcavePolygon>& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<Vec2>& point,
                               const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<Segment>& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<Circle>& circle,
                               const CastOptions& options) {
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<Capsule>& capsule,
                               const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<ConvexPolygon>& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const Moving<ConcavePolygon>& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace collide
