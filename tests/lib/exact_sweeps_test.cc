// Degenerate sweeps against polygons, segments and circles that rounded
// decisions get wrong, each exact by construction or taken from the
// degenerate report with the GMP oracle's exact answer (tests/lib/oracle),
// to 1e-9 of the sweep.
#include <optional>
#include <vector>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

constexpr double kSweepTolerance = 1e-9;

ConvexPolygon Polygon(std::vector<Vec2> vertices) {
  return *MakeConvexPolygon(vertices);
}

// A triangle's corner slides down the box's left side line onto the box's
// top-left corner at t = 48 / 216: corner to corner, the normal must
// separate the two (the box's left normal, as the triangle is to the
// left), not the box's top normal, which cuts through the triangle.
TEST(ExactSweepsTest, CornerOnCornerContactTakesASeparatingNormal) {
  const std::optional<Hit> hit =
      CastPolygon({Polygon({{-24, 96}, {-40, 120}, {-40, 72}}), {0, -216}},
                  Polygon({{24, 48}, {-24, 48}, {-24, -48}, {24, -48}}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 48.0 / 216.0, kSweepTolerance);
  EXPECT_EQ(hit->point.x, -24.0);
  EXPECT_EQ(hit->point.y, 48.0);
  EXPECT_EQ(hit->normal.x, -1.0);
  EXPECT_EQ(hit->normal.y, 0.0);
}

// A crate resting on a floor of unit tiles slides right along it onto the
// next tile: its corner meets the tile's top-left corner at t = 0.2, a
// contact whose valid normals run from the tile's side (-1, 0) to its top
// (0, 1). The top is the one the slide moves along; the side, which the
// sweep met first, would stop the crate dead at every seam.
TEST(ExactSweepsTest, CrateSlidingOntoTheNextTileTouchesItsTop) {
  const ConvexPolygon crate =
      Polygon({{-0.8, 0}, {-0.2, 0}, {-0.2, 0.6}, {-0.8, 0.6}});
  const ConvexPolygon tile = Polygon({{0, -1}, {1, -1}, {1, 0}, {0, 0}});
  for (const std::optional<Hit>& hit :
       {CastPolygon({crate, {1, 0}}, tile),
        CastPolygon({crate, {1, 0}}, Segment{{0, 0}, {1, 0}})}) {
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->status, HitStatus::kHit);
    EXPECT_NEAR(hit->fraction, 0.2, kSweepTolerance);
    EXPECT_EQ(hit->point.x, 0.0);
    EXPECT_EQ(hit->point.y, 0.0);
    EXPECT_EQ(hit->normal.x, 0.0);
    EXPECT_EQ(hit->normal.y, 1.0);
  }
}

