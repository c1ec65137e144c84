// What the SVG renderer (svg_render.h) draws, in world coordinates: level
// shapes and query shapes read from the protos, checked for numbers it can
// draw. No validation beyond that: the server's rules (convexity, vertex
// limits) are its own, and a picture of a query the server refused still
// helps.
#ifndef COLLIDE_CLIENT_SVG_SVG_SCENE_H_
#define COLLIDE_CLIENT_SVG_SVG_SCENE_H_

#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// A shape in world coordinates (level units, y up).
struct WorldShape {
  enum class Kind {
    // A chain of segments through `points` (closed: back to the first); no
    // inside.
    kChain,
    // A solid simple polygon through `points`, either winding, maybe concave.
    kPolygon,
    // The points within `radius` of the convex hull of `points`: a circle (1
    // point), a capsule (2), a convex polygon (radius 0).
    kRounded,
  };
  Kind kind = Kind::kRounded;
  std::vector<Vec2> points;
  bool closed = false;
  double radius = 0.0;
};

// A finite number within +-kMaxCoordinate (geometry.proto's limit, which
// also keeps sums of two coordinates finite).
bool InRange(double value);
bool InRange(const v1::Vec2& point);
Vec2 FromProto(const v1::Vec2& point);

// `shape` moved by `offset`.
WorldShape Translated(const WorldShape& shape, Vec2 offset);

// The smallest box holding `shape`.
Aabb BoundsOf(const WorldShape& shape);

// The union of two boxes; an empty box (lower > upper) is the identity.
Aabb Union(const Aabb& a, const Aabb& b);
// The box holding nothing: lower +inf, upper -inf.
Aabb EmptyBox();
bool IsEmpty(const Aabb& box);

// A level shape's geometry (a box becomes its 4 corners, counter-clockwise
// from the lower left before rotation), or nullopt when it has none, a
// number out of range, a negative radius or half extent, or fewer vertices
// than its kind needs (2 for an open polyline, 3 for a closed one or a
// polygon).
std::optional<WorldShape> LevelShapeGeometry(const v1::Shape& shape);

// The kind of a level shape in words ("box"), "none" when unset.
const char* LevelShapeKind(const v1::Shape& shape);

// A cast query's moving shape at the start of the step and its translation.
// A ray is a rounded shape of one point and radius 0, with `is_ray` set.
struct CastGeometry {
  WorldShape shape;
  Vec2 translation;
  bool is_ray = false;
};

// The geometry of a ray, circle, polygon or capsule cast (a polygon cast
// needs at least 3 vertices), or nullopt for another query kind or numbers
// out of range.
std::optional<CastGeometry> CastGeometryOf(const v1::Query& query);

// The shape an overlap query tests, or nullopt when unset or out of range.
std::optional<WorldShape> OverlapShapeOf(const v1::OverlapQuery& overlap);

// The validation queries' moving shapes, as casts: each is nullopt when its
// shape is unset, a number is out of range, a radius is negative or a
// polygon has fewer than 3 vertices.
//
// A move validation's mover at its start pose and the claimed translation.
std::optional<CastGeometry> MoveGeometryOf(const v1::MoveValidationQuery& move);
// A shot: a ray (`is_ray`) for radius 0, else a circle of its radius.
std::optional<CastGeometry> ShotGeometryOf(const v1::HitValidationQuery& shot);
// A shot's target: its hitbox at the start of the tick and its translation.
std::optional<CastGeometry> TargetGeometryOf(const v1::ShotTarget& target);
// One shape of a pair TOI query: a point is a ray (`is_ray`), a segment a
// rounded shape of 2 points and radius 0.
std::optional<CastGeometry> MovingShapeGeometryOf(const v1::MovingShape& shape);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_SCENE_H_
