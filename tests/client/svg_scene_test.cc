// Reading level and query shapes for the SVG renderer: what is drawable,
// and the geometry it becomes.
#include "client/svg_scene.h"

#include <cmath>
#include <limits>
#include <optional>

#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "gtest/gtest.h"

namespace collide::client::svg_internal {
namespace {

constexpr double kTolerance = 1e-12;

void Set(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

TEST(LevelShapeGeometryTest, BoxBecomesItsRotatedCorners) {
  v1::Shape shape;
  v1::Box* box = shape.mutable_box();
  Set(box->mutable_center(), 1, 2);
  Set(box->mutable_half_extents(), 3, 1);
  box->set_angle_radians(M_PI / 2);
  const std::optional<WorldShape> geometry = LevelShapeGeometry(shape);
  ASSERT_TRUE(geometry.has_value());
  EXPECT_EQ(geometry->kind, WorldShape::Kind::kPolygon);
  ASSERT_EQ(geometry->points.size(), 4u);
  // The lower-left corner (-3, -1) turned a quarter: (1, -3) from the centre.
  EXPECT_NEAR(geometry->points[0].x, 1 + 1, kTolerance);
  EXPECT_NEAR(geometry->points[0].y, 2 - 3, kTolerance);
}

TEST(LevelShapeGeometryTest, KindsMapToChainsPolygonsAndRoundedShapes) {
  v1::Shape segment;
  Set(segment.mutable_segment()->mutable_p2(), 1, 0);
  EXPECT_EQ(LevelShapeGeometry(segment)->kind, WorldShape::Kind::kChain);
  v1::Shape capsule;
  capsule.mutable_capsule()->set_radius(2);
  const std::optional<WorldShape> rounded = LevelShapeGeometry(capsule);
  ASSERT_TRUE(rounded.has_value());
  EXPECT_EQ(rounded->kind, WorldShape::Kind::kRounded);
  EXPECT_EQ(rounded->points.size(), 2u);
  EXPECT_EQ(rounded->radius, 2);
  v1::Shape closed;
  closed.mutable_polyline()->set_closed(true);
  for (int i = 0; i < 3; ++i) {
    Set(closed.mutable_polyline()->add_vertices(), i, i * i);
  }
  const std::optional<WorldShape> chain = LevelShapeGeometry(closed);
  ASSERT_TRUE(chain.has_value());
  EXPECT_TRUE(chain->closed);
}

TEST(LevelShapeGeometryTest, UndrawableShapesGiveNothing) {
  EXPECT_FALSE(LevelShapeGeometry(v1::Shape()).has_value());  // no geometry
  v1::Shape nan_circle;
  Set(nan_circle.mutable_circle()->mutable_center(),
      std::numeric_limits<double>::quiet_NaN(), 0);
  EXPECT_FALSE(LevelShapeGeometry(nan_circle).has_value());
  v1::Shape negative;
  negative.mutable_circle()->set_radius(-1);
  EXPECT_FALSE(LevelShapeGeometry(negative).has_value());
  v1::Shape too_far;
  Set(too_far.mutable_segment()->mutable_p1(), 1e61, 0);
  EXPECT_FALSE(LevelShapeGeometry(too_far).has_value());
  v1::Shape short_closed;
  short_closed.mutable_polyline()->set_closed(true);
  Set(short_closed.mutable_polyline()->add_vertices(), 0, 0);
  Set(short_closed.mutable_polyline()->add_vertices(), 1, 0);
  EXPECT_FALSE(LevelShapeGeometry(short_closed).has_value());
  v1::Shape two_vertex_polygon;
  Set(two_vertex_polygon.mutable_polygon()->add_vertices(), 0, 0);
  Set(two_vertex_polygon.mutable_polygon()->add_vertices(), 1, 0);
  EXPECT_FALSE(LevelShapeGeometry(two_vertex_polygon).has_value());
}

TEST(CastGeometryOfTest, EachCastKindGivesItsShapeAndTranslation) {
  v1::Query ray;
  Set(ray.mutable_ray_cast()->mutable_origin(), 1, 2);
  Set(ray.mutable_ray_cast()->mutable_translation(), 3, 4);
  const std::optional<CastGeometry> ray_geometry = CastGeometryOf(ray);
  ASSERT_TRUE(ray_geometry.has_value());
  EXPECT_TRUE(ray_geometry->is_ray);
  EXPECT_EQ(ray_geometry->shape.points.size(), 1u);
  EXPECT_EQ(ray_geometry->translation, (Vec2{3, 4}));

  v1::Query circle;
  circle.mutable_circle_cast()->mutable_circle()->set_radius(0.5);
  const std::optional<CastGeometry> circle_geometry = CastGeometryOf(circle);
  ASSERT_TRUE(circle_geometry.has_value());
  EXPECT_FALSE(circle_geometry->is_ray);
  EXPECT_EQ(circle_geometry->shape.radius, 0.5);

  v1::Query polygon;
  for (int i = 0; i < 3; ++i) {
    Set(polygon.mutable_polygon_cast()->mutable_polygon()->add_vertices(), i,
        i % 2);
  }
  EXPECT_EQ(CastGeometryOf(polygon)->shape.points.size(), 3u);

  v1::Query capsule;
  capsule.mutable_capsule_cast()->mutable_capsule()->set_radius(1);
  EXPECT_EQ(CastGeometryOf(capsule)->shape.points.size(), 2u);
}

TEST(CastGeometryOfTest, OtherKindsAndBadNumbersGiveNothing) {
  v1::Query overlap;
  overlap.mutable_overlap()->mutable_circle();
  EXPECT_FALSE(CastGeometryOf(overlap).has_value());
  EXPECT_FALSE(CastGeometryOf(v1::Query()).has_value());
  v1::Query infinite;
  Set(infinite.mutable_ray_cast()->mutable_translation(),
      std::numeric_limits<double>::infinity(), 0);
  EXPECT_FALSE(CastGeometryOf(infinite).has_value());
}

TEST(OverlapShapeOfTest, ShapeOrNothing) {
  v1::OverlapQuery overlap;
  EXPECT_FALSE(OverlapShapeOf(overlap).has_value());
  overlap.mutable_capsule()->set_radius(1);
  const std::optional<WorldShape> shape = OverlapShapeOf(overlap);
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->points.size(), 2u);
}

TEST(BoundsTest, UnionWithTheEmptyBoxIsTheOtherBox) {
  const Aabb box = {{1, 2}, {3, 4}};
  EXPECT_TRUE(IsEmpty(EmptyBox()));
  const Aabb both = Union(EmptyBox(), box);
  EXPECT_EQ(both.lower, box.lower);
  EXPECT_EQ(both.upper, box.upper);
  WorldShape circle{
      .kind = WorldShape::Kind::kRounded, .points = {{5, 5}}, .radius = 2};
  EXPECT_EQ(BoundsOf(circle).lower, (Vec2{3, 3}));
  EXPECT_EQ(BoundsOf(Translated(circle, {1, 0})).upper, (Vec2{8, 7}));
}

}  // namespace
}  // namespace collide::client::svg_internal
