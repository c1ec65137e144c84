// Internal: one viewer's targets ordered by direction, for VisibleTargets.
// An occluder is tested against the unresolved targets in the directions
// it covers and beyond its nearest point, and hides those it blocks.
#ifndef COLLIDE_LIB_SRC_VISIBILITY_TARGET_FAN_H_
#define COLLIDE_LIB_SRC_VISIBILITY_TARGET_FAN_H_

#include <algorithm>
#include <cstdint>
#include <limits>

#include "collide/level.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "visibility/sight_arcs.h"
#include "visibility/sight_line.h"

namespace collide::internal {

// A target of the current viewer.
struct FanSlot {
  double angle = 0.0;             // pseudo-angle of t - v, in [0, 4)
  double distance_squared = 0.0;  // |t - v|^2, rounded
  int32_t index = 0;              // into the query's targets
  int32_t ring = 0;               // ring of cells around the viewer
  int32_t bin = 0;                // direction bin
};

// Bins per viewer: the power of two at or above its targets, at least
// this many.
inline constexpr int32_t kMinFanBins = 16;
// Rings counted per target; a farther target counts as the last.
inline constexpr int32_t kFanRings = 256;

inline int32_t FanBinCount(int32_t targets, int32_t capacity) {
  int32_t bins = kMinFanBins;
  while (bins < targets && bins < capacity) bins *= 2;
  return bins;
}

inline int32_t FanBinOf(double angle, int32_t bins) {
  const int32_t bin = static_cast<int32_t>(angle * (bins * 0.25));
  return std::clamp(bin, int32_t{0}, bins - 1);
}

// The working arrays, owned by the caller's scratch: slots (targets),
// begin (bins + 1), skip (targets + 1), ring_counts (kFanRings).
struct FanArrays {
  FanSlot* slots;
  int32_t* begin;
  int32_t* skip;
  int32_t* ring_counts;
};

// What a fan's work counts.
struct FanCounts {
  int64_t exact_tests = 0;
  int64_t hidden = 0;
};

class TargetFan {
 public:
  TargetFan(const FanArrays& arrays, Vec2 viewer, const Vec2* targets,
            FanCounts& counts)
      : v_(viewer),
        targets_(targets),
        slots_(arrays.slots),
        begin_(arrays.begin),
        skip_(arrays.skip),
        ring_counts_(arrays.ring_counts),
        counts_(counts) {}

  // Starts a viewer's targets in `bins` bins (a power of two); each is then
  // counted, and Load orders them.
  void Begin(int32_t bins) {
    bins_ = bins;
    std::fill(begin_, begin_ + bins + 1, 0);
    std::fill(ring_counts_, ring_counts_ + kFanRings, 0);
  }
  void Count(const FanSlot& s) {
    ++begin_[s.bin + 1];
    ++ring_counts_[s.ring];
  }
  // Orders loaded[0, n) (targets other than the viewer's position, each
  // counted) by bin.
  void Load(const FanSlot* loaded, int32_t n) {
    n_ = n;
    active_ = n;
    for (int32_t b = 0; b < bins_; ++b) begin_[b + 1] += begin_[b];
    // Filling advances begin_[b] to the start of bin b + 1; shifted back.
    for (int32_t i = 0; i < n; ++i) slots_[begin_[loaded[i].bin]++] = loaded[i];
    for (int32_t b = bins_; b > 0; --b) begin_[b] = begin_[b - 1];
    begin_[0] = 0;
    for (int32_t i = 0; i <= n; ++i) skip_[i] = i;
    ring_ = -1;
    outside_ = n;
  }

  int32_t size() const { return n_; }
  int32_t active() const { return active_; }
  // Unresolved targets beyond the last ring read.
  int32_t outside() const { return outside_; }
  // Ring `ring` has been read: its targets are no longer beyond.
  void RingRead(int32_t ring) {
    ring_ = ring;
    outside_ -= ring_counts_[ring];
  }

  // The first unresolved slot at or after i (size() when none).
  int32_t Next(int32_t i) {
    while (skip_[i] != i) {
      skip_[i] = skip_[skip_[i]];
      i = skip_[i];
    }
    return i;
  }
  const FanSlot& slot(int32_t i) const { return slots_[i]; }
  bool Resolved(int32_t i) const { return skip_[i] != i; }
  Vec2 target(const FanSlot& s) const { return targets_[s.index]; }
  void Resolve(int32_t i) {
    const FanSlot& s = slots_[i];
    --ring_counts_[s.ring];
    if (s.ring > ring_) --outside_;
    --active_;
    skip_[i] = i + 1;
  }

