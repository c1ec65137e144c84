// Internal: certified bounds on the distance between two posed turning
// shapes (pairs/turning_pose.h), and certificates of contact.
//
// Every bound accounts for the poses' error bounds and for the rounding of
// the double operations that compute it (u = 2^-53 per operation, summed
// with generous constants over the pair's size), so a positive lower bound
// proves the true shapes disjoint and a contact certificate proves them
// touching or overlapping; neither is ever decided by a tolerance.
#ifndef COLLIDE_LIB_SRC_PAIRS_TURNING_GAP_H_
#define COLLIDE_LIB_SRC_PAIRS_TURNING_GAP_H_

#include "collide/vec2.h"
#include "pairs/turning_pose.h"

namespace collide::internal {

struct TurnGap {
  // The true distance (hulls' distance minus both radii, 0 when they
  // overlap) is >= lower; lower <= 0 proves nothing.
  double lower = 0.0;
  // The true distance is <= max(upper, 0); upper <= 0 proves contact.
  double upper = 0.0;
  // The computed nearest points of the two hulls.
  Vec2 on_a;
  Vec2 on_b;
  // From a towards b: the normal of the edge holding the nearest point, or
  // the difference of two nearest vertices.
  Vec2 axis;
  // From the nearest pair's vertex towards its edge's two ends (oriented
  // from a towards b).
  Vec2 end_axes[2];
  // When lower > 0: a unit axis (from a towards b) on which the hulls'
  // projections are apart, and the error bound that test allowed.
  Vec2 separating;
  double errors = 0.0;
};

// The hull distance is the smallest distance from a vertex of one hull to
// an edge of the other once the hulls are known to be disjoint; they are
// proved disjoint by the gap between their projections on the axis of
// those nearest points.
TurnGap GapBetween(const TurnPose& a, const TurnPose& b);

// For a gap with lower > 0: a share of the step s such that the shapes
// stay disjoint on [t, t + s] (0 when none is proved): the projected gap
// on gap.separating, with the axis fixed in the level or turning with
// either shape, bounded below by its first-order motion and a bound on its
// curvature (the rotations' centripetal terms, and in a turning frame the
// Coriolis term); the largest of the three, or the first one found above
// `enough` (the caller needs no more than that). Near a contact it advances
// like Newton's method on that gap rather than by lower / L.
double SeparatedFor(const TurnPose& a, const TurnBody& body_a,
                    const TurnPose& b, const TurnBody& body_b,
                    const TurnGap& gap, double enough);

// True when the true shapes touch or overlap: gap.upper <= 0, a vertex of
// one strictly inside the other polygon, or an edge of one properly
// crossing an edge of the other, each by more than its error bound.
bool CertainlyInContact(const TurnPose& a, const TurnPose& b,
                        const TurnGap& gap);

// For a point against a segment, both without radius (one pose of count
// 1 and one of count 2): true when the point is certainly on opposite
// sides of the segment's line at the two fractions while its projection
// stays inside the segment throughout, so it crossed the segment in
// between. `motion` bounds how far any vertex of either shape moves
// between the two fractions.
bool CertainlyCrossed(const TurnPose& a0, const TurnPose& b0,
                      const TurnPose& a1, const TurnPose& b1, double motion);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_PAIRS_TURNING_GAP_H_
