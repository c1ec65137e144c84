// Internal: a point moving by d against a core grown by `grow`, the
// building block of every convex sweep (sweep/convex_sweep.h). Each returns the
// first contact in [0, max_fraction] of a point that starts farther than
// grow from the core, or nullopt. Inline so that they fold into the
// sweeps' vertex loops.
#ifndef COLLIDE_LIB_SRC_SWEEP_POINT_SWEEP_H_
#define COLLIDE_LIB_SRC_SWEEP_POINT_SWEEP_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/fallback_normal.h"
#include "exact/sign.h"
#include "sweep/core.h"

namespace collide::internal {

// The distance at which a point sweep stops: the sum of up to three
// non-negative parts (two radii and a skin), rounded once as `value`. The
// exact decisions (tangents) take the parts, whose sum may not be a double.
struct Grow {
  double value;
  double parts[3];

  static Grow Of(double r1, double r2, double r3) {
    return {r1 + r2 + r3, {r1, r2, r3}};
  }
};

// A point sweep's contact: normal is from the core towards the point;
// core_point is on the core.
struct PointHit {
  double fraction;
  Vec2 normal;
  Vec2 core_point;
  Feature feature;
};

// What SweepPointCircle and its out-of-line parts return for no contact
// (their times are in [0, max_fraction]). A plain double rather than a
// std::optional<double>: GCC merges the optional's return paths in a stack
// slot, written in two parts and read back whole, which stalls every call
// on store forwarding.
inline constexpr double kNoContact = -1.0;

// SweepPointCircle past its discriminant (not negative): the time as the
// stable root c0 / q (no -b - sqrt cancellation), c0 = |m|^2 - grow^2 and q
// = -b + sqrt(discriminant) for m = p - c and b = d . m, q within q_error of
// the exact one, with its exact decisions (magnitude = |m|^2 + grow^2 bounds
// c0's rounding). Out of line, and reached only where one of them may be
// needed, so that the common path saves no registers.
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD double SweepPointCircleEnd(
    Vec2 p, const Motion& motion, Vec2 c, const Grow& grow, double max_fraction,
    double c0, double q, double magnitude, double q_error);

// SweepPointCircle with the discriminant taken exactly (grow's parts summed
// exactly): its sign decides a graze (a path exactly tangent touches), and
// its size the time, which near tangency hangs on its square root. Out of
// line (rare).
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD double SweepPointCircleTangent(
    Vec2 p, const Motion& motion, Vec2 c, const Grow& grow,
    double max_fraction);

// Earliest time |p + t d - c| = grow for t in [0, max_fraction], approaching
// from outside; kNoContact if none. Decided here where every rounding bound is
// clear of its threshold (a discriminant clear of 0 by kClearDiscriminant,
// a start far from contact, a time long against its rounding and far from
// max_fraction); otherwise by SweepPointCircleTangent or
// SweepPointCircleEnd, exactly.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline double SweepPointCircle(
    Vec2 p, const Motion& motion, Vec2 c, const Grow& grow,
    double max_fraction) {
  const Vec2 d = motion.d;
  const Vec2 m = p - c;
  const double b = Dot(d, m);
  if (b >= 0.0) return kNoContact;  // not approaching
  const double a = Dot(d, d);
  // Discriminant of |m + t d|^2 = grow^2 written as a grow^2 - (d x m)^2,
  // which avoids the cancellation of b^2 - a c when the path passes far
  // from the centre. Certainly negative: a miss; within its rounding bound
  // of zero or too close to it for q's bound below, exactly.
  const double cross_left = d.x * m.y;
  const double cross_right = d.y * m.x;
  const double cross = cross_left - cross_right;
  const double aa = a * grow.value * grow.value;
  const double discriminant = aa - cross * cross;
  const double cross_terms = std::abs(cross_left) + std::abs(cross_right);
  const double rounding = kFilterRoundings * (aa + cross_terms * cross_terms);
  if (discriminant <= std::max(kClearDiscriminant * aa, rounding)) {
    if (discriminant < -rounding) return kNoContact;
    return SweepPointCircleTangent(p, motion, c, grow, max_fraction);
  }
  const double mm = Dot(m, m);
  const double gg = grow.value * grow.value;
  const double c0 = mm - gg;
  const double magnitude = mm + gg;
  const double q = -b + std::sqrt(discriminant);
  // SweepPointCircleEnd's tests, each clear: c0 needs no exact value, and
  // c0 - max_fraction q, whose sign tells whether t = c0 / q comes by
  // max_fraction, is beyond its rounding (c0's and q's within
  // kClearRootError, the product's and the difference's). Which side of
  // max_fraction t is on is tested first, as the sweeps without the
  // bounds did (the one branch here that depends on the case).
  if (c0 > kFilterRoundings * magnitude &&
      8.0 * kRoundoff * magnitude <= kTimePrecision * q) {
    const double reach = max_fraction * q;
    const double end = c0 - reach;
    const double end_error =
        kClearRootError * reach +
        (kCircleExcessRoundings + 3.0 * kRoundoff) * magnitude;
    if (end > 0.0) {
      if (end > end_error) return kNoContact;
    } else if (-end > end_error) {
      return std::min(c0 / q, max_fraction);
    }
  }
  return SweepPointCircleEnd(p, motion, c, grow, max_fraction, c0, q, magnitude,
                             kClearRootError * q);
}

