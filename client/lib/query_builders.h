// Builders for v1::Query messages, so callers write
// `RayCast({0, 0}, {30, 0})` instead of filling nested messages by hand.
// The client-side twin of server/proto_convert: lib value types in, wire
// messages out. Nothing is validated here; the server checks every field
// and answers a bad query with its own error.
#ifndef COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_
#define COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client {

v1::Vec2 ToProto(Vec2 v);
Vec2 FromProto(const v1::Vec2& v);

// A point moving from origin to origin + translation.
v1::Query RayCast(Vec2 origin, Vec2 translation,
                  const v1::CastOptions& options = {});
// A circle (center, radius) moving by translation.
v1::Query CircleCast(Vec2 center, double radius, Vec2 translation,
                     const v1::CastOptions& options = {});
// A convex polygon (vertices in either winding) moving by translation.
v1::Query PolygonCast(absl::Span<const Vec2> vertices, Vec2 translation,
                      const v1::CastOptions& options = {});
// A capsule (axis p1-p2, radius) moving by translation.
v1::Query CapsuleCast(Vec2 p1, Vec2 p2, double radius, Vec2 translation,
                      const v1::CastOptions& options = {});
// Every level shape a circle at rest overlaps.
v1::Query OverlapCircle(Vec2 center, double radius,
                        const v1::QueryFilter& filter = {});
// The level point nearest `point` within max_distance (< 0: no limit).
v1::Query ClosestPoint(Vec2 point, double max_distance = -1,
                       const v1::QueryFilter& filter = {});

// --- Validation of a client's claims (move, shot).
// A circle claiming to move by `translation`: stop `skin` short of contact;
// slide_iterations > 0 also runs collide-and-slide with that many casts.
v1::Query MoveCircle(Vec2 center, double radius, Vec2 translation,
                     double skin = 0, int slide_iterations = 0);
// A shot (a ray, or a thick ray when radius > 0) against moving targets.
v1::Query Shot(Vec2 origin, Vec2 translation, double radius,
               absl::Span<const v1::ShotTarget> targets);
// A circle hitbox `id` moving by `translation` during the tick.
v1::ShotTarget CircleTarget(uint64_t id, Vec2 center, double radius,
                            Vec2 translation);
// A capsule hitbox (axis p1-p2, radius) `id` moving by `translation`.
v1::ShotTarget CapsuleTarget(uint64_t id, Vec2 p1, Vec2 p2, double radius,
                             Vec2 translation);
// A convex polygon hitbox `id` moving by `translation`.
v1::ShotTarget PolygonTarget(uint64_t id, absl::Span<const Vec2> vertices,
                             Vec2 translation);
// A melee swing (HitValidationQuery.swing): a capsule, e.g. a blade from
// the hand p1 to the tip p2, translating by `translation` during the tick,
// against `targets`. WithTurn turns it; a sword turns about the hand, so
// pass p1 as the pivot.
v1::Query CapsuleSwing(Vec2 p1, Vec2 p2, double radius, Vec2 translation,
                       absl::Span<const v1::ShotTarget> targets);
// A swing whose body is a convex polygon (a shield, an axe head).
v1::Query PolygonSwing(absl::Span<const Vec2> vertices, Vec2 translation,
                       absl::Span<const v1::ShotTarget> targets);

// --- Turning (v1::Turn has the motion model): the moving shape turns by
// `angle` radians over the whole step (counter-clockwise for angle > 0,
// any magnitude) about `pivot`, the centre of rotation at the start of the
// step, which moves with the translation. No pivot: the shape's centroid.

// Returns `query` with its moving shape turning. Circle, polygon and
// capsule casts, move validations and swings carry the turn as built. A
// ray cast becomes a circle cast of radius 0, and a shot (Shot) a swing of
// its disc (radius 0: a point), the kinds that can turn; with angle 0 those
// two are returned as they are. Kinds in which nothing turns (overlap,
// closest point, pair TOI, visibility) are returned unchanged.
v1::Query WithTurn(v1::Query query, double angle,
                   std::optional<Vec2> pivot = std::nullopt);
// Returns `target` turning during the tick (a rotating door, a spinning
// blade); only a swing's targets may turn (the server refuses a turning
// target of any other shot, naming the field).
v1::ShotTarget WithTurn(v1::ShotTarget target, double angle,
                        std::optional<Vec2> pivot = std::nullopt);

// --- The query's side of the two-way filter (v1::QueryFilter has the
// rule). Fields left unset keep the server's defaults, under which every
// shape whose own filter fields are unset counts: a mask of all bits,
// category 1, no group.
struct FilterOptions {
  // The shape categories the query counts. Unset: all bits.
  std::optional<uint64_t> mask_bits;
  // The query's own categories, which a shape's mask_bits must share.
  // Unset: 1.
  std::optional<uint64_t> category_bits;
  // Box2D's group index: a shape of the same positive group always counts,
  // of the same negative group never, whatever the bits. 0: no group.
  int32_t group = 0;
  // Shapes with these ids never count (the shooter's own body).
  std::vector<uint64_t> ignore_ids;
};
v1::QueryFilter Filter(const FilterOptions& options);

// Returns `query` with its filter replaced: a cast's options.filter, or the
// filter of an overlap, closest point, move or hit validation, visibility
// or visibility polygon query. A pair TOI reads no level and is returned
// unchanged.
v1::Query WithFilter(v1::Query query, const v1::QueryFilter& filter);
v1::Query WithFilter(v1::Query query, const FilterOptions& options);

// Returns `query` with request_id set (builders leave it 0).
v1::Query WithRequestId(v1::Query query, uint64_t request_id);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_
