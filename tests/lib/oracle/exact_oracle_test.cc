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

// ---------------------------------------------------------------------------
// Exact mode (SolveExact): cases exact by construction, decided without the
// tangency band. Touching counts as a hit; touching starts follow toi.h.

// Exact brackets: t_lo < t <= t_hi, narrow.
void ExpectExactHitAt(const Verdict& v, double t) {
  ASSERT_EQ(v.outcome, Outcome::kHit)
      << OutcomeName(v.outcome) << " " << v.note;
  // t is the double nearest the exact TOI.
  EXPECT_LE(v.t_lo, t);
  EXPECT_GE(v.t_hi, std::nextafter(t, 0.0));
  EXPECT_LT(v.t_hi - v.t_lo, 1e-13);
}

TEST(ExactOracleExactModeTest, RayTangentToCircleIsAHit) {
  // Band mode: near-tangent. Exact: touches (0, 1) at t = 0.5.
  ExpectExactHitAt(SolveExact(Case(Point({-2, 1}), {4, 0}, Disc({0, 0}, 1))),
                   0.5);
  // 2^-46 outside the tangent: a miss; 2^-46 inside: a hit.
  EXPECT_EQ(SolveExact(Case(Point({-2, 1 + 0x1p-46}), {4, 0}, Disc({0, 0}, 1)))
                .outcome,
            Outcome::kMiss);
  EXPECT_EQ(SolveExact(Case(Point({-2, 1 - 0x1p-46}), {4, 0}, Disc({0, 0}, 1)))
                .outcome,
            Outcome::kHit);
}

TEST(ExactOracleExactModeTest, CirclesTangentAtClosestApproachHit) {
  // Centres pass at distance exactly r1 + r2 = 2 when x = 0: t = 0.5.
  ExpectExactHitAt(SolveExact(Case(Disc({-5, 2}, 1), {10, 0}, Disc({0, 0}, 1))),
                   0.5);
  EXPECT_EQ(
      SolveExact(Case(Disc({-5, 2 + 0x1p-50}, 1), {10, 0}, Disc({0, 0}, 1)))
          .outcome,
      Outcome::kMiss);
}

TEST(ExactOracleExactModeTest, RayThroughSegmentEndOrPolygonVertexIsAHit) {
  ExpectExactHitAt(
      SolveExact(Case(Point({1, 2}), {0, -4}, Seg({-1, 1}, {1, 1}))), 0.25);
  EXPECT_EQ(
      SolveExact(Case(Point({1 + 0x1p-52, 2}), {0, -4}, Seg({-1, 1}, {1, 1})))
          .outcome,
      Outcome::kMiss);
  // Diagonally through the corner (1, 1) of a box.
  ExpectExactHitAt(SolveExact(Case(Point({3, 3}), {-4, -4}, Box({0, 0}, 1, 1))),
                   0.5);
  // Grazing the corner along its top edge's line: touches at x = 1.
  ExpectExactHitAt(SolveExact(Case(Point({3, 1}), {-4, 0}, Box({0, 0}, 1, 1))),
                   0.5);
}

TEST(ExactOracleExactModeTest, ContactAtExactlyMaxFractionIsAHit) {
  // A zero-radius circle ends on the segment's midpoint.
  const Verdict v = SolveExact(
      Case(Disc({-11, 11}, 0), {9, -13}, Seg({-7, -2.5}, {3, -1.5})));
  ExpectExactHitAt(v, 1.0);
  EXPECT_EQ(v.t_hi, 1.0);
  // Ends on the wall at max_fraction 0.5.
  const Verdict h = SolveExact(
      Case(Point({0, 2}), {0, -2}, Seg({-1, 1}, {1, 1}), /*max_fraction=*/0.5));
  ExpectExactHitAt(h, 0.5);
  EXPECT_EQ(h.t_hi, 0.5);
  // One ulp short of it: a miss.
  EXPECT_EQ(SolveExact(Case(Point({0, 2}), {0, -2}, Seg({-1, 1}, {1, 1}),
                            std::nextafter(0.5, 0.0)))
                .outcome,
            Outcome::kMiss);
}

