// Pair TOI on degenerate inputs: cases whose exact answer is
// known by construction (or, where marked, the GMP oracle's verdict for
// dyadic inputs), each one ulp from the other answer where that matters.
#include <cmath>
#include <optional>
#include <vector>

#include "collide/toi.h"
#include "collide/validate.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::kTolerance;

// A segment pinned at the origin whose far end swings from (2, 0) to
// (0, 2): at t = 1/2 it runs from (0, 0) to (1, 1).
const DeformingSegment kSwinging{{{0, 0}, {2, 0}}, {{0, 0}, {0, 2}}};

TEST(ExactPairTest, DeformingEndMetExactlyIsAVertexHit) {
  // (1, 3 - 4t) meets the end (2 - 2t, 2t) at t = 1/2.
  const std::optional<Hit> hit = CastRay({{1, 3}, {0, -4}}, kSwinging);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 0.5);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 1);
  EXPECT_VEC2_NEAR(hit->point, (Vec2{1, 1}), kTolerance);
}

TEST(ExactPairTest, DeformingEndPassedOneUlpOutsideIsAMiss) {
  // One ulp right of x = 1 the point crosses the line beyond the end.
  const double x = std::nextafter(1.0, 2.0);
  EXPECT_FALSE(CastRay({{x, 3}, {0, -4}}, kSwinging));
}

TEST(ExactPairTest, DeformingEndPassedOneUlpInsideIsAnEdgeHit) {
  const double x = std::nextafter(1.0, 0.0);
  const std::optional<Hit> hit = CastRay({{x, 3}, {0, -4}}, kSwinging);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-9);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
}

TEST(ExactPairTest, DeformingTouchingStartStillFindsTheLaterContact) {
  // The point starts on the segment at (1, 0) and moves left along it,
  // leaving it as the segment turns; the pinned end (0, 0) comes to it at
  // t = 1/2: f(t) = -2t (1 - 2t) has roots 0 and 1/2.
  const RayInput ray{{1, 0}, {-2, 0}};
  const std::optional<Hit> hit = CastRay(ray, kSwinging);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_EQ(hit->fraction, 0.5);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 0);
  // stop_at_penetration makes the touching start itself the answer.
  const std::optional<Hit> start =
      CastRay(ray, kSwinging, {.stop_at_penetration = true});
  ASSERT_TRUE(start);
  EXPECT_EQ(start->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(start->fraction, 0.0);
}

