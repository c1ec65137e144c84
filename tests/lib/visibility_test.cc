// The visibility queries (collide/visibility.h): the rules on hand-made
// cases, and VisibleTargets against Sees and against a brute force over
// every shape on random levels (patched and filtered too).
#include "collide/visibility.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "random_level.h"
#include "tests/support/splitmix64.h"
#include "visibility/occluders.h"
#include "world/query_common.h"

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

ShapeDesc Shape(uint64_t id, ShapeGeometry geometry, uint64_t category = 1) {
  ShapeDesc desc;
  desc.id = id;
  desc.category_bits = category;
  desc.geometry = geometry;
  return desc;
}

Viewer At(Vec2 p) { return Viewer{p, std::nullopt, std::nullopt}; }

TEST(VisibilityRules, SolidBoxBlocksThroughButNotAlongOrAtACorner) {
  const Level level = Build({Shape(1, BoxDesc{{0, 0}, {1, 1}, 0.0})});
  EXPECT_FALSE(Sees(level, At({-5, 0}), {5, 0}));     // through
  EXPECT_TRUE(Sees(level, At({-5, 1}), {5, 1}));      // along the top edge
  EXPECT_TRUE(Sees(level, At({-2, 0}), {0, 2}));      // touches corner (-1, 1)
  EXPECT_FALSE(Sees(level, At({-2, 0}), {0, 1.5}));   // cuts the corner
  EXPECT_TRUE(Sees(level, At({-5, 0}), {-1, 0}));     // target on the face
  EXPECT_FALSE(Sees(level, At({-5, 0}), {-0.5, 0}));  // target inside
}

TEST(VisibilityRules, SegmentsBlockWhenTouchedAndPolylinesSeal) {
  const Level level = Build({Shape(1, Segment{{0, -1}, {0, 1}}),
                             Shape(2, Segment{{10, -1}, {10, 1}})});
  EXPECT_FALSE(Sees(level, At({-1, 0}), {1, 0}));
  EXPECT_FALSE(Sees(level, At({-1, 1}), {1, 1}));     // through its end
  EXPECT_FALSE(Sees(level, At({0, -5}), {0, 5}));     // along it
  EXPECT_TRUE(Sees(level, At({-1, 0}), {0, 0}));      // target on it
  EXPECT_TRUE(Sees(level, At({1, 0}), {0, 0}));       // from the other side
  EXPECT_TRUE(Sees(level, At({0, 0}), {5, 0}));       // viewer on it
  EXPECT_TRUE(Sees(level, At({-1, 1.5}), {1, 1.5}));  // past its end
  const std::vector<Vec2> chain = {{0, -1}, {1, 0}, {0, 1}};
  const Level bend = Build({Shape(3, PolylineDesc{chain, false})});
  EXPECT_FALSE(Sees(bend, At({0, 0}), {2, 0}));  // through the joint
}

TEST(VisibilityRules, RoundShapesBlockOnlyTheirInterior) {
  const Level level = Build({Shape(1, Circle{{0, 0}, 1}),
                             Shape(2, Capsule{{10, -1}, {10, 1}, 1}),
                             Shape(3, Circle{{20, 0}, 0})});
  EXPECT_FALSE(Sees(level, At({-5, 0.5}), {5, -0.5}));
  EXPECT_TRUE(Sees(level, At({-5, 1}), {5, 1}));       // tangent
  EXPECT_TRUE(Sees(level, At({9, -5}), {9, 5}));       // along the capsule side
  EXPECT_FALSE(Sees(level, At({5, 1.5}), {15, 1.5}));  // through a cap
  EXPECT_TRUE(Sees(level, At({5, 2}), {15, 2}));       // tangent to a cap
  EXPECT_TRUE(Sees(level, At({15, 0}), {25, 0}));      // radius 0: no interior
}

TEST(VisibilityRules, ViewerInsideSeesNothing) {
  const std::vector<Vec2> l_shape = {{0, 0}, {4, 0}, {4, 1},
                                     {1, 1}, {1, 4}, {0, 4}};
  const Level level = Build({Shape(1, PolygonDesc{l_shape})});
  EXPECT_FALSE(Sees(level, At({0.5, 0.5}), {0.5, 0.5}));
  EXPECT_FALSE(Sees(level, At({0.5, 0.5}), {10, 10}));
  // On the boundary: out is seen, in is not.
  EXPECT_TRUE(Sees(level, At({2, 1}), {2, 5}));
  EXPECT_FALSE(Sees(level, At({2, 1}), {2, 0.5}));
  // Into the notch's reflex vertex (1, 1): seen; just past it: not.
  EXPECT_TRUE(Sees(level, At({3, 3}), {1, 1}));
  EXPECT_FALSE(Sees(level, At({3, 3}), {0.9, 0.9}));
  // Along the inner edge from outside: open; into the arm: blocked.
  EXPECT_TRUE(Sees(level, At({1, 6}), {1, 1}));
  EXPECT_FALSE(Sees(level, At({3, 6}), {0.5, 0.5}));
}