  // Tests primitive p of `level` (an occluder for this viewer) against the
  // unresolved targets in its directions and beyond its nearest point;
  // those it blocks are resolved (hidden).
  //
  // Segments and axis-aligned boxes seen from outside (the common
  // occluders) also hide without a per-target exact test a target whose
  // direction lies strictly inside theirs and whose distance exceeds their
  // farthest point's: the sight line then crosses a segment at a point
  // interior to both, or enters a box's interior, which blocks by the
  // rules. "Strictly" and "exceeds" hold by margins (kAngleMargin and
  // kDistanceMargin, thrice) far beyond the rounding of the pseudo-angles
  // and squared distances (a few ulps: each comes from differences of the
  // inputs, which are rounded once). Anything nearer a margin goes to the
  // exact test.
  void Apply(const Level& level, const Level::Primitive& p) {
    if (SegmentKind(p.kind)) {
      const Arc arc = SegmentArc(v_, p.a, p.b);
      if (!arc.full) {
        const Span span = SpanOf(arc);
        if (span.Empty(*this)) return;
        const Vec2 lower{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)};
        const Vec2 upper{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)};
        const double far =
            std::max(LengthSquared(p.a - v_), LengthSquared(p.b - v_)) *
            (1.0 + 3.0 * kDistanceMargin);
        const SegmentTest test(level, p, v_);
        Run(span, BoxDistanceSquared(v_, lower, upper), far,
            [&](Vec2 t) { return test(t); });
        return;
      }
    } else if (p.kind == Level::PrimitiveKind::kConvexPolygon &&
               p.box_start >= 0) {
      // An axis-aligned box: the polygon is its bounds [a, b].
      const Arc arc = BoxArc(v_, p.a, p.b);
      if (!arc.full) {
        const Span span = SpanOf(arc);
        if (span.Empty(*this)) return;
        const double dx =
            std::max(std::abs(p.a.x - v_.x), std::abs(p.b.x - v_.x));
        const double dy =
            std::max(std::abs(p.a.y - v_.y), std::abs(p.b.y - v_.y));
        const double far = (dx * dx + dy * dy) * (1.0 + 3.0 * kDistanceMargin);
        Run(span, BoxDistanceSquared(v_, p.a, p.b), far,
            [&](Vec2 t) { return BlocksFast(level, p, v_, t); });
        return;
      }
    }
    const Extent extent = ExtentOf(v_, p);
    const Span span = extent.arc.full ? Span{0, n_, 0, 0, 0.0, 5.0, false}
                                      : SpanOf(extent.arc);
    if (span.Empty(*this)) return;
    Run(span, extent.near_squared, kNoFar,
        [&](Vec2 t) { return BlocksFast(level, p, v_, t); });
  }

 private:
  static constexpr double kNoFar = std::numeric_limits<double>::infinity();
  static constexpr double kCertainAngle = 3.0 * kAngleMargin;

  // The slots whose bins an arc covers: [from1, to1) and, when the arc
  // wraps past angle 0, [from2, to2); the arc is the pseudo-angles lo +
  // [0, width] (mod 4).
  struct Span {
    int32_t from1, to1, from2, to2;
    double lo, width;
    bool wraps;
    bool Empty(TargetFan& fan) const {
      return fan.Next(from1) >= to1 && (!wraps || fan.Next(from2) >= to2);
    }
  };

  Span SpanOf(const Arc& arc) const {
    const double lo = arc.lo < 0.0 ? arc.lo + 4.0 : arc.lo;
    const double hi = arc.hi >= 4.0 ? arc.hi - 4.0 : arc.hi;
    const int32_t from = begin_[FanBinOf(lo, bins_)];
    const int32_t to = begin_[FanBinOf(hi, bins_) + 1];
    const double width = arc.hi - arc.lo;
    if (lo <= hi) return {from, to, 0, 0, lo, width, false};
    return {from, n_, 0, to, lo, width, true};
  }

  // QuickBlocks for a segment kind with its per-segment parts computed
  // once; what the filtered signs leave open goes to BlocksFast.
  struct SegmentTest {
    SegmentTest(const Level& of_level, const Level::Primitive& segment,
                Vec2 viewer)
        : level(of_level),
          p(segment),
          v(viewer),
          da(segment.a - viewer),
          db(segment.b - viewer),
          e(segment.b - segment.a),
          o3(FilteredCrossSign(e, viewer - segment.a)) {}
    bool operator()(Vec2 t) const {
      const Vec2 u = t - v;
      const int o1 = FilteredCrossSign(u, da);
      const int o2 = FilteredCrossSign(u, db);
      if (o1 != 0 && o1 == o2) return false;
      if (o1 * o2 < 0 && o3 != 0 && o3 * FilteredCrossSign(e, t - p.a) < 0) {
        return true;
      }
      return BlocksFast(level, p, v, t);
    }
    const Level& level;
    const Level::Primitive& p;
    Vec2 v, da, db, e;
    int o3;
  };

  // near_squared: no target nearer is blocked (it has its margin; this
  // adds the target's). far: a target strictly inside the arc and beyond
  // it is blocked (kNoFar: none is known to be).
  template <typename Blocked>
  void Run(const Span& span, double near_squared, double far,
           const Blocked& blocked) {
    const double near = near_squared * (1.0 - kDistanceMargin);
    for (int32_t i = Next(span.from1); i < span.to1; i = Next(i + 1)) {
      Visit(i, span, near, far, blocked);
    }
    if (!span.wraps) return;
    for (int32_t i = Next(span.from2); i < span.to2; i = Next(i + 1)) {
      Visit(i, span, near, far, blocked);
    }
  }

  template <typename Blocked>
  __attribute__((always_inline)) void Visit(int32_t i, const Span& span,
                                            double near, double far,
                                            const Blocked& blocked) {
    const FanSlot& s = slots_[i];
    if (s.distance_squared < near) return;
    double rel = s.angle - span.lo;
    if (rel < 0.0) {
      rel += 4.0;
    } else if (rel >= 4.0) {
      rel -= 4.0;
    }
    if (rel > span.width) return;
    if (s.distance_squared > far && rel > kCertainAngle &&
        rel < span.width - kCertainAngle) {
      ++counts_.hidden;
      Resolve(i);
      return;
    }
    ++counts_.exact_tests;
    if (blocked(targets_[s.index])) {
      ++counts_.hidden;
      Resolve(i);
    }
  }

  Vec2 v_;
  const Vec2* targets_;
  FanSlot* slots_;
  int32_t* begin_;
  int32_t* skip_;
  int32_t* ring_counts_;
  FanCounts& counts_;
  int32_t bins_ = kMinFanBins;
  int32_t n_ = 0;
  int32_t active_ = 0;
  int32_t outside_ = 0;
  int32_t ring_ = -1;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VISIBILITY_TARGET_FAN_H_
