// Moving against moving: both shapes translate during the step, which
// reduces exactly to the mover's motion relative to the target. Where that
// relative translation is not a double, the pairs of exact/pair_motion.h decide
// from the two translations (two circles, and a point against a segment
// without a skin: always).
#include "collide/toi.h"
#include "exact/pair_motion.h"
#include "pairs/cast_dispatch.h"
#include "pairs/cast_to.h"

namespace collide {
namespace {

// A translating target. Where the mover's translation relative to it is
// exactly a double (two translations of one step at the same scale
// usually are) and in range, the static cast by that translation is the
// same question, with its closed forms; the contact point then moves along
// with the target. Otherwise the general sweep, which keeps the two
// translations apart (internal::CastShape). Not for a polygon mover: its
// static casts have no closed form, and it is large to copy.
template <typename Cast, typename Shape>
std::optional<Hit> CastMoving(const Cast& cast, const Moving<Shape>& target,
                              const CastOptions& options) {
  const Vec2 relative_translation = cast.translation - target.translation;
  const bool relative_ok =
      internal::IsExactDifference(cast.translation, target.translation) &&
      IsValid(relative_translation);
  Cast relative = cast;
  relative.translation = relative_translation;
  // One named result, returned on every path, so that the casts write their
  // hit in the caller's slot: a local moved there after the point's update
  // would be read back in 16-byte parts over the 8-byte stores just made,
  // which stalls on store forwarding.
  std::optional<Hit> hit =
      relative_ok ? internal::CastTo(relative, target.shape, options)
                  : internal::CastShape(cast, target, options);
  if (relative_ok && hit) {
    hit->point = hit->point + hit->fraction * target.translation;
  }
  return hit;
}

}  // namespace

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Segment>& segment,
                           const CastOptions& options) {
  // Taken apart always (without a skin): every decision exact either way.
  std::optional<Hit> hit;
  if (internal::CastPointVsMovingSegment(ray, segment, options, &hit)) {
    return hit;
  }
  return CastMoving(ray, segment, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Circle>& circle,
                           const CastOptions& options) {
  return CastMoving(ray, circle, options);
}

std::optional<Hit> CastRay(const RayInput& ray, const Moving<Capsule>& capsule,
                           const CastOptions& options) {
  return CastMoving(ray, capsule, options);
}

std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConvexPolygon>& polygon,
                           const CastOptions& options) {
  return CastMoving(ray, polygon, options);
}

std::optional<Hit> CastRay(const RayInput& ray,
                           const Moving<ConcavePolygon>& polygon,
                           const CastOptions& options) {
  return CastMoving(ray, polygon, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Moving<Vec2>& point,
                              const CastOptions& options) {
  return CastMoving(cast, point, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Segment>& segment,
                              const CastOptions& options) {
  return CastMoving(cast, segment, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Circle>& circle,
                              const CastOptions& options) {
  // Taken apart always: cheaper than the general sweep, and exact.
  std::optional<Hit> hit;
  if (internal::CastCircleVsMovingCircle(cast, circle, options, &hit)) {
    return hit;
  }
  return CastMoving(cast, circle, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<Capsule>& capsule,
                              const CastOptions& options) {
  return CastMoving(cast, capsule, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConvexPolygon>& polygon,
                              const CastOptions& options) {
  return CastMoving(cast, polygon, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const Moving<ConcavePolygon>& polygon,
                              const CastOptions& options) {
  return CastMoving(cast, polygon, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Vec2>& point,
                               const CastOptions& options) {
  return CastMoving(cast, point, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Segment>& segment,
                               const CastOptions& options) {
  return CastMoving(cast, segment, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Circle>& circle,
                               const CastOptions& options) {
  return CastMoving(cast, circle, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<Capsule>& capsule,
                               const CastOptions& options) {
  return CastMoving(cast, capsule, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<ConvexPolygon>& polygon,
                               const CastOptions& options) {
  return CastMoving(cast, polygon, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const Moving<ConcavePolygon>& polygon,
                               const CastOptions& options) {
  return CastMoving(cast, polygon, options);
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
