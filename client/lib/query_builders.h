// Builders for v1::Query messages, so callers write
// `RayCast({0, 0}, {30, 0})` instead of filling nested messages by hand.
// The client-side twin of server/proto_convert: lib value types in, wire
// messages out. Nothing is validated here; the server checks every field
// and answers a bad query with its own error.
#ifndef COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_
#define COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_

#include <cstdint>

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

// Returns `query` with request_id set (builders leave it 0).
v1::Query WithRequestId(v1::Query query, uint64_t request_id);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_QUERY_BUILDERS_H_
