// Exact decisions in the last corners: near-ties at fraction 0 that could
// hide an overlap, one exact time met along different paths, points a few
// ulps outside round shapes, long near-parallel grazes, vertex-first
// contacts far from the origin, and the touching-start rules of polylines
// and zero-radius capsules. Each case carries its coordinates as found; the
// expected answers are the exact ones (worked out with rational arithmetic).
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Polygon;

Level MakeLevel(std::vector<ShapeDesc> shapes) {
  absl::StatusOr<Level> level = Level::Create(shapes);
  EXPECT_TRUE(level.ok()) << level.status();
  return *std::move(level);
}

// The point lies 2.2e-16 outside the capsule (to the left of its p1 end
// cap): the distance is positive, so the normal is a unit vector, (-1, 0).
TEST(CornerCasesTest, APointUlpsOutsideACapsuleGetsAUnitNormal) {
  const Level level = MakeLevel({
      {.id = 1,
       .geometry = Capsule{{-6.940924292281894, 7.707762160840481},
                           {3.737918878182758, 2.27166313091592},
                           0.8058023603402977}},
  });
  const Vec2 point{-7.746726652622192, 7.707762160840481};
  const std::optional<WorldClosestPoint> closest =
      ClosestPoint(point, level, 1.0);
  ASSERT_TRUE(closest.has_value());
  EXPECT_GT(closest->distance, 0.0);
  EXPECT_EQ(closest->normal.x, -1.0);
  EXPECT_EQ(closest->normal.y, 0.0);
}

// A circle already overlapping segment 2 at the start, while segment 1 is
// first touched a few ulps of the sweep later (t ~ 5.24e-16 > 0): the start
// overlap is the answer, never segment 1's contact rounded to fraction 0.
TEST(CornerCasesTest, AnOverlapBesideAShapeTouchedUlpsLaterIsAnInitialOverlap) {
  const Level level = MakeLevel({
      {.id = 1,
       .geometry = Segment{{-9.87581926112584, 8.22689193350794},
                           {-8.317590259800681, -1.943080305125024}}},
      {.id = 2,
       .geometry = Segment{{-2.552182027972581, 8.46051711929968},
                           {-10.541767890026218, 8.46051711929968}}},
  });
  const CircleCast cast{{{-7.89888978703222, 8.529794317882713}, 2.0},
                        {-0.8605597538844387, -0.5121255371329266}};
  const std::optional<WorldHit> hit = CastCircle(cast, level);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shape_id, 2u);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->hit.fraction, 0.0);
  EXPECT_NEAR(hit->hit.depth, 1.9307228014169677, 1e-12);
  EXPECT_NEAR(hit->hit.normal.x, 0.0, 1e-12);
  EXPECT_NEAR(hit->hit.normal.y, 1.0, 1e-12);

  // The list agrees: the overlap ranks first.
  WorldHit hits[4];
  const ListResult all = CastCircleAll(cast, level, hits);
  ASSERT_EQ(all.count, 2);
  EXPECT_EQ(hits[0].shape_id, 2u);
  EXPECT_EQ(hits[0].hit.status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hits[1].shape_id, 1u);
}

// The triangle meets segment 3 and segment 6 at one exact time, t =
// 2242860919729856/3192736722357535, along different paths (a vertex on one
// segment, the other's end on an edge): the tie goes to the smaller id
// whichever way the ids run, and the list reports that one time as one
// double, its correct rounding 0x1.67ac9389665d0p-1.
TEST(CornerCasesTest, ShapesMetAtOneExactTimeTieOnTheIdWithOneDouble) {
  const Segment upper{{-6, -6.5}, {2, -6.5}};
  const Segment lower{{-4, -7.5}, {-5.5, -7.5}};
  const PolygonCast cast{Polygon({{-6.640453163446034, -7.211154340400764},
                                  {-8.640453163446034, -9.211154340400764},
                                  {-8.640453163446034, -3.211154340400764}}),
                         {2.89537565033603, -2.955031444089987}};
  const double exact = 0x1.67ac9389665d0p-1;
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const uint64_t upper_id = swapped ? 6 : 3;
    const uint64_t lower_id = swapped ? 3 : 6;
    const Level level = MakeLevel({{.id = upper_id, .geometry = upper},
                                   {.id = lower_id, .geometry = lower}});
    const std::optional<WorldHit> hit = CastPolygon(cast, level);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, 3u);
    EXPECT_EQ(hit->hit.status, HitStatus::kHit);
    EXPECT_EQ(hit->hit.fraction, exact);

    WorldHit hits[4];
    const ListResult all = CastPolygonAll(cast, level, hits);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, 3u);
    EXPECT_EQ(hits[1].shape_id, 6u);
    EXPECT_EQ(hits[0].hit.fraction, exact);
    EXPECT_EQ(hits[1].hit.fraction, exact);
  }
}