// The degenerate report's case at offset 1e9: a 0.0005-wide box slides
// along a segment's line onto its end. The segment's two normals oppose the
// motion alike; only (0, 1) separates (the box is above the line), though
// the other's overlap (0.00146) is below 1e-12 of the coordinates.
TEST(ExactSweepsTest, SlideOntoASegmentsEndFarAwayTakesTheSeparatingSide) {
  const ConvexPolygon box = Polygon({{999999999.99633789, -0.000244140625},
                                     {999999999.99682617, -0.000244140625},
                                     {999999999.99682617, 0.001220703125},
                                     {999999999.99633789, 0.001220703125}});
  const std::optional<Hit> hit = CastPolygon(
      {box, {1048576, 0}}, Segment{{999999999.99951172, -0.000244140625},
                                   {999999999.99829102, -0.000244140625}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_EQ(hit->normal.x, 0.0);
  EXPECT_EQ(hit->normal.y, 1.0);
}

// The circle moves parallel to the edge (-0.890625, -2.234375) ->
// (1.359375, 1.984375) (direction (4, 7.5) = 16/9 of it) at exactly its
// radius from the edge's line: a slide along the side, touching where it
// comes level with the edge at t = 0.3125.
TEST(ExactSweepsTest, CircleSlidingAlongAPolygonSideAtItsRadiusTouches) {
  const ConvexPolygon polygon = Polygon({{0.390625, 1.296875},
                                         {-0.859375, -1.046875},
                                         {-0.890625, -2.234375},
                                         {1.359375, 1.984375}});
  const std::optional<Hit> hit =
      CastCircle({{{-3.046875, -2.890625}, 1.0625}, {4, 7.5}}, polygon);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 0.3125, kSweepTolerance);
  EXPECT_LE(hit->fraction, 0.3125);
}

// The circle of radius 40960 ends its move exactly at its radius from the
// side (94208, -45056) -> (-69632, 77824), whose outward normal is
// (0.6, 0.8): touching at the end counts, and ending one ulp short misses.
TEST(ExactSweepsTest, CircleEndingOnAPolygonSideIsAHit) {
  const ConvexPolygon polygon = Polygon(
      {{94208, -45056}, {-69632, 77824}, {-77824, 32768}, {53248, -65536}});
  const CircleCast cast{{{36864, 151552}, 40960}, {-49152, -65536}};
  const std::optional<Hit> hit = CastCircle(cast, polygon);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_EQ(hit->fraction, 1.0);
  EXPECT_FALSE(CastCircle(cast, polygon, {.max_fraction = 0.9999999999999999}));
}

// The same with a capsule's side: a zero-radius circle ending at (1, 7),
// exactly 5 from the segment (0, 0) -> (8, 6) (outward normal (-0.6, 0.8),
// not a double) grown by 5.
TEST(ExactSweepsTest, PointEndingOnACapsuleSideIsAHit) {
  const Capsule capsule{{0, 0}, {8, 6}, 5};
  const CircleCast cast{{{-5, 15}, 0.0}, {6, -8}};
  const std::optional<Hit> hit = CastCircle(cast, capsule);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->fraction, 1.0);
  EXPECT_FALSE(CastCircle(cast, capsule, {.max_fraction = 0.9999999999999999}));
}

// A ray aimed one ulp off a segment's end: from (-124, 108 - ulp) by
// (56, -136) the line through the end (-96, 40) passes beside it, a miss;
// from 108 exactly it meets the end (vertex) at t = 1/2.
TEST(ExactSweepsTest, RayAimedAtASegmentEndHitsOnlyWhenItMeetsIt) {
  const Segment segment{{48, -20}, {-96, 40}};
  EXPECT_FALSE(CastRay({{-124, 107.99999999999999}, {56, -136}}, segment));
  const std::optional<Hit> hit = CastRay({{-124, 108}, {56, -136}}, segment);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, kSweepTolerance);
  EXPECT_EQ(hit->point.x, -96.0);
  EXPECT_EQ(hit->point.y, 40.0);
}

// A ray through a segment's end one ulp inside it, ending there: (6 - ulp,
// 6 - ulp) by (-6, -5) crosses x = 0 at t = 1 - ulp / 6, at y just below 1,
// inside the segment (0, -3) -> (0, 1).
TEST(ExactSweepsTest, RayGrazingASegmentEndAtItsLimitHits) {
  const std::optional<Hit> hit =
      CastRay({{5.9999999999999991, 5.9999999999999991}, {-6, -5}},
              Segment{{0, -3}, {0, 1}});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 1.0, kSweepTolerance);
  EXPECT_LE(hit->fraction, 1.0);
}

// A horizontal ray nearly tangent to a big circle: its time hangs on the
// square root of a discriminant that rounding would move by 1e-8 of the
// sweep. The oracle's exact time lies in the interval below.
TEST(ExactSweepsTest, NearlyTangentRayGetsTheExactTime) {
  const std::optional<Hit> hit =
      CastRay({{192.00000000000006, 319.99999999999994}, {-64, 0}},
              Circle{{128, -128}, 448});
  ASSERT_TRUE(hit);
  EXPECT_GT(hit->fraction, 0.99999988848986732 - kSweepTolerance);
  EXPECT_LE(hit->fraction, 0.99999988848992416 + kSweepTolerance);
}

