// Six degenerate cases through the service, as a new user would send them:
// levels put over the admin port of a real collide_server, queries over
// gRPC with the client library, coordinates exactly as they were reported.
// The expected answers are the exact ones (tests/lib/oracle); the library's
// own tests of the same cases are under tests/lib/.
#include <initializer_list>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gtest/gtest.h"
#include "tests/client/test_server.h"

namespace collide::client {
namespace {

constexpr double kSweepTolerance = 1e-9;

void AddSegment(v1::Level& level, uint64_t id, Vec2 p1, Vec2 p2) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  *shape->mutable_segment()->mutable_p1() = ToProto(p1);
  *shape->mutable_segment()->mutable_p2() = ToProto(p2);
}

v1::MovingShape MovingPoint(Vec2 point, Vec2 translation) {
  v1::MovingShape shape;
  *shape.mutable_point() = ToProto(point);
  *shape.mutable_translation() = ToProto(translation);
  return shape;
}

v1::MovingShape MovingSegment(Vec2 p1, Vec2 p2, Vec2 translation) {
  v1::MovingShape shape;
  *shape.mutable_segment()->mutable_p1() = ToProto(p1);
  *shape.mutable_segment()->mutable_p2() = ToProto(p2);
  *shape.mutable_translation() = ToProto(translation);
  return shape;
}

v1::MovingShape MovingCircle(Vec2 center, double radius, Vec2 translation) {
  v1::MovingShape shape;
  *shape.mutable_circle()->mutable_center() = ToProto(center);
  shape.mutable_circle()->set_radius(radius);
  *shape.mutable_translation() = ToProto(translation);
  return shape;
}

v1::Query PairToi(v1::MovingShape a, v1::MovingShape b) {
  v1::Query query;
  *query.mutable_pair_toi()->mutable_a() = std::move(a);
  *query.mutable_pair_toi()->mutable_b() = std::move(b);
  return query;
}

class DegenerateExamplesE2eTest : public testing::ServerAndClientTest {
 protected:
  // The one answer to `query` on `level` (pair TOI reads no level).
  v1::QueryResult Run(const std::string& level, const v1::Query& query) {
    absl::StatusOr<v1::QueryResult> result = client_->RunQuery(level, query);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : v1::QueryResult();
  }
};

TEST_F(DegenerateExamplesE2eTest, LeavingABoxCornerIsNoHit) {
  v1::Level level;
  v1::Shape* box = level.add_shapes();
  box->set_id(1);
  for (const Vec2 v : {Vec2{-1, 0}, Vec2{2, 0}, Vec2{2, -2}, Vec2{-1, -2}}) {
    *box->mutable_polygon()->add_vertices() = ToProto(v);
  }
  ASSERT_TRUE(client_->PutLevel("box", level).ok());
  const v1::QueryResult away =
      Run("box", RayCast({2, -2}, {0.024674816398394084, 3.0}));
  EXPECT_EQ(away.cast().hits_size(), 0);
  // Into the corner's cone the same start is an overlap.
  const v1::QueryResult in = Run("box", RayCast({2, -2}, {-1, 1}));
  ASSERT_EQ(in.cast().hits_size(), 1);
  EXPECT_EQ(in.cast().hits(0).status(), v1::HIT_STATUS_INITIAL_OVERLAP);
}

TEST_F(DegenerateExamplesE2eTest, CollinearPairMeetsTheNearEnd) {
  const v1::QueryResult first =
      Run("levels/arena", PairToi(MovingPoint({19, 20}, {-15, -25.5}),
                                  MovingSegment({5, 5}, {-2, -2.5}, {6, -3})));
  ASSERT_TRUE(first.pair_toi().hit());
  EXPECT_NEAR(first.pair_toi().fraction(), 2.0 / 3.0, kSweepTolerance);
  EXPECT_NEAR(first.pair_toi().point().x(), 9.0, 1e-9);
  EXPECT_NEAR(first.pair_toi().point().y(), 3.0, 1e-9);
  const v1::QueryResult second =
      Run("levels/arena", PairToi(MovingPoint({13.5, 28}, {-16.5, -22}),
                                  MovingSegment({2.5, 8}, {-3, -2}, {0, 8})));
  ASSERT_TRUE(second.pair_toi().hit());
  EXPECT_NEAR(second.pair_toi().fraction(), 2.0 / 3.0, kSweepTolerance);
}

TEST_F(DegenerateExamplesE2eTest, MoveEndingOnAWallHitsAtOne) {
  v1::Level level;
  AddSegment(level, 1, {-7, -2.5}, {3, -1.5});
  ASSERT_TRUE(client_->PutLevel("wall", level).ok());
  const v1::QueryResult result =
      Run("wall", CircleCast({-11, 11}, 0, {9, -13}));
  ASSERT_EQ(result.cast().hits_size(), 1);
  EXPECT_EQ(result.cast().hits(0).fraction(), 1.0);
  EXPECT_EQ(result.cast().hits(0).point().x(), -2.0);
  EXPECT_EQ(result.cast().hits(0).point().y(), -2.0);
}

TEST_F(DegenerateExamplesE2eTest, LongTranslationHitsEarly) {
  v1::Level level;
  AddSegment(level, 1, {0, 0}, {10, 0});
  ASSERT_TRUE(client_->PutLevel("floor", level).ok());
  const v1::QueryResult result = Run("floor", RayCast({5, 5}, {0, -1e15}));
  ASSERT_EQ(result.cast().hits_size(), 1);
  EXPECT_EQ(result.cast().hits(0).status(), v1::HIT_STATUS_HIT);
  EXPECT_NEAR(result.cast().hits(0).fraction(), 5e-15, 1e-9 * 5e-15);
}

TEST_F(DegenerateExamplesE2eTest, BulletStopsAtTheNearParallelWall) {
  v1::Level level;
  AddSegment(level, 0, {-3.5, -7}, {-10.5, -7});
  AddSegment(level, 1, {1, -4.5}, {-3, 3});
  AddSegment(level, 2, {-1.5, 2}, {3.5, -1});
  AddSegment(level, 3, {1.5, 6}, {-4.5, -3});
  ASSERT_TRUE(client_->PutLevel("walls", level).ok());
  const v1::QueryResult result =
      Run("walls", RayCast({1.273500981126145, 5.660251471689218},
                           {-4.437601569801826, -6.656402354702753}));
  ASSERT_EQ(result.cast().hits_size(), 1);
  EXPECT_EQ(result.cast().hits(0).shape_id(), 3u);
  EXPECT_NEAR(result.cast().hits(0).fraction(), 1.0 / 32.0, kSweepTolerance);
}

TEST_F(DegenerateExamplesE2eTest, GrazingMovingCirclesTouch) {
  const v1::QueryResult result =
      Run("levels/arena",
          PairToi(MovingCircle({-7.406748571685833, -5.778605592869641},
                               1.6575699154286776,
                               {-5.705355716669796, -14.901338091281627}),
                  MovingCircle({-3.4067485716858332, -2.2553704895676185},
                               1.8656651878733452,
                               {-17.705355716669796, -14.901338091281627})));
  ASSERT_TRUE(result.pair_toi().hit());
  EXPECT_EQ(result.pair_toi().status(), v1::HIT_STATUS_HIT);
  EXPECT_NEAR(result.pair_toi().fraction(), 0.3333333300370403,
              kSweepTolerance);
}

TEST_F(DegenerateExamplesE2eTest, TinyMotionIsExactDownToTheLeastMagnitude) {
  // A ray crossing the floor through the origin at half its sweep. At the
  // service's least magnitude (1e-60) the answer is exact; 2e-200 (whose
  // square underflows) is refused, naming the field, and the server goes on
  // answering.
  v1::Level level;
  AddSegment(level, 1, {-1, 0}, {1, 0});
  ASSERT_TRUE(client_->PutLevel("origin-floor", level).ok());
  const v1::QueryResult least =
      Run("origin-floor", RayCast({0, -1e-60}, {0, 2e-60}));
  ASSERT_EQ(least.cast().hits_size(), 1);
  EXPECT_EQ(least.cast().hits(0).fraction(), 0.5);
  const absl::StatusOr<v1::QueryResult> below =
      client_->RunQuery("origin-floor", RayCast({0, -1e-200}, {0, 2e-200}));
  EXPECT_EQ(below.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(below.status().message(),
            "queries[0].ray_cast.origin.y must be 0 or at least 1e-60 in "
            "magnitude, got -1e-200");
  EXPECT_EQ(Run("origin-floor", RayCast({0.5, 1}, {0, -2})).cast().hits_size(),
            1);
}

// Move validation on an integer grid: a crate and a disc resting exactly
// on a floor of unit tiles slide along it across every seam (each next
// tile's corner only touches them), and stop at a wall standing on it.
TEST_F(DegenerateExamplesE2eTest, RestingMoversSlideAcrossTileSeams) {
  v1::Level level;
  for (int k = -3; k < 6; ++k) {
    v1::Shape* tile = level.add_shapes();
    tile->set_id(static_cast<uint64_t>(10 + k));
    *tile->mutable_box()->mutable_center() = ToProto({k + 0.5, -0.5});
    *tile->mutable_box()->mutable_half_extents() = ToProto({0.5, 0.5});
  }
  v1::Shape* wall = level.add_shapes();
  wall->set_id(99);
  *wall->mutable_box()->mutable_center() = ToProto({3.5, 1});
  *wall->mutable_box()->mutable_half_extents() = ToProto({0.5, 1});
  ASSERT_TRUE(client_->PutLevel("tiles", level).ok());
  v1::Query crate;
  for (const Vec2 v :
       {Vec2{-1.8, 0}, Vec2{-1.2, 0}, Vec2{-1.2, 0.6}, Vec2{-1.8, 0.6}}) {
    *crate.mutable_move_validation()->mutable_polygon()->add_vertices() =
        ToProto(v);
  }
  crate.mutable_move_validation()->set_max_slide_iterations(4);
  for (v1::Query query : {MoveCircle({-1.5, 0.3}, 0.3, {0, 0}, 0, 4), crate}) {
    // Along the floor, short of the wall: allowed.
    *query.mutable_move_validation()->mutable_translation() = ToProto({4, 0});
    const v1::QueryResult along = Run("tiles", query);
    EXPECT_EQ(along.move_validation().verdict(), v1::MOVE_VERDICT_ALLOWED);
    EXPECT_TRUE(along.move_validation().claimed_end_reachable());
    // On into the wall at x = 3: blocked there, not at a seam.
    *query.mutable_move_validation()->mutable_translation() = ToProto({6, 0});
    const v1::QueryResult into = Run("tiles", query);
    EXPECT_EQ(into.move_validation().verdict(), v1::MOVE_VERDICT_BLOCKED);
    EXPECT_EQ(into.move_validation().first_hit().shape_id(), 99u);
    EXPECT_NEAR(into.move_validation().safe_translation().x(), 4.2, 1e-9);
  }
}

}  // namespace
}  // namespace collide::client
