// Internal: a pair of cores projected on its relative motion, a cheap
// proof that most vertex sweeps of a convex cast (sweep/convex_sweep.h) miss.
//
// Both cores are projected on the motion d ("along") and on LeftPerp(d)
// ("across"), unnormalised (|d| times the distances), relative to b's first
// vertex. A point moving by d keeps its across value and gains |d|^2 of
// along per unit of fraction, and the other core grown by `grow` lies within
// its own across and along ranges widened by grow |d|. So a vertex whose
// across value is outside that widened range, or whose along values over
// [0, limit] do not meet it, cannot touch that core: the whole pair misses
// when the ranges themselves are apart. The widening includes a margin of
// many rounding errors, so that only sweeps that miss by far more than
// rounding are skipped, and the answers stay those of the exact sweeps.
#ifndef COLLIDE_LIB_SRC_SWEEP_VERTEX_MISSES_H_
#define COLLIDE_LIB_SRC_SWEEP_VERTEX_MISSES_H_

#include <algorithm>
#include <cmath>

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/double_pairs.h"
#include "sweep/core.h"

namespace collide::internal {

// One core's vertices projected, relative to origin.
struct CoreShadow {
  CoreShadow() = default;
  CoreShadow(const Core& core, Vec2 origin, Vec2 d) {
    // along = m.x d.x + m.y d.y and across = Dot(m, LeftPerp(d)) =
    // m.x (-d.y) + m.y d.x, both at once (exact/double_pairs.h), each lane
    // rounded as Dot rounds it.
    const Lanes by_x = {d.x, -d.y};
    const Lanes by_y = {d.y, d.x};
    Lanes lower = {kInfinity, kInfinity};
    Lanes upper = {-kInfinity, -kInfinity};
    for (int i = 0; i < core.count(); ++i) {
      const Vec2 m = core.vertex(i) - origin;
      const Lanes p = Lanes{m.x, m.x} * by_x + Lanes{m.y, m.y} * by_y;
      along[i] = p[0];
      across[i] = p[1];
      lower = LaneMin(lower, p);
      upper = LaneMax(upper, p);
    }
    along_range = {lower[0], upper[0]};
    across_range = {lower[1], upper[1]};
  }

  double across[kMaxPolygonVertices];
  double along[kMaxPolygonVertices];
  Interval across_range;
  Interval along_range;
};

// The shadows of core a moving by d against core b, the two grown by `grow`
// in all, over fractions up to max_fraction. Only pairs of extended cores
// moving by a nonzero d have them (present): against a point core the cast
// is a single point sweep, which is no dearer than its shadow.
struct Shadow {
  // None. User-provided so that Shadow() leaves the projections unset
  // rather than zero-filling them.
  Shadow() {}
  Shadow(const Core& a_core, Vec2 d, const Core& b_core, double grow,
         double max_fraction)
      : present(true),
        a(a_core, b_core.vertex(0), d),
        b(b_core, b_core.vertex(0), d),
        length(std::sqrt(Dot(d, d))),
        travel(Dot(d, d)) {
    const double grown = grow * length;
    // Each projection is |v| |d| times a cosine, and |v| |d| is at most
    // |across| + |along| of the range ends. Twice the touching tolerance
    // (relative to these, grow and the motion) also makes the margin,
    // divided by |d|, bound the rounding of a start's gap, so shadows apart by
    // the reach prove a clear start too.
    const double extent =
        std::max({-a.across_range.lower, a.across_range.upper,
                  -b.across_range.lower, b.across_range.upper}) +
        std::max({-a.along_range.lower, a.along_range.upper,
                  -b.along_range.lower, b.along_range.upper});
    margin = 2.0 * kTouchRoundings *
             (extent + grown + std::max(1.0, max_fraction) * travel);
    reach = grown + margin;
  }

  bool present = false;
  CoreShadow a;
  CoreShadow b;
  double length;  // |d|
  double travel;  // |d|^2: along gained per unit of fraction
  double margin;  // rounding allowance, in the projections' units
  double reach;   // grow |d| + margin
};

inline Shadow ShadowOf(const Core& a, Vec2 d, const Core& b, double grow,
                       double max_fraction) {
  if (a.count() < 2 || b.count() < 2 || d == Vec2{}) return Shadow();
  return Shadow(a, d, b, grow, max_fraction);
}

// Whether the shadows show that no vertex of either core can meet the other
// within max_fraction: the cores' across ranges are apart, or b is behind a
// or beyond its reach along the motion. Such a pair also starts clear.
inline bool ShadowsMiss(const Shadow& s, double max_fraction) {
  return s.present &&
         (s.a.across_range.lower > s.b.across_range.upper + s.reach ||
          s.b.across_range.lower > s.a.across_range.upper + s.reach ||
          s.b.along_range.upper + s.reach < s.a.along_range.lower ||
          s.b.along_range.lower - s.reach >
              s.a.along_range.upper + max_fraction * s.travel);
}

// Whether b starts ahead of a along the motion by more than `clearance`: a
// clear start.
inline bool ShadowsApart(const Shadow& s, double clearance) {
  return s.present && s.b.along_range.lower - s.a.along_range.upper >
                          clearance * s.length + s.margin;
}

// Whether vertex i of `mover`, moving by sign d relative to `target` (a by
// +d, b by -d), may meet it by fraction `limit`.
inline bool VertexMayHit(const Shadow& s, const CoreShadow& mover, int i,
                         const CoreShadow& target, double sign, double limit) {
  if (!s.present) return true;
  const double along = mover.along[i];
  const double swept = along + sign * limit * s.travel;
  return mover.across[i] >= target.across_range.lower - s.reach &&
         mover.across[i] <= target.across_range.upper + s.reach &&
         std::max(along, swept) >= target.along_range.lower - s.reach &&
         std::min(along, swept) <= target.along_range.upper + s.reach;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_VERTEX_MISSES_H_
