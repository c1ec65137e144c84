// Degenerate examples through lib/, coordinates exactly as found (two more
// are in toi_ray_test.cc). Rounded decisions get each one wrong; the
// expected values are the exact ones (the GMP oracle's, tests/lib/oracle),
// to 1e-9 of the sweep.
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

constexpr double kSweepTolerance = 1e-9;

// Example 2: the point's motion relative to the segment runs exactly along
// the segment's line and reaches its near end (5, 5) at t = 2/3, not a
// crossing at the far end at t = 1 as the rounded normal makes it.
TEST(DegenerateExamplesTest, Example2CollinearPointMeetsTheMovingSegmentsEnd) {
  const std::optional<Hit> hit = CastRay(
      {{19, 20}, {-15, -25.5}}, Moving<Segment>{{{5, 5}, {-2, -2.5}}, {6, -3}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 2.0 / 3.0, kSweepTolerance);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 0);
  // The end (5, 5) carried along by (6, -3) for 2/3 of the step.
  EXPECT_NEAR(hit->point.x, 9.0, 1e-9);
  EXPECT_NEAR(hit->point.y, 3.0, 1e-9);

  const std::optional<Hit> second =
      CastRay({{13.5, 28}, {-16.5, -22}},
              Moving<Segment>{{{2.5, 8}, {-3, -2}}, {0, 8}});
  ASSERT_TRUE(second);
  EXPECT_NEAR(second->fraction, 2.0 / 3.0, kSweepTolerance);
  EXPECT_EQ(second->feature.type, FeatureType::kVertex);
  EXPECT_EQ(second->feature.index, 0);
}

// Example 3: a zero-radius circle's move ends exactly on the segment's
// midpoint (-2, -2): touching at the end counts, so a hit at fraction 1.
TEST(DegenerateExamplesTest, Example3MoveEndingExactlyOnAWallIsAHit) {
  const Segment wall{{-7, -2.5}, {3, -1.5}};
  const std::optional<Hit> hit = CastCircle({{{-11, 11}, 0.0}, {9, -13}}, wall);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_EQ(hit->fraction, 1.0);
  EXPECT_EQ(hit->point.x, -2.0);
  EXPECT_EQ(hit->point.y, -2.0);
  // Stopping short of the wall by one ulp of the step misses it.
  EXPECT_FALSE(CastCircle({{{-11, 11}, 0.0}, {9, -13}}, wall,
                          {.max_fraction = 0.9999999999999999}));
}

// Example 5: the ray crosses (1.5,6)-(-4.5,-3) at exactly 1/32; the bullet
// must stop there, not at the segment behind it.
TEST(DegenerateExamplesTest, Example5NearParallelCrossingStopsTheRay) {
  const Segment walls[] = {{{-3.5, -7}, {-10.5, -7}},
                           {{1, -4.5}, {-3, 3}},
                           {{-1.5, 2}, {3.5, -1}},
                           {{1.5, 6}, {-4.5, -3}}};
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 4; ++i) {
    shapes.push_back({.id = static_cast<uint64_t>(i), .geometry = walls[i]});
  }
  const absl::StatusOr<Level> level = Level::Create(shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  const RayInput ray{{1.273500981126145, 5.660251471689218},
                     {-4.437601569801826, -6.656402354702753}};
  const std::optional<WorldHit> hit = CastRay(ray, *level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->shape_id, 3u);
  EXPECT_NEAR(hit->hit.fraction, 1.0 / 32.0, kSweepTolerance);
  // The same segment alone, and the per-shape cast, agree.
  const std::optional<Hit> alone = CastRay(ray, walls[3]);
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->fraction, hit->hit.fraction);
}

// Example 6: the relative motion is (12, 0) and the centres' offset in y is
// 2.2e-16 less than r1 + r2 (a sum no double holds): the circles graze,
// touching at t* = 0.3333333300370..., which rounding made a miss.
TEST(DegenerateExamplesTest, Example6GrazingMovingCirclesTouch) {
  const CircleCast cast{
      {{-7.406748571685833, -5.778605592869641}, 1.6575699154286776},
      {-5.705355716669796, -14.901338091281627}};
  const Moving<Circle> target{
      {{-3.4067485716858332, -2.2553704895676185}, 1.8656651878733452},
      {-17.705355716669796, -14.901338091281627}};
  const std::optional<Hit> hit = CastCircle(cast, target);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  // The oracle's interval for t*: (0.33333333003702131, 0.33333333003705928].
  EXPECT_NEAR(hit->fraction, 0.3333333300370403, kSweepTolerance);
  EXPECT_NEAR(hit->normal.y, -1.0, 1e-12);
}

