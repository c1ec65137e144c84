// Moving capsule against static shapes: its segment against the target
// grown by the radius.
#include "collide/toi.h"
#include "pairs/cast_dispatch.h"
#include "pairs/round_closed_form.h"

namespace collide {
namespace {

// Closed form for a skinless capsule that starts clear of a point or a
// circle (pairs/round_closed_form.h); the general machinery otherwise.
template <typename Shape>
std::optional<Hit> CastCapsuleVsRound(const CapsuleCast& cast,
                                      const Shape& shape, Vec2 center,
                                      double radius, Feature feature,
                                      const CastOptions& options) {
  const auto general = [&] {
    return internal::CastShapeOutOfLine(cast, shape, options);
  };
  if (options.target_distance == 0.0) {
    COLLIDE_DCHECK(IsValid(cast) && IsValid(shape) && IsValid(options));
    return internal::CastCapsuleClearRound(cast, center, radius, feature,
                                           options.max_fraction, general);
  }
  return general();
}

}  // namespace

std::optional<Hit> CastCapsule(const CapsuleCast& cast, Vec2 point,
                               const CastOptions& options) {
  return CastCapsuleVsRound(cast, point, point, 0.0, {FeatureType::kVertex, 0},
                            options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast, const Segment& segment,
                               const CastOptions& options) {
  return internal::CastShape(cast, segment, options);
}

std::optional<Hit> CastCapsule(const CapsuleCast& cast, const Circle& circle,
                               const CastOptions& options) {
  return CastCapsuleVsRound(cast, circle, circle.center, circle.radius,
                            {FeatureType::kSurface, 0}, options);
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
