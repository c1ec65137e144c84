// VisibleTargets (collide/visibility.h): per viewer, one read of the
// occluders around it, shared by all its targets.
//
// The viewer's targets are bucketed by direction (a pseudo-angle, in bins
// of about one target each). The occluders around the viewer are read
// ring by ring of cells of the level's finest grid, nearest ring first;
// each is tested, by the exact per-shape test Sees uses, against the
// unresolved targets in the directions it covers and beyond its nearest
// point, and hides those it blocks. Rings are read while enough targets
// remain beyond them (in a dense level a few rings hide nearly every
// direction). Then every occluder meeting the square of cells read has
// been tested against every target: a target in that square that none hid
// is seen, and one beyond it is walked to from where its sight line
// leaves the square. On a one-tier level the walk reads the occluders of
// the cells it passes into the fan like the rings (each is tested against
// every unresolved target, so one walk often resolves its neighbours);
// otherwise it walks as Sees does and tests the occluder it finds against
// the other targets. Only exact tests, or double tests with a proven
// margin, answer; the doubles otherwise choose the work.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/spatial_hash.h"
#include "collide/visibility.h"
#include "visibility/occluders.h"
#include "visibility/sight_arcs.h"
#include "visibility/sight_line.h"
#include "visibility/target_fan.h"
#include "world/swept_cells.h"

namespace collide {

// Friend of VisibilityScratch: the query's access to its arrays.
struct VisibilityAccess {
  static internal::FanArrays Fan(VisibilityScratch& s) {
    return {s.slots_.data(), s.bin_begin_.data(), s.skip_.data(),
            s.ring_counts_.data()};
  }
  static internal::FanSlot* loaded(VisibilityScratch& s) {
    return s.loaded_.data();
  }
  static int32_t* cell_x(VisibilityScratch& s) { return s.cell_x_.data(); }
  static uint64_t* seen(VisibilityScratch& s) { return s.seen_.data(); }
  static int32_t seen_size(const VisibilityScratch& s) {
    return static_cast<int32_t>(s.seen_.size());
  }
  // A fresh stamp for SeenItems (clearing the table when the stamps wrap).
  static uint32_t NextStamp(VisibilityScratch& s) {
    if (++s.seen_stamp_ == 0) {
      std::fill(s.seen_.begin(), s.seen_.end(), uint64_t{0});
      s.seen_stamp_ = 1;
    }
    return s.seen_stamp_;
  }
  static int32_t* cell_y(VisibilityScratch& s) { return s.cell_y_.data(); }
  static int32_t max_targets(const VisibilityScratch& s) {
    return s.max_targets_;
  }
  static int32_t max_occluders(const VisibilityScratch& s) {
    return s.max_occluders_;
  }
  static VisibilityScratch::Counts& counts(VisibilityScratch& s) {
    return s.counts_;
  }
};

namespace {

using internal::FanSlot;
using internal::SightBlocker;
using internal::SightLayer;
using internal::TargetFan;

// A ring of cells is read while the unresolved targets beyond the rings
// read so far number at least this many per cell of the ring: a cell read
// costs about what a walk through it does, a walk beyond the rings passes
// about one cell of each ring, and the occluders a walk reads serve the
// other targets too (tuned by instruction counts on the scenes of
// docs/performance.md).
constexpr int32_t kTargetsPerCell = 4;
// Cell coordinates of points outside the grid are clamped to this, so that
// huge coordinates cannot overflow.
constexpr double kCellLimit = 1 << 30;
// Margin of the square read, relative to the coordinates and the grid's
// extent: far beyond the rounding of its bounds and of the hash's cells.
constexpr double kSquareMargin = 1e-9;
// A walk starts where its sight line leaves the square, moved back by this
// share of the parameter (far beyond the parameter's rounding).
constexpr double kExitShrink = 1e-12;

// The cell of coordinate `value` along one axis of a grid, not clamped to
// the grid (only to +-kCellLimit).
inline int32_t CellCoordinate(double value, double origin, double cell_size) {
  const double c = std::floor((value - origin) / cell_size);
  if (!(c > -kCellLimit)) return static_cast<int32_t>(-kCellLimit);
  if (c > kCellLimit) return static_cast<int32_t>(kCellLimit);
  return static_cast<int32_t>(c);
}

inline double MaxAbs(Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); }

// A square of the plane, [lower, upper]; empty when lower > upper.
struct Square {
  Vec2 lower{1.0, 1.0};
  Vec2 upper{0.0, 0.0};
  bool Contains(Vec2 p) const {
    return p.x >= lower.x && p.x <= upper.x && p.y >= lower.y && p.y <= upper.y;
  }
};

// The finest grid of the layer holding most items: the rings are read in
// it, around the viewer's cell (clamped to the grid).
struct RingGrid {
  const SpatialHash* hash = nullptr;
  const SpatialHash::Tier* tier = nullptr;
  int layer = 0;
  int32_t cx = 0;
  int32_t cy = 0;
  // The largest ring with a cell in the grid.
  int32_t last_ring = 0;
  double margin = 0.0;

