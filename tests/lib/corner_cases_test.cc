// Exact decisions in the last corners: near-ties at fraction 0 that could
// hide an overlap, one exact time met along different paths, points a few
// ulps outside round shapes, long near-parallel grazes, vertex-first
// contacts far from the origin, and the touching-start rules of polylines
// and zero-radius capsules. Each case carries its coordinates as found; the
// expected answers are the exact ones (worked out with rational arithmetic).
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
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

}  // namespace
}  // namespace collide
