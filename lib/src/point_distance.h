// Internal: the point of one level primitive nearest a query point, for
// ClosestPoint (query.h). Solid shapes (circle, capsule, convex polygon)
// answer distance 0 at the query point itself when it lies inside or on
// them; segments have no inside.
#ifndef COLLIDE_LIB_SRC_POINT_DISTANCE_H_
#define COLLIDE_LIB_SRC_POINT_DISTANCE_H_

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {

struct PointDistance {
  double distance = 0.0;
  Vec2 point;  // on the shape
  Feature feature;
};

// Segment [p1, p2]: vertex 0 / 1 at the ends, edge 0 between.
PointDistance DistanceToSegment(Vec2 point, Vec2 p1, Vec2 p2);
PointDistance DistanceToCircle(Vec2 point, Circle circle);
PointDistance DistanceToCapsule(Vec2 point, const Capsule& capsule);
PointDistance DistanceToPolygon(Vec2 point, const ConvexPolygon& polygon);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_POINT_DISTANCE_H_
