// World queries: casts, overlaps and closest points against a whole Level.
//
// Every query is exact with respect to the per-shape functions: a cast
// against the level returns exactly (bitwise) what calling the per-shape cast
// of toi.h on every matching shape and keeping the best would return, for
// any cell size and on any thread. Per shape kind, the "per-shape cast" is:
// - segment, circle, capsule, box / convex polygon, concave polygon: the
//   toi.h overload for that target type (Cast*(cast, target, options));
// - polyline: its segments cast one by one as Segment targets, the
//   earliest kept (ties: an initial overlap before a hit, then the lowest
//   segment index); features renumbered to the polyline's (edge i =
//   segment i; vertex j = vertices[j]). The polyline is one surface: a
//   segment's kHit at the vertex it shares with a neighbour is dropped when
//   the mover starts touching that neighbour, moves exactly parallel to it
//   and the segment does not rise towards the mover there (a convex bend or
//   a straight continuation): the slide past the vertex, as off a polygon's
//   edge onto the next (toi.h), is not a hit.
// - one-sided segment or polyline (ShapeDesc::one_sided): as a two-sided
//   one, but a segment counts only when the translation moves into its
//   front, against its left normal (Cross(p2 - p1, translation) < 0,
//   decided exactly; motion along it or away from its front never hits,
//   whichever side the mover is on, so a mover below a jump-through
//   platform rises through it and one above lands on it). Its start in
//   contact (kInitialOverlap) counts only when the mover starts exactly
//   touching it and moves in: one that starts overlapping it is partway
//   through and passes. Each polyline segment has its own front; at a
//   shared vertex each segment decides for itself.
// Between shapes, the smallest fraction wins; at equal fractions an initial
// overlap (kInitialOverlap) ranks before a hit, then the smallest shape id
// wins. Two fractions are both 0 only when the hit's contact lies exactly
// after the start but within rounding of it (or is a skin stop at the
// start), so a start inside one shape is never hidden by another shape
// touched an ulp of the sweep later.
//
// Queries never allocate and keep their scratch state on the stack; results
// that are lists go into caller spans. Preconditions (COLLIDE_DCHECK): the
// same as the per-shape functions (finite input, radii >= 0, 0 <=
// max_fraction, target_distance >= 0; IsValid(...) checks them).
#ifndef COLLIDE_QUERY_H_
#define COLLIDE_QUERY_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide {

// Which shapes a query considers: a two-way filter, Box2D's rule with the
// query standing for the other fixture, and a list of ids to skip. A shape
// counts when its id is not in ignore_ids (a short list scanned linearly;
// the caller keeps it alive during the query) and
// - if group != 0 and the shape's group equals it: group > 0 (a positive
//   shared group always counts, a negative one never does, whatever the
//   bits: a query with group g < 0 ignores the shapes of group g);
// - otherwise: (shape.category_bits & mask_bits) != 0 and
//   (shape.mask_bits & category_bits) != 0.
// The defaults (every bit; category 1, which a shape's default mask of
// every bit accepts; no group) keep the one-way test of mask_bits alone.
struct QueryFilter {
  uint64_t mask_bits = ~uint64_t{0};
  absl::Span<const uint64_t> ignore_ids;
  // The query's own categories, which a shape's mask_bits must share.
  uint64_t category_bits = 1;
  int32_t group = 0;
};

// Whether a shape of these bits and group passes `filter`'s two-way test
// (ignore_ids aside).
inline bool FilterAccepts(uint64_t shape_category_bits,
                          uint64_t shape_mask_bits, int32_t shape_group,
                          const QueryFilter& filter) {
  if (filter.group != 0 && filter.group == shape_group) return filter.group > 0;
  return (shape_category_bits & filter.mask_bits) != 0 &&
         (shape_mask_bits & filter.category_bits) != 0;
}

// A cast's contact with a level shape: the per-shape Hit (fraction, point,
// normal, depth, feature, status with the meanings of toi.h; feature
// numbered within the shape) plus the shape.
struct WorldHit {
  Hit hit;
  uint64_t shape_id = 0;
  uint64_t user_data = 0;
};

// A shape a query found (overlaps).
struct ShapeRef {
  uint64_t shape_id = 0;
  uint64_t user_data = 0;
};

// How a list query filled its caller span: the first `count` elements are
// set; truncated when more results exist than fit (the span then holds the
// first ones in the list's order).
struct ListResult {
  int32_t count = 0;
  bool truncated = false;
};

