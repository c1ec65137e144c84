// Moving circle against static shapes: the circle's centre against the
// target grown by the radius (a capsule around a segment: its side bands and
// its end caps).
#include "collide/toi.h"
#include "pairs/cast_dispatch.h"
#include "pairs/circle_closed_form.h"
#include "pairs/ray_closed_form.h"
#include "pairs/round_closed_form.h"

namespace collide {
namespace {

// Closed form for a skinless circle that starts clear of a segment or a
// capsule (its centre against the target grown by its radius:
// pairs/round_closed_form.h); the general machinery otherwise.
template <typename Shape>
std::optional<Hit> CastCircleVsCapsule(const CircleCast& cast,
                                       const Shape& shape,
                                       const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(cast, shape, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(shape) && IsValid(options));
    const Capsule& capsule = internal::AsCapsule(shape);
    return internal::CastPointClearCapsule(
        cast.circle.center, cast.translation, capsule.p1, capsule.p2,
        internal::Grow::Of(cast.circle.radius, capsule.radius, 0.0),
        capsule.radius, options.max_fraction, general);
  }
  return general();
}

}  // namespace

std::optional<Hit> CastCircle(const CircleCast& cast, Vec2 point,
                              const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(cast, point, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(point) && IsValid(options));
    return internal::CastPointClearCircle(
        cast.circle.center, cast.translation, point,
        internal::Grow::Of(cast.circle.radius, 0.0, 0.0), 0.0,
        {FeatureType::kVertex, 0}, options.max_fraction, general);
  }
  return general();
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Segment& segment,
                              const CastOptions& options) {
  return CastCircleVsCapsule(cast, segment, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Circle& circle,
                              const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(cast, circle, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(circle) && IsValid(options));
    return internal::CastPointClearCircle(
        cast.circle.center, cast.translation, circle.center,
        internal::Grow::Of(cast.circle.radius, circle.radius, 0.0),
        circle.radius, {FeatureType::kSurface, 0}, options.max_fraction,
        general);
  }
  return general();
}

std::optional<Hit> CastCircle(const CircleCast& cast, const Capsule& capsule,
                              const CastOptions& options) {
  return CastCircleVsCapsule(cast, capsule, options);
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConvexPolygon& polygon,
                              const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(cast, polygon, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(polygon) && IsValid(options));
    return internal::CastCircleClearConvex(
        cast, internal::ConvexPolygonView{polygon}, options.max_fraction,
        options.max_fraction, general);
  }
  return general();
}

std::optional<Hit> CastCircle(const CircleCast& cast,
                              const ConcavePolygon& polygon,
                              const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace collide
