// Static overlap tests for every pair of shapes, all through the convex
// cores: two shapes overlap when the gap between their cores is at most the
// sum of their radii, decided exactly (exact/within_distance.h), so that shapes
// that touch overlap wherever they lie. Concave polygons add containment, since
// one shape can lie wholly inside a solid polygon without touching its
// edges.
#include "collide/intersect.h"
#include "pairs/cast_dispatch.h"
#include "sweep/core.h"
#include "sweep/separation.h"

namespace collide {
namespace {

using internal::Core;
using internal::CoreOf;

bool CoresOverlap(const Core& a, const Core& b) {
  return internal::CoresWithin(a, b);
}

template <typename A, typename B>
bool ConvexOverlap(const A& a, const B& b) {
  return CoresOverlap(CoreOf(a), CoreOf(b));
}

bool CoreOverlapsConcave(const Core& a, const ConcavePolygon& polygon) {
  if (ContainsPoint(polygon, a.vertex(0))) return true;
  const int n = static_cast<int>(polygon.vertices.size());
  for (int i = 0; i < n; ++i) {
    const Core edge(polygon.vertices[i], polygon.vertices[(i + 1) % n], 0.0,
                    internal::FeatureMap::kSegment);
    if (CoresOverlap(a, edge)) return true;
  }
  return false;
}

template <typename A>
bool ConcaveOverlap(const A& a, const ConcavePolygon& b) {
  return CoreOverlapsConcave(CoreOf(a), b);
}

}  // namespace

bool Overlaps(Vec2 a, Vec2 b) { return a == b; }
bool Overlaps(Vec2 a, Segment b) { return ConvexOverlap(a, b); }
bool Overlaps(Vec2 a, Circle b) { return ConvexOverlap(a, b); }
bool Overlaps(Vec2 a, const Capsule& b) { return ConvexOverlap(a, b); }
bool Overlaps(Vec2 a, const ConvexPolygon& b) { return ConvexOverlap(a, b); }
bool Overlaps(Vec2 a, const ConcavePolygon& b) { return ContainsPoint(b, a); }
bool Overlaps(Segment a, Segment b) { return ConvexOverlap(a, b); }
bool Overlaps(Segment a, Circle b) { return ConvexOverlap(a, b); }
bool Overlaps(Segment a, const Capsule& b) { return ConvexOverlap(a, b); }
bool Overlaps(Segment a, const ConvexPolygon& b) { return ConvexOverlap(a, b); }
bool Overlaps(Segment a, const ConcavePolygon& b) {
  return ConcaveOverlap(a, b);
}
bool Overlaps(Circle a, Circle b) { return ConvexOverlap(a, b); }
bool Overlaps(Circle a, const Capsule& b) { return ConvexOverlap(a, b); }
bool Overlaps(Circle a, const ConvexPolygon& b) { return ConvexOverlap(a, b); }
bool Overlaps(Circle a, const ConcavePolygon& b) {
  return ConcaveOverlap(a, b);
}
bool Overlaps(const Capsule& a, const Capsule& b) {
  return ConvexOverlap(a, b);
}
bool Overlaps(const Capsule& a, const ConvexPolygon& b) {
  return ConvexOverlap(a, b);
}
bool Overlaps(const Capsule& a, const ConcavePolygon& b) {
  return ConcaveOverlap(a, b);
}
bool Overlaps(const ConvexPolygon& a, const ConvexPolygon& b) {
  return ConvexOverlap(a, b);
}
bool Overlaps(const ConvexPolygon& a, const ConcavePolygon& b) {
  return ConcaveOverlap(a, b);
}
bool Overlaps(const ConcavePolygon& a, const ConcavePolygon& b) {
  // Edges crossing, or one wholly inside the other.
  if (ContainsPoint(a, b.vertices[0]) || ContainsPoint(b, a.vertices[0])) {
    return true;
  }
  const int n = static_cast<int>(a.vertices.size());
  for (int i = 0; i < n; ++i) {
    const Segment edge{a.vertices[i], a.vertices[(i + 1) % n]};
    if (CoreOverlapsConcave(CoreOf(edge), b)) return true;
  }
  return false;
}

}  // namespace collide
