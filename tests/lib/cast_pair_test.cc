#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "gtest/gtest.h"
#include "random_level.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::SplitMix64;

// Two circles: |p(t) - q(t)| = r1 + r2 at the smallest root.
TEST(CastPairTest, TwoCirclesMeetingHeadOnMeetAtTheSmallerRoot) {
  const MovingShape a{Circle{{0, 0}, 1}, {10, 0}};
  const MovingShape b{Circle{{10, 0}, 1}, {-10, 0}};
  const std::optional<Hit> hit = CastPair(a, b);
  ASSERT_TRUE(hit.has_value());
  // Gap 8 closed at 20 per step.
  EXPECT_NEAR(hit->fraction, 0.4, testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->point, Vec2(5, 0), testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, Vec2(-1, 0), testing::kTolerance);
  EXPECT_EQ(hit->status, HitStatus::kHit);
}

TEST(CastPairTest, CrossingPathsAtDifferentTimesMiss) {
  // The paths intersect at (5, 0), but a is there at
  // t = 0.5 and b at t = 0.9.
  const MovingShape a{Circle{{0, 0}, 0.2}, {10, 0}};
  const MovingShape b{Circle{{5, -9}, 0.2}, {0, 10}};
  EXPECT_FALSE(CastPair(a, b).has_value());
  // Timed to meet, they do.
  const MovingShape c{Circle{{5, -5}, 0.2}, {0, 10}};
  EXPECT_TRUE(CastPair(a, c).has_value());
}

// A moving point against a moving segment.
TEST(CastPairTest, PointAgainstMovingSegmentMeetsWhereBothAre) {
  const MovingShape point{Vec2{0, 0}, {10, 0}};
  const MovingShape segment{Segment{{10, -1}, {10, 1}}, {-10, 0}};
  const std::optional<Hit> hit = CastPair(point, segment);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->fraction, 0.5, testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->point, Vec2(5, 0), testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, Vec2(-1, 0), testing::kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
  // The segment slides along its own line past the point's path: miss.
  const MovingShape along{Segment{{10, 2}, {10, 4}}, {-10, 0}};
  EXPECT_FALSE(CastPair(point, along).has_value());
}

TEST(CastPairTest, PolygonsAndCapsulesMeet) {
  const MovingShape box{Box({0, 0}, {1, 1}), {4, 0}};
  const MovingShape capsule{Capsule{{6, -1}, {6, 1}, 0.5}, {-2, 0}};
  const std::optional<Hit> hit = CastPair(box, capsule);
  ASSERT_TRUE(hit.has_value());
  // Gap 6 - 0.5 - 1 = 4.5 closed at 6 per step.
  EXPECT_NEAR(hit->fraction, 0.75, testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, Vec2(-1, 0), testing::kTolerance);
  // The point is on the capsule where it is then (axis at x = 4.5).
  EXPECT_NEAR(hit->point.x, 4.0, testing::kTolerance);
}

TEST(CastPairTest, TwoPointsMeetOnlyWhenTheyCoincide) {
  const MovingShape a{Vec2{0, 0}, {2, 2}};
  const std::optional<Hit> meet = CastPair(a, {Vec2{2, 0}, {-2, 2}});
  ASSERT_TRUE(meet.has_value());
  EXPECT_NEAR(meet->fraction, 0.5, testing::kTolerance);
  EXPECT_FALSE(CastPair(a, {Vec2{2, 0.1}, {-2, 2}}).has_value());
}

TEST(CastPairTest, StartingOverlappedIsInitialOverlapWithDepth) {
  const MovingShape a{Circle{{0, 0}, 1}, {1, 0}};
  const MovingShape b{Circle{{1.5, 0}, 1}, {0, 0}};
  const std::optional<Hit> hit = CastPair(a, b);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->fraction, 0.0);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(hit->depth, 0.5, testing::kTolerance);
}

TEST(CastPairTest, MovingTogetherNeverMeets) {
  // Same translation: no relative motion, and apart.
  const MovingShape a{Circle{{0, 0}, 1}, {100, 3}};
  const MovingShape b{Box({5, 0}, {1, 1}), {100, 3}};
  EXPECT_FALSE(CastPair(a, b).has_value());
}

TEST(CastPairTest, MaxFractionAndSkinFollowToiConventions) {
  const MovingShape a{Circle{{0, 0}, 1}, {10, 0}};
  const MovingShape b{Circle{{10, 0}, 1}, {-10, 0}};
  EXPECT_FALSE(CastPair(a, b, {.max_fraction = 0.3}).has_value());
  const std::optional<Hit> skin = CastPair(a, b, {.target_distance = 2});
  ASSERT_TRUE(skin.has_value());
  EXPECT_NEAR(skin->fraction, 0.3, testing::kTolerance);
}

