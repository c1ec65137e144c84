// Moving convex polygon against static shapes: every vertex of each shape
// against the other, back faces culled (seeds 000 and 002).
#include "cast_dispatch.h"
#include "collide/toi.h"

namespace collide {

std::optional<Hit> CastPolygon(const PolygonCast& cast, Vec2 point,
                               const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast, const Segment& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast, const Circle& circle,
                               const CastOptions& options) {
  return internal::CastShape(cast, circle, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast, const Capsule& capsule,
                               const CastOptions& options) {
  return internal::CastShape(cast, capsule, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const ConvexPolygon& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast,
                               const ConcavePolygon& polygon,
                               const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace collide
