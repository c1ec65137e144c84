// Internal: closed-form ray casts for the pairs that dominate level queries
// (bullets against walls, pillars and crates), without a skin. Each handles
// a ray that starts clearly away from the shape and returns its answer;
// for a start in or near contact it returns `general()`, the caller's call
// of the general machinery of sweep/convex_sweep.h, so both paths give the same
// semantics.
#ifndef COLLIDE_LIB_SRC_PAIRS_RAY_CLOSED_FORM_H_
#define COLLIDE_LIB_SRC_PAIRS_RAY_CLOSED_FORM_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "exact/sign.h"
#include "sweep/core.h"
#include "sweep/edge_clip.h"

namespace collide::internal {

// CastRayClear(Segment)'s exact end test, out of line so that the closed
// form's path needs no register saves: t (the rounded time at which the ray
// crosses the line through p1 and p2, within rounding of exact_limit) if
// the ray is on or past the line at exact_limit, +infinity (a miss) if it
// is still before it.
ABSL_ATTRIBUTE_NOINLINE double SegmentLineReachedBy(const RayInput& ray,
                                                    Vec2 p1, Vec2 p2, double t,
                                                    double exact_limit);

// CastRayClear(Circle)'s exact decisions, out of line so that the closed
// form's path needs no register saves: the discriminant of the ray's line
// against the circle, exactly (near tangency), and whether the ray has met
// the circle by fraction f.
ABSL_ATTRIBUTE_NOINLINE double RayCircleDiscriminant(const RayInput& ray,
                                                     const Circle& circle);
ABSL_ATTRIBUTE_NOINLINE double RayCircleExcess(const RayInput& ray,
                                               const Circle& circle);
ABSL_ATTRIBUTE_NOINLINE bool RayReachedCircle(const RayInput& ray,
                                              const Circle& circle, double f);

// Defined here so that each folds into its public CastRay and every answer
// is built in the caller's return value (a prvalue returned): these calls
// are short, and copying a just-written Hit (which stalls on store
// forwarding), GCC's zero-fill of a default-constructed optional<Hit>, or a
// stack frame for the general machinery's answer each cost a share of one.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, Segment segment, double max_fraction,
    double exact_limit, General&& general) {
  COLLIDE_DCHECK(max_fraction <= exact_limit);
  const Vec2 e = segment.p2 - segment.p1;
  const Vec2 m = ray.origin - segment.p1;
  const Vec2 d = ray.translation;
  const double length_squared = Dot(e, e);
  // |e| times the signed distance of the origin from the line, and its
  // rate, each with its rounding bound (orient2d's filter, exact/sign.h).
  const double cm_left = e.x * m.y;
  const double cm_right = e.y * m.x;
  const double cm = cm_left - cm_right;
  const double cm_bound =
      kCrossErrorBound * (std::abs(cm_left) + std::abs(cm_right));
  const double cd_left = e.x * d.y;
  const double cd_right = e.y * d.x;
  const double cd = cd_left - cd_right;
  const double cd_bound =
      kCrossErrorBound * (std::abs(cd_left) + std::abs(cd_right));
  // Answered here only when each decision is certain in double: the start
  // off the line, and the motion off parallel (else, for a point, on or
  // next to the line, or moving along it, the general machinery decides
  // exactly).
  if (length_squared == 0.0 || !(std::abs(cm) > cm_bound) ||
      !(std::abs(cd) > cd_bound)) {
    return general();
  }
  if (cm * cd >= 0.0) return std::nullopt;  // not closing on the line
  double t = -cm / cd;
  // Where rounding could move t by more than a trillionth of the sweep
  // (long or nearly parallel motion), the general machinery takes the two
  // cross products exactly.
  if (cm_bound + t * cd_bound > 1e-12 * std::abs(cd)) return general();
  // Where the ray's end (at exact_limit) is within rounding of the line,
  // the rounded t cannot tell a contact exactly at exact_limit (a move
  // ending on the wall: a hit) from one just after it: decided exactly, out
  // of line. t is within 1e-12 of the sweep (above) and its division's
  // rounding of the exact time, so only a t that close to exact_limit needs
  // the test.
  if (!(t < max_fraction - (2e-12 + 1e-15 * exact_limit))) {
    if (std::abs(t - exact_limit) <= 2e-12 + 1e-15 * exact_limit) {
      t = SegmentLineReachedBy(ray, segment.p1, segment.p2, t, exact_limit);
    }
    if (t > max_fraction) return std::nullopt;
  }
  // Where along the segment the line is crossed, with its rounding bound
  // (t's included): clearly beyond an end is a miss; near one (a vertex
  // aimed at or grazed), the general machinery decides exactly.
  const Vec2 entry = m + t * d;
  const double along = Dot(entry, e);
  const double along_bound =
      kFilterRoundings *
      (std::abs(m.x) + std::abs(m.y) + t * (std::abs(d.x) + std::abs(d.y))) *
      (std::abs(e.x) + std::abs(e.y));
  if (along < -along_bound || along > length_squared + along_bound) {
    return std::nullopt;
  }
  if (along <= along_bound || along >= length_squared - along_bound) {
    return general();
  }
  return Hit{.fraction = t,
             .point = segment.p1 + (along / length_squared) * e,
             .normal = (1.0 / std::sqrt(length_squared)) *
                       (cm > 0.0 ? LeftPerp(e) : RightPerp(e)),
             .depth = 0.0,
             .feature = {FeatureType::kEdge, 0},
             .status = HitStatus::kHit};
}