TEST(VisibilityRules, RangeAndConeEdgesAreInView) {
  const Level level = Build({});
  Viewer viewer = At({0, 0});
  viewer.range = 5.0;
  EXPECT_TRUE(Sees(level, viewer, {3, 4}));
  EXPECT_FALSE(Sees(level, viewer, {3, std::nextafter(4.0, 5.0)}));
  viewer.range.reset();
  viewer.cone = ViewCone{{1, -1}, {1, 1}};  // quarter turn around +x
  EXPECT_TRUE(Sees(level, viewer, {2, 2}));
  EXPECT_TRUE(Sees(level, viewer, {2, -2}));
  EXPECT_FALSE(Sees(level, viewer, {2, std::nextafter(2.0, 3.0)}));
  EXPECT_FALSE(Sees(level, viewer, {-1, 0}));
  viewer.cone = ViewCone{{-1, -1}, {-1, 1}};  // three quarters around +x
  EXPECT_TRUE(Sees(level, viewer, {0, -1}));
  EXPECT_FALSE(Sees(level, viewer, {-2, 1}));
  viewer.cone = ViewCone{{1, 0}, {-1, 0}};  // the upper half plane
  EXPECT_TRUE(Sees(level, viewer, {-3, 0}));
  EXPECT_FALSE(Sees(level, viewer, {-3, -1e-300}));
  EXPECT_FALSE(MakeViewCone({1, 0}, std::numbers::pi).has_value());
  const auto cone = MakeViewCone({0, 2}, std::numbers::pi / 4);
  ASSERT_TRUE(cone.has_value());
  viewer.cone = cone;
  EXPECT_TRUE(Sees(level, viewer, {0.1, 1}));
  EXPECT_FALSE(Sees(level, viewer, {1, 0.1}));
}

TEST(VisibilityRules, FilterChoosesOccluders) {
  const Level level = Build({Shape(1, Segment{{0, -1}, {0, 1}}, 2)});
  EXPECT_FALSE(Sees(level, At({-1, 0}), {1, 0}));
  EXPECT_TRUE(Sees(level, At({-1, 0}), {1, 0}, QueryFilter{~uint64_t{2}}));
  const uint64_t ignored[] = {1};
  EXPECT_TRUE(
      Sees(level, At({-1, 0}), {1, 0}, QueryFilter{~uint64_t{0}, ignored}));
}

// Every pair by brute force over every primitive of every layer.
bool BruteSees(const Level& level, const Viewer& viewer, Vec2 t,
               const QueryFilter& filter) {
  if (!InViewRegion(viewer, t)) return false;
  const Vec2 v = viewer.position;
  const Level* layers[2] = {&level, level.base()};
  const uint64_t* removed[2] = {nullptr, level.removed_from_base().data()};
  for (int l = 0; l < 2 && layers[l] != nullptr; ++l) {
    if (internal::InsideOccluder(*layers[l], removed[l], v, filter)) {
      return false;
    }
  }
  if (t == v) return true;
  for (int l = 0; l < 2 && layers[l] != nullptr; ++l) {
    for (const Level::Primitive& p : layers[l]->primitives()) {
      if (internal::Occludes(*layers[l], p, v, filter, removed[l]) &&
          internal::Blocks(*layers[l], p, v, t)) {
        return false;
      }
    }
  }
  return true;
}

void ExpectAllAgree(const Level& level, const std::vector<Viewer>& viewers,
                    const std::vector<Vec2>& targets, const QueryFilter& filter,
                    VisibilityScratch& scratch, int& visible_pairs) {
  const int32_t words = VisibilityWords(static_cast<int32_t>(targets.size()));
  std::vector<uint64_t> bits(viewers.size() * words);
  VisibleTargets(level, viewers, targets, absl::MakeSpan(bits), scratch,
                 filter);
  for (size_t i = 0; i < viewers.size(); ++i) {
    for (size_t j = 0; j < targets.size(); ++j) {
      const bool got = (bits[i * words + j / 64] >> (j % 64)) & 1;
      const bool brute = BruteSees(level, viewers[i], targets[j], filter);
      ASSERT_EQ(got, brute) << "viewer " << i << " target " << j;
      ASSERT_EQ(Sees(level, viewers[i], targets[j], filter), brute)
          << "viewer " << i << " target " << j;
      visible_pairs += got ? 1 : 0;
    }
  }
}

