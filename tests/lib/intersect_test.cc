#include "collide/intersect.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/shapes.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

// Results built from unit-sized inputs.
constexpr double kTolerance = 1e-12;
// Results near 1e6: the spacing of doubles there is about 1.2e-10.
constexpr double kFarTolerance = 1e-9;

void ExpectVecNear(Vec2 actual, Vec2 expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

// --- IntersectSegments ----------------------------------------------------

TEST(IntersectSegmentsTest, ProperCrossingReturnsPointAndFractions) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {4, 4}}, {{0, 2}, {4, -2}});
  ASSERT_TRUE(hit.has_value());
  ExpectVecNear(hit->start, {1, 1}, kTolerance);
  EXPECT_EQ(hit->start, hit->end);
  EXPECT_NEAR(hit->fraction_a, 0.25, kTolerance);
  EXPECT_NEAR(hit->fraction_b, 0.25, kTolerance);
  EXPECT_FALSE(hit->collinear);
}

TEST(IntersectSegmentsTest, SwappingSegmentsSwapsFractionsAndKeepsPoint) {
  const Segment a{{-1, 0.5}, {3, 2.5}};
  const Segment b{{0, 3}, {2, -1}};
  const std::optional<SegmentIntersection> ab = IntersectSegments(a, b);
  const std::optional<SegmentIntersection> ba = IntersectSegments(b, a);
  ASSERT_TRUE(ab.has_value());
  ASSERT_TRUE(ba.has_value());
  ExpectVecNear(ab->start, ba->start, kTolerance);
  EXPECT_NEAR(ab->fraction_a, ba->fraction_b, kTolerance);
  EXPECT_NEAR(ab->fraction_b, ba->fraction_a, kTolerance);
  // The point is where both parametrisations agree.
  ExpectVecNear(a.p1 + ab->fraction_a * (a.p2 - a.p1), ab->start, kTolerance);
  ExpectVecNear(b.p1 + ab->fraction_b * (b.p2 - b.p1), ab->start, kTolerance);
}

TEST(IntersectSegmentsTest, CrossingBeyondTheEndOfOneSegmentIsAMiss) {
  // The lines cross at (2, 0), past the end of a.
  EXPECT_FALSE(IntersectSegments({{0, 0}, {1, 0}}, {{2, -1}, {2, 1}}));
  // And here past the end of b.
  EXPECT_FALSE(IntersectSegments({{2, -1}, {2, 1}}, {{0, 0}, {1, 0}}));
}

TEST(IntersectSegmentsTest, TouchingAtEndpointsReturnsTheSharedEndExactly) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0.1, 0.2}, {0.7, 0.3}}, {{0.7, 0.3}, {0.4, 0.9}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->start, (Vec2{0.7, 0.3}));
  EXPECT_EQ(hit->end, (Vec2{0.7, 0.3}));
  EXPECT_EQ(hit->fraction_a, 1.0);
  EXPECT_EQ(hit->fraction_b, 0.0);
  EXPECT_FALSE(hit->collinear);
}

TEST(IntersectSegmentsTest, EndTouchingInteriorCountsAsCrossing) {
  // A T junction: b starts on the middle of a.
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {2, 0}}, {{1, 0}, {1, 5}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->start, (Vec2{1, 0}));
  EXPECT_NEAR(hit->fraction_a, 0.5, kTolerance);
  EXPECT_EQ(hit->fraction_b, 0.0);
}

TEST(IntersectSegmentsTest, ParallelDisjointSegmentsDoNotMeet) {
  EXPECT_FALSE(IntersectSegments({{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}));
  EXPECT_FALSE(IntersectSegments({{0, 0}, {2, 1}}, {{1, 0}, {3, 1}}));
}

// Collinear overlaps (the directions' cross product is zero) are real
// contacts, not "no intersection".
TEST(IntersectSegmentsTest, CollinearOverlapReturnsSharedPart) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {4, 0}}, {{2, 0}, {6, 0}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->collinear);
  EXPECT_EQ(hit->start, (Vec2{2, 0}));
  EXPECT_EQ(hit->end, (Vec2{4, 0}));
  EXPECT_NEAR(hit->fraction_a, 0.5, kTolerance);
  EXPECT_NEAR(hit->fraction_b, 0.0, kTolerance);
}

