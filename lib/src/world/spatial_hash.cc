#include "collide/spatial_hash.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/number_text.h"
#include "collide/vec2.h"
#include "world/swept_cells.h"

namespace collide {
namespace {

// Walks widen the query by this share of the coordinates' scale, so that a
// rounding difference between where an item's box was filed and where the
// walk computes a cell boundary can never drop an item (walks are
// conservative; the exact test is the caller's).
constexpr double kMarginShare = 1e-9;

double MaxAbs(Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); }

// Cell index of coordinate v along an axis starting at origin, clamped to
// [0, count - 1]. The clamp is done in double so huge offsets cannot
// overflow the integer conversion.
int32_t CellIndex(double v, double origin, double cell_size, int32_t count) {
  const double c = std::floor((v - origin) / cell_size);
  if (!(c > 0.0)) return 0;  // also catches NaN
  if (c >= static_cast<double>(count - 1)) return count - 1;
  return static_cast<int32_t>(c);
}

// Like CellIndex but clamped to [-1, count]: -1 and count mean "before" and
// "after" the grid, which the sweep needs to know.
int32_t CellIndexOrOutside(double v, double origin, double cell_size,
                           int32_t count) {
  const double c = std::floor((v - origin) / cell_size);
  if (!(c > -1.0)) return -1;
  if (c >= static_cast<double>(count)) return count;
  return static_cast<int32_t>(c);
}

// Grid dimension for an extent and cell size, as a double first so that
// absurd sizes are reported rather than overflowing.
double Dimension(double extent, double cell_size) {
  return std::floor(extent / cell_size) + 1.0;
}

double Cells(Aabb region, double cell_size) {
  return Dimension(region.upper.x - region.lower.x, cell_size) *
         Dimension(region.upper.y - region.lower.y, cell_size);
}

Aabb BoundsOf(absl::Span<const Aabb> items, absl::Span<const int32_t> which) {
  Aabb bounds = items[which[0]];
  for (const int32_t i : which) {
    bounds.lower = {std::min(bounds.lower.x, items[i].lower.x),
                    std::min(bounds.lower.y, items[i].lower.y)};
    bounds.upper = {std::max(bounds.upper.x, items[i].upper.x),
                    std::max(bounds.upper.y, items[i].upper.y)};
  }
  return bounds;
}

bool Contains(Aabb outer, Aabb inner) {
  return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y &&
         inner.upper.x <= outer.upper.x && inner.upper.y <= outer.upper.y;
}

double LargerSide(Aabb box) {
  return std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
}

// The k-th smallest of `values` (which it reorders).
double Select(std::vector<double>& values, size_t k) {
  const auto at = values.begin() + static_cast<ptrdiff_t>(k);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

double MedianSide(absl::Span<const Aabb> items,
                  absl::Span<const int32_t> which) {
  std::vector<double> sides(which.size());
  for (size_t k = 0; k < which.size(); ++k)
    sides[k] = LargerSide(items[which[k]]);
  return Select(sides, sides.size() / 2);
}

// Where most of `which` lie: the middle 15/16 of their centres on each
// axis, widened by a quarter of that extent and by twice the median item
// size on each side, within their bounds. Every item of a level of evenly
// spread items lies inside; a few far away do not.
Aabb CoreRegion(absl::Span<const Aabb> items, absl::Span<const int32_t> which,
                Aabb bounds) {
  const size_t n = which.size();
  if (n < 32) return bounds;
  const double margin = 2.0 * MedianSide(items, which);
  std::vector<double> centres(n);
  Aabb region;
  for (int axis = 0; axis < 2; ++axis) {
    for (size_t k = 0; k < n; ++k) {
      const Aabb& box = items[which[k]];
      centres[k] = axis == 0 ? 0.5 * (box.lower.x + box.upper.x)
                             : 0.5 * (box.lower.y + box.upper.y);
    }
    const double lo = Select(centres, n / 32);
    const double hi = Select(centres, n - 1 - n / 32);
    const double widen = 0.25 * (hi - lo) + margin;
    const double bound_lo = axis == 0 ? bounds.lower.x : bounds.lower.y;
    const double bound_hi = axis == 0 ? bounds.upper.x : bounds.upper.y;
    const double region_lo = std::max(bound_lo, lo - widen);
    const double region_hi = std::min(bound_hi, hi + widen);
    if (axis == 0) {
      region.lower.x = region_lo;
      region.upper.x = region_hi;
    } else {
      region.lower.y = region_lo;
      region.upper.y = region_hi;
    }
  }
  return region;
}

// The automatic cell size for `which` over `region` (see Build).
double AutomaticCellSize(absl::Span<const Aabb> items,
                         absl::Span<const int32_t> which, Aabb region) {
  const double width = region.upper.x - region.lower.x;
  const double height = region.upper.y - region.lower.y;
  const double area = std::max(width, 1e-300) * std::max(height, 1e-300);
  double size = std::max(2.0 * MedianSide(items, which),
                         std::sqrt(area / static_cast<double>(which.size())));
  size = std::max(size, 1e-9 * std::max(width, height));
  if (!(size > 0.0) || !std::isfinite(size)) size = 1.0;
  return size;
}

GridSpec GridOver(Aabb region, double cell_size) {
  return {region.lower, cell_size,
          static_cast<int32_t>(
              Dimension(region.upper.x - region.lower.x, cell_size)),
          static_cast<int32_t>(
              Dimension(region.upper.y - region.lower.y, cell_size))};
}

CellRect CellsOf(const GridSpec& grid, Aabb box) {
  return {CellIndex(box.lower.x, grid.origin.x, grid.cell_size, grid.columns),
          CellIndex(box.lower.y, grid.origin.y, grid.cell_size, grid.rows),
          CellIndex(box.upper.x, grid.origin.x, grid.cell_size, grid.columns),
          CellIndex(box.upper.y, grid.origin.y, grid.cell_size, grid.rows)};
}

int64_t CellCount(const CellRect& r) {
  return int64_t{r.x1 - r.x0 + 1} * (r.y1 - r.y0 + 1);
}

bool Intersects(const CellRect& a, const CellRect& b) {
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

// Whether cell (x, y) of ring k around (cx, cy) is the first cell of the
// ring, in the ring's row-major order, that lies in r. Rows cy - k and cy + k
// are full; rows between hold only the cells cx - k and cx + k. r lies in
// the grid, so cells the ring would have outside it never matter.
bool FirstInRing(const CellRect& r, int32_t x, int32_t y, int32_t cx,
                 int32_t cy, int32_t k) {
  if (k == 0) return true;
  const bool full_row = y == cy - k || y == cy + k;
  if (full_row) {
    if (x - 1 >= std::max(r.x0, cx - k)) return false;
  } else if (x == cx + k && r.x0 <= cx - k) {
    return false;
  }
  const int32_t first_row = std::max(r.y0, cy - k);
  if (first_row <= y - 1) {
    // r spans x, which lies in [cx - k, cx + k], so it meets the top row.
    if (first_row == cy - k) return false;
    const bool left = r.x0 <= cx - k && cx - k <= r.x1;
    const bool right = r.x0 <= cx + k && cx + k <= r.x1;
    if (left || right) return false;
  }
  return true;
}

}  // namespace

SpatialHash::SpatialHash() : rects_(), item_tiers_() {
  tiers_.push_back({GridSpec{}, 1.0, {0, 0}});
}

absl::StatusOr<SpatialHash> SpatialHash::Build(absl::Span<const Aabb> items,
                                               const GridOptions& options) {
  const double given = options.cell_size;
  if (given != 0.0 && !(std::isfinite(given) && given > 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "options.cell_size must be finite and > 0 (or 0 for automatic), got ",
        NumberText(given)));
  }
  SpatialHash hash;
  hash.rects_.resize(items.size());
  hash.item_tiers_.assign(items.size(), 0);
  if (items.empty()) {
    if (given > 0.0) hash.tiers_[0].grid.cell_size = given;
    hash.tiers_[0].inverse_cell_size = 1.0 / hash.tiers_[0].grid.cell_size;
    return hash;
  }
  hash.tiers_.clear();
  std::vector<int32_t> waiting(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    waiting[i] = static_cast<int32_t>(i);
  }
  std::vector<int32_t> filed, later;
  for (int t = 0; t < kMaxTiers && !waiting.empty(); ++t) {
    const bool last = t == kMaxTiers - 1;
    const Aabb bounds = BoundsOf(items, waiting);
    const Aabb region = last ? bounds : CoreRegion(items, waiting, bounds);
    filed.clear();
    later.clear();
    for (const int32_t i : waiting) {
      (Contains(region, items[i]) ? filed : later).push_back(i);
    }
    const auto n = static_cast<int64_t>(filed.size());
    const bool given_here = t == 0 && given > 0.0;
    const double max_cells = static_cast<double>(
        kCellsPerItem * n + (given_here ? kGivenCellsBase : kCellsBase));
    double cell_size =
        given_here ? given : AutomaticCellSize(items, filed, region);
    while (Cells(region, cell_size) > max_cells) {
      if (given_here) {
        return absl::ResourceExhaustedError(
            absl::StrCat("options.cell_size ", NumberText(given), " makes ",
                         NumberText(Cells(region, cell_size)),
                         " cells over the level's extent, more than the limit ",
                         kCellsPerItem, " per shape part + ", kGivenCellsBase,
                         " = ", NumberText(max_cells)));
      }
      cell_size *= 2.0;
    }
    GridSpec grid = GridOver(region, cell_size);
    if (last) {
      // Everything left is filed here, coarsening until the entries fit.
      const auto entries = [&] {
        int64_t total = 0;
        for (const int32_t i : filed) {
          total += CellCount(CellsOf(grid, items[i]));
        }
        return total;
      };
      while (entries() > kEntriesPerItem * n + kCellsBase) {
        grid = GridOver(region, grid.cell_size * 2.0);
      }
    } else {
      // Items over kMaxItemCells cells wait for a coarser tier, and so do
      // the largest others while the entries average more than
      // kEntriesPerItem per item kept.
      std::vector<std::pair<int64_t, int32_t>> by_cells;  // (-cells, item)
      by_cells.reserve(filed.size());
      int64_t total = 0;
      for (const int32_t i : filed) {
        const int64_t cells = CellCount(CellsOf(grid, items[i]));
        by_cells.push_back({-cells, i});
        total += cells;
      }
      std::sort(by_cells.begin(), by_cells.end());
      int64_t kept = n;
      size_t moved = 0;
      for (; moved < by_cells.size(); ++moved) {
        const int64_t cells = -by_cells[moved].first;
        const bool too_large = cells > kMaxItemCells;
        const bool over_budget = total > kEntriesPerItem * kept + kCellsBase &&
                                 cells > kEntriesPerItem;
        if (!too_large && !over_budget) break;
        later.push_back(by_cells[moved].second);
        total -= cells;
        --kept;
      }
      filed.clear();
      for (size_t k = moved; k < by_cells.size(); ++k) {
        filed.push_back(by_cells[k].second);
      }
      std::sort(filed.begin(), filed.end());
    }
    std::sort(later.begin(), later.end());
    waiting.swap(later);
    // An empty tier is skipped, unless it is the size the caller gave.
    if (filed.empty() && !given_here) continue;
    hash.AddTier(grid, items, filed);
  }
  hash.entries_.shrink_to_fit();  // grown tier by tier
  return hash;
}

void SpatialHash::AddTier(const GridSpec& grid, absl::Span<const Aabb> items,
                          absl::Span<const int32_t> filed) {
  const auto tier = static_cast<int8_t>(tiers_.size());
  Tier& out = tiers_.emplace_back();
  out.grid = grid;
  out.inverse_cell_size = 1.0 / grid.cell_size;
  const int64_t cells = int64_t{grid.columns} * grid.rows;
  const auto base = static_cast<int32_t>(entries_.size());
  int64_t total = 0;
  for (const int32_t i : filed) {
    rects_[i] = CellsOf(grid, items[i]);
    item_tiers_[i] = tier;
    total += CellCount(rects_[i]);
  }
  // Counting sort: sizes, prefix sums, then fill in item order (filed is
  // ascending) so each cell's list is ascending.
  out.offsets.assign(static_cast<size_t>(cells) + 1, 0);
  for (const int32_t i : filed) {
    const CellRect& r = rects_[i];
    for (int32_t y = r.y0; y <= r.y1; ++y) {
      for (int32_t x = r.x0; x <= r.x1; ++x) {
        ++out.offsets[static_cast<size_t>(y) * grid.columns + x + 1];
      }
    }
  }
  out.offsets[0] = base;
  for (size_t c = 0; c < static_cast<size_t>(cells); ++c) {
    out.offsets[c + 1] += out.offsets[c];
  }
  entries_.resize(entries_.size() + static_cast<size_t>(total));
  std::vector<int32_t> cursor(out.offsets.begin(), out.offsets.end() - 1);
  for (const int32_t i : filed) {
    const CellRect& r = rects_[i];
    for (int32_t y = r.y0; y <= r.y1; ++y) {
      for (int32_t x = r.x0; x <= r.x1; ++x) {
        entries_[cursor[static_cast<size_t>(y) * grid.columns + x]++] = i;
      }
    }
  }
}

absl::Span<const int32_t> SpatialHash::Cell(int tier, int32_t x,
                                            int32_t y) const {
  const Tier& t = tiers_[tier];
  const size_t c = static_cast<size_t>(y) * t.grid.columns + x;
  return absl::MakeConstSpan(
      entries_.data() + t.offsets[c],
      static_cast<size_t>(t.offsets[c + 1] - t.offsets[c]));
}

namespace {

// The cells of `grid` a box overlaps, clipped to the grid (possibly empty).
CellRect CellsOverlapping(const GridSpec& grid, Aabb box) {
  const double s = grid.cell_size;
  const Vec2 o = grid.origin;
  CellRect r;
  r.x0 = std::max(CellIndexOrOutside(box.lower.x, o.x, s, grid.columns), 0);
  r.x1 = std::min(CellIndexOrOutside(box.upper.x, o.x, s, grid.columns),
                  grid.columns - 1);
  r.y0 = std::max(CellIndexOrOutside(box.lower.y, o.y, s, grid.rows), 0);
  r.y1 = std::min(CellIndexOrOutside(box.upper.y, o.y, s, grid.rows),
                  grid.rows - 1);
  return r;
}

}  // namespace

size_t SpatialHash::memory_bytes() const {
  size_t bytes = tiers_.capacity() * sizeof(Tier) +
                 entries_.capacity() * sizeof(int32_t) +
                 rects_.capacity() * sizeof(CellRect) +
                 item_tiers_.capacity() * sizeof(int8_t);
  for (const Tier& tier : tiers_) {
    bytes += tier.offsets.capacity() * sizeof(int32_t);
  }
  return bytes;
}

void SpatialHash::VisitBox(Aabb box,
                           absl::FunctionRef<bool(int32_t item)> visit) const {
  for (int t = 0; t < static_cast<int>(tiers_.size()); ++t) {
    const GridSpec& grid = tiers_[t].grid;
    const double m = kMarginShare * (MaxAbs(box.lower) + MaxAbs(box.upper) +
                                     MaxAbs(grid.origin));
    const CellRect q = CellsOverlapping(
        grid, {box.lower - Vec2{m, m}, box.upper + Vec2{m, m}});
    for (int32_t y = q.y0; y <= q.y1; ++y) {
      for (int32_t x = q.x0; x <= q.x1; ++x) {
        for (const int32_t item : Cell(t, x, y)) {
          // Report an item only in the first cell (row-major) of q it
          // occupies.
          const CellRect& r = rects_[item];
          if (x != std::max(q.x0, r.x0) || y != std::max(q.y0, r.y0)) continue;
          if (!visit(item)) return;
        }
      }
    }
  }
}

void SpatialHash::VisitSweep(
    Aabb box, Vec2 translation, double max_fraction,
    absl::FunctionRef<double(int32_t item)> visit) const {
  double limit = max_fraction;
  for (const Tier& tier : tiers_) {
    internal::SweptColumns walk(
        tier.grid, tier.inverse_cell_size, box, translation,
        {1.0 / translation.x, 1.0 / translation.y}, max_fraction);
    internal::SweptColumn column, previous;
    bool have_previous = false;
    while (walk.Next(limit, column)) {
      for (int32_t v = column.v0; v <= column.v1; ++v) {
        const int64_t cell = column.Cell(v);
        for (int32_t k = tier.offsets[cell]; k < tier.offsets[cell + 1]; ++k) {
          const int32_t item = entries_[k];
          const CellRect& r = rects_[item];
          const int32_t ru0 = column.major_x ? r.x0 : r.y0;
          const int32_t ru1 = column.major_x ? r.x1 : r.y1;
          const int32_t rv0 = column.major_x ? r.y0 : r.x0;
          const int32_t rv1 = column.major_x ? r.y1 : r.x1;
          // Seen already in this column (the cell below is in the walk and
          // in r) or in the previous one (its rows meet r's). Row ranges are
          // monotone along the walk, so no earlier column can hold a cell of
          // r unless the previous one does.
          if (v > std::max(rv0, column.v0)) continue;
          if (have_previous && ru0 <= previous.u && previous.u <= ru1 &&
              rv0 <= previous.v1 && previous.v0 <= rv1) {
            continue;
          }
          limit = visit(item);
          if (limit < 0.0) return;
        }
      }
      have_previous = true;
      previous = column;
    }
  }
}

void SpatialHash::VisitNear(
    Vec2 point, double max_distance,
    absl::FunctionRef<double(int32_t item)> visit) const {
  double limit = max_distance;
  for (const Tier& tier : tiers_) {
    if (!VisitNearInTier(tier, point, limit, visit)) return;
  }
}

bool SpatialHash::VisitNearInTier(
    const Tier& tier, Vec2 point, double& limit,
    absl::FunctionRef<double(int32_t item)> visit) const {
  const double s = tier.grid.cell_size;
  const Vec2 o = tier.grid.origin;
  const int32_t nx = tier.grid.columns;
  const int32_t ny = tier.grid.rows;
  const int32_t cx = CellIndex(point.x, o.x, s, nx);
  const int32_t cy = CellIndex(point.y, o.y, s, ny);
  // The rounding of the ring bounds below is relative to the coordinates
  // and the grid's extent (never to the limit, which may be infinite).
  const double m = kMarginShare * (MaxAbs(point) + MaxAbs(o) +
                                   s * (static_cast<double>(nx) + ny));
  // Ring k around (cx, cy) has cells in the grid only while k <= the
  // largest distance to a grid edge, so at most that many rings are
  // visited, and each visits only its cells inside the grid: the work is
  // the tier's cells at most.
  const int32_t rings = std::max({cx, nx - 1 - cx, cy, ny - 1 - cy});
  const auto offer = [&](int32_t x, int32_t y, int32_t k) {
    const CellRect inner{cx - k + 1, cy - k + 1, cx + k - 1, cy + k - 1};
    const size_t c = static_cast<size_t>(y) * nx + x;
    for (int32_t e = tier.offsets[c]; e < tier.offsets[c + 1]; ++e) {
      const int32_t item = entries_[e];
      const CellRect& r = rects_[item];
      if (k > 0 && Intersects(r, inner)) continue;
      if (!FirstInRing(r, x, y, cx, cy, k)) continue;
      limit = visit(item);
      if (limit < 0.0) return false;
    }
    return true;
  };
  // The distance from the point to cells x0..x1 by y0..y1 (empty: +inf).
  const auto distance_to = [&](int32_t x0, int32_t x1, int32_t y0, int32_t y1) {
    if (x0 > x1 || y0 > y1) return std::numeric_limits<double>::infinity();
    const double dx = std::max(
        {o.x + x0 * s - point.x, 0.0, point.x - (o.x + (x1 + 1.0) * s)});
    const double dy = std::max(
        {o.y + y0 * s - point.y, 0.0, point.y - (o.y + (y1 + 1.0) * s)});
    return std::hypot(dx, dy);
  };
  for (int32_t k = 0; k <= rings; ++k) {
    if (k > 0) {
      // Every cell not visited yet lies in the grid outside the square of
      // rings < k: left or right of it, or above or below it. Their
      // distance bounds every later ring's (also for a point outside the
      // grid, where the sides of the square alone would not).
      const int32_t bx0 = std::max(cx - k + 1, 0);
      const int32_t bx1 = std::min(cx + k - 1, nx - 1);
      const int32_t by0 = std::max(cy - k + 1, 0);
      const int32_t by1 = std::min(cy + k - 1, ny - 1);
      const double bound = std::min({distance_to(0, bx0 - 1, 0, ny - 1),
                                     distance_to(bx1 + 1, nx - 1, 0, ny - 1),
                                     distance_to(bx0, bx1, 0, by0 - 1),
                                     distance_to(bx0, bx1, by1 + 1, ny - 1)});
      if (bound - m > limit) return true;
    }
    // The ring's cells inside the grid, in its row-major order: the full
    // top row, the two side cells of each row between, the full bottom
    // row (the order FirstInRing assumes).
    const int32_t x_begin = std::max(cx - k, 0);
    const int32_t x_end = std::min(cx + k, nx - 1);
    const bool left = cx - k >= 0;
    const bool right = k > 0 && cx + k <= nx - 1;
    if (cy - k >= 0) {
      for (int32_t x = x_begin; x <= x_end; ++x) {
        if (!offer(x, cy - k, k)) return false;
      }
    }
    if (k > 0 && (left || right)) {
      const int32_t y_begin = std::max(cy - k + 1, 0);
      const int32_t y_end = std::min(cy + k - 1, ny - 1);
      for (int32_t y = y_begin; y <= y_end; ++y) {
        if (left && !offer(cx - k, y, k)) return false;
        if (right && !offer(cx + k, y, k)) return false;
      }
    }
    if (k > 0 && cy + k <= ny - 1) {
      for (int32_t x = x_begin; x <= x_end; ++x) {
        if (!offer(x, cy + k, k)) return false;
      }
    }
  }
  return true;
}

}  // namespace collide