// A very long ray meeting a small polygon at t ~ 5e-15: the closed form's
// rounding bounds are too wide to decide it, the exact path does.
TEST(ExactSweepsTest, LongRayMeetsASmallPolygonEarly) {
  const ConvexPolygon polygon = Polygon({{0.3515625, -0.4765625},
                                         {0.5859375, 0.0859375},
                                         {-0.2734375, 0.6640625},
                                         {-0.6640625, -0.2734375}});
  const std::optional<Hit> hit = CastRay(
      {{-0.7421875, 0.859375}, {93750000000000, -39062500000000}}, polygon);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_GT(hit->fraction, 4.9999609487427765e-15);
  EXPECT_LE(hit->fraction, 5.0000000000000008e-15);
}

// The circle of radius 10 slides along the segment's line (both along
// (3, 4)) at exactly its radius from it: it touches when it comes level
// with the segment's end, 25 of its 105 units along, so at t = 25 / 105.
// (The rounded rate towards the line is only rounding, and a quotient by it
// could land anywhere.)
TEST(ExactSweepsTest, CircleSlidingAlongASegmentsLineTouchesItsEnd) {
  const std::optional<Hit> hit =
      CastCircle({{{-38, -34}, 10}, {63, 84}}, Segment{{-15, -20}, {18, 24}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 25.0 / 105.0, kSweepTolerance);
  EXPECT_NEAR(hit->point.x, -15.0, 1e-9);
  EXPECT_NEAR(hit->point.y, -20.0, 1e-9);
}

// A circle starting exactly at its radius from the segment's line, beyond
// its end, is thrown 6.8e16 units nearly along the line, closing on it by
// 204 units over the whole move: it crosses the line far beyond the
// segment, but meets the segment's near end within 2e-14 of the move
// (GMP oracle). Ending 136 units past the line on the other side must not
// read as "short of the side".
TEST(ExactSweepsTest, LongMoveAcrossACapsulesSideMeetsItsEnd) {
  const std::optional<Hit> hit =
      CastCircle({{{999132, 540}, 68}, {59999999999999904, -32000000000000180}},
                 Segment{{999640, 192}, {1000240, -128}});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_GT(hit->fraction, 0.0);
  EXPECT_LE(hit->fraction, 1.8999992551504974e-14);
}

// The capsule's side is met at exactly t = 1, but one ulp beyond the
// side's end (y = -7.0000000000000009 against the end at -7), where the
// side is no longer the capsule's and its cap is not yet reached: a miss,
// which the rounded position along the side would call the end itself.
TEST(ExactSweepsTest, SideContactOneUlpPastTheEndMisses) {
  const std::optional<Hit> hit = CastCapsule(
      {{{-5, -7.0000000000000009}, {-5, -7.0000000000000009}, 3}, {2, 0}},
      Capsule{{0, 4}, {0, -7}, 0});
  EXPECT_FALSE(hit);
  // Exactly at the end, it touches at t = 1.
  const std::optional<Hit> touch = CastCapsule(
      {{{-5, -7}, {-5, -7}, 3}, {2, 0}}, Capsule{{0, 4}, {0, -7}, 0});
  ASSERT_TRUE(touch);
  EXPECT_EQ(touch->fraction, 1.0);
  EXPECT_EQ(touch->point.x, 0.0);
  EXPECT_EQ(touch->point.y, -7.0);
}

// In the skin of an L-shaped solid (skin 3): the nearest part is the
// corner (2, -3), 1 away, which the ray leaves; the corner (2, -2), 1.41
// away, it approaches for a while but never touches. The gap to the solid
// is the least over its parts, and it grows: no hit (judged edge by edge,
// it would be a hit at fraction 0).
TEST(ExactSweepsTest, SkinStartLeavingAConcaveSolidsNearestPartMisses) {
  // The polygon views its vertices: they must outlive it.
  const std::vector<Vec2> vertices{{2, -3}, {2, -2}, {-1, -2},
                                   {-1, 3}, {-2, 3}, {-2, -3}};
  const ConcavePolygon solid = *MakeConcavePolygon(vertices);
  EXPECT_FALSE(CastRay({{3, -3}, {3, 29}}, solid, {.target_distance = 3}));
  // Closing on the nearest corner instead, it stops where it is.
  const std::optional<Hit> closing =
      CastRay({{3, -3}, {-3, 29}}, solid, {.target_distance = 3});
  ASSERT_TRUE(closing);
  EXPECT_EQ(closing->status, HitStatus::kHit);
  EXPECT_EQ(closing->fraction, 0.0);
}

// A crate slides down a wall (x = -4) that a notch as tall as the crate
// interrupts: bridging it, the crate touches the wall's continuation below
// at t = 1/4 while still touching the wall above. A contact with an edge
// that does not adjoin the touched one is a new contact, tangents counting
// (toi.h); sliding off the touched edge's end onto its neighbour is not.
TEST(ExactSweepsTest, SlideBridgingANotchTouchesItsFarLip) {
  const std::vector<Vec2> notched{{4, -3}, {4, 3},  {-4, 3},  {-4, 1},
                                  {2, 1},  {2, -1}, {-4, -1}, {-4, -3}};
  const ConcavePolygon solid = *MakeConcavePolygon(notched);
  const ConvexPolygon crate = Polygon({{-10, 0}, {-4, 0}, {-4, 2}, {-10, 2}});
  const std::optional<Hit> hit = CastPolygon({crate, {0, -4}}, solid);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_EQ(hit->fraction, 0.25);
  EXPECT_EQ(hit->point.x, -4.0);
  EXPECT_EQ(hit->point.y, -1.0);
  // Sliding down a straight wall past its end, it meets nothing.
  const std::vector<Vec2> wall{{4, -3}, {4, 3}, {-4, 3}, {-4, -3}};
  EXPECT_FALSE(CastPolygon({crate, {0, -8}}, *MakeConcavePolygon(wall)));
}

// A point in the skin of a concave polygon's corner, moving along the
// circle around it (not closing on it), passes an edge parallel to its
// motion at exactly the skin's distance: that edge does not face the
// motion, so it is no later hit (the degenerate report's case, offset 1e6).
TEST(ExactSweepsTest, SkinStartGrazingAParallelEdgesSkinMisses) {
  const std::vector<Vec2> vertices{{1000000.0014648438, -0.004150390625},
                                   {1000000.0004882812, -0.00341796875},
                                   {1000000.0026855469, -0.00048828125},
                                   {999999.99877929688, 0.00244140625},
                                   {999999.99658203125, -0.00048828125},
                                   {999999.99560546875, 0.000244140625},
                                   {999999.99853515625, 0.004150390625},
                                   {1000000.0043945312, -0.000244140625}};
  EXPECT_FALSE(CastCircle(
      {{{1000000.005859375, 0.001708984375}, 0}, {-0.001953125, 0.00146484375}},
      *MakeConcavePolygon(vertices), {.target_distance = 0.003662109375}));
}

// The mover's corner passes one ulp from the obstacle's corner
// (-0.09375, 0.265625) as the mover's edge meets it: the two sweeps' times
// tie to rounding, and the contact is corner to corner. The reported normal
// must separate the two shapes then (not the obstacle's edge normal, which
// the mover's edge crosses).
TEST(ExactSweepsTest, CornerGrazingACornerTakesASeparatingNormal) {
  const std::vector<Vec2> mover{{-0.42187499999999989, 0.60937499999999989},
                                {-0.43749999999999989, 0.71874999999999989},
                                {-0.54687499999999989, 0.70312499999999989},
                                {-0.53124999999999989, 0.59374999999999989}};
  const std::vector<Vec2> obstacle{{-0.46875, 0.15625},
                                   {0.28125, -0.40625},
                                   {0.28125, -0.015625},
                                   {-0.09375, 0.265625}};
  const Vec2 d{1.0625, -0.796875};
  const std::optional<Hit> hit =
      CastPolygon({Polygon(mover), d}, Polygon(obstacle));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  for (const Vec2 v : mover) {
    EXPECT_GE(Dot(v + hit->fraction * d - hit->point, hit->normal), -1e-12);
  }
  for (const Vec2 v : obstacle) {
    EXPECT_GE(Dot(hit->point - v, hit->normal), -1e-12);
  }
}

// A ray 1.26e8 long crosses the triangle's edge (96, -48) -> (-96, 96)
// nearly along it, at t = 1/2 to 2e-14 (GMP oracle): the entry time's
// rounding (the rounded normal's, divided by a small closing rate) reached
// 1.2e-9 of the sweep before the time came from exact cross products.
TEST(ExactSweepsTest, NearlyParallelLongRayGetsTheExactEntryTime) {
  const std::optional<Hit> hit =
      CastRay({{-50331656, 37748768}, {100663312, -75497488}},
              Polygon({{96, -48}, {-96, 96}, {-96, -96}}));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-12);
  // On the ray's path then, to the rounding of its 1e8 coordinates.
  const Vec2 at =
      Vec2{-50331656, 37748768} + hit->fraction * Vec2{100663312, -75497488};
  EXPECT_NEAR(hit->point.x, at.x, 1e-6);
  EXPECT_NEAR(hit->point.y, at.y, 1e-6);
}

