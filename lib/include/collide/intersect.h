// Static tests: where shapes at rest cross, and whether they overlap.
// Touching (distance exactly zero) counts as crossing and as overlap. Every
// yes/no answer here (overlap, containment, whether segments meet) is exact
// for the double inputs, wherever they lie: a point one ulp off a segment
// does not overlap it.
#ifndef COLLIDE_INTERSECT_H_
#define COLLIDE_INTERSECT_H_

#include <array>
#include <optional>

#include "collide/shapes.h"
#include "collide/vec2.h"

namespace collide {

// Where two segments meet. For a single crossing point, start == end. When
// the segments are collinear and overlap, [start, end] is the shared part,
// ordered along a (start nearest a.p1). fraction_a and fraction_b locate start
// along a (p1 -> p2) and along b; a zero-length segment has fraction 0.
struct SegmentIntersection {
  Vec2 start;
  Vec2 end;
  double fraction_a = 0.0;
  double fraction_b = 0.0;
  bool collinear = false;
};

// The intersection of segments a and b, or nullopt when they do not meet.
// Parallel non-collinear segments never meet; collinear ones meet when their
// extents overlap.
// Zero-length segments are points.
std::optional<SegmentIntersection> IntersectSegments(Segment a, Segment b);

// Crossing points of a line or segment with a circle's boundary, sorted by
// fraction along the line (p1 -> p2). count is 0, 1 (tangent, or one end
// inside the circle for a segment) or 2.
struct CircleCrossings {
  int count = 0;
  std::array<Vec2, 2> points;
  std::array<double, 2> fractions{};
};

// The infinite line through line.p1 and line.p2 (distinct) against the
// circle's boundary.
CircleCrossings IntersectLineCircle(Segment line, Circle circle);
// The segment against the circle's boundary: only crossings with fraction in
// [0, 1]. A zero-length segment crosses when it lies on the boundary.
CircleCrossings IntersectSegmentCircle(Segment segment, Circle circle);

// Point containment; points on the boundary are inside.
bool ContainsPoint(const ConvexPolygon& polygon, Vec2 point);
bool ContainsPoint(const ConcavePolygon& polygon, Vec2 point);

// Overlap tests for every pair of shapes. Touching counts as overlap.
bool Overlaps(Vec2 a, Vec2 b);
bool Overlaps(Vec2 a, Segment b);
bool Overlaps(Vec2 a, Circle b);
bool Overlaps(Vec2 a, const Capsule& b);
bool Overlaps(Vec2 a, const ConvexPolygon& b);
bool Overlaps(Vec2 a, const ConcavePolygon& b);
bool Overlaps(Segment a, Segment b);
bool Overlaps(Segment a, Circle b);
bool Overlaps(Segment a, const Capsule& b);
bool Overlaps(Segment a, const ConvexPolygon& b);
bool Overlaps(Segment a, const ConcavePolygon& b);
bool Overlaps(Circle a, Circle b);
bool Overlaps(Circle a, const Capsule& b);
bool Overlaps(Circle a, const ConvexPolygon& b);
bool Overlaps(Circle a, const ConcavePolygon& b);
bool Overlaps(const Capsule& a, const Capsule& b);
bool Overlaps(const Capsule& a, const ConvexPolygon& b);
bool Overlaps(const Capsule& a, const ConcavePolygon& b);
bool Overlaps(const ConvexPolygon& a, const ConvexPolygon& b);
bool Overlaps(const ConvexPolygon& a, const ConcavePolygon& b);
bool Overlaps(const ConcavePolygon& a, const ConcavePolygon& b);

}  // namespace collide

#endif  // COLLIDE_INTERSECT_H_
