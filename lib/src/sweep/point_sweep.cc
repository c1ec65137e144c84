// The out-of-line parts of the point sweeps (point_sweep.h): exact
// decisions and rare cases, kept off the inlined common paths.
#include "sweep/point_sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "sweep/core.h"

namespace collide::internal {

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD double SweepPointCircleEnd(
    Vec2 p, const Motion& motion, Vec2 c, const Grow& grow, double max_fraction,
    double c0, double q, double magnitude, double q_error) {
  // The point starts apart (the callers' start classification is exact), so
  // c0 > 0. c0's rounding, a few ulps of `magnitude`, moves t by that over
  // q: within its rounding of 0 (a contact within rounding of the start,
  // which max_fraction may precede) or where that could move t by more than
  // kTimePrecision (a sweep short against the circle), c0 exactly.
  double c0_error = kCircleExcessRoundings * magnitude + kUnderflowSlack;
  if (c0 <= kFilterRoundings * magnitude ||
      8.0 * kRoundoff * magnitude > kTimePrecision * q) {
    c0 = DistanceSquaredExcessExact(p, c, grow.parts[0], grow.parts[1],
                                    grow.parts[2]);
    if (c0 <= 0.0) return 0.0;
    c0_error = 2.0 * kRoundoff * c0 + kUnderflowSlack;
  }
  // Whether the contact comes by max_fraction: within rounding, decided
  // exactly (a graze or an arrival exactly at max_fraction counts).
  const int side = CircleEndSide(c0, c0_error, q, q_error, max_fraction);
  if (side > 0) return kNoContact;
  if (side == 0 &&
      !SweepReachedCircleExact(p, motion.from, motion.to, max_fraction, c,
                               grow.parts[0], grow.parts[1], grow.parts[2])) {
    return kNoContact;
  }
  return std::min(c0 / q, max_fraction);
}

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD double SweepPointCircleTangent(
    Vec2 p, const Motion& motion, Vec2 c, const Grow& grow,
    double max_fraction) {
  const Vec2 m = p - c;
  const Vec2 d = motion.d;
  const double b = Dot(d, m);
  const double discriminant =
      DirectionDiscriminantExact(c, motion.from, motion.to, p, grow.parts[0],
                                 grow.parts[1], grow.parts[2]);
  if (discriminant < 0.0) return kNoContact;
  const double mm = Dot(m, m);
  const double gg = grow.value * grow.value;
  const double q = -b + std::sqrt(discriminant);
  return SweepPointCircleEnd(p, motion, c, grow, max_fraction, mm - gg, q,
                             mm + gg, CircleRootErrorExact(d, m, q));
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentCaps(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction) {
  const double first =
      SweepPointCircle(p, motion, b.vertex(0), grow, max_fraction);
  const double second =
      SweepPointCircle(p, motion, b.vertex(1), grow, max_fraction);
  if (second != kNoContact && (first == kNoContact || second < first)) {
    return VertexContact(p, motion.d, b, 1, grow, second);
  }
  if (first == kNoContact) return std::nullopt;
  return VertexContact(p, motion.d, b, 0, grow, first);
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentParallel(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction) {
  const Vec2 d = motion.d;
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double side = StartSide(a, b.vertex(1), p, m, Dot(m, n));
  const int band = LineDistanceVs(a, b.vertex(1), p, grow.parts[0],
                                  grow.parts[1], grow.parts[2]);
  if (band > 0) return std::nullopt;
  if (band == 0) {
    const double speed = Dot(d, e);
    double t;
    int vertex;
    if (DotSign(a, b.vertex(1), a, p) < 0 && speed > 0.0) {
      t = -Dot(m, e) / speed;
      vertex = 0;
    } else if (DotSign(a, b.vertex(1), b.vertex(1), p) > 0 && speed < 0.0) {
      // From the near end: along - length_squared cancels.
      t = Dot(p - b.vertex(1), e) / -speed;
      vertex = 1;
    } else {
      return std::nullopt;
    }
    // Whether it reaches the end's perpendicular by max_fraction, exactly
    // (the rounded quotient t can fall on either side of it).
    const Vec2 end = b.vertex(vertex), other = b.vertex(1 - vertex);
    if (DotAfter(end, other, p, motion.from, motion.to, max_fraction) < 0) {
      return std::nullopt;
    }
    // With grow 0 the point runs along the line onto the end itself:
    // face the mover, as at a vertex (SweepPointVertex).
    return PointHit{std::clamp(t, 0.0, max_fraction),
                    grow.value > 0.0 ? side * n : Normalize(-d),
                    b.vertex(vertex), b.VertexFeature(vertex)};
  }
  if (band < 0) {
    return SweepPointSegmentCaps(p, motion, b, grow, max_fraction);
  }
  return std::nullopt;
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentZero(
    Vec2 p, const Motion& motion, const Core& b, double max_fraction) {
  const Vec2 d = motion.d;
  const Vec2 a = b.vertex(0);
  const Vec2 c = b.vertex(1);
  const int start_side = Orient(a, c, p);
  if (start_side == 0) {
    // On the line, off the segment (the start is clear): only motion along
    // the line can meet it, at an end.
    if (CrossSign(a, c, motion.from, motion.to) != 0) return std::nullopt;
    return SweepPointSegmentParallel(p, motion, b, Grow::Of(0.0, 0.0, 0.0),
                                     max_fraction);
  }
  const std::optional<SegmentCrossing> crossing =
      CrossSegmentZero(a, c, p, motion, start_side, max_fraction);
  if (!crossing) return std::nullopt;
  // Dot(p - a, RightPerp(c - a)) = -Cross(c - a, p - a): the point starts on
  // b.normal(0)'s side when it starts to the right of a -> c.
  const double side = start_side < 0 ? 1.0 : -1.0;
  const Feature feature = crossing->spot == SegmentSpot::kFirstEnd
                              ? b.VertexFeature(0)
                          : crossing->spot == SegmentSpot::kSecondEnd
                              ? b.VertexFeature(1)
                              : b.EdgeFeature(side > 0.0 ? 0 : 1);
  return PointHit{crossing->fraction, side * b.normal(0),
                  CrossingPoint(a, c, p, d, *crossing), feature};
}

ABSL_ATTRIBUTE_NOINLINE void SideContactEnds(const Core& b, Vec2 p,
                                             const Motion& motion, double side,
                                             const Grow& grow, int* first_end,
                                             int* second_end) {
  *first_end = SideContactAlongSign(b.vertex(0), b.vertex(1), b.vertex(0), p,
                                    motion.from, motion.to, side, grow.parts[0],
                                    grow.parts[1], grow.parts[2]);
  *second_end = SideContactAlongSign(
      b.vertex(0), b.vertex(1), b.vertex(1), p, motion.from, motion.to, side,
      grow.parts[0], grow.parts[1], grow.parts[2]);
}

ABSL_ATTRIBUTE_NOINLINE double NearlyParallelRateExact(const Motion& motion,
                                                       const Core& b) {
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  // Dot(d, RightPerp(c - a)) = -Cross(c - a, d).
  return RoundToDouble(-CrossEstimate(a, b.vertex(1), motion.from, motion.to) /
                       std::sqrt(Dot(e, e)));
}

ABSL_ATTRIBUTE_NOINLINE double BandGapExact(Vec2 p, Vec2 a, Vec2 c,
                                            const Grow& grow) {
  const Vec2 e = c - a;
  const double length = Length(e);
  const double excess = LineDistanceExcessExact(a, c, p, grow.parts[0],
                                                grow.parts[1], grow.parts[2]);
  // The cross product to its last place: rounded, it cancels for a point
  // near the line of a long segment.
  const double cross = std::abs(RoundToDouble(CrossEstimate(a, c, a, p)));
  return excess / ((cross + grow.value * length) * length);
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointSegmentGrown(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction) {
  const Vec2 d = motion.d;
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double distance = Dot(m, n);  // signed distance to the line
  const double rate = NearlyParallelRate(Dot(d, n), motion, b);
  const double side = StartSide(a, b.vertex(1), p, m, distance);
  const auto cap = [&](int vertex) {
    return SweepPointVertex(p, motion, b, vertex, grow, max_fraction);
  };
  // Motion parallel to the segment (exactly; the rounded normal's rate is
  // then only rounding): the distance to the line stays, so the band's
  // edge is met, if at all, where the point slides onto the segment's
  // span at exactly distance grow (a slide at exactly the skin, or for
  // grow 0 collinear motion onto an end), and otherwise inside the band at
  // a cap. Tested only where the formulas below would give up or turn to
  // the caps, off the common paths.
  const auto parallel = [&] {
    return std::abs(rate) <=
               kFilterRoundings * (std::abs(d.x) + std::abs(d.y)) &&
           CrossSign(a, b.vertex(1), motion.from, motion.to) == 0;
  };
  if (side * rate < 0.0) {
    // Time at which the distance to the line falls to grow.
    double t = BandGap(p, a, b.vertex(1), m, side * distance, grow, rate) /
               (-side * rate);
    // Where it is against the moved line at max_fraction (> 0: not yet
    // reached). Within rounding of it (a move ending on the capsule's
    // side), decided exactly.
    const double after =
        side * distance - grow.value + max_fraction * side * rate;
    // The farthest the sweep reaches from a by max_fraction (L1): scales
    // the rounding of positions along it.
    const double reach = std::abs(m.x) + std::abs(m.y) + grow.value +
                         max_fraction * (std::abs(d.x) + std::abs(d.y));
    if (std::abs(after) <= kFilterRoundings * reach) {
      // Exactly parallel motion ends where it started against the line,
      // so that t, a quotient of two roundings, means nothing.
      if (parallel()) {
        return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
      }
      // Beyond grow of the line at max_fraction is short of the band only
      // on the start's side: a long move can cross the whole band (and a
      // start inside the band is left to the caps below).
      const int start_orient = side > 0.0 ? -1 : 1;  // n is RightPerp(e)
      if (OrientAfter(a, b.vertex(1), p, motion.from, motion.to,
                      max_fraction) == start_orient &&
          LineDistanceAfterVs(a, b.vertex(1), p, motion.from, motion.to,
                              max_fraction, grow.parts[0], grow.parts[1],
                              grow.parts[2]) > 0) {
        return std::nullopt;
      }
      t = std::min(t, max_fraction);
    } else if (t > max_fraction) {
      if (parallel())
        return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
      return std::nullopt;
    }
    if (t >= 0.0) {
      const SideGaps gaps = SideGapsAt(m, t, d, e, rate, reach);
      const double along = gaps.along;
      const double length_squared = gaps.length_squared;
      const double scaled_bound = gaps.scaled_bound;
      const double first_gap = gaps.first;
      const double second_gap = gaps.second;
      int first_end = first_gap < -scaled_bound ? -1 : 1;
      int second_end = second_gap > scaled_bound ? 1 : -1;
      if (std::abs(first_gap) <= scaled_bound ||
          std::abs(second_gap) <= scaled_bound) {
        if (parallel()) {
          return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
        }
        SideContactEnds(b, p, motion, side, grow, &first_end, &second_end);
      }
      if ((first_end < 0 || second_end > 0) && parallel()) {
        return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
      }
      if (first_end < 0) return cap(0);
      if (second_end > 0) return cap(1);
      const Feature feature = first_end == 0 ? b.VertexFeature(0)
                              : second_end == 0
                                  ? b.VertexFeature(1)
                                  : b.EdgeFeature(side > 0.0 ? 0 : 1);
      // A segment whose square underflows (0 / 0) has its point at a.
      const Vec2 point =
          first_end == 0 || !(length_squared > 0.0) ? a
          : second_end == 0
              ? b.vertex(1)
              : a + std::clamp(along / length_squared, 0.0, 1.0) * e;
      return PointHit{t, side * n, point, feature};
    }
  } else if (OutsideBand(distance, grow.value, std::abs(m.x) + std::abs(m.y))) {
    // Outside the band and not closing on it (within rounding of its edge,
    // the caps below decide).
    if (parallel()) {
      return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
    }
    return std::nullopt;
  }
  if (parallel()) {
    return SweepPointSegmentParallel(p, motion, b, grow, max_fraction);
  }
  // Inside the band but beyond an end: only the caps can be met.
  return SweepPointSegmentCaps(p, motion, b, grow, max_fraction);
}

ABSL_ATTRIBUTE_NOINLINE bool FacesAwayExact(const Core& b, const Motion& motion,
                                            int i) {
  const Vec2 p = b.vertex(i);
  const Vec2 q = b.vertex(b.next(i));
  if ((p.y == q.y && motion.from.y == motion.to.y) ||
      (p.x == q.x && motion.from.x == motion.to.x)) {
    return true;
  }
  return CrossSign(p, q, motion.from, motion.to) <= 0;
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonExact(
    Vec2 p, const Motion& motion, const Core& b, double max_fraction) {
  const Vec2 d = motion.d;
  std::optional<PointHit> best;
  for (int i = 0; i < b.count(); ++i) {
    const int next = b.next(i);
    const Vec2 a = b.vertex(i);
    const Vec2 c = b.vertex(next);
    // The outward normal points to the right of a -> c.
    if (Orient(a, c, p) >= 0) continue;
    const std::optional<SegmentCrossing> crossing = CrossSegmentZero(
        a, c, p, motion, -1, best ? best->fraction : max_fraction);
    if (!crossing || (best && crossing->fraction >= best->fraction)) continue;
    best = PointHit{
        crossing->fraction, b.normal(i), CrossingPoint(a, c, p, d, *crossing),
        crossing->spot == SegmentSpot::kFirstEnd    ? b.VertexFeature(i)
        : crossing->spot == SegmentSpot::kSecondEnd ? b.VertexFeature(next)
                                                    : b.EdgeFeature(i)};
  }
  return best;
}

ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD std::optional<PointHit>
SweepPointPolygonZeroEntry(Vec2 p, const Motion& motion, const Core& b,
                           const EdgeLines& lines, double max_fraction,
                           int enter) {
  const Vec2 d = motion.d;
  const double speed = std::abs(d.x) + std::abs(d.y);
  const double rate_slack = kFilterRoundings * speed;
  const auto exact = [&] {
    return SweepPointPolygonExact(p, motion, b, max_fraction);
  };
  const int next = b.next(enter);
  const Vec2 a = b.vertex(enter);
  const Vec2 c = b.vertex(next);
  const Vec2 normal = b.normal(enter);
  const Vec2 m = p - a;
  // Where it crosses the line through a and c (EdgeCrossing).
  const EdgeCrossing crossing = EdgeCrossing::Of(m, p - c, d);
  const bool before_a = crossing.BeforeA();
  if (before_a || crossing.PastB()) {
    // Beside the edge when crossing its line (before vertex `enter`, or
    // past vertex `next`). Where the polygon turns left there (the two
    // normals' cross product beyond their few ulps of rounding), that point
    // is outside the neighbouring edge's line, and where the point moves
    // away from that line (its rate beyond rounding), it stays outside it:
    // a miss, as it was outside line `enter` until then. Otherwise
    // exactly.
    const int neighbour = before_a ? b.previous(enter) : next;
    const Vec2 beside = b.normal(neighbour);
    const double turn =
        before_a ? Cross(beside, normal) : Cross(normal, beside);
    if (turn > kFilterRoundings && lines.rate[neighbour] > rate_slack) {
      return std::nullopt;
    }
    return exact();
  }
  // Otherwise near the edge's start or end (at a vertex, or grazing it),
  // or on the edge with a time or position along it that the caller's fast
  // test found too rounded to tell (this is only called when that test
  // failed): exactly.
  return exact();
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonZero(
    Vec2 p, const Motion& motion, const Core& b, const EdgeLines& lines,
    double max_fraction) {
  const Vec2 d = motion.d;
  // Bounds on the rounding of a line's rate, and below of its distance.
  const double speed = std::abs(d.x) + std::abs(d.y);
  const double rate_slack = kFilterRoundings * speed;
  const auto exact = [&] {
    return SweepPointPolygonExact(p, motion, b, max_fraction);
  };
  double t_enter = 0.0;
  double distance_enter = 0.0;
  double slack_enter = 0.0;
  double closing_enter = 0.0;
  int enter = -1;
  for (int i = 0; i < b.count(); ++i) {
    const Vec2 m = p - b.vertex(i);
    const double distance = Dot(m, b.normal(i));
    // Inside (or on): the entry is another line's. A start next to a line
    // matters only to the misses below, whose tests exceed its slack, and
    // to line `enter`, tested after the loop.
    if (distance <= 0.0) continue;
    const double distance_slack =
        kFilterRoundings * (std::abs(m.x) + std::abs(m.y));
    const double rate = lines.rate[i];
    if (rate >= -rate_slack) {
      // Outside, moving away.
      if (rate > rate_slack && distance > distance_slack) return std::nullopt;
      return exact();  // along the line, or nearly, or a start next to it
    }
    // Where it is against the line at max_fraction: > 0 not yet reached
    // (past after_slack, the start is certainly outside it too).
    const double after = distance + max_fraction * rate;
    const double after_slack = distance_slack + max_fraction * rate_slack;
    if (after > after_slack) return std::nullopt;  // enters too late
    if (after >= -after_slack) return exact();
    const double t = distance / -rate;
    if (t > t_enter) {
      t_enter = t;
      distance_enter = distance;
      slack_enter = distance_slack;
      closing_enter = -rate;
      enter = i;
    }
  }
  // Inside every line (not a clear start), or every entry rounded to 0.
  if (enter < 0) return exact();
  // The start next to line `enter`.
  if (!(distance_enter > slack_enter)) return exact();
  // The common entry, told without SweepPointPolygonZeroEntry's signs: a
  // time precise to a trillionth of the sweep (t_scaled, as there) and a
  // rounded position along the edge clearly inside it (along_scaled, as
  // there: t_enter's rounding included) place the contact on the edge's
  // interior, where the crossing's signs agree.
  const double t_scaled = slack_enter + t_enter * rate_slack +
                          kFilterRoundings * t_enter * closing_enter;
  if (t_scaled <= 1e-12 * closing_enter) {
    const Vec2 a = b.vertex(enter);
    const Vec2 e = b.vertex(b.next(enter)) - a;
    const Vec2 m = p - a;
    const double along = Dot(m + t_enter * d, e);
    const double length_squared = Dot(e, e);
    const double along_scaled =
        (kFilterRoundings * (std::abs(m.x) + std::abs(m.y) + t_enter * speed) *
             closing_enter +
         t_scaled * speed) *
        (std::abs(e.x) + std::abs(e.y));
    if (along * closing_enter > along_scaled &&
        (length_squared - along) * closing_enter > along_scaled) {
      return PointHit{t_enter, b.normal(enter),
                      a + (along / length_squared) * e, b.EdgeFeature(enter)};
    }
  }
  return SweepPointPolygonZeroEntry(p, motion, b, lines, max_fraction, enter);
}

ABSL_ATTRIBUTE_NOINLINE std::optional<PointHit> SweepPointPolygonGrownExact(
    Vec2 p, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction) {
  std::optional<PointHit> best;
  for (int i = 0; i < b.count(); ++i) {
    const int next = b.next(i);
    // Its normals are the polygon's, bit for bit (the same formula).
    const Core edge(b.vertex(i), b.vertex(next), 0.0, FeatureMap::kSegment);
    std::optional<PointHit> h = SweepPointSegment(
        p, motion, edge, grow, best ? best->fraction : max_fraction);
    if (!h || (best && h->fraction >= best->fraction)) continue;
    h->feature = h->feature.type == FeatureType::kVertex
                     ? b.VertexFeature(h->feature.index == 0 ? i : next)
                     : b.EdgeFeature(i);
    best = h;
  }
  return best;
}

}  // namespace collide::internal