// A ray with a skin of 195 is first that far from two segments at one
// exact time, t* = 22/43, along different paths (one's inside, the other's
// end): a skin makes both round, and the tie goes to the smaller id
// whichever way the ids run, one exact time as one double.
TEST(CornerCasesTest, ARayWithASkinMeetsTwoSegmentsAtOneExactTimeTiesOnTheId) {
  const Segment inside{{193, 612}, {-122, 532}};
  const Segment end{{220, 276}, {223, 278}};
  const RayInput ray{{-344, -43}, {774, 817}};
  const CastOptions options{.target_distance = 195};
  const double exact = 22.0 / 43.0;  // correctly rounded
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const Level level =
        MakeLevel({{.id = swapped ? 6u : 3u, .geometry = inside},
                   {.id = swapped ? 3u : 6u, .geometry = end}});
    const std::optional<WorldHit> hit = CastRay(ray, level, {}, options);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, 3u);
    EXPECT_EQ(hit->hit.status, HitStatus::kHit);
    EXPECT_EQ(hit->hit.fraction, exact);
    WorldHit hits[4];
    const ListResult all = CastRayAll(ray, level, hits, {}, options);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, 3u);
    EXPECT_EQ(hits[1].shape_id, 6u);
    EXPECT_EQ(hits[0].hit.fraction, exact);
    EXPECT_EQ(hits[1].hit.fraction, exact);
  }
}

// A ray starts exactly a skin (650) from segment 6 and closes on it: a hit
// at exactly 0. Segment 3, its far end one ulp off the line that would
// make it a skin away too, starts a sub-ulp amount farther and is met that
// little later: segment 6 first, though both report fraction 0 (or 3 a
// time that rounds near it) and 3 is the smaller id.
TEST(CornerCasesTest, AStartAtTheSkinRanksBeforeAContactASubUlpLater) {
  const Level level = MakeLevel({
      {.id = 3,
       .geometry = Segment{{-3994, 2217}, {-1810, 1580.0000000000002}}},
      {.id = 6, .geometry = Segment{{-3312, 1966}, {-3306, 1983}}},
  });
  const RayInput ray{{-3240, 1320}, {2760, 4320}};
  const CastOptions options{.target_distance = 650};
  const std::optional<WorldHit> hit = CastRay(ray, level, {}, options);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shape_id, 6u);
  EXPECT_EQ(hit->hit.status, HitStatus::kHit);
  EXPECT_EQ(hit->hit.fraction, 0.0);
  WorldHit hits[4];
  const ListResult all = CastRayAll(ray, level, hits, {}, options);
  ASSERT_EQ(all.count, 2);
  EXPECT_EQ(hits[0].shape_id, 6u);
  EXPECT_EQ(hits[0].hit.fraction, 0.0);
  EXPECT_EQ(hits[1].shape_id, 3u);
  EXPECT_EQ(hits[1].hit.status, HitStatus::kHit);
  EXPECT_GE(hits[1].hit.fraction, 0.0);
  EXPECT_LE(hits[1].hit.fraction, 1e-13);
}

// A ray with a skin of 975 meets segments 3 and 6 at one exact time, t* =
// 55/94, whose per-shape roundings differ by an ulp (3's is the lower).
// The ray's walk tests segment 3 again in a later cell: that must not undo
// the settled tie, so the closest hit and the list give the one time as
// one double, its correct rounding.
TEST(CornerCasesTest, ATiedTimeIsOneDoubleInBothModesWhenARayMeetsAShapeAgain) {
  const Level level = MakeLevel({
      {.id = 3, .geometry = Segment{{607, -5726}, {1507, -5351}}},
      {.id = 6, .geometry = Segment{{-443, -4701}, {-477, -4689}}},
  });
  const RayInput ray{{752, -1786}, {-376, -4982}};
  const CastOptions options{.target_distance = 975};
  const double exact = 55.0 / 94.0;  // correctly rounded
  const std::optional<WorldHit> hit = CastRay(ray, level, {}, options);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shape_id, 3u);
  EXPECT_EQ(hit->hit.fraction, exact);
  WorldHit hits[4];
  const ListResult all = CastRayAll(ray, level, hits, {}, options);
  ASSERT_EQ(all.count, 2);
  EXPECT_EQ(hits[0].shape_id, 3u);
  EXPECT_EQ(hits[0].hit.fraction, exact);
  EXPECT_EQ(hits[1].hit.fraction, exact);
}

