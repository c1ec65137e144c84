#include "collide/query.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "gtest/gtest.h"
#include "query_brute_force.h"
#include "random_level.h"
#include "test_shapes.h"

namespace collide {
namespace {

using testing::BruteCast;
using testing::BruteCastAll;
using testing::BruteClosestPoint;
using testing::BruteOverlap;
using testing::MakeRandomLevel;
using testing::RandomLevel;
using testing::Scene;
using testing::SplitMix64;

// --- Exact comparisons: the world answer must equal brute force bit for bit.

std::string Describe(const std::optional<WorldHit>& h) {
  if (!h) return "miss";
  return absl::StrCat("id ", h->shape_id, " fraction ",
                      absl::StrFormat("%.17g", h->hit.fraction), " point (",
                      h->hit.point.x, ", ", h->hit.point.y, ") normal (",
                      h->hit.normal.x, ", ", h->hit.normal.y, ") feature ",
                      static_cast<int>(h->hit.feature.type), ":",
                      h->hit.feature.index, " status ",
                      static_cast<int>(h->hit.status), " depth ", h->hit.depth);
}

bool Same(const WorldHit& a, const WorldHit& b) {
  return a.shape_id == b.shape_id && a.user_data == b.user_data &&
         a.hit.fraction == b.hit.fraction && a.hit.point == b.hit.point &&
         a.hit.normal == b.hit.normal && a.hit.depth == b.hit.depth &&
         a.hit.feature.type == b.hit.feature.type &&
         a.hit.feature.index == b.hit.feature.index &&
         a.hit.status == b.hit.status;
}

bool Same(const std::optional<WorldHit>& a, const std::optional<WorldHit>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || Same(*a, *b);
}

bool Same(const std::optional<WorldClosestPoint>& a,
          const std::optional<WorldClosestPoint>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->shape_id == b->shape_id && a->user_data == b->user_data &&
         a->distance == b->distance && a->point == b->point &&
         a->normal == b->normal && a->feature.type == b->feature.type &&
         a->feature.index == b->feature.index;
}

// --- Random movers and options.

struct QueryMaker {
  SplitMix64 rng;
  const Scene& scene;
  std::vector<uint64_t> ignore;  // storage for QueryFilter::ignore_ids