TEST(IntersectSegmentsTest, CollinearOverlapIsOrderedAlongA) {
  // b runs against a; the shared part still starts nearest a.p1.
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {3, 3}}, {{4, 4}, {1, 1}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->collinear);
  EXPECT_EQ(hit->start, (Vec2{1, 1}));
  EXPECT_EQ(hit->end, (Vec2{3, 3}));
  EXPECT_NEAR(hit->fraction_a, 1.0 / 3.0, kTolerance);
  EXPECT_NEAR(hit->fraction_b, 1.0, kTolerance);
}

TEST(IntersectSegmentsTest, CollinearSegmentInsideTheOtherIsTheSharedPart) {
  const std::optional<SegmentIntersection> b_inside =
      IntersectSegments({{0, 0}, {0, 8}}, {{0, 6}, {0, 2}});
  ASSERT_TRUE(b_inside.has_value());
  EXPECT_EQ(b_inside->start, (Vec2{0, 2}));
  EXPECT_EQ(b_inside->end, (Vec2{0, 6}));
  EXPECT_NEAR(b_inside->fraction_a, 0.25, kTolerance);
  EXPECT_NEAR(b_inside->fraction_b, 1.0, kTolerance);

  const std::optional<SegmentIntersection> a_inside =
      IntersectSegments({{0, 2}, {0, 6}}, {{0, 0}, {0, 8}});
  ASSERT_TRUE(a_inside.has_value());
  EXPECT_EQ(a_inside->start, (Vec2{0, 2}));
  EXPECT_EQ(a_inside->end, (Vec2{0, 6}));
  EXPECT_NEAR(a_inside->fraction_a, 0.0, kTolerance);
  EXPECT_NEAR(a_inside->fraction_b, 0.25, kTolerance);
}

TEST(IntersectSegmentsTest, CollinearEndToEndTouchIsASinglePoint) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {1, 2}}, {{1, 2}, {2, 4}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->collinear);
  EXPECT_EQ(hit->start, (Vec2{1, 2}));
  EXPECT_EQ(hit->end, (Vec2{1, 2}));
  EXPECT_NEAR(hit->fraction_a, 1.0, kTolerance);
  EXPECT_NEAR(hit->fraction_b, 0.0, kTolerance);
}

TEST(IntersectSegmentsTest, CollinearDisjointSegmentsDoNotMeet) {
  EXPECT_FALSE(IntersectSegments({{0, 0}, {1, 0}}, {{2, 0}, {3, 0}}));
  EXPECT_FALSE(IntersectSegments({{0, 0}, {1, 0}}, {{-1, 0}, {-3, 0}}));
}

TEST(IntersectSegmentsTest, PointOnSegmentIsTheCrossing) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{1, 1}, {1, 1}}, {{0, 0}, {4, 4}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->start, (Vec2{1, 1}));
  EXPECT_EQ(hit->end, (Vec2{1, 1}));
  EXPECT_EQ(hit->fraction_a, 0.0);
  EXPECT_NEAR(hit->fraction_b, 0.25, kTolerance);
  EXPECT_FALSE(hit->collinear);
}

TEST(IntersectSegmentsTest, SegmentThroughPointHasZeroFractionOnPoint) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{0, 0}, {4, 0}}, {{1, 0}, {1, 0}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->start, (Vec2{1, 0}));
  EXPECT_NEAR(hit->fraction_a, 0.25, kTolerance);
  EXPECT_EQ(hit->fraction_b, 0.0);
}

TEST(IntersectSegmentsTest, PointAtSegmentEndIsTheCrossing) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{4, 4}, {4, 4}}, {{0, 0}, {4, 4}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->fraction_b, 1.0);
}

