// Internal: the bodies of validate.h (circle, capsule, convex polygon) moved
// to a new pose and cast against a level through one overload set, so the
// validation algorithms are written once for every body.
#ifndef COLLIDE_LIB_SRC_WORLD_BODY_CAST_H_
#define COLLIDE_LIB_SRC_WORLD_BODY_CAST_H_

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide::internal {

inline Circle Translated(Circle circle, Vec2 offset) {
  return {circle.center + offset, circle.radius};
}

inline Capsule Translated(const Capsule& capsule, Vec2 offset) {
  return {capsule.p1 + offset, capsule.p2 + offset, capsule.radius};
}

// A translated copy of a valid polygon. The normals do not change under a
// translation, and the vertices move together (up to the rounding of the
// sums, which the casts' touch tolerance absorbs), so the copy keeps
// MakeConvexPolygon's invariants without revalidating them (revalidating
// could reject a nearly-collinear polygon that rounding nudged).
inline ConvexPolygon Translated(const ConvexPolygon& polygon, Vec2 offset) {
  ConvexPolygon moved = polygon;
  for (int i = 0; i < polygon.count; ++i) {
    moved.vertices[i] = polygon.vertices[i] + offset;
  }
  return moved;
}

// The largest coordinate magnitude a body reaches: the scale its
// coordinates round at.
inline double CoordinateScale(Circle body) {
  return std::max(std::abs(body.center.x), std::abs(body.center.y)) +
         body.radius;
}
inline double CoordinateScale(const Capsule& body) {
  return std::max({std::abs(body.p1.x), std::abs(body.p1.y),
                   std::abs(body.p2.x), std::abs(body.p2.y)}) +
         body.radius;
}
inline double CoordinateScale(const ConvexPolygon& body) {
  double scale = 0.0;
  for (int i = 0; i < body.count; ++i) {
    scale = std::max(
        {scale, std::abs(body.vertices[i].x), std::abs(body.vertices[i].y)});
  }
  return scale;
}

// The closest-hit world casts of query.h, less the contacts with shapes
// the mover only touches and never goes into (PassesBeside in
// sweep/only_touches.h): the contacts that block a move (world/cast.cc).
std::optional<WorldHit> CastEntering(const CircleCast& cast, const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options);
std::optional<WorldHit> CastEntering(const CapsuleCast& cast,
                                     const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options);
std::optional<WorldHit> CastEntering(const PolygonCast& cast,
                                     const Level& level,
                                     const QueryFilter& filter,
                                     const CastOptions& options);

// The blocking closest hit (CastEntering) of a body moving by
// `translation`.
inline std::optional<WorldHit> CastBody(Circle body, Vec2 translation,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastEntering(CircleCast{body, translation}, level, filter, options);
}
inline std::optional<WorldHit> CastBody(const Capsule& body, Vec2 translation,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastEntering(CapsuleCast{body, translation}, level, filter, options);
}
inline std::optional<WorldHit> CastBody(const ConvexPolygon& body,
                                        Vec2 translation, const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastEntering(PolygonCast{body, translation}, level, filter, options);
}

// The all-hits world cast of a body.
inline ListResult CastBodyAll(Circle body, Vec2 translation, const Level& level,
                              absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastCircleAll(CircleCast{body, translation}, level, hits, filter,
                       options);
}
inline ListResult CastBodyAll(const Capsule& body, Vec2 translation,
                              const Level& level, absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastCapsuleAll(CapsuleCast{body, translation}, level, hits, filter,
                        options);
}
inline ListResult CastBodyAll(const ConvexPolygon& body, Vec2 translation,
                              const Level& level, absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastPolygonAll(PolygonCast{body, translation}, level, hits, filter,
                        options);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_BODY_CAST_H_