  Vec2 Start() {
    const double margin = 0.1 * scene.world;
    return RandomPoint(rng, {scene.offset - margin, scene.offset - margin},
                       {scene.offset + scene.world + margin,
                        scene.offset + scene.world + margin});
  }
  Vec2 Translation() {
    switch (rng.Below(6)) {
      case 0:
        return {};
      case 1:
        return RandomDirection(rng, scene.world);
      case 2:  // axis-aligned: exercises cell boundaries and pure row walks
        return rng.Chance(0.5)
                   ? Vec2{rng.Uniform(-1.0, 1.0) * scene.size * 10, 0.0}
                   : Vec2{0.0, rng.Uniform(-1.0, 1.0) * scene.size * 10};
      default:
        return RandomDirection(rng, scene.size * rng.Uniform(0.1, 15.0));
    }
  }
  double Radius() {
    return rng.Chance(0.1) ? 0.0 : scene.size * rng.Uniform(0.05, 0.8);
  }
  CastOptions Options() {
    CastOptions options;
    if (rng.Chance(0.3)) options.max_fraction = rng.Uniform(0.0, 1.0);
    if (rng.Chance(0.2))
      options.target_distance = scene.size * rng.Uniform(0.0, 0.3);
    options.stop_at_penetration = rng.Chance(0.1);
    return options;
  }
  QueryFilter Filter(const std::vector<ShapeDesc>& shapes) {
    QueryFilter filter;
    if (rng.Chance(0.3)) filter.mask_bits = rng.Next() & 0xF;
    ignore.clear();
    if (rng.Chance(0.3)) {
      for (int k = 0; k < 3; ++k) {
        ignore.push_back(shapes[static_cast<size_t>(
                                    rng.Below(static_cast<int>(shapes.size())))]
                             .id);
      }
      filter.ignore_ids = ignore;
    }
    return filter;
  }
  ConvexPolygon Polygon(Vec2 at) {
    const double r = std::max(Radius(), 1e-3 * scene.size);
    const int n = 3 + rng.Below(6);
    const double turn = rng.Uniform(0.0, 6.3);
    std::vector<Vec2> v;
    for (int k = 0; k < n; ++k) {
      const double a = turn + 2.0 * 3.141592653589793 * k / n;
      v.push_back(at + Vec2{r * std::cos(a), r * std::sin(a)});
    }
    absl::StatusOr<ConvexPolygon> polygon = MakeConvexPolygon(v);
    if (!polygon.ok()) return *MakeBox(at, {r, r}, 0.0);
    return *polygon;
  }
};

// Several grids over the same shapes: automatic, tiny and huge cells.
std::vector<Level> BuildLevels(const RandomLevel& random, const Scene& scene) {
  std::vector<Level> levels;
  for (const double cell :
       {0.0, scene.size * 0.15, scene.size * 1.1, scene.world * 3.0}) {
    absl::StatusOr<Level> level =
        Level::Create(random.shapes, {.cell_size = cell});
    EXPECT_TRUE(level.ok()) << level.status();
    if (level.ok()) levels.push_back(*std::move(level));
  }
  return levels;
}

template <typename Cast, typename WorldAll>
void CheckCast(const Cast& cast, const std::vector<Level>& levels,
               const QueryFilter& filter, const CastOptions& options,
               WorldAll world_all, const std::string& what) {
  const std::optional<WorldHit> expected =
      BruteCast(cast, levels[0], filter, options);
  const std::vector<WorldHit> all =
      BruteCastAll(cast, levels[0], filter, options);
  for (size_t l = 0; l < levels.size(); ++l) {
    const Level& level = levels[l];
    std::optional<WorldHit> actual;
    if constexpr (std::is_same_v<Cast, RayInput>)
      actual = CastRay(cast, level, filter, options);
    if constexpr (std::is_same_v<Cast, CircleCast>)
      actual = CastCircle(cast, level, filter, options);
    if constexpr (std::is_same_v<Cast, CapsuleCast>)
      actual = CastCapsule(cast, level, filter, options);
    if constexpr (std::is_same_v<Cast, PolygonCast>)
      actual = CastPolygon(cast, level, filter, options);
    ASSERT_TRUE(Same(actual, expected))
        << what << " grid " << l << "\n  world " << Describe(actual)
        << "\n  brute " << Describe(expected);
    // All hits, in a roomy span and in one that truncates.
    for (const size_t capacity : {all.size() + 2, all.size() / 2}) {
      std::vector<WorldHit> hits(capacity);
      const ListResult result =
          world_all(cast, level, absl::MakeSpan(hits), filter, options);
      const size_t want = std::min(capacity, all.size());
      std::string lists;
      for (int32_t k = 0; k < result.count; ++k)
        lists += "\n  world " + Describe(hits[k]);
      for (const WorldHit& h : all) lists += "\n  brute " + Describe(h);
      ASSERT_EQ(result.count, static_cast<int32_t>(want))
          << what << " grid " << l << lists;
      ASSERT_EQ(result.truncated, all.size() > capacity)
          << what << " grid " << l;
      for (size_t k = 0; k < want; ++k) {
        ASSERT_TRUE(Same(hits[k], all[k]))
            << what << " grid " << l << " all-hits entry " << k << "\n  world "
            << Describe(hits[k]) << "\n  brute " << Describe(all[k]);
      }
    }
  }
}

template <typename Query, typename WorldOverlap>
void CheckOverlap(const Query& query, const std::vector<Level>& levels,
                  const QueryFilter& filter, WorldOverlap world_overlap,
                  const std::string& what) {
  const std::vector<ShapeRef> expected = BruteOverlap(query, levels[0], filter);
  for (size_t l = 0; l < levels.size(); ++l) {
    for (const size_t capacity : {expected.size() + 1, expected.size() / 2}) {
      std::vector<ShapeRef> refs(capacity);
      const ListResult result =
          world_overlap(query, levels[l], absl::MakeSpan(refs), filter);
      const size_t want = std::min(capacity, expected.size());
      ASSERT_EQ(result.count, static_cast<int32_t>(want))
          << what << " grid " << l;
      ASSERT_EQ(result.truncated, expected.size() > capacity)
          << what << " grid " << l;
      for (size_t k = 0; k < want; ++k) {
        ASSERT_EQ(refs[k].shape_id, expected[k].shape_id)
            << what << " grid " << l;
        ASSERT_EQ(refs[k].user_data, expected[k].user_data)
            << what << " grid " << l;
      }
    }
  }
}

// Whether the ray from the next query's start would hit: peeks with a copy
// of the generator so the checked queries stay the same.
bool HasHit(const Level& level, QueryMaker make, int) {
  make.Filter({ShapeDesc{}});
  const Vec2 start = make.Start();
  const Vec2 translation = make.Translation();
  return CastRay({start, translation}, level).has_value();
}

void CheckScene(const Scene& scene, int queries) {
  const RandomLevel random = MakeRandomLevel(scene);
  const std::vector<Level> levels = BuildLevels(random, scene);
  ASSERT_EQ(levels.size(), 4u);
  QueryMaker make{SplitMix64(scene.seed ^ 0xC0FFEE), scene, {}};
  int casts = 0;
  int hits = 0;
  for (int q = 0; q < queries; ++q) {
    if (q % 6 < 4) {
      ++casts;
      if (HasHit(levels[0], make, q)) ++hits;
    }
    const std::string what = absl::StrCat("seed ", scene.seed, " query ", q);
    const QueryFilter filter = make.Filter(random.shapes);
    const Vec2 start = make.Start();
    const Vec2 translation = make.Translation();
    const CastOptions options = make.Options();
    switch (q % 6) {
      case 0:
        CheckCast(
            RayInput{start, translation}, levels, filter, options,
            [](auto&&... a) { return CastRayAll(a...); }, what + " ray");
        break;
      case 1:
        CheckCast(
            CircleCast{{start, make.Radius()}, translation}, levels, filter,
            options, [](auto&&... a) { return CastCircleAll(a...); },
            what + " circle");
        break;
      case 2: {
        const Capsule capsule{start,
                              start + RandomDirection(make.rng, make.Radius()),
                              make.Radius()};
        CheckCast(
            CapsuleCast{capsule, translation}, levels, filter, options,
            [](auto&&... a) { return CastCapsuleAll(a...); },
            what + " capsule");
        break;
      }
      case 3:
        CheckCast(
            PolygonCast{make.Polygon(start), translation}, levels, filter,
            options, [](auto&&... a) { return CastPolygonAll(a...); },
            what + " polygon");
        break;
      case 4: {
        const Circle circle{start, make.Radius()};
        CheckOverlap(
            circle, levels, filter,
            [](auto&&... a) { return OverlapCircle(a...); },
            what + " overlap circle");
        const Capsule capsule{start,
                              start + RandomDirection(make.rng, make.Radius()),
                              make.Radius()};
        CheckOverlap(
            capsule, levels, filter,
            [](auto&&... a) { return OverlapCapsule(a...); },
            what + " overlap capsule");
        CheckOverlap(
            make.Polygon(start), levels, filter,
            [](auto&&... a) { return OverlapPolygon(a...); },
            what + " overlap polygon");
        break;
      }
      case 5: {
        const double max_distance =
            make.rng.Chance(0.2) ? 1e300
                                 : scene.size * make.rng.Uniform(0.0, 5.0);
        const auto expected =
            BruteClosestPoint(start, levels[0], max_distance, filter);
        for (size_t l = 0; l < levels.size(); ++l) {
          const auto actual =
              ClosestPoint(start, levels[l], max_distance, filter);
          ASSERT_TRUE(Same(actual, expected))
              << what << " closest point grid " << l << " world "
              << (actual ? actual->shape_id : 0) << " @ "
              << (actual ? actual->distance : -1) << " brute "
              << (expected ? expected->shape_id : 0) << " @ "
              << (expected ? expected->distance : -1);
        }
        break;
      }
    }
  }
  // The scenes are meant to mix hits and misses.
  EXPECT_GT(hits, casts / 10) << "casts " << casts;
  EXPECT_LT(hits, casts - casts / 20) << "casts " << casts;
  std::printf("seed %llu: %d of %d rays hit\n",
              static_cast<unsigned long long>(scene.seed), hits, casts);
}

TEST(QueryPropertyTest, SparseLevelMatchesBruteForce) {
  CheckScene({.seed = 11, .shape_count = 150, .world = 200.0, .size = 3.0},
             600);
}

TEST(QueryPropertyTest, DenseLevelMatchesBruteForce) {
  CheckScene({.seed = 12, .shape_count = 600, .world = 40.0, .size = 3.0}, 600);
}

TEST(QueryPropertyTest, HugeShapesSpanningManyCellsMatchBruteForce) {
  CheckScene({.seed = 13,
              .shape_count = 200,
              .world = 100.0,
              .size = 2.0,
              .huge_share = 0.08},
             600);
}

TEST(QueryPropertyTest, LevelFarFromOriginMatchesBruteForce) {
  CheckScene({.seed = 14,
              .shape_count = 300,
              .world = 100.0,
              .offset = 1e6,
              .size = 3.0,
              .huge_share = 0.02},
             600);
}

TEST(QueryPropertyTest, FarOutliersInCoarserTiersMatchBruteForce) {
  const Scene scene{.seed = 17,
                    .shape_count = 400,
                    .world = 60.0,
                    .size = 2.0,
                    .huge_share = 0.03,
                    .outlier_share = 0.02};
  // The scene does use several tiers.
  absl::StatusOr<Level> level =
      Level::Create(testing::MakeRandomLevel(scene).shapes);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_GE(level->spatial_hash().tiers().size(), 2u);
  CheckScene(scene, 600);
}

TEST(QueryPropertyTest, CoordinatesBeyondTheFloatRangeMatchBruteForce) {
  // Cell entries keep boxes as floats rounded outwards; past +-3.4e38 (the
  // level spans -1e40 to 1e40 here) they become the largest float or an
  // infinity, and must still never drop a candidate.
  CheckScene({.seed = 16,
              .shape_count = 200,
              .world = 2e40,
              .offset = -1e40,
              .size = 4e38,
              .huge_share = 0.02},
             300);
}

TEST(QueryPropertyTest, ManyOverlappingStartsMatchBruteForce) {
  // Big shapes in a small world: most movers start inside or touching
  // something, which exercises initial overlaps and concave containment.
  CheckScene({.seed = 15,
              .shape_count = 120,
              .world = 30.0,
              .size = 8.0,
              .duplicate_share = 0.2},
             600);
}

// A half-unit lattice value in [lo, hi): shapes and movers on it touch
// exactly.
double Lattice(SplitMix64& rng, double lo, double hi) {
  return 0.5 * static_cast<double>(static_cast<int>(2.0 * rng.Uniform(lo, hi)));
}

// The same shapes on grids of the given cell sizes.
void LevelsWithCells(const std::vector<ShapeDesc>& shapes,
                     std::initializer_list<double> cells,
                     std::vector<Level>* levels) {
  for (const double cell : cells) {
    absl::StatusOr<Level> level = Level::Create(shapes, {.cell_size = cell});
    ASSERT_TRUE(level.ok()) << level.status();
    levels->push_back(*std::move(level));
  }
}

// Axis-aligned boxes (a city, a tile map) are read from their bounds
// (Level::Primitive::box_start): by skinless rays' and circles' closed
// forms, and rebuilt as polygons for every other cast. Boxes on a half-unit
// lattice, given as BoxDesc and as 4-corner polygons from every corner in both
// windings, many touching or duplicated, hit by rays and circles from lattice
// points, box corners and edges, along the axes, the diagonals and anywhere.
TEST(QueryPropertyTest, AxisAlignedBoxesMatchBruteForce) {
  SplitMix64 rng(0xB0C5);
  std::vector<ShapeDesc> shapes;
  std::vector<std::vector<Vec2>> corners;
  corners.reserve(200);
  for (int i = 0; i < 200; ++i) {
    ShapeDesc desc;
    desc.id = 5000 - 3 * static_cast<uint64_t>(i);
    desc.user_data = static_cast<uint64_t>(i);
    const Vec2 lower{Lattice(rng, 0.0, 40.0), Lattice(rng, 0.0, 40.0)};
    const Vec2 size{0.5 + Lattice(rng, 0.0, 4.0), 0.5 + Lattice(rng, 0.0, 4.0)};
    if (i > 0 && rng.Chance(0.1)) {
      desc.geometry = shapes[static_cast<size_t>(rng.Below(i))].geometry;
    } else if (rng.Chance(0.3)) {
      desc.geometry = BoxDesc{lower + 0.5 * size, 0.5 * size, 0.0};
    } else {
      std::vector<Vec2>& v = corners.emplace_back();
      v = {lower, lower + Vec2{size.x, 0.0}, lower + size,
           lower + Vec2{0.0, size.y}};
      std::rotate(v.begin(), v.begin() + rng.Below(4), v.end());
      if (rng.Chance(0.5)) std::reverse(v.begin(), v.end());
      desc.geometry = PolygonDesc{v};
    }
    shapes.push_back(desc);
  }
  std::vector<Level> levels;
  ASSERT_NO_FATAL_FAILURE(
      LevelsWithCells(shapes, {0.0, 1.0, 3.5, 100.0}, &levels));
  int boxes = 0;
  for (const Level::Primitive& p : levels[0].primitives()) {
    ASSERT_EQ(p.kind, Level::PrimitiveKind::kConvexPolygon);
    if (p.box_start >= 0) ++boxes;
  }
  EXPECT_EQ(boxes, 200) << "every box should take the bounds path";

  const Vec2 kDirections[] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                              {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  int hits = 0;
  int circle_hits = 0;
  for (int q = 0; q < 1500; ++q) {
    Vec2 start{Lattice(rng, -2.0, 46.0), Lattice(rng, -2.0, 46.0)};
    if (q % 3 == 1) start = start + Vec2{rng.Uniform(0.0, 0.5), 0.0};
    if (q % 3 == 2) start = {rng.Uniform(-2.0, 46.0), rng.Uniform(-2.0, 46.0)};
    const double length = rng.Uniform(0.5, 30.0);
    const Vec2 translation = q % 2 == 0 ? length * kDirections[rng.Below(8)]
                                        : testing::RandomDirection(rng, length);
    CastOptions options;
    if (rng.Chance(0.3)) options.max_fraction = rng.Uniform(0.0, 1.0);
    if (rng.Chance(0.1)) options.target_distance = rng.Uniform(0.0, 0.3);
    const RayInput ray{start, translation};
    if (CastRay(ray, levels[0], {}, options)) ++hits;
    CheckCast(
        ray, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastRayAll(a...); },
        absl::StrCat("axis box query ", q));
    // Radius 0 to 1 in half-unit steps too: circles that fit the gaps
    // exactly, or touch the boxes from lattice points.
    const double radius =
        q % 2 == 0 ? 0.5 * rng.Below(3) : rng.Uniform(0.0, 1.0);
    const CircleCast circle{{start, radius}, translation};
    if (CastCircle(circle, levels[0], {}, options)) ++circle_hits;
    CheckCast(
        circle, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastCircleAll(a...); },
        absl::StrCat("axis box circle query ", q));
  }
  EXPECT_GT(hits, 300);
  EXPECT_GT(circle_hits, 300);
}

// The swept box test (SweptSlab) on axes whose translation component is
// zero (an infinite reciprocal: NaN products for sides exactly at the
// mover's), subnormal or tiny: movers on a lattice, touching boxes and
// segments exactly on that axis, moving along the other axis with such a
// component across it, down to subnormals of a few bits (5e-324, 2e-323),
// where the brute force's per-shape casts need expansion products below
// double's range.
TEST(QueryPropertyTest, NearlyStillAxesMatchBruteForce) {
  SplitMix64 rng(0x571L);
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 120; ++i) {
    ShapeDesc desc;
    desc.id = 300 + static_cast<uint64_t>(i);
    const Vec2 lower{Lattice(rng, 0.0, 20.0), Lattice(rng, 0.0, 20.0)};
    const Vec2 size{0.5 + Lattice(rng, 0.0, 3.0), 0.5 + Lattice(rng, 0.0, 3.0)};
    if (rng.Chance(0.5)) {
      desc.geometry = BoxDesc{lower + 0.5 * size, 0.5 * size, 0.0};
    } else {
      desc.geometry = Segment{lower, lower + Vec2{size.x, 0.0}};
    }
    shapes.push_back(desc);
  }
  std::vector<Level> levels;
  ASSERT_NO_FATAL_FAILURE(LevelsWithCells(shapes, {0.0, 1.0, 3.5}, &levels));
  const double kAcross[] = {0.0,    -0.0,   5e-324,  -2e-323, 1e-310,  -1e-310,
                            3e-308, 1e-305, -1e-301, 2e-300,  -1e-290, 1e-200};
  int hits = 0;
  for (int q = 0; q < 1200; ++q) {
    const Vec2 start{Lattice(rng, -2.0, 24.0), Lattice(rng, -2.0, 24.0)};
    const double along =
        (rng.Chance(0.5) ? 1.0 : -1.0) * Lattice(rng, 0.5, 20.0);
    const double across = kAcross[rng.Below(std::size(kAcross))];
    const Vec2 translation =
        rng.Chance(0.5) ? Vec2{along, across} : Vec2{across, along};
    CastOptions options;
    if (rng.Chance(0.3)) options.max_fraction = 0.25 * rng.Below(4);
    const std::string what = absl::StrCat("still-axis query ", q);
    const RayInput ray{start, translation};
    if (CastRay(ray, levels[0], {}, options)) ++hits;
    CheckCast(
        ray, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastRayAll(a...); }, what + " ray");
    CheckCast(
        CircleCast{{start, 0.5 * rng.Below(3)}, translation}, levels,
        QueryFilter{}, options, [](auto&&... a) { return CastCircleAll(a...); },
        what + " circle");
  }
  EXPECT_GT(hits, 200);
}