TEST(IntersectSegmentsTest, PointOffSegmentOrBeyondItsEndsIsAMiss) {
  EXPECT_FALSE(IntersectSegments({{1, 1.5}, {1, 1.5}}, {{0, 0}, {4, 4}}));
  EXPECT_FALSE(IntersectSegments({{5, 5}, {5, 5}}, {{0, 0}, {4, 4}}));
  EXPECT_FALSE(IntersectSegments({{0, 0}, {4, 4}}, {{-1, -1}, {-1, -1}}));
}

TEST(IntersectSegmentsTest, EqualPointsMeetAndDistinctPointsDoNot) {
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({{2, 3}, {2, 3}}, {{2, 3}, {2, 3}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->start, (Vec2{2, 3}));
  EXPECT_EQ(hit->fraction_a, 0.0);
  EXPECT_EQ(hit->fraction_b, 0.0);
  EXPECT_FALSE(IntersectSegments({{2, 3}, {2, 3}}, {{2, 3.5}, {2, 3.5}}));
}

// Millimetre-sized segments a thousand kilometres out: products of raw
// coordinates (~1e12) would carry rounding errors (~1e-4) far larger than
// the segments themselves, so the math must work on differences.
TEST(IntersectSegmentsTest, TinySegmentsFarFromOriginCross) {
  const Vec2 base{1e6, -1e6};
  const std::optional<SegmentIntersection> hit =
      IntersectSegments({base, base + Vec2{1e-3, 1e-3}},
                        {base + Vec2{0, 1e-3}, base + Vec2{1e-3, 0}});
  ASSERT_TRUE(hit.has_value());
  ExpectVecNear(hit->start, base + Vec2{5e-4, 5e-4}, kFarTolerance);
  EXPECT_NEAR(hit->fraction_a, 0.5, 1e-6);
  EXPECT_NEAR(hit->fraction_b, 0.5, 1e-6);
}

TEST(IntersectSegmentsTest, TinySegmentsFarFromOriginMissByTheirOwnSize) {
  const Vec2 base{1e6, -1e6};
  // b stands 1e-3 beyond the end of a.
  EXPECT_FALSE(
      IntersectSegments({base, base + Vec2{1e-3, 0}},
                        {base + Vec2{2e-3, -1e-3}, base + Vec2{2e-3, 1e-3}}));
  // Parallel, 1e-3 apart.
  EXPECT_FALSE(
      IntersectSegments({base, base + Vec2{1e-3, 0}},
                        {base + Vec2{0, 1e-3}, base + Vec2{1e-3, 1e-3}}));
}

TEST(IntersectSegmentsTest, TinyCollinearSegmentsFarFromOriginOverlap) {
  // Multiples of 2^-10 (~1e-3) on the diagonal are exact next to 1e6, so the
  // four points are exactly collinear.
  const Vec2 base{1e6, 1e6};
  const double step = 1.0 / 1024.0;
  const Vec2 diagonal{step, step};
  const std::optional<SegmentIntersection> hit = IntersectSegments(
      {base, base + 2.0 * diagonal}, {base + diagonal, base + 3.0 * diagonal});
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->collinear);
  EXPECT_EQ(hit->start, base + diagonal);
  EXPECT_EQ(hit->end, base + 2.0 * diagonal);
  EXPECT_NEAR(hit->fraction_a, 0.5, kTolerance);
  EXPECT_NEAR(hit->fraction_b, 0.0, kTolerance);
}

// --- IntersectLineCircle --------------------------------------------------

TEST(IntersectLineCircleTest, LineThroughCircleCrossesTwiceSortedByFraction) {
  const CircleCrossings crossings =
      IntersectLineCircle({{-2, 0}, {2, 0}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], 0.25, kTolerance);
  EXPECT_NEAR(crossings.fractions[1], 0.75, kTolerance);
  ExpectVecNear(crossings.points[0], {-1, 0}, kTolerance);
  ExpectVecNear(crossings.points[1], {1, 0}, kTolerance);
}

