// Pixel-space geometry of the SVG renderer: hulls, clipping, and the
// sampled outlines of rounded shapes too large to write exactly.
#include "client/svg/svg_geometry.h"

#include <cmath>
#include <vector>

#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide::client::svg_internal {
namespace {

constexpr double kTolerance = 1e-9;

double Area(const std::vector<Vec2>& polygon) {
  double twice = 0.0;
  for (size_t i = 0; i < polygon.size(); ++i) {
    twice += Cross(polygon[i], polygon[(i + 1) % polygon.size()]);
  }
  return 0.5 * twice;
}

bool Within(const Aabb& rect, Vec2 p) {
  return p.x >= rect.lower.x && p.x <= rect.upper.x && p.y >= rect.lower.y &&
         p.y <= rect.upper.y;
}

TEST(ConvexHullTest, DropsInteriorAndCollinearPointsCounterClockwise) {
  const std::vector<Vec2> hull = ConvexHull(std::vector<Vec2>{
      {2, 2}, {0, 0}, {4, 0}, {2, 0}, {4, 4}, {0, 4}, {1, 3}, {0, 4}});
  ASSERT_EQ(hull.size(), 4u);
  EXPECT_EQ(hull[0], (Vec2{0, 0}));
  EXPECT_EQ(hull[1], (Vec2{4, 0}));
  EXPECT_EQ(hull[2], (Vec2{4, 4}));
  EXPECT_EQ(hull[3], (Vec2{0, 4}));
  EXPECT_GT(Area(hull), 0.0);
}

TEST(ConvexHullTest, DegenerateInputGivesPointOrSegment) {
  EXPECT_TRUE(ConvexHull(std::vector<Vec2>{}).empty());
  EXPECT_EQ(ConvexHull(std::vector<Vec2>{{1, 2}, {1, 2}, {1, 2}}).size(), 1u);
  const std::vector<Vec2> line =
      ConvexHull(std::vector<Vec2>{{1, 1}, {3, 3}, {2, 2}, {0, 0}});
  ASSERT_EQ(line.size(), 2u);
  EXPECT_EQ(line[0], (Vec2{0, 0}));
  EXPECT_EQ(line[1], (Vec2{3, 3}));
}

TEST(DistanceToConvexTest, ZeroInsideAndEuclideanOutside) {
  const std::vector<Vec2> square = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  EXPECT_EQ(DistanceToConvex(square, {1, 1}), 0.0);
  EXPECT_NEAR(DistanceToConvex(square, {5, 1}), 3.0, kTolerance);
  EXPECT_NEAR(DistanceToConvex(square, {5, 6}), 5.0, kTolerance);
  EXPECT_NEAR(DistanceToConvex(std::vector<Vec2>{{0, 0}, {4, 0}}, {2, -3}), 3.0,
              kTolerance);
  EXPECT_NEAR(DistanceToConvex(std::vector<Vec2>{{1, 1}}, {4, 5}), 5.0,
              kTolerance);
}

TEST(ClipPolygonTest, KeepsThePartInsideTheRectangle) {
  const Aabb rect = {{0, 0}, {10, 10}};
  // A square half out to the right.
  const std::vector<Vec2> clipped =
      ClipPolygon(std::vector<Vec2>{{5, 2}, {15, 2}, {15, 8}, {5, 8}}, rect);
  EXPECT_NEAR(std::abs(Area(clipped)), 5.0 * 6.0, kTolerance);
  for (const Vec2 p : clipped) EXPECT_TRUE(Within(rect, p));
  // Entirely outside: nothing.
  EXPECT_LT(
      ClipPolygon(std::vector<Vec2>{{20, 2}, {30, 2}, {25, 8}}, rect).size(),
      3u);
}

TEST(ClipPolygonTest, ConcavePolygonKeepsItsArea) {
  // An L reaching out of the rectangle on two sides; inside, it is the
  // union of [0,10]x[0,2] and [0,2]x[2,10]: 20 + 16.
  const std::vector<Vec2> l = {{-5, -5}, {20, -5}, {20, 2},
                               {2, 2},   {2, 20},  {-5, 20}};
  const Aabb rect = {{0, 0}, {10, 10}};
  const std::vector<Vec2> clipped = ClipPolygon(l, rect);
  EXPECT_NEAR(std::abs(Area(clipped)), 36.0, kTolerance);
  for (const Vec2 p : clipped) EXPECT_TRUE(Within(rect, p));
}

TEST(ClipPolygonTest, HugeCoordinatesComeBackInside) {
  const Aabb rect = {{0, 0}, {800, 600}};
  const std::vector<Vec2> clipped = ClipPolygon(
      std::vector<Vec2>{{-1e70, -1e70}, {1e70, -3e69}, {2e69, 1e70}}, rect);
  ASSERT_GE(clipped.size(), 3u);
  for (const Vec2 p : clipped) EXPECT_TRUE(Within(rect, p));
}

TEST(ClipChainTest, CutsSegmentsAtTheRectangle) {
  const Aabb rect = {{0, 0}, {10, 10}};
  const std::vector<std::vector<Vec2>> pieces =
      ClipChain(std::vector<Vec2>{{-5, 5}, {15, 5}}, false, rect);
  ASSERT_EQ(pieces.size(), 1u);
  ASSERT_EQ(pieces[0].size(), 2u);
  EXPECT_NEAR(pieces[0][0].x, 0.0, kTolerance);
  EXPECT_NEAR(pieces[0][1].x, 10.0, kTolerance);
  EXPECT_EQ(pieces[0][0].y, 5.0);
}

TEST(ClipChainTest, LeavingAndComingBackGivesTwoPieces) {
  const Aabb rect = {{0, 0}, {10, 10}};
  // In, out over the top, back in, and on inside.
  const std::vector<std::vector<Vec2>> pieces = ClipChain(
      std::vector<Vec2>{{2, 5}, {2, 20}, {8, 20}, {8, 5}, {9, 5}}, false, rect);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].size(), 2u);
  ASSERT_EQ(pieces[1].size(), 3u);  // down to (8, 5), then on to (9, 5)
  EXPECT_NEAR(pieces[1][0].y, 10.0, kTolerance);
  EXPECT_EQ(pieces[1][2], (Vec2{9, 5}));
}