TEST(ExactPairTest, DeformingTouchingStartAtLargeOffsetFindsTheLaterContact) {
  // The degenerate report's case (offset 1e9); the oracle's exact contact
  // is at t = 5/44 (0.113636...).
  const std::optional<Hit> hit = CastRay(
      {{-1000000001, 1000000002.25}, {8, -3}},
      DeformingSegment{{{-1000000003, 1000000002}, {-999999995, 1000000003}},
                       {{-999999999, 999999994}, {-999999999, 1000000007}}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 5.0 / 44.0, 1e-9);
}

TEST(ExactPairTest, DeformingGrazeOneUlpAwayIsAMiss) {
  // The degenerate report's nudged graze: the GMP oracle says miss; rounded
  // arithmetic found a contact at 0.5 at the end.
  EXPECT_FALSE(
      CastRay({{0.015625000000000003, 0.01953125}, {-0.015625, -0.03125}},
              DeformingSegment{{{0, -0.01171875}, {-0.0078125, 0.0234375}},
                               {{0, -0.01171875}, {0.0234375, -0.015625}}}));
}

TEST(ExactPairTest, CirclesMeetingExactlyAtMaxFractionHit) {
  // Radii 4 + 4, centres 10 apart closing by 2: touching exactly at t = 1.
  const std::optional<Hit> hit =
      CastCircle({{{10, 0}, 4}, {-1, 0}}, Moving<Circle>{{{0, 0}, 4}, {1, 0}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 1.0);
}

TEST(ExactPairTest, CirclesMissingMaxFractionByATinyOffsetMiss) {
  // The same, the mover 2^-30 off the line of centres: at t = 1 the centres
  // are sqrt(64 + 2^-60) > 8 apart, and they are closest then.
  const double y = std::ldexp(1.0, -30);
  EXPECT_FALSE(
      CastCircle({{{10, y}, 4}, {-1, 0}}, Moving<Circle>{{{0, 0}, 4}, {1, 0}}));
  // From the degenerate report: offset 1e6, one ulp off the tangent.
  EXPECT_FALSE(CastCircle({{{1000008, -1.9999999998835847}, 4}, {-2, 0}},
                          Moving<Circle>{{{999998, -2}, 4}, {0, 0}}));
}

// Circles closing from a few hundred ulps apart: the contact at about
// 6.25e-15 of the sweep comes exactly just after max_fraction, which the
// rounded time (|m|^2 - r^2 rounded is off by a good part of itself) put
// just before it. From the degenerate report (near-reach).
TEST(ExactPairTest, CirclesClosingFromWithinRoundingMissAJustEarlierEnd) {
  EXPECT_FALSE(CastCircle(
      {{{-39.999999999999474, -19.999999999999925}, 20}, {20, -40}},
      Moving<Circle>{{{-56, -8}, 0}, {104, -28}},
      {.max_fraction = 6.2554128543723664e-15, .stop_at_penetration = true}));
}

// A point on a segment's line, off the segment, moving towards it by a long
// translation relative to the segment's own: the relative translation
// (2e16, 4.8e16 - 4) is not a double (its rounding, (2e16, 4.8e16), runs
// exactly along the line (5, 12) onto the near end). Exactly it leaves the
// line at once: a miss.
TEST(ExactPairTest, LongRelativeTranslationOffTheLineByLessThanItsRounding) {
  const Moving<Segment> segment{{{-20, -48}, {120, 288}}, {-128, -172}};
  EXPECT_FALSE(CastRay({{-140, -336}, {2e16 - 128, 4.8e16 - 176}}, segment));
  // Through the public pair query too.
  EXPECT_FALSE(
      CastPair(MovingShape{Vec2{-140, -336}, {2e16 - 128, 4.8e16 - 176}},
               MovingShape{Segment{{-20, -48}, {120, 288}}, {-128, -172}}));
}

TEST(ExactPairTest, LongRelativeTranslationExactlyAlongTheLineMeetsTheEnd) {
  // Relative translation (2e16, 4.8e16) exactly: along the line, meeting
  // the near end (-20, -48) after (120, 288), at t = 6e-15.
  const std::optional<Hit> hit =
      CastRay({{-140, -336}, {2e16 - 128, 4.8e16 - 176}},
              Moving<Segment>{{{-20, -48}, {120, 288}}, {-128, -176}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 6e-15, 1e-24);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 0);
}

TEST(ExactPairTest, LongRelativeTranslationPassingBesideAPointTarget) {
  // The degenerate report's case (a zero-length segment, offset 1e6): the
  // GMP oracle says miss; the rounded relative translation ran through it.
  EXPECT_FALSE(
      CastRay({{-1000013.5, 999984.5}, {5629499534213111, 13510798882111492}},
              Moving<Segment>{{{-1000008.5, 999996.5}, {-1000008.5, 999996.5}},
                              {-9, 3.75}}));
}

TEST(ExactPairTest, LongRelativeTranslationLeavingATouchingCircle) {
  // The degenerate report's circle case (offset 1e6, GMP oracle: miss):
  // the rounded relative translation closed on the circle.
  const CircleCast mover{{{305, -999944}, 52},
                         {-11999999999999932, 4999999999999958}};
  const Moving<Circle> target{{{17, -999993}, 104}, {67, -42}};
  EXPECT_FALSE(CastCircle(mover, target));
  EXPECT_FALSE(CastPair(MovingShape{mover.circle, mover.translation},
                        MovingShape{target.shape, target.translation}));
}

TEST(ExactPairTest, CollinearArrivalAtTheEndExactlyAtMaxFractionCounts) {
  // Relative motion (2, 0) along the segment's line from x = -5 onto its
  // end at x = -3: exactly at t = 1, a hit; one ulp further back, a miss.
  const Moving<Segment> segment{{{6, 0}, {-3, 0}}, {4, 0}};
  const std::optional<Hit> hit = CastRay({{-5, 0}, {6, 0}}, segment);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 1.0);
  EXPECT_EQ(hit->feature.index, 1);
  EXPECT_FALSE(CastRay({{std::nextafter(-5.0, -6.0), 0}, {6, 0}}, segment));
}

TEST(ExactPairTest, CrossingWhoseRoundedCrossProductsBothCancelGetsItsTime) {
  // The fuzzer's case: a segment through the origin reaching 1e60, moving
  // nearly along itself. Both rounded cross products of the crossing time
  // cancel to 0 (a NaN time before); exactly, -Cross(e, m) / Cross(e, d) =
  // 64 / 1.078e45 = 5.936e-44, at the segment's middle.
  const double far = 9.9999999999999995e+59;
  const std::optional<Hit> hit =
      CastRay({{0, -4}, {0, 8}},
              Moving<Segment>{{{-8, -far}, {8, far}},
                              {7.9999999999999991, 9.9999999999999977e+59}},
              {.max_fraction = 999999992});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 5.93615729970453e-44, 1e-57);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
}

