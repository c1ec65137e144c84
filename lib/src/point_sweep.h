// Internal: a point moving by d against a core grown by `grow`, the
// building block of every convex sweep (convex_core.h). Each returns the
// first contact in [0, max_fraction] of a point that starts farther than
// grow from the core, or nullopt. Inline so that they fold into the
// sweeps' vertex loops.
#ifndef COLLIDE_LIB_SRC_POINT_SWEEP_H_
#define COLLIDE_LIB_SRC_POINT_SWEEP_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "convex_core.h"
#include "exact_sign.h"

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

// Earliest time |p + t d - c| = grow for t in [0, max_fraction], approaching
// from outside; nullopt if none.
inline std::optional<double> SweepPointCircle(Vec2 p, Vec2 d, Vec2 c,
                                              const Grow& grow,
                                              double max_fraction) {
  const Vec2 m = p - c;
  const double b = Dot(d, m);
  if (b >= 0.0) return std::nullopt;  // not approaching
  const double a = Dot(d, d);
  // Discriminant of |m + t d|^2 = grow^2 written as a grow^2 - (d x m)^2,
  // which avoids the cancellation of b^2 - a c when the path passes far
  // from the centre.
  const double cross_left = d.x * m.y;
  const double cross_right = d.y * m.x;
  const double cross = cross_left - cross_right;
  const double aa = a * grow.value * grow.value;
  double discriminant = aa - cross * cross;
  // Within its rounding bound of zero, the discriminant is taken exactly
  // (grow's parts summed exactly): its sign decides a graze (a path exactly
  // tangent touches), and its size the time, which near tangency hangs on
  // its square root.
  const double cross_terms = std::abs(cross_left) + std::abs(cross_right);
  if (std::abs(discriminant) <=
      kFilterRoundings * (aa + cross_terms * cross_terms)) {
    discriminant = DirectionDiscriminantExact(c, d, p, grow.parts[0],
                                              grow.parts[1], grow.parts[2]);
  }
  if (discriminant < 0.0) return std::nullopt;
  const double c0 = Dot(m, m) - grow.value * grow.value;
  if (c0 <= 0.0) return 0.0;
  // Smaller root in the stable form c / q (no -b - sqrt cancellation).
  const double t = c0 / (-b + std::sqrt(discriminant));
  // Near max_fraction (far beyond the rounding of t, which near a tangency
  // is that of a square root), whether the contact comes by then is
  // decided exactly: a graze or an arrival exactly at max_fraction counts.
  if (std::abs(t - max_fraction) <= 1e-4 * max_fraction) {
    if (!SweepReachedCircleExact(p, d, max_fraction, c, grow.parts[0],
                                 grow.parts[1], grow.parts[2])) {
      return std::nullopt;
    }
    return std::min(t, max_fraction);
  }
  if (t > max_fraction) return std::nullopt;
  return t;
}

// Contact of a point sweep with a circle around b's vertex `vertex`.
inline std::optional<PointHit> SweepPointVertex(Vec2 p, Vec2 d, const Core& b,
                                                int vertex, const Grow& grow,
                                                double max_fraction) {
  const Vec2 c = b.vertex(vertex);
  const std::optional<double> t = SweepPointCircle(p, d, c, grow, max_fraction);
  if (!t) return std::nullopt;
  const Vec2 offset = (p - c) + *t * d;
  // A zero grow meets the vertex itself: face the mover.
  const Vec2 normal = grow.value > 0.0 ? Normalize(offset) : Normalize(-d);
  return PointHit{*t, normal, c, b.VertexFeature(vertex)};
}