template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, const Circle& circle, double max_fraction,
    double exact_limit, General&& general) {
  const Vec2 m = ray.origin - circle.center;
  const Vec2 d = ray.translation;
  const double r = circle.radius;
  const double mm = Dot(m, m);
  const double rr = r * r;
  const double dd = Dot(d, d);
  // Only a start certainly apart (|m| > r, rounding included) is answered
  // here; the general machinery decides the rest exactly.
  if (r == 0.0 ||
      !(mm * (1.0 - kFilterRoundings) > rr * (1.0 + kFilterRoundings))) {
    return general();
  }
  const double b = Dot(d, m);
  if (b >= 0.0) return std::nullopt;
  // Discriminant as a r^2 - (d x m)^2 and the root as c / q: see
  // SweepPointCircle.
  const double cross = Cross(d, m);
  double discriminant = dd * r * r - cross * cross;
  double c0 = mm - rr;
  const double near_tangent = 1e-6 * (dd * rr + cross * cross);
  if (discriminant <= near_tangent) {
    if (discriminant < -near_tangent) return std::nullopt;
    // Near tangency the rounded discriminant's sign is not the line's, and
    // its rounding moves t through the square root: take it exactly (a
    // tangent line touches, at discriminant 0).
    discriminant = RayCircleDiscriminant(ray, circle);
    if (discriminant < 0.0) return std::nullopt;
  }
  const double q = -b + std::sqrt(discriminant);
  // c0's rounding (a few ulps of mm + rr) moves t = c0 / q by that over q:
  // for a ray short against the circle, by more than kTimePrecision; then
  // c0 exactly (the start is clearly apart, so it stays positive).
  if (8.0 * kRoundoff * (mm + rr) > kTimePrecision * q) {
    c0 = RayCircleExcess(ray, circle);
  }
  // t = c0 / q: a contact after max_fraction is a miss, told without the
  // division. Within rounding of max_fraction (c0's and q's, the latter's
  // bounded by the discriminant's now being exact or far from zero): at
  // the sweep's own limit, decided exactly where the ray is then (on or
  // inside the circle, or past its nearest approach, moving away: it has
  // crossed); below it (a walk's best so far), the cast goes on, its
  // answer another rounding of the same time that the caller ranks.
  // Clear of the band, c0 / q rounds to at most max_fraction.
  const double end = c0 - max_fraction * q;
  double t = c0 / q;
  if (std::abs(end) <= 2e-9 * (mm + rr + max_fraction * q)) {
    if (max_fraction >= exact_limit) {
      if (!RayReachedCircle(ray, circle, max_fraction)) return std::nullopt;
      t = std::min(t, max_fraction);
    }
  } else if (end > 0.0) {
    return std::nullopt;
  }
  // The contact offset m + t d scaled by q > 0, available without waiting
  // for the division, is of length q r: dividing by that and one Newton
  // step on the length (1 / sqrt(1 + e) = 1 - e / 2 + O(e^2)) make the
  // normal without a square root. The offset's two terms cancel to about
  // r / |m| of their size, so for rays from far away (beyond ~1e8 radii)
  // rounding leaves the estimate too far from unit: normalise those.
  const Vec2 offset = q * m + c0 * d;
  const Vec2 estimate = (1.0 / (q * r)) * offset;
  const double excess = Dot(estimate, estimate) - 1.0;
  // From far enough away the offset can cancel to exactly zero: no
  // direction left, which the general machinery's fallback then gives.
  if (offset == Vec2{}) return general();
  const Vec2 normal = std::abs(excess) < 1e-7 ? (1.0 - 0.5 * excess) * estimate
                                              : Normalize(offset);
  return Hit{.fraction = t,
             .point = circle.center + r * normal,
             .normal = normal,
             .depth = 0.0,
             .feature = {FeatureType::kSurface, 0},
             .status = HitStatus::kHit};
}

