// Two cores at rest: their signed gap, contact normal and nearest feature
// (Separate, by separating axes and vertex distances, rounded), and whether
// they come within a reach of each other, decided exactly (CoresWithin).
#ifndef COLLIDE_LIB_SRC_SWEEP_SEPARATION_H_
#define COLLIDE_LIB_SRC_SWEEP_SEPARATION_H_

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/within_distance.h"
#include "sweep/core.h"

namespace collide::internal {

// The state of a pair at rest.
struct Separation {
  // Signed gap between the cores (radii not included): > 0 apart, 0
  // touching, < 0 overlapping by that much along normal.
  double gap = 0.0;
  // Unit, from B towards A.
  Vec2 normal;
  // The point of B's core nearest A (for overlap: on B's boundary).
  Vec2 point_on_b;
  Feature feature_b;
  // True when the cores meet with no preferred side (a point on a segment,
  // collinear segments): there is no "moving in" direction.
  bool two_sided = false;
};

Separation Separate(const Core& a, const Core& b);

// The core as within_distance.h's Hull.
Hull HullOf(const Core& core);

// Whether dist(hull a, hull b) <= a.radius() + b.radius() + extra, extra
// >= 0, exactly: Separate's rounded gap decides when it is clear of the
// reach by more than its rounding, HullsWithin otherwise.
bool CoresWithin(const Core& a, const Core& b, double extra = 0.0);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_SEPARATION_H_