TEST(IntersectLineCircleTest, ReversedLineReversesCrossingOrder) {
  const CircleCrossings crossings =
      IntersectLineCircle({{2, 0}, {-2, 0}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], 0.25, kTolerance);
  ExpectVecNear(crossings.points[0], {1, 0}, kTolerance);
  ExpectVecNear(crossings.points[1], {-1, 0}, kTolerance);
}

TEST(IntersectLineCircleTest, OffCentreDiagonalLineCrossesOnTheBoundary) {
  const Circle circle{{3, -2}, 2.5};
  const Segment line{{0, 0}, {1, -0.25}};
  const CircleCrossings crossings = IntersectLineCircle(line, circle);
  ASSERT_EQ(crossings.count, 2);
  EXPECT_LT(crossings.fractions[0], crossings.fractions[1]);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(Length(crossings.points[i] - circle.center), circle.radius,
                kTolerance);
    ExpectVecNear(crossings.points[i],
                  line.p1 + crossings.fractions[i] * (line.p2 - line.p1),
                  kTolerance);
  }
}

TEST(IntersectLineCircleTest, LineReportsCrossingsOutsideItsDefiningPoints) {
  const CircleCrossings crossings =
      IntersectLineCircle({{2, 0}, {3, 0}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], -3.0, kTolerance);
  EXPECT_NEAR(crossings.fractions[1], -1.0, kTolerance);
}

TEST(IntersectLineCircleTest, LinePassingOutsideCircleDoesNotCross) {
  const CircleCrossings crossings =
      IntersectLineCircle({{-2, 1.5}, {2, 1.5}}, {{0, 0}, 1});
  EXPECT_EQ(crossings.count, 0);
}

TEST(IntersectLineCircleTest, TangentLineCrossesOnce) {
  const CircleCrossings crossings =
      IntersectLineCircle({{-2, 1}, {2, 1}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_NEAR(crossings.fractions[0], 0.5, kTolerance);
  ExpectVecNear(crossings.points[0], {0, 1}, kTolerance);
}

TEST(IntersectLineCircleTest, LineThroughZeroRadiusCircleIsTangent) {
  const CircleCrossings crossings =
      IntersectLineCircle({{0, 0}, {2, 2}}, {{1, 1}, 0});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_NEAR(crossings.fractions[0], 0.5, kTolerance);
  ExpectVecNear(crossings.points[0], {1, 1}, kTolerance);
}

// The textbook discriminant b^2 - 4ac for the inputs below, written out so
// that the regression tests can show what it gets wrong.
double TextbookDiscriminant(Segment line, Circle circle) {
  const Vec2 f = line.p1 - circle.center;
  const Vec2 d = line.p2 - line.p1;
  const double a = Dot(d, d);
  const double b = 2.0 * Dot(f, d);
  const double c = Dot(f, f) - circle.radius * circle.radius;
  return b * b - 4.0 * a * c;
}

// Regression for the unstable quadratic: a line 1e6 long past a circle of
// radius 1e-3. b^2 and 4ac are both ~1.6e25 and agree to 18 digits, so the
// textbook discriminant rounds to zero and reports a single tangent point.
// a r^2 - cross(d, f)^2 keeps the difference.
TEST(IntersectLineCircleTest, LongLineThroughTinyCircleKeepsBothCrossings) {
  const Segment line{{-1e6, 0.999e-3}, {1e6, 0.999e-3}};
  const Circle circle{{0, 0}, 1e-3};
  ASSERT_EQ(TextbookDiscriminant(line, circle), 0.0);

  const CircleCrossings crossings = IntersectLineCircle(line, circle);
  ASSERT_EQ(crossings.count, 2);
  const double half_chord = std::sqrt(1e-6 - 0.999e-3 * 0.999e-3);
  ExpectVecNear(crossings.points[0], {-half_chord, 0.999e-3}, kFarTolerance);
  ExpectVecNear(crossings.points[1], {half_chord, 0.999e-3}, kFarTolerance);
}

TEST(IntersectLineCircleTest, LongLineJustMissingTinyCircleDoesNotCross) {
  const Segment line{{-1e6, 1.001e-3}, {1e6, 1.001e-3}};
  const Circle circle{{0, 0}, 1e-3};
  ASSERT_EQ(TextbookDiscriminant(line, circle), 0.0);
  EXPECT_EQ(IntersectLineCircle(line, circle).count, 0);
}

// Regression for the unstable quadratic: the line starts 1e6 away and the
// roots are 1e6 +- 1e-3. The textbook c = |f|^2 - r^2 = 1e12 - 1e-6 rounds to
// 1e12, b^2 - 4ac cancels to zero and one root is lost; the stable form still
// separates them.
TEST(IntersectLineCircleTest, LineStartingFarFromTinyCircleFindsBothRoots) {
  const Segment line{{-1e6, 0}, {-1e6 + 1, 0}};
  const Circle circle{{0, 0}, 1e-3};
  ASSERT_EQ(TextbookDiscriminant(line, circle), 0.0);

  const CircleCrossings crossings = IntersectLineCircle(line, circle);
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], 1e6 - 1e-3, kFarTolerance);
  EXPECT_NEAR(crossings.fractions[1], 1e6 + 1e-3, kFarTolerance);
  ExpectVecNear(crossings.points[0], {-1e-3, 0}, kFarTolerance);
  ExpectVecNear(crossings.points[1], {1e-3, 0}, kFarTolerance);
}

