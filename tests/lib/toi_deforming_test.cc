#include <cmath>
#include <optional>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::kTolerance;

TEST(CastRayDeformingTest, StaticSegmentMatchesTheSegmentCast) {
  const Segment wall{{5, -1}, {5, 1}};
  const RayInput ray{{0, 0.25}, {10, 0}};
  const std::optional<Hit> deforming =
      CastRay(ray, DeformingSegment{wall, wall});
  const std::optional<Hit> rigid = CastRay(ray, wall);
  ASSERT_TRUE(deforming && rigid);
  EXPECT_NEAR(deforming->fraction, rigid->fraction, kTolerance);
  EXPECT_VEC2_NEAR(deforming->normal, rigid->normal, kTolerance);
}

TEST(CastRayDeformingTest, TurningSegmentSweepsOverAStillPoint) {
  // The segment turns about the origin from lying along +x to along +y; a
  // point at (1, 1) is met when the segment points at 45 degrees. The
  // endpoints move linearly, so contact is where (2 - 2t, 2t) is parallel
  // to (1, 1): t = 0.5.
  const DeformingSegment segment{{{0, 0}, {2, 0}}, {{0, 0}, {0, 2}}};
  const std::optional<Hit> hit = CastRay({{1, 1}, {0, 0}}, segment);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{1, 1}), kTolerance);
  // The segment came from below-right, so the point was on its left side.
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-std::sqrt(0.5), std::sqrt(0.5)}), 1e-12);
}

TEST(CastRayDeformingTest, TheQuadraticsSecondRootIsUsedWhenTheFirstMisses) {
  // The far end passes the point's line first (outside the segment); the
  // contact within the segment is the other root.
  const DeformingSegment segment{{{0, 0}, {1, 0}}, {{0, 0}, {0, 4}}};
  const std::optional<Hit> hit = CastRay({{0.25, 0.5}, {0, 0}}, segment);
  ASSERT_TRUE(hit);
  // (1 - t, 4t) parallel to (0.25, 0.5): 0.5 (1 - t) = 0.25 * 4t -> t = 1/3.
  EXPECT_NEAR(hit->fraction, 1.0 / 3.0, kTolerance);
}

// A segment that shrinks to a point on the path is a point contact (no
// division by the zero-length segment's direction).
TEST(CastRayDeformingTest, SegmentShrinkingToAPointIsAPointContact) {
  const DeformingSegment segment{{{4, -1}, {4, 1}}, {{6, 0}, {6, 0}}};
  // Both ends reach (6, 0) at t = 1, where the point arrives too.
  const std::optional<Hit> hit = CastRay({{0, 0}, {6, 0}}, segment);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 1.0, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{6, 0}), kTolerance);
}

TEST(CastRayDeformingTest, CollinearMotionReachesTheNearEnd) {
  const DeformingSegment segment{{{4, 0}, {6, 0}}, {{3, 0}, {5, 0}}};
  // Slow: the point at 2t would meet the near end at 4 - t when t = 4/3.
  EXPECT_FALSE(CastRay({{0, 0}, {2, 0}}, segment));
  const std::optional<Hit> fast = CastRay({{0, 0}, {5, 0}}, segment);
  ASSERT_TRUE(fast);
  EXPECT_NEAR(fast->fraction, 4.0 / 6.0, kTolerance);  // 5t = 4 - t
  EXPECT_EQ(fast->feature.type, FeatureType::kVertex);
  EXPECT_VEC2_NEAR(fast->normal, (Vec2{-1, 0}), kTolerance);
}

TEST(CastRayDeformingTest, MissWhenThePointPassesBeyondTheEnds) {
  const DeformingSegment segment{{{5, -1}, {5, 1}}, {{5, -1}, {5, 1}}};
  EXPECT_FALSE(CastRay({{0, 2}, {10, 0}}, segment));
}

TEST(CastRayDeformingTest, TinyCoordinatesKeepTheExactTime) {
  // Scaling every coordinate by a power of two keeps the exact answer. At
  // 2^-540 the filter's products fell under the normal range, where
  // rounding is absolute: it certified t = 1/3 for a contact at 0.3428.
  const auto scaled = [](Vec2 p, int exponent) {
    return Vec2{std::ldexp(p.x, exponent), std::ldexp(p.y, exponent)};
  };
  const Vec2 origin{2, 6}, translation{-12, -10};
  const Segment start{{12, -1}, {-11, -3}}, end{{12, 13}, {-11, 11}};
  const std::optional<Hit> unscaled =
      CastRay({origin, translation}, DeformingSegment{start, end});
  ASSERT_TRUE(unscaled);
  EXPECT_NEAR(unscaled->fraction, 0.342803030303030303, 1e-15);
  for (const int exponent : {-600, -540, -500, -300, -240, 150}) {
    const std::optional<Hit> hit =
        CastRay({scaled(origin, exponent), scaled(translation, exponent)},
                DeformingSegment{
                    {scaled(start.p1, exponent), scaled(start.p2, exponent)},
                    {scaled(end.p1, exponent), scaled(end.p2, exponent)}});
    ASSERT_TRUE(hit) << exponent;
    EXPECT_NEAR(hit->fraction, unscaled->fraction, 1e-12) << exponent;
  }
}

}  // namespace
}  // namespace collide
