// The visibility polygon: the region a viewer sees within a range, for
// rendering fog of war and for checking what a client claims it saw
// (docs/visibility.md states the contract and its error bounds).
//
// The region is that of collide/visibility.h: the points t with
// |t - v| <= range that Sees(level, {v, range}, t, filter) accepts, for the
// same occluders (the shapes `filter` passes, one-sided segments from their
// front only) and the same rules. The polygon drawn is the closure of that
// region's interior: a sight line of zero width (through the corner where
// two solids meet, along a wall's line) adds no area and is not drawn, and
// a point on a wall is drawn as the wall's edge of the region.
//
// The polygon is star-shaped around the viewer: its vertices come in
// counter-clockwise order of their direction from the viewer, starting at
// the direction +x (angle 0, included); two vertices on one ray from the
// viewer (a shadow's edge) come in the order the boundary runs: the one
// seen just clockwise of the ray first. Each vertex says what it is:
// - kLevelVertex: a vertex of a level shape (an end of a segment, a corner
//   of a polygon or a polyline), the shape's double coordinates exactly.
// - kRayHit: where the ray from the viewer through a vertex meets the next
//   occluder behind it; rounded (error below).
// - kEdgeCrossing: where the edges of two overlapping occluders cross (the
//   shape is the one the boundary continues on, counter-clockwise).
// - kRoundPoint: a corner of a circle's or capsule's outline as drawn
//   (below): on its tangent lines, the first and last on the tangent rays
//   from the viewer; rounded.
// - kArc: a point of the range circle inside a visible arc.
// - kArcEnd: where a visible arc of the range circle ends: an occluder's
//   edge crossing the range circle, or a shadow's edge reaching it.
// - kViewer: the viewer itself, where it stands on a solid's boundary and
//   the directions into the solid see nothing.
//
// Approximations (every vertex but kLevelVertex and kViewer is a rounded
// point; the drawn boundary lies within kVisibilityPolygonRelativeError *
// (|v| + range) of the boundary it stands for, |v| the larger of the
// viewer's coordinates' magnitudes: a rounded point is that close to the
// exact one, or, where a ray meets an edge at a grazing angle, to the
// edge and the ray, off along them):
// - The range circle is drawn as chords of at most max_arc_angle radians
//   whose ends lie on the circle (kArc, kArcEnd), so the chords run inside
//   the circle: the polygon leaves out at most range * (1 - cos(
//   max_arc_angle / 2)) of the region near its range.
// - A circle, and each cap of a capsule, is drawn from the viewer as the
//   segments of its tangent lines between the two tangent rays, each
//   spanning at most max_arc_angle of the circle (kRoundPoint corners), so
//   the drawn outline lies outside the circle by at most radius * (1 /
//   cos(max_arc_angle / 2) - 1): the polygon leaves out at most that much
//   of the region in front of a round occluder; its shadows' edges are the
//   tangent rays, rounded. A capsule's sides are its side segments.
// So, apart from rounded points and sight lines of zero width (through a
// point segment, along a wall's line through the viewer), the polygon
// holds no point the viewer does not see: it is safe to reveal.
#ifndef COLLIDE_VISIBILITY_POLYGON_H_
#define COLLIDE_VISIBILITY_POLYGON_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/vec2.h"

