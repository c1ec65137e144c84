// Shared helpers of the proto <-> lib conversion tests: proto vectors and
// a level with one shape of every kind.
#ifndef COLLIDE_TESTS_FORMATS_CONVERT_TEST_UTIL_H_
#define COLLIDE_TESTS_FORMATS_CONVERT_TEST_UTIL_H_

#include <initializer_list>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "collide/v1/geometry.pb.h"
#include "collide/vec2.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::formats {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline void Set(v1::Vec2* v, double x, double y) {
  v->set_x(x);
  v->set_y(y);
}

inline void AddVertices(google::protobuf::RepeatedPtrField<v1::Vec2>* vertices,
                        std::initializer_list<Vec2> points) {
  for (const Vec2 p : points) Set(vertices->Add(), p.x, p.y);
}

// A level with one shape of every kind, ids 1..7.
inline v1::Level EveryKindLevel() {
  v1::Level level;
  level.set_id("every");
  v1::Shape* segment = level.add_shapes();
  segment->set_id(1);
  Set(segment->mutable_segment()->mutable_p1(), 0, 0);
  Set(segment->mutable_segment()->mutable_p2(), 10, 0);
  v1::Shape* polyline = level.add_shapes();
  polyline->set_id(2);
  AddVertices(polyline->mutable_polyline()->mutable_vertices(),
              {{0, 20}, {5, 25}, {10, 20}});
  v1::Shape* convex = level.add_shapes();
  convex->set_id(3);
  AddVertices(convex->mutable_polygon()->mutable_vertices(),
              {{20, 0}, {24, 0}, {24, 4}, {20, 4}});
  v1::Shape* concave = level.add_shapes();
  concave->set_id(4);
  AddVertices(concave->mutable_polygon()->mutable_vertices(),
              {{30, 0}, {36, 0}, {36, 6}, {33, 3}, {30, 6}});
  v1::Shape* circle = level.add_shapes();
  circle->set_id(5);
  circle->set_category_bits(4);
  circle->set_user_data(55);
  Set(circle->mutable_circle()->mutable_center(), 40, 10);
  circle->mutable_circle()->set_radius(2);
  v1::Shape* box = level.add_shapes();
  box->set_id(6);
  Set(box->mutable_box()->mutable_center(), 50, 10);
  Set(box->mutable_box()->mutable_half_extents(), 1, 2);
  box->mutable_box()->set_angle_radians(0.5);
  v1::Shape* capsule = level.add_shapes();
  capsule->set_id(7);
  Set(capsule->mutable_capsule()->mutable_p1(), 60, 0);
  Set(capsule->mutable_capsule()->mutable_p2(), 60, 10);
  capsule->mutable_capsule()->set_radius(1);
  return level;
}

inline void ExpectError(const absl::Status& status, absl::StatusCode code,
                        const std::string& message_start) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_THAT(std::string(status.message()),
              ::testing::StartsWith(message_start));
}

}  // namespace collide::formats

#endif  // COLLIDE_TESTS_FORMATS_CONVERT_TEST_UTIL_H_
