// Moving convex polygon against static shapes: every vertex of each shape
// against the other, back faces culled (seeds 000 and 002).
#include "cast_dispatch.h"
#include "collide/toi.h"
#include "toi_circle_fast.h"
#include "toi_ray_fast.h"

namespace collide {

std::optional<Hit> CastPolygon(const PolygonCast& cast, Vec2 point,
                               const CastOptions& options) {
  return internal::CastShape(cast, point, options);
}

std::optional<Hit> CastPolygon(const PolygonCast& cast, const Segment& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

// Closed form for a skinless cast that starts clear of a circle: the
// circle's centre moving back by the translation against the polygon grown
// by the radius, which is CastCircleClearConvex's pair (toi_circle_fast.h)
// seen from the other side: the normal turns round (from the circle towards
// the polygon) and the point is the circle's, as SweepClearPoint makes them
// for a target point core.
std::optional<Hit> CastPolygon(const PolygonCast& cast, const Circle& circle,
                               const CastOptions& options) {
  bool general = false;
  const auto mark_general = [&] {
    general = true;
    return std::optional<Hit>();
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(circle) && IsValid(options));
    std::optional<Hit> hit = internal::CastCircleClearConvex(
        CircleCast{circle, -cast.translation},
        internal::ConvexPolygonView{cast.polygon}, options.max_fraction,
        options.max_fraction, mark_general);
    if (!general) {
      if (hit) {
        hit->normal = -hit->normal;
        hit->point = circle.center + circle.radius * hit->normal;
        hit->feature = {FeatureType::kSurface, 0};
      }
      return hit;
    }
  }
  return internal::CastShapeOutOfLine(cast, circle, options);
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