// The degenerate report's long polygon pairs (GMP oracle: miss). The
// relative motion d1 - d2 is not a double; rounded, it ran one vertex
// exactly through another at about 1e-14 of the move, a false graze.
TEST(ExactPairTest, LongPolygonPairPassingByLessThanTheRoundingMisses) {
  const std::vector<Vec2> mover{
      {15.25, 5.75}, {16, 3.625}, {18.25, 3.5}, {17.5, 5.625}};
  const std::vector<Vec2> octagon{
      {-8.75, -4.375}, {-1.75, -9.625}, {4.375, -8.75}, {9.625, -1.75},
      {8.75, 4.375},   {1.75, 9.625},   {-4.375, 8.75}, {-9.625, 1.75}};
  const Vec2 d1{-1688849860263934, -2251799813685246.5};
  const Vec2 d2{2, 1.625};
  const ConvexPolygon a = *MakeConvexPolygon(mover);
  const ConvexPolygon b = *MakeConvexPolygon(octagon);
  EXPECT_FALSE(CastPolygon({a, d1}, Moving<ConvexPolygon>{b, d2}));
  EXPECT_FALSE(CastPair(MovingShape{a, d1}, MovingShape{b, d2}));
}

TEST(ExactPairTest, LongPolygonPairAtAnAngleMisses) {
  const ConvexPolygon a = *MakeConvexPolygon(
      std::vector<Vec2>{{-34, 155}, {-10, 145}, {20, 217}, {-4, 227}});
  const ConvexPolygon b = *MakeConvexPolygon(
      std::vector<Vec2>{{-85, -35}, {35, -85}, {37, 55}, {13, 65}});
  EXPECT_FALSE(CastPolygon({a, {-5000000000000051, -12000000000000020}},
                           Moving<ConvexPolygon>{b, {-51, -21}}));
}

// The degenerate report's case (GMP oracle: a hit at once): a polygon's
// long move relative to a moving capsule, (5e15, 12000000000000001), is
// one unit off the capsule's axis direction (5, 12), which its rounding,
// (5e15, 1.2e16), runs exactly along. It closes on the capsule's side,
// where the polygon's corner starts, by 0.38 over the move.
TEST(ExactPairTest, LongMoveAlmostAlongACapsuleClosesOnItsSide) {
  const ConvexPolygon mover = *MakeConvexPolygon(
      std::vector<Vec2>{{34, -155}, {75, -158}, {44, -131}, {3, -128}});
  const std::optional<Hit> hit =
      CastPolygon({mover, {4999999999999987, 11999999999999936}},
                  Moving<Capsule>{Capsule{{-5, -12}, {5, 12}, 52}, {-13, -65}});
  ASSERT_TRUE(hit);
  EXPECT_LE(hit->fraction, 1e-14);
}