  // The square of plane the rings 0..k cover, shrunk by the margin.
  Square Covered(int32_t k) const {
    if (k < 0) return {};
    const GridSpec& g = tier->grid;
    const double s = g.cell_size;
    return {{g.origin.x + (cx - k) * s + margin,
             g.origin.y + (cy - k) * s + margin},
            {g.origin.x + (cx + k + 1.0) * s - margin,
             g.origin.y + (cy + k + 1.0) * s - margin}};
  }
  // Cells of ring k inside the grid.
  int64_t RingCells(int32_t k) const {
    const GridSpec& g = tier->grid;
    const int64_t x0 = std::max(cx - k, 0);
    const int64_t x1 = std::min(cx + k, g.columns - 1);
    const int64_t y0 = std::max(cy - k, 0);
    const int64_t y1 = std::min(cy + k, g.rows - 1);
    if (x0 > x1 || y0 > y1) return 0;
    const int64_t all = (x1 - x0 + 1) * (y1 - y0 + 1);
    const int64_t ix0 = std::max(cx - k + 1, 0);
    const int64_t ix1 = std::min(cx + k - 1, g.columns - 1);
    const int64_t iy0 = std::max(cy - k + 1, 0);
    const int64_t iy1 = std::min(cy + k - 1, g.rows - 1);
    const int64_t inner =
        ix0 > ix1 || iy0 > iy1 ? 0 : (ix1 - ix0 + 1) * (iy1 - iy0 + 1);
    return all - inner;
  }
};

inline int32_t Clamp(double c, int32_t count) {
  if (!(c > 0.0)) return 0;
  if (c >= static_cast<double>(count - 1)) return count - 1;
  return static_cast<int32_t>(c);
}

RingGrid MakeRingGrid(const SightLayer (&layers)[2], int layer_count, Vec2 v) {
  RingGrid grid;
  grid.layer =
      layer_count == 2 && layers[1].level->spatial_hash().item_count() >
                              layers[0].level->spatial_hash().item_count()
          ? 1
          : 0;
  grid.hash = &layers[grid.layer].level->spatial_hash();
  grid.tier = &grid.hash->tiers()[0];
  const GridSpec& g = grid.tier->grid;
  grid.cx = Clamp(std::floor((v.x - g.origin.x) / g.cell_size), g.columns);
  grid.cy = Clamp(std::floor((v.y - g.origin.y) / g.cell_size), g.rows);
  grid.last_ring = std::max(
      {grid.cx, g.columns - 1 - grid.cx, grid.cy, g.rows - 1 - grid.cy});
  grid.margin =
      kSquareMargin * (MaxAbs(v) + MaxAbs(g.origin) +
                       g.cell_size * (static_cast<double>(g.columns) + g.rows));
  return grid;
}

// Reads the occluders of one layer through `visit(item)`.
struct LayerReader {
  SightLayer layer;
  bool all_occlude = false;
  Vec2 v;
  const QueryFilter* filter = nullptr;

  bool Occludes(const Level::Primitive& p) const {
    return all_occlude ||
           internal::Occludes(*layer.level, p, v, *filter, layer.removed);
  }
};

// The items one viewer has read, so that an item listed in several cells
// is read once: an open-addressing set of item numbers stamped with the
// viewer's number (no clearing between viewers). Holds up to half its
// slots.
class SeenItems {
 public:
  SeenItems(uint64_t* table, int32_t size, uint32_t stamp)
      : table_(table), mask_(size - 1), stamp_(uint64_t{stamp} << 32) {}
  // Whether `item` is new (and records it); false when seen, or when full.
  bool Insert(int32_t item) {
    const uint64_t key = stamp_ | static_cast<uint32_t>(item);
    uint32_t h = (static_cast<uint32_t>(item) * 0x9E3779B1u) >> 7;
    for (;; ++h) {
      uint64_t& slot = table_[h & mask_];
      if (slot == key) return false;
      if ((slot >> 32) != (stamp_ >> 32)) {
        if (2 * (int64_t{count_} + 1) > int64_t{mask_} + 1) {
          full_ = true;
          return false;
        }
        slot = key;
        ++count_;
        return true;
      }
    }
  }
  bool full() const { return full_; }
  int32_t count() const { return count_; }

