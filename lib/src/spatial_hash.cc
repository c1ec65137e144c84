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
#include "collide/vec2.h"
#include "swept_cells.h"

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

struct GridCounts {
  int64_t cells = 0;
  int64_t entries = 0;
};

// Grid dimensions for a cell size, as doubles first so absurd sizes are
// reported rather than overflowing.
double Dimension(double extent, double cell_size) {
  return std::floor(extent / cell_size) + 1.0;
}

GridCounts Count(Aabb bounds, absl::Span<const Aabb> items, double cell_size,
                 int64_t max_cells) {
  const double columns = Dimension(bounds.upper.x - bounds.lower.x, cell_size);
  const double rows = Dimension(bounds.upper.y - bounds.lower.y, cell_size);
  GridCounts counts;
  if (columns * rows > static_cast<double>(max_cells)) {
    counts.cells = std::numeric_limits<int64_t>::max();
    return counts;
  }
  counts.cells = static_cast<int64_t>(columns * rows);
  const auto nx = static_cast<int32_t>(columns);
  const auto ny = static_cast<int32_t>(rows);
  for (const Aabb& box : items) {
    const int64_t w = CellIndex(box.upper.x, bounds.lower.x, cell_size, nx) -
                      CellIndex(box.lower.x, bounds.lower.x, cell_size, nx) + 1;
    const int64_t h = CellIndex(box.upper.y, bounds.lower.y, cell_size, ny) -
                      CellIndex(box.lower.y, bounds.lower.y, cell_size, ny) + 1;
    counts.entries += w * h;
  }
  return counts;
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

absl::StatusOr<GridSpec> SpatialHash::ChooseGrid(Aabb bounds,
                                                 absl::Span<const Aabb> items,
                                                 const GridOptions& options) {
  const double width = bounds.upper.x - bounds.lower.x;
  const double height = bounds.upper.y - bounds.lower.y;
  const double extent = std::max(width, height);
  double cell_size = options.cell_size;
  const bool automatic = cell_size == 0.0;
  if (!automatic && !(std::isfinite(cell_size) && cell_size > 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "options.cell_size must be finite and > 0 (or 0 for automatic), got ",
        cell_size));
  }
  if (automatic) {
    if (!items.empty()) {
      std::vector<double> sides(items.size());
      for (size_t i = 0; i < items.size(); ++i) {
        sides[i] = std::max(items[i].upper.x - items[i].lower.x,
                            items[i].upper.y - items[i].lower.y);
      }
      const auto middle =
          sides.begin() + static_cast<ptrdiff_t>(sides.size() / 2);
      std::nth_element(sides.begin(), middle, sides.end());
      cell_size = 2.0 * *middle;
      const double area = std::max(width, 1e-300) * std::max(height, 1e-300);
      cell_size = std::max(cell_size,
                           std::sqrt(area / static_cast<double>(items.size())));
    }
    cell_size = std::max(cell_size, 1e-9 * extent);
    if (!(cell_size > 0.0) || !std::isfinite(cell_size)) cell_size = 1.0;
  }
  for (;;) {
    const GridCounts counts =
        Count(bounds, items, cell_size, options.max_cells);
    const bool too_many_cells = counts.cells > options.max_cells;
    const bool too_many_entries = counts.entries > options.max_cell_entries;
    if (!too_many_cells && !too_many_entries) break;
    if (!automatic) {
      return absl::InvalidArgumentError(absl::StrCat(
          "options.cell_size ", cell_size, " makes more ",
          too_many_cells ? "cells than options.max_cells "
                         : "cell entries than options.max_cell_entries ",
          too_many_cells ? options.max_cells : options.max_cell_entries));
    }
    cell_size *= 2.0;
  }
  GridSpec grid;
  grid.origin = bounds.lower;
  grid.cell_size = cell_size;
  grid.columns = static_cast<int32_t>(Dimension(width, cell_size));
  grid.rows = static_cast<int32_t>(Dimension(height, cell_size));
  return grid;
}

SpatialHash::SpatialHash() : inverse_cell_size_(1.0), offsets_{0, 0} {}

