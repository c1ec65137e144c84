// VisibleTargets and Sees (collide/visibility.h).
//
// Per viewer: the cells around it are walked nearest first
// (SpatialHash::VisitNear), and every occluder met is filed into the
// coarse angular bins its directions from the viewer cover (a
// conservative interval of a pseudo-angle, computed in double: filing
// decides nothing, it only says which occluders a sight line through the
// bin could meet). The fine bins holding targets are closed by blockers:
// segments interior to an occluder (a segment, an edge, a chord of a
// solid shape) spanning the fine bin's whole wedge; a target beyond one
// is then normally blocked by it, which one exact proper-crossing test
// confirms. The walk stops at the distance past which all but one in
// kWalkShare of those fine bins are closed or hold no target. Each pair
// not confirmed blocked is then tested exactly against its coarse bin's
// occluders nearer than the target or, where the walk did not reach that
// far, by a walk along its sight line. Only exact tests answer; the
// doubles choose the work.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/visibility.h"
#include "exact/sign.h"
#include "visibility/occluders.h"

namespace collide {

// Friend of VisibilityScratch: the query's access to its arrays.
struct VisibilityAccess {
  using Occluder = VisibilityScratch::Occluder;
  using Bin = VisibilityScratch::Bin;
  using Target = VisibilityScratch::Target;
  static std::vector<Occluder>& occluders(VisibilityScratch& s) {
    return s.occluders_;
  }
  static std::vector<int32_t>& entries(VisibilityScratch& s) {
    return s.entries_;
  }
  using FineBin = VisibilityScratch::FineBin;
  static std::vector<Bin>& bins(VisibilityScratch& s) { return s.bins_; }
  static std::vector<FineBin>& fine(VisibilityScratch& s) { return s.fine_; }
  static std::vector<double>& needs(VisibilityScratch& s) { return s.needs_; }
  static std::vector<int32_t>& fine_slot(VisibilityScratch& s) {
    return s.fine_slot_;
  }
  static std::vector<Target>& targets(VisibilityScratch& s) {
    return s.targets_;
  }
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

constexpr int32_t kBins = 256;
// Fine bins decide only which blocker a target's sight line is tried
// against first: narrow, so that one occluder spans a target's fine bin
// about as soon as the ray to it would meet one.
constexpr int32_t kFineBins = 1 << 14;
// Entries per occluder the bin lists hold on average before a viewer is
// answered by walks instead.
constexpr int32_t kEntriesPerOccluder = 16;
// Fewer targets in view than this: walks cost less than filing.
constexpr int32_t kWalkBelow = 4;
// One target direction in this many may be left to a walk rather than
// widen every viewer's gathering to the farthest first hit of all.
constexpr size_t kWalkShare = 16;
// Widening of every pseudo-angle interval, far beyond its rounding (a few
// ulps of values below 4).
constexpr double kAngleMargin = 1e-9;
// Relative margin on squared distances computed in double (a few
// roundings).
constexpr double kDistanceMargin = 1e-9;

// A pseudo-angle of d != 0 in [0, 4), increasing counter-clockwise from +x.
inline double PseudoAngle(Vec2 d) {
  const double p = d.y / (std::abs(d.x) + std::abs(d.y));
  if (d.x >= 0.0) return p >= 0.0 ? p : 4.0 + p;
  return 2.0 - p;
}

inline int32_t BinOf(double angle, int32_t bins = kBins) {
  const int32_t bin = static_cast<int32_t>(angle * (bins / 4.0));
  return std::clamp(bin, int32_t{0}, bins - 1);
}

// The directions from the viewer a set of points covers, as [lo, hi] with
// hi - lo < 1.9 (lo may be negative, hi may pass 4), or full.
struct Arc {
  double lo = 0.0;
  double hi = 4.0;
  bool full = true;
};

// The arc of the segment [a, b] seen from v.
inline Arc SegmentArc(Vec2 v, Vec2 a, Vec2 b) {
  const Vec2 da = a - v;
  const Vec2 db = b - v;
  if ((da.x == 0.0 && da.y == 0.0) || (db.x == 0.0 && db.y == 0.0)) return {};
  const double pa = PseudoAngle(da);
  double delta = PseudoAngle(db) - pa;
  if (delta > 2.0) delta -= 4.0;
  if (delta < -2.0) delta += 4.0;
  if (std::abs(delta) > 1.9) return {};
  return {std::min(pa, pa + delta) - kAngleMargin,
          std::max(pa, pa + delta) + kAngleMargin, false};
}

// The arc of a box seen from v (full when v is in it or near).
inline Arc BoxArc(Vec2 v, Vec2 lower, Vec2 upper) {
  const double slack_x = 1e-12 * (std::abs(lower.x) + std::abs(upper.x));
  const double slack_y = 1e-12 * (std::abs(lower.y) + std::abs(upper.y));
  if (v.x >= lower.x - slack_x && v.x <= upper.x + slack_x &&
      v.y >= lower.y - slack_y && v.y <= upper.y + slack_y) {
    return {};
  }
  const Vec2 corners[4] = {
      lower, {upper.x, lower.y}, upper, {lower.x, upper.y}};
  const double p0 = PseudoAngle(corners[0] - v);
  double low = 0.0;
  double high = 0.0;
  for (int i = 1; i < 4; ++i) {
    double delta = PseudoAngle(corners[i] - v) - p0;
    if (delta > 2.0) delta -= 4.0;
    if (delta < -2.0) delta += 4.0;
    low = std::min(low, delta);
    high = std::max(high, delta);
  }
  if (high - low > 1.9) return {};
  return {p0 + low - kAngleMargin, p0 + high + kAngleMargin, false};
}

inline double BoxDistanceSquared(Vec2 v, Vec2 lower, Vec2 upper) {
  const double dx = std::max({0.0, lower.x - v.x, v.x - upper.x});
  const double dy = std::max({0.0, lower.y - v.y, v.y - upper.y});
  return (dx * dx + dy * dy) * (1.0 - kDistanceMargin);
}

inline double FarSquared(Vec2 v, Vec2 a, Vec2 b) {
  return std::max(LengthSquared(a - v), LengthSquared(b - v)) *
         (1.0 + kDistanceMargin);
}

// The state of one viewer's gathering.
class Gatherer {
 public:
  using Occluder = VisibilityAccess::Occluder;
  using FineBin = VisibilityAccess::FineBin;