TEST(ExactOracleExactModeTest, TouchingStartAtVertexMovingAwayIsNotAHit) {
  // On the box's corner (2, -2), leaving it up-right
  // (approaching the bottom edge's line, but outside the box at once).
  const Verdict v =
      SolveExact(Case(Point({2, -2}), {0.024674816398394084, 3.0},
                      Core{{{-1, 0}, {2, 0}, {2, -2}, {-1, -2}}, 0.0}));
  EXPECT_EQ(v.outcome, Outcome::kMiss) << v.note;
  EXPECT_TRUE(v.touching_start);
  // Into the box from the same corner: an overlap of depth 0.
  const Verdict in =
      SolveExact(Case(Point({2, -2}), {-0.5, 3.0},
                      Core{{{-1, 0}, {2, 0}, {2, -2}, {-1, -2}}, 0.0}));
  EXPECT_EQ(in.outcome, Outcome::kInitialOverlap);
  EXPECT_TRUE(in.touching_start);
  EXPECT_EQ(in.depth, 0.0);
  // Along the right edge (up): along, not a hit.
  EXPECT_EQ(SolveExact(Case(Point({2, -2}), {0, 3},
                            Core{{{-1, 0}, {2, 0}, {2, -2}, {-1, -2}}, 0.0}))
                .outcome,
            Outcome::kMiss);
}

TEST(ExactOracleExactModeTest, TouchingCircleMovesInAlongOrAway) {
  const Core wall = Seg({-1, 1}, {1, 1});
  const Verdict in = SolveExact(Case(Disc({0, 2}, 1), {0.5, -1}, wall));
  EXPECT_EQ(in.outcome, Outcome::kInitialOverlap);
  EXPECT_TRUE(in.touching_start);
  const Verdict along = SolveExact(Case(Disc({0, 2}, 1), {3, 0}, wall));
  EXPECT_EQ(along.outcome, Outcome::kMiss);
  EXPECT_TRUE(along.touching_start);
  EXPECT_EQ(SolveExact(Case(Disc({0, 2}, 1), {-3, 1}, wall)).outcome,
            Outcome::kMiss);
  // Touching the segment's end (1, 1) from (2, 1): moving down-left grazes
  // the end's circle tangentially at first but enters it: an overlap.
  EXPECT_EQ(SolveExact(Case(Disc({2, 1}, 1), {-1, -1}, wall)).outcome,
            Outcome::kInitialOverlap);
  // Moving straight down is tangent to the end: along, not a hit.
  EXPECT_EQ(SolveExact(Case(Disc({2, 1}, 1), {0, -1}, wall)).outcome,
            Outcome::kMiss);
}

TEST(ExactOracleExactModeTest, RayStartingOnASegmentIsNeverInside) {
  // A segment has no inside: crossing it from a start on it is not a hit.
  const Verdict v =
      SolveExact(Case(Point({0, 1}), {0, -2}, Seg({-1, 1}, {1, 1})));
  EXPECT_EQ(v.outcome, Outcome::kMiss);
  EXPECT_TRUE(v.touching_start);
}

TEST(ExactOracleExactModeTest, SkinEdgeStartMovingCloserIsSkinHit) {
  // Gap 3 - 1 = 2 = target distance exactly.
  const Core wall = Seg({-1, 0}, {1, 0});
  EXPECT_EQ(SolveExact(Case(Disc({0, 3}, 1), {0, -1}, wall, 1.0, 2.0)).outcome,
            Outcome::kSkinHit);
  EXPECT_EQ(SolveExact(Case(Disc({0, 3}, 1), {1, 0}, wall, 1.0, 2.0)).outcome,
            Outcome::kMiss);
  // Inside the skin (gap 1.5 < 2), moving closer.
  EXPECT_EQ(
      SolveExact(Case(Disc({0, 2.5}, 1), {0, -1}, wall, 1.0, 2.0)).outcome,
      Outcome::kSkinHit);
}

TEST(ExactOracleExactModeTest, CollinearPointReachesMovingSegmentEnd) {
  // Two placements of one case: relative motion along the segment's line
  // reaching its near end at t = 2/3.
  ExpectExactHitAt(SolveExact(Case(Point({19, 20}), {-15, -25.5},
                                   Seg({5, 5}, {-2, -2.5}), 1.0, 0.0, {6, -3})),
                   2.0 / 3.0);
  ExpectExactHitAt(SolveExact(Case(Point({13.5, 28}), {-16.5, -22},
                                   Seg({2.5, 8}, {-3, -2}), 1.0, 0.0, {0, 8})),
                   2.0 / 3.0);
}

TEST(ExactOracleExactModeTest, VeryLongTranslationHitsAtATinyFraction) {
  // t* = 5e-15.
  const Verdict v =
      SolveExact(Case(Point({5, 5}), {0, -1e15}, Seg({0, 0}, {10, 0})));
  ASSERT_EQ(v.outcome, Outcome::kHit);
  EXPECT_LE(v.t_lo, 5e-15);
  EXPECT_GE(v.t_hi, 5e-15);
  EXPECT_LT(v.t_hi, 1e-13);
}