// std::clamp(s, 0.0, 1.0) by value: GCC selects std::clamp's reference
// result through the stack on the point sweeps' hot paths.
inline double Clamp01(double s) {
  const double low = s < 0.0 ? 0.0 : s;
  return low > 1.0 ? 1.0 : low;
}

// The contact at time t of a point sweep with the circle around b's vertex
// `vertex`.
inline PointHit VertexContact(Vec2 p, Vec2 d, const Core& b, int vertex,
                              const Grow& grow, double t) {
  const Vec2 c = b.vertex(vertex);
  const Vec2 offset = (p - c) + t * d;
  // A zero grow meets the vertex itself: face the mover.
  const Vec2 normal =
      grow.value > 0.0 ? RoundContactNormal(offset, d, t) : Normalize(-d);
  return PointHit{t, normal, c, b.VertexFeature(vertex)};
}

// Contact of a point sweep with a circle around b's vertex `vertex`.
inline std::optional<PointHit> SweepPointVertex(Vec2 p, const Motion& motion,
                                                const Core& b, int vertex,
                                                const Grow& grow,
                                                double max_fraction) {
  const double t =
      SweepPointCircle(p, motion, b.vertex(vertex), grow, max_fraction);
  if (t == kNoContact) return std::nullopt;
  return VertexContact(p, motion.d, b, vertex, grow, t);
}

// The two caps of segment core b, the earlier contact (ties to the first).
// The times first, and the contact made for the earlier only: two
// contacts, returned through memory and copied, would be read back whole
// from the callees' parts and stall on store forwarding.
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentCaps(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction);

// The side of segment a -> c's line that p = a + m starts on, along the
// rounded normal RightPerp(c - a) (+1 also on the line), from the rounded
// `distance` Dot(m, normal) when it is beyond its rounding, else exactly:
// a start off the line by less than a rounding of the coordinates (a
// segment spanning 2^110, tilted by a hair) is on the side that decides
// whether the motion closes on the band.
// Whether the rounded `distance` of p = a + m from a line through a is
// beyond its rounding, so that its sign is the exact one.
inline bool SideCertain(double distance, double m_size) {
  return std::abs(distance) > kFilterRoundings * m_size;
}
// Whether a point at the rounded `distance` from a band's line is beyond
// the band's half-width `grow` by more than the rounding of both.
inline bool OutsideBand(double distance, double grow, double m_size) {
  return std::abs(distance) - grow > kFilterRoundings * (m_size + grow);
}
inline double StartSide(Vec2 a, Vec2 c, Vec2 p, Vec2 m, double distance) {
  if (SideCertain(distance, std::abs(m.x) + std::abs(m.y))) {
    return distance > 0.0 ? 1.0 : -1.0;
  }
  return Orient(a, c, p) > 0 ? -1.0 : 1.0;  // RightPerp: the right side
}

// SweepPointSegment for motion exactly parallel to the segment (see there);
// out of line, as it is rare.
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentParallel(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction);

// Where a point sweep crosses a segment: inside it or at one of its ends.
enum class SegmentSpot { kInterior, kFirstEnd, kSecondEnd };

