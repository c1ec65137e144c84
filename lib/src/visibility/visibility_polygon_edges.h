// Internal to VisibilityPolygon: the occluders within the range as edges
// seen from the viewer, and the wedges of directions a viewer on a solid's
// boundary cannot see into.
#ifndef COLLIDE_LIB_SRC_VISIBILITY_VISIBILITY_POLYGON_EDGES_H_
#define COLLIDE_LIB_SRC_VISIBILITY_VISIBILITY_POLYGON_EDGES_H_

#include <cstdint>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/vec2.h"
#include "collide/visibility_polygon.h"

namespace collide {

// Friend of VisibilityPolygonScratch: the query's access to its arrays.
struct VisibilityPolygonAccess {
  using Edge = VisibilityPolygonScratch::Edge;
  using Direction = VisibilityPolygonScratch::Direction;
  using Bin = VisibilityPolygonScratch::Bin;
  using Wedge = VisibilityPolygonScratch::Wedge;
  static std::vector<Edge>& edges(VisibilityPolygonScratch& s) {
    return s.edges_;
  }
  static std::vector<double>& near(VisibilityPolygonScratch& s) {
    return s.near_;
  }
  static std::vector<Direction>& directions(VisibilityPolygonScratch& s) {
    return s.directions_;
  }
  static std::vector<int32_t>& entries(VisibilityPolygonScratch& s) {
    return s.entries_;
  }
  static std::vector<Bin>& bins(VisibilityPolygonScratch& s) { return s.bins_; }
  static std::vector<Wedge>& wedges(VisibilityPolygonScratch& s) {
    return s.wedges_;
  }
};

namespace internal {

// Where the edges go. Edges past `max_edges` and wedges past the wedges'
// capacity are counted, not stored.
struct PolygonEdgeSink {
  std::vector<VisibilityPolygonAccess::Edge>* edges = nullptr;
  std::vector<VisibilityPolygonAccess::Wedge>* wedges = nullptr;
  int32_t max_edges = 0;
  int32_t max_wedges = 0;
  int32_t edge_count = 0;   // wanted, stored or not
  int32_t wedge_count = 0;  // wanted, stored or not
};

// Adds the edges of every shape of `level` (both layers of a patched one)
// that occludes for `filter`, seen from `v`, clipped to the disc of radius
// `range` around v (an end outside becomes the rounded point where the
// edge crosses the circle, kArcEnd; an edge with one end inside is never
// dropped, and an end outside by less than that point's rounding stays
// where it is, marked kArcEnd):
// - a segment or polyline edge (a one-sided one only from its front): the
//   segment, unless v lies on its line (it then hides no area);
// - a polygon (convex or concave): its edges facing v (v strictly outside
//   their line); a first hit from outside is always on one of those;
// - a circle or a capsule's cap: from v, the segments of tangent lines of
//   the circle between the two tangent rays, each spanning at most
//   `max_arc_angle` of the circle (kRoundPoint ends), which lie outside the
//   circle by at most radius * (1 / cos(max_arc_angle / 2) - 1); a
//   capsule's two sides as segments;
// - a solid whose boundary v lies on: a wedge of the directions into it
//   (its edges through v are left out; a convex or round one adds no
//   other edge, since nothing of it can hide anything from v).
// Shapes of radius 0 and point segments hide no area and add nothing.
// Precondition: v is not strictly inside an occluder.
void GatherPolygonEdges(const Level& level, Vec2 v, double range,
                        double max_arc_angle, const QueryFilter& filter,
                        PolygonEdgeSink& sink);

// Whether the side of the ray from v through p (side +1: just
// counter-clockwise of it; -1: just clockwise) enters the wedge. Exact on
// the wedge's lines as stored.
bool WedgeCovers(const VisibilityPolygonAccess::Wedge& wedge, Vec2 v, Vec2 p,
                 int side);

}  // namespace internal
}  // namespace collide

#endif  // COLLIDE_LIB_SRC_VISIBILITY_VISIBILITY_POLYGON_EDGES_H_
