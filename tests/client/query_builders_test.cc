// The query builders' turning, swing, hitbox and filter helpers: each sets
// the fields it names and leaves the rest unset, so the server's defaults
// apply.
#include "client/lib/query_builders.h"

#include <vector>

#include "gtest/gtest.h"

namespace collide::client {
namespace {

TEST(WithTurnTest, CastsCarryTheAngleAndPivot) {
  const std::vector<Vec2> box = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const v1::Query capsule =
      WithTurn(CapsuleCast({0, 0}, {2, 0}, 0.5, {3, 0}), 1.5, Vec2{0, 0});
  ASSERT_TRUE(capsule.has_capsule_cast());
  EXPECT_EQ(capsule.capsule_cast().turn().angle(), 1.5);
  ASSERT_TRUE(capsule.capsule_cast().turn().has_pivot());
  EXPECT_EQ(capsule.capsule_cast().turn().pivot().x(), 0);
  EXPECT_EQ(capsule.capsule_cast().capsule().p2().x(), 2);

  const v1::Query polygon = WithTurn(PolygonCast(box, {0, 4}), -7);
  ASSERT_TRUE(polygon.has_polygon_cast());
  EXPECT_EQ(polygon.polygon_cast().turn().angle(), -7);
  EXPECT_FALSE(polygon.polygon_cast().turn().has_pivot());

  const v1::Query circle =
      WithTurn(CircleCast({1, 1}, 0.25, {0, 0}), 3, Vec2{0, 0});
  EXPECT_EQ(circle.circle_cast().turn().angle(), 3);
  EXPECT_EQ(circle.circle_cast().turn().pivot().y(), 0);
}

TEST(WithTurnTest, BuiltQueriesHaveNoTurn) {
  EXPECT_FALSE(
      CapsuleCast({0, 0}, {2, 0}, 0.5, {3, 0}).capsule_cast().has_turn());
  EXPECT_FALSE(CircleCast({0, 0}, 1, {3, 0}).circle_cast().has_turn());
  EXPECT_FALSE(MoveCircle({0, 0}, 1, {3, 0}).move_validation().has_turn());
  EXPECT_FALSE(CircleTarget(1, {0, 0}, 1, {0, 0}).has_turn());
  const v1::Query swing = CapsuleSwing({0, 0}, {0, -2}, 0.1, {0, 0}, {});
  EXPECT_FALSE(swing.hit_validation().swing().has_turn());
}

TEST(WithTurnTest, ARayTurnsAsACircleOfRadiusZero) {
  v1::CastOptions options;
  options.set_max_fraction(0.5);
  const v1::Query turned = WithTurn(
      WithRequestId(RayCast({1, 2}, {3, 4}, options), 9), 0.25, Vec2{0, 0});
  ASSERT_TRUE(turned.has_circle_cast());
  EXPECT_EQ(turned.request_id(), 9u);
  EXPECT_EQ(turned.circle_cast().circle().center().x(), 1);
  EXPECT_EQ(turned.circle_cast().circle().center().y(), 2);
  EXPECT_EQ(turned.circle_cast().circle().radius(), 0);
  EXPECT_EQ(turned.circle_cast().translation().y(), 4);
  EXPECT_EQ(turned.circle_cast().options().max_fraction(), 0.5);
  EXPECT_EQ(turned.circle_cast().turn().angle(), 0.25);

  // No turn: the ray cast as it was.
  EXPECT_TRUE(WithTurn(RayCast({1, 2}, {3, 4}), 0).has_ray_cast());
}

TEST(WithTurnTest, AShotTurnsAsASwingOfItsDisc) {
  const v1::ShotTarget target = CircleTarget(7, {5, 0}, 0.5, {0, 1});
  const v1::Query turned =
      WithTurn(Shot({1, 2}, {0, 0}, 0.3, {&target, 1}), 3.0, Vec2{0, 0});
  const v1::HitValidationQuery& shot = turned.hit_validation();
  ASSERT_TRUE(shot.swing().has_circle());
  EXPECT_EQ(shot.swing().circle().center().x(), 1);
  EXPECT_EQ(shot.swing().circle().center().y(), 2);
  EXPECT_EQ(shot.swing().circle().radius(), 0.3);
  EXPECT_EQ(shot.swing().turn().angle(), 3.0);
  EXPECT_EQ(shot.swing().turn().pivot().x(), 0);
  // A swing leaves origin unset and radius 0, as the server requires.
  EXPECT_FALSE(shot.has_origin());
  EXPECT_EQ(shot.radius(), 0);
  ASSERT_EQ(shot.targets_size(), 1);
  EXPECT_EQ(shot.targets(0).id(), 7u);

  EXPECT_FALSE(
      WithTurn(Shot({1, 2}, {0, 0}, 0.3, {}), 0).hit_validation().has_swing());
}

TEST(WithTurnTest, MovesAndSwingsCarryTheTurn) {
  const v1::Query move = WithTurn(MoveCircle({0, 0}, 1, {1, 0}), 0.5);
  EXPECT_EQ(move.move_validation().turn().angle(), 0.5);
  const v1::Query swing = WithTurn(
      CapsuleSwing({8.5, 0}, {8.5, -2}, 0.1, {0, 0}, {}), 3.0, Vec2{8.5, 0});
  ASSERT_TRUE(swing.hit_validation().swing().has_capsule());
  EXPECT_EQ(swing.hit_validation().swing().turn().angle(), 3.0);
  EXPECT_EQ(swing.hit_validation().swing().turn().pivot().x(), 8.5);
  EXPECT_FALSE(swing.hit_validation().has_origin());
}

TEST(WithTurnTest, QueriesWithoutMotionAreUnchanged) {
  const v1::Query overlap = OverlapCircle({0, 0}, 1);
  EXPECT_EQ(WithTurn(overlap, 1.0).SerializeAsString(),
            overlap.SerializeAsString());
}

TEST(WithTurnTest, TargetsTurn) {
  const v1::ShotTarget door =
      WithTurn(CapsuleTarget(3, {0, 0}, {2, 0}, 0.1, {0, 0}), -1.5, Vec2{0, 0});
  ASSERT_TRUE(door.has_capsule());
  EXPECT_EQ(door.id(), 3u);
  EXPECT_EQ(door.capsule().radius(), 0.1);
  EXPECT_EQ(door.turn().angle(), -1.5);
  EXPECT_EQ(door.turn().pivot().x(), 0);
}

TEST(SwingTest, PolygonSwingAndHitboxesKeepTheirVertices) {
  const std::vector<Vec2> tri = {{0, 0}, {1, 0}, {0, 1}};
  const v1::ShotTarget crate = PolygonTarget(4, tri, {2, 0});
  const v1::Query swing = PolygonSwing(tri, {0, 1}, {&crate, 1});
  const v1::HitValidationQuery& shot = swing.hit_validation();
  ASSERT_EQ(shot.swing().polygon().vertices_size(), 3);
  EXPECT_EQ(shot.swing().polygon().vertices(2).y(), 1);
  EXPECT_EQ(shot.translation().y(), 1);
  ASSERT_EQ(shot.targets_size(), 1);
  EXPECT_EQ(shot.targets(0).polygon().vertices_size(), 3);
  EXPECT_EQ(shot.targets(0).translation().x(), 2);
  EXPECT_FALSE(shot.targets(0).has_turn());
}

TEST(FilterTest, UnsetFieldsStayUnset) {
  const v1::QueryFilter none = Filter({});
  EXPECT_FALSE(none.has_mask_bits());
  EXPECT_FALSE(none.has_category_bits());
  EXPECT_EQ(none.group(), 0);
  EXPECT_EQ(none.ignore_ids_size(), 0);

  const v1::QueryFilter all = Filter(
      {.mask_bits = 5, .category_bits = 2, .group = -3, .ignore_ids = {9}});
  EXPECT_EQ(all.mask_bits(), 5u);
  EXPECT_EQ(all.category_bits(), 2u);
  EXPECT_EQ(all.group(), -3);
  ASSERT_EQ(all.ignore_ids_size(), 1);
  EXPECT_EQ(all.ignore_ids(0), 9u);
  // A zero mask is a value, not "unset".
  EXPECT_TRUE(Filter({.mask_bits = 0}).has_mask_bits());
}

TEST(FilterTest, WithFilterReachesEveryKindThatReadsTheLevel) {
  const v1::QueryFilter filter = Filter({.category_bits = 4, .group = 2});
  const std::vector<Vec2> tri = {{0, 0}, {1, 0}, {0, 1}};
  const std::vector<v1::Query> queries = {
      RayCast({0, 0}, {1, 0}),       CircleCast({0, 0}, 1, {1, 0}),
      PolygonCast(tri, {1, 0}),      CapsuleCast({0, 0}, {1, 0}, 1, {1, 0}),
      OverlapCircle({0, 0}, 1),      ClosestPoint({0, 0}),
      MoveCircle({0, 0}, 1, {1, 0}), Shot({0, 0}, {1, 0}, 0, {})};
  const std::vector<v1::QueryFilter> got = {
      WithFilter(queries[0], filter).ray_cast().options().filter(),
      WithFilter(queries[1], filter).circle_cast().options().filter(),
      WithFilter(queries[2], filter).polygon_cast().options().filter(),
      WithFilter(queries[3], filter).capsule_cast().options().filter(),
      WithFilter(queries[4], filter).overlap().filter(),
      WithFilter(queries[5], filter).closest_point().filter(),
      WithFilter(queries[6], filter).move_validation().filter(),
      WithFilter(queries[7], filter).hit_validation().filter()};
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(queries[i].ShortDebugString());
    EXPECT_EQ(got[i].category_bits(), 4u);
    EXPECT_EQ(got[i].group(), 2);
    EXPECT_FALSE(got[i].has_mask_bits());
  }
  // The options struct is the same filter.
  EXPECT_EQ(WithFilter(queries[6], {.category_bits = 4, .group = 2})
                .move_validation()
                .filter()
                .SerializeAsString(),
            filter.SerializeAsString());
}

TEST(FilterTest, WithFilterReplacesTheFilterAndKeepsTheRest) {
  v1::CastOptions options;
  options.set_max_fraction(0.25);
  options.mutable_filter()->set_mask_bits(1);
  const v1::Query ray =
      WithFilter(RayCast({0, 0}, {1, 0}, options), {.group = -1});
  EXPECT_EQ(ray.ray_cast().options().max_fraction(), 0.25);
  EXPECT_FALSE(ray.ray_cast().options().filter().has_mask_bits());
  EXPECT_EQ(ray.ray_cast().options().filter().group(), -1);
}

}  // namespace
}  // namespace collide::client
