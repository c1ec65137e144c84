// Internal: the point of one level primitive nearest a query point, for
// ClosestPoint (query.h). Solid shapes (circle, capsule, convex polygon)
// answer distance 0 at the query point itself when it lies inside or on
// them; segments have no inside. Inside or outside, and whether the shape
// comes within max_distance, are decided exactly (exact/within_distance.h); the
// distance is computed from differences, so it keeps its digits far from
// the origin.
#ifndef COLLIDE_LIB_SRC_PAIRS_CLOSEST_POINT_H_
#define COLLIDE_LIB_SRC_PAIRS_CLOSEST_POINT_H_

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {

struct PointDistance {
  double distance = 0.0;  // 0 exactly when inside or on the shape
  Vec2 point;             // on the shape
  Feature feature;
  bool within = false;  // distance <= max_distance, exactly
  // From the shape towards the query point, any length; non-zero whenever
  // distance > 0. Taken from the shape's exact parts (the edge's
  // perpendicular, the offset from a vertex or centre), not from `point`,
  // which rounds onto the query point when the gap is below its ulp.
  Vec2 away;
};

// Segment [p1, p2]: vertex 0 / 1 at the ends, edge 0 between.
PointDistance DistanceToSegment(Vec2 point, Vec2 p1, Vec2 p2,
                                double max_distance);
PointDistance DistanceToCircle(Vec2 point, Circle circle, double max_distance);
PointDistance DistanceToCapsule(Vec2 point, const Capsule& capsule,
                                double max_distance);
PointDistance DistanceToPolygon(Vec2 point, const ConvexPolygon& polygon,
                                double max_distance);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_CLOSEST_POINT_H_