// Round movers' candidates pass a stadium test (sweep/out_of_reach.h) before
// their per-shape cast: it must keep every grazing contact. Segments, circles
// and capsules on a half-unit lattice, swept by circles, capsules and boxes
// from lattice points by lattice translations, so that many casts pass exactly
// tangent to a target or end exactly touching one.
TEST(QueryPropertyTest, RoundMoversGrazingTheirTargetsMatchBruteForce) {
  SplitMix64 rng(0x6A2E);
  const Vec2 kDirections[] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                              {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 150; ++i) {
    ShapeDesc desc;
    desc.id = 7000 + static_cast<uint64_t>(i);
    const Vec2 a{Lattice(rng, 0.0, 30.0), Lattice(rng, 0.0, 30.0)};
    const Vec2 b = a + Lattice(rng, 0.0, 4.0) * kDirections[rng.Below(8)];
    switch (rng.Below(3)) {
      case 0:
        desc.geometry = Segment{a, b};
        break;
      case 1:
        desc.geometry = Circle{a, Lattice(rng, 0.0, 2.0)};
        break;
      default:
        desc.geometry = Capsule{a, b, Lattice(rng, 0.0, 1.5)};
        break;
    }
    shapes.push_back(desc);
  }
  std::vector<Level> levels;
  ASSERT_NO_FATAL_FAILURE(LevelsWithCells(shapes, {0.0, 1.0, 2.5}, &levels));
  int hits = 0;
  for (int q = 0; q < 1500; ++q) {
    const Vec2 start{Lattice(rng, -2.0, 32.0), Lattice(rng, -2.0, 32.0)};
    const Vec2 translation =
        (0.5 + Lattice(rng, 0.0, 8.0)) * kDirections[rng.Below(8)];
    const double radius = 0.5 * static_cast<double>(1 + rng.Below(3));
    CastOptions options;
    if (rng.Chance(0.3)) options.max_fraction = 0.25 * rng.Below(4);
    if (rng.Chance(0.2)) options.target_distance = 0.5;
    const std::string what = absl::StrCat("grazing query ", q);
    const CircleCast circle{{start, radius}, translation};
    if (CastCircle(circle, levels[0], {}, options)) ++hits;
    CheckCast(
        circle, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastCircleAll(a...); }, what + " circle");
    const CapsuleCast capsule{
        {start, start + radius * kDirections[rng.Below(8)], radius},
        translation};
    CheckCast(
        capsule, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastCapsuleAll(a...); }, what + " capsule");
    absl::StatusOr<ConvexPolygon> box =
        MakeBox(start, {radius, 0.5 * radius}, 0.0);
    ASSERT_TRUE(box.ok());
    CheckCast(
        PolygonCast{*box, translation}, levels, QueryFilter{}, options,
        [](auto&&... a) { return CastPolygonAll(a...); }, what + " box");
  }
  EXPECT_GT(hits, 300);
}

