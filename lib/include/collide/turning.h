// Time of impact of two shapes that turn while they translate, with a
// certified bracket around the first contact.
//
// Motion model (the same for both shapes of a pair): over one step the
// fraction t runs over [0, max_fraction]; the shape at t is its start pose
// rotated by t * angle radians (counter-clockwise for angle > 0) about
// pivot, then translated by t * translation. The pivot itself therefore
// moves from pivot to pivot + translation and the shape turns at constant
// angular velocity; angle may have any sign and any magnitude up to
// kMaxTurnAngle (several full turns included). angle == 0 on both shapes is
// a pure translation and is answered by the translation casts (toi.h),
// bit for bit: the bracket is then [hit.fraction, hit.fraction] and every
// field comes from that cast.
//
// The bracket contract (angle != 0 on either shape):
// - kHit: the shapes are disjoint for every t in [0, fraction_lo) and touch
//   or overlap at some t in [fraction_lo, fraction_hi], with
//   fraction_hi - fraction_lo <= kTurnBracketWidth (about 9.3e-10). Both
//   claims are certified: the true poses (exact sine and cosine of the
//   double inputs) are bounded with rigorous error bounds, never compared
//   with a tolerance.
// - kMiss: the shapes are disjoint for every t in [0, max_fraction].
// - kInitialOverlap: the shapes overlap at t = 0, or start within rounding
//   of contact and are certified in contact within [0, fraction_hi] (turning
//   or moving into the contact); fraction_lo is 0.
// - kNearContact: disjoint on [0, fraction_lo); at fraction_lo
//   (= fraction_hi) the gap is at most gap_bound, a few roundings of the
//   pair's size, and neither contact nor separation can be certified in
//   double precision: an exact touch that does not go in (a graze, a tip
//   passing exactly through a vertex, contact exactly at max_fraction), or
//   a miss by less than gap_bound. Also reported for a start within
//   rounding of contact that does not go in, unless both shapes lack a
//   radius and every touching vertex moves apart at first order (decided
//   exactly: the advancement then resumes, and the touch at 0 is not a
//   hit). A caller that must never miss a contact treats it as a hit.
// - kUndecided: the iteration bound (kMaxTurnIterations evaluations) was
//   reached: disjoint on [0, fraction_lo) is certified, nothing after it.
//   Happens for approaches much slower than the motion bound (a contact
//   point moving far slower than the fastest point of either shape) and
//   for tangential grazes of round shapes.
// No answer is wrong: kMiss is reported only when no contact exists, and a
// contact is never placed after an earlier one.
//
// point is on the target, normal a unit vector from the target towards the
// mover, both where the shapes are nearest at fraction_lo (approximate).
// Segments and points have no inside; circles, capsules and polygons are
// solid. Queries never allocate.
#ifndef COLLIDE_TURNING_H_
#define COLLIDE_TURNING_H_

#include <cstdint>

#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"

namespace collide {

// A shape (Vec2 point, Segment, Circle, Capsule or ConvexPolygon) that
// turns by angle radians about pivot while translating by translation over
// the step. Every field in level units (angle in radians).
template <typename Shape>
struct Turning {
  Shape shape;
  Vec2 translation;
  double angle = 0.0;
  Vec2 pivot;
};

// Angles beyond this magnitude (about 167,000 turns) are rejected by
// IsValid: the rotation's rounding grows with the angle.
inline constexpr double kMaxTurnAngle = 1048576.0;  // 2^20
// The widest bracket of a kHit: 2^-30 of the step.
inline constexpr double kTurnBracketWidth = 0x1p-30;
// Distance evaluations one query may spend before answering kUndecided.
inline constexpr int kMaxTurnIterations = 1024;

enum class TurnStatus : uint8_t {
  kMiss,
  kHit,
  kInitialOverlap,
  kNearContact,
  kUndecided,
};

struct TurnOptions {
  // Contacts after this share of the step are not reported; in [0, 1].
  double max_fraction = 1.0;
};

inline constexpr TurnOptions kDefaultTurnOptions{};

struct TurnResult {
  TurnStatus status = TurnStatus::kMiss;
  double fraction_lo = 0.0;
  double fraction_hi = 0.0;
  Vec2 point;
  Vec2 normal;
  // Approximate penetration at fraction 0 for kInitialOverlap, else 0.
  double depth = 0.0;
  // kNearContact: an upper bound on the gap at fraction_lo; else 0.
  double gap_bound = 0.0;
  // Distance evaluations spent (0 on the translation path).
  int32_t iterations = 0;
};

// Finite, in range (shapes.h), |angle| <= kMaxTurnAngle.
template <typename Shape>
bool IsValid(const Turning<Shape>& turning);
bool IsValid(const TurnOptions& options);

// The first contact of mover and target, both turning and translating over
// the same step (see the file comment for the model, the statuses and the
// bracket). Preconditions (COLLIDE_DCHECK): IsValid on every argument.
template <typename Mover, typename Target>
TurnResult CastTurning(const Turning<Mover>& mover,
                       const Turning<Target>& target,
                       const TurnOptions& options = kDefaultTurnOptions);

// Defined in turning.cc for every pair of the five shapes.
#define COLLIDE_TURNING_PAIR(M, T)              \
  extern template TurnResult CastTurning<M, T>( \
      const Turning<M>&, const Turning<T>&, const TurnOptions&);
#define COLLIDE_TURNING_ROW(M)           \
  COLLIDE_TURNING_PAIR(M, Vec2)          \
  COLLIDE_TURNING_PAIR(M, Segment)       \
  COLLIDE_TURNING_PAIR(M, Circle)        \
  COLLIDE_TURNING_PAIR(M, Capsule)       \
  COLLIDE_TURNING_PAIR(M, ConvexPolygon) \
  extern template bool IsValid<M>(const Turning<M>&);
COLLIDE_TURNING_ROW(Vec2)
COLLIDE_TURNING_ROW(Segment)
COLLIDE_TURNING_ROW(Circle)
COLLIDE_TURNING_ROW(Capsule)
COLLIDE_TURNING_ROW(ConvexPolygon)
#undef COLLIDE_TURNING_ROW
#undef COLLIDE_TURNING_PAIR

}  // namespace collide

#endif  // COLLIDE_TURNING_H_