// A one-sided segment or polyline blocks sight from its front (the left of
// p1 -> p2) only, as it blocks movers.
TEST(VisibilityRules, OneSidedShapesBlockFromTheirFrontOnly) {
  ShapeDesc platform = Shape(1, Segment{{-1, 0}, {1, 0}});  // front: +y
  platform.one_sided = true;
  const std::vector<Vec2> chain = {{11, 0}, {10, 0}, {9, 0}};
  ShapeDesc ledge = Shape(2, PolylineDesc{chain, false});
  ledge.one_sided = true;  // front: -y
  const Level level = Build({platform, ledge});
  EXPECT_FALSE(Sees(level, At({0, 1}), {0, -1}));    // from the front
  EXPECT_TRUE(Sees(level, At({0, -1}), {0, 1}));     // from behind
  EXPECT_TRUE(Sees(level, At({-5, 0}), {5, 0}));     // along its line
  EXPECT_FALSE(Sees(level, At({10, -1}), {10, 1}));  // the joint, in front
  EXPECT_TRUE(Sees(level, At({10, 1}), {10, -1}));   // the joint, behind
  const std::vector<Viewer> viewers = {At({0, 1}), At({0, -1}), At({10, -1}),
                                       At({10, 1}), At({-5, 0})};
  const std::vector<Vec2> targets = {{0, -1}, {0, 1},    {10, 1}, {10, -1},
                                     {5, 0},  {0.5, -2}, {9.5, 2}};
  VisibilityScratch scratch;
  int visible_pairs = 0;
  ExpectAllAgree(level, viewers, targets, QueryFilter{}, scratch,
                 visible_pairs);
  EXPECT_GT(visible_pairs, 0);
}

std::vector<Viewer> RandomViewers(SplitMix64& rng, int n, Vec2 lower,
                                  Vec2 upper) {
  std::vector<Viewer> viewers;
  for (int i = 0; i < n; ++i) {
    Viewer viewer = At(RandomPoint(rng, lower, upper));
    if (rng.Chance(0.3)) viewer.range = rng.Uniform(5.0, 60.0);
    if (rng.Chance(0.3)) {
      viewer.cone = MakeViewCone(testing::RandomDirection(rng, 1.0),
                                 rng.Uniform(0.1, 3.0));
    }
    viewers.push_back(viewer);
  }
  return viewers;
}

TEST(VisibleTargets, MatchesSeesAndBruteForceOnRandomLevels) {
  int visible_pairs = 0;
  VisibilityScratch scratch;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    Scene scene;
    scene.seed = seed;
    scene.shape_count = 150;
    scene.offset = seed % 3 == 0 ? 1e6 : 0.0;
    const auto random = MakeRandomLevel(scene);
    const Level level = Build(random.shapes);
    SplitMix64 rng(seed * 77);
    const Vec2 lower{scene.offset - 10, scene.offset - 10};
    const Vec2 upper{scene.offset + 110, scene.offset + 110};
    const auto viewers = RandomViewers(rng, 24, lower, upper);
    std::vector<Vec2> targets;
    for (int j = 0; j < 70; ++j)
      targets.push_back(RandomPoint(rng, lower, upper));
    // Some targets on shape vertices and at viewers.
    targets.push_back(viewers[0].position);
    if (const auto* s = std::get_if<Segment>(&random.shapes[0].geometry)) {
      targets.push_back(s->p1);
    }
    const QueryFilter filter{seed % 2 == 0 ? ~uint64_t{0} : uint64_t{0b1011}};
    ExpectAllAgree(level, viewers, targets, filter, scratch, visible_pairs);
  }
  EXPECT_GT(visible_pairs, 100);
}

TEST(VisibleTargets, SmallScratchGivesTheSameAnswers) {
  Scene scene;
  scene.seed = 11;
  scene.shape_count = 200;
  const auto random = MakeRandomLevel(scene);
  const Level level = Build(random.shapes);
  SplitMix64 rng(5);
  const auto viewers = RandomViewers(rng, 16, {0, 0}, {100, 100});
  std::vector<Vec2> targets;
  for (int j = 0; j < 40; ++j)
    targets.push_back(RandomPoint(rng, {0, 0}, {100, 100}));
  int visible_pairs = 0;
  VisibilityScratch tiny(8, 8);
  ExpectAllAgree(level, viewers, targets, {}, tiny, visible_pairs);
  EXPECT_GT(tiny.counts().walked_targets, 0);
}