TEST(IntersectLineCircleTest, TinyCircleFarFromOriginCrossesAtItsRadius) {
  const Vec2 center{1e6, 1e6};
  const CircleCrossings crossings = IntersectLineCircle(
      {center + Vec2{-2e-3, 0}, center + Vec2{2e-3, 0}}, {center, 1e-3});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], 0.25, 1e-6);
  EXPECT_NEAR(crossings.fractions[1], 0.75, 1e-6);
  ExpectVecNear(crossings.points[0], center + Vec2{-1e-3, 0}, kFarTolerance);
  ExpectVecNear(crossings.points[1], center + Vec2{1e-3, 0}, kFarTolerance);
}

// --- IntersectSegmentCircle -----------------------------------------------

TEST(IntersectSegmentCircleTest, SegmentThroughCircleCrossesTwice) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{0, -2}, {0, 2}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_NEAR(crossings.fractions[0], 0.25, kTolerance);
  EXPECT_NEAR(crossings.fractions[1], 0.75, kTolerance);
  ExpectVecNear(crossings.points[0], {0, -1}, kTolerance);
  ExpectVecNear(crossings.points[1], {0, 1}, kTolerance);
}

TEST(IntersectSegmentCircleTest, SegmentLeavingCircleCrossesOnce) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{0, 0}, {2, 0}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_NEAR(crossings.fractions[0], 0.5, kTolerance);
  ExpectVecNear(crossings.points[0], {1, 0}, kTolerance);
}

TEST(IntersectSegmentCircleTest, SegmentEnteringCircleCrossesOnce) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{-3, 0}, {0, 0.5}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_GT(crossings.fractions[0], 0.0);
  EXPECT_LT(crossings.fractions[0], 1.0);
  EXPECT_NEAR(Length(crossings.points[0]), 1.0, kTolerance);
}

TEST(IntersectSegmentCircleTest, SegmentInsideCircleDoesNotCross) {
  EXPECT_EQ(IntersectSegmentCircle({{-0.5, 0}, {0.5, 0.2}}, {{0, 0}, 1}).count,
            0);
}

TEST(IntersectSegmentCircleTest, SegmentShortOfCircleDoesNotCross) {
  // Its line crosses twice, at fractions -3 and -1.
  EXPECT_EQ(IntersectSegmentCircle({{2, 0}, {3, 0}}, {{0, 0}, 1}).count, 0);
}

TEST(IntersectSegmentCircleTest, SegmentPassingBesideCircleDoesNotCross) {
  EXPECT_EQ(IntersectSegmentCircle({{-2, 1.5}, {2, 1.5}}, {{0, 0}, 1}).count,
            0);
}

