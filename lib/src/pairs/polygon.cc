// Moving convex polygon against static shapes: every vertex of each shape
// against the other, back faces culled.
#include "collide/toi.h"
#include "pairs/cast_dispatch.h"
#include "pairs/circle_closed_form.h"
#include "pairs/ray_closed_form.h"

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
// by the radius, which is CastCircleClearConvex's pair
// (pairs/circle_closed_form.h) seen from the other side: the normal turns round
// (from the circle towards the polygon) and the point is the circle's, as
// SweepClearPoint makes them for a target point core.
std::optional<Hit> CastPolygon(const PolygonCast& cast, const Circle& circle,
                               const CastOptions& options) {
  bool closed_form = options.target_distance == 0.0;
  const auto general = [&] {
    closed_form = false;
    return internal::CastShapeOutOfLine(cast, circle, options);
  };
  COLLIDE_DCHECK(!closed_form ||
                 (IsValid(cast) && IsValid(circle) && IsValid(options)));
  // One named result, returned on every path, so that the casts write their
  // hit in the caller's slot (a local copied there after the updates below
  // would be read back in 16-byte parts over their 8-byte stores, which
  // stalls on store forwarding).
  std::optional<Hit> hit =
      closed_form ? internal::CastCircleClearConvex(
                        CircleCast{circle, -cast.translation},
                        internal::ConvexPolygonView{cast.polygon},
                        options.max_fraction, options.max_fraction, general)
                  : general();
  if (closed_form && hit) {
    hit->normal = -hit->normal;
    hit->point = circle.center + circle.radius * hit->normal;
    hit->feature = {FeatureType::kSurface, 0};
  }
  return hit;
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
