#include "pairs/closest_point.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/base/attributes.h"
#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "exact/within_distance.h"

namespace collide::internal {
namespace {

// |v| without its squares' underflow: a point a subnormal away from a
// vertex is that far from it, not at 0 (which reads as on the shape).
double DistanceOf(Vec2 v) {
  const double squared = Dot(v, v);
  return squared >= 0x1p-1000 ? std::sqrt(squared) : std::hypot(v.x, v.y);
}

// The part of a segment nearest a point: a vertex (a == b) or the edge
// [a, b], picked by exact signs, and the distance to it.
struct Nearest {
  Vec2 point;
  Feature feature;
  Vec2 a;
  Vec2 b;
  double distance = 0.0;
  // From the part towards the point (PointDistance::away); {0, 0} at
  // distance 0.
  Vec2 away;
};

// The perpendicular of edge e on the side of `cross` (Cross(e, w), its sign
// exact): where the edge's nearest point sees the query point.
Vec2 EdgeAway(Vec2 e, double cross) {
  return cross > 0.0 ? LeftPerp(e) : RightPerp(e);
}

// NearestOnSegment's edge case (e = p2 - p1, w = point - p1, rounded) for
// a segment whose squared length leaves double's normal range (coordinates
// near the subnormals: in double the square is 0, and the point and
// distance 0/0 and x/0). The same formulas in long double, whose exponent
// range holds these squares; out of line, since it is rare.
ABSL_ATTRIBUTE_NOINLINE Nearest NearestOnTinyEdge(Vec2 point, Vec2 p1, Vec2 p2,
                                                  Vec2 e, Vec2 w) {
  const long double ex = e.x;
  const long double ey = e.y;
  const long double wx = w.x;
  const long double wy = w.y;
  const long double length_squared = ex * ex + ey * ey;
  const double along =
      std::clamp(RoundToDouble((wx * ex + wy * ey) / length_squared), 0.0, 1.0);
  long double cross = ex * wy - ey * wx;
  // As NearestOnSegment's: within its rounding of 0 (long double's), exact.
  if (std::abs(cross) <= 0x1p-61L * (std::abs(ex * wy) + std::abs(ey * wx))) {
    cross = CrossEstimate(p1, p2, p1, point);
  }
  return {p1 + along * e,
          {FeatureType::kEdge, 0},
          p1,
          p2,
          RoundToDouble(std::abs(cross) / std::sqrt(length_squared)),
          EdgeAway(e, cross > 0.0L ? 1.0 : -1.0)};
}

Nearest NearestOnSegment(Vec2 point, Vec2 p1, Vec2 p2) {
  if (p1 == p2 || DotSign(p1, p2, p1, point) <= 0) {
    return {p1, {FeatureType::kVertex, 0}, p1,
            p1, DistanceOf(point - p1),    point - p1};
  }
  if (DotSign(p2, p1, p2, point) <= 0) {
    return {p2, {FeatureType::kVertex, 1}, p2,
            p2, DistanceOf(point - p2),    point - p2};
  }
  const Feature edge{FeatureType::kEdge, 0};
  if (Orient(p1, p2, point) == 0) return {point, edge, p1, p2, 0.0, {}};
  // From the differences: the distance keeps its digits where the
  // coordinates are large; only the reported point is rounded to them.
  const Vec2 e = p2 - p1;
  const Vec2 w = point - p1;
  const double length_squared = LengthSquared(e);
  if (length_squared < kNormalSquare)
    return NearestOnTinyEdge(point, p1, p2, e, w);
  const double along = std::clamp(Dot(w, e) / length_squared, 0.0, 1.0);
  long double cross = Cross(e, w);
  // Within its rounding of 0 (nearly on the line): exactly, so that a point
  // off the line is never at distance 0 (long double: a cross product
  // below double's range still divides to the distance).
  if (std::abs(cross) <=
      kCrossErrorBound * (std::abs(e.x * w.y) + std::abs(e.y * w.x))) {
    cross = CrossEstimate(p1, p2, p1, point);
  }
  return {p1 + along * e,
          edge,
          p1,
          p2,
          RoundToDouble(std::abs(cross) / Length(e)),
          EdgeAway(e, cross > 0.0L ? 1.0 : -1.0)};
}

// Whether the part comes within r1 + r2 of the point: the rounded distance
// when clear of the reach by more than its rounding, else exactly.
bool Within(Vec2 point, const Nearest& n, double r1, double r2) {
  const double reach = r1 + r2;
  const double magnitude =
      std::max({std::abs(point.x), std::abs(point.y), std::abs(n.a.x),
                std::abs(n.a.y), std::abs(n.b.x), std::abs(n.b.y)});
  const double bound = DistanceRoundingBound(magnitude, reach);
  if (n.distance < reach - bound) return true;
  if (n.distance > reach + bound) return false;
  return PointWithinSegment(point, n.a, n.b, r1, r2, 0.0);
}

// A round shape: the core's nearest part grown by the radius, or the query
// point itself when within the radius.
PointDistance Grow(Vec2 point, const Nearest& core, double radius,
                   double max_distance) {
  if (Within(point, core, radius, 0.0)) {
    return {0.0, point, core.feature, true, {}};
  }
  // Without a radius the core's point is the answer: its distance may
  // round to 0 (a point 4e-340 from a tiny segment's line), 0 / 0 here.
  const Vec2 out =
      radius > 0.0 ? (radius / core.distance) * (point - core.point) : Vec2{};
  // Outside, however close: a distance of 0 means inside.
  const double distance = std::max(core.distance - radius,
                                   std::numeric_limits<double>::denorm_min());
  return {distance, core.point + out, core.feature,
          Within(point, core, radius, max_distance), core.away};
}

}  // namespace

PointDistance DistanceToSegment(Vec2 point, Vec2 p1, Vec2 p2,
                                double max_distance) {
  const Nearest n = NearestOnSegment(point, p1, p2);
  return {n.distance, n.point, n.feature, Within(point, n, 0.0, max_distance),
          n.away};
}

PointDistance DistanceToCircle(Vec2 point, Circle circle, double max_distance) {
  const Nearest centre{
      circle.center, {FeatureType::kSurface, 0},        circle.center,
      circle.center, DistanceOf(point - circle.center), point - circle.center};
  return Grow(point, centre, circle.radius, max_distance);
}

PointDistance DistanceToCapsule(Vec2 point, const Capsule& capsule,
                                double max_distance) {
  return Grow(point, NearestOnSegment(point, capsule.p1, capsule.p2),
              capsule.radius, max_distance);
}

PointDistance DistanceToPolygon(Vec2 point, const ConvexPolygon& polygon,
                                double max_distance) {
  if (ContainsPoint(polygon, point)) {
    return {0.0, point, {FeatureType::kSurface, 0}, true, {}};
  }
  PointDistance best;
  Nearest best_part;
  for (int i = 0; i < polygon.count; ++i) {
    const int next = (i + 1) % polygon.count;
    Nearest n =
        NearestOnSegment(point, polygon.vertices[i], polygon.vertices[next]);
    if (n.feature.type == FeatureType::kVertex) {
      n.feature.index = n.feature.index == 0 ? i : next;
    } else {
      n.feature.index = i;
    }
    if (i == 0 || n.distance < best.distance) {
      best = {n.distance, n.point, n.feature, false, n.away};
      best_part = n;
    }
  }
  // Outside: the distance is the nearest edge's. Within reach when any edge
  // is: at a tie within rounding the exact nearest may be another edge.
  best.within = Within(point, best_part, 0.0, max_distance);
  double magnitude = std::max(std::abs(point.x), std::abs(point.y));
  for (int i = 0; i < polygon.count; ++i) {
    const Vec2 v = polygon.vertices[i];
    magnitude = std::max({magnitude, std::abs(v.x), std::abs(v.y)});
  }
  if (!best.within &&
      best.distance <=
          max_distance + DistanceRoundingBound(magnitude, max_distance)) {
    for (int i = 0; i < polygon.count && !best.within; ++i) {
      best.within = PointWithinSegment(
          point, polygon.vertices[i], polygon.vertices[(i + 1) % polygon.count],
          0.0, max_distance, 0.0);
    }
  }
  return best;
}

}  // namespace collide::internal
