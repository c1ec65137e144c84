// Internal: a moving point against a round target that it starts clearly
// apart from, without the general machinery's cores, shadows and start
// classification: a circle cast against a point, a circle, a segment or a
// capsule, a capsule cast against a point or a circle (the circle's centre
// against the target grown by its radius) and a ray against a capsule. The
// contact itself is SweepPointCircle's or SweepPointSegment's, every decision
// of which is certain or exact; only the start is classified here, and any
// start that a cheap certain test cannot place clear of the target returns
// `general()`, the caller's call of the general machinery. A capsule cast
// against a point or a circle is the same pair seen from the target. These are
// SweepCores' answers for a clear start, except that a start within rounding of
// contact, closing, which ClassifyStart may answer as a hit at 0, never gets
// here.
#ifndef COLLIDE_LIB_SRC_PAIRS_ROUND_CLOSED_FORM_H_
#define COLLIDE_LIB_SRC_PAIRS_ROUND_CLOSED_FORM_H_

#include <cmath>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "exact/fallback_normal.h"
#include "exact/sign.h"
#include "sweep/core.h"
#include "sweep/point_sweep.h"

namespace collide::internal {

// A segment as the capsule of radius 0 it stands for here.
inline Capsule AsCapsule(const Segment& segment) {
  return {segment.p1, segment.p2, 0.0};
}
inline const Capsule& AsCapsule(const Capsule& capsule) { return capsule; }

// Whether p is certainly farther than grow from point c.
inline bool ClearOfPoint(Vec2 p, Vec2 c, const Grow& grow) {
  const Vec2 offset = p - c;
  return Dot(offset, offset) * (1.0 - kFilterRoundings) >
         grow.value * grow.value * (1.0 + kFilterRoundings);
}

// A contact as SweepClear and CastCore make it from a point sweep's: the
// point on the grown target, and a normal for a contact whose offset
// rounds to zero.
inline Hit HitOf(const PointHit& h, double target_radius, Vec2 d) {
  return Hit{
      .fraction = h.fraction,
      .point = h.core_point + target_radius * h.normal,
      .normal = h.normal != Vec2{} ? h.normal : DegenerateContactNormal(d),
      .depth = 0.0,
      .feature = h.feature,
      .status = HitStatus::kHit};
}

// Point p moving by d against point c grown by grow (its parts: the
// mover's radius, the target's `target_radius`, no skin), to the sweep's
// own end exact_limit; `feature` is the target's (its surface, or the
// point itself).
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastPointClearCircle(
    Vec2 p, Vec2 d, Vec2 c, const Grow& grow, double target_radius,
    Feature feature, double exact_limit, General&& general) {
  if (!(grow.value > 0.0) || !ClearOfPoint(p, c, grow)) return general();
  const Motion motion = Motion::Of(d);
  const double t = SweepPointCircle(p, motion, c, grow, exact_limit);
  if (t == kNoContact) return std::nullopt;
  return HitOf(
      PointHit{t, RoundContactNormal((p - c) + t * d, d, t), c, feature},
      target_radius, d);
}

// Whether p is certainly farther than grow from `segment` (a two-vertex
// core): certainly outside the band of half-width grow around its line
// (the rounded normal's and the products' few ulps, and grow's own
// rounding, within the slack), or certainly beyond an end (along the
// segment) and certainly outside that end's circle.
inline bool ClearOfSegment(Vec2 p, const Core& segment, const Grow& grow) {
  const Vec2 p1 = segment.vertex(0);
  const Vec2 m = p - p1;
  const double distance = Dot(m, segment.normal(0));
  if (std::abs(distance) - grow.value >
      kFilterRoundings * (std::abs(m.x) + std::abs(m.y) + grow.value)) {
    return true;
  }
  const Vec2 e = segment.vertex(1) - p1;
  const double along = Dot(m, e);
  const double along_bound = kFilterRoundings *
                             (std::abs(m.x) + std::abs(m.y)) *
                             (std::abs(e.x) + std::abs(e.y));
  if (along < -along_bound) return ClearOfPoint(p, p1, grow);
  if (along > Dot(e, e) + along_bound) {
    return ClearOfPoint(p, segment.vertex(1), grow);
  }
  return false;
}

// Point p moving by d against segment [p1, p2] grown by grow, as
// CastPointClearCircle.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastPointClearCapsule(
    Vec2 p, Vec2 d, Vec2 p1, Vec2 p2, const Grow& grow, double target_radius,
    double exact_limit, General&& general) {
  if (!(grow.value > 0.0) || p1 == p2) return general();
  const Core segment(p1, p2, 0.0, FeatureMap::kSegment);
  if (!ClearOfSegment(p, segment, grow)) return general();
  const std::optional<PointHit> h =
      SweepPointSegmentInline(p, Motion::Of(d), segment, grow, exact_limit);
  if (!h) return std::nullopt;
  return HitOf(*h, target_radius, d);
}

// A capsule moving by its translation against a round point target c (a
// point, radius 0, or a circle; `feature` is its), to the sweep's own end
// exact_limit: seen from the target, c moving back against the capsule's
// segment grown by both radii. The contact's normal then turns round, and
// its point is the target's, as SweepClear makes them.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastCapsuleClearRound(
    const CapsuleCast& cast, Vec2 c, double target_radius, Feature feature,
    double exact_limit, General&& general) {
  const Vec2 p1 = cast.capsule.p1;
  const Vec2 p2 = cast.capsule.p2;
  const Grow grow = Grow::Of(cast.capsule.radius, target_radius, 0.0);
  if (!(grow.value > 0.0) || p1 == p2) return general();
  const Core segment(p1, p2, 0.0, FeatureMap::kSegment);
  if (!ClearOfSegment(c, segment, grow)) return general();
  const Vec2 d = cast.translation;
  const std::optional<PointHit> h = SweepPointSegmentInline(
      c, Motion::Of(d).Reversed(), segment, grow, exact_limit);
  if (!h) return std::nullopt;
  const Vec2 normal = -h->normal;
  return Hit{.fraction = h->fraction,
             .point = c + target_radius * normal,
             .normal = normal != Vec2{} ? normal : DegenerateContactNormal(d),
             .depth = 0.0,
             .feature = feature,
             .status = HitStatus::kHit};
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_ROUND_CLOSED_FORM_H_
