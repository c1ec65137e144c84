// Exactness in the last corners, through the service: levels put over the
// admin port of a real collide_server, queries over gRPC with the client
// library, coordinates exactly as they were reported. The expected answers
// are the exact ones (worked out with rational arithmetic); the library's
// own tests of the same cases are in tests/lib/corner_cases_test.cc.
#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gtest/gtest.h"
#include "tests/client/test_server.h"

namespace collide::client {
namespace {

// The promise for times: within 1e-9 of the sweep.
constexpr double kSweepTolerance = 1e-9;

void AddSegment(v1::Level& level, uint64_t id, Vec2 p1, Vec2 p2) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  *shape->mutable_segment()->mutable_p1() = ToProto(p1);
  *shape->mutable_segment()->mutable_p2() = ToProto(p2);
}

void AddPolygon(v1::Level& level, uint64_t id,
                std::initializer_list<Vec2> vertices) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  for (const Vec2 v : vertices) {
    *shape->mutable_polygon()->add_vertices() = ToProto(v);
  }
}

void AddCircle(v1::Level& level, uint64_t id, Vec2 center, double radius) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  *shape->mutable_circle()->mutable_center() = ToProto(center);
  shape->mutable_circle()->set_radius(radius);
}

void AddCapsule(v1::Level& level, uint64_t id, Vec2 p1, Vec2 p2,
                double radius) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  *shape->mutable_capsule()->mutable_p1() = ToProto(p1);
  *shape->mutable_capsule()->mutable_p2() = ToProto(p2);
  shape->mutable_capsule()->set_radius(radius);
}

// A segment hitbox (a capsule of radius 0) moving by `translation`.
v1::ShotTarget SegmentTarget(uint64_t id, Vec2 p1, Vec2 p2, Vec2 translation) {
  v1::ShotTarget target;
  target.set_id(id);
  *target.mutable_capsule()->mutable_p1() = ToProto(p1);
  *target.mutable_capsule()->mutable_p2() = ToProto(p2);
  *target.mutable_translation() = ToProto(translation);
  return target;
}

class CornerCasesE2eTest : public testing::ServerAndClientTest {
 protected:
  // The one answer to `query` on `level`.
  v1::QueryResult Run(const std::string& level, const v1::Query& query) {
    absl::StatusOr<v1::QueryResult> result = client_->RunQuery(level, query);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : v1::QueryResult();
  }
};

