// VisibleTargets and Sees (collide/visibility.h).
//
// Per viewer, the targets share the occluders their sight lines meet. A
// target is first tried against the blockers already found for this
// viewer in its direction: occluders that blocked an earlier sight line,
// filed into the angular bins their directions cover (a conservative
// interval of a pseudo-angle, computed in double). One that blocks it by
// the exact test answers "hidden". Otherwise the target is answered as
// Sees does, by a walk of the cells along its sight line; the occluder
// that walk finds blocking is filed for the targets after it. In a dense
// level a few near occluders hide most directions, so most targets cost
// one bin lookup and one exact test instead of a walk. Only exact tests
// answer; the doubles choose the work.
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
  using Blocker = VisibilityScratch::Blocker;
  using Bin = VisibilityScratch::Bin;
  static constexpr int32_t kSlots = VisibilityScratch::kSlots;
  static std::vector<Blocker>& blockers(VisibilityScratch& s) {
    return s.blockers_;
  }
  static std::vector<Bin>& bins(VisibilityScratch& s) { return s.bins_; }
  static int32_t max_occluders(const VisibilityScratch& s) {
    return s.max_occluders_;
  }
  static VisibilityScratch::Counts& counts(VisibilityScratch& s) {
    return s.counts_;
  }
};

namespace {

// Angular bins per viewer: about one target each at 256 targets, and an
// occluder a few units away spans several.
constexpr int32_t kBins = 256;
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

// Quick answers of internal::Blocks(p, v, t) where the filtered signs
// alone decide: Apart when p lies strictly on one side of the line vt (a
// segment's two ends, or the four corners of a convex polygon's bounding
// box, which are its vertices' exact minima and maxima), Crossing when a
// segment kind crosses (v, t) properly. Both are exact when they answer;
// Unknown leaves the case to internal::Blocks.
enum class Quick { kApart, kCrossing, kUnknown };

inline bool SegmentKind(Level::PrimitiveKind kind) {
  return kind == Level::PrimitiveKind::kSegment ||
         kind == Level::PrimitiveKind::kPolylineEdge ||
         kind == Level::PrimitiveKind::kConcaveEdge;
}

inline Quick QuickBlocks(const Level::Primitive& p, Vec2 v, Vec2 t) {
  const Vec2 u = t - v;
  if (SegmentKind(p.kind)) {
    const int o1 = internal::FilteredCrossSign(u, p.a - v);
    const int o2 = internal::FilteredCrossSign(u, p.b - v);
    if (o1 != 0 && o1 == o2) return Quick::kApart;
    if (o1 * o2 >= 0) return Quick::kUnknown;
    const Vec2 e = p.b - p.a;
    const int o3 = internal::FilteredCrossSign(e, v - p.a);
    const int o4 = internal::FilteredCrossSign(e, t - p.a);
    return o3 * o4 < 0 ? Quick::kCrossing : Quick::kUnknown;
  }
  if (p.kind == Level::PrimitiveKind::kConvexPolygon) {
    const int o = internal::FilteredCrossSign(u, p.a - v);
    if (o != 0 && internal::FilteredCrossSign(u, Vec2{p.b.x, p.a.y} - v) == o &&
        internal::FilteredCrossSign(u, p.b - v) == o &&
        internal::FilteredCrossSign(u, Vec2{p.a.x, p.b.y} - v) == o) {
      return Quick::kApart;
    }
  }
  return Quick::kUnknown;
}

// Whether the filtered signs alone show (v, t) and (a, b) crossing at one
// point interior to both (internal::CrossesProperly where it is certain).
inline bool SurelyCrossesProperly(Vec2 v, Vec2 t, Vec2 a, Vec2 b) {
  const Vec2 u = t - v;
  const Vec2 e = b - a;
  return internal::FilteredCrossSign(u, a - v) *
                 internal::FilteredCrossSign(u, b - v) <
             0 &&
         internal::FilteredCrossSign(e, v - a) *
                 internal::FilteredCrossSign(e, t - a) <
             0;
}

// internal::Blocks, answered by QuickBlocks where it can. A convex polygon
// crossed properly along a segment between two of its vertices (two
// diagonals, or a triangle's edges) blocks: near the crossing the sight
// line enters the interior.
inline bool BlocksFast(const Level& level, const Level::Primitive& p, Vec2 v,
                       Vec2 t) {
  switch (QuickBlocks(p, v, t)) {
    case Quick::kApart:
      return false;
    case Quick::kCrossing:
      return true;
    case Quick::kUnknown:
      break;
  }
  if (p.kind == Level::PrimitiveKind::kConvexPolygon) {
    const ConvexPolygon& polygon = level.convex_polygon(p.shape);
    const Vec2* w = polygon.vertices.data();
    if (polygon.count >= 4 ? SurelyCrossesProperly(v, t, w[0], w[2]) ||
                                 SurelyCrossesProperly(v, t, w[1], w[3])
                           : SurelyCrossesProperly(v, t, w[0], w[1]) ||
                                 SurelyCrossesProperly(v, t, w[1], w[2])) {
      return true;
    }
  }
  return internal::Blocks(level, p, v, t);
}

// The directions primitive p covers from v, and a lower bound of its
// squared distance.
struct Extent {
  Arc arc;
  double near_squared = 0.0;
};

Extent ExtentOf(Vec2 v, const Level::Primitive& p) {
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
    case Level::PrimitiveKind::kConcaveEdge: {
      const Vec2 lower{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)};
      const Vec2 upper{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)};
      // A concave edge may answer for its whole polygon: only its own
      // directions are tried, which is enough (others walk).
      return {SegmentArc(v, p.a, p.b), BoxDistanceSquared(v, lower, upper)};
    }
    case Level::PrimitiveKind::kCircle: {
      const Vec2 r{p.radius, p.radius};
      return {BoxArc(v, p.a - r, p.a + r),
              BoxDistanceSquared(v, p.a - r, p.a + r)};
    }
    case Level::PrimitiveKind::kCapsule: {
      const Vec2 r{p.radius, p.radius};
      const Vec2 lower =
          Vec2{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)} - r;
      const Vec2 upper =
          Vec2{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)} + r;
      return {BoxArc(v, lower, upper), BoxDistanceSquared(v, lower, upper)};
    }
    case Level::PrimitiveKind::kConvexPolygon:
      // p.a and p.b are the polygon's bounding box.
      return {BoxArc(v, p.a, p.b), BoxDistanceSquared(v, p.a, p.b)};
  }
  return {};
}