TEST(ExactOracleExactModeTest, ConcaveTouchingStartAtAReflexVertex) {
  // A chevron with its notch at (-1, 0), a reflex vertex.
  const std::vector<Vec2> chevron{{-2, 3}, {-1, 0}, {-2, -3}, {2, 0}};
  auto solve = [&](Vec2 d) {
    return SolveExact(ConcaveCase{Point({-1, 0}), d, chevron, {}});
  };
  // Straight on along the edge from (-2, 3): into the solid.
  EXPECT_EQ(solve({1, -3}).outcome, Outcome::kInitialOverlap);
  // Into the notch: away.
  const Verdict away = solve({-1, 0});
  EXPECT_EQ(away.outcome, Outcome::kMiss);
  EXPECT_TRUE(away.touching_start);
  // Along the edge to (-2, -3), half way: along, not a hit.
  EXPECT_EQ(solve({-0.5, -1.5}).outcome, Outcome::kMiss);
  // On past the convex corner (-2, -3), where the next edge starts: sliding
  // off the end of the touched surface, not a hit.
  EXPECT_EQ(solve({-2, -6}).outcome, Outcome::kMiss);
  // Into a reflex corner while sliding: a hit where the next edge starts.
  const std::vector<Vec2> l{{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};
  const Verdict corner = SolveExact(ConcaveCase{Point({3, 1}), {-4, 0}, l, {}});
  ExpectExactHitAt(corner, 0.5);
  EXPECT_TRUE(corner.touching_start);
  // A circle rolling along the top face into the same corner.
  const Verdict rolling =
      SolveExact(ConcaveCase{Disc({3, 2}, 1), {-4, 0}, l, {}});
  ExpectExactHitAt(rolling, 0.25);
}

TEST(ExactOracleExactModeTest, ConcaveTouchingStartMovingAwayHitsLater) {
  // A U with a pocket x in [-1, 1], y > -1: on the pocket's right wall,
  // moving left across the pocket reaches the left wall at t = 0.5.
  const std::vector<Vec2> u{{-3, -3}, {3, -3},  {3, 3},  {1, 3},
                            {1, -1},  {-1, -1}, {-1, 3}, {-3, 3}};
  const Verdict v = SolveExact(ConcaveCase{Point({1, 1}), {-4, 0}, u, {}});
  ExpectExactHitAt(v, 0.5);
  EXPECT_TRUE(v.touching_start);
  // Into the right wall: an overlap.
  EXPECT_EQ(SolveExact(ConcaveCase{Point({1, 1}), {4, 0}, u, {}}).outcome,
            Outcome::kInitialOverlap);
}

TEST(ExactOracleExactModeTest, DeformingSegmentEndpointContactIsAHit) {
  // Band mode: near-tangent. Exact: the point meets the swinging end at 0.5.
  DeformingCase c{{1, 1}, {0, 0}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  ExpectExactHitAt(SolveExact(c), 0.5);
  c.origin = {1.5, 1.5};
  EXPECT_EQ(SolveExact(c).outcome, Outcome::kMiss);
}

TEST(ExactOracleExactModeTest, DeformingSegmentIrrationalRootsAgreeWithBand) {
  DeformingCase c{{0.5, 0.5}, {1, 0}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  ExpectExactHitAt(SolveExact(c), (std::sqrt(3.0) - 1) / 2);
  DeformingCase d{{-2, -1}, {3, 2}, {0, 0}, {2, 0}, {0, 0}, {0, 2}, 1.0};
  const Verdict v = SolveExact(d);
  ExpectHitAt(v, (5 + std::sqrt(5.0)) / 10);
  EXPECT_EQ(v.side, 1);
}

TEST(ExactOracleExactModeTest, DeformingCollinearRigidMotionEntersAtTheEnd) {
  // Example 2 as a deforming segment translating rigidly by (6, -3).
  DeformingCase c{{19, 20}, {-15, -25.5}, {5, 5}, {-2, -2.5},
                  {11, 2},  {4, -5.5},    1.0};
  ExpectExactHitAt(SolveExact(c), 2.0 / 3.0);
  // Starting on the segment and sliding along it: not a hit.
  DeformingCase on{{1.5, 1.25}, {7, 7.5},   {5, 5}, {-2, -2.5},
                   {5, 5},      {-2, -2.5}, 1.0};
  const Verdict v = SolveExact(on);
  EXPECT_EQ(v.outcome, Outcome::kMiss);
  EXPECT_TRUE(v.touching_start);
}

}  // namespace
}  // namespace collide::oracle
