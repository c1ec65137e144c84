// A high-precision oracle for turning pairs (collide/turning.h), written
// apart from lib/: MPFR interval arithmetic at 256 bits with directed
// rounding, so every bound it derives is rigorous for the exact double
// inputs (sine and cosine of the exact product angle * t included).
//
// It brackets the first contact the way a careful person would, with far
// more precision than double: conservative advancement on a rigorous
// distance lower bound (the gap between projections on an axis, divided by
// the axis' length) with a rigorous motion bound, down to steps of
// kOracleWidth, then a contact certificate (a vertex strictly inside, edges
// properly crossing, a nearest pair within the radii, a point crossing a
// segment between two fractions). Exact touches that never go in (a tip
// through a vertex, a tangent) are bracketed to where the gap is below
// 2^-160 of the pair's size and answered kNear.
#ifndef COLLIDE_TESTS_LIB_ORACLE_TURNING_ORACLE_H_
#define COLLIDE_TESTS_LIB_ORACLE_TURNING_ORACLE_H_

#include <vector>

#include "collide/vec2.h"

namespace collide::oracle {

// A shape as a convex vertex cloud with a radius (a point or circle has
// one vertex, a segment or capsule two, a polygon 3 to 8 counter-clockwise)
// and its motion (turning.h's model).
struct TurnShape {
  std::vector<Vec2> vertices;
  double radius = 0.0;
  Vec2 pivot;
  Vec2 translation;
  double angle = 0.0;
};

inline constexpr double kOracleWidth = 0x1p-44;

enum class OracleKind {
  kMiss,       // disjoint on [0, max_fraction]
  kHit,        // disjoint on [0, lo), contact within [lo, hi]
  kNear,       // disjoint on [0, lo), gap at lo below 2^-160 of the size
  kUndecided,  // disjoint on [0, lo), evaluation budget spent
};

struct OracleAnswer {
  OracleKind kind = OracleKind::kMiss;
  double lo = 0.0;
  double hi = 0.0;
  int evaluations = 0;
  // 0, or kOracleSkip after a touching start that does not go in: the
  // answer then speaks of [kOracleSkip, max_fraction] only (whether the
  // shapes separate at once is the service's exact decision at fraction 0,
  // which the unit tests check).
  double judged_from = 0.0;
};

inline constexpr double kOracleSkip = 0x1p-30;

OracleAnswer TurningOracle(const TurnShape& a, const TurnShape& b,
                           double max_fraction, int max_evaluations = 20000);

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_TURNING_ORACLE_H_
