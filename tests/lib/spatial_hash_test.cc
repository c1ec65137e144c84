#include "collide/spatial_hash.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "collide/vec2.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "random_level.h"

namespace collide {
namespace {

using testing::SplitMix64;

Aabb Box(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y1}};
}

bool BoxesOverlap(Aabb a, Aabb b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x &&
         a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}

double Distance(Vec2 p, Aabb b) {
  const double dx = std::max({b.lower.x - p.x, 0.0, p.x - b.upper.x});
  const double dy = std::max({b.lower.y - p.y, 0.0, p.y - b.upper.y});
  return std::hypot(dx, dy);
}

// The box swept over [0, t]: exact for boxes, so a conservative walk must
// report every item whose box meets the swept one... and whose box meets the
// moving box at some time, which the separating-axis test below checks.
bool SweptBoxHits(Aabb box, Vec2 d, Aabb item) {
  double t0 = 0.0, t1 = 1.0;
  const auto axis = [&](double lo, double hi, double v, double ilo,
                        double ihi) {
    // lo + t v <= ihi and hi + t v >= ilo.
    if (v == 0.0) return lo <= ihi && hi >= ilo;
    double a = (ilo - hi) / v, b = (ihi - lo) / v;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    return t0 <= t1;
  };
  return axis(box.lower.x, box.upper.x, d.x, item.lower.x, item.upper.x) &&
         axis(box.lower.y, box.upper.y, d.y, item.lower.y, item.upper.y) &&
         t0 <= t1;
}

struct RandomItems {
  Aabb bounds;
  std::vector<Aabb> items;
};

// `count` items in a world of side `world` at `offset`: most up to `size`
// across, 5% up to the world's size; then `outliers` small items about
// 1000 worlds away (on a diagonal, so every axis is stretched).
RandomItems MakeItems(uint64_t seed, int count, double world, double size,
                      double offset, int outliers = 0) {
  SplitMix64 rng(seed);
  RandomItems r;
  for (int i = 0; i < count; ++i) {
    const double s =
        rng.Chance(0.05) ? world * rng.Uniform(0.2, 1.0) : size * rng.Uniform();
    const Vec2 c =
        RandomPoint(rng, {offset, offset}, {offset + world, offset + world});
    const Vec2 h{s * rng.Uniform(), s * rng.Uniform()};
    r.items.push_back({c - h, c + h});
  }
  for (int i = 0; i < outliers; ++i) {
    const double far = offset + 1000.0 * world * (1 + i);
    r.items.push_back(Box(far, far, far + size, far + size));
  }
  r.bounds = r.items[0];
  for (const Aabb& b : r.items) {
    r.bounds.lower = {std::min(r.bounds.lower.x, b.lower.x),
                      std::min(r.bounds.lower.y, b.lower.y)};
    r.bounds.upper = {std::max(r.bounds.upper.x, b.upper.x),
                      std::max(r.bounds.upper.y, b.upper.y)};
  }
  return r;
}

SpatialHash MakeHash(const RandomItems& r, double cell_size) {
  absl::StatusOr<SpatialHash> hash =
      SpatialHash::Build(r.items, {.cell_size = cell_size});
  EXPECT_TRUE(hash.ok()) << hash.status();
  return hash.ok() ? *std::move(hash) : SpatialHash();
}

int64_t TotalCells(const SpatialHash& hash) {
  int64_t cells = 0;
  for (const SpatialHash::Tier& tier : hash.tiers()) {
    cells += int64_t{tier.grid.columns} * tier.grid.rows;
  }
  return cells;
}

// The memory bounds SpatialHash promises for n items.
void ExpectWithinBounds(const SpatialHash& hash, int64_t n) {
  const int64_t tiers = static_cast<int64_t>(hash.tiers().size());
  EXPECT_LE(tiers, SpatialHash::kMaxTiers);
  EXPECT_LE(TotalCells(hash), SpatialHash::kCellsPerItem * n +
                                  SpatialHash::kCellsBase * tiers +
                                  SpatialHash::kGivenCellsBase);
  EXPECT_LE(hash.entry_count(),
            SpatialHash::kEntriesPerItem * n + SpatialHash::kCellsBase * tiers);
}