// A quadrilateral meets two triangles at one exact time along different
// paths; both per-shape times round to the same double, one ulp below the
// exact time's correct rounding. The examined tie reports that correct
// rounding for both, in both modes, so the one exact time is the same
// double in every answer that settles a tie on it.
TEST(CornerCasesTest, ATiedTimeIsReportedCorrectlyRoundedThoughBothRoundAlike) {
  const std::vector<Vec2> first{
      {-65968, 54524}, {-66000, 54532}, {-66035, 54567}};
  const std::vector<Vec2> second{
      {-64762, 43530}, {-64768, 43525}, {-64764, 43524}};
  const PolygonCast cast{Polygon({{-30080, 27072},
                                  {-12032, -15040},
                                  {-9024, -27072},
                                  {-24064, -27072}}),
                         {-51136, 39104}};
  const double exact = 0.7021276595744681;  // correctly rounded
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const Level level =
        MakeLevel({{.id = swapped ? 6u : 3u, .geometry = PolygonDesc{first}},
                   {.id = swapped ? 3u : 6u, .geometry = PolygonDesc{second}}});
    const std::optional<WorldHit> hit = CastPolygon(cast, level);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, 3u);
    EXPECT_EQ(hit->hit.fraction, exact);
    WorldHit hits[4];
    const ListResult all = CastPolygonAll(cast, level, hits);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, 3u);
    EXPECT_EQ(hits[0].hit.fraction, exact);
    EXPECT_EQ(hits[1].hit.fraction, exact);
  }
}

// A circle 2^-48 above the corner (-3, 3) of a concave polygon, moving
// down by 2: it is met at exactly 2^-49 of the sweep, and a copy of the
// polygon moved down by 2^-51 at 2^-49 + 2^-52; both hits round to
// fraction 0 or near it. The exactly earlier (the unmoved polygon, id 2)
// comes first, though the copy has the smaller id.
TEST(CornerCasesTest, ConcaveHitsWithinRoundingOfTheStartGoInTheirExactOrder) {
  const double down = std::ldexp(1.0, -51);
  std::vector<Vec2> solid{{-3, 3}, {-3, 1}, {1, 1}, {1, -3}, {3, -3}, {3, 3}};
  std::vector<Vec2> copy = solid;
  for (Vec2& v : copy) v.y -= down;  // exact: every y is a multiple of 2^-51
  const Level level = MakeLevel({{.id = 2, .geometry = PolygonDesc{solid}},
                                 {.id = 1, .geometry = PolygonDesc{copy}}});
  const CircleCast cast{{{-3, 5 + std::ldexp(1.0, -48)}, 2}, {0, -2}};
  const std::optional<WorldHit> hit = CastCircle(cast, level);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->shape_id, 2u);
  EXPECT_EQ(hit->hit.status, HitStatus::kHit);
  EXPECT_LE(hit->hit.fraction, 1e-14);
  WorldHit hits[4];
  const ListResult all = CastCircleAll(cast, level, hits);
  ASSERT_EQ(all.count, 2);
  EXPECT_EQ(hits[0].shape_id, 2u);
  EXPECT_EQ(hits[1].shape_id, 1u);
  EXPECT_LE(hits[0].hit.fraction, hits[1].hit.fraction);
}