struct SegmentCrossing {
  double fraction;
  SegmentSpot spot;
};

// The crossing of segment [a, c] by a point p + t d that starts strictly on
// side `start_side` (Orient(a, c, p), not 0) of its line, for t in
// [0, max_fraction], every choice made exactly: it crosses when it closes on
// the line, by max_fraction when its position then is on or past the line,
// and on the segment when its own line of motion separates the ends (or
// passes through one). Only the time is rounded, from the two cross
// products of the crossing, taken exactly when rounding could move it by
// more than a trillionth of the sweep.
inline std::optional<SegmentCrossing> CrossSegmentZero(Vec2 a, Vec2 c, Vec2 p,
                                                       const Motion& motion,
                                                       int start_side,
                                                       double max_fraction) {
  const Vec2 from = motion.from;
  const Vec2 to = motion.to;
  if (CrossSign(a, c, from, to) != -start_side) return std::nullopt;
  if (OrientAfter(a, c, p, from, to, max_fraction) == start_side) {
    return std::nullopt;
  }
  const int side_a = CrossSign(from, to, p, a);
  const int side_c = CrossSign(from, to, p, c);
  if (side_a == side_c) return std::nullopt;  // passes beside
  const double t = CrossingTime(a, c, p, from, to);
  return SegmentCrossing{std::clamp(t, 0.0, max_fraction),
                         side_a == 0   ? SegmentSpot::kFirstEnd
                         : side_c == 0 ? SegmentSpot::kSecondEnd
                                       : SegmentSpot::kInterior};
}

// The point of segment [a, c] that a crossing meets.
inline Vec2 CrossingPoint(Vec2 a, Vec2 c, Vec2 p, Vec2 d,
                          const SegmentCrossing& crossing) {
  if (crossing.spot == SegmentSpot::kFirstEnd) return a;
  if (crossing.spot == SegmentSpot::kSecondEnd) return c;
  const Vec2 e = c - a;
  const double length_squared = Dot(e, e);
  const double along = Dot((p - a) + crossing.fraction * d, e);
  // A zero length squared is an edge whose square underflows (0 / 0).
  const double s =
      length_squared > 0.0 ? std::clamp(along / length_squared, 0.0, 1.0) : 0.0;
  return a + s * e;
}

// SweepPointSegment for grow 0: the point meets the segment itself, every
// choice made exactly (CrossSegmentZero), or, starting on its line off it,
// runs along the line onto an end.
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentZero(
    Vec2 p, const Motion& motion, const Core& b, double max_fraction);

// Where a side contact meets segment core b, exactly (SideContactAlongSign
// at each end); out of line, as it is rare.
ABSL_ATTRIBUTE_NOINLINE void SideContactEnds(const Core& b, Vec2 p,
                                             const Motion& motion, double side,
                                             const Grow& grow, int* first_end,
                                             int* second_end);

// The rate at which a point moving by `motion` closes on segment core b's
// line (along b.normal(0)), given its rounded value. Nearly parallel
// motion (within the rounding of the rounded normal's product, and of the
// rounded motion's for a pair) may have the other sign than the rounded
// rate, and a long move closes on the line by a whole unit or more at
// such a rate: there it comes from the exact cross product of the
// segment's vertices and the motion, to within its last place. Exactly
// parallel motion gets 0.
ABSL_ATTRIBUTE_NOINLINE double NearlyParallelRateExact(const Motion& motion,
                                                       const Core& b);
// The share of |d|_1 below which the rounded rate (Dot(d, n): a few ulps of
// |d| through the rounded normal and motion) is too rounded for a side
// contact's time: its relative error, carried into the time, could pass
// kTimePrecision. A long graze nearly parallel to a segment (1e-11 of the
// sweep per unit of fraction) would be off by 1e-6 of the sweep. Below it
// the rate is taken from the exact cross product; far above the rounding
// that could flip its sign (kFilterRoundings), rare for random motion
// (within ~1e-4 radians of parallel).
inline constexpr double kRateTimeShare = 8.0 * kRoundoff / kTimePrecision;
static_assert(kRateTimeShare > kFilterRoundings);