TEST(IntersectSegmentCircleTest, TangentSegmentCrossesOnce) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{-1, -1}, {3, -1}}, {{0, 0}, 1});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_NEAR(crossings.fractions[0], 0.25, kTolerance);
  ExpectVecNear(crossings.points[0], {0, -1}, kTolerance);
}

TEST(IntersectSegmentCircleTest, SegmentEndingOnBoundaryKeepsThatCrossing) {
  // (3, 4) is exactly on the circle of radius 5; the computed root must not
  // land just past 1 and be dropped.
  const CircleCrossings crossings =
      IntersectSegmentCircle({{-7.3, 1.1}, {3, 4}}, {{0, 0}, 5});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_EQ(crossings.fractions[1], 1.0);
  EXPECT_EQ(crossings.points[1], (Vec2{3, 4}));
  EXPECT_NEAR(Length(crossings.points[0]), 5.0, kTolerance);
}

TEST(IntersectSegmentCircleTest, SegmentStartingOnBoundaryKeepsThatCrossing) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{3, 4}, {9.1, 4.3}}, {{0, 0}, 5});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_EQ(crossings.fractions[0], 0.0);
  EXPECT_EQ(crossings.points[0], (Vec2{3, 4}));
}

TEST(IntersectSegmentCircleTest, ChordBetweenBoundaryPointsCrossesAtBothEnds) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{-3, 4}, {4, -3}}, {{0, 0}, 5});
  ASSERT_EQ(crossings.count, 2);
  EXPECT_EQ(crossings.fractions[0], 0.0);
  EXPECT_EQ(crossings.fractions[1], 1.0);
  EXPECT_EQ(crossings.points[0], (Vec2{-3, 4}));
  EXPECT_EQ(crossings.points[1], (Vec2{4, -3}));
}

TEST(IntersectSegmentCircleTest, ZeroLengthSegmentOnBoundaryCrossesOnce) {
  const CircleCrossings crossings =
      IntersectSegmentCircle({{1, 7}, {1, 7}}, {{-2, 3}, 5});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_EQ(crossings.fractions[0], 0.0);
  EXPECT_EQ(crossings.points[0], (Vec2{1, 7}));
}

TEST(IntersectSegmentCircleTest, ZeroLengthSegmentOffBoundaryDoesNotCross) {
  EXPECT_EQ(IntersectSegmentCircle({{0, 0}, {0, 0}}, {{0, 0}, 1}).count, 0);
  EXPECT_EQ(IntersectSegmentCircle({{2, 0}, {2, 0}}, {{0, 0}, 1}).count, 0);
}

TEST(IntersectSegmentCircleTest, TinySegmentFarFromOriginCrossesTinyCircle) {
  const Vec2 center{-1e6, 1e6};
  const CircleCrossings crossings = IntersectSegmentCircle(
      {center + Vec2{0, -2e-3}, center + Vec2{0, 0}}, {center, 1e-3});
  ASSERT_EQ(crossings.count, 1);
  EXPECT_NEAR(crossings.fractions[0], 0.5, 1e-6);
  ExpectVecNear(crossings.points[0], center + Vec2{0, -1e-3}, kFarTolerance);
}

// --- ContainsPoint (convex) -----------------------------------------------

TEST(ContainsPointConvexTest, InteriorPointIsInside) {
  const absl::StatusOr<ConvexPolygon> box = MakeBox({1, 1}, {1, 0.5}, 0.4);
  ASSERT_TRUE(box.ok());
  EXPECT_TRUE(ContainsPoint(*box, {1, 1}));
  EXPECT_TRUE(ContainsPoint(*box, {1.5, 1.2}));
}

TEST(ContainsPointConvexTest, ExteriorPointIsOutside) {
  const absl::StatusOr<ConvexPolygon> box = MakeBox({1, 1}, {1, 0.5}, 0.0);
  ASSERT_TRUE(box.ok());
  EXPECT_FALSE(ContainsPoint(*box, {1, 1.6}));
  EXPECT_FALSE(ContainsPoint(*box, {2.01, 1}));
  EXPECT_FALSE(ContainsPoint(*box, {-5, -5}));
}