// The quadrilateral's corner lies 7e-15 beside the circle's centre, outside
// the corner's cone of normals: the nearest point of the polygon to the
// centre is on the edge towards (-50, 49), 5.8e-15 away, not the corner.
// The escape normal must be that edge's (moving the polygon along it by
// the depth separates them); the corner's direction, (1, 0), which
// rounding made look nearer, needs 78 units, not 52.
TEST(ExactSweepsTest, DeepOverlapEscapesAlongTheExactNearestFeature) {
  const std::vector<Vec2> mover{{-23.999999999999993, 10},
                                {22.000000000000007, 19},
                                {-3.9999999999999929, 58},
                                {-49.999999999999993, 49}};
  const std::optional<Hit> hit =
      CastPolygon({Polygon(mover), {28, -68}}, Circle{{-24, 10}, 52});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kInitialOverlap);
  // The edge's outward normal, turned towards the mover.
  const Vec2 edge =
      Vec2{-23.999999999999993, 10} - Vec2{-49.999999999999993, 49};
  const Vec2 expected = Normalize(Vec2{-edge.y, edge.x});
  EXPECT_NEAR(hit->normal.x, expected.x, 1e-12);
  EXPECT_NEAR(hit->normal.y, expected.y, 1e-12);
  EXPECT_NEAR(hit->depth, 52.0, 1e-9);
}