 private:
  uint64_t* table_;
  uint32_t mask_;
  uint64_t stamp_;
  int32_t count_ = 0;
  bool full_ = false;
};

// Reads ring k of `grid`: every item of the tier listed in a cell of ring
// k and not read before. Returns false when `seen` filled up before the
// ring was read.
template <typename Visit>
bool ReadRing(const RingGrid& grid, int32_t k, SeenItems& seen, Visit&& visit) {
  const GridSpec& g = grid.tier->grid;
  const int32_t* offsets = grid.tier->offsets.data();
  const int32_t* entries = grid.hash->entries().data();
  const int32_t cx = grid.cx;
  const int32_t cy = grid.cy;
  const auto cell = [&](int32_t x, int32_t y) {
    const int64_t c = static_cast<int64_t>(y) * g.columns + x;
    for (int32_t e = offsets[c]; e < offsets[c + 1]; ++e) {
      const int32_t item = entries[e];
      if (!seen.Insert(item)) {
        if (seen.full()) return false;
        continue;
      }
      visit(item);
    }
    return true;
  };
  const int32_t x0 = std::max(cx - k, 0);
  const int32_t x1 = std::min(cx + k, g.columns - 1);
  if (cy - k >= 0) {
    for (int32_t x = x0; x <= x1; ++x) {
      if (!cell(x, cy - k)) return false;
    }
  }
  if (k > 0) {
    const int32_t y0 = std::max(cy - k + 1, 0);
    const int32_t y1 = std::min(cy + k - 1, g.rows - 1);
    for (int32_t y = y0; y <= y1; ++y) {
      if (cx - k >= 0 && !cell(cx - k, y)) return false;
      if (cx + k <= g.columns - 1 && !cell(cx + k, y)) return false;
    }
    if (cy + k <= g.rows - 1) {
      for (int32_t x = x0; x <= x1; ++x) {
        if (!cell(x, cy + k)) return false;
      }
    }
  }
  return true;
}

// Reads every item of tier `t` of `hash` whose cells meet `square` (and
// perhaps others), each once: by its cells, or item by item when the tier
// has fewer items than the square has cells.
template <typename Visit>
int64_t ReadSquare(const SpatialHash& hash, int t, const Square& square,
                   Visit&& visit) {
  const SpatialHash::Tier& tier = hash.tiers()[t];
  const GridSpec& g = tier.grid;
  const double m = kSquareMargin * (MaxAbs(square.lower) +
                                    MaxAbs(square.upper) + MaxAbs(g.origin));
  const auto index = [](double value, double origin, double size,
                        int32_t count) {
    const double c = std::floor((value - origin) / size);
    if (!(c > -1.0)) return int32_t{-1};
    if (c >= static_cast<double>(count)) return count;
    return static_cast<int32_t>(c);
  };
  const int32_t x0 = std::max(
      index(square.lower.x - m, g.origin.x, g.cell_size, g.columns), 0);
  const int32_t x1 =
      std::min(index(square.upper.x + m, g.origin.x, g.cell_size, g.columns),
               g.columns - 1);
  const int32_t y0 =
      std::max(index(square.lower.y - m, g.origin.y, g.cell_size, g.rows), 0);
  const int32_t y1 = std::min(
      index(square.upper.y + m, g.origin.y, g.cell_size, g.rows), g.rows - 1);
  if (x0 > x1 || y0 > y1) return 0;
  const int64_t cells = int64_t{x1 - x0 + 1} * (y1 - y0 + 1);
  int64_t read = 0;
  if (cells > hash.item_count()) {
    for (int32_t item = 0; item < hash.item_count(); ++item) {
      if (hash.ItemTier(item) != t) continue;
      ++read;
      visit(item);
    }
    return read;
  }
  const absl::Span<const int32_t> entries = hash.entries();
  for (int32_t y = y0; y <= y1; ++y) {
    for (int32_t x = x0; x <= x1; ++x) {
      const int64_t c = static_cast<int64_t>(y) * g.columns + x;
      for (int32_t e = tier.offsets[c]; e < tier.offsets[c + 1]; ++e) {
        const int32_t item = entries[e];
        const CellRect r = hash.ItemCells(item);
        if (x != std::max(x0, r.x0) || y != std::max(y0, r.y0)) continue;
        ++read;
        visit(item);
      }
    }
  }
  return read;
}

// Where the walk to t starts: v when v is outside `square`, else where
// [v, t] leaves it, moved back towards v (the part before it lies in the
// square).
Vec2 WalkStart(Vec2 v, Vec2 t, const Square& square) {
  if (!square.Contains(v)) return v;
  const Vec2 d = t - v;
  double s = 1.0;
  if (d.x > 0.0) s = std::min(s, (square.upper.x - v.x) / d.x);
  if (d.x < 0.0) s = std::min(s, (square.lower.x - v.x) / d.x);
  if (d.y > 0.0) s = std::min(s, (square.upper.y - v.y) / d.y);
  if (d.y < 0.0) s = std::min(s, (square.lower.y - v.y) / d.y);
  s *= 1.0 - kExitShrink;
  if (!(s > 0.0)) return v;
  return v + s * d;
}

// How a shared walk ended.
enum class Walked { kHidden, kSeen, kUnable };

// Walks the cells of `grid`'s tier along the sight line from `from` to t
// (as WalkBlocked does), reading each occluder not read before into the
// fan through `visit`, until slot i (t's) is resolved: what the walk reads
// is tested against every unresolved target, not only t. kUnable when
// `seen` filled up.
template <typename Visit>
Walked WalkShared(const RingGrid& grid, Vec2 v, Vec2 from, Vec2 t, int32_t i,
                  TargetFan& fan, SeenItems& seen, Visit&& visit) {
  const double scale =
      std::abs(v.x) + std::abs(v.y) + std::abs(t.x) + std::abs(t.y);
  const double slack = (from == v ? 4e-16 : 4e-15) * scale +
                       std::numeric_limits<double>::denorm_min();
  const Aabb start{{from.x - slack, from.y - slack},
                   {from.x + slack, from.y + slack}};
  const Vec2 d = t - from;
  const SpatialHash::Tier& tier = *grid.tier;
  const int32_t* offsets = tier.offsets.data();
  const int32_t* entries = grid.hash->entries().data();
  internal::SweptColumns walk(tier.grid, tier.inverse_cell_size, start, d,
                              {1.0 / d.x, 1.0 / d.y}, 1.0);
  internal::SweptColumn column;
  while (walk.Next(1.0, column)) {
    for (int32_t r = column.v0; r <= column.v1; ++r) {
      const int64_t c = column.Cell(r);
      for (int32_t e = offsets[c]; e < offsets[c + 1]; ++e) {
        const int32_t item = entries[e];
        if (!seen.Insert(item)) {
          if (seen.full()) return Walked::kUnable;
          continue;
        }
        visit(item);
      }
    }
    if (fan.Resolved(i)) return Walked::kHidden;
  }
  return Walked::kSeen;
}

// Answers which of targets[first, first + n) `viewer` sees into `row`,
// sharing the work as described at the top.
void AnswerChunk(const Level& level, const SightLayer (&layers)[2],
                 int layer_count, const Viewer& viewer,
                 absl::Span<const Vec2> targets, int32_t first, int32_t n,
                 uint64_t* row, VisibilityScratch& scratch,
                 const QueryFilter& filter) {
  VisibilityScratch::Counts& counts = VisibilityAccess::counts(scratch);
  const Vec2 v = viewer.position;
  const RingGrid grid = MakeRingGrid(layers, layer_count, v);
  FanSlot* loaded = VisibilityAccess::loaded(scratch);
  const int32_t* cell_x = VisibilityAccess::cell_x(scratch);
  const int32_t* cell_y = VisibilityAccess::cell_y(scratch);
  const int32_t bins =
      internal::FanBinCount(n, VisibilityAccess::max_targets(scratch));
  const bool limited = viewer.range.has_value() || viewer.cone.has_value();
  internal::FanCounts fan_counts;
  TargetFan fan(VisibilityAccess::Fan(scratch), v, targets.data(), fan_counts);
  fan.Begin(bins);
  int32_t loaded_count = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t j = first + i;
    const Vec2 t = targets[j];
    if (limited && !InViewRegion(viewer, t)) continue;
    if (t == v) {
      row[j >> 6] |= uint64_t{1} << (j & 63);
      continue;
    }
    const Vec2 d = t - v;
    FanSlot& s = loaded[loaded_count++];
    s.angle = internal::PseudoAngle(d);
    s.distance_squared = LengthSquared(d);
    s.index = j;
    const int64_t ring = std::max(std::abs(int64_t{cell_x[i]} - grid.cx),
                                  std::abs(int64_t{cell_y[i]} - grid.cy));
    s.ring =
        static_cast<int32_t>(std::min<int64_t>(ring, internal::kFanRings - 1));
    s.bin = internal::FanBinOf(s.angle, bins);
    fan.Count(s);
  }
  if (loaded_count == 0) return;
  fan.Load(loaded, loaded_count);

