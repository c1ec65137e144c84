// Self-tests of the exact oracle on hand-made cases with known answers. They
// use no part of lib/ but vec2.h, so they build and run before the core does.
#include "exact_oracle.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide::oracle {
namespace {

// The oracle brackets t* within 2^-44 of the grid; answers are checked to
// a tolerance well below the 1e-9 the core is held to.
constexpr double kBracketTol = 1e-12;

Core Point(Vec2 p) { return Core{{p}, 0.0}; }
Core Disc(Vec2 c, double r) { return Core{{c}, r}; }
Core Seg(Vec2 a, Vec2 b, double r = 0.0) { return Core{{a, b}, r}; }
Core Box(Vec2 c, double hx, double hy) {
  return Core{{{c.x - hx, c.y - hy},
               {c.x + hx, c.y - hy},
               {c.x + hx, c.y + hy},
               {c.x - hx, c.y + hy}},
              0.0};
}

ConvexCase Case(Core mover, Vec2 translation, Core obstacle,
                double max_fraction = 1.0, double target = 0.0,
                Vec2 obstacle_translation = {}) {
  return ConvexCase{std::move(mover),     translation,  std::move(obstacle),
                    obstacle_translation, max_fraction, target};
}

void ExpectHitAt(const Verdict& v, double t) {
  ASSERT_EQ(v.outcome, Outcome::kHit)
      << OutcomeName(v.outcome) << " " << v.note;
  EXPECT_LT(v.t_lo, t + kBracketTol);
  EXPECT_GE(v.t_hi, t - kBracketTol);
  EXPECT_LT(v.t_hi - v.t_lo, 1e-13);
  EXPECT_NEAR(v.t_hi, t, kBracketTol);
}

TEST(ExactOracleTest, RayHitsUnitCircleHeadOnAtHalf) {
  ExpectHitAt(Solve(Case(Point({-2, 0}), {2, 0}, Disc({0, 0}, 1))), 0.5);
}

TEST(ExactOracleTest, RayHitsCircleOffCentre) {
  // x^2 + 0.6^2 = 1 -> x = -0.8; from -5 over 10: t = 0.42.
  ExpectHitAt(Solve(Case(Point({-5, 0.6}), {10, 0}, Disc({0, 0}, 1))), 0.42);
}

TEST(ExactOracleTest, RayMissesCircleAbove) {
  EXPECT_EQ(Solve(Case(Point({-2, 1.5}), {4, 0}, Disc({0, 0}, 1))).outcome,
            Outcome::kMiss);
}

TEST(ExactOracleTest, RayTangentToCircleIsNearTangent) {
  EXPECT_EQ(Solve(Case(Point({-2, 1}), {4, 0}, Disc({0, 0}, 1))).outcome,
            Outcome::kNearTangent);
  // 1e-14 inside or outside the tangent: still within the margin.
  EXPECT_EQ(
      Solve(Case(Point({-2, 1 - 1e-14}), {4, 0}, Disc({0, 0}, 1))).outcome,
      Outcome::kNearTangent);
  // 1e-9 inside: a clear hit.
  EXPECT_EQ(Solve(Case(Point({-2, 1 - 1e-9}), {4, 0}, Disc({0, 0}, 1))).outcome,
            Outcome::kHit);
}

TEST(ExactOracleTest, RayHitsSegmentAtCrossing) {
  ExpectHitAt(Solve(Case(Point({0, 2}), {0, -4}, Seg({-1, 1}, {1, 1}))), 0.25);
  // A ray through a segment's end is near-tangent; past it a miss.
  EXPECT_EQ(Solve(Case(Point({1, 2}), {0, -4}, Seg({-1, 1}, {1, 1}))).outcome,
            Outcome::kNearTangent);
  EXPECT_EQ(
      Solve(Case(Point({1.001, 2}), {0, -4}, Seg({-1, 1}, {1, 1}))).outcome,
      Outcome::kMiss);
}

TEST(ExactOracleTest, CircleHitsSegmentFace) {
  // Centre from y = 3 down 4; contact at y = 0.5: t = 0.625.
  ExpectHitAt(Solve(Case(Disc({0, 3}, 0.5), {0, -4}, Seg({-1, 0}, {1, 0}))),
              0.625);
}

TEST(ExactOracleTest, MaxFractionClipsTheHit) {
  EXPECT_EQ(Solve(Case(Disc({0, 3}, 0.5), {0, -4}, Seg({-1, 0}, {1, 0}), 0.5))
                .outcome,
            Outcome::kMiss);
  ExpectHitAt(
      Solve(Case(Disc({0, 3}, 0.5), {0, -4}, Seg({-1, 0}, {1, 0}), 0.75)),
      0.625);
  // Contact exactly at max_fraction is within the margin.
  EXPECT_EQ(Solve(Case(Disc({0, 3}, 0.5), {0, -4}, Seg({-1, 0}, {1, 0}), 0.625))
                .outcome,
            Outcome::kNearTangent);
}

TEST(ExactOracleTest, BoxHitsBoxFaceToFace) {
  // Gap 3 - 0.5 - 1 = 1.5 closed over a translation of 6: t = 0.25.
  ExpectHitAt(Solve(Case(Box({-3, 0.2}, 0.5, 0.5), {6, 0}, Box({0, 0}, 1, 1))),
              0.25);
}

TEST(ExactOracleTest, RotatedSquareHitsBoxWithItsCorner) {
  const Core diamond{{{-4, 0}, {-3, -1}, {-2, 0}, {-3, 1}}, 0.0};
  // Corner at x = -2 reaches the face x = -1 after 1 of 4.
  ExpectHitAt(Solve(Case(diamond, {4, 0}, Box({0, 0}, 1, 1))), 0.25);
}

TEST(ExactOracleTest, CapsuleEndHitsCircle) {
  // Capsule end at (-3, 0) radius 0.5 against a unit circle: centre
  // distance 1.5 reached after 1.5 of 3.
  ExpectHitAt(Solve(Case(Seg({-5, 0}, {-3, 0}, 0.5), {3, 0}, Disc({0, 0}, 1))),
              0.5);
}

TEST(ExactOracleTest, TargetDistanceStopsEarly) {
  // Circle hits the segment at 0.625; a skin of 1 stops it 1 earlier: 0.375.
  ExpectHitAt(
      Solve(Case(Disc({0, 3}, 0.5), {0, -4}, Seg({-1, 0}, {1, 0}), 1.0, 1.0)),
      0.375);
}

TEST(ExactOracleTest, InitialOverlapGivesDepth) {
  // Circle radius 0.5 centred 0.25 inside a 2x2 box's face: cores overlap.
  const Verdict v =
      Solve(Case(Disc({0.75, 0}, 0.5), {1, 0}, Box({0, 0}, 1, 1)));
  ASSERT_EQ(v.outcome, Outcome::kInitialOverlap);
  EXPECT_NEAR(v.start_core_distance, -0.25, 1e-15);
  EXPECT_NEAR(v.depth, 0.75, 1e-15);
  // Ray starting inside a circle.
  const Verdict w = Solve(Case(Point({0.5, 0}), {1, 0}, Disc({0, 0}, 1)));
  ASSERT_EQ(w.outcome, Outcome::kInitialOverlap);
  EXPECT_NEAR(w.depth, 0.5, 1e-15);
}

TEST(ExactOracleTest, SkinStartMovingCloserIsHitMovingAwayIsMiss) {
  // Circle radius 0.5 at gap 0.5 from the box; skin 1.
  EXPECT_EQ(Solve(Case(Disc({2, 0}, 0.5), {-1, 0}, Box({0, 0}, 1, 1), 1.0, 1.0))
                .outcome,
            Outcome::kSkinHit);
  EXPECT_EQ(Solve(Case(Disc({2, 0}, 0.5), {1, 0}, Box({0, 0}, 1, 1), 1.0, 1.0))
                .outcome,
            Outcome::kMiss);
  EXPECT_EQ(Solve(Case(Disc({2, 0}, 0.5), {0, 1}, Box({0, 0}, 1, 1), 1.0, 1.0))
                .outcome,
            Outcome::kNearTangent);
  EXPECT_EQ(Solve(Case(Disc({2, 0}, 0.5), {0, 0}, Box({0, 0}, 1, 1), 1.0, 1.0))
                .outcome,
            Outcome::kMiss);
}

TEST(ExactOracleTest, ZeroTranslationIsAMissUnlessOverlapping) {
  EXPECT_EQ(Solve(Case(Disc({3, 0}, 0.5), {0, 0}, Box({0, 0}, 1, 1))).outcome,
            Outcome::kMiss);
}

TEST(ExactOracleTest, MovingObstacleUsesRelativeMotion) {
  // Two unit circles 4 apart approaching each other at 2 + 2: gap 2 closed
  // after half the step.
  ExpectHitAt(
      Solve(Case(Disc({-2, 0}, 1), {2, 0}, Disc({2, 0}, 1), 1.0, 0.0, {-2, 0})),
      0.5);
  // Same speed, same direction: never meet.
  EXPECT_EQ(
      Solve(Case(Disc({-2, 0}, 1), {2, 0}, Disc({2, 0}, 1), 1.0, 0.0, {2, 0}))
          .outcome,
      Outcome::kMiss);
}

TEST(ExactOracleTest, PassingThroughAndOutStillHitsAtEntry) {
  // The ray crosses the whole circle within the step: first contact.
  ExpectHitAt(Solve(Case(Point({-2, 0}), {8, 0}, Disc({0, 0}, 1))), 0.125);
  // Polygon vs polygon (radius 0): the box passes fully through.
  ExpectHitAt(Solve(Case(Box({-4, 0}, 1, 1), {12, 0}, Box({0, 0}, 1, 1))),
              2.0 / 12.0);
}

TEST(ExactOracleTest, LargeOffsetSmallScale) {
  // The circle/segment case shrunk to 2^-10 and moved to (3 * 2^18, -2^18):
  // every input is exact, so t is still 0.625.
  const double s = 1.0 / 1024;
  const Vec2 o{786432.0, -262144.0};
  ExpectHitAt(Solve(Case(Disc(o + Vec2{0, 3 * s}, 0.5 * s), {0, -4 * s},
                         Seg(o + Vec2{-s, 0}, o + Vec2{s, 0}))),
              0.625);
}

// A U-shaped solid polygon: outer box [-3, 3] x [-3, 3] with a pocket
// [-1, 1] x [0, 3] open at the top (counter-clockwise).
std::vector<Vec2> UShape() {
  return {{-3, -3}, {3, -3}, {3, 3}, {1, 3}, {1, 0}, {-1, 0}, {-1, 3}, {-3, 3}};
}

TEST(ExactOracleTest, ConcavePocketHitsItsFloor) {
  ConcaveCase c{Point({0, 5}), {0, -10}, UShape(), {}, 1.0, 0.0};
  ExpectHitAt(Solve(c), 0.5);
  // A circle of radius 0.5 falling into the pocket touches the floor at
  // y = 0.5.
  c.mover = Disc({0, 5}, 0.5);
  ExpectHitAt(Solve(c), 0.45);
  // A circle wider than the pocket lands on the pocket's rims (corners at
  // (+-1, 3)): centre height 3 + sqrt(1.5^2 - 1) = 3 + sqrt(1.25).
  c.mover = Disc({0, 5}, 1.5);
  ExpectHitAt(Solve(c), (2 - std::sqrt(1.25)) / 10);
}

TEST(ExactOracleTest, ConcaveStartInsideIsOverlapAndInPocketIsNot) {
  ConcaveCase c{Point({2, 0}), {1, 0}, UShape(), {}, 1.0, 0.0};
  EXPECT_EQ(Solve(c).outcome, Outcome::kInitialOverlap);
  c.mover = Point({0, 1});  // in the pocket: outside the solid
  c.mover_translation = {0, 5};
  EXPECT_EQ(Solve(c).outcome, Outcome::kMiss);
  c.mover_translation = {5, 0};  // hits the pocket's wall x = 1 at 0.2
  ExpectHitAt(Solve(c), 0.2);
  // Clockwise input gives the same answers.
  std::vector<Vec2> cw = UShape();
  std::reverse(cw.begin(), cw.end());
  c.polygon = cw;
  ExpectHitAt(Solve(c), 0.2);
  c.mover = Point({2, 0});
  EXPECT_EQ(Solve(c).outcome, Outcome::kInitialOverlap);
}

TEST(ExactOracleTest, InsidePolygonByCrossingNumber) {
  const std::vector<Vec2> u = UShape();
  bool boundary = false;
  EXPECT_TRUE(InsidePolygon(u, {2, 2}));
  EXPECT_FALSE(InsidePolygon(u, {0, 2}));
  EXPECT_FALSE(InsidePolygon(u, {5, 0}));
  EXPECT_FALSE(InsidePolygon(u, {1, 1.5}, &boundary));
  EXPECT_TRUE(boundary);
  EXPECT_FALSE(InsidePolygon(u, {-3, -3}, &boundary));
  EXPECT_TRUE(boundary);
  // A point level with a vertex.
  EXPECT_TRUE(InsidePolygon(u, {2, 0}));
  EXPECT_TRUE(InsidePolygon(u, {-2, 0}));
}

TEST(ExactOracleTest, DeformingSegmentLinearRoot) {
  // p2 swings from (2, 0) to (0, 2) about p1 = 0; static point (0.5, 0.5)
  // sits on the segment when p2 = (1, 1): t = 0.5.
  DeformingCase c{{0.5, 0.5}, {0, 0}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  const Verdict v = Solve(c);
  ExpectHitAt(v, 0.5);
  EXPECT_EQ(v.side, 1);
}

TEST(ExactOracleTest, DeformingSegmentQuadraticRoot) {
  // Same segment, point moving right by 1: f = 1 - 2t - 2t^2.
  DeformingCase c{{0.5, 0.5}, {1, 0}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  ExpectHitAt(Solve(c), (std::sqrt(3.0) - 1) / 2);
  // With max_fraction below the root: a miss.
  c.max_fraction = 0.3;
  EXPECT_EQ(Solve(c).outcome, Outcome::kMiss);
}

TEST(ExactOracleTest, DeformingSegmentSideIsTheOneJustBeforeContact) {
  // p(t) = (-2, -1) + t (3, 2) against p1 = 0, p2 = (2 - 2t, 2t): the point
  // crosses the segment's line behind p1 at t = (5 - sqrt 5) / 10 (not a
  // contact) and meets the segment at (5 + sqrt 5) / 10, coming from the
  // left although it started on the right.
  DeformingCase c{{-2, -1}, {3, 2}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  const Verdict v = Solve(c);
  ExpectHitAt(v, (5 + std::sqrt(5.0)) / 10);
  EXPECT_EQ(v.side, 1);
}

TEST(ExactOracleTest, DeformingSegmentEndpointContactIsNearTangent) {
  // Point (1, 1) meets the swinging end exactly.
  DeformingCase c{{1, 1}, {0, 0}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  EXPECT_EQ(Solve(c).outcome, Outcome::kNearTangent);
  // Beyond the end: the line passes, the segment does not.
  c.origin = {1.5, 1.5};
  EXPECT_EQ(Solve(c).outcome, Outcome::kMiss);
}

TEST(ExactOracleTest, DeformingTranslatingSegmentIsLinear) {
  // Segment x in [-1, 1] at y = 1 moving down by 2; point at origin moving
  // up by 2: meet at t = 0.25.
  DeformingCase c{{0, 0}, {0, 2}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}, 1.0};
  const Verdict v = Solve(c);
  ExpectHitAt(v, 0.25);
  EXPECT_EQ(v.side, -1);  // point below the left-to-right segment: right side
}

}  // namespace
}  // namespace collide::oracle