// --- Randomized: circles against the two-circle closed form, and every pair
// against the reversed roles.

TEST(CastPairPropertyTest, CirclesMatchTheClosedForm) {
  SplitMix64 rng(1);
  int hits = 0;
  for (int i = 0; i < 2000; ++i) {
    const Circle c1{testing::RandomPoint(rng, {-10, -10}, {10, 10}),
                    rng.Uniform(0.1, 2.0)};
    const Circle c2{testing::RandomPoint(rng, {-10, -10}, {10, 10}),
                    rng.Uniform(0.1, 2.0)};
    const Vec2 d1 = testing::RandomDirection(rng, rng.Uniform(0.0, 30.0));
    const Vec2 d2 = testing::RandomDirection(rng, rng.Uniform(0.0, 30.0));
    const std::optional<Hit> hit = CastPair({c1, d1}, {c2, d2});
    // |(q0 - p0) + t (dq - dp)|^2 = (r1 + r2)^2.
    const Vec2 s = c2.center - c1.center;
    const Vec2 v = d2 - d1;
    const double r = c1.radius + c2.radius;
    const double a = Dot(v, v);
    const double b = 2 * Dot(s, v);
    const double c = Dot(s, s) - r * r;
    if (c <= 0) continue;  // starts overlapping: covered above
    const double disc = b * b - 4 * a * c;
    std::optional<double> want;
    if (a > 0 && disc >= 0) {
      const double t = (-b - std::sqrt(disc)) / (2 * a);
      if (t >= 0 && t <= 1) want = t;
    }
    SCOPED_TRACE(absl::StrCat("pair ", i));
    // Near-tangent cases may round either way.
    if (disc >= 0 && disc < 1e-9 * b * b) continue;
    ASSERT_EQ(hit.has_value(), want.has_value());
    if (!want) continue;
    ++hits;
    EXPECT_NEAR(hit->fraction, *want, 1e-9);
    // The contact point lies on both circles where they are then.
    const Vec2 p = c1.center + hit->fraction * d1;
    const Vec2 q = c2.center + hit->fraction * d2;
    EXPECT_NEAR(Length(hit->point - q), c2.radius, 1e-8);
    EXPECT_NEAR(Length(hit->point - p), c1.radius, 1e-8);
    EXPECT_VEC2_NEAR(hit->normal, Normalize(p - q), 1e-8);
  }
  EXPECT_GT(hits, 100);
}

PairShape RandomPairShape(SplitMix64& rng) {
  const Vec2 at = testing::RandomPoint(rng, {-5, -5}, {5, 5});
  switch (rng.Below(5)) {
    case 0:
      return at;
    case 1:
      return Segment{at, at + testing::RandomDirection(rng, 2)};
    case 2:
      return Circle{at, rng.Uniform(0.1, 1.5)};
    case 3:
      return Capsule{at, at + testing::RandomDirection(rng, 2),
                     rng.Uniform(0.1, 1)};
    default:
      return Box(at, {rng.Uniform(0.2, 1.5), rng.Uniform(0.2, 1.5)},
                 rng.Uniform(0, 6.3));
  }
}

TEST(CastPairPropertyTest, SwappingTheShapesGivesTheSameFraction) {
  SplitMix64 rng(2);
  int hits = 0;
  for (int i = 0; i < 3000; ++i) {
    const MovingShape a{RandomPairShape(rng),
                        testing::RandomDirection(rng, rng.Uniform(0, 20))};
    const MovingShape b{RandomPairShape(rng),
                        testing::RandomDirection(rng, rng.Uniform(0, 20))};
    const std::optional<Hit> ab = CastPair(a, b);
    const std::optional<Hit> ba = CastPair(b, a);
    SCOPED_TRACE(absl::StrCat("pair ", i, " kinds ", a.shape.index(), " ",
                              b.shape.index()));
    if (!ab || !ba) {
      // A grazing contact may round to a miss one way only; then the other
      // way's contact is at most grazing: its normal is perpendicular to
      // the relative motion.
      const std::optional<Hit>& one = ab ? ab : ba;
      if (one && one->status == HitStatus::kHit) {
        const Vec2 relative =
            ab ? a.translation - b.translation : b.translation - a.translation;
        EXPECT_NEAR(Dot(Normalize(relative), one->normal), 0.0, 1e-6);
      }
      continue;
    }
    ++hits;
    EXPECT_NEAR(ab->fraction, ba->fraction, 1e-9);
    EXPECT_EQ(ab->status, ba->status);
    if (ab->status == HitStatus::kHit) {
      EXPECT_VEC2_NEAR(ab->normal, -ba->normal, 1e-6);
    }
  }
  EXPECT_GT(hits, 300);
}

}  // namespace
}  // namespace collide