// Whether a ray that closes on every line of `polygon` it starts outside of
// reaches each one by exact_limit, decided exactly for those that CastRayClear
// Convex's filter leaves within rounding of it (the same arithmetic, so the
// same lines). Out of line: the clipping loop then holds its values in
// registers, with no call to save them around.
template <typename ConvexView>
ABSL_ATTRIBUTE_NOINLINE bool RayReachesConvexLinesBy(const RayInput& ray,
                                                     const ConvexView& polygon,
                                                     double exact_limit) {
  const Vec2 p = ray.origin;
  const Vec2 d = ray.translation;
  const double closing_slack =
      kFilterRoundings * (std::abs(d.x) + std::abs(d.y));
  const int count = polygon.count();
  for (int i = 0; i < count; ++i) {
    const Vec2 n = polygon.normal(i);
    const Vec2 m = p - polygon.vertex(i);
    const double distance = Dot(m, n);
    if (distance <= 0.0) continue;
    const double closing = -Dot(d, n);
    const double over = distance - exact_limit * closing;
    const double over_slack =
        kFilterRoundings * (std::abs(m.x) + std::abs(m.y)) +
        exact_limit * closing_slack;
    if (std::abs(over) <= over_slack &&
        OrientAfterExact(polygon.vertex(i),
                         polygon.vertex(i + 1 == count ? 0 : i + 1), p, Vec2{},
                         d, exact_limit) < 0) {
      return false;
    }
  }
  return true;
}

// CastRayClearConvex's clipping, one edge line at a time in any order
// (sweep/edge_clip.h). A ray that starts outside a line and does not close on
// it, or reaches it only after max_fraction, misses. Otherwise `enter` is
// the last of the lines it starts outside of to be crossed, the lowest
// index on a tie, so that the order the lines come in does not matter.
struct RayLineClip {
  Vec2 p;
  Vec2 d;
  double max_fraction;
  double exact_limit;
  double closing_slack;  // bound on a line's closing rate's rounding
  double t_enter = 0.0;
  double enter_slack = 0.0;  // the entering line's distance slack
  double enter_closing = 0.0;
  int enter = -1;
  bool ends_near = false;  // some line is reached within rounding of the end

