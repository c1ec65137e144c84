// Internal: what the world queries (world/cast.cc, world/overlap.cc,
// world/closest_point.cc) share: the filter, the tie-breaking order, and one
// overload set that names every mover's cast and bounds.
#ifndef COLLIDE_LIB_SRC_WORLD_QUERY_COMMON_H_
#define COLLIDE_LIB_SRC_WORLD_QUERY_COMMON_H_

#include <algorithm>
#include <cstdint>
#include <optional>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "pairs/cast_to.h"

namespace collide::internal {

// Whether shape `shape` of a patched level's base is one the patch removed:
// bit `shape` of `removed` (Level::removed_from_base()); `removed` is null
// when querying a level's own layer, so unpatched levels test one pointer.
inline bool Removed(const uint64_t* removed, int32_t shape) {
  return removed != nullptr && ((removed[shape >> 6] >> (shape & 63)) & 1) != 0;
}

// Whether `shape` of `level` counts for a query: not removed (see Removed)
// and passing the filter.
inline bool Passes(const Level& level, int32_t shape, const QueryFilter& filter,
                   const uint64_t* removed) {
  if (Removed(removed, shape)) return false;
  if (!FilterAccepts(level.category_bits(shape), level.mask_bits(shape),
                     level.group(shape), filter)) {
    return false;
  }
  if (filter.ignore_ids.empty()) return true;
  const uint64_t id = level.id(shape);
  return std::find(filter.ignore_ids.begin(), filter.ignore_ids.end(), id) ==
         filter.ignore_ids.end();
}

// The order every world query ranks candidates by: the measure (fraction or
// distance), then, for casts, an initial overlap before a hit, then the
// shape id, then the part of the shape (segment index of a polyline, edge
// index of a concave polygon for a closest point, -1 for a point inside a
// concave polygon, 0 otherwise). It is total over a query's candidates, so
// the winner does not depend on the order they are met. A near tie of two
// zero-radius candidates is decided on their exact values first
// (world/exact_ties.h, closest_point.cc's SettleDistanceTie).
//
// Overlap before hit: both have fraction 0 only when the hit's contact is
// exactly after the start but within rounding of it (toi.h), or the hit is
// a skin stop of a start within the skin; the overlap's contact is at or
// before the start. A start inside geometry is never hidden by a shape
// touched an ulp of the sweep later, whatever their ids.
struct Rank {
  double measure = 0.0;
  uint64_t id = 0;
  int32_t part = 0;
  bool overlap = false;  // HitStatus::kInitialOverlap
};

inline bool operator<(const Rank& a, const Rank& b) {
  if (a.measure != b.measure) return a.measure < b.measure;
  if (a.overlap != b.overlap) return a.overlap;
  if (a.id != b.id) return a.id < b.id;
  return a.part < b.part;
}

// A segment's features (edge 0, vertex 0 / 1) renumbered as those of edge
// `part` of a chain of `vertex_count` vertices (a polyline or a polygon's
// outline): edge part runs from vertex part to vertex (part + 1) % count.
inline void RenumberChainFeature(int32_t part, int32_t vertex_count,
                                 Feature& feature) {
  if (feature.type == FeatureType::kVertex && feature.index == 1) {
    feature.index = (part + 1) % vertex_count;
  } else {
    feature.index = part;
  }
}

// The concave polygons a query has already answered as a whole. A concave
// polygon is filed edge by edge, so a query can meet it many times; its
// answer comes from the whole-polygon function (exact by construction), and
// this ring, in the query's stack frame, keeps the last few so that one
// polygon is normally tested once. A polygon that has dropped out of the
// ring is tested again and gives the same answer, which the rank order
// absorbs, so the ring's size affects speed only, never the result.
class RecentShapes {
 public:
  // True if `shape` was seen already; otherwise remembers it.
  bool Seen(int32_t shape) {
    for (int32_t i = 0; i < size_; ++i) {
      if (shapes_[i] == shape) return true;
    }
    shapes_[next_] = shape;
    next_ = (next_ + 1) % kSize;
    if (size_ < kSize) ++size_;
    return false;
  }

 private:
  static constexpr int32_t kSize = 16;
  int32_t shapes_[kSize];
  int32_t size_ = 0;
  int32_t next_ = 0;
};

// Bounds of a shape at rest, and the point a solid polygon's containment
// test uses for it (the vertex 0 of its core, as sweep/concave_sweep.cc does).
inline Aabb BoundsOf(Vec2 point) { return {point, point}; }
inline Aabb BoundsOf(Circle circle) {
  const Vec2 r{circle.radius, circle.radius};
  return {circle.center - r, circle.center + r};
}
inline Aabb BoundsOf(const Capsule& capsule) {
  const Vec2 r{capsule.radius, capsule.radius};
  return {Vec2{std::min(capsule.p1.x, capsule.p2.x),
               std::min(capsule.p1.y, capsule.p2.y)} -
              r,
          Vec2{std::max(capsule.p1.x, capsule.p2.x),
               std::max(capsule.p1.y, capsule.p2.y)} +
              r};
}
inline Aabb BoundsOf(const ConvexPolygon& polygon) {
  Aabb box{polygon.vertices[0], polygon.vertices[0]};
  for (int i = 1; i < polygon.count; ++i) {
    const Vec2 v = polygon.vertices[i];
    box.lower = {std::min(box.lower.x, v.x), std::min(box.lower.y, v.y)};
    box.upper = {std::max(box.upper.x, v.x), std::max(box.upper.y, v.y)};
  }
  return box;
}

// A disc holding a shape at rest (up to the rounding of its centre and
// radius, which MotionBand's margin covers).
struct Disc {
  Vec2 center;
  double radius = 0.0;
};
inline Disc BoundingDisc(Vec2 point) { return {point, 0.0}; }
inline Disc BoundingDisc(Circle circle) {
  return {circle.center, circle.radius};
}
inline Disc BoundingDisc(const Capsule& capsule) {
  return {0.5 * (capsule.p1 + capsule.p2),
          0.5 * Length(capsule.p2 - capsule.p1) + capsule.radius};
}
inline Disc BoundingDisc(const ConvexPolygon& polygon) {
  const Aabb box = BoundsOf(polygon);
  return {0.5 * (box.lower + box.upper), 0.5 * Length(box.upper - box.lower)};
}

inline Vec2 ReferencePoint(Vec2 point) { return point; }
inline Vec2 ReferencePoint(Circle circle) { return circle.center; }
inline Vec2 ReferencePoint(const Capsule& capsule) { return capsule.p1; }
inline Vec2 ReferencePoint(const ConvexPolygon& polygon) {
  return polygon.vertices[0];
}

inline Vec2 Shape(const RayInput& ray) { return ray.origin; }
inline Circle Shape(const CircleCast& cast) { return cast.circle; }
inline const Capsule& Shape(const CapsuleCast& cast) { return cast.capsule; }
inline const ConvexPolygon& Shape(const PolygonCast& cast) {
  return cast.polygon;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_QUERY_COMMON_H_
