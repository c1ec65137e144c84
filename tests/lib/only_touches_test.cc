// PassesBeside (sweep/only_touches.h): whether a convex mover can only touch a
// convex shape along its motion, on cases exact by construction, each one
// ulp from the other answer.
#include <cmath>

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"
#include "sweep/only_touches.h"
#include "test_shapes.h"

namespace collide::internal {
namespace {

using testing::Box;

TEST(PassesBesideTest, CrateLevelWithATilesTopPassesBesideIt) {
  const ConvexPolygon crate = Box({-0.5, 0.3}, {0.3, 0.3});  // y in [0, 0.6]
  const ConvexPolygon tile = Box({0.5, -0.5}, {0.5, 0.5});   // y in [-1, 0]
  EXPECT_TRUE(PassesBeside(Core(crate, 0.0), {4, 0}, Core(tile, 0.0)));
  // Either way along, and with the roles swapped.
  EXPECT_TRUE(PassesBeside(Core(crate, 0.0), {-4, 0}, Core(tile, 0.0)));
  EXPECT_TRUE(PassesBeside(Core(tile, 0.0), {4, 0}, Core(crate, 0.0)));
  // Tilted down by the least amount, it goes in.
  EXPECT_FALSE(PassesBeside(Core(crate, 0.0), {4, -1e-300}, Core(tile, 0.0)));
  // One ulp lower, it overlaps the tile across the motion.
  const ConvexPolygon sunk = Box({-0.5, 0.3}, {0.3, std::nextafter(0.3, 1.0)});
  EXPECT_FALSE(PassesBeside(Core(sunk, 0.0), {4, 0}, Core(tile, 0.0)));
}

TEST(PassesBesideTest, CircleAtExactlyItsRadiusFromACapsulesSide) {
  // Motion along (3, 4); the capsule's core runs along it 5 to the right
  // of the circle's path: Cross((3, 4), (4, -3)) = -25 = -5 |d|.
  const Core capsule({4, -3}, {7, 1}, 2.0, FeatureMap::kSegment);
  EXPECT_TRUE(
      PassesBeside(Core({0, 0}, 3.0, FeatureMap::kCircle), {3, 4}, capsule));
  EXPECT_FALSE(
      PassesBeside(Core({0, 0}, std::nextafter(3.0, 4.0), FeatureMap::kCircle),
                   {3, 4}, capsule));
}

TEST(PassesBesideTest, PointOnASegmentsLinePassesAlongIt) {
  // A segment has no inside: a point moving along its line only touches.
  const Core segment({1, 1}, {3, 3}, 0.0, FeatureMap::kSegment);
  EXPECT_TRUE(
      PassesBeside(Core({0, 0}, 0.0, FeatureMap::kPoint), {1, 1}, segment));
  // A circle centred on the line goes into it.
  EXPECT_FALSE(
      PassesBeside(Core({0, 0}, 0.5, FeatureMap::kCircle), {1, 1}, segment));
}

TEST(PassesBesideTest, NoMotionPassesBesideNothing) {
  const ConvexPolygon tile = Box({0.5, -0.5}, {0.5, 0.5});
  EXPECT_FALSE(PassesBeside(Core({5, 5}, 0.0, FeatureMap::kPoint), {0, 0},
                            Core(tile, 0.0)));
}

}  // namespace
}  // namespace collide::internal
