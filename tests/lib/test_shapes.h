// Small builders and tolerances shared by the lib/ unit tests.
#ifndef COLLIDE_TESTS_LIB_TEST_SHAPES_H_
#define COLLIDE_TESTS_LIB_TEST_SHAPES_H_

#include <initializer_list>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"

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