// A circle met at t* = 1/11 by two segments along different paths: one's
// inside tangent to it, the other's end on its rim (both contact normals
// of length 65: a rational time the circle's arithmetic reaches through a
// square root). The tie goes to the smaller id, one exact time as one
// double, the correct rounding of 1/11.
TEST(CornerCasesTest, ACircleMetAtOneExactTimeTiesOnTheIdWithOneDouble) {
  const Segment tangent{{-222, 243}, {-126, -135}};
  const Segment end_on_rim{{-130, 332}, {-136, 334}};
  const CircleCast cast{{{-44, 176}, 130}, {-396, 396}};
  const double exact = 1.0 / 11.0;  // correctly rounded
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const Level level =
        MakeLevel({{.id = swapped ? 6u : 3u, .geometry = tangent},
                   {.id = swapped ? 3u : 6u, .geometry = end_on_rim}});
    const std::optional<WorldHit> hit = CastCircle(cast, level);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, 3u);
    EXPECT_EQ(hit->hit.fraction, exact);
    WorldHit hits[4];
    const ListResult all = CastCircleAll(cast, level, hits);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, 3u);
    EXPECT_EQ(hits[1].shape_id, 6u);
    EXPECT_EQ(hits[0].hit.fraction, exact);
    EXPECT_EQ(hits[1].hit.fraction, exact);
  }
}

// At 1e9: a circle of radius 975 met at t* = 30/31 by a capsule's side and
// by another circle; the per-shape roundings differ by an ulp, and the
// smaller id wins with 30/31 correctly rounded for both.
TEST(CornerCasesTest, RoundShapesMetAtOneExactTimeAt1e9TieOnTheId) {
  const Capsule side{{999998698, 1000002214}, {999998986, 1000004798}, 325};
  const Circle rim{{1000001340, 1000005245}, 975};
  const CircleCast cast{{{1000001550, 1000000775}, 975}, {-1426, 3007}};
  const double exact = 30.0 / 31.0;  // correctly rounded
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const Level level = MakeLevel({{.id = swapped ? 6u : 3u, .geometry = side},
                                   {.id = swapped ? 3u : 6u, .geometry = rim}});
    const std::optional<WorldHit> hit = CastCircle(cast, level);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, 3u);
    EXPECT_EQ(hit->hit.fraction, exact);
    WorldHit hits[4];
    const ListResult all = CastCircleAll(cast, level, hits);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, 3u);
    EXPECT_EQ(hits[1].shape_id, 6u);
    EXPECT_EQ(hits[0].hit.fraction, exact);
    EXPECT_EQ(hits[1].hit.fraction, exact);
  }
}

// Exact times less than an ulp apart: the segment ending on the circle's
// rim is met at exactly 1/8; the other, tangent at 1/8 before its far end
// was moved a long way out and then by one ulp, is met a little later,
// though its own time rounds below 0.125. The exactly earlier goes first,
// whatever the ids, and the list's fractions do not decrease.
TEST(CornerCasesTest, RoundTimesLessThanAnUlpApartGoToTheExactlyEarlier) {
  const Segment turned{{1000001060, 999999313},
                       {327601700.00000006, 1550501713}};
  const Segment end_on_rim{{1000000360, 999998458}, {1000000443, 999998483}};
  const CircleCast cast{{{999999288, 999999312}, 1105}, {1736, -1232}};
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "ids swapped" : "ids as found");
    const uint64_t turned_id = swapped ? 3 : 6;
    const uint64_t rim_id = swapped ? 6 : 3;
    const Level level = MakeLevel({{.id = turned_id, .geometry = turned},
                                   {.id = rim_id, .geometry = end_on_rim}});
    const std::optional<WorldHit> hit = CastCircle(cast, level);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->shape_id, rim_id);
    EXPECT_EQ(hit->hit.fraction, 0.125);
    WorldHit hits[4];
    const ListResult all = CastCircleAll(cast, level, hits);
    ASSERT_EQ(all.count, 2);
    EXPECT_EQ(hits[0].shape_id, rim_id);
    EXPECT_EQ(hits[1].shape_id, turned_id);
    EXPECT_EQ(hits[0].hit.fraction, 0.125);
    EXPECT_GE(hits[1].hit.fraction, 0.125);
  }
}

