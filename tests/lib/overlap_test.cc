#include "collide/intersect.h"
#include "gtest/gtest.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::Box;
using testing::Concave;
using testing::Polygon;

const Vec2 kNotch[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3},
                       {2, 1}, {1, 1}, {1, 3}, {0, 3}};

TEST(OverlapsTest, PointsAndSegments) {
  EXPECT_TRUE(Overlaps(Vec2{1, 1}, Vec2{1, 1}));
  EXPECT_FALSE(Overlaps(Vec2{1, 1}, Vec2{1, 1.5}));
  EXPECT_TRUE(Overlaps(Vec2{1, 0}, Segment{{0, 0}, {2, 0}}));
  EXPECT_FALSE(Overlaps(Vec2{3, 0}, Segment{{0, 0}, {2, 0}}));
  EXPECT_TRUE(Overlaps(Segment{{0, 0}, {2, 2}}, Segment{{0, 2}, {2, 0}}));
  EXPECT_FALSE(Overlaps(Segment{{0, 0}, {1, 0}}, Segment{{0, 1}, {1, 1}}));
  // Collinear: overlapping and disjoint.
  EXPECT_TRUE(Overlaps(Segment{{0, 0}, {2, 0}}, Segment{{1, 0}, {3, 0}}));
  EXPECT_FALSE(Overlaps(Segment{{0, 0}, {1, 0}}, Segment{{2, 0}, {3, 0}}));
}

TEST(OverlapsTest, TouchingCountsAsOverlap) {
  EXPECT_TRUE(Overlaps(Circle{{0, 0}, 1}, Circle{{2, 0}, 1}));
  EXPECT_FALSE(Overlaps(Circle{{0, 0}, 1}, Circle{{2.001, 0}, 1}));
  EXPECT_TRUE(Overlaps(Box({0, 0}, {1, 1}), Box({2, 0}, {1, 1})));
  EXPECT_TRUE(Overlaps(Segment{{1, -5}, {1, 5}}, Box({0, 0}, {1, 1})));
}

TEST(OverlapsTest, CirclesCapsulesAndPolygons) {
  EXPECT_TRUE(Overlaps(Circle{{0, 1.4}, 0.5}, Capsule{{-1, 0}, {1, 0}, 1}));
  EXPECT_FALSE(Overlaps(Circle{{0, 1.6}, 0.5}, Capsule{{-1, 0}, {1, 0}, 1}));
  // Near a box corner the circle test is round, not square.
  EXPECT_FALSE(Overlaps(Circle{{1.5, 1.5}, 0.7}, Box({0, 0}, {1, 1})));
  EXPECT_TRUE(Overlaps(Circle{{1.5, 1.5}, 0.71}, Box({0, 0}, {1, 1})));
  EXPECT_TRUE(Overlaps(Capsule{{-5, 0}, {5, 0}, 0.1}, Box({0, 0}, {1, 1})));
  EXPECT_TRUE(Overlaps(Box({0, 0}, {1, 1}), Box({0.5, 0.5}, {1, 1}, 0.7)));
  EXPECT_FALSE(Overlaps(Box({0, 0}, {1, 1}), Box({3, 0}, {1, 1}, 0.7)));
  EXPECT_TRUE(Overlaps(Vec2{0.5, 0.5}, Box({0, 0}, {1, 1})));
}

// Overlap is decided exactly, wherever the shapes lie. The rounded gap
// answers each pair below wrongly (cases from the degenerate
// report's overlap families).
TEST(OverlapsTest, DecidedExactlyOneUlpFromTouching) {
  // (-60, 32) lies on the segment; one ulp above it does not.
  const Segment slanted{{-90, 48}, {15, -8}};
  EXPECT_TRUE(Overlaps(Vec2{-60, 32}, slanted));
  EXPECT_FALSE(Overlaps(Vec2{-60, 32.000000000000007}, slanted));
  // A circle touching a capsule's end cap from the side, 1e6 from the
  // origin, and the same circle raised by 1.2e-10: sqrt(9 + 1.4e-20) > 3.
  const Capsule flat{{999999, 5}, {999997, 5}, 0};
  EXPECT_TRUE(Overlaps(Circle{{1000002, 5}, 3}, flat));
  EXPECT_FALSE(Overlaps(Circle{{1000002, 5.0000000001164153}, 3}, flat));
  // A circle exactly touching a Pythagorean-rotated box's edge near 1e6.
  const ConvexPolygon rotated = Polygon({{-998336, 986688},
                                         {-989376, 1008192},
                                         {-1002304, 1011776},
                                         {-1009984, 993344}});
  EXPECT_TRUE(Overlaps(Circle{{-989504, 999232}, 3328}, rotated));
}

TEST(OverlapsTest, ShapeInsideASolidConcavePolygonOverlaps) {
  const ConcavePolygon notch = Concave(kNotch);
  EXPECT_TRUE(Overlaps(Circle{{0.5, 2}, 0.1}, notch));   // inside an arm
  EXPECT_FALSE(Overlaps(Circle{{1.5, 2}, 0.4}, notch));  // in the notch
  EXPECT_TRUE(Overlaps(Circle{{1.5, 2}, 0.5}, notch));   // touching its sides
  EXPECT_TRUE(Overlaps(Vec2{2.5, 0.5}, notch));
  EXPECT_FALSE(Overlaps(Segment{{1.2, 1.5}, {1.8, 2.5}}, notch));
  EXPECT_TRUE(Overlaps(Box({1.5, 2}, {0.6, 0.1}), notch));
}

TEST(OverlapsTest, ConcaveAgainstConcave) {
  const ConcavePolygon notch = Concave(kNotch);
  const Vec2 inner[] = {{1.2, 1.2}, {1.8, 1.2}, {1.5, 2.5}};
  EXPECT_FALSE(Overlaps(notch, Concave(inner)));
  const Vec2 crossing[] = {{1.2, 1.2}, {2.5, 1.2}, {1.5, 2.5}};
  EXPECT_TRUE(Overlaps(notch, Concave(crossing)));
  const Vec2 swallowed[] = {{0.2, 0.2}, {0.8, 0.2}, {0.5, 0.8}};
  EXPECT_TRUE(Overlaps(notch, Concave(swallowed)));
}

}  // namespace
}  // namespace collide