inline double NearlyParallelRate(double rate, const Motion& motion,
                                 const Core& b) {
  const Vec2 d = motion.d;
  if (std::abs(rate) > kRateTimeShare * (std::abs(d.x) + std::abs(d.y))) {
    return rate;
  }
  return NearlyParallelRateExact(motion, b);
}

// Where a side contact of a point sweep at time t lies along segment e
// (from a, the point starting at m = p - a): `along` = Dot(m + t d, e).
// Which part it meets (side or cap) is the sign of along at the exact t, at
// each end; the rounded along decides it when it is farther from the end
// than its bound: t's (through the rounded distance and rate) carried by
// Dot(d, e), plus the product's own. Compared times |rate| (no division):
// scaled_bound = kFilterRoundings reach |e|_1 (|d|_1 + |rate|), which
// covers |d.x e.x| + |d.y e.y| + |rate| |e|_1 with one product fewer, first
// = along |rate|, second = (along - |e|^2) |rate|.
struct SideGaps {
  double along;
  double length_squared;
  double scaled_bound;
  double first;
  double second;
};
ABSL_ATTRIBUTE_ALWAYS_INLINE inline SideGaps SideGapsAt(Vec2 m, double t,
                                                        Vec2 d, Vec2 e,
                                                        double rate,
                                                        double reach) {
  const double along = Dot(m + t * d, e);
  const double length_squared = Dot(e, e);
  const double abs_rate = std::abs(rate);
  return {along, length_squared,
          kFilterRoundings * reach * (std::abs(e.x) + std::abs(e.y)) *
              (std::abs(d.x) + std::abs(d.y) + abs_rate),
          along * abs_rate, (along - length_squared) * abs_rate};
}

// How far a point is from the edge of the band of half-width grow around
// the line a -> c: its distance to the line on its own side (`distance`,
// rounded from m = p - a and the line's rounded normal) less grow. When that
// rounding (a few ulps of |m| and grow) could move the time gap / |rate| by
// more than kTimePrecision (a sweep short against the shapes), exactly:
// Cross(c - a, m)^2 - grow^2 |c - a|^2 over (|Cross| + grow |c - a|) |c - a|,
// whose numerator is taken to its last place and denominator has no
// cancellation.
ABSL_ATTRIBUTE_NOINLINE double BandGapExact(Vec2 p, Vec2 a, Vec2 c,
                                            const Grow& grow);
inline double BandGap(Vec2 p, Vec2 a, Vec2 c, Vec2 m, double distance,
                      const Grow& grow, double rate) {
  const double gap = distance - grow.value;
  if (4.0 * kRoundoff * (std::abs(m.x) + std::abs(m.y) + grow.value) >
      kTimePrecision * std::abs(rate)) {
    return BandGapExact(p, a, c, grow);
  }
  return gap;
}

// Point against segment [b0, b1] grown by `grow` > 0 (a capsule): the side
// lines first, then the end caps. Every case, the rare ones included (see
// SweepPointSegment for the common ones).
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentGrown(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction);