// A point equidistant from two segments along different paths: one's
// inside (the foot of the perpendicular) and the other's end, both at
// sqrt(m^2 + n^2). The tie goes to the smaller id whichever way the ids
// run, with the distance correctly rounded.
TEST(CornerCasesTest, PointsEquidistantAlongDifferentPathsTieOnTheId) {
  int checked = 0;
  for (int m = 1; m <= 12; ++m) {
    for (int n = 1; n <= 12; ++n) {
      const Vec2 origin{1000.0, -3000.0};
      const Vec2 foot = origin + Vec2{double(m), double(n)};
      const Vec2 along{double(-n), double(m)};
      const Segment inside{foot + 2.0 * along, foot - 1.0 * along};
      const Segment end{foot, foot + Vec2{double(m), double(n)}};
      const double exact = std::sqrt(double(m * m + n * n));
      for (const bool swapped : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << "m " << m << " n " << n << (swapped ? " swapped" : ""));
        const Level level =
            MakeLevel({{.id = swapped ? 2u : 1u, .geometry = inside},
                       {.id = swapped ? 1u : 2u, .geometry = end}});
        const std::optional<WorldClosestPoint> closest =
            ClosestPoint(origin, level, 100.0);
        ASSERT_TRUE(closest.has_value());
        EXPECT_EQ(closest->shape_id, 1u);
        EXPECT_EQ(closest->distance, exact);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 288);
}

// From the origin, the circle (id 3) and the capsule's cap (id 4) are
// exactly 5 away (10 to their centre, radius 5). The segment (id 6) from
// (-1, -5) to (2^40, one ulp above -5) is nearer by about 2^-90, far less
// than an ulp of 5: every distance rounds to 5, and the exactly nearer
// segment is the answer, not the smaller id. Turned the other way it is
// farther, and the circle wins.
TEST(CornerCasesTest, ARoundShapeUlpsFartherThanASegmentLosesTheTie) {
  const double far_x = std::ldexp(1.0, 40);
  for (const bool nearer : {true, false}) {
    SCOPED_TRACE(nearer ? "segment nearer" : "segment farther");
    const double far_y = std::nextafter(-5.0, nearer ? 0.0 : -10.0);
    const Level level = MakeLevel({
        {.id = 3, .geometry = Circle{{6, 8}, 5}},
        {.id = 4, .geometry = Capsule{{-6, -8}, {-12, -16}, 5}},
        {.id = 6, .geometry = Segment{{-1, -5}, {far_x, far_y}}},
    });
    const std::optional<WorldClosestPoint> closest =
        ClosestPoint({0, 0}, level, 100.0);
    ASSERT_TRUE(closest.has_value());
    EXPECT_EQ(closest->shape_id, nearer ? 6u : 3u);
    EXPECT_EQ(closest->distance, 5.0);
  }
}

// The same ties between a patched level's base and its own shapes: one
// segment in the base, the other added by the patch, either way round.
TEST(CornerCasesTest, PointsEquidistantAcrossAPatchTieOnTheId) {
  int checked = 0;
  for (int m = 1; m <= 12; ++m) {
    for (int n = 1; n <= 12; ++n) {
      const Vec2 origin{1000.0, -3000.0};
      const Vec2 foot = origin + Vec2{double(m), double(n)};
      const Vec2 along{double(-n), double(m)};
      const Segment inside{foot + 2.0 * along, foot - 1.0 * along};
      const Segment end{foot, foot + Vec2{double(m), double(n)}};
      const double exact = std::sqrt(double(m * m + n * n));
      for (const bool swapped : {false, true}) {
        for (const bool inside_in_base : {false, true}) {
          SCOPED_TRACE(::testing::Message()
                       << "m " << m << " n " << n << (swapped ? " swapped" : "")
                       << (inside_in_base ? " inside in base" : ""));
          const ShapeDesc a{.id = swapped ? 2u : 1u, .geometry = inside};
          const ShapeDesc b{.id = swapped ? 1u : 2u, .geometry = end};
          const auto base = std::make_shared<const Level>(
              MakeLevel({inside_in_base ? a : b}));
          const std::vector<ShapeDesc> added = {inside_in_base ? b : a};
          const absl::StatusOr<Level> patched = Level::Patch(base, {}, added);
          ASSERT_TRUE(patched.ok()) << patched.status();
          const std::optional<WorldClosestPoint> closest =
              ClosestPoint(origin, *patched, 100.0);
          ASSERT_TRUE(closest.has_value());
          EXPECT_EQ(closest->shape_id, 1u);
          EXPECT_EQ(closest->distance, exact);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 576);
}

// At 1e9 the moving triangle's top edge meets the obstacle's lowest vertex
// (999999993, 1000000002) first, at t = 492581209243648/991167454832775;
// the contact is that vertex with normal (0, -1).
TEST(CornerCasesTest, AVertexFirstPolygonContactAt1e9NamesTheVertexMet) {
  const PolygonCast cast{Polygon({{999999996, 999999988},
                                  {999999997, 999999988},
                                  {999999997, 999999986}}),
                         {-6.0365728710279045, 28.17067339813022}};
  const ConvexPolygon obstacle = Polygon({{999999992, 1000000004},
                                          {999999993, 1000000002},
                                          {999999993, 1000000003}});
  const std::optional<Hit> hit = CastPolygon(cast, obstacle);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 492581209243648.0 / 991167454832775.0, 1e-15);
  EXPECT_EQ(hit->point.x, 999999993.0);
  EXPECT_EQ(hit->point.y, 1000000002.0);
  EXPECT_NEAR(hit->normal.x, 0.0, 1e-12);
  EXPECT_NEAR(hit->normal.y, -1.0, 1e-12);
  EXPECT_EQ(hit->feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->feature.index, 1);
}

// A circle sweeping almost parallel to a segment first touches it at t ~
// 0.06064437461518609; the reported fraction is within 1e-9 of the sweep.
TEST(CornerCasesTest, ANearParallelGrazeOfACircleKeepsItsTimeTo1e9OfTheSweep) {
  const Segment segment{{-0.8429989548230417, 2.396451498269217},
                        {-8.801166326753266, -9.501610332020485}};
  const CircleCast cast{
      {{-3.1744326047219653, 1.3607184683050382}, 1.3620744289014848},
      {-8.339447257936193, -12.468104083303945}};
  const double exact = 0.06064437461518609;
  const std::optional<Hit> hit = CastCircle(cast, segment);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, exact, 1e-9);

  const Level level = MakeLevel({{.id = 1, .geometry = segment}});
  const std::optional<WorldHit> world = CastCircle(cast, level);
  ASSERT_TRUE(world.has_value());
  EXPECT_NEAR(world->hit.fraction, exact, 1e-9);
}

// The same graze against a polygon whose edge is that segment (the third
// vertex on the far side): the edge's time is as good as the segment's.
TEST(CornerCasesTest,
     ANearParallelGrazeOfAPolygonEdgeKeepsItsTimeTo1e9OfTheSweep) {
  const ConvexPolygon wedge = Polygon({{-0.8429989548230417, 2.396451498269217},
                                       {-8.801166326753266, -9.501610332020485},
                                       {1.127, -7.532}});
  const CircleCast cast{
      {{-3.1744326047219653, 1.3607184683050382}, 1.3620744289014848},
      {-8.339447257936193, -12.468104083303945}};
  const double exact = 0.06064437461518609;
  const std::optional<Hit> hit = CastCircle(cast, wedge);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, exact, 1e-9);

  const Vec2 outline[] = {{-0.8429989548230417, 2.396451498269217},
                          {-8.801166326753266, -9.501610332020485},
                          {1.127, -7.532}};
  const Level level =
      MakeLevel({{.id = 1, .geometry = PolygonDesc{.vertices = outline}}});
  const std::optional<WorldHit> world = CastCircle(cast, level);
  ASSERT_TRUE(world.has_value());
  EXPECT_NEAR(world->hit.fraction, exact, 1e-9);
}

// A polyline is one surface: a mover sliding along one of its segments
// past the shared vertex onto a convex bend (the next segment turning away
// from it) is not hit by the next segment; a motion into the surface is.
TEST(CornerCasesTest, SlidingPastAPolylineVertexOntoAConvexBendIsNotAHit) {
  const Vec2 chain[] = {{0, 0}, {10, 0}, {20, -5}};
  const Level level =
      MakeLevel({{.id = 1, .geometry = PolylineDesc{.vertices = chain}}});
  // A circle resting on segment 0, sliding right, over the bend.
  const CircleCast circle{{{5, 1}, 1}, {10, 0}};
  EXPECT_FALSE(CastCircle(circle, level).has_value());
  // A box resting on segment 0, sliding right, over the bend.
  const PolygonCast box{Polygon({{2, 0}, {4, 0}, {4, 2}, {2, 2}}), {10, 0}};
  EXPECT_FALSE(CastPolygon(box, level).has_value());
  // A capsule lying on segment 0, sliding right, over the bend.
  const CapsuleCast capsule{{{2, 1}, {4, 1}, 1}, {10, 0}};
  EXPECT_FALSE(CastCapsule(capsule, level).has_value());
  // A concave bend rises into the slide: that is a hit.
  const Vec2 valley[] = {{0, 0}, {10, 0}, {20, 5}};
  const Level rising =
      MakeLevel({{.id = 1, .geometry = PolylineDesc{.vertices = valley}}});
  EXPECT_TRUE(CastCircle(circle, rising).has_value());
  EXPECT_TRUE(CastPolygon(box, rising).has_value());
  // Into the surface: a hit at 0.
  const std::optional<WorldHit> in =
      CastCircle(CircleCast{{{5, 1}, 1}, {1, -1}}, level);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->hit.fraction, 0.0);
}