// One viewer's filed blockers.
class BlockerBins {
 public:
  using Blocker = VisibilityAccess::Blocker;
  using Bin = VisibilityAccess::Bin;
  static constexpr int32_t kSlots = VisibilityAccess::kSlots;

  BlockerBins(Vec2 viewer, VisibilityScratch& scratch)
      : v_(viewer),
        blockers_(VisibilityAccess::blockers(scratch)),
        bins_(VisibilityAccess::bins(scratch)),
        max_(VisibilityAccess::max_occluders(scratch)) {
    blockers_.clear();
    for (Bin& bin : bins_) bin.count = 0;
  }

  // Files primitive p of `level`, which blocked a sight line from the
  // viewer (so it occludes for this viewer); false, filing nothing, once
  // full.
  bool File(const Level& level, const Level::Primitive& p) {
    if (static_cast<int32_t>(blockers_.size()) >= max_) return false;
    const Extent extent = ExtentOf(v_, p);
    const int32_t n = static_cast<int32_t>(blockers_.size());
    Blocker blocker;
    blocker.level = &level;
    blocker.primitive = &p;
    blocker.near_squared = extent.near_squared;
    int32_t first = 0;
    int32_t count = kBins;
    if (extent.arc.full) {
      blocker.lo = -1.0;
      blocker.hi = 5.0;
    } else {
      blocker.lo = extent.arc.lo;
      blocker.hi = extent.arc.hi;
      const double lo = blocker.lo < 0.0 ? blocker.lo + 4.0 : blocker.lo;
      first = BinOf(lo);
      const int32_t last =
          BinOf(blocker.hi >= 4.0 ? blocker.hi - 4.0 : blocker.hi);
      count = (last - first + kBins) % kBins + 1;
    }
    blockers_.push_back(blocker);
    for (int32_t k = 0; k < count; ++k) {
      Insert(bins_[(first + k) % kBins], n, blocker.near_squared);
    }
    return true;
  }

  // Whether a filed blocker blocks v -> t (t != v; angle its pseudo-angle,
  // distance_squared |t - v|^2 in double), exactly.
  bool Blocked(Vec2 t, double angle, double distance_squared,
               int64_t& tests) const {
    const Bin& bin = bins_[BinOf(angle)];
    const double within = distance_squared * (1.0 + kDistanceMargin);
    for (int32_t k = 0; k < bin.count; ++k) {
      const Blocker& b = blockers_[bin.slots[k]];
      if (b.near_squared > within) break;  // nearest first
      const bool in_arc = (angle >= b.lo && angle <= b.hi) ||
                          (angle + 4.0 >= b.lo && angle + 4.0 <= b.hi) ||
                          (angle - 4.0 >= b.lo && angle - 4.0 <= b.hi);
      if (!in_arc) continue;
      ++tests;
      if (BlocksFast(*b.level, *b.primitive, v_, t)) return true;
    }
    return false;
  }