// Point against segment [b0, b1] grown by `grow` (a capsule): the side
// lines first, then the end caps. The common cases here, with the same
// arithmetic and answers as SweepPointSegmentGrown, which takes every
// other: motion not nearly parallel to the segment (so not exactly
// parallel either), an end not near the band, a contact not near a cap.
// Every call here is the last thing done, so that no value has to be saved
// around one. Inlined always where a closed form (pairs/round_closed_form.h)
// has just computed the same start distance, which it then shares; elsewhere
// through SweepPointSegment below.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<PointHit>
SweepPointSegmentInline(Vec2 p, const Motion& motion, const Core& b,
                        const Grow& grow, double max_fraction) {
  if (grow.value == 0.0) {
    return SweepPointSegmentZero(p, motion, b, max_fraction);
  }
  const Vec2 d = motion.d;
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double distance = Dot(m, n);  // signed distance to the line
  const double rate = Dot(d, n);
  const double speed = std::abs(d.x) + std::abs(d.y);
  const auto general = [&] {
    return SweepPointSegmentGrown(p, motion, b, grow, max_fraction);
  };
  // Nearly parallel (NearlyParallelRate's exact rate, parallel(); below
  // kRateTimeShare the rounded rate is too coarse for a side contact's
  // time, and one compare here keeps that off the common path), or a
  // start within rounding of the line (StartSide's exact side).
  const double m_size = std::abs(m.x) + std::abs(m.y);
  if (!(std::abs(rate) > kRateTimeShare * speed) ||
      !SideCertain(distance, m_size)) {
    return general();
  }
  const double side = distance >= 0.0 ? 1.0 : -1.0;
  if (side * rate < 0.0) {
    // A time whose distance's rounding could move it by more than
    // kTimePrecision (a sweep short against the shapes) is the full
    // version's, from the exact band gap.
    if (4.0 * kRoundoff * (m_size + grow.value) >
        kTimePrecision * std::abs(rate)) {
      return general();
    }
    const double t = (side * distance - grow.value) / (-side * rate);
    const double after =
        side * distance - grow.value + max_fraction * side * rate;
    const double reach = std::abs(m.x) + std::abs(m.y) + grow.value +
                         max_fraction * (std::abs(d.x) + std::abs(d.y));
    if (std::abs(after) <= kFilterRoundings * reach) return general();
    if (t > max_fraction) return std::nullopt;
    if (t >= 0.0) {
      const SideGaps gaps = SideGapsAt(m, t, d, e, rate, reach);
      const double along = gaps.along;
      const double length_squared = gaps.length_squared;
      const double scaled_bound = gaps.scaled_bound;
      const double first_gap = gaps.first;
      const double second_gap = gaps.second;
      // Clearly on the side (the common case); else clearly beyond an end
      // (first_gap < -scaled_bound puts second_gap below it too, and
      // second_gap > scaled_bound first_gap above it); else near an end.
      if (first_gap > scaled_bound && second_gap < -scaled_bound) {
        // A segment whose square underflows (0 / 0) has its point at a.
        const Vec2 point = !(length_squared > 0.0)
                               ? a
                               : a + Clamp01(along / length_squared) * e;
        return PointHit{t, side * n, point, b.EdgeFeature(side > 0.0 ? 0 : 1)};
      }
      if (first_gap < -scaled_bound) {
        return SweepPointVertex(p, motion, b, 0, grow, max_fraction);
      }
      if (second_gap > scaled_bound) {
        return SweepPointVertex(p, motion, b, 1, grow, max_fraction);
      }
      return general();
    }
  } else if (OutsideBand(distance, grow.value, m_size)) {
    return std::nullopt;  // outside the band and not closing on it
  }
  // Inside the band but beyond an end: only the caps can be met.
  return SweepPointSegmentCaps(p, motion, b, grow, max_fraction);
}

inline std::optional<PointHit> SweepPointSegment(Vec2 p, const Motion& motion,
                                                 const Core& b,
                                                 const Grow& grow,
                                                 double max_fraction) {
  return SweepPointSegmentInline(p, motion, b, grow, max_fraction);
}

// A polygon core's edge lines as seen by points moving by d: per edge, the
// rate at which a point's signed distance changes. Computed once per sweep
// instead of once per swept vertex. (A point's distance is taken from the
// edge's own vertex, which bounds its rounding by their distance.) slack
// bounds a rate's rounding (the rounded normal's, and the rounded motion's
// of a pair).
struct EdgeLines {
  double rate[kMaxPolygonVertices];
  double slack;
};

inline EdgeLines LinesOf(const Core& b, Vec2 d) {
  EdgeLines lines;  // only the first b.count() entries are used
  for (int i = 0; i < b.count(); ++i) lines.rate[i] = Dot(d, b.normal(i));
  lines.slack = kFilterRoundings * (std::abs(d.x) + std::abs(d.y));
  return lines;
}

// Whether edge i of polygon core b faces away from (or along) points moving
// by `motion` relative to it, exactly: the outward normal is RightPerp(q -
// p), so Dot(motion, normal) = -Cross(q - p, motion). An edge on an axis
// that the motion runs along (a box sliding along a floor) needs no exact
// arithmetic. For rates within their rounding of 0.
ABSL_ATTRIBUTE_NOINLINE bool FacesAwayExact(const Core& b, const Motion& motion,
                                            int i);