// A zero-radius capsule is a segment: touching a solid at the start, it is
// an initial overlap (depth 0) when it moves in, and no hit when it moves
// along or away, as any other shape.
TEST(CornerCasesTest,
     AZeroRadiusCapsuleTouchingAtTheStartFollowsTheTouchRules) {
  const ConvexPolygon box = Polygon({{0, -1}, {4, -1}, {4, 1}, {0, 1}});
  const Capsule on_top{{1, 1}, {3, 1}, 0.0};
  const std::optional<Hit> in = CastCapsule({on_top, {0, -1}}, box);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->status, HitStatus::kInitialOverlap);
  EXPECT_EQ(in->fraction, 0.0);
  EXPECT_EQ(in->depth, 0.0);
  EXPECT_FALSE(CastCapsule({on_top, {0, 1}}, box).has_value());
  EXPECT_FALSE(CastCapsule({on_top, {1, 0}}, box).has_value());
  // Touching at one end only (the capsule standing on the box).
  const Capsule standing{{2, 1}, {2, 3}, 0.0};
  EXPECT_TRUE(CastCapsule({standing, {0, -1}}, box).has_value());
  EXPECT_FALSE(CastCapsule({standing, {1, 0}}, box).has_value());
  EXPECT_FALSE(CastCapsule({standing, {0, 1}}, box).has_value());
  // The same through a level.
  const Level level = MakeLevel(
      {{.id = 1,
        .geometry = BoxDesc{.center = {2, 0}, .half_extents = {2, 1}}}});
  const std::optional<WorldHit> world =
      CastCapsule(CapsuleCast{on_top, {0, -1}}, level);
  ASSERT_TRUE(world.has_value());
  EXPECT_EQ(world->hit.status, HitStatus::kInitialOverlap);
  EXPECT_FALSE(CastCapsule(CapsuleCast{on_top, {1, 0}}, level).has_value());
  // Against a circle it touches.
  const Circle ball{{2, 2}, 1};
  EXPECT_TRUE(CastCapsule({on_top, {0, 1}}, ball).has_value());
  EXPECT_FALSE(CastCapsule({on_top, {1, 0}}, ball).has_value());
  EXPECT_FALSE(CastCapsule({on_top, {0, -1}}, ball).has_value());
}

