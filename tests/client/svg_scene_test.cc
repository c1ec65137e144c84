// Reading level and query shapes for the SVG renderer: what is drawable,
// and the geometry it becomes.
#include "client/svg/svg_scene.h"

#include <cmath>
#include <limits>
#include <optional>
#include <utility>

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

TEST(ValidationGeometryTest, MoverIsItsShapeWithTheClaimedTranslation) {
  v1::MoveValidationQuery move;
  v1::Capsule* capsule = move.mutable_capsule();
  Set(capsule->mutable_p1(), 1, 2);
  Set(capsule->mutable_p2(), 1, 4);
  capsule->set_radius(0.5);
  Set(move.mutable_translation(), 3, -1);
  const std::optional<CastGeometry> geometry = MoveGeometryOf(move);
  ASSERT_TRUE(geometry.has_value());
  EXPECT_EQ(geometry->shape.kind, WorldShape::Kind::kRounded);
  EXPECT_EQ(geometry->shape.points.size(), 2u);
  EXPECT_EQ(geometry->shape.radius, 0.5);
  EXPECT_EQ(geometry->translation.x, 3);
  EXPECT_EQ(geometry->translation.y, -1);
  EXPECT_FALSE(geometry->is_ray);
  // No mover, or a translation out of range: nothing.
  EXPECT_FALSE(MoveGeometryOf(v1::MoveValidationQuery()).has_value());
  move.mutable_translation()->set_x(std::numeric_limits<double>::quiet_NaN());
  EXPECT_FALSE(MoveGeometryOf(move).has_value());
}

TEST(ValidationGeometryTest, ShotIsARayUnlessItHasARadius) {
  v1::HitValidationQuery shot;
  Set(shot.mutable_origin(), 1, 2);
  Set(shot.mutable_translation(), 10, 0);
  std::optional<CastGeometry> geometry = ShotGeometryOf(shot);
  ASSERT_TRUE(geometry.has_value());
  EXPECT_TRUE(geometry->is_ray);
  EXPECT_EQ(geometry->shape.points.size(), 1u);
  shot.set_radius(0.25);
  geometry = ShotGeometryOf(shot);
  ASSERT_TRUE(geometry.has_value());
  EXPECT_FALSE(geometry->is_ray);
  EXPECT_EQ(geometry->shape.radius, 0.25);
  shot.set_radius(-1);
  EXPECT_FALSE(ShotGeometryOf(shot).has_value());
}

TEST(ValidationGeometryTest, TargetsAndPairShapesNeedTheirShape) {
  v1::ShotTarget target;
  EXPECT_FALSE(TargetGeometryOf(target).has_value());
  v1::Polygon* polygon = target.mutable_polygon();
  for (const auto& [x, y] : {std::pair{0, 0}, {1, 0}, {0, 1}}) {
    Set(polygon->add_vertices(), x, y);
  }
  Set(target.mutable_translation(), 0, -2);
  const std::optional<CastGeometry> hitbox = TargetGeometryOf(target);
  ASSERT_TRUE(hitbox.has_value());
  EXPECT_EQ(hitbox->shape.points.size(), 3u);
  EXPECT_EQ(hitbox->translation.y, -2);

  v1::MovingShape point;
  Set(point.mutable_point(), 1, 1);
  const std::optional<CastGeometry> moving_point = MovingShapeGeometryOf(point);
  ASSERT_TRUE(moving_point.has_value());
  EXPECT_TRUE(moving_point->is_ray);
  v1::MovingShape segment;
  Set(segment.mutable_segment()->mutable_p2(), 0, 3);
  const std::optional<CastGeometry> moving_segment =
      MovingShapeGeometryOf(segment);
  ASSERT_TRUE(moving_segment.has_value());
  EXPECT_FALSE(moving_segment->is_ray);
  EXPECT_EQ(moving_segment->shape.points.size(), 2u);
  EXPECT_EQ(moving_segment->shape.radius, 0.0);
  EXPECT_FALSE(MovingShapeGeometryOf(v1::MovingShape()).has_value());
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