// Found by the degenerate report's tiny-reach construction (a start one ulp
// from touching, max_fraction 2^-30 .. 2^-100): a contact within rounding
// of the start still comes at its own time, which max_fraction may precede.
TEST(DegenerateExamplesTest, ContactJustAfterTheStartIsNotBeforeATinyReach) {
  const RayInput ray{{-6, -8.8817841970012523e-16}, {16, 16}};
  // The circle's surface is 2^-52 of the sweep ahead of the ray's start.
  const Circle ahead{{-2 + 0x1p-48, 0x1p-48}, 4};
  EXPECT_FALSE(CastRay(ray, ahead, {.max_fraction = 0.0}));
  EXPECT_FALSE(CastRay(ray, ahead, {.max_fraction = 1e-20}));
  EXPECT_TRUE(CastRay(ray, ahead, {.max_fraction = 1e-9}));
  // 6.2e-33 of the sweep ahead: |start - centre|^2 - 4^2 = 7.9e-31.
  const Circle touching{{-2, 0}, 4};
  EXPECT_FALSE(CastRay(ray, touching, {.max_fraction = 1e-40}));
  EXPECT_FALSE(
      CastRay(ray, Moving<Circle>{touching, {}}, {.max_fraction = 1e-40}));
  EXPECT_TRUE(CastRay(ray, touching, {.max_fraction = 1e-30}));
  // Two moving circles whose contact comes after a max_fraction of 2^-56.
  EXPECT_FALSE(CastCircle({{{1, 6.0000000000000009}, 2}, {-6, 1}},
                          Moving<Circle>{{{1, -2}, 6}, {-5, 5}},
                          {.max_fraction = 1.3877787807814457e-17}));
}

// A circle sliding exactly along a segment's line (touching its side's
// band) meets the segment's end when its centre passes the end's
// perpendicular: at 1 + 2^-52 here, so a move of max_fraction 1 misses,
// and at exactly 1 one ulp lower, which counts.
TEST(DegenerateExamplesTest, SlideAlongASegmentReachesItsEndExactlyOrNot) {
  const Segment wall{{0, -0.0009765625}, {0, 0.0009765625}};
  const Vec2 down{0, -0.000732421875};
  EXPECT_FALSE(CastCircle(
      {{{0.000732421875, 0.0017089843750000002}, 0.000732421875}, down}, wall));
  const std::optional<Hit> hit = CastCircle(
      {{{0.000732421875, 0.001708984375}, 0.000732421875}, down}, wall);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 1.0);
}

// A ray crossing a polygon's edge at a small angle, 1e9 from the origin:
// the time comes from the edge, not from its rounded normal, whose rounding
// the angle magnifies (1.3e-9 of the sweep off before, against a static
// target too when it moves by nothing).
TEST(DegenerateExamplesTest, NearParallelEntryIntoAMovingPolygonKeepsItsTime) {
  const RayInput ray{{1070254564.0000001, -46137373.000000119},
                     {-140509170, 92274690}};
  const std::vector<Vec2> vertices{
      {1000000046, -72}, {1000000082, -24}, {999999960, 80}, {999999912, 16}};
  const ConvexPolygon polygon = *MakeConvexPolygon(vertices);
  const std::optional<Hit> moving =
      CastRay(ray, Moving<ConvexPolygon>{polygon, {}});
  ASSERT_TRUE(moving);
  // The exact time lies in (0.50000000365574737, 0.50000000365580433].
  EXPECT_NEAR(moving->fraction, 0.500000003655776, 1e-12);
}

