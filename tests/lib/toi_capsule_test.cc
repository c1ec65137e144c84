#include <optional>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::kTolerance;

TEST(CastCapsuleTest, LyingCapsuleFallsOntoAFloorSegment) {
  const CapsuleCast cast{{{-1, 5}, {1, 5}, 0.5}, {0, -10}};
  const std::optional<Hit> hit = CastCapsule(cast, Segment{{-10, 0}, {10, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.45, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{0, 1}), kTolerance);
}

TEST(CastCapsuleTest, EndCapMeetsACircle) {
  const CapsuleCast cast{{{0, 0}, {2, 0}, 0.5}, {10, 0}};
  const std::optional<Hit> hit = CastCapsule(cast, Circle{{8, 0}, 0.5});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{7.5, 0}), kTolerance);
}

TEST(CastCapsuleTest, CapsuleAgainstCapsuleSideOn) {
  const CapsuleCast cast{{{0, 5}, {0, 7}, 0.5}, {0, -10}};
  const std::optional<Hit> hit =
      CastCapsule(cast, Capsule{{-3, 0}, {3, 0}, 0.5});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
}

TEST(CastCapsuleTest, ZeroLengthCapsuleIsACircle) {
  const CapsuleCast cast{{{0, 0}, {0, 0}, 1}, {10, 0}};
  const std::optional<Hit> hit = CastCapsule(cast, Box({6, 0}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
}

TEST(CastCapsuleTest, MissAndOverlap) {
  const CapsuleCast cast{{{0, 0}, {2, 0}, 0.5}, {10, 0}};
  EXPECT_FALSE(CastCapsule(cast, Vec2{5, 0.51}));
  const std::optional<Hit> overlap = CastCapsule(cast, Vec2{1, 0.25});
  ASSERT_TRUE(overlap);
  EXPECT_EQ(overlap->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(overlap->depth, 0.25, kTolerance);
}

}  // namespace
}  // namespace collide
