// How a cast's pair of cores starts, before any motion: clear, within the
// skin (closing or not), touching (moving in or not) or overlapping. Most
// casts start well clear, which StartsClear proves cheaply inline; every
// other start is classified exactly, out of line (start_state.cc).
#ifndef COLLIDE_LIB_SRC_SWEEP_START_STATE_H_
#define COLLIDE_LIB_SRC_SWEEP_START_STATE_H_

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "sweep/core.h"
#include "sweep/separation.h"
#include "sweep/vertex_misses.h"

namespace collide::internal {

// Whether some edge line separates the cores by more than threshold: a
// cheap proof that they start clear, stopping at the first such axis. Only
// a certain answer counts: the distances must exceed threshold (a rounded
// sum of radii and skin, grown by its own rounding) by their rounding bound
// (the rounded normal's few ulps and the dot product's, against the
// offsets' size).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool AxesClearOf(const Core& a,
                                                     const Core& b,
                                                     double threshold) {
  // For an edge's own outward normal, its core reaches no further than the
  // edge's line, so one side of each axis is enough: two convex cores are
  // apart exactly when one lies beyond an edge line of the other. (Collinear
  // segments, apart only along their direction, are left to the exact
  // classification.) Every offset between the cores' vertices is within
  // twice `reach` (max norm) of zero, which bounds all the rounding at once.
  const Vec2 origin = b.vertex(0);
  double reach = 0.0;
  for (int k = 0; k < a.count(); ++k) {
    reach = std::max(reach, MaxAbs(a.vertex(k) - origin));
  }
  for (int k = 1; k < b.count(); ++k) {
    reach = std::max(reach, MaxAbs(b.vertex(k) - origin));
  }
  const double limit =
      threshold * (1.0 + kFilterRoundings) + 4.0 * kFilterRoundings * reach;
  const auto beyond_edges = [limit](const Core& core, const Core& other) {
    for (int i = 0; i < core.edge_count(); ++i) {
      const Vec2 n = core.normal(i);
      const Vec2 v = core.vertex(i);
      double nearest = kInfinity;
      for (int k = 0; k < other.count(); ++k) {
        nearest = std::min(nearest, Dot(other.vertex(k) - v, n));
      }
      if (nearest > limit) return true;
    }
    return false;
  };
  return beyond_edges(a, b) || beyond_edges(b, a);
}

// A cheap lower bound on the distance from p to core b certainly exceeds
// `threshold`: a polygon's edge-plane distances and a segment's line
// distance never exceed the true distance. Each is taken less its rounding
// bound (see AxesClearOf).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool PointClearOf(Vec2 p, const Core& b,
                                                      double threshold) {
  const double limit = threshold * (1.0 + kFilterRoundings);
  if (b.count() == 1) {
    return LengthSquared(p - b.vertex(0)) * (1.0 - kFilterRoundings) >
           limit * limit;
  }
  if (b.count() == 2) {
    const Vec2 m = p - b.vertex(0);
    if (std::abs(Dot(m, b.normal(0))) >
        limit + kFilterRoundings * (std::abs(m.x) + std::abs(m.y))) {
      return true;
    }
    // Within the band around the line: beyond an end (certainly, the
    // projection's rounding allowed for) the distance is the end's.
    const Vec2 e = b.vertex(1) - b.vertex(0);
    const double along = Dot(m, e);
    const double along_error =
        kFilterRoundings * (std::abs(m.x * e.x) + std::abs(m.y * e.y));
    const double length_squared = Dot(e, e);
    Vec2 end_offset;
    if (along < -along_error) {
      end_offset = m;
    } else if (along - length_squared >
               along_error + kFilterRoundings * length_squared) {
      end_offset = p - b.vertex(1);
    } else {
      return false;
    }
    return LengthSquared(end_offset) * (1.0 - kFilterRoundings) > limit * limit;
  }
  for (int i = 0; i < b.count(); ++i) {
    const Vec2 m = p - b.vertex(i);
    if (Dot(m, b.normal(i)) >
        limit + kFilterRoundings * (std::abs(m.x) + std::abs(m.y))) {
      return true;
    }
  }
  return false;
}

// A candidate for the nearest pair of two apart cores: a vertex of one
// against a vertex of the other, or against the interior of an edge of the
// other onto which it projects strictly inside (the distance between convex
// sets is always reached at one of these).
struct Candidate {
  Vec2 p;      // the vertex
  Vec2 e0;     // the other core's vertex, or its edge's start
  Vec2 e1;     // the edge's end (edge candidates)
  bool edge;   // vertex against edge
  int w_sign;  // sign of d . w, w the difference from b's point to a's
  int side;    // +1 when p is a's vertex, -1 when b's
};

// How a pair starts, before any motion.
enum class StartKind {
  kClear,            // farther apart than the skin: the sweep decides
  kSkinLeaving,      // within the skin, not closing
  kSkinApproaching,  // within the skin and closing: a kHit at fraction 0
  kTouchingLeaving,  // in contact, moving away or along
  kTouchingIn,       // in contact and moving further in
  kOverlap,          // overlapping beyond rounding
};

struct StartState {
  StartKind kind = StartKind::kClear;
  Separation separation;
  double gap = 0.0;  // between the shapes, radii included
};

// The start state, decided exactly (exact/sign.h): overlapping, touching or
// apart by signs of the cores' exact geometry against the exact sum of the
// radii (and skin), and moving in or closer by the sign of the gap's
// derivative at t = 0. No tolerance, nothing scaled by the translation.
// For a start in the skin, *skin_nearest (when given) receives the nearest
// candidate pair that decided closing or not, so that a caller taking the
// gap over several cores (a concave polygon's edges) can rank them exactly.
ABSL_ATTRIBUTE_NOINLINE StartState
ClassifyStartExact(const Core& a, const Motion& motion, const Core& b,
                   const CastOptions& options, Candidate* skin_nearest);

// Whether the cores certainly start farther apart than `clearance` (the sum
// of the radii and the skin, as Grow rounds it): most casts start well
// clear, which the shadows, a plane or an axis test prove cheaply (each
// only when certain, rounding included), skipping the exact classification
// (out of line: it is rare).
inline bool StartsClear(const Core& a, const Core& b, double clearance,
                        const Shadow& shadow) {
  return ShadowsApart(shadow, clearance) ||
         (a.count() == 1 ? PointClearOf(a.vertex(0), b, clearance)
                         : AxesClearOf(a, b, clearance));
}

// Exact comparison of two candidates' squared distances: the sign of
// dist(x)^2 - dist(y)^2.
int CompareCandidates(const Candidate& x, const Candidate& y);

// The hit at fraction 0 a start state calls for, if any.
std::optional<Hit> StartHit(const StartState& state, const Core& b,
                            const CastOptions& options);

// Whether start state x makes a better fraction-0 answer than y (both
// giving a hit): deeper overlap first, then contact, then the nearest point
// within the skin.
bool BetterStart(const StartState& x, const StartState& y);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_START_STATE_H_
