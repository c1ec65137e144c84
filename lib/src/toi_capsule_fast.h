// Internal: a moving point against a capsule (a segment grown by a
// radius) that it starts clearly apart from, without the general
// machinery's cores, shadows and start classification: a circle cast
// against a segment or a capsule (the circle's centre against the target
// grown by its radius) and a ray against a capsule. The contact itself is
// SweepPointSegment's, every decision of which is certain or exact; only
// the start is classified here, and any start that a cheap certain test
// cannot place clear of the capsule returns `general()`, the caller's call
// of the general machinery.
#ifndef COLLIDE_LIB_SRC_TOI_CAPSULE_FAST_H_
#define COLLIDE_LIB_SRC_TOI_CAPSULE_FAST_H_

#include <cmath>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "convex_core.h"
#include "degenerate_normal.h"
#include "exact_sign.h"
#include "point_sweep.h"

namespace collide::internal {

// A segment as the capsule of radius 0 it stands for here.
inline Capsule AsCapsule(const Segment& segment) {
  return {segment.p1, segment.p2, 0.0};
}
inline const Capsule& AsCapsule(const Capsule& capsule) { return capsule; }

// Point p moving by d against segment [p1, p2] grown by grow (its parts:
// the mover's radius, the target's `target_radius`, no skin), to the
// sweep's own end exact_limit. SweepCores' answer for a clear start, except
// that a start within rounding of contact, closing, which ClassifyStart may
// answer as a hit at 0, never gets here.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastPointClearCapsule(
    Vec2 p, Vec2 d, Vec2 p1, Vec2 p2, const Grow& grow, double target_radius,
    double exact_limit, General&& general) {
  if (!(grow.value > 0.0) || p1 == p2) return general();
  const Core segment(p1, p2, 0.0, FeatureMap::kSegment);
  const Vec2 m = p - p1;
  const double distance = Dot(m, segment.normal(0));
  // Certainly outside the band of half-width grow around the line (the
  // rounded normal's and the products' few ulps, and grow's own rounding,
  // within the slack), so apart. Otherwise certainly beyond an end (along
  // the segment) and certainly outside that end's circle; else in or near
  // contact: the general machinery's.
  if (!(std::abs(distance) - grow.value >
        kFilterRoundings * (std::abs(m.x) + std::abs(m.y) + grow.value))) {
    const Vec2 e = p2 - p1;
    const double along = Dot(m, e);
    const double along_bound = kFilterRoundings *
                               (std::abs(m.x) + std::abs(m.y)) *
                               (std::abs(e.x) + std::abs(e.y));
    Vec2 end;
    if (along < -along_bound) {
      end = p1;
    } else if (along > Dot(e, e) + along_bound) {
      end = p2;
    } else {
      return general();
    }
    const Vec2 offset = p - end;
    if (!(Dot(offset, offset) * (1.0 - kFilterRoundings) >
          grow.value * grow.value * (1.0 + kFilterRoundings))) {
      return general();
    }
  }
  const std::optional<PointHit> h =
      SweepPointSegment(p, Motion::Of(d), segment, grow, exact_limit);
  if (!h) return std::nullopt;
  // As SweepClear and CastCore make it: the point on the grown target, and
  // a normal for a contact whose offset rounds to zero.
  return Hit{
      .fraction = h->fraction,
      .point = h->core_point + target_radius * h->normal,
      .normal = h->normal != Vec2{} ? h->normal : DegenerateContactNormal(d),
      .depth = 0.0,
      .feature = h->feature,
      .status = HitStatus::kHit};
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_TOI_CAPSULE_FAST_H_
