#include <cmath>
#include <optional>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::Concave;
using testing::kTolerance;

TEST(CastCircleSegmentTest, HeadOnHitStopsOneRadiusShort) {
  const std::optional<Hit> hit =
      CastCircle({{{0, 0}, 0.5}, {10, 0}}, Segment{{5, -1}, {5, 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.45, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
}

TEST(CastCircleSegmentTest, HitsTheCapBeyondTheEnd) {
  // Passing 0.3 above the top end: the cap is met first.
  const std::optional<Hit> hit =
      CastCircle({{{0, 1.3}, 0.5}, {10, 0}}, Segment{{5, -1}, {5, 1}});
  ASSERT_TRUE(hit);
  const double dx = std::sqrt(0.25 - 0.09);
  EXPECT_NEAR(hit->fraction, (5 - dx) / 10, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 1}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 1);
}

// The side condition's right side is C^2 |d - c|^2, not C |q - p|^2. With a
// radius of 2 and a segment of length 4 the wrong form puts the contact at
// distance sqrt(2) instead of 2.
TEST(CastCircleSegmentTest, SideConditionUsesRadiusSquared) {
  const std::optional<Hit> hit =
      CastCircle({{{0, 10}, 2}, {0, -20}}, Segment{{-2, 0}, {2, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 8.0 / 20.0, kTolerance);
}

TEST(CastCircleSegmentTest, GrazingTheCapTangentially) {
  const std::optional<Hit> hit =
      CastCircle({{{0, 1.5}, 0.5}, {10, 0}}, Segment{{5, -1}, {5, 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-7);
  EXPECT_FALSE(
      CastCircle({{{0, 1.5 + 1e-9}, 0.5}, {10, 0}}, Segment{{5, -1}, {5, 1}}));
}

TEST(CastCircleSegmentTest, SlidingAlongAWallItTouchesIsNotAHit) {
  const Segment floor{{-10, 0}, {10, 0}};
  EXPECT_FALSE(CastCircle({{{0, 0.5}, 0.5}, {3, 0}}, floor));  // along
  EXPECT_FALSE(CastCircle({{{0, 0.5}, 0.5}, {3, 1}}, floor));  // leaving
  const std::optional<Hit> into = CastCircle({{{0, 0.5}, 0.5}, {3, -1}}, floor);
  ASSERT_TRUE(into);
  EXPECT_EQ(into->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(into->fraction, 0.0);
  EXPECT_EQ(into->depth, 0.0);
  EXPECT_TRUE(CastCircle({{{0, 0.5}, 0.5}, {3, 1}}, floor,
                         {.stop_at_penetration = true}));
}

// A circle touching only the line of a segment, beyond its end, moving
// along the line with a subnormal component across it: the sign of that
// component decides between leaving, missing and meeting the end, through
// products (2 x 5e-324 and smaller) below double's range.
TEST(CastCircleSegmentTest, ASubnormalAcrossTheLineDecidesTheContact) {
  const Segment wall{{13.5, 0.5}, {16.5, 0.5}};
  const Circle circle{{18.5, 0}, 0.5};
  // Moving away from the end: nothing to meet.
  EXPECT_FALSE(CastCircle({circle, {6.5, 5e-324}}, wall));
  EXPECT_FALSE(CastCircle({circle, {6.5, -5e-324}}, wall));
  // Towards it, tilted away from the line: passes below it, never touching.
  EXPECT_FALSE(CastCircle({circle, {-6.5, -5e-324}}, wall));
  // Towards it, tilted into the line: meets the end when 2 units on.
  const std::optional<Hit> hit = CastCircle({circle, {-6.5, 1e-323}}, wall);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 2.0 / 6.5, 1e-12);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 1);
}

TEST(CastCircleSegmentTest, OverlapIsAHitWhateverTheMotion) {
  const std::optional<Hit> hit =
      CastCircle({{{0, 0.2}, 0.5}, {0, 5}}, Segment{{-10, 0}, {10, 0}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(hit->depth, 0.3, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{0, 1}), kTolerance);
}

TEST(CastCircleSegmentTest, SkinStopsShortAndMovingAwayInsideTheSkinIsFree) {
  const Segment wall{{5, -1}, {5, 1}};
  const std::optional<Hit> hit =
      CastCircle({{{0, 0}, 0.5}, {10, 0}}, wall, {.target_distance = 0.25});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.425, kTolerance);
  // Starting 0.1 from the wall, inside a 0.25 skin.
  const CircleCast near{{{4.4, 0}, 0.5}, {-1, 0}};
  EXPECT_FALSE(CastCircle(near, wall, {.target_distance = 0.25}));
  const std::optional<Hit> closing =
      CastCircle({{{4.4, 0}, 0.5}, {1, 0}}, wall, {.target_distance = 0.25});
  ASSERT_TRUE(closing);
  EXPECT_EQ(closing->status, HitStatus::kHit);
  EXPECT_EQ(closing->fraction, 0.0);
}

TEST(CastCircleSegmentTest, ZeroTranslationAndZeroRadius) {
  EXPECT_FALSE(CastCircle({{{0, 0}, 0.5}, {0, 0}}, Segment{{5, -1}, {5, 1}}));
  const std::optional<Hit> point =
      CastCircle({{{0, 0}, 0}, {10, 0}}, Segment{{5, -1}, {5, 1}});
  ASSERT_TRUE(point);
  EXPECT_NEAR(point->fraction, 0.5, kTolerance);
}

TEST(CastCirclePointTest, MeetsTheVertex) {
  const std::optional<Hit> hit = CastCircle({{{0, 0}, 1}, {10, 0}}, Vec2{5, 0});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
}

TEST(CastCircleCircleTest, SummedRadii) {
  const std::optional<Hit> hit =
      CastCircle({{{0, 0}, 1}, {10, 0}}, Circle{{6, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{5, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kSurface);
}

TEST(CastCircleCircleTest, ConcentricStartIsAnOverlapWithAUnitNormal) {
  const std::optional<Hit> hit =
      CastCircle({{{6, 0}, 1}, {10, 0}}, Circle{{6, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(Length(hit->normal), 1.0, kTolerance);
  EXPECT_NEAR(hit->depth, 2.0, kTolerance);
}

TEST(CastCirclePolygonTest, FaceAndRoundedCorner) {
  const ConvexPolygon box = Box({0, 0}, {1, 1});
  const std::optional<Hit> face = CastCircle({{{-5, 0}, 0.5}, {10, 0}}, box);
  ASSERT_TRUE(face);
  EXPECT_NEAR(face->fraction, 0.35, kTolerance);
  EXPECT_VEC2_NEAR(face->point, (Vec2{-1, 0}), kTolerance);
  const std::optional<Hit> corner =
      CastCircle({{{-5, 1.3}, 0.5}, {10, 0}}, box);
  ASSERT_TRUE(corner);
  EXPECT_NEAR(corner->fraction, (4 - std::sqrt(0.25 - 0.09)) / 10, kTolerance);
  EXPECT_VEC2_NEAR(corner->point, (Vec2{-1, 1}), kTolerance);
  EXPECT_EQ(corner->feature.type, FeatureType::kVertex);
}

TEST(CastCirclePolygonTest, MissPassingTheCorner) {
  EXPECT_FALSE(CastCircle({{{-5, 1.51}, 0.5}, {10, 0}}, Box({0, 0}, {1, 1})));
}

TEST(CastCircleConcaveTest, FitsIntoTheNotchOnlyWhenSmallEnough) {
  const Vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                    {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  const ConcavePolygon polygon = Concave(u);
  const std::optional<Hit> small =
      CastCircle({{{1.5, 5}, 0.25}, {0, -10}}, polygon);
  ASSERT_TRUE(small);
  EXPECT_NEAR(small->fraction, (4 - 0.25) / 10, kTolerance);
  const std::optional<Hit> big = CastCircle({{{1.5, 5}, 1}, {0, -10}}, polygon);
  ASSERT_TRUE(big);
  // The notch is 1 wide: a radius-1 disc rests on the arms' tops at y=3,
  // whose corners it meets at distance 1: centre height sqrt(1-0.25)+3.
  EXPECT_NEAR(big->fraction, (5 - 3 - std::sqrt(0.75)) / 10, kTolerance);
}

}  // namespace
}  // namespace collide
