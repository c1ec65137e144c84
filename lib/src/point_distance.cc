#include "point_distance.h"

#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {
namespace {

// The nearest point of [p1, p2] is p1 + s (p2 - p1) with s the clamped
// projection; the clamps name the vertex features.
PointDistance NearestOnSegment(Vec2 point, Vec2 p1, Vec2 p2) {
  const Vec2 e = p2 - p1;
  const double along = Dot(point - p1, e);
  const double length_squared = Dot(e, e);
  PointDistance result;
  if (along <= 0.0 || length_squared == 0.0) {
    result.point = p1;
    result.feature = {FeatureType::kVertex, 0};
  } else if (along >= length_squared) {
    result.point = p2;
    result.feature = {FeatureType::kVertex, 1};
  } else {
    result.point = p1 + (along / length_squared) * e;
    result.feature = {FeatureType::kEdge, 0};
  }
  result.distance = Length(point - result.point);
  return result;
}

// A round shape: the core's nearest point pushed out by the radius, or the
// query point itself when within the radius.
PointDistance Grow(Vec2 point, PointDistance core, double radius) {
  if (core.distance <= radius) return {0.0, point, core.feature};
  const Vec2 out = (radius / core.distance) * (point - core.point);
  return {core.distance - radius, core.point + out, core.feature};
}

}  // namespace

PointDistance DistanceToSegment(Vec2 point, Vec2 p1, Vec2 p2) {
  return NearestOnSegment(point, p1, p2);
}

PointDistance DistanceToCircle(Vec2 point, Circle circle) {
  const PointDistance centre{
      Length(point - circle.center), circle.center, {FeatureType::kSurface, 0}};
  return Grow(point, centre, circle.radius);
}

PointDistance DistanceToCapsule(Vec2 point, const Capsule& capsule) {
  return Grow(point, NearestOnSegment(point, capsule.p1, capsule.p2),
              capsule.radius);
}

PointDistance DistanceToPolygon(Vec2 point, const ConvexPolygon& polygon) {
  if (ContainsPoint(polygon, point)) {
    return {0.0, point, {FeatureType::kSurface, 0}};
  }
  PointDistance best;
  for (int i = 0; i < polygon.count; ++i) {
    const int next = (i + 1) % polygon.count;
    PointDistance d =
        NearestOnSegment(point, polygon.vertices[i], polygon.vertices[next]);
    if (d.feature.type == FeatureType::kVertex) {
      d.feature.index = d.feature.index == 0 ? i : next;
    } else {
      d.feature.index = i;
    }
    if (i == 0 || d.distance < best.distance) best = d;
  }
  return best;
}

}  // namespace collide::internal