  LayerReader readers[2];
  for (int i = 0; i < layer_count; ++i) {
    readers[i] = {layers[i], internal::EveryShapeOccludes(layers[i], filter), v,
                  &filter};
  }
  // The rings, nearest first, while they pay.
  SeenItems seen(VisibilityAccess::seen(scratch),
                 VisibilityAccess::seen_size(scratch),
                 VisibilityAccess::NextStamp(scratch));
  const int64_t cell_budget =
      4 * int64_t{VisibilityAccess::max_occluders(scratch)};
  int64_t cells = 0;
  int32_t rings_read = -1;
  {
    const LayerReader& reader = readers[grid.layer];
    const auto visit = [&](int32_t item) {
      const Level::Primitive& p = reader.layer.level->primitive(item);
      if (reader.Occludes(p)) fan.Apply(*reader.layer.level, p);
    };
    const int32_t last = std::min(grid.last_ring, internal::kFanRings - 2);
    for (int32_t k = 0; k <= last; ++k) {
      const int64_t ring_cells = grid.RingCells(k);
      if (k > 0 && (fan.outside() == 0 ||
                    fan.outside() < kTargetsPerCell * ring_cells)) {
        break;
      }
      cells += ring_cells;
      if (cells > cell_budget || !ReadRing(grid, k, seen, visit)) break;
      rings_read = k;
      fan.RingRead(k);
    }
  }
  // The rest of the square in the other tiers and layers.
  const Square square = grid.Covered(rings_read);
  if (rings_read >= 0) {
    for (int i = 0; i < layer_count; ++i) {
      const LayerReader& reader = readers[i];
      const SpatialHash& hash = reader.layer.level->spatial_hash();
      const auto visit = [&](int32_t item) {
        const Level::Primitive& p = reader.layer.level->primitive(item);
        if (reader.Occludes(p)) fan.Apply(*reader.layer.level, p);
      };
      for (int t = i == grid.layer ? 1 : 0;
           t < static_cast<int>(hash.tiers().size()); ++t) {
        ReadSquare(hash, t, square, visit);
      }
    }
  }