// Whether vertex i of polygon core b cannot be the first contact with points
// moving by `motion` relative to it (the motion `lines` were made for): both
// edges meeting there (edge `before`, b.previous(i), which a loop over the
// vertices carries, and edge i) face away from (or along) that motion, so
// every contact normal at the vertex does too. Decided exactly: an edge
// tilted off the motion by less than the rounding of its normal (one end at
// 1e9 beside coordinates near 2^140) may face it.
inline bool IsBackVertex(const EdgeLines& lines, const Core& b,
                         const Motion& motion, int before, int i) {
  const double least = std::min(lines.rate[before], lines.rate[i]);
  if (least < -lines.slack) return false;
  if (least > lines.slack) return true;
  return FacesAwayExact(b, motion, before) && FacesAwayExact(b, motion, i);
}

// SweepPointPolygonZero's exact answer: a point starting outside a convex
// polygon first meets it on an edge whose line it starts strictly outside
// of (approaching an edge's inside from its line's inner side, it would
// already be inside the polygon; at a vertex, it is outside one of the two
// lines), so the earliest exact crossing of those edges is the contact.
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonExact(
    Vec2 p, const Motion& motion, const Core& b, double max_fraction);

// SweepPointPolygonZero past its loop, where the fast test of its entry
// point (below) was not clear: the point crosses line `enter` (of b, the
// last of the lines it starts outside of) beside its edge, near one of its
// ends, or with a time or position too rounded to tell. A certain miss
// beside the edge is told here; everything else is exact. Out of line, so
// that the common path saves no registers.
ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD std::optional<PointHit>
SweepPointPolygonZeroEntry(Vec2 p, const Motion& motion, const Core& b,
                           const EdgeLines& lines, double max_fraction,
                           int enter);

// SweepPointPolygon for grow 0: Cyrus-Beck clipping against b's edge lines,
// entering side only. The point misses when it starts outside a line it
// does not close on, or reaches one only after max_fraction. Otherwise let
// edge `enter` be the last of the lines it starts outside of to be
// crossed: it hits when it is then on that edge (outside that line until
// then, and then on the polygon), and misses when it is then beside it and
// moving away from the neighbouring line there (outside it from then on).
// Every decision is taken in double only when it is farther from its
// threshold than the rounding of the rounded normals and products can
// move it; a closer one (a start on a line's extension, motion along an
// edge, a graze of a vertex, an end on the surface) goes to
// SweepPointPolygonExact.
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonZero(
    Vec2 p, const Motion& motion, const Core& b, const EdgeLines& lines,
    double max_fraction);

// SweepPointPolygon's exact answer for grow > 0: the grown polygon is the
// union of its edges' capsules (the polygon itself lies inside that
// union's outline), so a point starting outside it meets it first on one
// of them, each swept with its exact decisions (SweepPointSegment).
ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonGrownExact(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction);