// A capsule's end a hair (a few hundred ulps) outside a circle, moving in:
// the contact comes at about 3e-14 of the sweep, and whether by
// max_fraction hangs on |m|^2 - r^2, whose rounding is a good part of it.
// From the degenerate report (near-reach): exactly the capsule is still
// apart at max_fraction (a miss), where the rounded time said a hit; and
// the same with the other answer (exactly a hit, rounded a miss).
TEST(ExactSweepsTest, ContactWithinRoundingOfTheStartIsDecidedExactly) {
  EXPECT_FALSE(CastCapsule({{{1.9999999999999389, -1.0000000000000304},
                             {2.9999999999999392, -2.0000000000000306},
                             1},
                            {2, 1}},
                           Circle{{2, 2}, 2},
                           {.max_fraction = 3.0265069964063862e-14}));
  const std::optional<Hit> hit = CastCapsule(
      {{{-2816.000000001045, 512.00000000078376},
        {-1.0450094123370945e-09, 7.8375705925282091e-10},
        2560},
       {2048, -1536}},
      Circle{{2048, -1536}, 0}, {.max_fraction = 5.1025850211772195e-13});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_GT(hit->fraction, 4.78e-13);
  EXPECT_LE(hit->fraction, 5.1025850211772195e-13);
}

}  // namespace
}  // namespace collide
