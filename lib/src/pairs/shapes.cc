#include "collide/shapes.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/vec2.h"

namespace collide {
namespace {

int Sign(double value) { return (value > 0.0) - (value < 0.0); }

// Twice the signed area (shoelace). Every term is taken relative to
// vertices[0] so that outlines far from the origin keep their precision: the
// products then involve edge-sized numbers instead of coordinates.
double TwiceSignedArea(absl::Span<const Vec2> vertices) {
  const Vec2 origin = vertices[0];
  double sum = 0.0;
  for (size_t i = 1; i + 1 < vertices.size(); ++i) {
    sum += Cross(vertices[i] - origin, vertices[i + 1] - origin);
  }
  return sum;
}

// Shared by both polygon factories: a non-finite or out-of-range
// coordinate would poison every later orientation test, so it is reported
// first.
absl::Status CheckFinite(absl::Span<const Vec2> vertices) {
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (!IsFinite(vertices[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("vertices[", i, "] is not finite"));
    }
    if (!IsInRange(vertices[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vertices[", i, "] is beyond the coordinate limit of 1e60"));
    }
  }
  return absl::OkStatus();
}

// A repeated consecutive vertex makes a zero-length edge, which has no
// direction and so no normal.
absl::Status CheckNoEqualNeighbours(absl::Span<const Vec2> vertices) {
  const size_t n = vertices.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t next = (i + 1) % n;
    if (vertices[i] == vertices[next]) {
      return absl::InvalidArgumentError(
          absl::StrCat("vertices ", i, " and ", next, " are equal"));
    }
  }
  return absl::OkStatus();
}

// The first two edges of the closed outline that are not neighbours and
// still meet (cross, touch or overlap), as "polygon is self-intersecting:
// edges i and j intersect"; OK when there are none. IntersectSegments decides
// with exact orientation signs, so a near miss is never taken for a crossing
// nor a touch for a miss. O(n^2) in the vertex count.
absl::Status CheckNoCrossing(absl::Span<const Vec2> vertices) {
  const size_t n = vertices.size();
  for (size_t i = 0; i < n; ++i) {
    const Segment edge_i{vertices[i], vertices[(i + 1) % n]};
    for (size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // Neighbours through vertex 0.
      const Segment edge_j{vertices[j], vertices[(j + 1) % n]};
      if (IntersectSegments(edge_i, edge_j).has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("polygon is self-intersecting: edges ", i, " and ", j,
                         " intersect"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ConvexPolygon> MakeConvexPolygon(
    absl::Span<const Vec2> vertices) {
  const size_t n = vertices.size();
  if (n < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("polygon needs at least 3 vertices, got ", n));
  }
  if (n > static_cast<size_t>(kMaxPolygonVertices)) {
    return absl::InvalidArgumentError(
        absl::StrCat("polygon has ", n, " vertices, more than the ",
                     kMaxPolygonVertices, " allowed"));
  }
  if (absl::Status status = CheckFinite(vertices); !status.ok()) return status;
  if (absl::Status status = CheckNoEqualNeighbours(vertices); !status.ok()) {
    return status;
  }

  // turn[i] is the cross product of the edges entering and leaving vertex i:
  // its sign says whether the outline turns left (+) or right (-) there.
  std::array<double, kMaxPolygonVertices> turn{};
  for (size_t i = 0; i < n; ++i) {
    const size_t prev = (i + n - 1) % n;
    const size_t next = (i + 1) % n;
    turn[i] = Cross(vertices[i] - vertices[prev], vertices[next] - vertices[i]);
    if (turn[i] == 0.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vertices ", prev, ", ", i, " and ", next, " are collinear"));
    }
  }

  // A convex outline turns the same way everywhere, and that way is the sign
  // of its area. Measuring against the area (rather than against vertex 0)
  // names the reflex vertex even when vertex 0 is the odd one out; a zero
  // area (e.g. a symmetric bow tie) falls back to vertex 0's turn. An
  // outline that crosses itself (a bow tie) fails here too, and is named
  // for that rather than for a vertex: the crossing check runs only on
  // refusal, so a valid polygon costs nothing more.
  const double area2 = TwiceSignedArea(vertices);
  const int winding = area2 != 0.0 ? Sign(area2) : Sign(turn[0]);
  for (size_t i = 0; i < n; ++i) {
    if (Sign(turn[i]) != winding) {
      if (absl::Status crossing = CheckNoCrossing(vertices); !crossing.ok()) {
        return crossing;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("polygon is not convex at vertex ", i));
    }
  }

  // Same-sign turns are not enough: a pentagram turns left at every vertex
  // but goes around twice. The exterior angles of a closed outline sum to
  // 2*pi*k for an integer k, and the outline is a simple convex polygon
  // exactly when k == 1, so comparing against 3*pi leaves a margin of pi
  // for rounding.
  double total_turning = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const size_t prev = (i + n - 1) % n;
    const size_t next = (i + 1) % n;
    const Vec2 in = vertices[i] - vertices[prev];
    const Vec2 out = vertices[next] - vertices[i];
    total_turning += std::atan2(Cross(in, out), Dot(in, out));
  }
  if (std::abs(total_turning) > 3.0 * std::numbers::pi) {
    if (absl::Status crossing = CheckNoCrossing(vertices); !crossing.ok()) {
      return crossing;
    }
    const long winds =
        std::lround(std::abs(total_turning) / (2.0 * std::numbers::pi));
    return absl::InvalidArgumentError(
        absl::StrCat("polygon outline overlaps itself: it winds ", winds,
                     " times around its interior"));
  }

  ConvexPolygon polygon;
  polygon.count = static_cast<int32_t>(n);
  for (size_t i = 0; i < n; ++i) {
    // Clockwise input is reversed so that the interior is on the left of
    // every edge.
    polygon.vertices[i] = winding > 0 ? vertices[i] : vertices[n - 1 - i];
  }
  for (size_t i = 0; i < n; ++i) {
    // Counter-clockwise winding puts the interior to the left of each edge,
    // so the clockwise quarter turn of the edge points out.
    const Vec2 edge = polygon.vertices[(i + 1) % n] - polygon.vertices[i];
    polygon.normals[i] = Normalize(RightPerp(edge));
  }
  return polygon;
}

absl::StatusOr<ConvexPolygon> MakeBox(Vec2 center, Vec2 half_extents,
                                      double angle) {
  if (!IsInRange(center)) {
    return absl::InvalidArgumentError(
        "center is not finite or beyond the coordinate limit of 1e60");
  }
  if (!IsInRange(half_extents) || !(half_extents.x > 0.0) ||
      !(half_extents.y > 0.0)) {
    return absl::InvalidArgumentError(
        "half_extents must be finite and greater than 0");
  }
  if (!std::isfinite(angle)) {
    return absl::InvalidArgumentError("angle is not finite");
  }
  const double cos_angle = std::cos(angle);
  const double sin_angle = std::sin(angle);
  // Corners in the box's frame, counter-clockwise from the lower left; the
  // rotation by angle preserves the winding.
  const std::array<Vec2, 4> local = {{{-half_extents.x, -half_extents.y},
                                      {half_extents.x, -half_extents.y},
                                      {half_extents.x, half_extents.y},
                                      {-half_extents.x, half_extents.y}}};
  std::array<Vec2, 4> corners;
  for (size_t i = 0; i < local.size(); ++i) {
    corners[i] = center + Vec2{cos_angle * local[i].x - sin_angle * local[i].y,
                               sin_angle * local[i].x + cos_angle * local[i].y};
  }
  // Going through the polygon factory keeps its invariants even when the
  // extents are too small to survive rounding against a distant center, or
  // so large that the corners overflow.
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(corners);
  if (!polygon.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("box corners do not form a valid polygon: ",
                     polygon.status().message()));
  }
  return polygon;
}

absl::StatusOr<ConcavePolygon> MakeConcavePolygon(
    absl::Span<const Vec2> vertices) {
  const size_t n = vertices.size();
  if (n < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("polygon needs at least 3 vertices, got ", n));
  }
  if (absl::Status status = CheckFinite(vertices); !status.ok()) return status;
  if (absl::Status status = CheckNoEqualNeighbours(vertices); !status.ok()) {
    return status;
  }
  // Neighbouring edges share a vertex, so they meet there by construction;
  // they overlap further only when the outline reverses along a line (the
  // turn is zero and the edges point in opposite directions).
  for (size_t i = 0; i < n; ++i) {
    const size_t prev = (i + n - 1) % n;
    const size_t next = (i + 1) % n;
    const Vec2 in = vertices[i] - vertices[prev];
    const Vec2 out = vertices[next] - vertices[i];
    if (Cross(in, out) == 0.0 && Dot(in, out) < 0.0) {
      return absl::InvalidArgumentError(
          absl::StrCat("polygon doubles back on itself at vertex ", i));
    }
  }
  // Any contact between edges that are not neighbours, even a single shared
  // point, splits or pinches the interior. Checked before the area: a bow
  // tie's lobes can cancel to zero area, and its crossing is what is wrong.
  // (An outline that doubles back also meets itself; the check above names
  // the vertex where it turns.)
  if (absl::Status crossing = CheckNoCrossing(vertices); !crossing.ok()) {
    return crossing;
  }
  // A simple outline encloses area; a zero here is one too small for the
  // shoelace sum in doubles (a flat one doubles back, found above).
  const double area2 = TwiceSignedArea(vertices);
  if (area2 == 0.0) {
    return absl::InvalidArgumentError("polygon has zero area");
  }
  return ConcavePolygon{.vertices = vertices,
                        .orientation = area2 > 0.0 ? 1.0 : -1.0};
}

Vec2 EdgeNormal(const ConcavePolygon& polygon, int edge) {
  const int n = static_cast<int>(polygon.vertices.size());
  COLLIDE_DCHECK(edge >= 0 && edge < n);
  const Vec2 direction = polygon.vertices[static_cast<size_t>((edge + 1) % n)] -
                         polygon.vertices[static_cast<size_t>(edge)];
  // The clockwise quarter turn points out of a counter-clockwise outline;
  // orientation -1 flips it for a clockwise one.
  return Normalize(polygon.orientation * RightPerp(direction));
}

bool IsValid(Vec2 point) { return IsInRange(point); }

bool IsValid(Segment segment) {
  return IsInRange(segment.p1) && IsInRange(segment.p2);
}

namespace {
bool IsValidRadius(double radius) {
  return radius >= 0.0 && radius <= kMaxCoordinate;
}
}  // namespace

bool IsValid(Circle circle) {
  return IsInRange(circle.center) && IsValidRadius(circle.radius);
}

bool IsValid(const Capsule& capsule) {
  return IsInRange(capsule.p1) && IsInRange(capsule.p2) &&
         IsValidRadius(capsule.radius);
}

bool IsValid(const ConvexPolygon& polygon) {
  if (polygon.count < 3 || polygon.count > kMaxPolygonVertices) return false;
  for (int32_t i = 0; i < polygon.count; ++i) {
    const size_t k = static_cast<size_t>(i);
    if (!IsInRange(polygon.vertices[k]) || !IsFinite(polygon.normals[k])) {
      return false;
    }
  }
  return true;
}

bool IsValid(const ConcavePolygon& polygon) {
  if (polygon.vertices.size() < 3) return false;
  if (polygon.orientation != 1.0 && polygon.orientation != -1.0) return false;
  for (const Vec2& vertex : polygon.vertices) {
    if (!IsInRange(vertex)) return false;
  }
  return true;
}

}  // namespace collide