namespace collide {

// The bound on the drawn boundary's distance from the exact one, relative
// to |v| + range (see above), beside the chords' and outlines' bounds.
inline constexpr double kVisibilityPolygonRelativeError = 1e-12;

enum class PolygonVertexKind : uint8_t {
  kLevelVertex,
  kRayHit,
  kEdgeCrossing,
  kRoundPoint,
  kArc,
  kArcEnd,
  kViewer,
};

struct VisibilityPolygonVertex {
  Vec2 point;
  PolygonVertexKind kind = PolygonVertexKind::kArc;
  // The level shape the point lies on (its ShapeDesc::id); nullopt for
  // kArc, kViewer and a kArcEnd where a shadow's edge reaches the range.
  std::optional<uint64_t> shape_id;
};

struct VisibilityPolygonOptions {
  // The range: finite and > 0. Occluders farther are not read.
  double range = 0.0;
  // The largest angle, in radians, one chord of the range circle or one
  // tangent segment of a round occluder spans: in [kMinArcAngle, pi / 2].
  double max_arc_angle = 0.2;
  static constexpr double kMinArcAngle = 1e-3;
};

enum class VisibilityPolygonStatus : uint8_t {
  // The polygon is in the output's first vertex_count vertices (0 when the
  // viewer is strictly inside a solid occluder: it sees nothing).
  kOk,
  // The output holds fewer than the polygon's vertices; `needed` says how
  // many it needs. The output's contents are unspecified.
  kOutputTooSmall,
  // More occluder edges within the range than the scratch holds (or the
  // viewer on the boundary of more than 64 solids at once); `needed` says
  // how many edges (VisibilityPolygonScratch's max_edges) it needs. No
  // polygon is written.
  kScratchTooSmall,
};

struct VisibilityPolygonResult {
  VisibilityPolygonStatus status = VisibilityPolygonStatus::kOk;
  int32_t vertex_count = 0;
  int32_t needed = 0;
  // The viewer is strictly inside a solid occluder (vertex_count 0).
  bool viewer_inside = false;
};

// The working memory of VisibilityPolygon, sized once by the caller and
// reused across calls (one per thread): room for max_edges occluder edges
// within the range (a polygon's or polyline's edge, a segment, up to
// 2 + 2 * pi / max_arc_angle per round occluder) and their directions.
class VisibilityPolygonScratch {
 public:
  static constexpr int32_t kDefaultMaxEdges = 16384;
  explicit VisibilityPolygonScratch(int32_t max_edges = kDefaultMaxEdges);
  VisibilityPolygonScratch(VisibilityPolygonScratch&&) = default;
  VisibilityPolygonScratch& operator=(VisibilityPolygonScratch&&) = default;

  int32_t max_edges() const { return max_edges_; }
  // Heap bytes held.
  size_t memory_bytes() const;

 private:
  friend struct VisibilityPolygonAccess;
  // One occluder edge within the range.
  struct Edge {
    Vec2 a;
    Vec2 b;
    uint64_t shape_id = 0;
    PolygonVertexKind a_kind = PolygonVertexKind::kLevelVertex;
    PolygonVertexKind b_kind = PolygonVertexKind::kLevelVertex;
  };
  // A direction from the viewer: the ray through `point`, in angular
  // sector `sector`; role 0: an edge's end, 1: a sector's first direction,
  // 2: that and a vertex of the range's chords.
  struct Direction {
    Vec2 point;
    int32_t sector = 0;
    uint8_t role = 0;
  };
  struct Bin {
    int32_t begin = 0;
    int32_t end = 0;
  };
  // A solid the viewer stands on the boundary of: the directions into it
  // see nothing. Up to two lines through the viewer; a direction's side is
  // inside when it is left of both (convex corner or edge) or of either
  // (reflex corner).
  struct Wedge {
    Vec2 a1, b1;
    Vec2 a2, b2;
    int32_t lines = 1;
    bool either = false;
  };

  std::vector<Edge> edges_;
  std::vector<double> near_;  // per edge: a lower bound of its distance
  std::vector<Direction> directions_;
  std::vector<int32_t> entries_;
  std::vector<Bin> bins_;
  std::vector<Wedge> wedges_;
  int32_t max_edges_ = 0;
};

// The visibility polygon of a viewer at `viewer` within options.range past
// the occluders `filter` chooses, by the rules above, written to `out`.
// Work: the occluders within the range (through the spatial hash), sorted
// by direction once and filed into angular bins, then one nearest-edge
// search per direction within its bin; nothing depends on the level beyond
// the range. Allocates nothing. Preconditions (COLLIDE_DCHECK): `viewer`
// valid, options within their bounds (IsValid(options) to check first).
VisibilityPolygonResult VisibilityPolygon(
    const Level& level, Vec2 viewer, const VisibilityPolygonOptions& options,
    absl::Span<VisibilityPolygonVertex> out, VisibilityPolygonScratch& scratch,
    const QueryFilter& filter = {});

// Whether options are within the bounds VisibilityPolygon assumes.
bool IsValid(const VisibilityPolygonOptions& options);

}  // namespace collide

#endif  // COLLIDE_VISIBILITY_POLYGON_H_