TEST(BuildTest, AutomaticCellIsTwiceTheMedianItemSize) {
  std::vector<Aabb> items;
  for (int i = 0; i < 100; ++i) {
    const double x = (i % 10) * 10.0, y = (i / 10) * 10.0;
    items.push_back(Box(x, y, x + (i == 0 ? 50.0 : 2.0), y + 1.0));
  }
  items.push_back(Box(0, 0, 100, 100));  // the bounds
  absl::StatusOr<SpatialHash> hash = SpatialHash::Build(items);
  ASSERT_TRUE(hash.ok());
  // sqrt(100 * 100 / 101) = 9.95 > 2 * 2.
  EXPECT_NEAR(hash->grid().cell_size, 100 / std::sqrt(101.0), 1e-12);
  for (Aabb& item : items) item.upper.x += 7.0;  // median side 9
  hash = SpatialHash::Build(items);
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(hash->grid().cell_size, 18.0);
  EXPECT_EQ(hash->grid().origin.x, 0.0);
}

TEST(BuildTest, ItemsCoveringManyCellsGoToACoarserTier) {
  // Boxes of half extents (1.1, 1) and one of (1.1, 2^48): in one grid
  // without tiers, the tall box alone fills 133 MB of cells, and a
  // closest-point query walks them for hours.
  const double tall = std::ldexp(1.0, 48);
  const std::vector<Aabb> items = {Box(1.4, 1.5, 3.6, 3.5),
                                   Box(96.4, 6.5, 98.6, 8.5),
                                   Box(61.4, 2.5 - tall, 63.6, 2.5 + tall)};
  absl::StatusOr<SpatialHash> hash = SpatialHash::Build(items);
  ASSERT_TRUE(hash.ok()) << hash.status();
  ExpectWithinBounds(*hash, 3);
  EXPECT_EQ(hash->ItemTier(0), hash->ItemTier(1));
  EXPECT_GT(hash->ItemTier(2), hash->ItemTier(0));
  EXPECT_LT(hash->memory_bytes(), 64u << 10);
  int reported = 0;
  hash->VisitNear({7, 7}, std::numeric_limits<double>::infinity(),
                  [&](int32_t) {
                    ++reported;
                    return std::numeric_limits<double>::infinity();
                  });
  EXPECT_EQ(reported, 3);
}

TEST(BuildTest, FarAwayItemsDoNotStretchTheFinestGrid) {
  const RandomItems r = MakeItems(11, 2000, 100, 2, 0, /*outliers=*/3);
  absl::StatusOr<SpatialHash> hash = SpatialHash::Build(r.items);
  ASSERT_TRUE(hash.ok()) << hash.status();
  ExpectWithinBounds(*hash, static_cast<int64_t>(r.items.size()));
  // The 2000 near the origin share a grid of cells a few units wide.
  EXPECT_LT(hash->grid().cell_size, 10.0);
  for (int32_t i = 2000; i < 2003; ++i) EXPECT_GT(hash->ItemTier(i), 0);
}

TEST(BuildTest, HostileItemSetsStayWithinTheMemoryBounds) {
  const double huge = 1e9;
  std::vector<std::vector<Aabb>> cases;
  cases.emplace_back(50, Box(0, 0, 1000, 1000));  // all in one place
  std::vector<Aabb> mixed;
  for (int i = 0; i < 500; ++i) {
    mixed.push_back(Box(i, 0, i + 1e-9, 1e-9));   // tiny
    mixed.push_back(Box(-huge, i, huge, i + 1));  // long
    mixed.push_back(Box(huge * (i % 7), huge, huge * (i % 7) + 1, huge + 1));
  }
  cases.push_back(mixed);
  std::vector<Aabb> collinear;
  for (int i = 0; i < 20000; ++i) collinear.push_back(Box(i, 0, i + 1.5, 0));
  cases.push_back(collinear);
  for (const std::vector<Aabb>& items : cases) {
    absl::StatusOr<SpatialHash> hash = SpatialHash::Build(items);
    ASSERT_TRUE(hash.ok()) << hash.status();
    ExpectWithinBounds(*hash, static_cast<int64_t>(items.size()));
  }
}