  ABSL_ATTRIBUTE_ALWAYS_INLINE ClipVerdict Line(int i, Vec2 v, Vec2 n) {
    const Vec2 m = p - v;
    const double distance = Dot(m, n);
    if (distance <= 0.0) return ClipVerdict::kGoOn;  // inside (or on)
    // A start next to this line (within distance_slack) matters only to
    // the misses below, whose tests exceed it, and to the line `enter`,
    // checked after the clipping: another line's entry is never the last
    // (the hit's along test certifies that the ray is then on the polygon).
    const double distance_slack =
        kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
    // Divided before the closing rate's sign is tested, so that the only
    // branch a random ray makes unpredictable is the one above: t is a time
    // only where the ray closes on the line.
    const double closing = -Dot(d, n);
    double t = distance / closing;
    if (closing <= closing_slack) {
      // Moving away, or so nearly along the line that even the fastest
      // closing rounding allows reaches it only after max_fraction.
      return distance - distance_slack > 2.0 * closing_slack * max_fraction
                 ? ClipVerdict::kMiss
                 : ClipVerdict::kGeneral;
    }
    // Where the ray is against the line at max_fraction: > 0 still
    // outside it (certainly, past over_slack: then distance exceeds its
    // slack too).
    const double over = distance - max_fraction * closing;
    const double over_slack = distance_slack + max_fraction * closing_slack;
    if (over > over_slack) return ClipVerdict::kMiss;  // reached only after
    if (over >= -over_slack && max_fraction >= exact_limit) {
      // Reached within rounding of the sweep's own limit, where a move
      // ending on the polygon is a hit and one ending just before it a
      // miss: decided exactly before a hit is answered (a miss or the
      // general machinery's answer needs no such test). Below that limit
      // (a walk's best so far), the cast goes on: its answer may be another
      // rounding of the same time, which the caller ranks, as it does the
      // same shape's answer to a cast without that limit.
      ends_near = true;
      t = std::min(t, exact_limit);
    }
    if (t > t_enter || (t == t_enter && i < enter)) {
      t_enter = t;
      enter_slack = distance_slack;
      enter_closing = closing;
      enter = i;
    }
    return ClipVerdict::kGoOn;
  }
};

