// Internal: the closed form of a skinless circle cast against a convex
// polygon that it starts clearly apart from, the pair of a player moving
// among crates and walls. It is SweepCores' answer for that case (the
// circle's centre against the polygon grown by the radius: SweepClear's one
// point sweep, SweepPointPolygonGrown) without building cores, shadows or
// the start classification that a clear start never needs; any start in or
// near contact, and any decision within rounding of its threshold, returns
// `general()`, the caller's call of the general machinery.
#ifndef COLLIDE_LIB_SRC_PAIRS_CIRCLE_CLOSED_FORM_H_
#define COLLIDE_LIB_SRC_PAIRS_CIRCLE_CLOSED_FORM_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "exact/fallback_normal.h"
#include "exact/sign.h"
#include "sweep/core.h"
#include "sweep/edge_clip.h"
#include "sweep/point_sweep.h"

namespace collide::internal {

// The circle's contact with the polygon's vertex `c` (a corner of the grown
// polygon): SweepPointVertex's answer, decided exactly by SweepPointCircle
// against the sweep's own limit. Out of line, so that the face path keeps
// its values in registers.
ABSL_ATTRIBUTE_NOINLINE inline std::optional<Hit> CastCircleAtVertex(
    const CircleCast& cast, Vec2 c, int vertex, double exact_limit) {
  const Vec2 p = cast.circle.center;
  const Vec2 d = cast.translation;
  const double t = SweepPointCircle(
      p, Motion::Of(d), c, Grow::Of(cast.circle.radius, 0.0, 0.0), exact_limit);
  if (t == kNoContact) return std::nullopt;
  // An offset that rounds to zero (a radius near the underflow) has no
  // direction: CastCore's fallback.
  const Vec2 normal = RoundContactNormal((p - c) + t * d, d, t);
  return Hit{.fraction = t,
             .point = c,
             .normal = normal != Vec2{} ? normal : DegenerateContactNormal(d),
             .depth = 0.0,
             .feature = {FeatureType::kVertex, vertex},
             .status = HitStatus::kHit};
}

// The clipping of a point against a polygon's edge lines moved out by r,
// entering side only, with SweepPointPolygonGrown's values and slacks, one
// line at a time in any order (sweep/edge_clip.h).
struct GrownLineClip {
  Vec2 p;
  Vec2 d;
  double r;
  double max_fraction;
  bool at_exact_limit;  // max_fraction is the sweep's own end
  double rate_slack;
  // kRateTimeShare of the speed: a closing rate below it (a graze nearly
  // parallel to the line) gives a time too rounded to rank the line
  // against the others or to place the contact along the edge.
  double rate_time_slack;
  double grow_slack;
  // The last of the moved lines the point starts outside of to be crossed,
  // the lowest index on a tie, so that the order the lines come in does not
  // matter; -1 while none.
  double t_enter = -std::numeric_limits<double>::infinity();
  double enter_rate = 0.0;
  Vec2 enter_vertex{};
  Vec2 enter_normal{};
  int enter = -1;