 private:
  // Keeps a bin's blockers nearest first; a full bin drops its farthest
  // other than the newcomer (which just blocked a sight line its others
  // did not).
  void Insert(Bin& bin, int32_t n, double near_squared) {
    int32_t k = bin.count < kSlots ? bin.count++ : kSlots - 1;
    while (k > 0 && blockers_[bin.slots[k - 1]].near_squared > near_squared) {
      bin.slots[k] = bin.slots[k - 1];
      --k;
    }
    bin.slots[k] = n;
  }

  Vec2 v_;
  std::vector<Blocker>& blockers_;
  std::vector<Bin>& bins_;
  int32_t max_;
};

// The occluder blocking v -> t (v != t) that a walk of the cells along the
// sight line meets first, or none.
struct Found {
  const Level* level = nullptr;
  const Level::Primitive* primitive = nullptr;
};

// From `from` to `to`, which are v and t in either order (the rules are
// symmetric in v and t but for which shapes occlude, decided for `viewer`).
Found WalkBlocked(const Level& level, Vec2 v, Vec2 t, Vec2 viewer,
                  const QueryFilter& filter, int64_t& tests) {
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
    // Most levels need no shape record read to know every shape occludes.
    const bool all_occlude =
        layer.removed == nullptr && filter.ignore_ids.empty() &&
        !layer.level->has_one_sided() &&
        layer.level->EveryShapePasses(filter.mask_bits, filter.category_bits,
                                      filter.group);
    Found found;
    layer.level->spatial_hash().VisitSweep(
        start, t - v, 1.0, [&](int32_t item) {
          const Level::Primitive& p = layer.level->primitive(item);
          if (!all_occlude && !internal::Occludes(*layer.level, p, viewer,
                                                  filter, layer.removed)) {
            return 1.0;
          }
          ++tests;
          if (BlocksFast(*layer.level, p, v, t)) {
            found = {layer.level, &p};
            return -1.0;
          }
          return 1.0;
        });
    if (found.primitive != nullptr) return found;
  }
  return {};
}

}  // namespace

VisibilityScratch::VisibilityScratch(int32_t max_targets, int32_t max_occluders)
    : max_targets_(std::max(max_targets, int32_t{0})),
      max_occluders_(std::max(max_occluders, int32_t{0})) {
  blockers_.reserve(max_occluders_);
  bins_.resize(kBins);
}

size_t VisibilityScratch::memory_bytes() const {
  return blockers_.capacity() * sizeof(Blocker) +
         bins_.capacity() * sizeof(Bin);
}

bool Sees(const Level& level, const Viewer& viewer, Vec2 target,
          const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(viewer.position) && IsValid(target));
  if (!InViewRegion(viewer, target)) return false;
  if (ViewerInside(level, viewer.position, filter)) return false;
  if (target == viewer.position) return true;
  int64_t tests = 0;
  return WalkBlocked(level, viewer.position, target, viewer.position, filter,
                     tests)
             .primitive == nullptr;
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
  for (size_t i = 0; i < viewers.size(); ++i) {
    const Viewer& viewer = viewers[i];
    const Vec2 v = viewer.position;
    uint64_t* row = visible.data() + i * words;
    std::fill(row, row + words, uint64_t{0});
    if (ViewerInside(level, v, filter)) continue;
    BlockerBins bins(v, scratch);
    const bool limited = viewer.range.has_value() || viewer.cone.has_value();
    for (int32_t j = 0; j < target_count; ++j) {
      const Vec2 t = targets[j];
      if (limited && !InViewRegion(viewer, t)) continue;
      bool seen = t == v;
      if (!seen) {
        const Vec2 d = t - v;
        if (bins.Blocked(t, PseudoAngle(d), LengthSquared(d),
                         counts.exact_tests)) {
          ++counts.certified_blocked;
          continue;
        }
        ++counts.walked_targets;
        const Found found =
            WalkBlocked(level, v, t, v, filter, counts.exact_tests);
        seen = found.primitive == nullptr;
        if (!seen) {
          if (bins.File(*found.level, *found.primitive)) {
            ++counts.occluders_gathered;
          }
        }
      }
      if (seen) row[j >> 6] |= uint64_t{1} << (j & 63);
    }
  }
}

}  // namespace collide