  // Targets in the square that no occluder hid are seen; the others are
  // walked to from the square's edge.
  const bool viewer_in_square = square.Contains(v);
  {
    const bool shared = layer_count == 1 && grid.hash->tiers().size() == 1;
    const LayerReader& reader = readers[grid.layer];
    const auto visit = [&](int32_t item) {
      const Level::Primitive& p = reader.layer.level->primitive(item);
      if (reader.Occludes(p)) fan.Apply(*reader.layer.level, p);
    };
    for (int32_t i = fan.Next(0); i < fan.size(); i = fan.Next(i)) {
      const int32_t j = fan.slot(i).index;
      const Vec2 t = targets[j];
      bool seen_target = viewer_in_square && square.Contains(t);
      if (!seen_target) {
        ++counts.walked_targets;
        const Vec2 from = WalkStart(v, t, square);
        const Walked walked =
            shared ? WalkShared(grid, v, from, t, i, fan, seen, visit)
                   : Walked::kUnable;
        if (walked == Walked::kHidden) continue;
        if (walked == Walked::kSeen) {
          seen_target = true;
        } else {
          const SightBlocker found = internal::WalkBlocked(
              level, v, from, t, filter, counts.exact_tests);
          seen_target = found.primitive == nullptr;
          if (!seen_target) {
            fan.Resolve(i);
            fan.Apply(*found.level, *found.primitive);
            continue;
          }
        }
      }
      fan.Resolve(i);
      row[j >> 6] |= uint64_t{1} << (j & 63);
    }
  }
  counts.occluders_gathered += seen.count();
  counts.exact_tests += fan_counts.exact_tests;
  counts.certified_blocked += fan_counts.hidden;
}

}  // namespace

