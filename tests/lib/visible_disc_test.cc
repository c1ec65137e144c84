// SeesDisc (collide/visible_disc.h): circle targets seen by any part, on
// hand-made boundary cases exact by construction, and on random levels
// against sight lines to sampled points of the disc (a point seen makes
// the disc seen).
#include "collide/visible_disc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/visibility.h"
#include "random_level.h"
#include "tests/support/splitmix64.h"

namespace collide {
namespace {

using testing::MakeRandomLevel;
using testing::RandomPoint;
using testing::Scene;
using testing::SplitMix64;

Level Build(std::vector<ShapeDesc> shapes) {
  auto level = Level::Create(shapes);
  EXPECT_TRUE(level.ok()) << level.status();
  return std::move(*level);
}

ShapeDesc Shape(uint64_t id, ShapeGeometry geometry) {
  ShapeDesc desc;
  desc.id = id;
  desc.category_bits = 1;
  desc.geometry = geometry;
  return desc;
}

Viewer At(Vec2 p, std::optional<double> range = std::nullopt,
          std::optional<ViewCone> cone = std::nullopt) {
  return Viewer{p, range, cone};
}

bool SeesAny(const Level& level, const Viewer& viewer, Circle target) {
  DiscSightScratch scratch;
  const std::optional<bool> seen = SeesDisc(level, viewer, target, scratch);
  EXPECT_TRUE(seen.has_value());
  return seen.value_or(false);
}

TEST(SeesDiscTest, AnEdgePeekingPastAWallIsSeenThoughTheCentreIsHidden) {
  const Level level = Build({Shape(1, Segment{{5, -10}, {5, 1}})});
  const Viewer viewer = At({0, 0});
  EXPECT_FALSE(Sees(level, viewer, {10, 0}));
  EXPECT_TRUE(SeesAny(level, viewer, {{10, 0}, 3}));
  EXPECT_FALSE(SeesAny(level, viewer, {{10, -5}, 1}));
}

TEST(SeesDiscTest, ADiscWhollyBehindAWallIsHidden) {
  const Level level = Build({Shape(1, BoxDesc{{5, 0}, {1, 10}, 0.0})});
  EXPECT_FALSE(SeesAny(level, At({0, 0}), {{10, 0}, 3}));
}

TEST(SeesDiscTest, ADiscTangentToTheRangeIsInViewAtItsTouchingPoint) {
  const Level level = Build({});
  EXPECT_TRUE(SeesAny(level, At({0, 0}, 10.0), {{12, 0}, 2}));
  EXPECT_FALSE(SeesAny(level, At({0, 0}, 10.0), {{12, 0}, 1.9999999999999998}));
  EXPECT_TRUE(SeesAny(level, At({0, 0}, 10.0), {{6, 8}, 0.0 + 0x1p-60}) ==
              Sees(level, At({0, 0}, 10.0), {6, 8}));
}

TEST(SeesDiscTest, ADiscTangentToAConeEdgeIsInView) {
  const Level level = Build({});
  const ViewCone quarter{{1, 0}, {0, 1}};
  EXPECT_TRUE(SeesAny(level, At({0, 0}, std::nullopt, quarter), {{5, -2}, 2}));
  EXPECT_FALSE(
      SeesAny(level, At({0, 0}, std::nullopt, quarter), {{5, -2}, 1.999999}));
  EXPECT_TRUE(SeesAny(level, At({0, 0}, std::nullopt, quarter), {{5, -2}, 3}));
}

TEST(SeesDiscTest, ADiscTouchingAWallFromBehindIsSeenAtTheTouchingPoint) {
  const Level level = Build({Shape(1, Segment{{5, -10}, {5, 10}})});
  EXPECT_TRUE(SeesAny(level, At({0, 0}), {{7, 0}, 2}));
  EXPECT_FALSE(SeesAny(level, At({0, 0}), {{7, 0}, 1.9999999999999998}));
  // A solid's far face: the sight line to the touching point crosses it.
  const Level box = Build({Shape(1, BoxDesc{{4, 0}, {1, 10}, 0.0})});
  EXPECT_FALSE(SeesAny(box, At({0, 0}), {{7, 0}, 2}));
}

TEST(SeesDiscTest, ASightLineGrazingAVertexShowsTheTangentPoint) {
  // The box lies below the line y = 0.75 x, touching it at (4, 3); the disc
  // touches that line at (12, 9) from below.
  const Level level = Build({Shape(1, BoxDesc{{6, 1}, {2, 2}, 0.0})});
  EXPECT_FALSE(Sees(level, At({0, 0}), {15, 5}));
  EXPECT_TRUE(SeesAny(level, At({0, 0}), {{15, 5}, 5}));
  EXPECT_FALSE(SeesAny(level, At({0, 0}), {{15, 5}, 4.999999999}));
  // A segment along the box's top blocks the sight line through its end.
  const Level sealed = Build({Shape(1, BoxDesc{{6, 1}, {2, 2}, 0.0}),
                              Shape(2, Segment{{4, 3}, {1, 3}})});
  EXPECT_FALSE(SeesAny(sealed, At({0, 0}), {{15, 5}, 5}));
}

TEST(SeesDiscTest, AViewerInsideTheDiscSeesItUnlessInsideASolid) {
  const Level level = Build({Shape(1, BoxDesc{{0, 0}, {1, 1}, 0.0})});
  EXPECT_FALSE(SeesAny(level, At({0, 0}), {{0.5, 0}, 3}));
  EXPECT_TRUE(SeesAny(level, At({-1, 0}), {{0.5, 0}, 3}));  // on its face
  EXPECT_TRUE(SeesAny(level, At({-5, 0}), {{-2, 0}, 3}));   // on the circle
}

TEST(SeesDiscTest, RadiusZeroIsTheCentreRule) {
  const Level level = Build({Shape(1, Segment{{5, -10}, {5, 1}})});
  for (const Vec2 c : {Vec2{10, 0}, Vec2{10, 2}, Vec2{10, 1}, Vec2{5, 1}}) {
    EXPECT_EQ(SeesAny(level, At({0, 0}), {c, 0.0}), Sees(level, At({0, 0}), c))
        << c.x << "," << c.y;
  }
}

TEST(SeesDiscTest, RoundOccludersAndConcavePolygons) {
  // Behind a circle, wider than its shadow: the edges show.
  const Level circle = Build({Shape(1, Circle{{5, 0}, 1})});
  EXPECT_TRUE(SeesAny(circle, At({0, 0}), {{10, 0}, 2.5}));
  EXPECT_FALSE(SeesAny(circle, At({0, 0}), {{10, 0}, 0.5}));
  // From the notch of an L, past the top of its tall arm.
  const std::vector<Vec2> l_shape = {{4, -4}, {8, -4}, {8, 4},
                                     {6, 4},  {6, -2}, {4, -2}};
  const Level l = Build({Shape(1, PolygonDesc{l_shape})});
  EXPECT_FALSE(Sees(l, At({5, -1}), {7, 5}));
  EXPECT_TRUE(SeesAny(l, At({5, -1}), {{7, 5}, 1.5}));
  EXPECT_FALSE(SeesAny(l, At({5, -1}), {{7, 1}, 0.5}));
  // Behind a capsule.
  const Level capsule = Build({Shape(1, Capsule{{5, 6}, {5, 9}, 1})});
  EXPECT_FALSE(SeesAny(capsule, At({0, 7.5}), {{12, 7.5}, 0.5}));
  EXPECT_TRUE(SeesAny(capsule, At({0, 7.5}), {{12, 7.5}, 7}));
}

TEST(SeesDiscTest, TooManyOccludersAsksForALargerScratch) {
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 10; ++i) {
    shapes.push_back(Shape(i + 1, Segment{{2.0 + i, -1}, {2.0 + i, 1}}));
  }
  const Level level = Build(shapes);
  DiscSightScratch small(4);
  EXPECT_EQ(SeesDisc(level, At({0, 0}), {{20, 0}, 3}, small), std::nullopt);
  EXPECT_GT(small.occluders_found(), 4);
  DiscSightScratch large(64);
  EXPECT_EQ(SeesDisc(level, At({0, 0}), {{20, 0}, 3}, large),
            std::optional<bool>(false));
  EXPECT_EQ(SeesDisc(level, At({0, 0}), {{20, 0}, 15}, large),
            std::optional<bool>(true));
}

// Found by the sight-circle-target family: the viewer is a vertex of a
// solid, and the sight lines past that solid to the disc are open.
TEST(SeesDiscTest, AViewerOnAPolygonVertexSeesPastThePolygon) {
  const std::vector<Vec2> box = {{-34, -14}, {-46, -9}, {-31, 27}, {-19, 22}};
  const std::vector<Vec2> wall = {{-55, 37}, {-56, -33}, {4, -58}};
  const std::vector<Vec2> other = {{-5, -12}, {-53, 8}, {-38, 44}, {10, 24}};
  const Level level =
      Build({Shape(1, PolygonDesc{box}), Shape(2, PolylineDesc{wall, false}),
             Shape(3, PolygonDesc{other})});
  const Viewer viewer = At({-46, -9}, 195.0);
  EXPECT_TRUE(Sees(level, viewer, {30.6044, -73.2788}));  // in the disc
  EXPECT_TRUE(SeesAny(level, viewer, {{9, -130.5}, 65}));
}

// Found by the sight-circle-target family: the disc lies inside a
// capsule, touching its side from within at (-21.5, 16), the one point of
// it the viewer sees (a target against a wall, seen from outside).
TEST(SeesDiscTest, ADiscTouchingACapsuleFromInsideIsSeenAtTheTouchingPoint) {
  const Level level = Build({Shape(1, Capsule{{-70, 1}, {-35, 85}, 39})});
  EXPECT_TRUE(Sees(level, At({-38, -125}), {-21.5, 16}));
  EXPECT_TRUE(SeesAny(level, At({-38, -125}), {{-33.5, 21}, 13}));
  EXPECT_FALSE(SeesAny(level, At({-38, -125}), {{-33.5, 21}, 12.5}));
  // Inside a circle, touching it from within where the viewer looks in.
  const Level circle = Build({Shape(1, Circle{{0, 0}, 10})});
  EXPECT_TRUE(SeesAny(circle, At({20, 0}), {{5, 0}, 5}));
  EXPECT_FALSE(SeesAny(circle, At({20, 0}), {{4, 0}, 5}));
}

// Found by the sight-circle-target family: the capsule hides all of the
// disc but its tangent point (4, -3), on the sight line (16, 13) + t (-3,
// -4); the tangent's direction is exact (|v - c|^2 - r^2 = 20^2).
TEST(SeesDiscTest, ADiscSeenOnlyAlongItsTangentIsSeen) {
  const Level level = Build({Shape(1, Capsule{{3, 4}, {-20, -10}, 5})});
  const Viewer viewer = At({16, 13}, std::nullopt, ViewCone{{3, 4}, {20, -15}});
  EXPECT_TRUE(Sees(level, viewer, {4, -3}));
  EXPECT_FALSE(Sees(level, viewer, {0, 0}));
  EXPECT_TRUE(SeesAny(level, viewer, {{0, 0}, 5}));
}

// A point of the disc seen makes the disc seen, and a centre seen too; on
// random levels far from the origin as well.
TEST(SeesDiscTest, ASeenPointOfTheDiscMakesItSeenOnRandomLevels) {
  int disc_seen = 0;
  int centre_seen = 0;
  for (const double offset : {0.0, 1e6, 1e9}) {
    Scene scene;
    scene.seed = 7 + static_cast<uint64_t>(offset);
    scene.shape_count = 60;
    scene.world = 40.0;
    scene.offset = offset;
    const testing::RandomLevel random = MakeRandomLevel(scene);
    const Level level = Build(random.shapes);
    SplitMix64 rng(scene.seed);
    DiscSightScratch scratch;
    const Vec2 lower{offset, offset};
    const Vec2 upper{offset + scene.world, offset + scene.world};
    for (int i = 0; i < 60; ++i) {
      Viewer viewer = At(RandomPoint(rng, lower, upper));
      if (i % 3 == 1) viewer.range = rng.Uniform(5.0, 30.0);
      if (i % 4 == 2) {
        viewer.cone = MakeViewCone({rng.Uniform(-1, 1), rng.Uniform(-1, 1)},
                                   rng.Uniform(0.2, 2.0));
      }
      const Circle disc{RandomPoint(rng, lower, upper), rng.Uniform(0.0, 4.0)};
      const std::optional<bool> seen = SeesDisc(level, viewer, disc, scratch);
      ASSERT_TRUE(seen.has_value());
      disc_seen += *seen;
      const bool centre = Sees(level, viewer, disc.center);
      centre_seen += centre;
      if (centre) EXPECT_TRUE(*seen) << "viewer " << i;
      if (*seen) continue;
      for (int k = 0; k < 200; ++k) {
        const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
        const double radius = disc.radius * std::sqrt(rng.Uniform(0.0, 1.0));
        const Vec2 p{disc.center.x + radius * std::cos(angle),
                     disc.center.y + radius * std::sin(angle)};
        if (LengthSquared(p - disc.center) > disc.radius * disc.radius) {
          continue;
        }
        ASSERT_FALSE(Sees(level, viewer, p))
            << "viewer " << i << " sees (" << p.x << ", " << p.y << ")";
      }
    }
  }
  EXPECT_GT(disc_seen, centre_seen);
}

}  // namespace
}  // namespace collide