// SweepPointSegment for motion exactly parallel to the segment (see there);
// out of line, as it is rare.
ABSL_ATTRIBUTE_NOINLINE inline std::optional<PointHit>
SweepPointSegmentParallel(Vec2 p, Vec2 d, const Core& b, const Grow& grow,
                          double max_fraction) {
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double side = Dot(m, n) >= 0.0 ? 1.0 : -1.0;
  const auto cap = [&](int vertex) {
    return SweepPointVertex(p, d, b, vertex, grow, max_fraction);
  };
  const int band = LineDistanceVs(a, b.vertex(1), p, grow.parts[0],
                                  grow.parts[1], grow.parts[2]);
  if (band > 0) return std::nullopt;
  if (band == 0) {
    const double along = Dot(m, e);
    const double speed = Dot(d, e);
    const double length_squared = Dot(e, e);
    double t;
    int vertex;
    if (DotSign(a, b.vertex(1), a, p) < 0 && speed > 0.0) {
      t = -along / speed;
      vertex = 0;
    } else if (DotSign(a, b.vertex(1), b.vertex(1), p) > 0 && speed < 0.0) {
      t = (along - length_squared) / -speed;
      vertex = 1;
    } else {
      return std::nullopt;
    }
    if (t > max_fraction) return std::nullopt;
    // With grow 0 the point runs along the line onto the end itself:
    // face the mover, as at a vertex (SweepPointVertex).
    return PointHit{std::max(t, 0.0),
                    grow.value > 0.0 ? side * n : Normalize(-d),
                    b.vertex(vertex), b.VertexFeature(vertex)};
  }
  if (band < 0) {
    std::optional<PointHit> first = cap(0);
    std::optional<PointHit> second = cap(1);
    if (!first) return second;
    if (second && second->fraction < first->fraction) return second;
    return first;
  }
  return std::nullopt;
}

// SweepPointSegment for grow 0: the point meets the segment itself, every
// choice made exactly. It crosses the segment's line when it starts off it
// and closes on it, by max_fraction when its position then is on or past
// the line, and on the segment when its own line of motion separates the
// ends (or passes through one: a vertex). Only the time is rounded, from
// the two cross products of the crossing, taken exactly when rounding
// could move it by more than a trillionth of the sweep.
ABSL_ATTRIBUTE_NOINLINE inline std::optional<PointHit> SweepPointSegmentZero(
    Vec2 p, Vec2 d, const Core& b, double max_fraction) {
  const Vec2 a = b.vertex(0);
  const Vec2 c = b.vertex(1);
  const int start_side = Orient(a, c, p);
  if (start_side == 0) {
    // On the line, off the segment (the start is clear): only motion along
    // the line can meet it, at an end.
    if (CrossSign(a, c, {}, d) != 0) return std::nullopt;
    return SweepPointSegmentParallel(p, d, b, Grow::Of(0.0, 0.0, 0.0),
                                     max_fraction);
  }
  if (CrossSign(a, c, {}, d) != -start_side) return std::nullopt;
  if (OrientAfter(a, c, p, d, max_fraction) == start_side) return std::nullopt;
  const int side_a = CrossSign({}, d, p, a);
  const int side_c = CrossSign({}, d, p, c);
  if (side_a == side_c) return std::nullopt;  // passes beside
  const Vec2 e = c - a;
  const Vec2 m = p - a;
  const double cm_left = e.x * m.y;
  const double cm_right = e.y * m.x;
  double cm = cm_left - cm_right;
  const double cd_left = e.x * d.y;
  const double cd_right = e.y * d.x;
  double cd = cd_left - cd_right;
  double t = -cm / cd;
  if (kCrossErrorBound * ((std::abs(cm_left) + std::abs(cm_right)) +
                          t * (std::abs(cd_left) + std::abs(cd_right))) >
      1e-12 * std::abs(cd)) {
    cm = CrossEstimate(a, c, a, p);
    cd = CrossEstimate(a, c, {}, d);
    t = -cm / cd;
  }
  t = std::clamp(t, 0.0, max_fraction);
  // Dot(p - a, RightPerp(e)) = -cm: the point starts on b.normal(0)'s side
  // when it starts to the right of a -> c.
  const double side = start_side < 0 ? 1.0 : -1.0;
  if (side_a == 0) {
    return PointHit{t, side * b.normal(0), a, b.VertexFeature(0)};
  }
  if (side_c == 0) {
    return PointHit{t, side * b.normal(0), c, b.VertexFeature(1)};
  }
  const double length_squared = Dot(e, e);
  const double along = Dot(m + t * d, e);
  const double s =
      length_squared > 0.0 ? std::clamp(along / length_squared, 0.0, 1.0) : 0.0;
  return PointHit{t, side * b.normal(0), a + s * e,
                  b.EdgeFeature(side > 0.0 ? 0 : 1)};
}

