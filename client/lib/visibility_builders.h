// Builders for the line-of-sight queries (server-side fog of war) and
// readers of their answers, in the style of query_builders.h: the
// visibility query (which targets each viewer sees) and the visibility
// polygon query (the region one point sees within a range). The rules
// (what blocks a sight line, ranges and cone edges) are in the proto, at
// VisibilityQuery. Nothing is validated here; the server checks every field
// and answers a bad query with its own error.
//
//   const v1::Viewer players[] = {
//       Viewer({5, 2}, {.range = 20}),
//       Viewer({17, -5}, {.cone = ViewCone({-1, 0}, kPi / 6)})};
//   const v1::VisibilityTarget enemies[] = {PointTarget({15, 0}),
//                                           DiscTarget({10, -5}, 0.5)};
//   v1::Query tick = Visibility(players, enemies, Filter({.mask_bits = 1}));
//   ... client->RunQuery("arena", tick) ...
//   VisibleSets(result->visibility());  // per player: {{1}, {1}}
#ifndef COLLIDE_CLIENT_LIB_VISIBILITY_BUILDERS_H_
#define COLLIDE_CLIENT_LIB_VISIBILITY_BUILDERS_H_

#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client {

// The cone around `direction` (any non-zero length) opening
// half_angle_radians (in [0, pi]) either side; a target exactly on an edge
// is in view.
v1::ViewCone ViewCone(Vec2 direction, double half_angle_radians);

// How far and which way a viewer sees. Unset fields keep the server's
// defaults: any distance, every direction.
struct ViewerOptions {
  // Targets farther than this (level units, >= 0) are out of view; one at
  // exactly the range is in view.
  std::optional<double> range;
  // Only targets in this cone (see ViewCone) are in view.
  std::optional<v1::ViewCone> cone;
};

// A viewer whose eye is at `position`.
v1::Viewer Viewer(Vec2 position, const ViewerOptions& options = {});

// A point target.
v1::VisibilityTarget PointTarget(Vec2 point);
// A disc target (radius >= 0); under the default target rule
// (TARGET_RULE_CENTER) it is seen exactly when its centre is. A shot's
// circle hitbox is CircleTarget (query_builders.h).
v1::VisibilityTarget DiscTarget(Vec2 center, double radius);

// Which of `targets` each of `viewers` sees past the level's occluders, the
// shapes that pass `filter` (glass that blocks movement but not sight is a
// category left out of mask_bits; see Filter in query_builders.h).
// TARGET_RULE_UNSPECIFIED is the server's TARGET_RULE_CENTER. VisibleSets
// and Sees read the answer (QueryResult.visibility).
v1::Query Visibility(absl::Span<const v1::Viewer> viewers,
                     absl::Span<const v1::VisibilityTarget> targets,
                     const v1::QueryFilter& filter = {},
                     v1::TargetRule target_rule = v1::TARGET_RULE_UNSPECIFIED);

// The region seen from `viewer` within `range` (level units, > 0), as a
// polygon star-shaped around it, its arcs drawn as chords of at most
// max_arc_angle_radians (0: the server's 0.2), occluded by the shapes that
// pass `filter`. PolygonPoints reads the answer
// (QueryResult.visibility_polygon).
v1::Query VisibilityPolygon(Vec2 viewer, double range,
                            double max_arc_angle_radians = 0,
                            const v1::QueryFilter& filter = {});

// Per viewer, in the query's order, the indices of the targets it sees,
// ascending. A query with no targets has no rows in its answer: the result
// is then viewer_count empty rows.
std::vector<std::vector<int>> VisibleSets(const v1::VisibilityResult& answer,
                                          int viewer_count = 0);

// Whether viewer viewer_index sees target target_index; false for indices
// outside the answer.
bool Sees(const v1::VisibilityResult& answer, int viewer_index,
          int target_index);

// A visibility polygon's vertices, counter-clockwise from direction +x;
// empty when the viewer is strictly inside a solid occluder.
std::vector<Vec2> PolygonPoints(const v1::VisibilityPolygonResult& answer);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_VISIBILITY_BUILDERS_H_