// A convex polygon, read through `polygon.count()`, `vertex(i)` and
// `normal(i)` (the outward normal of edge i, from vertex i to i + 1), so a
// level can keep a packed copy and get the same answer, bit for bit.
template <typename ConvexView, typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClearConvex(
    const RayInput& ray, const ConvexView& polygon, double max_fraction,
    double exact_limit, General&& general) {
  COLLIDE_DCHECK(max_fraction <= exact_limit);
  const Vec2 p = ray.origin;
  const Vec2 d = ray.translation;
  // Cyrus-Beck clipping, entering side only (as SweepPointPolygonZero). A
  // ray that starts outside an edge's line and does not close on it, or
  // reaches it only after max_fraction, misses. Otherwise let edge `enter`
  // be the last of the lines it starts outside of to be crossed: it hits
  // when it is then on that edge, and misses when it is then beside it.
  // Each decision is final only when it is farther from its threshold than
  // rounding can move it (the rounded normal's and the products' few ulps,
  // `slack`); a closer one (a start on or next to a line, motion along an
  // edge, a graze of a vertex) is the general machinery's, which decides it
  // exactly.
  const auto slack = [](Vec2 m) {
    return kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
  };
  const double closing_slack =
      kFilterRoundings * (std::abs(d.x) + std::abs(d.y));
  const int count = polygon.count();
  // The bound on an entry time's rounding: its numerator's and
  // denominator's, and the division's.
  const auto t_slack = [&](double t, double distance_slack, double closing) {
    return (distance_slack + t * closing_slack) / closing +
           kFilterRoundings * t;
  };
  RayLineClip clip{.p = p,
                   .d = d,
                   .max_fraction = max_fraction,
                   .exact_limit = exact_limit,
                   .closing_slack = closing_slack};
  switch (ClipEdges(polygon, clip)) {
    case ClipVerdict::kMiss:
      return std::nullopt;
    case ClipVerdict::kGeneral:
      return general();
    case ClipVerdict::kGoOn:
      break;
  }
  const double t_enter = clip.t_enter;
  const double enter_slack = clip.enter_slack;
  const double enter_closing = clip.enter_closing;
  const int enter = clip.enter;
  const bool ends_near = clip.ends_near;
  // Inside every line (a start inside or on the boundary), or every entry
  // rounded to 0 (subnormal offsets): the general machinery's.
  if (enter < 0) return general();
  const int next = enter + 1 == count ? 0 : enter + 1;
  const Vec2 a = polygon.vertex(enter);
  const Vec2 b = polygon.vertex(next);
  const Vec2 normal = polygon.normal(enter);
  const Vec2 m = p - a;
  // The start on or next to line `enter` (the same values as in the loop).
  if (!(Dot(m, normal) > enter_slack)) return general();
  const EdgeCrossing crossing = EdgeCrossing::Of(m, p - b, d);
  const bool before_a = crossing.BeforeA();
  const bool past_b = crossing.PastB();
  // Bound on t_enter's rounding.
  const auto entry_slack = [&] {
    return t_slack(t_enter, enter_slack, enter_closing);
  };
  if (before_a || past_b) {
    // Beside the edge when crossing its line (before vertex `enter`, or
    // past vertex `next`). Where the polygon turns left there (the two
    // normals' cross product beyond their few ulps of rounding), that point
    // is outside the neighbouring edge's line, and where the ray moves away
    // from that line (closing beyond its rounding), it stays outside it:
    // a miss, as it was outside line `enter` until then.
    const int neighbour =
        before_a ? (enter == 0 ? count - 1 : enter - 1) : next;
    const Vec2 beside = polygon.normal(neighbour);
    const double turn =
        before_a ? Cross(beside, normal) : Cross(normal, beside);
    if (turn > kFilterRoundings && Dot(d, beside) > closing_slack) {
      return std::nullopt;
    }
    // Otherwise outside a neighbour's line there, which it crossed on its
    // way out, so a miss, if `enter` is the last line crossed. Certain
    // unless a line it starts next to or on (which might be one it starts
    // outside of) or a near tie could make another line the last.
    const double enter_t_slack = entry_slack();
    for (int i = 0; i < count; ++i) {
      if (i == enter) continue;
      const Vec2 n = polygon.normal(i);
      const Vec2 mi = p - polygon.vertex(i);
      const double distance = Dot(mi, n);
      const double distance_slack = slack(mi);
      if (std::abs(distance) <= distance_slack) return general();
      if (distance < 0.0) continue;
      const double closing = -Dot(d, n);
      const double t = distance / closing;
      if (t_enter - t <= enter_t_slack + t_slack(t, distance_slack, closing)) {
        return general();
      }
    }
    return std::nullopt;
  }
  // Near the edge's start or end: at a vertex, or grazing it.
  if (!crossing.Within()) return general();
  // A hit, whichever line is the last crossed: outside line `enter` until
  // t_enter, the ray is outside the polygon, and it is then on the edge;
  // unless some line is reached only after exact_limit.
  if (ends_near && !RayReachesConvexLinesBy(ray, polygon, exact_limit)) {
    return std::nullopt;
  }
  const Vec2 entry = m + t_enter * d;  // relative to a
  // Nearly along the line, the time's own rounding may exceed a trillionth
  // of the sweep: then it comes from the crossing's two cross products,
  // each to its last place (as CrossSegmentZero's).
  double fraction = t_enter;
  Vec2 contact = entry;
  if (entry_slack() > 1e-12) {
    fraction = std::clamp(
        RoundToDouble(-CrossEstimate(a, b, a, p) / CrossEstimate(a, b, {}, d)),
        0.0, max_fraction);
    contact = m + fraction * d;
  }
  // The entry point projected onto the edge's line (no division by the
  // edge's length).
  return Hit{.fraction = fraction,
             .point = a + (contact - Dot(contact, normal) * normal),
             .normal = normal,
             .depth = 0.0,
             .feature = {FeatureType::kEdge, enter},
             .status = HitStatus::kHit};
}

