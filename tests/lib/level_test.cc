#include "collide/level.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "collide/shapes.h"
#include "gtest/gtest.h"
#include "random_level.h"

namespace collide {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The error message of building `shapes`, or "ok".
std::string BuildError(const std::vector<ShapeDesc>& shapes,
                       LevelOptions options = {}) {
  absl::StatusOr<Level> level = Level::Create(shapes, options);
  if (level.ok()) return "ok";
  EXPECT_EQ(level.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(level.status().message());
}

ShapeDesc Wall(uint64_t id) {
  return {.id = id, .geometry = Segment{{0, 0}, {1, 0}}};
}

TEST(LevelCreateTest, EmptyLevelIsValid) {
  absl::StatusOr<Level> level = Level::Create({});
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shape_count(), 0);
  EXPECT_FALSE(level->FindShape(0));
}

TEST(LevelCreateTest, StoresEveryKindWithIdsCategoriesAndUserData) {
  const std::vector<Vec2> triangle = {{0, 0}, {2, 0}, {0, 2}};
  const std::vector<Vec2> clockwise_square = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  const std::vector<Vec2> notch = {{0, 0}, {4, 0}, {4, 4}, {2, 1}, {0, 4}};
  std::vector<Vec2> nonagon;
  for (int k = 0; k < 9; ++k) {
    nonagon.push_back({10 + std::cos(k * 0.698), std::sin(k * 0.698)});
  }
  const std::vector<Vec2> chain = {{0, 0}, {1, 1}, {2, 0}};
  const std::vector<ShapeDesc> shapes = {
      {.id = 40,
       .category_bits = 2,
       .user_data = 400,
       .geometry = Segment{{0, 0}, {1, 0}}},
      {.id = 41, .geometry = PolylineDesc{chain, true}},
      {.id = 42, .geometry = PolygonDesc{triangle}},
      {.id = 43, .geometry = PolygonDesc{clockwise_square}},
      {.id = 44, .geometry = PolygonDesc{notch}},
      {.id = 45, .geometry = PolygonDesc{nonagon}},
      {.id = 46, .geometry = Circle{{5, 5}, 2}},
      {.id = 47, .geometry = BoxDesc{{-5, -5}, {1, 2}, 0.5}},
      {.id = 48, .geometry = Capsule{{0, 9}, {3, 9}, 0.5}},
  };
  absl::StatusOr<Level> level = Level::Create(shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  ASSERT_EQ(level->shape_count(), 9);
  EXPECT_EQ(level->kind(0), ShapeKind::kSegment);
  EXPECT_EQ(level->kind(1), ShapeKind::kPolyline);
  EXPECT_EQ(level->kind(2), ShapeKind::kConvexPolygon);
  EXPECT_EQ(level->kind(3), ShapeKind::kConvexPolygon);
  EXPECT_EQ(level->kind(4), ShapeKind::kConcavePolygon);
  EXPECT_EQ(level->kind(5),
            ShapeKind::kConcavePolygon);  // convex, > 8 vertices
  EXPECT_EQ(level->kind(6), ShapeKind::kCircle);
  EXPECT_EQ(level->kind(7), ShapeKind::kConvexPolygon);
  EXPECT_EQ(level->kind(8), ShapeKind::kCapsule);
  EXPECT_EQ(level->id(0), 40u);
  EXPECT_EQ(level->category_bits(0), 2u);
  EXPECT_EQ(level->category_bits(1), 1u);  // the default category
  EXPECT_EQ(level->user_data(0), 400u);
  EXPECT_EQ(level->FindShape(47), 7);
  EXPECT_FALSE(level->FindShape(49));
  EXPECT_EQ(level->polyline(1).vertices.size(), 3u);
  EXPECT_TRUE(level->polyline(1).closed);
  EXPECT_EQ(level->concave_polygon(4).vertices.size(), 5u);
  EXPECT_EQ(level->circle(6).radius, 2.0);
  EXPECT_EQ(level->convex_polygon(7).count, 4);
  EXPECT_EQ(level->capsule(8).radius, 0.5);
  // The level's copy outlives the caller's vertices.
  EXPECT_NE(level->concave_polygon(4).vertices.data(), notch.data());
  // Primitives: 1 + 3 (closed polyline) + 1 + 1 + 5 + 9 + 1 + 1 + 1.
  EXPECT_EQ(level->primitives().size(), 23u);
  EXPECT_EQ(level->solids().item_count(), 2);
  EXPECT_GT(level->memory_bytes(), 0u);
}

TEST(LevelCreateTest, BoundsCoverEveryShape) {
  const std::vector<ShapeDesc> shapes = {
      {.id = 1, .geometry = Circle{{-10, 3}, 2}},
      {.id = 2, .geometry = Segment{{4, -6}, {5, 8}}},
  };
  absl::StatusOr<Level> level = Level::Create(shapes);
  ASSERT_TRUE(level.ok());
  EXPECT_EQ(level->bounds().lower.x, -12);
  EXPECT_EQ(level->bounds().lower.y, -6);
  EXPECT_EQ(level->bounds().upper.x, 5);
  EXPECT_EQ(level->bounds().upper.y, 8);
}

TEST(LevelCreateTest, GivenCellSizeIsUsed) {
  absl::StatusOr<Level> level = Level::Create({Wall(1)}, {.cell_size = 0.25});
  ASSERT_TRUE(level.ok());
  EXPECT_EQ(level->spatial_hash().grid().cell_size, 0.25);
}

TEST(LevelErrorTest, NonFiniteCoordinatesNameTheField) {
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Segment{{kNaN, 0}, {1, 0}}}}),
            "shapes[0].segment.p1.x must be finite");
  EXPECT_EQ(
      BuildError({Wall(1), {.id = 2, .geometry = Segment{{0, 0}, {1, kInf}}}}),
      "shapes[1].segment.p2.y must be finite");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Circle{{0, kInf}, 1}}}),
            "shapes[0].circle.center.y must be finite");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Capsule{{0, 0}, {kNaN, 0}, 1}}}),
            "shapes[0].capsule.p2.x must be finite");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = BoxDesc{{kNaN, 0}, {1, 1}}}}),
            "shapes[0].box.center.x must be finite");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = BoxDesc{{0, 0}, {1, 1}, kInf}}}),
            "shapes[0].box.angle must be finite");
  const std::vector<Vec2> bad_chain = {{0, 0}, {1, kNaN}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolylineDesc{bad_chain}}}),
            "shapes[0].polyline.vertices[1].y must be finite");
}