absl::StatusOr<SpatialHash> SpatialHash::Create(const GridSpec& grid,
                                                absl::Span<const Aabb> items,
                                                int64_t max_cell_entries) {
  SpatialHash hash;
  hash.grid_ = grid;
  hash.inverse_cell_size_ = 1.0 / grid.cell_size;
  const int64_t cells = int64_t{grid.columns} * grid.rows;
  hash.rects_.resize(items.size());
  int64_t total = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    // Items are filed by clamping, so even one outside the grid gets cells.
    CellRect clamped;
    clamped.x0 = CellIndex(items[i].lower.x, grid.origin.x, grid.cell_size,
                           grid.columns);
    clamped.x1 = CellIndex(items[i].upper.x, grid.origin.x, grid.cell_size,
                           grid.columns);
    clamped.y0 =
        CellIndex(items[i].lower.y, grid.origin.y, grid.cell_size, grid.rows);
    clamped.y1 =
        CellIndex(items[i].upper.y, grid.origin.y, grid.cell_size, grid.rows);
    hash.rects_[i] = clamped;
    total +=
        int64_t{clamped.x1 - clamped.x0 + 1} * (clamped.y1 - clamped.y0 + 1);
  }
  if (total > max_cell_entries) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the spatial hash would hold ", total,
        " cell entries, more than max_cell_entries ", max_cell_entries));
  }
  // Counting sort: sizes, prefix sums, then fill in item order so each
  // cell's list is ascending.
  hash.offsets_.assign(static_cast<size_t>(cells) + 1, 0);
  for (const CellRect& r : hash.rects_) {
    for (int32_t y = r.y0; y <= r.y1; ++y) {
      for (int32_t x = r.x0; x <= r.x1; ++x) {
        ++hash.offsets_[static_cast<size_t>(y) * grid.columns + x + 1];
      }
    }
  }
  for (size_t c = 0; c < static_cast<size_t>(cells); ++c) {
    hash.offsets_[c + 1] += hash.offsets_[c];
  }
  hash.entries_.resize(static_cast<size_t>(total));
  std::vector<int32_t> cursor(hash.offsets_.begin(), hash.offsets_.end() - 1);
  for (size_t i = 0; i < hash.rects_.size(); ++i) {
    const CellRect& r = hash.rects_[i];
    for (int32_t y = r.y0; y <= r.y1; ++y) {
      for (int32_t x = r.x0; x <= r.x1; ++x) {
        hash.entries_[cursor[static_cast<size_t>(y) * grid.columns + x]++] =
            static_cast<int32_t>(i);
      }
    }
  }
  return hash;
}

absl::Span<const int32_t> SpatialHash::Cell(int32_t x, int32_t y) const {
  const size_t c = static_cast<size_t>(y) * grid_.columns + x;
  return absl::MakeConstSpan(
      entries_.data() + offsets_[c],
      static_cast<size_t>(offsets_[c + 1] - offsets_[c]));
}

CellRect SpatialHash::CellsOverlapping(Aabb box) const {
  const double s = grid_.cell_size;
  const Vec2 o = grid_.origin;
  CellRect r;
  r.x0 = CellIndexOrOutside(box.lower.x, o.x, s, grid_.columns);
  r.x1 = CellIndexOrOutside(box.upper.x, o.x, s, grid_.columns);
  r.y0 = CellIndexOrOutside(box.lower.y, o.y, s, grid_.rows);
  r.y1 = CellIndexOrOutside(box.upper.y, o.y, s, grid_.rows);
  r.x0 = std::max(r.x0, 0);
  r.y0 = std::max(r.y0, 0);
  r.x1 = std::min(r.x1, grid_.columns - 1);
  r.y1 = std::min(r.y1, grid_.rows - 1);
  return r;
}

size_t SpatialHash::memory_bytes() const {
  return offsets_.capacity() * sizeof(int32_t) +
         entries_.capacity() * sizeof(int32_t) +
         rects_.capacity() * sizeof(CellRect);
}

