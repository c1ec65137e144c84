#include <cmath>
#include <optional>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::kTolerance;

// Two moving circles meet when |p(t) - q(t)| = r1 + r2.
TEST(CastMovingTest, TwoCirclesMeetHeadOn) {
  const std::optional<Hit> hit = CastCircle(
      {{{0, 0}, 1}, {10, 0}}, Moving<Circle>{{{10, 0}, 1}, {-10, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  // The point is on the target where the target is then: centre 6, left side 5.
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
}

// Paths that cross are not a collision if the particles pass the
// crossing at different times.
TEST(CastMovingTest, CrossingPathsAtDifferentTimesMiss) {
  // The bullet crosses x = 0 at t = 0.5; the runner is there at t = 0.25.
  const RayInput bullet{{0, -10}, {0, 20}};
  EXPECT_FALSE(CastRay(bullet, Moving<Circle>{{{-5, 0}, 0.5}, {20, 0}}));
  const std::optional<Hit> same_time =
      CastRay(bullet, Moving<Circle>{{{-5, 0}, 0.5}, {10, 0}});
  ASSERT_TRUE(same_time);
}

TEST(CastMovingTest, TargetMovingAwayFasterIsNeverCaught) {
  EXPECT_FALSE(
      CastCircle({{{0, 0}, 1}, {10, 0}}, Moving<Circle>{{{5, 0}, 1}, {20, 0}}));
}

TEST(CastMovingTest, MovingPolygonAgainstMovingPolygon) {
  const PolygonCast cast{Box({0, 0}, {1, 1}), {5, 0}};
  const std::optional<Hit> hit =
      CastPolygon(cast, Moving<ConvexPolygon>{Box({10, 0}, {1, 1}), {-5, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.8, kTolerance);
  EXPECT_NEAR(hit->point.x, 5, kTolerance);
}

TEST(CastMovingTest, BothStillAndApartIsAMiss) {
  EXPECT_FALSE(CastCircle({{{0, 0}, 1}, {3, 0}},
                          Moving<Segment>{{{5, -1}, {5, 1}}, {3, 0}}));
}

TEST(CastMovingTest, RayAgainstMovingSegmentAndCapsule) {
  const RayInput ray{{0, 0}, {10, 0}};
  const std::optional<Hit> segment =
      CastRay(ray, Moving<Segment>{{{10, -1}, {10, 1}}, {-5, 0}});
  ASSERT_TRUE(segment);
  EXPECT_NEAR(segment->fraction, 10.0 / 15.0, kTolerance);
  const std::optional<Hit> capsule =
      CastRay(ray, Moving<Capsule>{{{10, -1}, {10, 1}, 1}, {-5, 0}});
  ASSERT_TRUE(capsule);
  EXPECT_NEAR(capsule->fraction, 9.0 / 15.0, kTolerance);
}

// A ray against a moving box whose relative translation is a double (the
// static cast's closed form answers) and one whose is not (15 + 2^-50 is
// not a double: the general sweep keeps the two translations): the same
// contact, the point carried along with the box.
TEST(CastMovingTest, RayAgainstMovingPolygonWithAndWithoutAnExactRelativeMove) {
  const RayInput ray{{0, 0}, {10, 0}};
  for (const double box_x : {-5.0, -5.0 - std::ldexp(1.0, -50)}) {
    const std::optional<Hit> hit =
        CastRay(ray, Moving<ConvexPolygon>{Box({10, 0}, {1, 1}), {box_x, 0}});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->fraction, 9.0 / 15.0, kTolerance);
    EXPECT_VEC2_NEAR(hit->point, (Vec2{6, 0}), kTolerance);
    EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
    EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
  }
}

}  // namespace
}  // namespace collide