VisibilityScratch::VisibilityScratch(int32_t max_targets, int32_t max_occluders)
    : max_targets_(std::max(max_targets, int32_t{0})),
      max_occluders_(std::max(max_occluders, int32_t{0})) {
  loaded_.resize(max_targets_);
  slots_.resize(max_targets_);
  const int32_t bins = internal::FanBinCount(max_targets_, max_targets_);
  bin_begin_.resize(bins + 1);
  skip_.resize(max_targets_ + 1);
  cell_x_.resize(max_targets_);
  cell_y_.resize(max_targets_);
  ring_counts_.resize(internal::kFanRings);
  // Room for max_occluders items at half load.
  int64_t seen = 2;
  while (seen < 2 * int64_t{max_occluders_}) seen *= 2;
  seen_.resize(seen);
}

VisibilityScratch::~VisibilityScratch() = default;
VisibilityScratch::VisibilityScratch(VisibilityScratch&&) noexcept = default;
VisibilityScratch& VisibilityScratch::operator=(VisibilityScratch&&) noexcept =
    default;

size_t VisibilityScratch::memory_bytes() const {
  return (loaded_.capacity() + slots_.capacity()) * sizeof(internal::FanSlot) +
         (bin_begin_.capacity() + skip_.capacity() + cell_x_.capacity() +
          cell_y_.capacity() + ring_counts_.capacity()) *
             sizeof(int32_t) +
         seen_.capacity() * sizeof(uint64_t);
}

void VisibleTargets(const Level& level, absl::Span<const Viewer> viewers,
                    absl::Span<const Vec2> targets,
                    absl::Span<uint64_t> visible, VisibilityScratch& scratch,
                    const QueryFilter& filter) {
  const int32_t target_count = static_cast<int32_t>(targets.size());
  const int32_t words = VisibilityWords(target_count);
  COLLIDE_DCHECK(visible.size() >= viewers.size() * words);
  VisibilityScratch::Counts& counts = VisibilityAccess::counts(scratch);
  counts = {};
  std::fill(visible.begin(), visible.begin() + viewers.size() * words,
            uint64_t{0});
  SightLayer layers[2];
  const int layer_count = internal::SightLayers(level, layers);
  const int32_t capacity = VisibilityAccess::max_targets(scratch);
  if (capacity == 0) {
    // No room for targets: each pair as Sees answers it.
    for (size_t i = 0; i < viewers.size(); ++i) {
      uint64_t* row = visible.data() + i * words;
      if (internal::ViewerInside(level, viewers[i].position, filter)) continue;
      for (int32_t j = 0; j < target_count; ++j) {
        const Vec2 v = viewers[i].position;
        const Vec2 t = targets[j];
        if (!InViewRegion(viewers[i], t)) continue;
        bool seen = t == v;
        if (!seen) {
          ++counts.walked_targets;
          seen =
              internal::WalkBlocked(level, v, v, t, filter, counts.exact_tests)
                  .primitive == nullptr;
        }
        if (seen) row[j >> 6] |= uint64_t{1} << (j & 63);
      }
    }
    return;
  }
  int32_t* cell_x = VisibilityAccess::cell_x(scratch);
  int32_t* cell_y = VisibilityAccess::cell_y(scratch);
  for (int32_t first = 0; first < target_count; first += capacity) {
    const int32_t n = std::min(capacity, target_count - first);
    // The targets' cells in the grid the rings are read in (the same for
    // every viewer of a level without a base).
    const RingGrid grid = MakeRingGrid(layers, layer_count, Vec2{});
    const GridSpec& g = grid.tier->grid;
    for (int32_t i = 0; i < n; ++i) {
      cell_x[i] = CellCoordinate(targets[first + i].x, g.origin.x, g.cell_size);
      cell_y[i] = CellCoordinate(targets[first + i].y, g.origin.y, g.cell_size);
    }
    for (size_t i = 0; i < viewers.size(); ++i) {
      if (internal::ViewerInside(level, viewers[i].position, filter)) continue;
      AnswerChunk(level, layers, layer_count, viewers[i], targets, first, n,
                  visible.data() + i * words, scratch, filter);
    }
  }
}

}  // namespace collide