TEST(VisibleTargets, PatchedLevelsAnswerBothLayers) {
  Scene scene;
  scene.seed = 21;
  scene.shape_count = 150;
  const auto random = MakeRandomLevel(scene);
  auto base = std::make_shared<const Level>(Build(random.shapes));
  const uint64_t removed[] = {random.shapes[3].id, random.shapes[7].id};
  const std::vector<ShapeDesc> added = {
      Shape(100000, BoxDesc{{50, 50}, {10, 1}, 0.3}),
      Shape(100001, Segment{{20, 20}, {80, 25}})};
  auto patched = Level::Patch(base, removed, added);
  ASSERT_TRUE(patched.ok()) << patched.status();
  SplitMix64 rng(9);
  const auto viewers = RandomViewers(rng, 20, {0, 0}, {100, 100});
  std::vector<Vec2> targets;
  for (int j = 0; j < 50; ++j)
    targets.push_back(RandomPoint(rng, {0, 0}, {100, 100}));
  int visible_pairs = 0;
  VisibilityScratch scratch;
  ExpectAllAgree(*patched, viewers, targets, {}, scratch, visible_pairs);
  EXPECT_GT(visible_pairs, 10);
}

TEST(VisibleTargets, ARingOfBoxesHidesTheFieldWithoutReadingIt) {
  // A ring of boxes around the viewer hides a far field of shapes: the
  // boxes, read around the viewer, hide the targets behind them, and the
  // field beyond is neither read nor walked.
  std::vector<ShapeDesc> shapes;
  uint64_t id = 1;
  for (int k = 0; k < 64; ++k) {
    const double a = 2 * std::numbers::pi * k / 64;
    shapes.push_back(Shape(id++, BoxDesc{{10 * std::cos(a), 10 * std::sin(a)},
                                         {0.8, 0.3},
                                         a + std::numbers::pi / 2}));
  }
  for (int x = -200; x <= 200; x += 4) {
    for (int y = 30; y <= 200; y += 4) {
      shapes.push_back(
          Shape(id++, Segment{{double(x), double(y)}, {x + 1.0, y + 1.0}}));
    }
  }
  const Level level = Build(shapes);
  std::vector<Vec2> targets;
  SplitMix64 rng(3);
  while (targets.size() < 1024) {
    const Vec2 t = RandomPoint(rng, {-200, -200}, {200, 200});
    if (LengthSquared(t) > 144) targets.push_back(t);  // outside the ring
  }
  const std::vector<Viewer> viewers = {At({0, 0})};
  int visible_pairs = 0;
  VisibilityScratch scratch;
  ExpectAllAgree(level, viewers, targets, {}, scratch, visible_pairs);
  EXPECT_EQ(visible_pairs, 0);
  EXPECT_GE(scratch.counts().certified_blocked, 1024 - 16);
  EXPECT_LE(scratch.counts().walked_targets, 16);
  EXPECT_LE(scratch.counts().occluders_gathered, 128);
}

TEST(VisibleTargets, LongWallsInACoarserTierHideAsTheSmallShapesDo) {
  // Short segments fill the finest grid; walls far longer than its cells
  // are filed in a coarser tier, which the read around each viewer and the
  // walks must see as well.
  std::vector<ShapeDesc> shapes;
  SplitMix64 rng(17);
  uint64_t id = 1;
  for (int i = 0; i < 600; ++i) {
    const Vec2 c = RandomPoint(rng, {0, 0}, {100, 100});
    const Vec2 d = testing::RandomDirection(rng, 0.8);
    shapes.push_back(Shape(id++, Segment{c - d, c + d}));
  }
  for (int i = 0; i < 6; ++i) {
    const double y = 8.0 + 16.0 * i;
    shapes.push_back(Shape(id++, Segment{{-20, y}, {120, y + 3}}));
  }
  const Level level = Build(shapes);
  ASSERT_GT(level.spatial_hash().tiers().size(), 1u);
  const auto viewers = RandomViewers(rng, 24, {0, 0}, {100, 100});
  std::vector<Vec2> targets;
  for (int j = 0; j < 80; ++j)
    targets.push_back(RandomPoint(rng, {0, 0}, {100, 100}));
  int visible_pairs = 0;
  VisibilityScratch scratch;
  ExpectAllAgree(level, viewers, targets, {}, scratch, visible_pairs);
  EXPECT_GT(visible_pairs, 0);
}

TEST(VisibleTargets, NoRoomForBlockersWalksEveryTargetWithTheSameAnswers) {
  Scene scene;
  scene.seed = 12;
  scene.shape_count = 300;
  const auto random = MakeRandomLevel(scene);
  const Level level = Build(random.shapes);
  SplitMix64 rng(6);
  const auto viewers = RandomViewers(rng, 12, {0, 0}, {100, 100});
  std::vector<Vec2> targets;
  for (int j = 0; j < 60; ++j)
    targets.push_back(RandomPoint(rng, {0, 0}, {100, 100}));
  int visible_pairs = 0;
  VisibilityScratch none(0, 0);
  ExpectAllAgree(level, viewers, targets, {}, none, visible_pairs);
  EXPECT_EQ(none.counts().occluders_gathered, 0);
  EXPECT_EQ(none.counts().certified_blocked, 0);
}

}  // namespace
}  // namespace collide
