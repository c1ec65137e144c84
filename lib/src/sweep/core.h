// Internal: the machinery every convex pair reduces to.
//
// A Core is a convex point set (one point, a segment, or a convex polygon)
// plus a radius: a circle is a point core with its radius, a capsule a
// segment core with its radius. Sweeping core M (radius rM) by d against core
// B (radius rB) is exact as the union of two families of point sweeps:
// each vertex of M against B grown by rM + rB, and each
// vertex of B moving by -d against M grown by rM + rB, because the distance
// between two disjoint convex polygons is always reached at a vertex of one
// of them.
#ifndef COLLIDE_LIB_SRC_SWEEP_CORE_H_
#define COLLIDE_LIB_SRC_SWEEP_CORE_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {

// Many rounding errors, relative to the coordinates' scale: the margin of the
// conservative early-outs (sweep/vertex_misses.h) and of the near-start rule of
// ClassifyStart. No decision between touching and overlapping uses it.
inline constexpr double kTouchRoundings =
    64.0 * std::numeric_limits<double>::epsilon();
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

inline double MaxAbs(Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); }

// A closed range of values, empty while lower > upper.
struct Interval {
  double lower;
  double upper;
};

// How a core's vertex and edge indices map to the public Feature of the
// shape it was made from.
enum class FeatureMap { kPoint, kCircle, kSegment, kPolygon };

// A non-owning view of a core. Segments are two vertices with two edges
// (v0 -> v1 with normal n, v1 -> v0 with normal -n), so polygon code handles
// them unchanged; a zero-length segment is a point. Not copyable because a
// segment view points into its own storage.
class Core {
 public:
  Core(Vec2 point, double radius, FeatureMap map)
      : vertices_(own_vertices_),
        normals_(own_normals_),
        count_(1),
        radius_(radius),
        map_(map),
        own_vertices_{point, point} {}
  Core(Vec2 p1, Vec2 p2, double radius, FeatureMap map)
      : vertices_(own_vertices_),
        normals_(own_normals_),
        count_(p1 == p2 ? 1 : 2),
        radius_(radius),
        map_(map),
        own_vertices_{p1, p2} {
    const Vec2 n = Normalize(RightPerp(p2 - p1));
    own_normals_[0] = n;
    own_normals_[1] = -n;
  }
  Core(const ConvexPolygon& polygon, double radius)
      : vertices_(polygon.vertices.data()),
        normals_(polygon.normals.data()),
        count_(polygon.count),
        radius_(radius),
        map_(FeatureMap::kPolygon) {}
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  int count() const { return count_; }
  // The vertex after / before i around the core.
  int next(int i) const { return i + 1 == count_ ? 0 : i + 1; }
  int previous(int i) const { return i == 0 ? count_ - 1 : i - 1; }
  // Number of edges: 0 for a point, 2 for a segment, count for a polygon.
  int edge_count() const { return count_ >= 2 ? count_ : 0; }
  Vec2 vertex(int i) const { return vertices_[i]; }
  // Outward unit normal of edge i (vertex i -> vertex (i + 1) % count).
  Vec2 normal(int i) const { return normals_[i]; }
  double radius() const { return radius_; }
  FeatureMap feature_map() const { return map_; }
  // The public feature for a core edge or vertex index.
  Feature EdgeFeature(int edge) const {
    switch (map_) {
      case FeatureMap::kPoint:
        return {FeatureType::kVertex, 0};
      case FeatureMap::kCircle:
        return {FeatureType::kSurface, 0};
      case FeatureMap::kSegment:
        return {FeatureType::kEdge, 0};
      case FeatureMap::kPolygon:
        break;
    }
    return {FeatureType::kEdge, edge};
  }
  Feature VertexFeature(int vertex) const {
    switch (map_) {
      case FeatureMap::kPoint:
        return {FeatureType::kVertex, 0};
      case FeatureMap::kCircle:
        return {FeatureType::kSurface, 0};
      case FeatureMap::kSegment:
      case FeatureMap::kPolygon:
        break;
    }
    return {FeatureType::kVertex, vertex};
  }

 private:
  const Vec2* vertices_;
  const Vec2* normals_;
  int count_;
  double radius_;
  FeatureMap map_;
  Vec2 own_vertices_[2];
  Vec2 own_normals_[2];
};

// A segment core lists its one segment twice (once per side); distance loops
// need it once.
inline int DistinctEdges(const Core& core) {
  return core.count() == 2 ? 1 : core.edge_count();
}

// A translation held as the difference of two doubles, to - from: a static
// cast's own ({}, d), or a pair's relative motion (d2, d1), whose rounded
// difference d may not be exact. The sweeps' double filters use d (their
// slack is far above its rounding); their exact decisions take from and
// to, so that a pair's are exact for the two translations.
struct Motion {
  Vec2 d;
  Vec2 from;
  Vec2 to;

  static Motion Of(Vec2 d) { return {d, Vec2{}, d}; }
  static Motion Between(Vec2 from, Vec2 to) { return {to - from, from, to}; }
  // The motion seen from the other side: to and from swapped.
  Motion Reversed() const { return {-d, to, from}; }
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_CORE_H_