  // fine: the fine bins holding targets, ascending by index.
  Gatherer(Vec2 viewer, VisibilityScratch& scratch)
      : v_(viewer),
        occluders_(VisibilityAccess::occluders(scratch)),
        fine_(VisibilityAccess::fine(scratch)),
        max_occluders_(VisibilityAccess::max_occluders(scratch)),
        needs_(VisibilityAccess::needs(scratch)) {}

  // Files primitive p; false when the scratch is full.
  bool Add(const Level& level, const Level::Primitive& p) {
    if (static_cast<int32_t>(occluders_.size()) >= max_occluders_) {
      return false;
    }
    Arc arc;
    double near_squared = 0.0;
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
      case Level::PrimitiveKind::kPolylineEdge:
      case Level::PrimitiveKind::kConcaveEdge: {
        const Vec2 lower{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)};
        const Vec2 upper{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)};
        arc = SegmentArc(v_, p.a, p.b);
        near_squared = BoxDistanceSquared(v_, lower, upper);
        Block(p.a, p.b);
        break;
      }
      case Level::PrimitiveKind::kCircle: {
        if (p.radius == 0.0) return true;  // no interior
        const Vec2 r{p.radius, p.radius};
        arc = BoxArc(v_, p.a - r, p.a + r);
        near_squared = BoxDistanceSquared(v_, p.a - r, p.a + r);
        // Chords at half the radius lie inside whatever the rounding.
        const double h = 0.5 * p.radius;
        Block({p.a.x - h, p.a.y}, {p.a.x + h, p.a.y});
        Block({p.a.x, p.a.y - h}, {p.a.x, p.a.y + h});
        break;
      }
      case Level::PrimitiveKind::kCapsule: {
        if (p.radius == 0.0) return true;
        const Vec2 r{p.radius, p.radius};
        const Vec2 lower =
            Vec2{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)} - r;
        const Vec2 upper =
            Vec2{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)} + r;
        arc = BoxArc(v_, lower, upper);
        near_squared = BoxDistanceSquared(v_, lower, upper);
        Block(p.a, p.b);
        break;
      }
      case Level::PrimitiveKind::kConvexPolygon: {
        arc = BoxArc(v_, p.a, p.b);
        near_squared = BoxDistanceSquared(v_, p.a, p.b);
        const ConvexPolygon& polygon = level.convex_polygon(p.shape);
        const int n = polygon.count;
        if (n >= 4) {
          Block(polygon.vertices[0], polygon.vertices[2]);
          Block(polygon.vertices[1], polygon.vertices[3]);
        }
        for (int i = 0; i < n; ++i) {
          Block(polygon.vertices[i], polygon.vertices[(i + 1) % n]);
        }
        break;
      }
    }
    Occluder occluder;
    occluder.level = &level;
    occluder.primitive = &p;
    occluder.near_squared = near_squared;
    if (arc.full) {
      occluder.bin_first = 0;
      occluder.bin_count = kBins;
    } else {
      const double lo = arc.lo < 0.0 ? arc.lo + 4.0 : arc.lo;
      const int32_t first = BinOf(lo);
      const int32_t last = BinOf(arc.hi >= 4.0 ? arc.hi - 4.0 : arc.hi);
      occluder.bin_first = first;
      occluder.bin_count = (last - first + kBins) % kBins + 1;
    }
    occluders_.push_back(occluder);
    return true;
  }

  // The distance beyond which the walk goes no further: all but one in
  // kWalkShare of the fine bins holding targets are closed nearer or hold
  // no target farther (the targets of the rest, beyond it, are answered by
  // walks along their sight lines). Recomputed every few calls (a larger
  // limit only walks further).
  double Limit() {
    if (dirty_ && (++calls_ & 15) == 0) Recompute();
    return limit_;
  }
  void Recompute() {
    needs_.clear();
    for (const FineBin& bin : fine_) {
      needs_.push_back(std::min(bin.need_squared, bin.blocker_far_squared));
    }
    const size_t open = needs_.size() / kWalkShare;
    std::nth_element(needs_.begin(), needs_.end() - 1 - open, needs_.end());
    limit_squared_ = needs_[needs_.size() - 1 - open];
    limit_ = std::sqrt(limit_squared_) * (1.0 + kDistanceMargin);
    dirty_ = false;
  }

 private:
  // Offers the segment [a, b], interior to an occluder, as a blocker of the
  // fine bins holding targets that it spans.
  void Block(Vec2 a, Vec2 b) {
    const Arc arc = SegmentArc(v_, a, b);
    if (arc.full) return;
    const double scale = kFineBins / 4.0;
    int64_t first = static_cast<int64_t>(std::ceil(arc.lo * scale));
    int64_t end = static_cast<int64_t>(std::floor(arc.hi * scale));
    if (first >= end) return;
    const double far_squared = FarSquared(v_, a, b);
    // [first, end) in fine bin indices, possibly wrapping past 0.
    if (first < 0) {
      BlockRange(first + kFineBins, kFineBins, a, b, far_squared);
      first = 0;
    }
    if (end > kFineBins) {
      BlockRange(0, end - kFineBins, a, b, far_squared);
      end = kFineBins;
    }
    BlockRange(first, end, a, b, far_squared);
  }
  void BlockRange(int64_t first, int64_t end, Vec2 a, Vec2 b,
                  double far_squared) {
    auto it = std::lower_bound(
        fine_.begin(), fine_.end(), first,
        [](const FineBin& bin, int64_t index) { return bin.index < index; });
    for (; it != fine_.end() && it->index < end; ++it) {
      if (far_squared < it->blocker_far_squared) {
        // Only a bin at or above the limit can lower it.
        dirty_ |= std::min(it->need_squared, it->blocker_far_squared) >=
                  limit_squared_;
        it->blocker_a = a;
        it->blocker_b = b;
        it->blocker_far_squared = far_squared;
      }
    }
  }

  Vec2 v_;
  std::vector<Occluder>& occluders_;
  std::vector<FineBin>& fine_;
  int32_t max_occluders_;
  std::vector<double>& needs_;
  double limit_ = 0.0;
  double limit_squared_ = 0.0;  // the order statistic limit_ comes from
  bool dirty_ = true;
  uint32_t calls_ = 0;
};