TEST(BuildTest, GivenCellSizeIsUsedOrRefusedByTheCellLimit) {
  const std::vector<Aabb> items = {Box(0, 0, 1000, 1000), Box(1, 1, 2, 2)};
  absl::StatusOr<SpatialHash> hash =
      SpatialHash::Build(items, {.cell_size = 100});
  ASSERT_TRUE(hash.ok()) << hash.status();
  EXPECT_EQ(hash->grid().cell_size, 100.0);
  hash = SpatialHash::Build(items, {.cell_size = 0.001});
  EXPECT_EQ(hash.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(hash.status().message()),
              ::testing::HasSubstr("options.cell_size 0.001"));
  EXPECT_EQ(SpatialHash::Build(items, {.cell_size = -1}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BuildTest, NoItemsGiveOneEmptyCell) {
  absl::StatusOr<SpatialHash> hash = SpatialHash::Build({});
  ASSERT_TRUE(hash.ok());
  ASSERT_EQ(hash->tiers().size(), 1u);
  EXPECT_EQ(hash->grid().columns, 1);
  EXPECT_EQ(hash->grid().rows, 1);
  EXPECT_GT(hash->grid().cell_size, 0.0);
  EXPECT_EQ(hash->entry_count(), 0);
}

TEST(SpatialHashTest, ListsEachItemInEveryCellOfItsRectangleAscending) {
  for (const double cell_size : {3.0, 0.0}) {
    const RandomItems r = MakeItems(1, 300, 100, 5, 0, /*outliers=*/2);
    const SpatialHash hash = MakeHash(r, cell_size);
    std::vector<int> seen(r.items.size(), 0);
    int64_t entries = 0;
    for (int t = 0; t < static_cast<int>(hash.tiers().size()); ++t) {
      const GridSpec& grid = hash.tiers()[t].grid;
      for (int32_t y = 0; y < grid.rows; ++y) {
        for (int32_t x = 0; x < grid.columns; ++x) {
          const absl::Span<const int32_t> cell = hash.Cell(t, x, y);
          ASSERT_TRUE(std::is_sorted(cell.begin(), cell.end()));
          for (const int32_t item : cell) {
            ASSERT_EQ(hash.ItemTier(item), t);
            const CellRect rect = hash.ItemCells(item);
            ASSERT_TRUE(rect.x0 <= x && x <= rect.x1 && rect.y0 <= y &&
                        y <= rect.y1);
            ++seen[static_cast<size_t>(item)];
            ++entries;
          }
        }
      }
    }
    EXPECT_EQ(entries, hash.entry_count());
    for (size_t i = 0; i < r.items.size(); ++i) {
      const CellRect rect = hash.ItemCells(static_cast<int32_t>(i));
      EXPECT_EQ(seen[i], (rect.x1 - rect.x0 + 1) * (rect.y1 - rect.y0 + 1));
    }
    EXPECT_GT(hash.memory_bytes(), 0u);
    ExpectWithinBounds(hash, static_cast<int64_t>(r.items.size()));
  }
}

// Each walk reports an item at most once and never misses one it must see.
class SpatialHashWalkTest : public ::testing::TestWithParam<double> {};

TEST_P(SpatialHashWalkTest, VisitBoxReportsEachOverlappingItemOnce) {
  for (const double offset : {0.0, 1e6}) {
    const RandomItems r = MakeItems(2, 400, 100, 4, offset, 3);
    const SpatialHash hash = MakeHash(r, GetParam());
    SplitMix64 rng(7);
    for (int q = 0; q < 300; ++q) {
      const Vec2 c = RandomPoint(rng, {offset - 10, offset - 10},
                                 {offset + 110, offset + 110});
      const Vec2 h{rng.Uniform(0, 15), rng.Uniform(0, 15)};
      const Aabb box{c - h, c + h};
      std::vector<int> count(r.items.size(), 0);
      hash.VisitBox(box, [&](int32_t item) {
        ++count[static_cast<size_t>(item)];
        return true;
      });
      for (size_t i = 0; i < r.items.size(); ++i) {
        ASSERT_LE(count[i], 1) << "query " << q << " item " << i;
        if (BoxesOverlap(box, r.items[i])) {
          ASSERT_EQ(count[i], 1) << "query " << q;
        }
      }
    }
  }
}

TEST_P(SpatialHashWalkTest, VisitSweepReportsEachSweptItemOnce) {
  for (const double offset : {0.0, 1e6}) {
    const RandomItems r = MakeItems(3, 400, 100, 4, offset, 3);
    const SpatialHash hash = MakeHash(r, GetParam());
    SplitMix64 rng(8);
    for (int q = 0; q < 300; ++q) {
      const Vec2 c = RandomPoint(rng, {offset - 10, offset - 10},
                                 {offset + 110, offset + 110});
      const double half = rng.Chance(0.3) ? 0.0 : rng.Uniform(0, 3);
      const Aabb box{c - Vec2{half, half}, c + Vec2{half, half}};
      Vec2 d = RandomDirection(rng, rng.Uniform(0, 120));
      if (q % 7 == 0) d = {d.x, 0.0};
      if (q % 7 == 1) d = {0.0, d.y};
      if (q % 7 == 2) d = {};
      std::vector<int> count(r.items.size(), 0);
      hash.VisitSweep(box, d, 1.0, [&](int32_t item) {
        ++count[static_cast<size_t>(item)];
        return 1.0;
      });
      for (size_t i = 0; i < r.items.size(); ++i) {
        ASSERT_LE(count[i], 1) << "query " << q << " item " << i;
        if (SweptBoxHits(box, d, r.items[i])) {
          ASSERT_EQ(count[i], 1) << "query " << q;
        }
      }
    }
  }
}

// Sweeps that run exactly along cell boundaries and through cell corners,
// where the walk's rounding matters most: items and points on an integer
// lattice (some items flat, lying on a grid line), cells of 1 and 2 from
// the origin, motions along the axes, the diagonals and between lattice
// points.
TEST(SpatialHashGridLineTest, VisitSweepAlongCellBoundariesMissesNothing) {
  SplitMix64 rng(10);
  RandomItems r;
  r.bounds = Box(0, 0, 40, 40);
  for (int i = 0; i < 300; ++i) {
    const double x = rng.Below(38), y = rng.Below(38);
    const double w = rng.Below(3), h = rng.Below(3);  // 0: flat on a line
    r.items.push_back(Box(x, y, x + w, y + h));
  }
  for (const double cell : {1.0, 2.0}) {
    const SpatialHash hash = MakeHash(r, cell);
    for (int q = 0; q < 2000; ++q) {
      const Vec2 c{static_cast<double>(rng.Below(41)),
                   static_cast<double>(rng.Below(41))};
      const double half = q % 3 == 0 ? 1.0 : 0.0;
      const Aabb box{c - Vec2{half, half}, c + Vec2{half, half}};
      const double dx = rng.Below(31) - 15.0, dy = rng.Below(31) - 15.0;
      Vec2 d{dx, dy};
      if (q % 4 == 1) d = {dx, 0.0};
      if (q % 4 == 2) d = {dx, dx};
      if (q % 4 == 3) d = {dx, -dx};
      std::vector<int> count(r.items.size(), 0);
      hash.VisitSweep(box, d, 1.0, [&](int32_t item) {
        ++count[static_cast<size_t>(item)];
        return 1.0;
      });
      for (size_t i = 0; i < r.items.size(); ++i) {
        ASSERT_LE(count[i], 1) << "cell " << cell << " query " << q;
        if (SweptBoxHits(box, d, r.items[i])) {
          ASSERT_EQ(count[i], 1)
              << "cell " << cell << " query " << q << " item " << i;
        }
      }
    }
  }
}

TEST_P(SpatialHashWalkTest, VisitSweepStopsAfterTheReturnedFraction) {
  const RandomItems r = MakeItems(4, 400, 100, 4, 0);
  const SpatialHash hash = MakeHash(r, GetParam());
  const Aabb box{{1, 50}, {1, 50}};
  int calls = 0;
  hash.VisitSweep(box, {98, 0}, 1.0, [&](int32_t) {
    ++calls;
    return -1.0;
  });
  EXPECT_LE(calls, 1);
  // Once the limit is 0.1, nothing whose box the sweep reaches after 0.1
  // (plus one cell of its tier) is reported.
  bool limited = false;
  hash.VisitSweep(box, {98, 0}, 1.0, [&](int32_t item) {
    const GridSpec& grid = hash.tiers()[hash.ItemTier(item)].grid;
    if (limited) {
      EXPECT_LE(r.items[static_cast<size_t>(item)].lower.x,
                1 + 0.1 * 98 + 2 * grid.cell_size);
    }
    limited = true;
    return 0.1;
  });
}

TEST_P(SpatialHashWalkTest, VisitNearReportsEachItemWithinReachOnce) {
  for (const double offset : {0.0, 1e6}) {
    const RandomItems r = MakeItems(5, 400, 100, 4, offset, 3);
    const SpatialHash hash = MakeHash(r, GetParam());
    SplitMix64 rng(9);
    for (int q = 0; q < 200; ++q) {
      const Vec2 p = RandomPoint(rng, {offset - 30, offset - 30},
                                 {offset + 130, offset + 130});
      const double reach = rng.Uniform(0, 40);
      std::vector<int> count(r.items.size(), 0);
      hash.VisitNear(p, reach, [&](int32_t item) {
        ++count[static_cast<size_t>(item)];
        return reach;
      });
      for (size_t i = 0; i < r.items.size(); ++i) {
        ASSERT_LE(count[i], 1) << "query " << q << " item " << i;
        if (Distance(p, r.items[i]) <= reach) {
          ASSERT_EQ(count[i], 1) << "query " << q;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CellSizes, SpatialHashWalkTest,
                         ::testing::Values(0.0, 0.3, 2.5, 17.0, 1000.0));

}  // namespace
}  // namespace collide