void SpatialHash::VisitBox(Aabb box,
                           absl::FunctionRef<bool(int32_t item)> visit) const {
  const double m = kMarginShare * (MaxAbs(box.lower) + MaxAbs(box.upper) +
                                   MaxAbs(grid_.origin));
  box.lower = box.lower - Vec2{m, m};
  box.upper = box.upper + Vec2{m, m};
  const CellRect q = CellsOverlapping(box);
  for (int32_t y = q.y0; y <= q.y1; ++y) {
    for (int32_t x = q.x0; x <= q.x1; ++x) {
      for (const int32_t item : Cell(x, y)) {
        // Report an item only in the first cell (row-major) of q it occupies.
        const CellRect& r = rects_[item];
        if (x != std::max(q.x0, r.x0) || y != std::max(q.y0, r.y0)) continue;
        if (!visit(item)) return;
      }
    }
  }
}

void SpatialHash::VisitSweep(
    Aabb box, Vec2 translation, double max_fraction,
    absl::FunctionRef<double(int32_t item)> visit) const {
  internal::SweptColumns walk(grid_, inverse_cell_size_, box, translation,
                              {1.0 / translation.x, 1.0 / translation.y},
                              max_fraction);
  internal::SweptColumn column, previous;
  bool have_previous = false;
  double limit = max_fraction;
  while (walk.Next(limit, column)) {
    for (int32_t v = column.v0; v <= column.v1; ++v) {
      const int64_t cell = column.Cell(v);
      for (int32_t k = offsets_[cell]; k < offsets_[cell + 1]; ++k) {
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

void SpatialHash::VisitNear(
    Vec2 point, double max_distance,
    absl::FunctionRef<double(int32_t item)> visit) const {
  const double s = grid_.cell_size;
  const Vec2 o = grid_.origin;
  const int32_t nx = grid_.columns;
  const int32_t ny = grid_.rows;
  const int32_t cx = CellIndex(point.x, o.x, s, nx);
  const int32_t cy = CellIndex(point.y, o.y, s, ny);
  const double m = kMarginShare * (MaxAbs(point) + MaxAbs(o) + max_distance);
  double limit = max_distance;
  for (int32_t k = 0;; ++k) {
    if (k > 0) {
      // No cell outside the square of rings < k lies nearer than the
      // nearest side of that square that still has grid beyond it.
      double bound = std::numeric_limits<double>::infinity();
      bool any = false;
      if (cx + k <= nx - 1) {
        bound = std::min(bound, std::max(0.0, o.x + (cx + k) * s - point.x));
        any = true;
      }
      if (cx - k >= 0) {
        bound =
            std::min(bound, std::max(0.0, point.x - (o.x + (cx - k + 1) * s)));
        any = true;
      }
      if (cy + k <= ny - 1) {
        bound = std::min(bound, std::max(0.0, o.y + (cy + k) * s - point.y));
        any = true;
      }
      if (cy - k >= 0) {
        bound =
            std::min(bound, std::max(0.0, point.y - (o.y + (cy - k + 1) * s)));
        any = true;
      }
      if (!any || bound - m > limit) return;
    }
    const CellRect inner{cx - k + 1, cy - k + 1, cx + k - 1, cy + k - 1};
    const int32_t y_begin = std::max(cy - k, 0);
    const int32_t y_end = std::min(cy + k, ny - 1);
    for (int32_t y = y_begin; y <= y_end; ++y) {
      const bool full_row = y == cy - k || y == cy + k;
      const int32_t x_step = full_row ? 1 : 2 * k;
      for (int32_t x = full_row ? std::max(cx - k, 0) : cx - k;
           x <= std::min(cx + k, nx - 1); x += x_step) {
        if (x < 0) continue;
        for (const int32_t item : Cell(x, y)) {
          const CellRect& r = rects_[item];
          if (k > 0 && Intersects(r, inner)) continue;
          if (!FirstInRing(r, x, y, cx, cy, k)) continue;
          limit = visit(item);
          if (limit < 0.0) return;
        }
      }
    }
  }
}

}  // namespace collide