TEST(LevelErrorTest, PolygonVertexErrorNamesShapeAndVertex) {
  std::vector<ShapeDesc> shapes;
  for (uint64_t i = 0; i < 12; ++i) shapes.push_back(Wall(i));
  const std::vector<Vec2> bad = {{0, 0}, {1, 0}, {1, 1}, {kNaN, 1}};
  shapes.push_back({.id = 12, .geometry = PolygonDesc{bad}});
  EXPECT_EQ(BuildError(shapes),
            "shapes[12].polygon.vertices[3].x must be finite");
}

TEST(LevelErrorTest, RadiiMustBeFiniteAndNonNegative) {
  EXPECT_EQ(BuildError({Wall(1), {.id = 2, .geometry = Circle{{0, 0}, -1}}}),
            "shapes[1].circle.radius must be >= 0, got -1");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Circle{{0, 0}, kNaN}}}),
            "shapes[0].circle.radius must be finite");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Capsule{{0, 0}, {1, 0}, -0.5}}}),
            "shapes[0].capsule.radius must be >= 0, got -0.5");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = Circle{{0, 0}, 0}}}), "ok");
}

TEST(LevelErrorTest, BoxHalfExtentsMustBePositive) {
  EXPECT_EQ(BuildError({{.id = 1, .geometry = BoxDesc{{0, 0}, {0, 1}}}}),
            "shapes[0].box.half_extents.x must be > 0, got 0");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = BoxDesc{{0, 0}, {1, -2}}}}),
            "shapes[0].box.half_extents.y must be > 0, got -2");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = BoxDesc{{0, 0}, {1, kInf}}}}),
            "shapes[0].box.half_extents.y must be finite");
}