// The same near-tie in shot validation: the shot starts inside a target
// while a wall is touched ulps of the sweep later; the target is first.
TEST(CornerCasesTest,
     AShotStartingInsideATargetBesideAWallTouchedUlpsLaterHitsTheTarget) {
  const Level level = MakeLevel({
      {.id = 1,
       .geometry = Segment{{-9.87581926112584, 8.22689193350794},
                           {-8.317590259800681, -1.943080305125024}}},
  });
  const ShotTarget target{
      .id = 2,
      .hitbox = Polygon({{-10.541767890026218, 0},
                         {-2.552182027972581, 0},
                         {-2.552182027972581, 8.46051711929968},
                         {-10.541767890026218, 8.46051711929968}})};
  const Shot shot{.origin = {-7.89888978703222, 8.529794317882713},
                  .translation = {-0.8605597538844387, -0.5121255371329266},
                  .radius = 2.0};
  const std::optional<ShotHit> hit = ValidateShot(shot, level, {&target, 1});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
}

// A circle sliding nearly parallel to a polygon's edge over a 2^32 sweep
// touches it at exactly t = 1/2 (the centre passes at exactly the radius).
// The edge's rounded rate (15 per unit of fraction against |d| ~ 5.4e9)
// is too coarse to rank its line against the neighbouring one, entered
// 1.2e-8 of the sweep earlier: ranked on it, the cast took the wrong line
// and missed.
TEST(CornerCasesTest, ANearParallelGrazeOfAPolygonEdgeIsAHitOnThatEdge) {
  const ConvexPolygon quad = Polygon(
      {{1000000022, 46}, {999999962, -34}, {999999987, -34}, {1000000029, 22}});
  const CircleCast cast{{{-610612763, -2147483646.5}, 5},
                        {3221225484, 4294967287}};
  const std::optional<Hit> hit = CastCircle(cast, quad);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-9);
  EXPECT_EQ(hit->feature.type, FeatureType::kEdge);
  EXPECT_EQ(hit->feature.index, 0);
}

