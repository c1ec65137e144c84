// The exact line-of-sight oracle: whether a viewer sees a target past a
// few occluders, in rational arithmetic (GMP), by the rules of
// collide/visibility.h, computed independently of lib/ (no lib/ code: the
// boundary crossings of the sight line are found as exact parameters,
// sorted, and the pieces between them classified by their midpoints).
#ifndef COLLIDE_TESTS_LIB_ORACLE_SIGHT_ORACLE_H_
#define COLLIDE_TESTS_LIB_ORACLE_SIGHT_ORACLE_H_

#include <optional>
#include <vector>

#include "collide/vec2.h"

namespace collide::oracle {

struct SightOccluder {
  enum class Kind { kSegment, kPolygon, kCircle, kCapsule };
  Kind kind = Kind::kSegment;
  // kSegment: a chain (a segment is two points; a polyline more, closed
  // adds the last-to-first segment). kPolygon: a simple polygon's outline,
  // either winding (solid). kCircle: points[0] the centre. kCapsule:
  // points[0..1] the axis.
  std::vector<Vec2> points;
  bool closed = false;
  double radius = 0.0;
};

struct SightViewer {
  Vec2 position;
  std::optional<double> range;
  // The cone's edges (right, then left counter-clockwise), as ViewCone.
  std::optional<std::pair<Vec2, Vec2>> cone;
};

// Whether the target lies in the viewer's range and cone, exactly.
bool InViewExact(const SightViewer& viewer, Vec2 target);
// Whether the open segment (v, t) is blocked by the occluder.
bool BlocksExact(const SightOccluder& occluder, Vec2 v, Vec2 t);
// Whether v lies strictly inside a solid occluder.
bool InsideExact(const SightOccluder& occluder, Vec2 v);
// The whole rule: in view, the viewer inside none, and no occluder
// blocking (a target at the viewer is seen).
bool SeesExact(const std::vector<SightOccluder>& occluders,
               const SightViewer& viewer, Vec2 target);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_SIGHT_ORACLE_H_