// --- Closest hit. Sweeps the mover along its translation through the level
// and returns the earliest contact within options.max_fraction with any
// shape passing `filter`, or nullopt if none. Starting in overlap with a
// shape is a hit at fraction 0 (kInitialOverlap) as in toi.h; touching and
// moving away is not. target_distance (skin) stops that far short of
// contact.
std::optional<WorldHit> CastRay(
    const RayInput& ray, const Level& level, const QueryFilter& filter = {},
    const CastOptions& options = kDefaultCastOptions);
std::optional<WorldHit> CastCircle(
    const CircleCast& cast, const Level& level, const QueryFilter& filter = {},
    const CastOptions& options = kDefaultCastOptions);
// cast.polygon is a ConvexPolygon (at most kMaxPolygonVertices vertices).
std::optional<WorldHit> CastPolygon(
    const PolygonCast& cast, const Level& level, const QueryFilter& filter = {},
    const CastOptions& options = kDefaultCastOptions);
std::optional<WorldHit> CastCapsule(
    const CapsuleCast& cast, const Level& level, const QueryFilter& filter = {},
    const CastOptions& options = kDefaultCastOptions);

// --- All hits. Every shape the cast meets within max_fraction, once each
// (with its per-shape first contact), sorted by the order above (fraction,
// initial overlap before hit, shape id), into `hits`. When more shapes are hit
// than `hits` holds, the span gets the earliest ones and truncated is set.
ListResult CastRayAll(const RayInput& ray, const Level& level,
                      absl::Span<WorldHit> hits, const QueryFilter& filter = {},
                      const CastOptions& options = kDefaultCastOptions);
ListResult CastCircleAll(const CircleCast& cast, const Level& level,
                         absl::Span<WorldHit> hits,
                         const QueryFilter& filter = {},
                         const CastOptions& options = kDefaultCastOptions);
ListResult CastPolygonAll(const PolygonCast& cast, const Level& level,
                          absl::Span<WorldHit> hits,
                          const QueryFilter& filter = {},
                          const CastOptions& options = kDefaultCastOptions);
ListResult CastCapsuleAll(const CapsuleCast& cast, const Level& level,
                          absl::Span<WorldHit> hits,
                          const QueryFilter& filter = {},
                          const CastOptions& options = kDefaultCastOptions);

// --- Overlap at rest (spawn checks). One-sided shapes are never reported:
// they block only motion into their front, and at rest there is nothing of
// them to be inside (a spawn point across a jump-through platform is free;
// give such shapes a category to find them). Every shape passing `filter` that
// the shape overlaps, touching included, sorted by shape id, into `shapes`
// (truncated: the smallest ids). A shape counts when Overlaps(...) of
// intersect.h says so for the pair (either argument order, as declared
// there); a polyline when any of its segments overlaps; a concave polygon
// also when the shape lies inside it.
ListResult OverlapCircle(Circle circle, const Level& level,
                         absl::Span<ShapeRef> shapes,
                         const QueryFilter& filter = {});
ListResult OverlapPolygon(const ConvexPolygon& polygon, const Level& level,
                          absl::Span<ShapeRef> shapes,
                          const QueryFilter& filter = {});
ListResult OverlapCapsule(const Capsule& capsule, const Level& level,
                          absl::Span<ShapeRef> shapes,
                          const QueryFilter& filter = {});

// --- Closest point. One-sided shapes count as two-sided ones (the
// distance to a platform has no direction). The point of the level nearest
// `point` among shapes passing `filter`, if one lies within max_distance
// (inclusive). Whether a shape lies within max_distance, and whether the point
// is inside or on a solid shape (distance exactly 0) or outside it (distance >
// 0), are decided exactly; the distance is computed from coordinate
// differences, so it is accurate to the shapes' scale, not their offset from
// the origin.
struct WorldClosestPoint {
  // On the shape's surface; equal to the query point (distance 0) when the
  // query point is inside a solid shape or on its boundary.
  Vec2 point;
  double distance = 0.0;
  // Unit, from `point` towards the query point; {0, 0} at distance 0.
  Vec2 normal;
  // The shape's part nearest the query: an edge or vertex (numbered as in
  // toi.h: segment and capsule axis edge 0, vertices 0 / 1; polygon, polyline
  // and concave polygon edges and vertices by index) or kSurface for a
  // circle. For a query point inside or on a solid shape (distance 0): the
  // capsule's axis feature, or kSurface for a circle, box, convex or
  // concave polygon.
  Feature feature;
  uint64_t shape_id = 0;
  uint64_t user_data = 0;
};
// Ties: smallest distance, then smallest shape id, then the lowest part
// (segment or edge index) of a polyline or concave polygon.
// Precondition: finite point, max_distance >= 0.
std::optional<WorldClosestPoint> ClosestPoint(Vec2 point, const Level& level,
                                              double max_distance,
                                              const QueryFilter& filter = {});

}  // namespace collide

#endif  // COLLIDE_QUERY_H_