// A round or polygon mover's candidates wait and are cast earliest box
// contact first, each primitive once (Caster::Sweep). Here a column holds
// far more candidates than wait at once (8) and than the casts remember as
// met (8), long segments are listed in many cells, and the walk meets them
// out of contact order: the answers must still be the brute-force ones.
TEST(QueryPropertyTest, RoundMoversThroughThicketsMatchBruteForce) {
  SplitMix64 rng(0x7C1C);
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 400; ++i) {
    ShapeDesc desc;
    // Distinct ids out of index order, so ties do not follow the walk.
    desc.id = 9000 + static_cast<uint64_t>(i) * 7919 % 100003;
    const Vec2 a{rng.Uniform(0.0, 20.0), rng.Uniform(0.0, 20.0)};
    const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
    const Vec2 b =
        a + rng.Uniform(0.5, 9.0) * Vec2{std::cos(angle), std::sin(angle)};
    if (rng.Chance(0.2)) {
      desc.geometry = Capsule{a, b, rng.Uniform(0.0, 0.3)};
    } else {
      desc.geometry = Segment{a, b};
    }
    shapes.push_back(desc);
  }
  std::vector<Level> levels;
  ASSERT_NO_FATAL_FAILURE(
      LevelsWithCells(shapes, {0.0, 2.0, 12.0, 40.0}, &levels));
  for (int q = 0; q < 300; ++q) {
    const Vec2 start{rng.Uniform(-3.0, 23.0), rng.Uniform(-3.0, 23.0)};
    const double angle = rng.Uniform(0.0, 2.0 * std::numbers::pi);
    const Vec2 translation =
        rng.Uniform(1.0, 30.0) * Vec2{std::cos(angle), std::sin(angle)};
    const double radius = rng.Uniform(0.05, 0.6);
    CastOptions options;
    if (rng.Chance(0.2)) options.target_distance = 0.1;
    const std::string what = absl::StrCat("thicket query ", q);
    CheckCast(
        CircleCast{{start, radius}, translation}, levels, QueryFilter{},
        options, [](auto&&... a) { return CastCircleAll(a...); },
        what + " circle");
    CheckCast(
        CapsuleCast{{start, start + Vec2{radius, -radius}, radius},
                    translation},
        levels, QueryFilter{}, options,
        [](auto&&... a) { return CastCapsuleAll(a...); }, what + " capsule");
  }
}

