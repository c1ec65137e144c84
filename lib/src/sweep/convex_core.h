// Internal: the machinery every convex pair reduces to.
//
// A Core is a convex point set (one point, a segment, or a convex polygon)
// plus a radius: a circle is a point core with its radius, a capsule a
// segment core with its radius. Sweeping core M (radius rM) by d against core
// B (radius rB) is exact as the union of two families of point sweeps
// (seeds 000 and 002): each vertex of M against B grown by rM + rB, and each
// vertex of B moving by -d against M grown by rM + rB, because the distance
// between two disjoint convex polygons is always reached at a vertex of one
// of them.
#ifndef COLLIDE_LIB_SRC_CONVEX_CORE_H_
#define COLLIDE_LIB_SRC_CONVEX_CORE_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/within_distance.h"

namespace collide::internal {

// Many rounding errors, relative to the coordinates' scale: the margin of the
// conservative early-outs (motion_shadow.h) and of the near-start rule of
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

// The state of a pair at rest.
struct Separation {
  // Signed gap between the cores (radii not included): > 0 apart, 0
  // touching, < 0 overlapping by that much along normal.
  double gap = 0.0;
  // Unit, from B towards A.
  Vec2 normal;
  // The point of B's core nearest A (for overlap: on B's boundary).
  Vec2 point_on_b;
  Feature feature_b;
  // True when the cores meet with no preferred side (a point on a segment,
  // collinear segments): there is no "moving in" direction.
  bool two_sided = false;
};

Separation Separate(const Core& a, const Core& b);

// The core as core_within.h's Hull.
Hull HullOf(const Core& core);

// Whether dist(hull a, hull b) <= a.radius() + b.radius() + extra, extra
// >= 0, exactly: Separate's rounded gap decides when it is clear of the
// reach by more than its rounding, HullsWithin otherwise.
bool CoresWithin(const Core& a, const Core& b, double extra = 0.0);

// The full cast of core a moving by `motion` against core b with the
// semantics of toi.h (initial overlap, touching, skin, max_fraction).
std::optional<Hit> SweepCores(const Core& a, const Motion& motion,
                              const Core& b, const CastOptions& options);

// Cast of core a against a solid simple polygon: its edges as one-sided
// segments plus its interior.
std::optional<Hit> SweepCoreVsConcave(const Core& a, const Motion& motion,
                                      const ConcavePolygon& polygon,
                                      const CastOptions& options);

// Whether core a moving by d (not zero) can at most touch core b, never
// overlap it, because some line along d separates them for the whole
// motion (they may touch across it: a graze, a slide along a surface).
// Exact; for any d and any length of motion. For a convex b this is the
// only way a contact can fail to go in; a concave solid may also be only
// touched with parts of it on either side of every such line (a mover in a
// valley), where this answers false.
bool PassesBeside(const Core& a, Vec2 d, const Core& b);
bool PassesBeside(const Core& a, Vec2 d, const ConcavePolygon& b);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_CONVEX_CORE_H_
