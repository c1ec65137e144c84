// Moving capsule against static shapes: its segment against the target
// grown by the radius.
#include "cast_dispatch.h"
#include "collide/toi.h"

namespace collide {

std::optional<Hit> CastCapsule(const CapsuleCast& cast, Vec2 point,
                               const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast, const Segment& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast, const Circle& circle,
                               const CastOptions& options) {
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast, const Capsule& capsule,
                               const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const ConvexPolygon& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast,
                               const ConcavePolygon& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace collide
