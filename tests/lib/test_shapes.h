// Small builders and tolerances shared by the lib/ unit tests.
#ifndef COLLIDE_TESTS_LIB_TEST_SHAPES_H_
#define COLLIDE_TESTS_LIB_TEST_SHAPES_H_

#include <cmath>
#include <initializer_list>
#include <numbers>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "tests/support/splitmix64.h"

namespace collide::testing {

// Answers built from a handful of exact operations agree to this.
inline constexpr double kTolerance = 1e-12;

inline ConvexPolygon Box(Vec2 center, Vec2 half_extents, double angle = 0.0) {
  absl::StatusOr<ConvexPolygon> box = MakeBox(center, half_extents, angle);
  EXPECT_TRUE(box.ok()) << box.status();
  return *box;
}

inline ConvexPolygon Polygon(std::initializer_list<Vec2> vertices) {
  absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(vertices);
  EXPECT_TRUE(polygon.ok()) << polygon.status();
  return *polygon;
}

// A strictly convex polygon of 3 to 8 vertices on a circle of radius
// uni(0.5, 3.5) about a point of [0, 100]^2, evenly spaced angles jittered
// by up to 0.3 of a step.
inline ConvexPolygon RandomConvexPolygon(SplitMix64& rng) {
  const int n = 3 + rng.Below(6);
  const double radius = rng.Uniform(0.5, 3.5);
  const double phase = rng.Uniform(0.0, 2.0 * std::numbers::pi);
  const Vec2 center{rng.Uniform(0.0, 100.0), rng.Uniform(0.0, 100.0)};
  Vec2 vertices[kMaxPolygonVertices];
  for (int i = 0; i < n; ++i) {
    const double angle =
        phase + 2.0 * std::numbers::pi * (i + rng.Uniform(-0.3, 0.3)) / n;
    vertices[i] = center + radius * Vec2{std::cos(angle), std::sin(angle)};
  }
  absl::StatusOr<ConvexPolygon> polygon =
      MakeConvexPolygon(absl::Span<const Vec2>(vertices, n));
  EXPECT_TRUE(polygon.ok()) << polygon.status();
  return *polygon;
}

// The mean of a convex polygon's vertices: a point inside it.
inline Vec2 VertexMean(const ConvexPolygon& polygon) {
  Vec2 sum;
  for (int i = 0; i < polygon.count; ++i) sum = sum + polygon.vertices[i];
  return (1.0 / polygon.count) * sum;
}

// A view of `vertices`, which must outlive it.
inline ConcavePolygon Concave(absl::Span<const Vec2> vertices) {
  absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(vertices);
  EXPECT_TRUE(polygon.ok()) << polygon.status();
  return *polygon;
}

#define EXPECT_VEC2_NEAR(actual, expected, tolerance) \
  do {                                                \
    const ::collide::Vec2 a_ = (actual);              \
    const ::collide::Vec2 e_ = (expected);            \
    EXPECT_NEAR(a_.x, e_.x, tolerance);               \
    EXPECT_NEAR(a_.y, e_.y, tolerance);               \
  } while (0)

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_LIB_TEST_SHAPES_H_
