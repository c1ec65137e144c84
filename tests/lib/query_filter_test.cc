// Two-way filters (QueryFilter's category_bits, mask_bits and group
// against ShapeDesc's) in every world query kind.
#include <cstdint>
#include <optional>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/validate.h"
#include "gtest/gtest.h"

// The cases name only the QueryFilter and ShapeDesc fields they set.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace collide {
namespace {

// Three walls across the x axis at x = 1, 2, 3, ids 1..3, with the given
// category, mask and group each.
struct WallSpec {
  uint64_t category_bits = 1;
  uint64_t mask_bits = ~uint64_t{0};
  int32_t group = 0;
};

Level Walls(const std::vector<WallSpec>& specs) {
  std::vector<ShapeDesc> shapes;
  for (size_t i = 0; i < specs.size(); ++i) {
    const double x = static_cast<double>(i + 1);
    shapes.push_back({.id = i + 1,
                      .category_bits = specs[i].category_bits,
                      .geometry = Segment{{x, -1.0}, {x, 1.0}},
                      .mask_bits = specs[i].mask_bits,
                      .group = specs[i].group});
  }
  absl::StatusOr<Level> level = Level::Create(shapes);
  EXPECT_TRUE(level.ok()) << level.status();
  return *std::move(level);
}

uint64_t FirstId(const Level& level, const QueryFilter& filter) {
  const std::optional<WorldHit> hit =
      CastRay(RayInput{{0.0, 0.0}, {10.0, 0.0}}, level, filter);
  return hit ? hit->shape_id : 0;
}

TEST(QueryFilterTest, DefaultsMatchTheOneWayMaskTest) {
  const Level level = Walls({{.category_bits = 2}, {}, {}});
  EXPECT_EQ(FirstId(level, {}), 1u);
  EXPECT_EQ(FirstId(level, {.mask_bits = 1}), 2u);
  EXPECT_TRUE(FilterAccepts(1, ~uint64_t{0}, 0, QueryFilter{}));
}

TEST(QueryFilterTest, AShapeMaskSkipsQueriesOfOtherCategories) {
  // Wall 1 blocks only category 4 (e.g. players), wall 2 everything.
  const Level level = Walls({{.mask_bits = 4}, {}, {}});
  EXPECT_EQ(FirstId(level, {}), 2u);  // default query category 1
  EXPECT_EQ(FirstId(level, {.category_bits = 4}), 1u);
  EXPECT_EQ(FirstId(level, {.category_bits = 5}), 1u);
  EXPECT_EQ(FirstId(level, {.category_bits = 0}), 0u);
}

TEST(QueryFilterTest, BothDirectionsMustAgree) {
  const Level level = Walls({{.category_bits = 2, .mask_bits = 8},
                             {.category_bits = 8, .mask_bits = 2},
                             {}});
  EXPECT_EQ(FirstId(level, {.mask_bits = 2, .category_bits = 8}), 1u);
  EXPECT_EQ(FirstId(level, {.mask_bits = 8, .category_bits = 2}), 2u);
  EXPECT_EQ(FirstId(level, {.mask_bits = 2, .category_bits = 2}), 0u);
}

TEST(QueryFilterTest, NegativeSharedGroupNeverCounts) {
  const Level level = Walls({{.group = -3}, {.group = 3}, {}});
  EXPECT_EQ(FirstId(level, {.group = -3}), 2u);
  EXPECT_EQ(FirstId(level, {.group = -4}), 1u);
  EXPECT_EQ(FirstId(level, {}), 1u);
}

TEST(QueryFilterTest, PositiveSharedGroupOverridesTheBits) {
  const Level level = Walls({{.category_bits = 0, .group = 5}, {}, {}});
  EXPECT_EQ(FirstId(level, {}), 2u);
  EXPECT_EQ(FirstId(level, {.group = 5}), 1u);
  EXPECT_EQ(FirstId(level, {.mask_bits = 0, .group = 5}), 1u);
  EXPECT_EQ(FirstId(level, {.mask_bits = 0, .group = 6}), 0u);
}

TEST(QueryFilterTest, EveryQueryKindFilters) {
  // Wall 1 blocks category 4 only; a query of category 1 sees wall 2 first.
  const Level level = Walls({{.mask_bits = 4}, {}, {}});
  const QueryFilter mine{.category_bits = 4};
  const CircleCast circle{Circle{{0.0, 0.0}, 0.25}, {10.0, 0.0}};
  EXPECT_EQ(CastCircle(circle, level)->shape_id, 2u);
  EXPECT_EQ(CastCircle(circle, level, mine)->shape_id, 1u);
  const CapsuleCast capsule{Capsule{{0.0, -0.1}, {0.0, 0.1}, 0.1}, {10.0, 0.0}};
  EXPECT_EQ(CastCapsule(capsule, level)->shape_id, 2u);
  const ConvexPolygon box = *MakeBox({0.0, 0.0}, {0.2, 0.2}, 0.0);
  EXPECT_EQ(CastPolygon(PolygonCast{box, {10.0, 0.0}}, level)->shape_id, 2u);
  WorldHit hits[4];
  const ListResult all =
      CastRayAll(RayInput{{0.0, 0.0}, {10.0, 0.0}}, level, hits);
  ASSERT_EQ(all.count, 2);
  EXPECT_EQ(hits[0].shape_id, 2u);
  ShapeRef refs[4];
  const ListResult overlaps =
      OverlapCircle(Circle{{1.5, 0.0}, 0.6}, level, refs);
  ASSERT_EQ(overlaps.count, 1);
  EXPECT_EQ(refs[0].shape_id, 2u);
  EXPECT_EQ(OverlapCircle(Circle{{1.5, 0.0}, 0.6}, level, refs, mine).count, 2);
  EXPECT_EQ(ClosestPoint({1.2, 0.0}, level, 5.0)->shape_id, 2u);
  EXPECT_EQ(ClosestPoint({1.2, 0.0}, level, 5.0, mine)->shape_id, 1u);
  const MoveValidation move =
      ValidateMove(MoveClaim{Circle{{0.0, 0.0}, 0.25}, {10.0, 0.0}}, level);
  ASSERT_TRUE(move.first_hit.has_value());
  EXPECT_EQ(move.first_hit->shape_id, 2u);
  const std::optional<ShotHit> shot =
      ValidateShot(Shot{{0.0, 0.0}, {10.0, 0.0}}, level, {}, mine);
  ASSERT_TRUE(shot.has_value());
  EXPECT_EQ(shot->id, 1u);
}

TEST(QueryFilterTest, PatchedLevelsFilterBothLayers) {
  std::vector<ShapeDesc> base_shapes = {
      {.id = 1, .geometry = Segment{{1.0, -1.0}, {1.0, 1.0}}, .group = -2},
      {.id = 2, .geometry = Segment{{2.0, -1.0}, {2.0, 1.0}}}};
  auto base = std::make_shared<const Level>(*Level::Create(base_shapes));
  const ShapeDesc added[] = {
      {.id = 3, .geometry = Segment{{0.5, -1.0}, {0.5, 1.0}}, .mask_bits = 4}};
  const Level patched = *Level::Patch(base, {}, added);
  EXPECT_EQ(FirstId(patched, {}), 1u);
  EXPECT_EQ(FirstId(patched, {.group = -2}), 2u);
  EXPECT_EQ(FirstId(patched, {.category_bits = 4, .group = -2}), 3u);
}

}  // namespace
}  // namespace collide
