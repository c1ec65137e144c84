// The shapes collide works with. All are value types in world coordinates
// (level units). Segments, circles and capsules are plain structs;
// polygons have invariants and are built with factories that validate.
#ifndef COLLIDE_SHAPES_H_
#define COLLIDE_SHAPES_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide {

// A line segment from p1 to p2. p1 == p2 is allowed and behaves as a point.
struct Segment {
  Vec2 p1;
  Vec2 p2;
};

// A solid disc. radius >= 0; radius 0 behaves as a point.
struct Circle {
  Vec2 center;
  double radius = 0.0;
};

// All points within radius of the segment [p1, p2] (a stadium). radius >= 0.
struct Capsule {
  Vec2 p1;
  Vec2 p2;
  double radius = 0.0;
};

inline constexpr int kMaxPolygonVertices = 8;

// A solid, strictly convex polygon with 3 to kMaxPolygonVertices vertices in
// counter-clockwise order, stored inline. normals[i] is the outward unit
// normal of the edge vertices[i] -> vertices[(i + 1) % count]. Build it only
// with MakeConvexPolygon or MakeBox.
struct ConvexPolygon {
  std::array<Vec2, kMaxPolygonVertices> vertices;
  std::array<Vec2, kMaxPolygonVertices> normals;
  int32_t count = 0;
};

// Validates and builds a convex polygon. Accepts either winding (clockwise
// input is reversed, so vertex i of the result is vertex count-1-i of the
// input). Errors name the problem: fewer than 3 or more than
// kMaxPolygonVertices vertices, a non-finite coordinate, repeated or
// collinear consecutive vertices, an outline whose edges cross (a bow tie:
// "polygon is self-intersecting: edges 0 and 2 intersect", decided exactly
// and named before convexity), or a reflex vertex (not convex).
absl::StatusOr<ConvexPolygon> MakeConvexPolygon(
    absl::Span<const Vec2> vertices);

// A box of the given half extents (both > 0 and finite) centred on center,
// rotated by angle radians counter-clockwise.
absl::StatusOr<ConvexPolygon> MakeBox(Vec2 center, Vec2 half_extents,
                                      double angle);

// A solid simple polygon, convex or not, as a view of caller-owned vertices
// (the caller keeps them alive and unchanged while the view is used).
// orientation is +1 when the vertices run counter-clockwise, -1 when
// clockwise; edge i runs from vertices[i] to vertices[(i + 1) % size].
// Build it only with MakeConcavePolygon.
struct ConcavePolygon {
  absl::Span<const Vec2> vertices;
  double orientation = 1.0;
};

// Validates and builds a concave polygon view: at least 3 finite vertices,
// no repeated consecutive vertices, no two edges that cross or touch apart
// from neighbours sharing their common vertex ("polygon is
// self-intersecting: edges i and j intersect", decided exactly, checked in
// O(n^2), once, at build time), and non-zero area.
absl::StatusOr<ConcavePolygon> MakeConcavePolygon(
    absl::Span<const Vec2> vertices);

// Outward unit normal of edge i of a concave polygon.
Vec2 EdgeNormal(const ConcavePolygon& polygon, int edge);

// True when every coordinate is finite and within kMaxCoordinate (1e60) in
// magnitude and every radius is in [0, kMaxCoordinate]. Queries assume valid
// input (COLLIDE_DCHECK); the service boundary calls these.
bool IsValid(Vec2 point);
bool IsValid(Segment segment);
bool IsValid(Circle circle);
bool IsValid(const Capsule& capsule);
bool IsValid(const ConvexPolygon& polygon);
bool IsValid(const ConcavePolygon& polygon);

}  // namespace collide

#endif  // COLLIDE_SHAPES_H_