// Point against segment [b0, b1] grown by `grow` (a capsule): the side
// lines first, then the end caps.
inline std::optional<PointHit> SweepPointSegment(Vec2 p, Vec2 d, const Core& b,
                                                 const Grow& grow,
                                                 double max_fraction) {
  if (grow.value == 0.0) return SweepPointSegmentZero(p, d, b, max_fraction);
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double distance = Dot(m, n);  // signed distance to the line
  const double rate = Dot(d, n);
  const double side = distance >= 0.0 ? 1.0 : -1.0;
  const auto cap = [&](int vertex) {
    return SweepPointVertex(p, d, b, vertex, grow, max_fraction);
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
           CrossSign(Vec2{}, e, Vec2{}, d) == 0;
  };
  if (side * rate < 0.0) {
    // Time at which the distance to the line falls to grow.
    const double t = (side * distance - grow.value) / (-side * rate);
    if (t > max_fraction) {
      if (parallel())
        return SweepPointSegmentParallel(p, d, b, grow, max_fraction);
      return std::nullopt;
    }
    if (t >= 0.0) {
      const double along = Dot(m + t * d, e);
      const double length_squared = Dot(e, e);
      if ((along < 0.0 || along > length_squared) && parallel()) {
        return SweepPointSegmentParallel(p, d, b, grow, max_fraction);
      }
      if (along < 0.0) return cap(0);
      if (along > length_squared) return cap(1);
      const Feature feature = along == 0.0 ? b.VertexFeature(0)
                              : along == length_squared
                                  ? b.VertexFeature(1)
                                  : b.EdgeFeature(side > 0.0 ? 0 : 1);
      // along == 0 also covers a segment whose square underflows (0 / 0).
      const Vec2 point = along == 0.0 ? a : a + (along / length_squared) * e;
      return PointHit{t, side * n, point, feature};
    }
  } else if (std::abs(distance) > grow.value) {
    // Outside the band and not closing on it.
    if (parallel()) {
      return SweepPointSegmentParallel(p, d, b, grow, max_fraction);
    }
    return std::nullopt;
  }
  if (parallel()) {
    return SweepPointSegmentParallel(p, d, b, grow, max_fraction);
  }
  // Inside the band but beyond an end: only the caps can be met.
  std::optional<PointHit> first = cap(0);
  std::optional<PointHit> second = cap(1);
  if (!first) return second;
  if (second && second->fraction < first->fraction) return second;
  return first;
}

// A polygon core's edge lines as seen by points moving by d: per edge, the
// rate at which the signed distance changes, and the line's offset from a
// local origin (offsets from the origin, not from zero, keep the
// far-from-origin precision of subtracting coordinates first). Computed
// once per sweep instead of once per swept vertex.
struct EdgeLines {
  Vec2 origin;
  double offset[kMaxPolygonVertices];
  double rate[kMaxPolygonVertices];
};

inline EdgeLines LinesOf(const Core& b, Vec2 d) {
  EdgeLines lines;  // only the first b.count() entries are used
  lines.origin = b.vertex(0);
  for (int i = 0; i < b.count(); ++i) {
    lines.offset[i] = Dot(b.vertex(i) - lines.origin, b.normal(i));
    lines.rate[i] = Dot(d, b.normal(i));
  }
  return lines;
}

// Whether vertex i of polygon core b cannot be the first contact with points
// moving by the d of `lines` relative to it: both edges meeting there face
// away from (or along) those points' motion, so every contact normal at the
// vertex does too.
inline bool IsBackVertex(const Core& b, const EdgeLines& lines, int i) {
  return lines.rate[b.previous(i)] >= 0.0 && lines.rate[i] >= 0.0;
}

