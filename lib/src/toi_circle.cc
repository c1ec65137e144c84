// Moving circle against static shapes: the circle's centre against the
// target grown by the radius (seed 004's capsule method, with its caps).
#include "absl/base/attributes.h"
#include "cast_dispatch.h"
#include "collide/toi.h"
#include "toi_circle_fast.h"
#include "toi_ray_fast.h"

namespace collide {
namespace {

// The general machinery, out of line: the closed form's path then needs no
// stack frame.
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> CastCircleGeneral(
    const CircleCast& cast, const ConvexPolygon& polygon,
    const CastOptions& options) {
  return internal::CastShape(cast, polygon, options);
}

}  // namespace

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
  const auto general = [&] {
    return CastCircleGeneral(cast, polygon, options);
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
