// Internal: builds the core of each public shape and forwards a cast to the
// convex or concave sweep, so every public pair stays a one-line function.
#ifndef COLLIDE_LIB_SRC_PAIRS_CAST_DISPATCH_H_
#define COLLIDE_LIB_SRC_PAIRS_CAST_DISPATCH_H_

#include <optional>
#include <type_traits>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "exact/fallback_normal.h"
#include "sweep/concave_sweep.h"
#include "sweep/convex_sweep.h"
#include "sweep/core.h"

namespace collide::internal {

// Cores are returned as prvalues (guaranteed copy elision), so a segment
// core's pointers into its own storage stay valid.
inline Core CoreOf(Vec2 point) { return Core(point, 0.0, FeatureMap::kPoint); }
inline Core CoreOf(Segment segment) {
  return Core(segment.p1, segment.p2, 0.0, FeatureMap::kSegment);
}
inline Core CoreOf(Circle circle) {
  return Core(circle.center, circle.radius, FeatureMap::kCircle);
}
inline Core CoreOf(const Capsule& capsule) {
  return Core(capsule.p1, capsule.p2, capsule.radius, FeatureMap::kSegment);
}
inline Core CoreOf(const ConvexPolygon& polygon) { return Core(polygon, 0.0); }

inline Core MoverCore(const RayInput& ray) { return CoreOf(ray.origin); }
inline Core MoverCore(const CircleCast& cast) { return CoreOf(cast.circle); }
inline Core MoverCore(const CapsuleCast& cast) { return CoreOf(cast.capsule); }
inline Core MoverCore(const PolygonCast& cast) { return CoreOf(cast.polygon); }

template <typename Target>
bool IsValidTarget(const Target& target) {
  return IsValid(target);
}
template <typename Shape>
bool IsValidTarget(const Moving<Shape>& target) {
  return IsValid(target.shape) && IsInRange(target.translation);
}

// The cast of a mover by `motion` against a static target.
template <typename Target>
std::optional<Hit> CastCore(const Core& mover, const Motion& motion,
                            const Target& target, const CastOptions& options) {
  std::optional<Hit> hit;
  if constexpr (std::is_same_v<Target, ConcavePolygon>) {
    hit = SweepCoreVsConcave(mover, motion, target, options);
  } else {
    hit = SweepCores(mover, motion, CoreOf(target), options);
  }
  if (hit && hit->normal == Vec2{}) {
    hit->normal = DegenerateContactNormal(motion.d);
  }
  return hit;
}

// Any public mover against any static target.
template <typename Cast, typename Target>
std::optional<Hit> CastShape(const Cast& cast, const Target& target,
                             const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(cast) && IsValidTarget(target) && IsValid(options));
  return CastCore(MoverCore(cast), Motion::Of(cast.translation), target,
                  options);
}

// CastShape out of line, for the public casts with a closed form
// (pairs/ray_closed_form.h, pairs/circle_closed_form.h,
// pairs/round_closed_form.h) to call when it cannot answer: the closed form's
// path then needs no stack frame.
template <typename Cast, typename Target>
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> CastShapeOutOfLine(
    const Cast& cast, const Target& target, const CastOptions& options) {
  return CastShape(cast, target, options);
}

// Any public mover against a translating target: the motion relative to the
// target, cast.translation - target.translation, is exact for two
// translations over the same step; it is held as that difference (Motion),
// so that the exact decisions of sweeps without radius or skin see it
// unrounded. The contact point is then carried along with the target.
template <typename Cast, typename Shape>
std::optional<Hit> CastShape(const Cast& cast, const Moving<Shape>& target,
                             const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(cast) && IsValidTarget(target) && IsValid(options));
  std::optional<Hit> hit = CastCore(
      MoverCore(cast), Motion::Between(target.translation, cast.translation),
      target.shape, options);
  if (hit) hit->point = hit->point + hit->fraction * target.translation;
  return hit;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_CAST_DISPATCH_H_