TEST(ContainsPointConvexTest, BoundaryPointsAreInside) {
  const std::array<Vec2, 3> triangle = {{{0, 0}, {4, 0}, {0, 4}}};
  const absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(triangle);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(ContainsPoint(*polygon, {2, 0}));   // On an edge.
  EXPECT_TRUE(ContainsPoint(*polygon, {2, 2}));   // On the hypotenuse.
  EXPECT_TRUE(ContainsPoint(*polygon, {4, 0}));   // On a vertex.
  EXPECT_FALSE(ContainsPoint(*polygon, {5, 0}));  // On an edge's line only.
}

TEST(ContainsPointConvexTest, ClockwiseInputGivesTheSameAnswers) {
  const std::array<Vec2, 3> clockwise = {{{0, 0}, {0, 4}, {4, 0}}};
  const absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(clockwise);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(ContainsPoint(*polygon, {1, 1}));
  EXPECT_FALSE(ContainsPoint(*polygon, {3, 3}));
}

TEST(ContainsPointConvexTest, TinyBoxFarFromOriginSeparatesNearbyPoints) {
  const Vec2 center{1e6, -1e6};
  const absl::StatusOr<ConvexPolygon> box = MakeBox(center, {1e-3, 1e-3}, 0);
  ASSERT_TRUE(box.ok());
  EXPECT_TRUE(ContainsPoint(*box, center + Vec2{9e-4, -9e-4}));
  EXPECT_FALSE(ContainsPoint(*box, center + Vec2{1.1e-3, 0}));
  EXPECT_FALSE(ContainsPoint(*box, center + Vec2{0, -1.1e-3}));
}

// --- ContainsPoint (concave) ----------------------------------------------

// An L shape, counter-clockwise; the notch is the square [1, 2] x [1, 2].
constexpr std::array<Vec2, 6> kLShape = {
    {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}};

TEST(ContainsPointConcaveTest, PointsInTheArmsAreInside) {
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(ContainsPoint(*polygon, {1.5, 0.5}));
  EXPECT_TRUE(ContainsPoint(*polygon, {0.5, 1.5}));
  EXPECT_TRUE(ContainsPoint(*polygon, {0.5, 0.5}));
}

TEST(ContainsPointConcaveTest, PointInTheNotchIsOutside) {
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok());
  EXPECT_FALSE(ContainsPoint(*polygon, {1.5, 1.5}));
  EXPECT_FALSE(ContainsPoint(*polygon, {3, 0.5}));
  EXPECT_FALSE(ContainsPoint(*polygon, {-0.5, 1.5}));
}

TEST(ContainsPointConcaveTest, BoundaryPointsAreInside) {
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(ContainsPoint(*polygon, {1, 1}));     // Reflex vertex.
  EXPECT_TRUE(ContainsPoint(*polygon, {1.5, 1}));   // Edge facing the notch.
  EXPECT_TRUE(ContainsPoint(*polygon, {1, 1.5}));   // Edge facing the notch.
  EXPECT_TRUE(ContainsPoint(*polygon, {0, 2}));     // Convex vertex.
  EXPECT_TRUE(ContainsPoint(*polygon, {0.25, 0}));  // Bottom edge.
}

TEST(ContainsPointConcaveTest, RayThroughVerticesAndAlongEdgesCountsOnce) {
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(kLShape);
  ASSERT_TRUE(polygon.ok());
  // The ray towards +x runs along the edge (2, 1) -> (1, 1).
  EXPECT_TRUE(ContainsPoint(*polygon, {0.5, 1}));
  EXPECT_FALSE(ContainsPoint(*polygon, {-1, 1}));
  // Along the top edge and through the top corners.
  EXPECT_FALSE(ContainsPoint(*polygon, {-1, 2}));
  // Through the bottom corners.
  EXPECT_FALSE(ContainsPoint(*polygon, {-1, 0}));
}