// --- Unit tests of the contract on small hand-made levels.

Level MakeLevel(std::vector<ShapeDesc> shapes, LevelOptions options = {}) {
  absl::StatusOr<Level> level = Level::Create(shapes, options);
  EXPECT_TRUE(level.ok()) << level.status();
  return *std::move(level);
}

TEST(CastRayTest, HitsNearestWallAndReportsItsIdAndUserData) {
  const Level level = MakeLevel({
      {.id = 1, .user_data = 10, .geometry = Segment{{5, -1}, {5, 1}}},
      {.id = 2, .user_data = 20, .geometry = Segment{{3, -1}, {3, 1}}},
  });
  const std::optional<WorldHit> hit = CastRay({{0, 0}, {10, 0}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->shape_id, 2u);
  EXPECT_EQ(hit->user_data, 20u);
  EXPECT_NEAR(hit->hit.fraction, 0.3, testing::kTolerance);
  EXPECT_VEC2_NEAR(hit->hit.normal, Vec2(-1, 0), testing::kTolerance);
}

TEST(CastRayTest, MissReturnsNothing) {
  const Level level =
      MakeLevel({{.id = 1, .geometry = Segment{{5, 1}, {5, 2}}}});
  EXPECT_FALSE(CastRay({{0, 0}, {10, 0}}, level));
}

TEST(CastRayTest, EqualFractionsBreakTiesBySmallestId) {
  const Level level = MakeLevel({
      {.id = 9, .geometry = Segment{{5, -1}, {5, 1}}},
      {.id = 4, .geometry = Segment{{5, -1}, {5, 1}}},
      {.id = 7, .geometry = Segment{{5, -1}, {5, 1}}},
  });
  const std::optional<WorldHit> hit = CastRay({{0, 0}, {10, 0}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->shape_id, 4u);
}

TEST(CastRayTest, MaxFractionClipsTheCast) {
  const Level level =
      MakeLevel({{.id = 1, .geometry = Segment{{5, -1}, {5, 1}}}});
  EXPECT_FALSE(CastRay({{0, 0}, {10, 0}}, level, {}, {.max_fraction = 0.4}));
  EXPECT_TRUE(CastRay({{0, 0}, {10, 0}}, level, {}, {.max_fraction = 0.5}));
}

TEST(CastRayTest, FilterSkipsMaskedAndIgnoredShapes) {
  const Level level = MakeLevel({
      {.id = 1, .category_bits = 2, .geometry = Segment{{3, -1}, {3, 1}}},
      {.id = 2, .category_bits = 1, .geometry = Segment{{5, -1}, {5, 1}}},
      {.id = 3, .category_bits = 1, .geometry = Segment{{7, -1}, {7, 1}}},
  });
  const uint64_t ignored[] = {2};
  const std::optional<WorldHit> hit = CastRay(
      {{0, 0}, {10, 0}}, level, {.mask_bits = 1, .ignore_ids = ignored});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->shape_id, 3u);
}

TEST(CastRayTest, PolylineReportsItsOwnEdgeAndVertexNumbers) {
  const std::vector<Vec2> chain = {{0, 5}, {4, 5}, {8, 5}, {8, 0}};
  const Level level = MakeLevel({{.id = 1, .geometry = PolylineDesc{chain}}});
  std::optional<WorldHit> hit = CastRay({{6, 0}, {0, 10}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->hit.feature.type, FeatureType::kEdge);
  EXPECT_EQ(hit->hit.feature.index, 1);
  hit = CastRay({{4, 0}, {0, 10}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->hit.feature.type, FeatureType::kVertex);
  EXPECT_EQ(hit->hit.feature.index, 1);
  hit = CastRay({{10, 2}, {-10, 0}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->hit.feature.index, 2);
}

TEST(CastCircleTest, StartInsideConcavePolygonIsInitialOverlap) {
  // A U shape; the circle starts deep inside its left arm, far from edges
  // relative to the cell size.
  const std::vector<Vec2> u = {{0, 0},   {30, 0},  {30, 30}, {20, 30},
                               {20, 10}, {10, 10}, {10, 30}, {0, 30}};
  const Level level =
      MakeLevel({{.id = 5, .geometry = PolygonDesc{u}}}, {.cell_size = 1.0});
  ASSERT_EQ(level.kind(0), ShapeKind::kConcavePolygon);
  const std::optional<WorldHit> hit =
      CastCircle({{{5, 20}, 0.5}, {0.1, 0}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
  EXPECT_EQ(hit->hit.fraction, 0.0);
  // In the notch the circle is outside and hits the arm's inner wall.
  const std::optional<WorldHit> notch =
      CastCircle({{{15, 20}, 0.5}, {10, 0}}, level);
  ASSERT_TRUE(notch);
  EXPECT_EQ(notch->hit.status, HitStatus::kHit);
  EXPECT_NEAR(notch->hit.fraction, 0.45, testing::kTolerance);
}

TEST(CastCircleTest, SlidingAlongAWallIsNotAHit) {
  const Level level =
      MakeLevel({{.id = 1, .geometry = Segment{{0, 0}, {10, 0}}}});
  EXPECT_FALSE(CastCircle({{{2, 1}, 1.0}, {5, 0}}, level));
  EXPECT_FALSE(CastCircle({{{2, 1}, 1.0}, {0, 3}}, level));
}

TEST(CastCircleTest, ZeroTranslationReportsOnlyOverlap) {
  const Level level = MakeLevel({{.id = 1, .geometry = Circle{{0, 0}, 1.0}}});
  EXPECT_FALSE(CastCircle({{{3, 0}, 1.0}, {0, 0}}, level));
  const std::optional<WorldHit> hit =
      CastCircle({{{1.5, 0}, 1.0}, {0, 0}}, level);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->hit.status, HitStatus::kInitialOverlap);
}

TEST(CastAllTest, ListsEveryShapeOnceSortedAndTruncates) {
  const std::vector<Vec2> zigzag = {{2, -1}, {2, 1}, {4, -1}, {4, 1}};
  const Level level = MakeLevel({
      {.id = 3, .geometry = Segment{{6, -1}, {6, 1}}},
      {.id = 1, .geometry = PolylineDesc{zigzag}},  // crossed three times
      {.id = 2, .geometry = Circle{{9, 0}, 0.5}},
  });
  WorldHit hits[4];
  ListResult result = CastRayAll({{0, 0}, {10, 0}}, level, hits);
  ASSERT_EQ(result.count, 3);
  EXPECT_FALSE(result.truncated);
  EXPECT_EQ(hits[0].shape_id, 1u);
  EXPECT_NEAR(hits[0].hit.fraction, 0.2, testing::kTolerance);
  EXPECT_EQ(hits[1].shape_id, 3u);
  EXPECT_EQ(hits[2].shape_id, 2u);
  result = CastRayAll({{0, 0}, {10, 0}}, level, absl::MakeSpan(hits, 2));
  EXPECT_EQ(result.count, 2);
  EXPECT_TRUE(result.truncated);
  EXPECT_EQ(hits[1].shape_id, 3u);
  result = CastRayAll({{0, 0}, {10, 0}}, level, absl::Span<WorldHit>());
  EXPECT_EQ(result.count, 0);
  EXPECT_TRUE(result.truncated);
}

TEST(OverlapTest, FindsShapesTouchingASpawnCircleSortedById) {
  const Level level = MakeLevel({
      {.id = 8, .geometry = Segment{{-5, 1}, {5, 1}}},  // touching
      {.id = 2, .geometry = BoxDesc{{0, -3}, {1, 1}}},
      {.id = 5, .geometry = Circle{{10, 10}, 1}},
  });
  ShapeRef refs[4];
  const ListResult result = OverlapCircle({{0, 0}, 1.0}, level, refs);
  ASSERT_EQ(result.count, 1);
  EXPECT_EQ(refs[0].shape_id, 8u);
  const ListResult bigger = OverlapCircle({{0, 0}, 2.0}, level, refs);
  ASSERT_EQ(bigger.count, 2);
  EXPECT_EQ(refs[0].shape_id, 2u);
  EXPECT_EQ(refs[1].shape_id, 8u);
}

// Inside or outside, and the distance, decided exactly from the
// differences of the coordinates (cases from the degenerate report's
// closest-point families, each one a rounded decision gets wrong).
TEST(ClosestPointTest, OnTheSurfaceIsDistanceZeroAndOffItIsNot) {
  // On the segment, at a point its projection rounds away from.
  const Level floor =
      MakeLevel({{.id = 1, .geometry = Segment{{-6, 0}, {6, 0}}}});
  const Vec2 on{-2.0000000000000004, 0};
  const std::optional<WorldClosestPoint> p = ClosestPoint(on, floor, 0.0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->distance, 0.0);
  EXPECT_EQ(p->point, on);
  // 4.4e-16 above a diamond's left vertex (-1, 0) is outside it, 7.3e-17
  // from its upper-left edge.
  const Vec2 diamond[] = {{0, 6}, {-1, 0}, {0, -6}, {1, 0}};
  const Level solid = MakeLevel({{.id = 2, .geometry = PolygonDesc{diamond}}});
  const std::optional<WorldClosestPoint> q =
      ClosestPoint({-1, 4.4408920985006262e-16}, solid, 3.0);
  ASSERT_TRUE(q);
  EXPECT_GT(q->distance, 7.30e-17);
  EXPECT_LT(q->distance, 7.31e-17);
  EXPECT_FALSE(ClosestPoint({-1, 4.4408920985006262e-16}, solid, 7e-17));
}

TEST(ClosestPointTest, ASegmentOfSubnormalLengthHasAFiniteNearestPoint) {
  // Found by the geometry fuzzer: (1, 2) to (3, -3) in units of 2^-1074,
  // whose squared length underflows to 0 in double, closest to the origin
  // on its edge (projection 8/29 along it) at distance 9 / sqrt(29) units
  // (1.67, rounding to 2 units): the point and distance were 0/0 and x/0.
  const Vec2 tiny[] = {{0x1p-1074, 0x2p-1074}, {0x3p-1074, -0x3p-1074}};
  const Level level = MakeLevel({{.id = 1, .geometry = PolylineDesc{tiny}}});
  const std::optional<WorldClosestPoint> p =
      ClosestPoint({0, 0}, level, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->distance, 0x2p-1074);
  EXPECT_EQ(p->point, (Vec2{0x2p-1074, 0x1p-1074}));
  EXPECT_EQ(p->feature.type, FeatureType::kEdge);
  EXPECT_TRUE(std::isfinite(p->normal.x) && std::isfinite(p->normal.y));
}

TEST(ClosestPointTest, AZeroRadiusCapsuleWhoseDistanceUnderflowsHasItsPoint) {
  // Found by the geometry fuzzer (CI-like run, seed 5): the origin lies
  // about 4e-340 off this tiny capsule's line, a distance that rounds to 0,
  // and the radius-0 capsule's point came out (0 / 0) times an offset.
  const Level level = MakeLevel(
      {{.id = 1,
        .geometry = Capsule{{-9.9261575707946013e-234, 9.5326687136254925e-304},
                            {4.030699506024313e-270, 0},
                            0.0}}});
  const std::optional<WorldClosestPoint> p = ClosestPoint({0, 0}, level, 7.0);
  ASSERT_TRUE(p);
  EXPECT_TRUE(std::isfinite(p->point.x) && std::isfinite(p->point.y));
  EXPECT_LE(std::abs(p->point.x), 1e-233);
  EXPECT_LE(std::abs(p->point.y), 1e-303);
  // Outside the capsule, however close: never 0.
  EXPECT_GT(p->distance, 0.0);
  EXPECT_LT(p->distance, 1e-300);
}

TEST(ClosestPointTest, DistanceKeepsItsDigitsFarFromTheOrigin) {
  // A thin capsule 1e9 from the origin; exact distance 0.0023012004997913...
  const Level level =
      MakeLevel({{.id = 1,
                  .geometry = Capsule{{-999999999.99365234, 999999999.9921875},
                                      {-1000000000.0061035, 999999999.99389648},
                                      0.00244140625}}});
  const std::optional<WorldClosestPoint> p =
      ClosestPoint({-1000000000.0014648, 999999999.99804688}, level, 1.0);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->distance, 0.0023012004997913288, 1e-15);
}

TEST(ClosestPointTest, FindsNearestSurfaceWithinRadius) {
  const Level level = MakeLevel({
      {.id = 1, .geometry = Segment{{-5, 3}, {5, 3}}},
      {.id = 2, .user_data = 7, .geometry = Circle{{0, -2}, 1.0}},
  });
  const std::optional<WorldClosestPoint> p = ClosestPoint({0, 0}, level, 10.0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->shape_id, 2u);
  EXPECT_EQ(p->user_data, 7u);
  EXPECT_NEAR(p->distance, 1.0, testing::kTolerance);
  EXPECT_VEC2_NEAR(p->point, Vec2(0, -1), testing::kTolerance);
  EXPECT_VEC2_NEAR(p->normal, Vec2(0, 1), testing::kTolerance);
  EXPECT_FALSE(ClosestPoint({0, 0}, level, 0.5));
  const std::optional<WorldClosestPoint> inside =
      ClosestPoint({0, -2}, level, 0.0);
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->distance, 0.0);
}

TEST(QueryThreadTest, ConcurrentQueriesGiveTheSameAnswers) {
  const Scene scene{.seed = 21, .shape_count = 400, .world = 60.0, .size = 3.0};
  const RandomLevel random = MakeRandomLevel(scene);
  const Level level = *Level::Create(random.shapes);
  std::vector<std::optional<WorldHit>> expected(200);
  SplitMix64 rng(99);
  std::vector<CircleCast> casts;
  for (int i = 0; i < 200; ++i) {
    casts.push_back(
        {{RandomPoint(rng, {0, 0}, {60, 60}), 0.5}, RandomDirection(rng, 30)});
    expected[static_cast<size_t>(i)] = CastCircle(casts.back(), level);
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        for (size_t i = 0; i < casts.size(); ++i) {
          if (!Same(CastCircle(casts[i], level), expected[i]))
            ++mismatches[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace collide