// The circle already overlaps segment 2 at the start (depth
// 1.9307228014169677, normal (0, 1)); segment 1 is first touched about
// 5.24e-16 of the sweep later. The start overlap is the answer, in both
// modes, never segment 1's contact rounded to fraction 0.
TEST_F(CornerCasesE2eTest,
       AnOverlapBesideAShapeTouchedUlpsLaterIsAnInitialOverlap) {
  v1::Level level;
  AddSegment(level, 1, {-9.87581926112584, 8.22689193350794},
             {-8.317590259800681, -1.943080305125024});
  AddSegment(level, 2, {-2.552182027972581, 8.46051711929968},
             {-10.541767890026218, 8.46051711929968});
  ASSERT_TRUE(client_->PutLevel("beside", level).ok());
  const Vec2 center{-7.89888978703222, 8.529794317882713};
  const Vec2 translation{-0.8605597538844387, -0.5121255371329266};
  const v1::QueryResult closest =
      Run("beside", CircleCast(center, 2.0, translation));
  ASSERT_EQ(closest.cast().hits_size(), 1);
  const v1::CastHit& hit = closest.cast().hits(0);
  EXPECT_EQ(hit.shape_id(), 2u);
  EXPECT_EQ(hit.status(), v1::HIT_STATUS_INITIAL_OVERLAP);
  EXPECT_EQ(hit.fraction(), 0.0);
  EXPECT_NEAR(hit.depth(), 1.9307228014169677, 1e-12);
  EXPECT_NEAR(hit.normal().x(), 0.0, 1e-12);
  EXPECT_NEAR(hit.normal().y(), 1.0, 1e-12);

  v1::CastOptions all;
  all.set_mode(v1::CAST_MODE_ALL);
  const v1::QueryResult listed =
      Run("beside", CircleCast(center, 2.0, translation, all));
  ASSERT_EQ(listed.cast().hits_size(), 2);
  EXPECT_EQ(listed.cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(listed.cast().hits(0).status(), v1::HIT_STATUS_INITIAL_OVERLAP);
  EXPECT_EQ(listed.cast().hits(1).shape_id(), 1u);
}

// The point lies 2.2e-16 outside the capsule, left of its p1 end cap: the
// distance is positive, so the normal is the unit vector (-1, 0).
TEST_F(CornerCasesE2eTest, APointUlpsOutsideACapsuleGetsAUnitNormal) {
  v1::Level level;
  v1::Shape* capsule = level.add_shapes();
  capsule->set_id(1);
  *capsule->mutable_capsule()->mutable_p1() =
      ToProto({-6.940924292281894, 7.707762160840481});
  *capsule->mutable_capsule()->mutable_p2() =
      ToProto({3.737918878182758, 2.27166313091592});
  capsule->mutable_capsule()->set_radius(0.8058023603402977);
  ASSERT_TRUE(client_->PutLevel("capsule", level).ok());
  const v1::QueryResult result =
      Run("capsule", ClosestPoint({-7.746726652622192, 7.707762160840481}, 1));
  ASSERT_TRUE(result.closest_point().found());
  EXPECT_EQ(result.closest_point().shape_id(), 1u);
  EXPECT_GT(result.closest_point().distance(), 0.0);
  EXPECT_NEAR(result.closest_point().distance(), 2.220446049250313e-16, 1e-30);
  EXPECT_EQ(result.closest_point().normal().x(), -1.0);
  EXPECT_EQ(result.closest_point().normal().y(), 0.0);
}

// A circle sweeping almost parallel to a segment first touches it at t ~
// 0.06064437461518609: the fraction is within 1e-9 of the sweep.
TEST_F(CornerCasesE2eTest,
       ANearParallelGrazeOfACircleKeepsItsTimeTo1e9OfTheSweep) {
  v1::Level level;
  AddSegment(level, 1, {-0.8429989548230417, 2.396451498269217},
             {-8.801166326753266, -9.501610332020485});
  ASSERT_TRUE(client_->PutLevel("graze", level).ok());
  const v1::QueryResult result =
      Run("graze", CircleCast({-3.1744326047219653, 1.3607184683050382},
                              1.3620744289014848,
                              {-8.339447257936193, -12.468104083303945}));
  ASSERT_EQ(result.cast().hits_size(), 1);
  EXPECT_EQ(result.cast().hits(0).status(), v1::HIT_STATUS_HIT);
  EXPECT_NEAR(result.cast().hits(0).fraction(), 0.06064437461518609,
              kSweepTolerance);
}

// At 1e9 the moving triangle's top edge meets the obstacle's lowest vertex
// (999999993, 1000000002) first, at t = 492581209243648/991167454832775:
// the contact is that vertex, with normal (0, -1).
TEST_F(CornerCasesE2eTest, AVertexFirstPolygonContactAt1e9NamesTheVertexMet) {
  v1::Level level;
  AddPolygon(level, 1,
             {{999999992, 1000000004},
              {999999993, 1000000002},
              {999999993, 1000000003}});
  ASSERT_TRUE(client_->PutLevel("far", level).ok());
  const Vec2 mover[] = {
      {999999996, 999999988}, {999999997, 999999988}, {999999997, 999999986}};
  const v1::QueryResult result =
      Run("far", PolygonCast(mover, {-6.0365728710279045, 28.17067339813022}));
  ASSERT_EQ(result.cast().hits_size(), 1);
  const v1::CastHit& hit = result.cast().hits(0);
  EXPECT_EQ(hit.status(), v1::HIT_STATUS_HIT);
  EXPECT_NEAR(hit.fraction(), 492581209243648.0 / 991167454832775.0,
              kSweepTolerance);
  EXPECT_EQ(hit.point().x(), 999999993.0);
  EXPECT_EQ(hit.point().y(), 1000000002.0);
  EXPECT_NEAR(hit.normal().x(), 0.0, 1e-12);
  EXPECT_NEAR(hit.normal().y(), -1.0, 1e-12);
}

// The triangle meets segments 3 and 6 at one exact time, t =
// 2242860919729856/3192736722357535, along different paths: shape 3 (the
// smaller id) in both modes, and the list gives both hits that one time as
// one double, its correct rounding 0x1.67ac9389665d0p-1.
TEST_F(CornerCasesE2eTest, ShapesMetAtOneExactTimeTieOnTheIdWithOneDouble) {
  v1::Level level;
  AddSegment(level, 3, {-6, -6.5}, {2, -6.5});
  AddSegment(level, 6, {-4, -7.5}, {-5.5, -7.5});
  ASSERT_TRUE(client_->PutLevel("tie", level).ok());
  const Vec2 mover[] = {{-6.640453163446034, -7.211154340400764},
                        {-8.640453163446034, -9.211154340400764},
                        {-8.640453163446034, -3.211154340400764}};
  const Vec2 translation{2.89537565033603, -2.955031444089987};
  const double exact = 0x1.67ac9389665d0p-1;
  const v1::QueryResult closest = Run("tie", PolygonCast(mover, translation));
  ASSERT_EQ(closest.cast().hits_size(), 1);
  EXPECT_EQ(closest.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(closest.cast().hits(0).status(), v1::HIT_STATUS_HIT);
  EXPECT_EQ(closest.cast().hits(0).fraction(), exact);

  v1::CastOptions all;
  all.set_mode(v1::CAST_MODE_ALL);
  const v1::QueryResult listed =
      Run("tie", PolygonCast(mover, translation, all));
  ASSERT_EQ(listed.cast().hits_size(), 2);
  EXPECT_EQ(listed.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(listed.cast().hits(1).shape_id(), 6u);
  EXPECT_EQ(listed.cast().hits(0).fraction(), exact);
  EXPECT_EQ(listed.cast().hits(1).fraction(), exact);
}

// A circle met at t* = 1/11 by a segment tangent to it and by another
// segment's end on its rim, and at 1e9 a circle met at t* = 30/31 by a
// capsule's side and by another circle: the per-shape roundings differ by
// an ulp; the smaller id wins, with t* correctly rounded for both.
TEST_F(CornerCasesE2eTest,
       RoundShapesMetAtOneExactTimeTieOnTheIdWithOneDouble) {
  v1::Level near;
  AddSegment(near, 6, {-222, 243}, {-126, -135});
  AddSegment(near, 3, {-130, 332}, {-136, 334});
  ASSERT_TRUE(client_->PutLevel("round-tie", near).ok());
  v1::Level far;
  AddCapsule(far, 6, {999998698, 1000002214}, {999998986, 1000004798}, 325);
  AddCircle(far, 3, {1000001340, 1000005245}, 975);
  ASSERT_TRUE(client_->PutLevel("round-tie-far", far).ok());
  struct Case {
    const char* level;
    Vec2 center;
    double radius;
    Vec2 translation;
    double exact;  // t*, correctly rounded
  };
  const Case cases[] = {
      {"round-tie", {-44, 176}, 130, {-396, 396}, 1.0 / 11.0},
      {"round-tie-far",
       {1000001550, 1000000775},
       975,
       {-1426, 3007},
       30.0 / 31.0},
  };
  v1::CastOptions all;
  all.set_mode(v1::CAST_MODE_ALL);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.level);
    const v1::QueryResult closest =
        Run(c.level, CircleCast(c.center, c.radius, c.translation));
    ASSERT_EQ(closest.cast().hits_size(), 1);
    EXPECT_EQ(closest.cast().hits(0).shape_id(), 3u);
    EXPECT_EQ(closest.cast().hits(0).fraction(), c.exact);
    const v1::QueryResult listed =
        Run(c.level, CircleCast(c.center, c.radius, c.translation, all));
    ASSERT_EQ(listed.cast().hits_size(), 2);
    EXPECT_EQ(listed.cast().hits(0).shape_id(), 3u);
    EXPECT_EQ(listed.cast().hits(1).shape_id(), 6u);
    EXPECT_EQ(listed.cast().hits(0).fraction(), c.exact);
    EXPECT_EQ(listed.cast().hits(1).fraction(), c.exact);
  }
}

// With a skin every shape is round. A ray with a skin of 195 is first that
// far from two segments at one exact time, t* = 22/43 (one's inside, the
// other's end): shape 3 in both modes, one exact time as one double. A ray
// starting exactly a skin of 650 from segment 6 and closing on it is a hit
// at exactly 0, before segment 3, met a sub-ulp time later, though both
// report fraction 0 or near it and 3 is the smaller id.
TEST_F(CornerCasesE2eTest, CastsWithASkinTieOnExactTimes) {
  v1::Level level;
  AddSegment(level, 3, {193, 612}, {-122, 532});
  AddSegment(level, 6, {220, 276}, {223, 278});
  ASSERT_TRUE(client_->PutLevel("skin-tie", level).ok());
  v1::CastOptions skin;
  skin.set_target_distance(195);
  v1::CastOptions all = skin;
  all.set_mode(v1::CAST_MODE_ALL);
  const double exact = 22.0 / 43.0;  // correctly rounded
  const v1::QueryResult closest =
      Run("skin-tie", RayCast({-344, -43}, {774, 817}, skin));
  ASSERT_EQ(closest.cast().hits_size(), 1);
  EXPECT_EQ(closest.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(closest.cast().hits(0).fraction(), exact);
  const v1::QueryResult listed =
      Run("skin-tie", RayCast({-344, -43}, {774, 817}, all));
  ASSERT_EQ(listed.cast().hits_size(), 2);
  EXPECT_EQ(listed.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(listed.cast().hits(1).shape_id(), 6u);
  EXPECT_EQ(listed.cast().hits(0).fraction(), exact);
  EXPECT_EQ(listed.cast().hits(1).fraction(), exact);

  v1::Level start;
  AddSegment(start, 3, {-3994, 2217}, {-1810, 1580.0000000000002});
  AddSegment(start, 6, {-3312, 1966}, {-3306, 1983});
  ASSERT_TRUE(client_->PutLevel("skin-start", start).ok());
  skin.set_target_distance(650);
  all.set_target_distance(650);
  const v1::QueryResult first =
      Run("skin-start", RayCast({-3240, 1320}, {2760, 4320}, skin));
  ASSERT_EQ(first.cast().hits_size(), 1);
  EXPECT_EQ(first.cast().hits(0).shape_id(), 6u);
  EXPECT_EQ(first.cast().hits(0).status(), v1::HIT_STATUS_HIT);
  EXPECT_EQ(first.cast().hits(0).fraction(), 0.0);
  const v1::QueryResult both =
      Run("skin-start", RayCast({-3240, 1320}, {2760, 4320}, all));
  ASSERT_EQ(both.cast().hits_size(), 2);
  EXPECT_EQ(both.cast().hits(0).shape_id(), 6u);
  EXPECT_EQ(both.cast().hits(1).shape_id(), 3u);
  EXPECT_LE(both.cast().hits(1).fraction(), 1e-13);
}

// A quadrilateral meets triangles 3 and 6 at one exact time along
// different paths, both per-shape times one ulp below its correct
// rounding: the settled tie reports the correct rounding for both, in
// both modes.
TEST_F(CornerCasesE2eTest,
       ATiedTimeIsReportedCorrectlyRoundedThoughBothRoundAlike) {
  v1::Level level;
  AddPolygon(level, 3, {{-65968, 54524}, {-66000, 54532}, {-66035, 54567}});
  AddPolygon(level, 6, {{-64762, 43530}, {-64768, 43525}, {-64764, 43524}});
  ASSERT_TRUE(client_->PutLevel("tie-rounding", level).ok());
  const Vec2 mover[] = {
      {-30080, 27072}, {-12032, -15040}, {-9024, -27072}, {-24064, -27072}};
  const Vec2 translation{-51136, 39104};
  const double exact = 0.7021276595744681;  // correctly rounded
  const v1::QueryResult closest =
      Run("tie-rounding", PolygonCast(mover, translation));
  ASSERT_EQ(closest.cast().hits_size(), 1);
  EXPECT_EQ(closest.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(closest.cast().hits(0).fraction(), exact);
  v1::CastOptions all;
  all.set_mode(v1::CAST_MODE_ALL);
  const v1::QueryResult listed =
      Run("tie-rounding", PolygonCast(mover, translation, all));
  ASSERT_EQ(listed.cast().hits_size(), 2);
  EXPECT_EQ(listed.cast().hits(0).shape_id(), 3u);
  EXPECT_EQ(listed.cast().hits(0).fraction(), exact);
  EXPECT_EQ(listed.cast().hits(1).fraction(), exact);
}

// A circle 2^-48 above the corner (-3, 3) of a concave polygon (id 2),
// moving down by 2, meets it at exactly 2^-49 of the sweep, and its copy
// moved down by 2^-51 (id 1) 2^-52 later: both within rounding of the
// start, in their exact order in both modes, not by the id.
TEST_F(CornerCasesE2eTest,
       ConcaveHitsWithinRoundingOfTheStartGoInTheirExactOrder) {
  const double down = std::ldexp(1.0, -51);
  v1::Level level;
  AddPolygon(level, 2, {{-3, 3}, {-3, 1}, {1, 1}, {1, -3}, {3, -3}, {3, 3}});
  AddPolygon(level, 1,
             {{-3, 3 - down},
              {-3, 1 - down},
              {1, 1 - down},
              {1, -3 - down},
              {3, -3 - down},
              {3, 3 - down}});
  ASSERT_TRUE(client_->PutLevel("concave-zero", level).ok());
  const Vec2 center{-3, 5 + std::ldexp(1.0, -48)};
  const v1::QueryResult closest =
      Run("concave-zero", CircleCast(center, 2, {0, -2}));
  ASSERT_EQ(closest.cast().hits_size(), 1);
  EXPECT_EQ(closest.cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(closest.cast().hits(0).status(), v1::HIT_STATUS_HIT);
  v1::CastOptions all;
  all.set_mode(v1::CAST_MODE_ALL);
  const v1::QueryResult listed =
      Run("concave-zero", CircleCast(center, 2, {0, -2}, all));
  ASSERT_EQ(listed.cast().hits_size(), 2);
  EXPECT_EQ(listed.cast().hits(0).shape_id(), 2u);
  EXPECT_EQ(listed.cast().hits(1).shape_id(), 1u);
}

// A shot from the origin by (3, 0) meets the wall x = 1 at exactly 1/3 and
// a target on the same line moving by -2^-60 at 1 / (3 + 2^-60), about
// 1e-19 earlier: no double lies between, and the exactly earlier target is
// hit (moving the other way, the wall). Two targets the same way apart go
// to the exactly earlier one, not to the smaller id.
TEST_F(CornerCasesE2eTest, AShotTargetLessThanAnUlpAheadOfAWallIsHit) {
  v1::Level level;
  AddSegment(level, 9, {1, -1}, {1, 1});
  ASSERT_TRUE(client_->PutLevel("shot-tie", level).ok());
  const double tiny = std::ldexp(1.0, -60);
  for (const double x : {-tiny, tiny}) {
    SCOPED_TRACE(x);
    const v1::ShotTarget target = SegmentTarget(3, {1, -1}, {1, 1}, {x, 0});
    const v1::QueryResult shot =
        Run("shot-tie", Shot({0, 0}, {3, 0}, 0, {&target, 1}));
    EXPECT_EQ(shot.hit_validation().outcome(),
              x < 0 ? v1::SHOT_OUTCOME_TARGET : v1::SHOT_OUTCOME_WALL);
    EXPECT_EQ(shot.hit_validation().fraction(), 1.0 / 3.0);
  }
  v1::Level behind;
  AddSegment(behind, 9, {-5, -1}, {-5, 1});
  ASSERT_TRUE(client_->PutLevel("shot-tie-targets", behind).ok());
  const v1::ShotTarget targets[] = {
      SegmentTarget(3, {1, -1}, {1, 1}, {0, 0}),
      SegmentTarget(6, {1, -1}, {1, 1}, {-tiny, 0})};
  const v1::QueryResult shot =
      Run("shot-tie-targets", Shot({0, 0}, {3, 0}, 0, targets));
  EXPECT_EQ(shot.hit_validation().outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(shot.hit_validation().id(), 6u);
  EXPECT_EQ(shot.hit_validation().target_index(), 1);
}

// From the origin, the circle (id 3) and the capsule's cap (id 4) are
// exactly 5 away; the segment (id 6) to (2^40, one ulp above -5) is nearer
// by about 2^-90, far less than an ulp: it is the answer, not the smaller
// id, though every distance rounds to 5. Turned the other way, the circle.
TEST_F(CornerCasesE2eTest, ARoundShapeUlpsFartherThanASegmentLosesTheTie) {
  const double far_x = std::ldexp(1.0, 40);
  for (const bool nearer : {true, false}) {
    SCOPED_TRACE(nearer ? "segment nearer" : "segment farther");
    v1::Level level;
    AddCircle(level, 3, {6, 8}, 5);
    AddCapsule(level, 4, {-6, -8}, {-12, -16}, 5);
    AddSegment(level, 6, {-1, -5},
               {far_x, std::nextafter(-5.0, nearer ? 0.0 : -10.0)});
    ASSERT_TRUE(client_->PutLevel("closest-tie", level).ok());
    const v1::QueryResult result =
        Run("closest-tie", ClosestPoint({0, 0}, 100));
    ASSERT_TRUE(result.closest_point().found());
    EXPECT_EQ(result.closest_point().shape_id(), nearer ? 6u : 3u);
    EXPECT_EQ(result.closest_point().distance(), 5.0);
  }
}

}  // namespace
}  // namespace collide::client