struct Layer {
  const Level* level = nullptr;
  const uint64_t* removed = nullptr;
};

int LayersOf(const Level& level, Layer (&layers)[2]) {
  layers[0] = {&level, nullptr};
  if (const Level* base = level.base()) {
    layers[1] = {base, level.removed_from_base().data()};
    return 2;
  }
  return 1;
}

bool ViewerInside(const Level& level, Vec2 v, const QueryFilter& filter) {
  Layer layers[2];
  const int count = LayersOf(level, layers);
  for (int i = 0; i < count; ++i) {
    if (internal::InsideOccluder(*layers[i].level, layers[i].removed, v,
                                 filter)) {
      return true;
    }
  }
  return false;
}

// Whether an occluder blocks v -> t (v != t), walking the cells along the
// sight line.
bool WalkBlocked(const Level& level, Vec2 v, Vec2 t, const QueryFilter& filter,
                 int64_t& tests) {
  Layer layers[2];
  const int count = LayersOf(level, layers);
  // A box an ulp-scale wider than the viewer, so that the walk along the
  // rounded t - v covers the exact segment.
  const double slack =
      4e-16 * (std::abs(v.x) + std::abs(v.y) + std::abs(t.x) + std::abs(t.y)) +
      std::numeric_limits<double>::denorm_min();
  const Aabb start{{v.x - slack, v.y - slack}, {v.x + slack, v.y + slack}};
  for (int i = 0; i < count; ++i) {
    const Layer layer = layers[i];
    bool blocked = false;
    layer.level->spatial_hash().VisitSweep(
        start, t - v, 1.0, [&](int32_t item) {
          const Level::Primitive& p = layer.level->primitive(item);
          if (!internal::Occludes(*layer.level, p, v, filter, layer.removed)) {
            return 1.0;
          }
          ++tests;
          if (internal::Blocks(*layer.level, p, v, t)) {
            blocked = true;
            return -1.0;
          }
          return 1.0;
        });
    if (blocked) return true;
  }
  return false;
}

}  // namespace