// SweepPoint against a polygon core (count >= 3) with its lines known.
inline std::optional<PointHit> SweepPointPolygon(Vec2 p, Vec2 d, const Core& b,
                                                 const EdgeLines& lines,
                                                 const Grow& grow,
                                                 double max_fraction) {
  // Cyrus-Beck clipping against b's edge lines moved out by grow, entering
  // side only: the grown polygon lies inside the clipped region and differs
  // from it only in the corner zones, where the vertex circles decide. The
  // point meets it, if at all, where it crosses the last of the lines it
  // starts outside of (edge `enter`): on that edge's flat part, at a vertex
  // circle when beyond it, and for grow 0 at the vertex itself unless it
  // has passed beside (below). So the exit lines' times are not needed.
  const Vec2 local = p - lines.origin;
  double t_enter = -std::numeric_limits<double>::infinity();
  int enter = -1;
  for (int i = 0; i < b.count(); ++i) {
    const double distance =
        Dot(local, b.normal(i)) - lines.offset[i] - grow.value;
    const double rate = lines.rate[i];
    if (distance <= 0.0) continue;  // inside: the entry is another line's
    if (rate >= 0.0) return std::nullopt;  // outside, not closing on it
    const double t = distance / -rate;
    if (t > max_fraction) return std::nullopt;  // enters too late
    if (t > t_enter) {
      t_enter = t;
      enter = i;
    }
  }
  if (enter < 0) {
    // Already inside every moved edge line: in a corner zone.
    if (grow.value == 0.0) return std::nullopt;
    std::optional<PointHit> best;
    for (int j = 0; j < b.count(); ++j) {
      const std::optional<PointHit> h =
          SweepPointVertex(p, d, b, j, grow, max_fraction);
      if (h && (!best || h->fraction < best->fraction)) best = h;
    }
    return best;
  }
  const int next = b.next(enter);
  const Vec2 a = b.vertex(enter);
  const Vec2 e = b.vertex(next) - a;
  const double along = Dot((p - a) + t_enter * d, e);
  const double length_squared = Dot(e, e);
  if (grow.value > 0.0 && along < 0.0) {
    return SweepPointVertex(p, d, b, enter, grow, max_fraction);
  }
  if (grow.value > 0.0 && along > length_squared) {
    return SweepPointVertex(p, d, b, next, grow, max_fraction);
  }
  // grow 0: entering line `enter` before its edge starts (past its end) is
  // being outside the previous (next) edge's line, which the point must
  // then be moving out of (a line it closes on, it would cross before): it
  // has passed beside. Moving into that line instead, the point is at the
  // shared vertex and along's sign only rounding.
  if ((along < 0.0 && lines.rate[b.previous(enter)] > 0.0) ||
      (along > length_squared && lines.rate[next] > 0.0)) {
    return std::nullopt;
  }
  // A zero length squared is an edge whose square underflows (0 / 0).
  const double s =
      length_squared > 0.0 ? std::clamp(along / length_squared, 0.0, 1.0) : 0.0;
  const Feature feature = s == 0.0   ? b.VertexFeature(enter)
                          : s == 1.0 ? b.VertexFeature(next)
                                     : b.EdgeFeature(enter);
  return PointHit{t_enter, b.normal(enter), a + s * e, feature};
}

// The first time in [0, max_fraction] at which point p moving by d comes
// within distance `grow` of core b's point set, given that it starts farther
// away.
inline std::optional<PointHit> SweepPoint(Vec2 p, Vec2 d, const Core& b,
                                          const Grow& grow,
                                          double max_fraction) {
  if (b.count() == 1) return SweepPointVertex(p, d, b, 0, grow, max_fraction);
  if (b.count() == 2) return SweepPointSegment(p, d, b, grow, max_fraction);
  return SweepPointPolygon(p, d, b, LinesOf(b, d), grow, max_fraction);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_POINT_SWEEP_H_