TEST(LevelErrorTest, PolygonsMustBeSimpleWithArea) {
  const std::vector<Vec2> two = {{0, 0}, {1, 0}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolygonDesc{two}}}),
            "shapes[0].polygon.vertices must hold at least 3 vertices, got 2");
  const std::vector<Vec2> flat = {{0, 0}, {1, 0}, {2, 0}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolygonDesc{flat}}}),
            "shapes[0].polygon: polygon doubles back on itself at vertex 0");
  const std::vector<Vec2> bow_tie = {{0, 0}, {4, 4}, {4, 0}, {0, 2}};
  const std::string error =
      BuildError({{.id = 1, .geometry = PolygonDesc{bow_tie}}});
  EXPECT_EQ(error.rfind("shapes[0].polygon: ", 0), 0u) << error;
  EXPECT_NE(error.find("self-intersecting"), std::string::npos) << error;
  // A symmetric bow tie has zero area, but is named for its crossing.
  const std::vector<Vec2> even_bow_tie = {{0, 0}, {2, 2}, {2, 0}, {0, 2}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolygonDesc{even_bow_tie}}}),
            "shapes[0].polygon: polygon is self-intersecting: edges 0 and 2 "
            "intersect");
  const std::vector<Vec2> repeated = {{0, 0}, {1, 0}, {1, 0}, {0, 1}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolygonDesc{repeated}}})
                .rfind("shapes[0].polygon: ", 0),
            0u);
}

TEST(LevelErrorTest, PolylinesNeedEnoughVertices) {
  const std::vector<Vec2> one = {{0, 0}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolylineDesc{one}}}),
            "shapes[0].polyline.vertices must hold at least 2 vertices, got 1");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolylineDesc{}}}),
            "shapes[0].polyline.vertices must hold at least 2 vertices, got 0");
  const std::vector<Vec2> two = {{0, 0}, {1, 0}};
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolylineDesc{two, true}}}),
            "shapes[0].polyline.vertices must hold at least 3 vertices, got 2");
  EXPECT_EQ(BuildError({{.id = 1, .geometry = PolylineDesc{two}}}), "ok");
}

TEST(LevelErrorTest, DuplicateIdNamesBothShapes) {
  EXPECT_EQ(BuildError({Wall(3), Wall(5), Wall(17), Wall(8), Wall(17)}),
            "shapes[4].id 17 duplicates shapes[2].id");
  EXPECT_EQ(BuildError({Wall(17), Wall(17), Wall(17)}),
            "shapes[1].id 17 duplicates shapes[0].id");
}

TEST(LevelErrorTest, CellSizeMustBePositiveAndFitTheLimits) {
  EXPECT_EQ(
      BuildError({Wall(1)}, {.cell_size = -1}),
      "options.cell_size must be finite and > 0 (or 0 for automatic), got -1");
  EXPECT_EQ(
      BuildError({Wall(1)}, {.cell_size = kNaN}),
      "options.cell_size must be finite and > 0 (or 0 for automatic), got nan");
  const std::vector<ShapeDesc> wide = {
      {.id = 1, .geometry = Segment{{0, 0}, {1000, 1000}}}};
  const absl::Status too_fine =
      Level::Create(wide, {.cell_size = 0.01}).status();
  EXPECT_EQ(too_fine.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(too_fine.message(),
            "options.cell_size 0.01 makes 10000200001 cells over the level's "
            "extent, more than the limit 4 per shape part + 262144 = 262148");
  // A given size that fits the cell limit is used; the segment, covering
  // far more than its cells' share, is filed in a coarser tier.
  absl::StatusOr<Level> level = Level::Create(wide, {.cell_size = 40});
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->spatial_hash().grid().cell_size, 40);
  EXPECT_LE(level->spatial_hash().entry_count(),
            SpatialHash::kMaxItemCells + SpatialHash::kCellsBase);
}

