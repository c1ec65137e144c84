// Moving circle against static shapes: the circle's centre against the
// target grown by the radius (seed 004's capsule method, with its caps).
#include "cast_dispatch.h"
#include "collide/toi.h"

namespace collide {

std::optional<Hit> CastCircle(const CircleCast& cast, Vec2 point,
                              const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Segment& segment,
                              const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Circle& circle,
                              const CastOptions& options) {
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Capsule& capsule,
                              const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConvexPolygon& polygon,
                              const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConcavePolygon& polygon,
                              const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace collide