VisibilityScratch::VisibilityScratch(int32_t max_targets, int32_t max_occluders)
    : max_targets_(std::max(max_targets, int32_t{0})),
      max_occluders_(std::max(max_occluders, int32_t{0})) {
  occluders_.reserve(max_occluders_);
  entries_.reserve(static_cast<size_t>(max_occluders_) * kEntriesPerOccluder);
  bins_.resize(kBins);
  fine_.reserve(max_targets_);
  needs_.reserve(max_targets_);
  fine_slot_.assign(kFineBins, -1);
  targets_.reserve(max_targets_);
}

size_t VisibilityScratch::memory_bytes() const {
  return occluders_.capacity() * sizeof(Occluder) +
         entries_.capacity() * sizeof(int32_t) +
         bins_.capacity() * sizeof(Bin) + targets_.capacity() * sizeof(Target);
}

bool Sees(const Level& level, const Viewer& viewer, Vec2 target,
          const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(viewer.position) && IsValid(target));
  if (!InViewRegion(viewer, target)) return false;
  if (ViewerInside(level, viewer.position, filter)) return false;
  if (target == viewer.position) return true;
  int64_t tests = 0;
  return !WalkBlocked(level, viewer.position, target, filter, tests);
}

void VisibleTargets(const Level& level, absl::Span<const Viewer> viewers,
                    absl::Span<const Vec2> targets,
                    absl::Span<uint64_t> visible, VisibilityScratch& scratch,
                    const QueryFilter& filter) {
  using Occluder = VisibilityAccess::Occluder;
  using Bin = VisibilityAccess::Bin;
  using FineBin = VisibilityAccess::FineBin;
  using Target = VisibilityAccess::Target;
  const int32_t target_count = static_cast<int32_t>(targets.size());
  const int32_t words = VisibilityWords(target_count);
  COLLIDE_DCHECK(visible.size() >= viewers.size() * words);
  VisibilityScratch::Counts& counts = VisibilityAccess::counts(scratch);
  counts = {};
  std::vector<Occluder>& occluders = VisibilityAccess::occluders(scratch);
  std::vector<int32_t>& entries = VisibilityAccess::entries(scratch);
  std::vector<Bin>& bins = VisibilityAccess::bins(scratch);
  std::vector<Target>& in_view = VisibilityAccess::targets(scratch);
  std::vector<FineBin>& fine = VisibilityAccess::fine(scratch);
  std::vector<int32_t>& fine_slot = VisibilityAccess::fine_slot(scratch);
  const bool store_targets =
      target_count <= VisibilityAccess::max_targets(scratch);
  Layer layers[2];
  const int layer_count = LayersOf(level, layers);

  for (size_t i = 0; i < viewers.size(); ++i) {
    const Viewer& viewer = viewers[i];
    const Vec2 v = viewer.position;
    uint64_t* row = visible.data() + i * words;
    std::fill(row, row + words, uint64_t{0});
    if (ViewerInside(level, v, filter)) continue;
    const auto set = [&](int32_t j) { row[j >> 6] |= uint64_t{1} << (j & 63); };
    const auto walk = [&](int32_t j) {
      ++counts.walked_targets;
      if (!WalkBlocked(level, v, targets[j], filter, counts.exact_tests)) {
        set(j);
      }
    };

    // The targets in view, their bins and the farthest per fine bin.
    for (Bin& bin : bins) bin.begin = bin.end = 0;
    fine.clear();
    int32_t pending = 0;
    if (store_targets) in_view.assign(target_count, Target{});
    for (int32_t j = 0; j < target_count; ++j) {
      const Vec2 t = targets[j];
      if (!InViewRegion(viewer, t)) continue;
      if (t == v) {
        set(j);
        continue;
      }
      if (!store_targets) {
        walk(j);
        continue;
      }
      const Vec2 d = t - v;
      const double distance_squared = LengthSquared(d);
      const double angle = PseudoAngle(d);
      const int32_t fine_index = BinOf(angle, kFineBins);
      if (fine_slot[fine_index] < 0) {
        fine_slot[fine_index] = static_cast<int32_t>(fine.size());
        FineBin bin;
        bin.blocker_far_squared = std::numeric_limits<double>::infinity();
        bin.index = fine_index;
        fine.push_back(bin);
      }
      FineBin& bin = fine[fine_slot[fine_index]];
      bin.need_squared = std::max(bin.need_squared,
                                  distance_squared * (1.0 + kDistanceMargin));
      in_view[j] = {distance_squared, BinOf(angle), fine_index};
      ++pending;
    }
    // Ascending by index (Block's binary search), then each target's slot.
    std::sort(fine.begin(), fine.end(), [](const FineBin& a, const FineBin& b) {
      return a.index < b.index;
    });
    for (int32_t k = 0; k < static_cast<int32_t>(fine.size()); ++k) {
      fine_slot[fine[k].index] = k;
    }
    for (int32_t j = 0; j < target_count && store_targets; ++j) {
      if (in_view[j].bin >= 0) in_view[j].fine = fine_slot[in_view[j].fine];
    }
    for (const FineBin& bin : fine) fine_slot[bin.index] = -1;
    if (pending == 0) continue;
    if (pending < kWalkBelow) {
      for (int32_t j = 0; j < target_count; ++j) {
        if (in_view[j].bin >= 0) walk(j);
      }
      continue;
    }

    // Gather, nearest cells first, until every bin with a target is
    // reached or closed.
    occluders.clear();
    Gatherer gatherer(v, scratch);
    gatherer.Recompute();
    bool overflow = false;
    double reached = std::numeric_limits<double>::infinity();
    for (int l = 0; l < layer_count && !overflow; ++l) {
      const Layer layer = layers[l];
      double limit = gatherer.Limit();
      // Most levels need no shape record read to know every shape occludes.
      const bool all_occlude =
          layer.removed == nullptr && filter.ignore_ids.empty() &&
          !layer.level->has_one_sided() &&
          layer.level->EveryShapePasses(filter.mask_bits, filter.category_bits,
                                        filter.group);
      layer.level->spatial_hash().VisitNear(v, limit, [&](int32_t item) {
        const Level::Primitive& p = layer.level->primitive(item);
        if ((all_occlude ||
             internal::Occludes(*layer.level, p, v, filter, layer.removed)) &&
            !gatherer.Add(*layer.level, p)) {
          overflow = true;
          return -1.0;
        }
        limit = gatherer.Limit();
        return limit;
      });
      reached = std::min(reached, limit);
    }
    counts.occluders_gathered += static_cast<int64_t>(occluders.size());

    // File the occluders into the bins' lists; one covering every bin is
    // kept apart (listed in bin 0's place once, tested for every target).
    int64_t entry_count = 0;
    for (const Occluder& o : occluders) {
      if (o.bin_count < kBins) entry_count += o.bin_count;
    }
    if (overflow || entry_count > static_cast<int64_t>(entries.capacity())) {
      for (int32_t j = 0; j < target_count; ++j) {
        if (in_view[j].bin >= 0) walk(j);
      }
      continue;
    }
    for (const Occluder& o : occluders) {
      if (o.bin_count == kBins) continue;
      for (int32_t k = 0; k < o.bin_count; ++k) {
        ++bins[(o.bin_first + k) % kBins].end;
      }
    }
    int32_t offset = 0;
    for (Bin& bin : bins) {
      bin.begin = offset;
      offset += bin.end;
      bin.end = bin.begin;
    }
    entries.resize(static_cast<size_t>(offset));
    int32_t full_count = 0;
    for (int32_t n = 0; n < static_cast<int32_t>(occluders.size()); ++n) {
      const Occluder& o = occluders[n];
      if (o.bin_count == kBins) {
        // Moved to the front of the occluder list (order is free).
        std::swap(occluders[full_count], occluders[n]);
        ++full_count;
      }
    }
    for (int32_t n = full_count; n < static_cast<int32_t>(occluders.size());
         ++n) {
      const Occluder& o = occluders[n];
      for (int32_t k = 0; k < o.bin_count; ++k) {
        Bin& bin = bins[(o.bin_first + k) % kBins];
        entries[bin.end++] = n;
      }
    }

    // Decide each pair.
    const double reached_squared = reached * reached * (1.0 - kDistanceMargin);
    for (int32_t j = 0; j < target_count; ++j) {
      const Target target = in_view[j];
      if (target.bin < 0) continue;
      const Vec2 t = targets[j];
      const Bin& bin = bins[target.bin];
      const FineBin& closer = fine[target.fine];
      if (target.distance_squared > closer.blocker_far_squared &&
          internal::CrossesProperly(v, t, closer.blocker_a, closer.blocker_b)) {
        ++counts.certified_blocked;
        continue;
      }
      if (!(target.distance_squared < reached_squared)) {
        walk(j);
        continue;
      }
      const double within = target.distance_squared * (1.0 + kDistanceMargin);
      bool blocked = false;
      const auto test = [&](const Occluder& o) {
        if (o.near_squared > within) return false;
        ++counts.exact_tests;
        return internal::Blocks(*o.level, *o.primitive, v, t);
      };
      for (int32_t n = 0; n < full_count && !blocked; ++n) {
        blocked = test(occluders[n]);
      }
      for (int32_t e = bin.begin; e < bin.end && !blocked; ++e) {
        blocked = test(occluders[entries[e]]);
      }
      if (!blocked) set(j);
    }
  }
}

}  // namespace collide
