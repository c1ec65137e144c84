// Internal: the decisions of a point against a deforming segment
// (pairs/deforming.cc), exactly. With m(t) = p(t) - a(t) and e(t) = b(t) -
// a(t), the point is on the segment's line where f(t) = cross(e, m) = 0 and
// on the segment there when 0 <= m.e <= e.e (and m = 0 when e = 0). Every
// such sign at a root of f is decided exactly: the polynomial is reduced
// modulo f to a linear one, whose sign at the root (-f1 +- sqrt(disc)) /
// 2 f2 is a sign of X + Y sqrt(disc), all with expansions (exact/sign.h).
// Only the root's value is rounded.
//
// Called where the double filter of pairs/deforming.cc cannot certify its
// decisions (touching starts, grazes, contacts at an end or at exactly
// max_fraction, collinear motion), so its cost is off the common path.
#ifndef COLLIDE_LIB_SRC_EXACT_DEFORMING_SEGMENT_H_
#define COLLIDE_LIB_SRC_EXACT_DEFORMING_SEGMENT_H_

#include "collide/vec2.h"

namespace collide::internal {

// The inputs: the point from origin by translation, the segment from
// (a0, b0) to (a1, b1).
struct DeformingInputs {
  Vec2 origin, translation;
  Vec2 a0, b0, a1, b1;
};

// Where on the segment a contact is.
enum class DeformingPlace { kEnd0, kEnd1, kEdge };

struct DeformingContact {
  double t = 0.0;
  DeformingPlace place = DeformingPlace::kEdge;
  // Sign of f's slope at the contact (0 at a tangency); for collinear
  // motion (f identically zero) always 0.
  int slope = 0;
  bool collinear = false;
  // m.e / e.e there when already known (kEdge), else negative.
  double along = -1.0;
};

struct DeformingDecision {
  // The point starts on the segment (f(0) = 0, on it).
  bool start_on = false;
  // f(0) exactly: the start side of the segment's line.
  int start_side = 0;
  // The first contact at 0 < t <= max_fraction, if any.
  bool hit = false;
  DeformingContact contact;
};

DeformingDecision DecideDeformingExact(const DeformingInputs& in,
                                       double max_fraction);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_DEFORMING_SEGMENT_H_