  // Line i, through v with outward normal n. A miss is certain whatever the
  // other lines say; kGeneral, a decision within rounding of its threshold.
  ABSL_ATTRIBUTE_ALWAYS_INLINE ClipVerdict Line(int i, Vec2 v, Vec2 n) {
    const Vec2 m = p - v;
    const double distance = Dot(m, n) - r;
    const double distance_slack =
        grow_slack + kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
    if (distance < -distance_slack) return ClipVerdict::kGoOn;  // inside it
    // Within rounding of the moved line: a start in or next to contact.
    if (distance <= distance_slack) return ClipVerdict::kGeneral;
    const double rate = Dot(d, n);
    if (rate >= -rate_time_slack) {
      // Outside, and moving away (a miss), or along the line or so nearly
      // that its rounded time cannot be ranked (the general machinery).
      return rate > rate_slack ? ClipVerdict::kMiss : ClipVerdict::kGeneral;
    }
    // Where it is against the line at max_fraction: > 0 not yet reached.
    const double after = distance + max_fraction * rate;
    const double after_slack = distance_slack + max_fraction * rate_slack;
    if (after > after_slack) return ClipVerdict::kMiss;  // enters too late
    // Within rounding of the sweep's own end: a move ending on the surface
    // counts, which the general machinery decides exactly. (Below it, the
    // answer is another rounding of the same time, for the caller to rank.)
    if (after >= -after_slack && at_exact_limit) return ClipVerdict::kGeneral;
    const double t = distance / -rate;
    if (t > t_enter || (t == t_enter && i < enter)) {
      t_enter = t;
      enter_rate = rate;
      enter_vertex = v;
      enter_normal = n;
      enter = i;
    }
    return ClipVerdict::kGoOn;
  }
};

// A convex polygon read through `count()`, `vertex(i)` and `normal(i)` (see
// CastRayClearConvex), so that a level's packed copy or a box rebuilt from
// its bounds gets the same answer, bit for bit. max_fraction may be below
// exact_limit (a walk's best so far): contacts after it may then be dropped,
// and one within rounding of it is answered for the caller to rank; at
// exact_limit, the sweep's own end, a contact exactly there counts.
template <typename ConvexView, typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastCircleClearConvex(
    const CircleCast& cast, const ConvexView& polygon, double max_fraction,
    double exact_limit, General&& general) {
  COLLIDE_DCHECK(max_fraction <= exact_limit);
  const Vec2 p = cast.circle.center;
  const Vec2 d = cast.translation;
  const double r = cast.circle.radius;
  if (!(r > 0.0)) return general();  // a point: the polygon's own lines
  // The point meets the grown polygon where it crosses the last of the
  // moved lines it starts outside of (edge `enter`), on that edge's flat
  // part or, beyond it, on a vertex circle.
  GrownLineClip clip{
      .p = p,
      .d = d,
      .r = r,
      .max_fraction = max_fraction,
      .at_exact_limit = max_fraction >= exact_limit,
      .rate_slack = kFilterRoundings * (std::abs(d.x) + std::abs(d.y)),
      .rate_time_slack = kRateTimeShare * (std::abs(d.x) + std::abs(d.y)),
      .grow_slack = kFilterRoundings * r,
  };
  switch (ClipEdges(polygon, clip)) {
    case ClipVerdict::kMiss:
      return std::nullopt;
    case ClipVerdict::kGeneral:
      return general();
    case ClipVerdict::kGoOn:
      break;
  }
  // Inside every moved line: in a corner zone, or overlapping.
  const int enter = clip.enter;
  if (enter < 0) return general();
  const int count = polygon.count();
  const int next = enter + 1 == count ? 0 : enter + 1;
  const Vec2 a = clip.enter_vertex;
  const Vec2 m = p - a;
  // t_enter within kTimePrecision of the exact time (else a sweep short
  // against the shapes: the exact numerator is the general machinery's).
  // Unlike SweepCores, no start is answered as a hit at 0 (ClassifyStart's
  // near-start rule, for a start within rounding of contact): a start
  // within rounding of the moved line went to the general machinery above,
  // and the time from any other is good to kTimePrecision.
  // (A rate too rounded for the time, a graze nearly parallel to the edge,
  // went to the general machinery in the clip: rate_time_slack.)
  if (4.0 * kRoundoff * (std::abs(m.x) + std::abs(m.y) + r) >
      kTimePrecision * -clip.enter_rate) {
    return general();
  }
  const double t = clip.t_enter;
  const Vec2 e = polygon.vertex(next) - a;
  const double along = Dot(m + t * d, e);
  const double length_squared = Dot(e, e);
  if (along < 0.0) {
    return CastCircleAtVertex(cast, a, enter, exact_limit);
  }
  if (along > length_squared) {
    return CastCircleAtVertex(cast, polygon.vertex(next), next, exact_limit);
  }
  // A zero length squared is an edge whose square underflows (0 / 0).
  const double s =
      length_squared > 0.0 ? std::clamp(along / length_squared, 0.0, 1.0) : 0.0;
  const Feature feature = s == 0.0   ? Feature{FeatureType::kVertex, enter}
                          : s == 1.0 ? Feature{FeatureType::kVertex, next}
                                     : Feature{FeatureType::kEdge, enter};
  return Hit{.fraction = t,
             .point = a + s * e,
             .normal = clip.enter_normal,
             .depth = 0.0,
             .feature = feature,
             .status = HitStatus::kHit};
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_CIRCLE_CLOSED_FORM_H_
