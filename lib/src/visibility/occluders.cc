#include "visibility/occluders.h"

#include <cstdint>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/sign.h"

namespace collide::internal {

bool CrossesProperly(Vec2 v, Vec2 t, Vec2 a, Vec2 b) {
  const int o1 = Orient(v, t, a);
  const int o2 = Orient(v, t, b);
  if (o1 * o2 >= 0) return false;
  const int o3 = Orient(a, b, v);
  const int o4 = Orient(a, b, t);
  return o3 * o4 < 0;
}

bool SegmentBlocks(Vec2 v, Vec2 t, Vec2 a, Vec2 b) {
  const int o1 = Orient(v, t, a);
  const int o2 = Orient(v, t, b);
  if (o1 == o2 && o1 != 0) return false;  // both ends on one side
  if (o1 == 0 && o2 == 0) {
    // On the line vt: [a, b] meets (v, t) when, along d = t - v, its
    // farther end lies after v and its nearer end before t.
    const bool a_after_v = DotSign(v, t, v, a) > 0;
    const bool b_after_v = DotSign(v, t, v, b) > 0;
    const bool a_before_t = DotSign(v, t, t, a) < 0;
    const bool b_before_t = DotSign(v, t, t, b) < 0;
    return (a_after_v || b_after_v) && (a_before_t || b_before_t);
  }
  // The lines meet at one point, on [a, b] (o1, o2 not of one sign); it is
  // inside (v, t) exactly when v and t lie strictly on opposite sides of
  // the line ab (on it, the point is v or t itself).
  const int o3 = Orient(a, b, v);
  const int o4 = Orient(a, b, t);
  return o3 * o4 < 0;
}

bool WithinBelow(Vec2 p, Vec2 a, Vec2 b, double r) {
  if (DotSign(a, b, a, p) <= 0) return DistanceSquaredVs(p, a, r, 0.0, 0.0) < 0;
  if (DotSign(b, a, b, p) <= 0) return DistanceSquaredVs(p, b, r, 0.0, 0.0) < 0;
  return LineDistanceVs(a, b, p, r, 0.0, 0.0) < 0;
}

bool ConvexBlocks(Vec2 v, Vec2 t, const ConvexPolygon& polygon) {
  const int n = polygon.count;
  // The line vt must pass through the interior: vertices strictly on both
  // sides of it (touching a vertex or running along an edge does not).
  bool left = false;
  bool right = false;
  for (int i = 0; i < n; ++i) {
    const int o = Orient(v, t, polygon.vertices[i]);
    left |= o > 0;
    right |= o < 0;
  }
  if (!left || !right) return false;
  // Then (v, t) misses the open chord the line cuts exactly when v and t
  // both lie on the closed outer side of one edge's line.
  for (int i = 0; i < n; ++i) {
    const Vec2 a = polygon.vertices[i];
    const Vec2 b = polygon.vertices[(i + 1) % n];
    if (Orient(a, b, v) <= 0 && Orient(a, b, t) <= 0) return false;
  }
  return true;
}

bool ConcaveBlocks(Vec2 v, Vec2 t, absl::Span<const Vec2> vertices) {
  const int n = static_cast<int>(vertices.size());
  for (int i = 0; i < n; ++i) {
    if (CrossesProperly(v, t, vertices[i], vertices[(i + 1) % n])) return true;
  }
  // No edge crossed properly: (v, t) meets the boundary only at the
  // polygon's vertices on it and along edges between them. Between
  // consecutive such points (v and t included) the open piece lies wholly
  // inside, outside or on the boundary; its midpoint tells which. O(k n)
  // for k vertices on the sight line (almost always none).
  const auto strictly_within = [&](Vec2 w) {
    return Orient(v, t, w) == 0 && DotSign(v, t, v, w) > 0 &&
           DotSign(v, t, t, w) < 0;
  };
  const auto piece_inside = [&](Vec2 from) {
    // The nearest break point after `from` along t - v: t or a vertex.
    Vec2 next = t;
    for (int i = 0; i < n; ++i) {
      const Vec2 w = vertices[i];
      if (strictly_within(w) && DotSign(v, t, from, w) > 0 &&
          DotSign(v, t, next, w) < 0) {
        next = w;
      }
    }
    const Vec2 ends[2] = {from, next};
    return MeanInPolygonExact(vertices, ends) > 0;
  };
  if (piece_inside(v)) return true;
  for (int i = 0; i < n; ++i) {
    if (strictly_within(vertices[i]) && piece_inside(vertices[i])) return true;
  }
  return false;
}

bool CircleBlocks(Vec2 v, Vec2 t, Vec2 center, double radius) {
  if (radius == 0.0) return false;
  return WithinBelow(center, v, t, radius);
}

bool CapsuleBlocks(Vec2 v, Vec2 t, Vec2 p1, Vec2 p2, double radius) {
  if (radius == 0.0) return false;
  // Apart unless crossing properly, the two segments are nearest at an end
  // of one (at distance 0 when they touch there).
  return CrossesProperly(v, t, p1, p2) || WithinBelow(p1, v, t, radius) ||
         WithinBelow(p2, v, t, radius) || WithinBelow(v, p1, p2, radius) ||
         WithinBelow(t, p1, p2, radius);
}

bool Blocks(const Level& level, const Level::Primitive& p, Vec2 v, Vec2 t) {
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
      return SegmentBlocks(v, t, p.a, p.b);
    case Level::PrimitiveKind::kCircle:
      return CircleBlocks(v, t, p.a, p.radius);
    case Level::PrimitiveKind::kCapsule:
      return CapsuleBlocks(v, t, p.a, p.b, p.radius);
    case Level::PrimitiveKind::kConvexPolygon:
      return ConvexBlocks(v, t, level.convex_polygon(p.shape));
    case Level::PrimitiveKind::kConcaveEdge: {
      const int o1 = Orient(v, t, p.a);
      const int o2 = Orient(v, t, p.b);
      if (o1 == o2 && o1 != 0) return false;
      const int o3 = Orient(p.a, p.b, v);
      const int o4 = Orient(p.a, p.b, t);
      if (o3 == o4 && o3 != 0) return false;
      if (o1 * o2 < 0 && o3 * o4 < 0) return true;
      // A touch: the whole polygon decides (rare).
      return ConcaveBlocks(v, t, level.concave_polygon(p.shape).vertices);
    }
  }
  return false;
}