// SweepPointPolygon for grow > 0.
inline std::optional<PointHit> SweepPointPolygonGrown(
    Vec2 p, const Motion& motion, const Core& b, const EdgeLines& lines,
    const Grow& grow, double max_fraction) {
  const Vec2 d = motion.d;
  // Cyrus-Beck clipping against b's edge lines moved out by grow, entering
  // side only: the grown polygon lies inside the clipped region and differs
  // from it only in the corner zones, where the vertex circles decide. The
  // point meets it, if at all, where it crosses the last of the lines it
  // starts outside of (edge `enter`): on that edge's flat part, or at a
  // vertex circle when beyond it. So the exit lines' times are not needed.
  // As in SweepPointPolygonZero, a decision within its rounding bound of
  // its threshold (a start on a moved line, a slide along one, an end on
  // one) goes to the exact answer.
  const double speed = std::abs(d.x) + std::abs(d.y);
  const double rate_slack = kFilterRoundings * speed;
  // A closing rate below this share of the speed (a graze nearly parallel
  // to the line, kRateTimeShare) gives a time too rounded to rank the line
  // against the others, or to place the contact along its edge: such a
  // sweep goes to the exact answer, which takes the rate exactly.
  const double rate_time_slack = kRateTimeShare * speed;
  const double grow_slack = kFilterRoundings * grow.value;
  double t_enter = -std::numeric_limits<double>::infinity();
  int enter = -1;
  for (int i = 0; i < b.count(); ++i) {
    const Vec2 m = p - b.vertex(i);
    const double distance = Dot(m, b.normal(i)) - grow.value;
    const double rate = lines.rate[i];
    const double distance_slack =
        grow_slack + kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
    // Inside the moved line: the entry is another line's. Within rounding
    // of it (either side: a start within rounding of contact, which a short
    // sweep may still have to cross), exactly.
    if (distance < -distance_slack) continue;
    if (distance <= distance_slack) {
      return SweepPointPolygonGrownExact(p, motion, b, grow, max_fraction);
    }
    if (rate >= -rate_time_slack) {
      if (rate > rate_slack) return std::nullopt;  // outside, moving away
      // Along the line, or nearly: a slide at exactly grow, or a graze
      // whose rounded time cannot be ranked.
      return SweepPointPolygonGrownExact(p, motion, b, grow, max_fraction);
    }
    // Where it is against the line at max_fraction: > 0 not yet reached.
    const double after = distance + max_fraction * rate;
    const double after_slack = distance_slack + max_fraction * rate_slack;
    if (after > after_slack) return std::nullopt;  // enters too late
    if (after >= -after_slack) {
      return SweepPointPolygonGrownExact(p, motion, b, grow, max_fraction);
    }
    const double t = distance / -rate;
    if (t > t_enter) {
      t_enter = t;
      enter = i;
    }
  }
  if (enter < 0) {
    // Already inside every moved edge line: in a corner zone.
    std::optional<PointHit> best;
    for (int j = 0; j < b.count(); ++j) {
      const std::optional<PointHit> h =
          SweepPointVertex(p, motion, b, j, grow, max_fraction);
      if (h && (!best || h->fraction < best->fraction)) best = h;
    }
    return best;
  }
  const int next = b.next(enter);
  const Vec2 a = b.vertex(enter);
  const Vec2 e = b.vertex(next) - a;
  // t_enter is BandGap's rounded time; where that may be off by more than
  // kTimePrecision, the exact one (rare: a sweep short against the shapes).
  // Its rate is above rate_time_slack (the loop sent nearer-parallel ones
  // to the exact answer).
  const Vec2 m = p - a;
  const double rate = lines.rate[enter];
  double t = t_enter;
  if (4.0 * kRoundoff * (std::abs(m.x) + std::abs(m.y) + grow.value) >
      kTimePrecision * std::abs(rate)) {
    t = std::clamp(BandGapExact(p, a, b.vertex(next), grow) / -rate, 0.0,
                   max_fraction);
  }
  const double along = Dot(m + t * d, e);
  const double length_squared = Dot(e, e);
  if (along < 0.0)
    return SweepPointVertex(p, motion, b, enter, grow, max_fraction);
  if (along > length_squared) {
    return SweepPointVertex(p, motion, b, next, grow, max_fraction);
  }
  // A zero length squared is an edge whose square underflows (0 / 0).
  const double s =
      length_squared > 0.0 ? std::clamp(along / length_squared, 0.0, 1.0) : 0.0;
  const Feature feature = s == 0.0   ? b.VertexFeature(enter)
                          : s == 1.0 ? b.VertexFeature(next)
                                     : b.EdgeFeature(enter);
  return PointHit{t, b.normal(enter), a + s * e, feature};
}

// SweepPoint against a polygon core (count >= 3) with its lines known.
// Inline, so that a sweep without grow calls SweepPointPolygonZero
// directly.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<PointHit> SweepPointPolygon(
    Vec2 p, const Motion& motion, const Core& b, const EdgeLines& lines,
    const Grow& grow, double max_fraction) {
  if (grow.value == 0.0) {
    return SweepPointPolygonZero(p, motion, b, lines, max_fraction);
  }
  return SweepPointPolygonGrown(p, motion, b, lines, grow, max_fraction);
}

// The first time in [0, max_fraction] at which point p moving by d comes
// within distance `grow` of core b's point set, given that it starts farther
// away.
inline std::optional<PointHit> SweepPoint(Vec2 p, const Motion& motion,
                                          const Core& b, const Grow& grow,
                                          double max_fraction) {
  if (b.count() == 1) {
    return SweepPointVertex(p, motion, b, 0, grow, max_fraction);
  }
  if (b.count() == 2)
    return SweepPointSegment(p, motion, b, grow, max_fraction);
  return SweepPointPolygon(p, motion, b, LinesOf(b, motion.d), grow,
                           max_fraction);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_POINT_SWEEP_H_
