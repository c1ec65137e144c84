// SpatialHash: uniform grids of square cells (one per tier, see below),
// built once into flat arrays: cell c's items are entries()[offsets[c],
// offsets[c + 1]) (item indices, ascending), with no per-cell heap objects.
// An item is listed in one tier, in every cell of it that its closed
// bounding box overlaps (clamped to the tier's grid), so the cells an item
// occupies always form a rectangle of cells (its CellRect).
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
  // Side of the finest tier's cells: 0 automatic (see SpatialHash::Build);
  // otherwise finite and > 0.
  double cell_size = 0.0;
};

// The hash is a few tiers (at most kMaxTiers), each a uniform grid over the
// region its items occupy. Most levels need one. Items that would make a
// grid large or slow go to a coarser tier instead of setting the grid for
// everyone: items much larger than their tier's cells (covering more than
// kMaxItemCells cells), and items far outside the region where most items
// lie (so one shape at 1e9 does not stretch the grid of the shapes at 0).
// Every tier holds at most kCellsPerItem * (its items) + kCellsBase cells
// (kGivenCellsBase for a first tier of a given cell size) and at most
// kEntriesPerItem * (its items) + kCellsBase entries, so memory is bounded
// by the item count whatever the coordinates.
class SpatialHash {
 public:
  static constexpr int kMaxTiers = 4;
  static constexpr int32_t kMaxItemCells = 16;
  static constexpr int64_t kEntriesPerItem = 4;
  static constexpr int64_t kCellsPerItem = 4;
  static constexpr int64_t kCellsBase = 1024;
  // The first tier's base when the caller gives its cell size (1 MiB of
  // cell offsets), so that tuned small cells on small levels are accepted.
  static constexpr int64_t kGivenCellsBase = int64_t{1} << 18;

  struct Tier {
    GridSpec grid;
    // 1 / grid.cell_size, kept so that walks need not divide.
    double inverse_cell_size = 1.0;
    // Cell c = y * columns + x lists entries()[offsets[c] .. offsets[c +
    // 1]): indices into the hash's entries(), shared by all tiers.
    std::vector<int32_t> offsets;
  };

  // Files `items` (boxes; item i is index i). Tier by tier, from the items
  // not filed yet:
  // - the region: their bounds, narrowed (unless this is the last tier) to
  //   where most of them lie: the middle 15/16 of their centres in x and
  //   in y, widened by half that extent and by twice the median item size;
  //   items not inside it wait for a later tier;
  // - the cell size: twice the median of the items' larger box sides (so a
  //   typical item occupies 1 to 4 cells), but at least sqrt(area / n),
  //   about one cell per item (a cast pays about as much to step from one
  //   column of cells to the next as to reject one listed item), and at
  //   least 1e-9 of the region's extent; doubled while the grid would hold
  //   more than kCellsPerItem * n + kCellsBase cells. options.cell_size,
  //   when given, is the first tier's size as is: a grid over the limit is
  //   then RESOURCE_EXHAUSTED naming options.cell_size;
  // - items covering more than kMaxItemCells cells wait for a later tier,
  //   except in the last, whose cell size doubles until its entries are at
  //   most kMaxItemCells * n + kCellsBase.
  // Errors only for a bad or too small options.cell_size.
  static absl::StatusOr<SpatialHash> Build(absl::Span<const Aabb> items,
                                           const GridOptions& options = {});

  // An empty hash: one one-cell tier with no items.
  SpatialHash();

  absl::Span<const Tier> tiers() const { return tiers_; }
  // The first (finest) tier's grid.
  const GridSpec& grid() const { return tiers_[0].grid; }
  int32_t item_count() const { return static_cast<int32_t>(rects_.size()); }
  // Total (cell, item) entries over all tiers.
  int64_t entry_count() const { return static_cast<int64_t>(entries_.size()); }
  // The items listed in cell (x, y) of tier `tier`, ascending.
  absl::Span<const int32_t> Cell(int tier, int32_t x, int32_t y) const;
  // Every tier's entries, tier by tier, each cell's ascending.
  absl::Span<const int32_t> entries() const { return entries_; }
  // The tier item `item` is filed in, and its cells there.
  int ItemTier(int32_t item) const { return item_tiers_[item]; }
  CellRect ItemCells(int32_t item) const { return rects_[item]; }
  // Heap bytes owned.
  size_t memory_bytes() const;

  // Reports once each item listed in a cell that `box` overlaps. Stops when
  // `visit` returns false.
  void VisitBox(Aabb box, absl::FunctionRef<bool(int32_t item)> visit) const;

  // The cells swept by `box` translated by t * translation for t in [0,
  // max_fraction], tier by tier, each visited column by column along the
  // translation (rows by row when it is mostly vertical), i.e. in order of
  // the time the swept box first reaches them: a 2D DDA of the box's path.
  // `visit` is called once per item and returns the fraction after which
  // the caller needs nothing more (its best hit so far; max_fraction if
  // none); a tier's walk stops as soon as the next column starts after
  // that fraction. A negative return stops at once. Zero translation
  // visits the box's cells.
  void VisitSweep(Aabb box, Vec2 translation, double max_fraction,
                  absl::FunctionRef<double(int32_t item)> visit) const;

  // Cells within max_distance of point, tier by tier, in square rings of
  // cells around the point's (clamped) cell, nearest ring first. `visit` is
  // called once per item and returns the distance beyond which the caller
  // needs nothing more (its best so far, or max_distance); a tier's walk
  // stops once no unvisited cell of it can lie within that distance. A
  // negative return stops. Work is at most the cells of the hash, whatever
  // max_distance (+infinity included).
  void VisitNear(Vec2 point, double max_distance,
                 absl::FunctionRef<double(int32_t item)> visit) const;

 private:
  // Files `filed` (ascending item indices) in a new tier over `grid`.
  void AddTier(const GridSpec& grid, absl::Span<const Aabb> items,
               absl::Span<const int32_t> filed);
  // Visits one tier's rings; false when `visit` asked to stop.
  bool VisitNearInTier(const Tier& tier, Vec2 point, double& limit,
                       absl::FunctionRef<double(int32_t item)> visit) const;

  std::vector<Tier> tiers_;
  std::vector<int32_t> entries_;
  std::vector<CellRect> rects_;
  std::vector<int8_t> item_tiers_;
};

}  // namespace collide

#endif  // COLLIDE_SPATIAL_HASH_H_
