// SpatialHash: a uniform grid of square cells over a fixed region, built
// once into flat arrays: cell c's items are entries()[offsets[c],
// offsets[c + 1]) (item indices, ascending), with no per-cell heap objects.
// An item is listed in every cell its closed bounding box overlaps, so the
// cells an item occupies always form a rectangle of cells (its CellRect).
//
// The walks below report each item at most once per walk without any
// per-query memory: an item is reported only in the first cell of the walk
// that lies in its CellRect, which each walk decides in O(1) from the
// rectangle and the walk's own (monotone) order. Walks are conservative:
// they may report items whose boxes only nearly reach the query; callers run
// the exact test. Nothing is mutated by a walk, so a built hash may be
// walked from many threads at once.
#ifndef COLLIDE_SPATIAL_HASH_H_
#define COLLIDE_SPATIAL_HASH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide {

// An inclusive range of cells: columns x0..x1, rows y0..y1. Empty when
// x0 > x1 or y0 > y1.
struct CellRect {
  int32_t x0 = 0;
  int32_t y0 = 0;
  int32_t x1 = -1;
  int32_t y1 = -1;
};

// The grid's geometry: cell (x, y) covers [origin.x + x * cell_size,
// origin.x + (x + 1) * cell_size] by the same in y, for 0 <= x < columns,
// 0 <= y < rows.
struct GridSpec {
  Vec2 origin;
  double cell_size = 1.0;
  int32_t columns = 1;
  int32_t rows = 1;
};

struct GridOptions {
  // 0: automatic (see ChooseGrid); otherwise finite and > 0.
  double cell_size = 0.0;
  int64_t max_cells = int64_t{1} << 22;
  int64_t max_cell_entries = int64_t{1} << 25;
};

class SpatialHash {
 public:
  // Picks the grid over `bounds` for items with the given boxes.
  //
  // Automatic cell size: twice the median of the items' larger box sides
  // (so a typical item occupies 1 to 4 cells and a typical cell holds few
  // items whatever the density), but at least sqrt(area / n), about one
  // cell per item, so that sparse levels of tiny items do not get mostly
  // empty cells (a cast pays about as much to step from one column of cells
  // to the next as to reject one listed item, so a walk is cheapest with
  // about one item per cell), and at least 1e-9 of the bounds' extent.
  // While the grid would
  // exceed max_cells or max_cell_entries, the size doubles. A given
  // cell_size is used as is, or rejected (InvalidArgumentError naming
  // options.cell_size) if the grid would exceed a limit.
  static absl::StatusOr<GridSpec> ChooseGrid(Aabb bounds,
                                             absl::Span<const Aabb> items,
                                             const GridOptions& options);

  // Lists each item in the cells its box overlaps. Items outside the grid
  // are clamped to its border cells. Fails only when the entries would
  // exceed max_cell_entries.
  static absl::StatusOr<SpatialHash> Create(const GridSpec& grid,
                                            absl::Span<const Aabb> items,
                                            int64_t max_cell_entries);

  // An empty one-cell grid with no items.
  SpatialHash();

  const GridSpec& grid() const { return grid_; }
  // 1 / grid().cell_size, kept so that walks need not divide.
  double inverse_cell_size() const { return inverse_cell_size_; }
  int32_t item_count() const { return static_cast<int32_t>(rects_.size()); }
  // Total (cell, item) entries.
  int64_t entry_count() const { return static_cast<int64_t>(entries_.size()); }
  // The items listed in cell (x, y), ascending; 0 <= x < columns, 0 <= y <
  // rows.
  absl::Span<const int32_t> Cell(int32_t x, int32_t y) const;
  // The flat arrays: cell c = y * columns + x lists entries()[cell_offsets()[c]
  // .. cell_offsets()[c + 1]).
  absl::Span<const int32_t> cell_offsets() const { return offsets_; }
  absl::Span<const int32_t> entries() const { return entries_; }
  // The cells item `item` is listed in.
  CellRect ItemCells(int32_t item) const { return rects_[item]; }
  // The cells a box overlaps, clipped to the grid (possibly empty).
  CellRect CellsOverlapping(Aabb box) const;
  // Heap bytes owned.
  size_t memory_bytes() const;

  // Reports once each item listed in a cell that `box` overlaps, in cell
  // order (rows bottom to top, columns left to right). Stops when `visit`
  // returns false.
  void VisitBox(Aabb box, absl::FunctionRef<bool(int32_t item)> visit) const;

  // The cells swept by `box` translated by t * translation for t in [0,
  // max_fraction], visited column by column along the translation (rows by
  // row when it is mostly vertical), i.e. in order of the time the swept box
  // first reaches them: a 2D DDA of the box's path. `visit` is called once
  // per item and returns the fraction after which the caller needs nothing
  // more (its best hit so far; max_fraction if none); the walk stops as soon
  // as the next column starts after that fraction. A negative return stops
  // at once. Zero translation visits the box's cells.
  void VisitSweep(Aabb box, Vec2 translation, double max_fraction,
                  absl::FunctionRef<double(int32_t item)> visit) const;

  // Cells within max_distance of point, in square rings of cells around
  // the point's (clamped) cell, nearest ring first. `visit` is called once
  // per item and returns the distance beyond which the caller needs nothing
  // more (its best so far, or max_distance); the walk stops once no
  // unvisited cell can lie within that distance. A negative return stops.
  void VisitNear(Vec2 point, double max_distance,
                 absl::FunctionRef<double(int32_t item)> visit) const;

 private:
  GridSpec grid_;
  double inverse_cell_size_;
  // offsets_[y * columns + x] .. offsets_[... + 1] index entries_.
  std::vector<int32_t> offsets_;
  std::vector<int32_t> entries_;
  std::vector<CellRect> rects_;
};

}  // namespace collide

#endif  // COLLIDE_SPATIAL_HASH_H_