TEST(LevelCreateTest, ManyRandomShapesBuild) {
  const testing::RandomLevel random =
      testing::MakeRandomLevel({.seed = 3,
                                .shape_count = 2000,
                                .world = 500,
                                .size = 4,
                                .huge_share = 0.01});
  absl::StatusOr<Level> level = Level::Create(random.shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->shape_count(), 2000);
  for (int i = 0; i < level->shape_count(); ++i) {
    ASSERT_EQ(level->FindShape(level->id(i)), i);
  }
}

}  // namespace
}  // namespace collide

namespace collide {
namespace {

// The size of `shapes` as Level::MemoryBound counts it.
Level::Size SizeOf(const std::vector<ShapeDesc>& shapes) {
  Level::Size size{.shapes = static_cast<int64_t>(shapes.size())};
  for (const ShapeDesc& shape : shapes) {
    std::visit(
        [&](const auto& g) {
          using G = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<G, PolylineDesc>) {
            size.chain_vertices += static_cast<int64_t>(g.vertices.size());
          } else if constexpr (std::is_same_v<G, PolygonDesc>) {
            size.chain_vertices += static_cast<int64_t>(g.vertices.size());
            ++size.polygons;
          } else if constexpr (std::is_same_v<G, BoxDesc>) {
            ++size.polygons;
          }
        },
        shape.geometry);
  }
  return size;
}

void ExpectWithinMemoryBound(const std::vector<ShapeDesc>& shapes,
                             LevelOptions options, const std::string& what) {
  absl::StatusOr<Level> level = Level::Create(shapes, options);
  ASSERT_TRUE(level.ok()) << what << ": " << level.status();
  const int64_t bound = Level::MemoryBound(SizeOf(shapes));
  EXPECT_LE(static_cast<int64_t>(level->memory_bytes()), bound) << what;
  std::printf("%s: %zu bytes, bound %lld\n", what.c_str(),
              level->memory_bytes(), static_cast<long long>(bound));
}

TEST(LevelMemoryTest, EveryLevelStaysWithinItsMemoryBound) {
  const testing::RandomLevel random =
      testing::MakeRandomLevel({.seed = 21,
                                .shape_count = 3000,
                                .world = 300,
                                .size = 4,
                                .huge_share = 0.05,
                                .outlier_share = 0.02});
  for (const double cell : {0.0, 2.0, 40.0}) {
    ExpectWithinMemoryBound(random.shapes, {.cell_size = cell},
                            "random, cell " + std::to_string(cell));
  }
  // Three boxes, one 2^48 tall.
  const double tall = std::ldexp(1.0, 48);
  ExpectWithinMemoryBound(
      {{.id = 1, .geometry = BoxDesc{{2.5, 2.5}, {1.1, 1}}},
       {.id = 3, .geometry = BoxDesc{{97.5, 7.5}, {1.1, 1}}},
       {.id = 2, .geometry = BoxDesc{{62.5, 2.5}, {1.1, tall}}}},
      {}, "three boxes, one 2^48 tall");
  // Shapes at 1e9 beside shapes at 0, 1e-9-long segments, long ones.
  std::vector<ShapeDesc> mixed;
  for (int i = 0; i < 600; ++i) {
    const double x = i;
    mixed.push_back({.id = static_cast<uint64_t>(3 * i + 1),
                     .geometry = Segment{{x, 0}, {x + 1e-9, 0}}});
    mixed.push_back({.id = static_cast<uint64_t>(3 * i + 2),
                     .geometry = Segment{{-1e9, x}, {1e9, x + 1}}});
    mixed.push_back({.id = static_cast<uint64_t>(3 * i + 3),
                     .geometry = Circle{{1e9 * (i % 5), 1e9}, 0.5}});
  }
  ExpectWithinMemoryBound(mixed, {}, "mixed scales");
  ExpectWithinMemoryBound(mixed, {.cell_size = 1e7}, "mixed scales, cell 1e7");
}

}  // namespace
}  // namespace collide