TEST(ContainsPointConcaveTest, ClockwiseInputGivesTheSameAnswers) {
  const std::array<Vec2, 6> clockwise = {
      {{0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}, {0, 0}}};
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(clockwise);
  ASSERT_TRUE(polygon.ok());
  EXPECT_TRUE(ContainsPoint(*polygon, {0.5, 1.5}));
  EXPECT_FALSE(ContainsPoint(*polygon, {1.5, 1.5}));
  EXPECT_TRUE(ContainsPoint(*polygon, {1, 1}));
}

TEST(ContainsPointConcaveTest, CombTeethAndGapsAreToldApart) {
  // A comb: base [0, 10] x [0, 1] with five teeth of width 1 up to y = 3.
  std::vector<Vec2> comb = {{0, 0}, {10, 0}};
  for (int tooth = 4; tooth >= 0; --tooth) {
    const double x = 2.0 * tooth;
    comb.push_back({x + 2, 3});
    comb.push_back({x + 1, 3});
    comb.push_back({x + 1, 1});
    comb.push_back({x, 1});
  }
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(comb);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  for (int tooth = 0; tooth < 5; ++tooth) {
    const double x = 2.0 * tooth;
    EXPECT_TRUE(ContainsPoint(*polygon, {x + 1.5, 2})) << "tooth " << tooth;
    EXPECT_FALSE(ContainsPoint(*polygon, {x + 0.5, 2})) << "gap " << tooth;
  }
  EXPECT_TRUE(ContainsPoint(*polygon, {5, 0.5}));
}

TEST(ContainsPointConcaveTest, TinyPolygonFarFromOriginSeparatesNearbyPoints) {
  const Vec2 base{-1e6, 1e6};
  const double unit = 1e-3;
  std::array<Vec2, 6> shape;
  for (size_t i = 0; i < shape.size(); ++i) {
    shape[i] = base + unit * kLShape[i];
  }
  const absl::StatusOr<ConcavePolygon> polygon = MakeConcavePolygon(shape);
  ASSERT_TRUE(polygon.ok()) << polygon.status();
  EXPECT_TRUE(ContainsPoint(*polygon, base + unit * Vec2{0.5, 1.5}));
  EXPECT_FALSE(ContainsPoint(*polygon, base + unit * Vec2{1.5, 1.5}));
  EXPECT_TRUE(ContainsPoint(*polygon, base + unit * Vec2{1.5, 0.5}));
}

// Subnormal coordinates: squares underflow to 0, yet fractions stay in
// [0, 1] and points finite.
TEST(IntersectSegmentsTest, SubnormalSegmentsGiveFiniteFractions) {
  const double tiny = 4.9406564584124654e-324;
  const std::optional<SegmentIntersection> crossing =
      IntersectSegments(Segment{{0, 0}, {0, -tiny}}, Segment{{0, 0}, {0, 0}});
  ASSERT_TRUE(crossing);
  EXPECT_EQ(crossing->fraction_a, 0.0);
  const std::optional<SegmentIntersection> overlap = IntersectSegments(
      Segment{{0, 0}, {0, 4 * tiny}}, Segment{{0, 2 * tiny}, {0, 8 * tiny}});
  ASSERT_TRUE(overlap);
  EXPECT_EQ(overlap->fraction_a, 0.5);
  EXPECT_EQ(overlap->start, (Vec2{0, 2 * tiny}));
}

TEST(IntersectSegmentCircleTest, SubnormalSegmentGivesFinitePoints) {
  const double tiny = 4.9406564584124654e-324;
  const CircleCrossings crossings = IntersectSegmentCircle(
      Segment{{0, 0}, {0, 4 * tiny}}, Circle{{0, 4 * tiny}, 2 * tiny});
  ASSERT_GE(crossings.count, 1);
  for (int i = 0; i < crossings.count; ++i) {
    const size_t k = static_cast<size_t>(i);
    EXPECT_TRUE(IsFinite(crossings.points[k]));
    EXPECT_GE(crossings.fractions[k], 0.0);
    EXPECT_LE(crossings.fractions[k], 1.0);
  }
}

}  // namespace
}  // namespace collide