bool InsideOccluder(const Level& level, const uint64_t* removed, Vec2 v,
                    const QueryFilter& filter) {
  bool inside = false;
  level.spatial_hash().VisitBox(Aabb{v, v}, [&](int32_t item) {
    const Level::Primitive& p = level.primitive(item);
    if (!Occludes(level, p, v, filter, removed)) return true;
    switch (p.kind) {
      case Level::PrimitiveKind::kCircle:
        inside =
            p.radius > 0.0 && DistanceSquaredVs(v, p.a, p.radius, 0.0, 0.0) < 0;
        break;
      case Level::PrimitiveKind::kCapsule:
        inside = p.radius > 0.0 && WithinBelow(v, p.a, p.b, p.radius);
        break;
      case Level::PrimitiveKind::kConvexPolygon: {
        const ConvexPolygon& polygon = level.convex_polygon(p.shape);
        inside = true;
        for (int i = 0; i < polygon.count && inside; ++i) {
          inside = Orient(polygon.vertices[i],
                          polygon.vertices[(i + 1) % polygon.count], v) > 0;
        }
        break;
      }
      default:
        break;
    }
    return !inside;
  });
  if (inside) return true;
  level.solids().VisitBox(Aabb{v, v}, [&](int32_t item) {
    const int32_t shape = level.solid_shape(item);
    if (Occludes(level, shape, filter, removed)) {
      inside =
          PointInPolygonExact(level.concave_polygon(shape).vertices, v) > 0;
    }
    return !inside;
  });
  return inside;
}

}  // namespace collide::internal
