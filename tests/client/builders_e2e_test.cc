// Queries made only with the client library's builders (query_builders.h,
// visibility_builders.h) against the real server: a fog-of-war tick on the
// bundled arena, a sword swing and a turning blade cast against a wall,
// and the two-way filter, each checked against an answer worked out by
// hand.
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "client/lib/visibility_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/test_server.h"

namespace collide::client {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr double kPi = std::numbers::pi;
// The known answers are exact in real numbers; the server computes in
// double, and a turning contact's fraction starts a certified bracket of
// width at most 2^-30.
constexpr double kTolerance = 1e-9;

// The swing level: the wall x = 10, -5 <= y <= 5 (shape 1), and the wall
// x = -10 (shape 2) that blocks only queries of category 2 (its
// mask_bits) and never one of its own negative group -5.
v1::Level SwingLevel() {
  v1::Level level;
  v1::Shape* wall = level.add_shapes();
  wall->set_id(1);
  *wall->mutable_segment()->mutable_p1() = ToProto({10, -5});
  *wall->mutable_segment()->mutable_p2() = ToProto({10, 5});
  v1::Shape* gate = level.add_shapes();
  gate->set_id(2);
  *gate->mutable_segment()->mutable_p1() = ToProto({-10, -5});
  *gate->mutable_segment()->mutable_p2() = ToProto({-10, 5});
  gate->set_mask_bits(2);
  gate->set_group(-5);
  return level;
}

class BuildersE2eTest : public testing::ServerAndClientTest {};

// On the arena (server/levels/default_level.cc), which enemies each player
// sees, by one query for every player; the filter counts only category 1,
// so the glass pane (shape 60, category 2, x = 14, -8 <= y <= -2) blocks
// shots but not sight.
TEST_F(BuildersE2eTest, FogOfWarTickAnswersPerViewer) {
  const v1::Viewer players[] = {
      // All round within 20: enemy 0 is behind the pillar at (10, 0),
      // enemy 3 behind the one at (-10, 0); 1 and 2 are in the open.
      Viewer({5, 2}, {.range = 20}),
      // Facing west, 30 degrees either side, any distance: enemy 2 dead
      // ahead through the glass; 0 and 1 are outside the cone, 3 is inside
      // it behind the pillar at (-10, 0).
      Viewer({17, -5}, {.cone = ViewCone({-1, 0}, kPi / 6)}),
      // All round within 16: enemy 3; 1 is behind the barrier along
      // y = 12, 0 and 2 are out of range.
      Viewer({-15, 5}, {.range = 16})};
  const v1::VisibilityTarget enemies[] = {
      PointTarget({15, 0}), PointTarget({-6, 15}), DiscTarget({10, -5}, 0.5),
      PointTarget({-12, 0})};
  const v1::Query tick = Visibility(players, enemies, Filter({.mask_bits = 1}));
  absl::StatusOr<v1::QueryResult> seen = client_->RunQuery("arena", tick);
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_THAT(VisibleSets(seen->visibility()),
              ElementsAre(ElementsAre(1, 2), ElementsAre(2), ElementsAre(3)));
  EXPECT_TRUE(Sees(seen->visibility(), 1, 2));
  EXPECT_FALSE(Sees(seen->visibility(), 1, 3));

  // Without the filter the glass blocks the sniper's view of enemy 2.
  absl::StatusOr<v1::QueryResult> unfiltered =
      client_->RunQuery("arena", Visibility(players, enemies));
  ASSERT_TRUE(unfiltered.ok()) << unfiltered.status();
  EXPECT_FALSE(Sees(unfiltered->visibility(), 1, 2));

  // No targets: one empty row per player.
  absl::StatusOr<v1::QueryResult> nobody =
      client_->RunQuery("arena", Visibility(players, {}));
  ASSERT_TRUE(nobody.ok()) << nobody.status();
  EXPECT_THAT(VisibleSets(nobody->visibility(), 3),
              ElementsAre(IsEmpty(), IsEmpty(), IsEmpty()));
}

// The scout's view within 3: the crate around (5, 5) (shape 20, half-size
// 1) is the only shape that near; its near corners are the polygon's level
// vertices, (6, 4) first (counter-clockwise from +x), and every other
// vertex lies on the range circle.
TEST_F(BuildersE2eTest, VisibilityPolygonShowsTheCratesNearCorners) {
  absl::StatusOr<v1::QueryResult> view =
      client_->RunQuery("arena", VisibilityPolygon({5, 2}, 3));
  ASSERT_TRUE(view.ok()) << view.status();
  const v1::VisibilityPolygonResult& polygon = view->visibility_polygon();
  const std::vector<Vec2> points = PolygonPoints(polygon);
  ASSERT_EQ(points.size(), static_cast<size_t>(polygon.vertices_size()));
  ASSERT_GT(points.size(), 3u);
  std::vector<Vec2> corners;
  for (int i = 0; i < polygon.vertices_size(); ++i) {
    if (polygon.vertices(i).kind() == v1::VISIBILITY_VERTEX_KIND_LEVEL_VERTEX) {
      EXPECT_EQ(polygon.vertices(i).shape_id(), 20u);
      corners.push_back(points[i]);
    } else {
      EXPECT_NEAR(std::hypot(points[i].x - 5, points[i].y - 2), 3, kTolerance)
          << "vertex " << i;
    }
  }
  ASSERT_EQ(corners.size(), 2u);
  EXPECT_EQ(corners[0].x, 6);
  EXPECT_EQ(corners[0].y, 4);
  EXPECT_EQ(corners[1].x, 4);
  EXPECT_EQ(corners[1].y, 4);
}

// A sword: a blade from the hand at (8.5, 0) to (8.5, -2), radius 0.1,
// turning a half turn counter-clockwise about the hand during the tick.
// Target 7 (a disc of radius 0.25 at 1.2 from the hand, 60 degrees below
// +x) is met when the blade's axis is asin(0.35 / 1.2) short of it:
// fraction 1/6 - asin(0.35 / 1.2) / pi. Target 8 (60 degrees above +x)
// lies beyond the wall x = 10, which the blade's rim reaches first
// (2 sin(phi) + 0.1 = 1.5): fraction asin(0.7) / pi.
TEST_F(BuildersE2eTest, SwordSwingHitsTheTargetBeforeTheWall) {
  ASSERT_TRUE(client_->PutLevel("swing", SwingLevel()).ok());
  const Vec2 hand = {8.5, 0};
  auto at = [&](double degrees) {
    const double angle = degrees * kPi / 180;
    return Vec2{hand.x + 1.2 * std::cos(angle), hand.y + 1.2 * std::sin(angle)};
  };
  const v1::ShotTarget both[] = {CircleTarget(8, at(60), 0.25, {0, 0}),
                                 CircleTarget(7, at(-60), 0.25, {0, 0})};
  const v1::Query swing =
      WithTurn(CapsuleSwing(hand, {8.5, -2}, 0.1, {0, 0}, both), kPi, hand);
  absl::StatusOr<v1::QueryResult> hit = client_->RunQuery("swing", swing);
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(hit->hit_validation().outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(hit->hit_validation().id(), 7u);
  EXPECT_EQ(hit->hit_validation().target_index(), 1);
  EXPECT_NEAR(hit->hit_validation().fraction(),
              1.0 / 6 - std::asin(0.35 / 1.2) / kPi, kTolerance);
  EXPECT_EQ(hit->hit_validation().turn().status(), v1::TURN_STATUS_HIT);

  // Without target 7 the wall stops the blade before it reaches target 8.
  const v1::Query blocked = WithTurn(
      CapsuleSwing(hand, {8.5, -2}, 0.1, {0, 0}, {&both[0], 1}), kPi, hand);
  absl::StatusOr<v1::QueryResult> wall = client_->RunQuery("swing", blocked);
  ASSERT_TRUE(wall.ok()) << wall.status();
  EXPECT_EQ(wall->hit_validation().outcome(), v1::SHOT_OUTCOME_WALL);
  EXPECT_EQ(wall->hit_validation().id(), 1u);
  EXPECT_NEAR(wall->hit_validation().fraction(), std::asin(0.7) / kPi,
              kTolerance);

  // The same blade as a turning capsule cast meets the wall at the same
  // fraction, with its certified bracket.
  absl::StatusOr<v1::QueryResult> cast = client_->RunQuery(
      "swing", WithTurn(CapsuleCast(hand, {8.5, -2}, 0.1, {0, 0}), kPi, hand));
  ASSERT_TRUE(cast.ok()) << cast.status();
  ASSERT_EQ(cast->cast().hits_size(), 1);
  const v1::CastHit& first = cast->cast().hits(0);
  EXPECT_EQ(first.shape_id(), 1u);
  EXPECT_NEAR(first.fraction(), std::asin(0.7) / kPi, kTolerance);
  EXPECT_EQ(first.turn().status(), v1::TURN_STATUS_HIT);
  EXPECT_GE(first.turn().fraction_hi(), first.fraction());
  EXPECT_LE(first.turn().fraction_hi() - first.fraction(), std::ldexp(1, -30));

  // Turning the other way the blade swings away from the wall and the
  // targets: a miss.
  absl::StatusOr<v1::QueryResult> away = client_->RunQuery(
      "swing", WithTurn(CapsuleSwing(hand, {8.5, -2}, 0.1, {0, 0}, both),
                        -kPi / 4, hand));
  ASSERT_TRUE(away.ok()) << away.status();
  EXPECT_EQ(away->hit_validation().outcome(), v1::SHOT_OUTCOME_MISS);
}

// The wall x = -10 blocks only queries of category 2, and never those of
// its own negative group.
TEST_F(BuildersE2eTest, TwoWayFilterDecidesWhichQueriesAWallBlocks) {
  ASSERT_TRUE(client_->PutLevel("swing", SwingLevel()).ok());
  const v1::Query west = RayCast({0, 0}, {-20, 0});
  const v1::Query queries[] = {
      west, WithFilter(west, {.category_bits = 2}),
      WithFilter(west, {.category_bits = 2, .group = -5}),
      WithFilter(MoveCircle({0, 0}, 1, {-20, 0}), {.category_bits = 3})};
  absl::StatusOr<v1::RunQueriesResponse> answers =
      client_->RunQueries("swing", queries);
  ASSERT_TRUE(answers.ok()) << answers.status();
  ASSERT_EQ(answers->results_size(), 4);
  EXPECT_EQ(answers->results(0).cast().hits_size(), 0);
  ASSERT_EQ(answers->results(1).cast().hits_size(), 1);
  EXPECT_EQ(answers->results(1).cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(answers->results(1).cast().hits(0).fraction(), 0.5);
  EXPECT_EQ(answers->results(2).cast().hits_size(), 0);
  EXPECT_EQ(answers->results(3).move_validation().verdict(),
            v1::MOVE_VERDICT_BLOCKED);
}

}  // namespace
}  // namespace collide::client