TEST(ClipChainTest, ClosedChainIncludesTheClosingEdge) {
  const Aabb rect = {{0, 0}, {10, 10}};
  const std::vector<Vec2> triangle = {{1, 1}, {5, 1}, {3, 4}};
  const std::vector<std::vector<Vec2>> open = ClipChain(triangle, false, rect);
  const std::vector<std::vector<Vec2>> closed = ClipChain(triangle, true, rect);
  ASSERT_EQ(open.size(), 1u);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(open[0].size(), 3u);
  EXPECT_EQ(closed[0].size(), 4u);
  EXPECT_EQ(closed[0].back(), triangle[0]);
}

TEST(RoundedOutlineTest, CircleIsSampledWithinTolerance) {
  const Aabb rect = {{-100, -100}, {100, 100}};
  const double tolerance = 0.25;
  const std::vector<Vec2> outline =
      RoundedOutline(std::vector<Vec2>{{3, 4}}, 50.0, rect, tolerance);
  ASSERT_GE(outline.size(), 8u);
  for (size_t i = 0; i < outline.size(); ++i) {
    const Vec2 a = outline[i];
    const Vec2 b = outline[(i + 1) % outline.size()];
    EXPECT_NEAR(Length(a - Vec2{3, 4}), 50.0, 1e-9);
    // The chord's middle strays at most the tolerance from the circle.
    EXPECT_GE(Length(0.5 * (a + b) - Vec2{3, 4}), 50.0 - tolerance - 1e-9);
  }
  EXPECT_NEAR(Area(outline), M_PI * 50.0 * 50.0, 2.0 * M_PI * 50.0 * 0.25);
}

TEST(RoundedOutlineTest, StadiumHasStraightSidesAndRoundEnds) {
  const Aabb rect = {{-100, -100}, {100, 100}};
  const std::vector<Vec2> axis = {{-20, 0}, {20, 0}};
  const std::vector<Vec2> outline = RoundedOutline(axis, 10.0, rect, 0.1);
  for (const Vec2 p : outline) {
    EXPECT_NEAR(DistanceToConvex(axis, p), 10.0, 1e-9);
  }
  // Chords lose at most the tolerance along the arcs' length.
  EXPECT_NEAR(Area(outline), 40.0 * 20.0 + M_PI * 100.0, 0.1 * 2 * M_PI * 10);
  EXPECT_LT(Area(outline), 40.0 * 20.0 + M_PI * 100.0);
}

TEST(RoundedOutlineTest, HugeCircleIsSampledOnlyNearTheRectangle) {
  // Radius 1e9 px, its top edge crossing the rectangle at y = 50.
  const Aabb rect = {{-100, -100}, {100, 100}};
  const Vec2 center = {0, 50 + 1e9};
  const std::vector<Vec2> outline =
      RoundedOutline(std::vector<Vec2>{center}, 1e9, rect, 0.25);
  EXPECT_LT(outline.size(), 2000u);
  const std::vector<Vec2> visible = ClipPolygon(outline, rect);
  ASSERT_GE(visible.size(), 3u);
  // Inside the rectangle the disc is y in [50, 100]: 200 x 50.
  EXPECT_NEAR(std::abs(Area(visible)), 200.0 * 50.0, 200.0 * 0.3);
}

}  // namespace
}  // namespace collide::client::svg_internal
