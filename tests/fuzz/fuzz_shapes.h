// Shapes, casts and levels decoded from fuzz input (FuzzInput), for the
// geometry fuzz target. Every decoder builds shapes only through lib/'s own
// factories (MakeConvexPolygon, MakeBox, MakeConcavePolygon); a decoded
// value may still be invalid for a query, so callers check IsValid(...)
// before every lib/ call, as a caller at a trust boundary must.
#ifndef COLLIDE_TESTS_FUZZ_FUZZ_SHAPES_H_
#define COLLIDE_TESTS_FUZZ_FUZZ_SHAPES_H_

#include <optional>
#include <variant>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "tests/fuzz/fuzz_input.h"

namespace collide::fuzz {

// A static obstacle of a TOI cast or one side of an overlap test: every
// shape kind lib/ casts against.
using Obstacle =
    std::variant<Vec2, Segment, Circle, Capsule, ConvexPolygon, ConcavePolygon>;

// A moving shape of a TOI cast.
using Mover = std::variant<RayInput, CircleCast, CapsuleCast, PolygonCast>;

// Vertex lists that decoded shapes view (concave polygons, level polylines
// and polygons). Each list is its own vector, so views into it stay valid
// as more lists are added.
using VertexStorage = std::vector<std::vector<Vec2>>;

// A strictly convex polygon (3 to kMaxPolygonVertices vertices) from raw
// vertices, a box, or a regular polygon; nullopt when lib/ refuses it.
std::optional<ConvexPolygon> TakeConvexPolygon(FuzzInput& in);

// A simple polygon of 3 to 12 vertices viewing a new list in `storage`;
// nullopt when MakeConcavePolygon refuses it.
std::optional<ConcavePolygon> TakeConcavePolygon(FuzzInput& in,
                                                 VertexStorage& storage);

// Any obstacle kind; concave polygons view `storage`.
std::optional<Obstacle> TakeObstacle(FuzzInput& in, VertexStorage& storage);

// A ray, circle, capsule or polygon cast with its translation.
std::optional<Mover> TakeMover(FuzzInput& in);

// A circle, capsule or convex polygon (a move validation mover or a hit
// validation hitbox).
std::optional<BodyShape> TakeBodyShape(FuzzInput& in);

// A point, segment, circle, capsule or convex polygon with a translation
// (one side of CastPair).
std::optional<MovingShape> TakeMovingShape(FuzzInput& in);

// Options with max_fraction mostly 1 and target_distance mostly 0, so that
// the default path is the common one. May be invalid (check IsValid).
CastOptions TakeCastOptions(FuzzInput& in);

// A level of 1 to 8 shapes of every kind (ids from a small range, so
// duplicates happen) with a fuzzed or automatic cell size; nullopt when
// Level::Create refuses it. Polylines and polygons view `storage` only while
// the level is built.
std::optional<Level> TakeLevel(FuzzInput& in, VertexStorage& storage);

// A filter with mask bits and up to 4 ignored ids, viewing `ignore_ids`
// (resized here).
QueryFilter TakeFilter(FuzzInput& in, std::vector<uint64_t>& ignore_ids);

}  // namespace collide::fuzz

#endif  // COLLIDE_TESTS_FUZZ_FUZZ_SHAPES_H_