// Two of the degenerate report's long grown pairs (offset 1e6 and 1e9; GMP
// oracle: miss): the rounded relative motion grazed the capsule's side or
// the polygon's corner within the capsule's radius at about 1e-14 of the
// move; the exact one passes beside.
TEST(ExactPairTest, LongGrownPairsPassingBesideMiss) {
  const ConvexPolygon box =
      *MakeConvexPolygon(std::vector<Vec2>{{-1000036, 999977},
                                           {-1000035, 999970},
                                           {-1000028, 999971},
                                           {-1000029, 999978}});
  EXPECT_FALSE(CastPolygon(
      {box, {6755399441055758, 9007199254741020}},
      Moving<Capsule>{Capsule{{-1000003, 999996}, {-999976, 1000032}, 5},
                      {14, 27}}));
  const ConvexPolygon triangle =
      *MakeConvexPolygon(std::vector<Vec2>{{-1000000033, 1000000056},
                                           {-1000000063, 999999984},
                                           {-999999942, 1000000004}});
  EXPECT_FALSE(CastCapsule(
      {Capsule{{-1000000152, 1000000007}, {-1000000152, 1000000007}, 13},
       {12000000000000072, -4999999999999960}},
      Moving<ConvexPolygon>{triangle, {73, 40}}));
}

// The degenerate report's long move against a moving concave polygon
// (offset 1e6; GMP oracle: miss): the rounded relative motion grazed the
// solid's vertex (163840, -1299008) at 2e-15 of the move.
TEST(ExactPairTest, LongMoveBesideAMovingConcavePolygonMisses) {
  const ConvexPolygon mover = *MakeConvexPolygon(std::vector<Vec2>{
      {122880, -1397312}, {81920, -1495616}, {397312, -1569344}});
  const std::vector<Vec2> solid{{327680, -905792},   {307200, -954944},
                                {-135168, -770624},  {-258048, -1065536},
                                {184320, -1249856},  {163840, -1299008},
                                {-327680, -1094208}, {-163840, -700992}};
  EXPECT_FALSE(CastPolygon(
      {mover, {2.0480000000000066e+19, 4.9151999999999738e+19}},
      Moving<ConcavePolygon>{*MakeConcavePolygon(solid), {65536, -258048}}));
}

// The geometry fuzzer's case (CI, seed 1): a point at (e, 0) moving by
// (e, e) against a segment shrunk to the point (e, e) moving by (e, 0),
// e = 7.67e-193. Relative to it the point rises by e onto it at t = 1.
// Every product the root is made of underflowed: q rounded to -0 and the
// time came out -inf. Checked at scale 1, at tiny scales and in the
// subnormal range: the time is scale invariant.
TEST(ExactPairTest, TinyScaleSweepsKeepTheirTime) {
  for (const double e : {1.0, 7.6724405826819995e-193, std::ldexp(1.0, -900),
                         std::ldexp(1.0, -1040)}) {
    SCOPED_TRACE(e);
    const std::optional<Hit> point =
        CastPair({Vec2{e, 0}, {e, e}}, {Segment{{e, e}, {e, e}}, {e, 0}});
    ASSERT_TRUE(point);
    EXPECT_EQ(point->fraction, 1.0);
    // (Below 2^-1019 the closing speed below is not a double.)
    if (e < 0x1p-1000) continue;
    // Two circles of radius 2e, centres 8e apart along x, closing by
    // 8e + 2^-55 e (not a double: the exact pair path): they touch once
    // the gap of 4e is closed, at t = 4 / (8 + 2^-55), about 1/2.
    const double closing = std::ldexp(e, -55);
    const std::optional<Hit> circles =
        CastPair({Circle{{0, 0}, 2 * e}, {8 * e, 0}},
                 {Circle{{8 * e, 0}, 2 * e}, {-closing, 0}});
    ASSERT_TRUE(circles);
    EXPECT_NEAR(circles->fraction, 0.5, 1e-15);
  }
}

}  // namespace
}  // namespace collide
