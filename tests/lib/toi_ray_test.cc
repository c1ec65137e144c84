#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "collide/toi.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::Concave;
using testing::kTolerance;
using testing::RandomConvexPolygon;
using testing::SplitMix64;
using testing::VertexMean;

TEST(CastRaySegmentTest, HeadOnHitReturnsFractionPointAndFacingNormal) {
  const std::optional<Hit> hit =
      CastRay({{0, 0}, {4, 0}}, Segment{{2, -1}, {2, 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{2, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
  EXPECT_EQ(hit->status, HitStatus::kHit);
}

TEST(CastRaySegmentTest, NormalFacesTheRayFromEitherSide) {
  const Segment wall{{2, -1}, {2, 1}};
  const std::optional<Hit> hit = CastRay({{4, 0}, {-4, 0}}, wall);
  ASSERT_TRUE(hit);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{1, 0}), kTolerance);
}

TEST(CastRaySegmentTest, MissBesideTheSegment) {
  EXPECT_FALSE(CastRay({{0, 2}, {4, 0}}, Segment{{2, -1}, {2, 1}}));
}

TEST(CastRaySegmentTest, GrazingTheEndpointIsAVertexHit) {
  const std::optional<Hit> hit =
      CastRay({{0, 1}, {4, 0}}, Segment{{2, -1}, {2, 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 1);
}

TEST(CastRaySegmentTest, MaxFractionClipsTheHit) {
  const RayInput ray{{0, 0}, {4, 0}};
  const Segment wall{{2, -1}, {2, 1}};
  EXPECT_FALSE(CastRay(ray, wall, {.max_fraction = 0.49}));
  EXPECT_TRUE(CastRay(ray, wall, {.max_fraction = 0.5}));
}

TEST(CastRaySegmentTest, ZeroTranslationIsNeverAHitOffTheSegment) {
  EXPECT_FALSE(CastRay({{0, 0}, {0, 0}}, Segment{{2, -1}, {2, 1}}));
}

TEST(CastRaySegmentTest, StartingOnTheSegmentIsNotAHitUnlessAsked) {
  // A segment has no inside: a ray starting on it leaves it.
  const RayInput ray{{2, 0}, {4, 0}};
  const Segment wall{{2, -1}, {2, 1}};
  EXPECT_FALSE(CastRay(ray, wall));
  const std::optional<Hit> hit =
      CastRay(ray, wall, {.stop_at_penetration = true});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->fraction, 0.0);
}

// Collinear motion towards a segment (the cross product of the directions
// is 0) is a real contact at its near end.
TEST(CastRaySegmentTest, CollinearMotionHitsTheNearEnd) {
  const std::optional<Hit> hit =
      CastRay({{0, 0}, {10, 0}}, Segment{{4, 0}, {6, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{4, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 0);
}

TEST(CastRaySegmentTest, ParallelOffsetMotionMisses) {
  EXPECT_FALSE(CastRay({{0, 1e-9}, {10, 0}}, Segment{{4, 0}, {6, 0}}));
}

TEST(CastRaySegmentTest, ZeroLengthSegmentIsAPoint) {
  const std::optional<Hit> hit =
      CastRay({{0, 0}, {10, 0}}, Segment{{3, 0}, {3, 0}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.3, kTolerance);
  EXPECT_FALSE(CastRay({{0, 0}, {10, 0}}, Segment{{3, 1e-12}, {3, 1e-12}}));
}

TEST(CastRaySegmentTest, FarFromOriginWithTinyStepStaysExact) {
  // Coordinates of 1e6 and a step of 1e-3: relative vectors are formed
  // before any product, so the answer keeps full relative precision.
  // Offsets are powers of two so the inputs are exact doubles.
  const double x = 1e6;
  const double step = 0x1p-10;  // about 1e-3
  const double wall = x + 0x1p-12;
  const std::optional<Hit> hit =
      CastRay({{x, x}, {step, 0}}, Segment{{wall, x - 1}, {wall, x + 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.25, 1e-9);
  const std::optional<Hit> circle = CastCircle(
      {{{x, x}, 0x1p-12}, {step, 0}}, Circle{{x + 0x1p-10, x}, 0x1p-12});
  ASSERT_TRUE(circle);
  EXPECT_NEAR(circle->fraction, 0.5, 1e-9);
}

TEST(CastRaySegmentTest, SkinStopsShortOfTheWall) {
  const std::optional<Hit> hit = CastRay(
      {{0, 0}, {4, 0}}, Segment{{2, -1}, {2, 1}}, {.target_distance = 0.5});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 1.5 / 4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{2, 0}), kTolerance);
}

TEST(CastRayCircleTest, HeadOnHitAtTheNearSide) {
  const std::optional<Hit> hit = CastRay({{0, 0}, {10, 0}}, Circle{{5, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{4, 0}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kSurface);
}

TEST(CastRayCircleTest, TangentRayTouchesAtTheTop) {
  const std::optional<Hit> hit = CastRay({{0, 1}, {10, 0}}, Circle{{5, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-7);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{0, 1}), 1e-7);
}

TEST(CastRayCircleTest, MissesJustAbove) {
  EXPECT_FALSE(CastRay({{0, 1 + 1e-9}, {10, 0}}, Circle{{5, 0}, 1}));
}

TEST(CastRayCircleTest, StartingInsideIsAnInitialOverlap) {
  const std::optional<Hit> hit =
      CastRay({{5, 0.5}, {10, 0}}, Circle{{5, 0}, 1});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->fraction, 0.0);
  EXPECT_NEAR(hit->depth, 0.5, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{0, 1}), kTolerance);
}

TEST(CastRayCircleTest, ZeroRadiusCircleIsAPoint) {
  const std::optional<Hit> hit = CastRay({{0, 0}, {10, 0}}, Circle{{5, 0}, 0});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kTolerance);
}

// The textbook quadratic loses the near root when b*b >> 4ac: a long ray
// from far away hitting a tiny circle.
TEST(CastRayCircleTest, FarTinyCircleKeepsPrecisionStableQuadraticSlip) {
  const std::optional<Hit> hit =
      CastRay({{0, 0}, {2e6, 0}}, Circle{{1e6, 0}, 1e-4});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction * 2e6, 1e6 - 1e-4, 1e-9);
}

// The normal is unit for rays from near and far (up to 1e10 radii), whose
// contact offset is computed with a cancellation of that relative size.
TEST(CastRayCircleTest, NormalIsUnitFromNearAndFar) {
  SplitMix64 rng(0xc1c1e);
  for (int trial = 0; trial < 2000; ++trial) {
    const double radius = std::pow(10.0, rng.Uniform(-4.0, 0.0));
    const Circle circle{
        {rng.Uniform(-100.0, 100.0), rng.Uniform(-100.0, 100.0)}, radius};
    const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
    const double distance = radius * std::pow(10.0, rng.Uniform(0.01, 10.0));
    const Vec2 origin =
        circle.center + distance * Vec2{std::cos(angle), std::sin(angle)};
    // Aimed within the disk, through to twice as far.
    const Vec2 aim =
        circle.center + rng.Uniform(-0.9, 0.9) * radius *
                            Vec2{-std::sin(angle), std::cos(angle)};
    const Vec2 d = 2.0 * (aim - origin);
    const std::optional<Hit> hit = CastRay({origin, d}, circle);
    ASSERT_TRUE(hit) << "trial " << trial;
    EXPECT_NEAR(Length(hit->normal), 1.0, 1e-14) << "trial " << trial;
    // Its direction is that of the contact offset, as well as an offset
    // computed from this far allows.
    const Vec2 offset = (origin - circle.center) + hit->fraction * d;
    EXPECT_VEC2_NEAR(hit->normal, Normalize(offset),
                     1e-14 * distance / radius + 1e-12);
  }
}

TEST(CastRayCapsuleTest, HitsTheSideAndTheCap) {
  const Capsule capsule{{0, 0}, {4, 0}, 1};
  const std::optional<Hit> side = CastRay({{2, 5}, {0, -10}}, capsule);
  ASSERT_TRUE(side);
  EXPECT_NEAR(side->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(side->normal, (Vec2{0, 1}), kTolerance);
  const std::optional<Hit> cap = CastRay({{-5, 0}, {10, 0}}, capsule);
  ASSERT_TRUE(cap);
  EXPECT_NEAR(cap->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(cap->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(cap->feature.type, FeatureType::kVertex);
  EXPECT_EQ(cap->feature.index, 0);
}

TEST(CastRayPolygonTest, HitsTheFacingEdge) {
  const std::optional<Hit> hit =
      CastRay({{-5, 0.25}, {10, 0}}, Box({0, 0}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{-1, 0.25}), kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-1, 0}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
}

TEST(CastRayPolygonTest, StartingInsideReportsTheNearestFace) {
  const std::optional<Hit> hit =
      CastRay({{0.75, 0}, {-10, 0}}, Box({0, 0}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(hit->depth, 0.25, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{1, 0}), kTolerance);
}

TEST(CastRayPolygonTest, StartingOnAFaceMovingOutIsNotAHit) {
  EXPECT_FALSE(CastRay({{1, 0}, {5, 0}}, Box({0, 0}, {1, 1})));
  EXPECT_FALSE(CastRay({{1, 0}, {0, 5}}, Box({0, 0}, {1, 1})));  // along
  const std::optional<Hit> in = CastRay({{1, 0}, {-5, 0}}, Box({0, 0}, {1, 1}));
  ASSERT_TRUE(in);
  EXPECT_EQ(in->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(in->depth, 0.0);
}

TEST(CastRayPolygonTest, GrazingAlongAFaceTouchesAtTheCorner) {
  // Tangent contact is contact: the ray meets the corner (-1, 1).
  const std::optional<Hit> hit =
      CastRay({{-5, 1}, {10, 0}}, Box({0, 0}, {1, 1}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{-1, 1}), kTolerance);
}

// A ray aimed through a vertex into the polygon crosses the lines of both
// edges meeting there at the same time, up to rounding: which of the two
// it is taken to enter by must not turn the hit into a miss.
TEST(CastRayPolygonTest, RaysThroughAVertexIntoThePolygonHitThere) {
  SplitMix64 rng(0x7e47);
  for (int trial = 0; trial < 20000; ++trial) {
    const ConvexPolygon polygon = RandomConvexPolygon(rng);
    const Vec2 vertex = polygon.vertices[rng.Below(polygon.count)];
    const Vec2 aim = rng.Uniform(0.2, 0.9) * (VertexMean(polygon) - vertex);
    const double back = rng.Uniform(0.5, 5.5);
    const RayInput ray{vertex - back * aim, (back + 0.5) * aim};
    const std::optional<Hit> hit = CastRay(ray, polygon);
    ASSERT_TRUE(hit) << "trial " << trial;
    EXPECT_NEAR(hit->fraction, back / (back + 0.5), 1e-9) << "trial " << trial;
    EXPECT_VEC2_NEAR(hit->point, vertex, 1e-9);
  }
}

TEST(CastRayPolygonTest, SkinRoundsTheCorners) {
  // Aimed at the corner zone: the skin around a vertex is a circle.
  const std::optional<Hit> hit = CastRay(
      {{2, -5}, {0, 10}}, Box({0, 0}, {1, 1}), {.target_distance = 1.5});
  ASSERT_TRUE(hit);
  const double y = -std::sqrt(1.5 * 1.5 - 1.0);  // below the corner (1, -1)
  EXPECT_NEAR(hit->fraction, (y - 1 + 5) / 10, kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
}

TEST(CastRayConcaveTest, EntersThroughTheNotch) {
  // A U shape open at the top; a ray falling into the notch hits its floor.
  const Vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                    {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  const ConcavePolygon polygon = Concave(u);
  const std::optional<Hit> hit = CastRay({{1.5, 5}, {0, -10}}, polygon);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.4, kTolerance);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{0, 1}), kTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
  EXPECT_EQ(hit->feature.index, 4);
}

TEST(CastRayConcaveTest, StartingInsideTheSolidIsAnOverlap) {
  const Vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                    {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  const ConcavePolygon polygon = Concave(u);
  const std::optional<Hit> hit = CastRay({{0.5, 2}, {0, 1}}, polygon);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_NEAR(hit->depth, 0.5, kTolerance);
}

TEST(CastRayConcaveTest, StartingOnTheBoundaryHitsOnlyWhenMovingIn) {
  const Vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                    {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  const ConcavePolygon polygon = Concave(u);
  // On the notch's floor: leaving upwards is free, going down is a hit.
  EXPECT_FALSE(CastRay({{1.5, 1}, {0, 5}}, polygon));
  const std::optional<Hit> in = CastRay({{1.5, 1}, {0, -5}}, polygon);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(in->depth, 0.0);
  // Leaving the left arm's inner side, the ray crosses the notch and hits
  // the right arm.
  const std::optional<Hit> across = CastRay({{1, 2}, {4, 0}}, polygon);
  ASSERT_TRUE(across);
  EXPECT_NEAR(across->fraction, 0.25, kTolerance);
  EXPECT_EQ(across->status, HitStatus::kHit);
}

// Exact answers on degenerate geometry, each input as found.

TEST(CastRayDegenerateTest, LeavingABoxCornerIsNoHit) {
  // Starting exactly on the box's corner (2, -2) and leaving it: the
  // translation goes up and slightly right, into neither edge's solid side
  // strictly (only along/away from the corner's cone), so no hit, not
  // kInitialOverlap by one edge's normal.
  const ConvexPolygon box =
      *MakeConvexPolygon(std::vector<Vec2>{{-1, 0}, {2, 0}, {2, -2}, {-1, -2}});
  EXPECT_FALSE(CastRay({{2, -2}, {0.024674816398394084, 3.0}}, box));
  // Into the corner's cone it is an overlap (touching, depth 0).
  const std::optional<Hit> in = CastRay({{2, -2}, {-1, 1}}, box);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(in->depth, 0.0);
}

TEST(CastRayDegenerateTest, VeryLongTranslationHitsEarly) {
  const std::optional<Hit> hit =
      CastRay({{5, 5}, {0, -1e15}}, Segment{{0, 0}, {10, 0}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 5e-15, 1e-9 * 5e-15);
  EXPECT_NEAR(hit->point.x, 5.0, kTolerance);
  EXPECT_NEAR(hit->point.y, 0.0, kTolerance);
}

TEST(CastRayDegenerateTest, LongTranslationNeverMakesAnOverlap) {
  // Apart at the start however long the translation: no tolerance scales
  // with |translation|.
  const std::optional<Hit> hit =
      CastRay({{9, -12}, {0, 1e15}}, Circle{{2, 2}, 7});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 1.4e-14, 1e-9 * 1.4e-14);
  EXPECT_FALSE(CastRay({{0, -5}, {0, 5e14}}, Circle{{1, -1}, 0.5}));
}

TEST(CastRayDegenerateTest, LeavingASegmentEndIsNoHit) {
  // A segment has no inside; starting on its end and leaving.
  EXPECT_FALSE(CastRay({{-28, 21}, {-62, -66}}, Segment{{-28, 21}, {20, -15}}));
}

TEST(CastRayDegenerateTest, FromAReflexVertexIntoTheSolidOverlaps) {
  // At the reflex vertex (-1, 0), (1, -3) enters the solid.
  const std::vector<Vec2> v = {{-2, 3}, {-1, 0}, {-2, -3}, {2, 0}};
  const std::optional<Hit> hit = CastRay({{-1, 0}, {1, -3}}, Concave(v));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->depth, 0.0);
  // Out of the solid from there: no hit.
  EXPECT_FALSE(CastRay({{-1, 0}, {-1, 0}}, Concave(v)));
}

TEST(CastRayDegenerateTest, SlidingAtExactlyTheSkinIsHit) {
  // Parallel to the segment at exactly distance 13, reaching its
  // end's perpendicular at 4/15.
  const std::optional<Hit> hit =
      CastRay({{137, -43}, {-180, 75}}, Segment{{84, -35}, {-48, 20}},
              {.target_distance = 13});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 4.0 / 15.0, kTolerance);
}

// Contacts with no direction of their own still get a unit normal (toi.h):
// against the motion.
TEST(CastRayDegenerateNormalTest, RayEndingOnAZeroRadiusCircleFacesBack) {
  const std::optional<Hit> hit = CastRay({{0, 0}, {3, 4}}, Circle{{3, 4}, 0.0});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 1.0);
  EXPECT_VEC2_NEAR(hit->normal, (Vec2{-0.6, -0.8}), kTolerance);
}

TEST(CastRayDegenerateNormalTest, CircleCastOnAPointIsUnitAtLargeCoordinates) {
  // Radius 1 at 1e30: the contact position rounds onto the point itself.
  const Vec2 point{1e30, 1e30};
  const std::optional<Hit> hit =
      CastCircle({Circle{{1e30, 0}, 1.0}, {0, 1e30}}, point);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(Length(hit->normal), 1.0, 1e-12);
}

TEST(NormalizeTest, SubnormalAndHugeVectorsGiveUnitVectors) {
  const double tiny = 4.9406564584124654e-324;  // the smallest subnormal
  EXPECT_VEC2_NEAR(Normalize({tiny, -tiny}),
                   (Vec2{std::sqrt(0.5), -std::sqrt(0.5)}), kTolerance);
  EXPECT_VEC2_NEAR(Normalize({0, 3 * tiny}), (Vec2{0, 1}), kTolerance);
  // Squares beyond the double range (a product of three lengths).
  EXPECT_VEC2_NEAR(Normalize({1e200, 1e200}),
                   (Vec2{std::sqrt(0.5), std::sqrt(0.5)}), kTolerance);
  EXPECT_EQ(Normalize({0, 0}), (Vec2{0, 0}));
  // Ordinary vectors: exactly the plain formula.
  const Vec2 v{3, 4};
  EXPECT_EQ(Normalize(v), (Vec2{v.x / 5.0, v.y / 5.0}));
}

}  // namespace
}  // namespace collide
