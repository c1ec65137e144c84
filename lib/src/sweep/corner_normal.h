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
// x, a point met on that edge (end -1: none); the nearer when both are. A
// contact strictly inside an edge has the edge's normal, which separates (a
// convex mover crossing the edge's line elsewhere would overlap the other
// core); only one at an end can be corner to corner. "Within rounding" is
// generous (1e-9 of the edge, 2^-40 of the coordinates: thousands of their
// ulps, and 1e-12 of `sweep`, the magnitude of the positions the contact
// point was computed from: a long sweep's rounding), as the exact test it
// gates (SettleEdgeEnd) decides; but never 1e-9 of the coordinates alone,
// which at 1e9 is two units: farther than the other end of a short edge.
struct EdgeEnd {
  int end = -1;
  int other = -1;  // the edge's other end
};
ABSL_ATTRIBUTE_ALWAYS_INLINE inline EdgeEnd EndAt(const Core& c, int edge,
                                                  Vec2 x, Vec2 shift,
                                                  double sweep) {
  const int start = c.count() == 2 ? 0 : edge;
  const int end = c.next(start);
  const Vec2 p = c.vertex(start) + shift;
  const Vec2 q = c.vertex(end) + shift;
  const double near =
      1e-9 * MaxAbs(q - p) + 0x1p-40 * (MaxAbs(p) + MaxAbs(q)) + 1e-12 * sweep;
  const double to_p = MaxAbs(p - x);
  const double to_q = MaxAbs(q - x);
  if (to_p <= near && to_p <= to_q) return {start, end};
  if (to_q <= near) return {end, start};
  return {};
}

// SettleCorner's rare parts, out of line (corner_normal.cc): a vertex-on-edge
// contact within EndAt's reach of the end of its edge (a's vertex i and b's
// vertex j the corners; on_b when the edge is b's, whose end then becomes the
// contact point; `other` the edge's other end), and a's vertex corner_a on one
// of b's. Between two polygon cores it is decided exactly: the contact found
// stands when the vertex crosses the edge's line strictly inside the edge
// (EndSide) and the edge supports the vertex's core there (EdgeSupports).
// Otherwise the true first contact is another of the two corners' (whose
// time ties with this one's to rounding: far from the origin either may win
// the sweep): b's vertex on one of a's edges at i, or a's vertex on b's
// other edge at j, whichever crosses inside its edge and is supported. The
// corners meeting exactly (or a segment core), CornerNormal chooses.
ABSL_ATTRIBUTE_NOINLINE void SettleEdgeEnd(const Core& a, const Motion& motion,
                                           const Core& b, int i, int j,
                                           int other, bool on_b, Hit& best);
ABSL_ATTRIBUTE_NOINLINE void SettleVertexCorner(const Core& a, Vec2 d,
                                                const Core& b, int corner_a,
                                                Hit& best);

// Without radii, a corner-to-corner contact's normal is chosen after the
// sweep (CornerNormal), once: for a's vertex corner_a meeting b (on a
// vertex of b), and for a vertex-on-edge contact (a's vertex corner_a on
// b's edge, or b's vertex corner_b on a's edge edge_a) that lies within
// rounding of the edge's end (SettleEdgeEnd decides it exactly). Only the
// tests of the common contacts inline: most sweeps have radii, and most
// contacts are clear of every end.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SettleCorner(
    const Core& a, const Motion& motion, const Core& b, int corner_a,
    int corner_b, int edge_a, Hit& best) {
  const Vec2 d = motion.d;
  const auto sweep = [&] {
    return MaxAbs(a.vertex(0)) + MaxAbs(b.vertex(0)) +
           best.fraction * MaxAbs(d);
  };
  if (corner_b >= 0) {
    if (a.count() < 2) return;
    const EdgeEnd i =
        EndAt(a, edge_a, b.vertex(corner_b), best.fraction * d, sweep());
    if (i.end >= 0) {
      SettleEdgeEnd(a, motion, b, i.end, corner_b, i.other, /*on_b=*/false,
                    best);
    }
    return;
  }
  if (best.feature.type == FeatureType::kVertex) {
    SettleVertexCorner(a, d, b, corner_a, best);
    return;
  }
  if (best.feature.type != FeatureType::kEdge || b.count() < 2) return;
  const EdgeEnd j = EndAt(b, best.feature.index, best.point, Vec2{}, sweep());
  if (j.end >= 0) {
    SettleEdgeEnd(a, motion, b, corner_a, j.end, j.other, /*on_b=*/true, best);
  }
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_CORNER_NORMAL_H_
