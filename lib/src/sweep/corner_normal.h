// The contact normal of a corner-to-corner contact between two cores
// without radii, chosen once after the sweep: the edges give none, and the
// one kept must separate the pair and not point along the motion.
#ifndef COLLIDE_LIB_SRC_SWEEP_CORNER_NORMAL_H_
#define COLLIDE_LIB_SRC_SWEEP_CORNER_NORMAL_H_

#include "absl/base/attributes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "sweep/core.h"

namespace collide::internal {

// The end of core c's edge `edge` (as a feature index) within rounding of
// x, a point met on that edge, or -1. A contact strictly inside an edge has
// the edge's normal, which separates (a convex mover crossing the edge's
// line elsewhere would overlap the other core); only one at an end can be
// corner to corner. "Within rounding" is generous (1e-9 of the coordinates
// and the edge, and 1e-12 of `sweep`, the magnitude of the positions the
// contact point was computed from: a long sweep's rounding), as the test it
// gates is only a check.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline int EndAt(const Core& c, int edge, Vec2 x,
                                              Vec2 shift, double sweep) {
  const int start = c.count() == 2 ? 0 : edge;
  const int end = c.next(start);
  const Vec2 p = c.vertex(start) + shift;
  const Vec2 q = c.vertex(end) + shift;
  const double near =
      1e-9 * (MaxAbs(p) + MaxAbs(q) + MaxAbs(q - p)) + 1e-12 * sweep;
  if (MaxAbs(p - x) <= near) return start;
  if (MaxAbs(q - x) <= near) return end;
  return -1;
}

// SettleCorner's rare parts, out of line (corner_normal.cc): a
// vertex-on-edge contact within EndAt's reach of the end of its edge (a's
// vertex i and b's vertex j the corners; on_b when the edge is b's, whose
// end then becomes the contact point), and a's vertex corner_a on one of
// b's.
ABSL_ATTRIBUTE_NOINLINE void SettleEdgeEnd(const Core& a, Vec2 d, const Core& b,
                                           int i, int j, bool on_b, Hit& best);
ABSL_ATTRIBUTE_NOINLINE void SettleVertexCorner(const Core& a, Vec2 d,
                                                const Core& b, int corner_a,
                                                Hit& best);

// Without radii, a corner-to-corner contact's normal is chosen after the
// sweep (CornerNormal), once: for a's vertex corner_a meeting b (on a
// vertex of b), and for a vertex-on-edge contact (a's vertex corner_a on
// b's edge, or b's vertex corner_b on a's edge edge_a) whose normal does not
// separate the pair beyond rounding: the vertex then landed within rounding
// of the edge's end, on which the other core's edge lies (the true contact
// is corner to corner; the two sweeps' times tie to rounding and the
// edge's won). Only the tests of the common contacts inline: most sweeps
// have radii, and most contacts are clear of every end.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SettleCorner(const Core& a, Vec2 d,
                                                      const Core& b,
                                                      int corner_a,
                                                      int corner_b, int edge_a,
                                                      Hit& best) {
  const auto sweep = [&] {
    return MaxAbs(a.vertex(0)) + MaxAbs(b.vertex(0)) +
           best.fraction * MaxAbs(d);
  };
  if (corner_b >= 0) {
    if (a.count() < 2) return;
    const int i =
        EndAt(a, edge_a, b.vertex(corner_b), best.fraction * d, sweep());
    if (i >= 0) SettleEdgeEnd(a, d, b, i, corner_b, /*on_b=*/false, best);
    return;
  }
  if (best.feature.type == FeatureType::kVertex) {
    SettleVertexCorner(a, d, b, corner_a, best);
    return;
  }
  if (best.feature.type != FeatureType::kEdge || b.count() < 2) return;
  const int j = EndAt(b, best.feature.index, best.point, Vec2{}, sweep());
  if (j >= 0) SettleEdgeEnd(a, d, b, corner_a, j, /*on_b=*/true, best);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_CORNER_NORMAL_H_