// CastRayClearBox's cases other than the common one: CastRayClearConvex on
// the box, out of line (a cold path, and one copy of it).
template <typename General>
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> CastRayClearBoxWhole(
    const RayInput& ray, AxisBoxView box, double max_fraction,
    double exact_limit, const General& general) {
  return CastRayClearConvex(ray, box, max_fraction, exact_limit, general);
}

// CastRayClearConvex on an axis-aligned box, answered from the box's bounds
// in the common case with the same arithmetic, so the same bits: a start
// outside the box is outside at most two of its lines, one per axis, told
// by comparing coordinates (a rounded difference has the exact one's sign),
// so the clipping needs no loop over the lines it starts inside of, and
// the entering edge, its corners and normal follow from its side without
// a lookup. Each line's distance and closing rate are those of the general
// form's Dot with the box's constant normals (a product by a zero normal
// component adds only a zero); its decisions are taken in the same order.
// Whatever the general form would not answer straight from that clipping
// (a line within rounding, a tie between the two, a start on a line, a
// contact near a corner or the sweep's end, beside the edge) goes to it
// whole.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClearBox(
    const RayInput& ray, const AxisBoxView& box, double max_fraction,
    double exact_limit, General&& general) {
  const auto full = [&] {
    return CastRayClearBoxWhole(ray, box, max_fraction, exact_limit, general);
  };
  const Vec2 p = ray.origin;
  const Vec2 d = ray.translation;
  const Vec2 lo = box.lower;
  const Vec2 hi = box.upper;
  // The box side (kAxisBoxNormals' index, the corner the edge starts at)
  // the start is outside of per axis, -1 for none.
  const int kx = p.x < lo.x ? 3 : p.x > hi.x ? 1 : -1;
  const int ky = p.y < lo.y ? 0 : p.y > hi.y ? 2 : -1;
  if (kx < 0 && ky < 0) return full();  // inside or on the box
  const auto corner = [&](int k) -> Vec2 {
    return {k == 1 || k == 2 ? hi.x : lo.x, k >= 2 ? hi.y : lo.y};
  };
  const double closing_slack =
      kFilterRoundings * (std::abs(d.x) + std::abs(d.y));
  // RayLineClip::Line for side k, which the start is outside of.
  struct Line {
    int k;
    Vec2 m;  // start - corner k
    double distance;
    double slack;
    double closing;
    double t;
    ClipVerdict verdict;
  };
  const auto line = [&](int k) {
    Line l;
    l.k = k;
    l.m = p - corner(k);
    l.distance = k == 0 ? -l.m.y : k == 1 ? l.m.x : k == 2 ? l.m.y : -l.m.x;
    l.slack = kFilterRoundings * (std::abs(l.m.x) + std::abs(l.m.y));
    l.closing = k == 0 ? d.y : k == 1 ? -d.x : k == 2 ? -d.y : d.x;
    l.t = l.distance / l.closing;
    if (l.closing <= closing_slack) {
      l.verdict = l.distance - l.slack > 2.0 * closing_slack * max_fraction
                      ? ClipVerdict::kMiss
                      : ClipVerdict::kGeneral;
      return l;
    }
    const double over = l.distance - max_fraction * l.closing;
    const double over_slack = l.slack + max_fraction * closing_slack;
    l.verdict = over > over_slack ? ClipVerdict::kMiss
                : over >= -over_slack && max_fraction >= exact_limit
                    ? ClipVerdict::kGeneral  // ends near: the general form's
                    : ClipVerdict::kGoOn;
    return l;
  };
  // The lines in the general form's order (by k), so that the first
  // verdict other than kGoOn is the one it returns.
  Line first = line(ky >= 0 && (kx < 0 || ky < kx) ? ky : kx);
  if (first.verdict == ClipVerdict::kMiss) return std::nullopt;
  if (first.verdict == ClipVerdict::kGeneral) return full();
  Line enter = first;
  if (kx >= 0 && ky >= 0) {
    const Line second = line(first.k == kx ? ky : kx);
    if (second.verdict == ClipVerdict::kMiss) return std::nullopt;
    if (second.verdict == ClipVerdict::kGeneral || second.t == first.t) {
      return full();
    }
    if (second.t > first.t) enter = second;
  }
  if (!(enter.t > 0.0) || !(enter.distance > enter.slack)) return full();
  // As CastRayClearConvex from here, on edge enter.k.
  const Vec2 a = corner(enter.k);
  const Vec2 normal = kAxisBoxNormals[enter.k];
  const Vec2 m = enter.m;
  if (!EdgeCrossing::Of(m, p - corner((enter.k + 1) & 3), d).Within()) {
    return full();
  }
  const double t_enter = enter.t;
  if ((enter.slack + t_enter * closing_slack) / enter.closing +
          kFilterRoundings * t_enter >
      1e-12) {
    return full();
  }
  const Vec2 entry = m + t_enter * d;
  return Hit{.fraction = t_enter,
             .point = a + (entry - Dot(entry, normal) * normal),
             .normal = normal,
             .depth = 0.0,
             .feature = {FeatureType::kEdge, (enter.k - box.start) & 3},
             .status = HitStatus::kHit};
}

