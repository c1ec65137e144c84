// Drawing a shape that turns while it moves (a cast or move with a
// non-zero turn.angle): its pose at any fraction, the bounds of its sweep,
// and the motion as a few intermediate poses, the arc its farthest point
// traces and the pivot's path.
#ifndef COLLIDE_CLIENT_SVG_SVG_TURNING_H_
#define COLLIDE_CLIENT_SVG_SVG_TURNING_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_scene.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// A turn: angle (radians over the step) about pivot (world).
struct TurnGeometry {
  double angle = 0.0;
  Vec2 pivot;
};

// The turn of a circle, polygon or capsule cast, or of a move validation:
// nullopt when there is none, its angle is 0, or a number is not finite or
// beyond 1e60. An unset pivot is the server's default, the shape's
// centroid (a circle's centre, a capsule's axis midpoint, a polygon's area
// centroid).
std::optional<TurnGeometry> TurnGeometryOf(const v1::Query& query,
                                           const WorldShape& shape);

// `shape` at fraction t: turned by t * angle about the pivot, then moved by
// t * translation.
WorldShape Posed(const WorldShape& shape, Vec2 translation,
                 const TurnGeometry& turn, double t);

// A box holding every pose over the step.
Aabb TurningBounds(const WorldShape& shape, Vec2 translation,
                   const TurnGeometry& turn);

// The motion: the start outline (with `title`), faint poses at eighths of
// the step, the dashed end, the arc the farthest point from the pivot
// traces and the pivot's path. Returns the start's bounds in pixels.
Aabb DrawTurningMotion(Canvas& canvas, const WorldShape& start,
                       Vec2 translation, const TurnGeometry& turn,
                       absl::string_view colour, absl::string_view title);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_TURNING_H_
