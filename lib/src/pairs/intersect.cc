// Static intersection queries: segment-segment, line/segment-circle and
// point-in-polygon. The Overlaps family lives in overlap.cc.
#include "collide/intersect.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/sign.h"

namespace collide {
namespace {

// True when both values are non-zero and have the same sign: the two points
// they measure lie strictly on one side of a line.
bool StrictlySameSide(double a, double b) {
  return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

// Where a quantity that is linear along a segment, worth v1 at the start and
// v2 at the end (not both zero, not of the same strict sign), reaches zero.
// The result lies in [0, 1] even after rounding and is exactly 0 or 1 when
// v1 or v2 is zero.
double ZeroCrossing(double v1, double v2) {
  return v1 == 0.0 ? 0.0 : v1 / (v1 - v2);
}

// Below this a direction's squared length may have lost its digits to
// underflow (subnormal coordinates): 0 for a nonzero direction.
constexpr double kTinyLengthSquared = 0x1p-960;

// Where `offset`, a point on the line of `direction` (nonzero) less its
// origin, lies along it, in units of direction: offset.d / d.d, or, for a
// direction whose square underflows, the ratio along its longer axis (the
// same for a point on the line, and never 0 / 0).
double AlongDirection(Vec2 offset, Vec2 direction) {
  const double length_squared = LengthSquared(direction);
  if (length_squared >= kTinyLengthSquared) {
    return Dot(offset, direction) / length_squared;
  }
  return std::fabs(direction.x) >= std::fabs(direction.y)
             ? offset.x / direction.x
             : offset.y / direction.y;
}

// True when point lies on the segment from start to end (start != end):
// exact orientation and dot product signs.
bool PointOnSegment(Vec2 point, Vec2 start, Vec2 end) {
  return internal::Orient(start, end, point) == 0 &&
         internal::DotSign(start, end, start, point) >= 0 &&
         internal::DotSign(end, start, end, point) >= 0;
}

// Cross(b - a, p - a) rounded, with the exact sign: 0 exactly when p lies on
// the line, so that the side tests below are exact.
double Side(Vec2 a, Vec2 b, Vec2 p) {
  const int sign = internal::Orient(a, b, p);
  const double value = Cross(b - a, p - a);
  return sign == 0 ? 0.0
                   : std::copysign(std::max(std::abs(value), 0x1p-1074),
                                   static_cast<double>(sign));
}

// Fraction of point's projection along start -> end (start != end), clamped
// to [0, 1] so that a point known to be on the segment stays on it.
double FractionAlong(Vec2 point, Vec2 start, Vec2 end) {
  return std::clamp(AlongDirection(point - start, end - start), 0.0, 1.0);
}

// Two segments on one line (a non-degenerate): project b's ends onto a's
// parameter, clip to a's [0, 1] and report the shared interval. The ends of
// that interval are always input points (an end of a or an end of b), so they
// are returned exactly instead of being rebuilt from fractions.
std::optional<SegmentIntersection> IntersectCollinear(Segment a, Segment b) {
  const Vec2 r = a.p2 - a.p1;
  double t1 = AlongDirection(b.p1 - a.p1, r);
  double t2 = AlongDirection(b.p2 - a.p1, r);
  Vec2 b_low = b.p1;
  Vec2 b_high = b.p2;
  double b_low_fraction = 0.0;
  double b_high_fraction = 1.0;
  if (t2 < t1) {
    std::swap(t1, t2);
    std::swap(b_low, b_high);
    std::swap(b_low_fraction, b_high_fraction);
  }
  if (t2 < 0.0 || t1 > 1.0) return std::nullopt;

  SegmentIntersection result;
  result.collinear = true;
  if (t1 >= 0.0) {
    result.start = b_low;
    result.fraction_a = t1;
    result.fraction_b = b_low_fraction;
  } else {
    result.start = a.p1;
    result.fraction_a = 0.0;
    result.fraction_b = FractionAlong(a.p1, b.p1, b.p2);
  }
  result.end = t2 <= 1.0 ? b_high : a.p2;
  return result;
}

// Crossings of the line p1 + u * (p2 - p1), p2 != p1, with the circle.
//
// Substituting the line into |x - center|^2 = r^2 with f = p1 - center and
// d = p2 - p1 gives a u^2 + 2 h u + c = 0 with a = d.d, h = f.d and
// c = f.f - r^2. The quarter discriminant h^2 - a c equals, by Lagrange's
// identity, a r^2 - cross(d, f)^2: cross(d, f)^2 / a is the squared distance
// from the center to the line, so no large, nearly equal terms cancel.
//
// The roots are (-h +- sqrt(disc)) / a. Taking the sign that adds magnitudes,
// q = -(h + sign(h) sqrt(disc)), one root is q / a and, since the product of
// the roots is c / a, the other is c / q; neither subtracts nearly equal
// numbers, unlike the textbook formula when h^2 >> a c.
//
// A direction whose square underflows (subnormal coordinates) is first
// divided by its largest component, `unit`: the equation is solved for
// u' = u * unit along d / unit, and the fractions divided back at the end.
CircleCrossings SolveLineCircle(Segment line, Circle circle) {
  Vec2 d = line.p2 - line.p1;
  double unit = 1.0;
  if (LengthSquared(d) < kTinyLengthSquared) {
    unit = std::fmax(std::fabs(d.x), std::fabs(d.y));
    d = {d.x / unit, d.y / unit};
  }
  const Vec2 f = line.p1 - circle.center;
  const double a = LengthSquared(d);
  const double h = Dot(f, d);
  const double r2 = circle.radius * circle.radius;
  const double c = LengthSquared(f) - r2;
  const double distance_term = Cross(d, f);
  const double disc = a * r2 - distance_term * distance_term;

  CircleCrossings crossings;
  if (disc < 0.0) return crossings;
  if (disc == 0.0) {
    crossings.count = 1;
    crossings.fractions[0] = -h / a;
  } else {
    const double q = -(h + std::copysign(std::sqrt(disc), h));
    double u1 = q / a;
    double u2 = c / q;
    if (u2 < u1) std::swap(u1, u2);
    crossings.count = 2;
    crossings.fractions = {u1, u2};
  }

  // An end of the line lying exactly on the circle is a root at exactly 0 or
  // 1; pin the nearest computed root there so that a segment ending on the
  // boundary keeps that crossing and reports the input point itself.
  const int count = crossings.count;
  auto nearest_root = [&crossings, count](double target) -> double& {
    double& first = crossings.fractions[0];
    if (count == 1) return first;
    double& second = crossings.fractions[1];
    return std::abs(first - target) <= std::abs(second - target) ? first
                                                                 : second;
  };
  const bool p1_on_circle = c == 0.0;
  const bool p2_on_circle = LengthSquared(line.p2 - circle.center) == r2;
  if (p1_on_circle) nearest_root(0.0) = 0.0;
  if (p2_on_circle && !(p1_on_circle && count == 1)) nearest_root(unit) = unit;
  for (int i = 0; i < count; ++i) {
    const size_t k = static_cast<size_t>(i);
    const double u = crossings.fractions[k];
    crossings.points[k] = u == 0.0    ? line.p1
                          : u == unit ? line.p2
                                      : line.p1 + u * d;
    crossings.fractions[k] = u == unit ? 1.0 : u / unit;
  }
  return crossings;
}

}  // namespace

std::optional<SegmentIntersection> IntersectSegments(Segment a, Segment b) {
  COLLIDE_DCHECK(IsValid(a) && IsValid(b));
  const bool a_is_point = a.p1 == a.p2;
  const bool b_is_point = b.p1 == b.p2;

  if (a_is_point || b_is_point) {
    SegmentIntersection result;
    if (a_is_point && b_is_point) {
      if (a.p1 != b.p1) return std::nullopt;
      result.start = a.p1;
    } else if (a_is_point) {
      if (!PointOnSegment(a.p1, b.p1, b.p2)) return std::nullopt;
      result.start = a.p1;
      result.fraction_b = FractionAlong(a.p1, b.p1, b.p2);
    } else {
      if (!PointOnSegment(b.p1, a.p1, a.p2)) return std::nullopt;
      result.start = b.p1;
      result.fraction_a = FractionAlong(b.p1, a.p1, a.p2);
    }
    result.end = result.start;
    return result;
  }

  // Orientations of each segment's ends against the other segment's line,
  // of exact sign. The segments meet exactly when neither has both ends
  // strictly on one side of the other's line.
  const Vec2 r = a.p2 - a.p1;
  const double side_b1 = Side(a.p1, a.p2, b.p1);
  const double side_b2 = Side(a.p1, a.p2, b.p2);
  if (StrictlySameSide(side_b1, side_b2)) return std::nullopt;
  if (side_b1 == 0.0 && side_b2 == 0.0) return IntersectCollinear(a, b);
  const double side_a1 = Side(b.p1, b.p2, a.p1);
  const double side_a2 = Side(b.p1, b.p2, a.p2);
  if (StrictlySameSide(side_a1, side_a2)) return std::nullopt;

  // The orientation against the other line is linear along each segment, so
  // the crossing sits where it interpolates to zero.
  SegmentIntersection result;
  result.fraction_a = ZeroCrossing(side_a1, side_a2);
  result.fraction_b = ZeroCrossing(side_b1, side_b2);
  if (result.fraction_a == 0.0) {
    result.start = a.p1;
  } else if (result.fraction_a == 1.0) {
    result.start = a.p2;
  } else if (result.fraction_b == 0.0) {
    result.start = b.p1;
  } else if (result.fraction_b == 1.0) {
    result.start = b.p2;
  } else {
    result.start = a.p1 + result.fraction_a * r;
  }
  result.end = result.start;
  return result;
}

CircleCrossings IntersectLineCircle(Segment line, Circle circle) {
  COLLIDE_DCHECK(IsValid(line) && IsValid(circle));
  COLLIDE_DCHECK(line.p1 != line.p2);
  if (line.p1 == line.p2) return {};
  return SolveLineCircle(line, circle);
}

CircleCrossings IntersectSegmentCircle(Segment segment, Circle circle) {
  COLLIDE_DCHECK(IsValid(segment) && IsValid(circle));
  CircleCrossings kept;
  if (segment.p1 == segment.p2) {
    // A point crosses the boundary only by lying on it.
    const double r2 = circle.radius * circle.radius;
    if (LengthSquared(segment.p1 - circle.center) == r2) {
      kept.count = 1;
      kept.points[0] = segment.p1;
    }
    return kept;
  }
  const CircleCrossings line = SolveLineCircle(segment, circle);
  for (int i = 0; i < line.count; ++i) {
    const size_t k = static_cast<size_t>(i);
    const double u = line.fractions[k];
    if (u < 0.0 || u > 1.0) continue;
    const size_t slot = static_cast<size_t>(kept.count++);
    kept.points[slot] = line.points[k];
    kept.fractions[slot] = u;
  }
  return kept;
}

bool ContainsPoint(const ConvexPolygon& polygon, Vec2 point) {
  COLLIDE_DCHECK(IsValid(polygon) && IsFinite(point));
  const size_t n = static_cast<size_t>(polygon.count);
  // The interior of a counter-clockwise convex polygon is the intersection
  // of the closed half-planes to the left of its edges; the orientations
  // are exact, so a point on an edge is inside wherever it lies.
  for (size_t i = 0; i < n; ++i) {
    if (internal::Orient(polygon.vertices[i], polygon.vertices[(i + 1) % n],
                         point) < 0) {
      return false;
    }
  }
  return true;
}

bool ContainsPoint(const ConcavePolygon& polygon, Vec2 point) {
  COLLIDE_DCHECK(IsValid(polygon) && IsFinite(point));
  // Exact crossing number; the boundary counts as inside.
  return internal::PointInPolygonExact(polygon.vertices, point) >= 0;
}

}  // namespace collide