// ConvexPolygon as a ConvexView.
struct ConvexPolygonView {
  const ConvexPolygon& polygon;
  int count() const { return polygon.count; }
  Vec2 vertex(int i) const { return polygon.vertices[i]; }
  Vec2 normal(int i) const { return polygon.normals[i]; }
};

template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, const ConvexPolygon& polygon, double max_fraction,
    double exact_limit, General&& general) {
  return CastRayClearConvex(ray, ConvexPolygonView{polygon}, max_fraction,
                            exact_limit, general);
}

// The closed form against a concave polygon's edge i (to vertex next), its
// hit kept in best (and limit) when earlier; false where the closed form
// would leave the edge to the general machinery.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool TakeConcaveEdge(
    const RayInput& ray, const ConcavePolygon& polygon, int i, int next,
    double exact_limit, double& limit, std::optional<Hit>& best) {
  bool near = false;
  const std::optional<Hit> hit =
      CastRayClear(ray, Segment{polygon.vertices[i], polygon.vertices[next]},
                   limit, exact_limit, [&] {
                     near = true;
                     return std::optional<Hit>();
                   });
  if (near) return false;
  if (hit && (!best || hit->fraction < limit)) {
    best = hit;
    best->feature.index = best->feature.type == FeatureType::kVertex
                              ? (best->feature.index == 0 ? i : next)
                              : i;
    limit = hit->fraction;
  }
  return true;
}

// A solid simple polygon whose vertex the ray's line passes within rounding
// of (a shot aimed at a corner, a grid level's ray along a row of vertices):
// the closed form against each edge facing the ray (outward normal against
// the motion), earliest wins, first edge on ties as in SweepCoreVsConcave.
// A start inside or on the boundary, near any facing edge's line, or an
// edge within rounding of parallel to the ray, is left to the general
// machinery. Where the start is comes from the same loop over the edges
// (PointInPolygonExact's crossing number and exact signs, edge by edge),
// and a start found inside discards the contacts.
template <typename General>
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> CastRayClearConcaveByEdges(
    const RayInput& ray, const ConcavePolygon& polygon, double max_fraction,
    double exact_limit, General&& general) {
  const int n = static_cast<int>(polygon.vertices.size());
  const Vec2 p = ray.origin;
  bool inside = false;
  double limit = max_fraction;
  std::optional<Hit> best;
  for (int i = 0; i < n; ++i) {
    const int next = i + 1 == n ? 0 : i + 1;
    const Segment edge{polygon.vertices[i], polygon.vertices[next]};
    // The edge's part in where the start is (as PointInPolygonExact): only
    // one whose height range holds p.y can hold p or cross the line from p
    // towards +x.
    if ((edge.p1.y - p.y) * (edge.p2.y - p.y) <= 0.0) {
      const int side = Orient(edge.p1, edge.p2, p);
      if (side == 0 && std::min(edge.p1.x, edge.p2.x) <= p.x &&
          p.x <= std::max(edge.p1.x, edge.p2.x) &&
          std::min(edge.p1.y, edge.p2.y) <= p.y &&
          p.y <= std::max(edge.p1.y, edge.p2.y)) {
        return general();  // on the boundary
      }
      const bool start_above = edge.p1.y > p.y;
      const bool end_above = edge.p2.y > p.y;
      if (start_above != end_above && (end_above ? side > 0 : side < 0)) {
        inside = !inside;
      }
    }
    // Outward normal orientation * RightPerp(e): facing the ray when
    // orientation * Cross(d, e) < 0. Skipped only when its rounding bound
    // (the segment's own, below: the same products) shows it does not;
    // within that bound the segment's closed form gives the edge to the
    // general machinery, which decides facing exactly (an edge tilted off
    // the ray by less than a rounding may face it: a graze of its vertex).
    const Vec2 e = edge.p2 - edge.p1;
    const double left = e.x * ray.translation.y;
    const double right = e.y * ray.translation.x;
    if (polygon.orientation * (right - left) >
        kCrossErrorBound * (std::abs(left) + std::abs(right))) {
      continue;
    }
    if (!TakeConcaveEdge(ray, polygon, i, next, exact_limit, limit, best)) {
      return general();
    }
  }
  if (inside) return general();
  return best;
}