// Found by the short-sweep construction (contact at t = 1/2 of a
// translation 2^-20 .. 2^-40 of the shapes' size): the time comes from
// differences, not from values rounded to the shapes' scale, so it is
// within 1e-9 of such a sweep too (it was 1e-4 to 1e-8 off).
TEST(DegenerateExamplesTest, ShortSweepsKeepTheirContactTime) {
  // A ray 1e-7 long against a circle of radius 10.
  const std::optional<Hit> circle =
      CastRay({{-22.000000040978193, 4.0000000074505806},
               {8.1956386566162109e-08, -1.4901161193847656e-08}},
              Circle{{-14, -2}, 10});
  ASSERT_TRUE(circle);
  EXPECT_NEAR(circle->fraction, 0.5, kSweepTolerance);
  // A ray 2e-13 long running along a segment's line onto its end.
  const std::optional<Hit> end =
      CastRay({{-0.20507812500010658, 0.10937500000005684},
               {2.1316282072803006e-13, -1.1368683772161603e-13}},
              Segment{{0.234375, -0.125}, {-0.205078125, 0.109375}});
  ASSERT_TRUE(end);
  EXPECT_NEAR(end->fraction, 0.5, kSweepTolerance);
  // A capsule's move of 2e-12 into a polygon it starts one ulp from: met,
  // not missed.
  const Capsule capsule{{-66.000000000000014, 92.999999999999986},
                        {-82.000000000000014, 62.999999999999986},
                        51};
  const std::vector<Vec2> diamond{
      {-11, -129}, {101, 81}, {11, 129}, {-101, -81}};
  const double f = 2.8421709430404007e-14;
  EXPECT_TRUE(
      CastCapsule({capsule, {69 * f, 21 * f}}, *MakeConvexPolygon(diamond)));
}

// Two polygons meeting corner to corner after a move of 8e5 units: the
// contact point, rounded to the move's scale, lies 1e-10 off the target's
// vertex, beyond a tight "at the edge's end" gate, which would keep the
// edge's normal though the mover's corner is 8e-4 inside that edge's line.
TEST(DegenerateExamplesTest, CornerContactAfterALongMoveGetsASeparatingNormal) {
  const std::vector<Vec2> mover{{32767.99609375, 393216.013671875},
                                {32767.98828125, 393216.025390625},
                                {32767.98046875, 393216.013671875},
                                {32767.98828125, 393216.001953125}};
  const std::vector<Vec2> target{{-0.015625, -0.0234375},
                                 {0.015625, -0.0234375},
                                 {-0.01171875, 0.0234375}};
  const Vec2 d1{-65535.9921875, -786431.99609375}, d2{0.01171875, 0.0078125};
  const std::optional<Hit> hit =
      CastPolygon({*MakeConvexPolygon(mover), d1},
                  Moving<ConvexPolygon>{*MakeConvexPolygon(target), d2});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  // Every mover vertex, where it is at the contact, on the far side of the
  // normal's line through the target's vertex (to rounding of the move).
  const Vec2 corner = target[2] + hit->fraction * d2;
  for (Vec2 v : mover) {
    const Vec2 at = v + hit->fraction * d1;
    EXPECT_GE(Dot(at - corner, hit->normal), -1e-9);
  }
}

// A segment lying exactly on a concave polygon's edge that ends a strip
// (both neighbouring edges parallel to the motion), pushed along the strip
// into the solid: its ends only slide along the strip's sides, its
// interior goes in, so it starts overlapping (touching, moving in). Found
// by the degenerate report at 1e9; the same shape at the origin.
TEST(DegenerateExamplesTest, SegmentPushedIntoASolidAlongAStripMovesIn) {
  for (const double offset : {0.0, 1e9}) {
    const std::vector<Vec2> solid{{-22, 4 - offset},  {10, -20 - offset},
                                  {13, -16 - offset}, {-15, 5 - offset},
                                  {-6, 17 - offset},  {-10, 20 - offset}};
    const ConcavePolygon polygon = *MakeConcavePolygon(solid);
    const std::optional<Hit> hit = CastCapsule(
        {{{13, -16 - offset}, {10, -20 - offset}, 0}, {-8, 6}}, polygon);
    ASSERT_TRUE(hit) << offset;
    EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
    EXPECT_EQ(hit->fraction, 0.0);
    // Pushed out of the solid instead: no hit.
    EXPECT_FALSE(CastCapsule(
        {{{13, -16 - offset}, {10, -20 - offset}, 0}, {8, -6}}, polygon));
  }
}

}  // namespace
}  // namespace collide