// A circle grazing a polygon's vertex at the end of a 2^28 sweep: the
// exact normal is perpendicular to the motion, and the rounded time
// (one ulp past 1/2) carries the offset 3e-8 along it. The normal must
// still not face along the motion.
TEST(CornerCasesTest, AVertexGrazeAfterALongSweepHasANormalAgainstTheMotion) {
  const ConvexPolygon diamond = Polygon(
      {{1000000004, 0}, {1000000000, 7}, {999999996, 0}, {1000000000, -7}});
  const CircleCast cast{{{865782272, 9.5}, 2}, {268435456, -1}};
  const std::optional<Hit> hit = CastCircle(cast, diamond);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, HitStatus::kHit);
  EXPECT_NEAR(hit->fraction, 0.5, 1e-9);
  EXPECT_NEAR(Length(hit->normal), 1.0, 1e-15);
  EXPECT_LE(Dot(hit->normal, cast.translation), 0.0);
  EXPECT_NEAR(hit->normal.y, 1.0, 1e-12);
}

// A ray from the origin by (3, 0) meets the wall x = 1 at exactly 1/3 and a
// target segment on the same line moving by -2^-60 along x at 1 / (3 +
// 2^-60), about 1e-19 earlier (the relative motion 3 + 2^-60 is no double).
// No double lies between the two times: the exactly earlier target is hit.
// Moving the other way, the wall is first; standing still, the two tie and
// the wall keeps it.
TEST(CornerCasesTest, AShotTargetLessThanAnUlpAheadOfAWallIsHit) {
  const Level level =
      MakeLevel({{.id = 9, .geometry = Segment{{1, -1}, {1, 1}}}});
  const Shot shot{{0, 0}, {3, 0}, 0.0};
  const Capsule hitbox{{1, -1}, {1, 1}, 0.0};
  const double tiny = std::ldexp(1.0, -60);
  struct Case {
    double target_x;
    ShotHitKind kind;
  };
  for (const Case c :
       {Case{-tiny, ShotHitKind::kTarget}, Case{tiny, ShotHitKind::kWall},
        Case{0.0, ShotHitKind::kWall}}) {
    SCOPED_TRACE(c.target_x);
    const ShotTarget target{
        .id = 3, .hitbox = hitbox, .translation = {c.target_x, 0}};
    const std::optional<ShotHit> hit = ValidateShot(shot, level, {&target, 1});
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->kind, c.kind);
    EXPECT_EQ(hit->hit.fraction, 1.0 / 3.0);
  }
}

// The same with two targets: the moving one (id 6) is exactly earlier than
// the one standing on x = 1 (id 3), by less than an ulp: it is hit, not the
// smaller id. A circle shot of radius 1/2 against the same targets moved
// out by 1/2 decides the same way.
TEST(CornerCasesTest, ShotTargetsLessThanAnUlpApartGoToTheExactlyEarlier) {
  const Level level =
      MakeLevel({{.id = 9, .geometry = Segment{{-5, -1}, {-5, 1}}}});
  const double tiny = std::ldexp(1.0, -60);
  for (const double radius : {0.0, 0.5}) {
    SCOPED_TRACE(radius);
    const double x = 1 + radius;
    const ShotTarget targets[] = {
        {.id = 3, .hitbox = Capsule{{x, -1}, {x, 1}, 0.0}},
        {.id = 6,
         .hitbox = Capsule{{x, -1}, {x, 1}, 0.0},
         .translation = {-tiny, 0}},
    };
    const std::optional<ShotHit> hit =
        ValidateShot(Shot{{0, 0}, {3, 0}, radius}, level, targets);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->kind, ShotHitKind::kTarget);
    EXPECT_EQ(hit->id, 6u);
    EXPECT_EQ(hit->target_index, 1);
    EXPECT_EQ(hit->hit.fraction, 1.0 / 3.0);
  }
}

}  // namespace
}  // namespace collide