// A solid simple polygon. Each vertex's side of the ray's line, where
// rounding decides it (else CastRayClearConcaveByEdges): only an edge whose
// ends lie on opposite sides can meet the line, once, and then it faces the
// ray exactly by the sign of Cross(e, d), which is p1's side (Cross(e, d) =
// Cross(d, p1 - o) - Cross(d, p2 - o), and those differ in sign). The
// start is inside when the forward half of the line crosses an odd number of
// edges (Jordan; no vertex is on the line), each crossing decided by
// the start's exact side of the edge's line (on it: on the boundary, left to
// the general machinery). The closed form runs only on the crossing edges
// that face the ray, earliest wins; a start inside or near a facing edge's
// line is left to the general machinery.
template <typename General>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<Hit> CastRayClear(
    const RayInput& ray, const ConcavePolygon& polygon, double max_fraction,
    double exact_limit, General&& general) {
  const int n = static_cast<int>(polygon.vertices.size());
  const Vec2 o = ray.origin;
  // Each vertex's side of the ray's line, 0 where the filter cannot tell.
  const auto line_side = [&](Vec2 v) {
    return FilteredCrossSign(ray.translation, v - o);
  };
  const int first = line_side(polygon.vertices[0]);
  if (first == 0) {
    return CastRayClearConcaveByEdges(ray, polygon, max_fraction, exact_limit,
                                      general);
  }
  bool inside = false;
  double limit = max_fraction;
  std::optional<Hit> best;
  int before = first;
  for (int i = 0; i < n; ++i) {
    const int next = i + 1 == n ? 0 : i + 1;
    const int after = next == 0 ? first : line_side(polygon.vertices[next]);
    if (after == 0) {
      return CastRayClearConcaveByEdges(ray, polygon, max_fraction, exact_limit,
                                        general);
    }
    if (after == before) continue;
    const int start_side =
        Orient(polygon.vertices[i], polygon.vertices[next], o);
    if (start_side == 0) return general();  // on the boundary
    // The line is crossed at t = -Cross(e, o - p1) / Cross(e, d), ahead of
    // the start when the two differ in sign (the latter's is p1's side).
    // Facing: the outward normal, orientation * RightPerp(e), against d,
    // that is orientation * Cross(e, d) > 0.
    if (start_side != before) {
      inside = !inside;
      if (polygon.orientation * before > 0 &&
          !TakeConcaveEdge(ray, polygon, i, next, exact_limit, limit, best)) {
        return general();
      }
    }
    before = after;
  }
  if (inside) return general();
  return best;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_RAY_CLOSED_FORM_H_
