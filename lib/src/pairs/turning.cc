// Turning pairs: conservative advancement on a certified distance lower
// bound, then a certified contact at the bracket's end.
//
// Motion bound: a point of a shape turning at angle per step about a pivot
// that translates by T moves at speed |T + angle * perp(x - pivot)| <=
// |T| + |angle| * reach, so the distance between the two shapes changes at
// most at rate L = |T_a - T_b| + |angle_a| reach_a + |angle_b| reach_b. A
// certified lower bound g > 0 at fraction t therefore proves them disjoint
// on [t, t + g / L): each step advances by that much (or further, by the
// separating axis's own bound, pairs/turning_gap.h), and the steps cover
// [0, fraction_lo) without a gap. Swept bounding disks
// (pairs/turning_window.h) first narrow the fractions where contact is
// possible, and answer most far-apart pairs without an evaluation. Once a step
// falls below a quarter of the bracket width the contact is near: a certified
// contact at fraction_lo + kTurnBracketWidth closes the bracket; a lower bound
// that stops being positive (the gap is below the rounding of the pair's size)
// ends in kNearContact. Every path counts its evaluations against
// kMaxTurnIterations.
#include "collide/turning.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include "collide/dcheck.h"
#include "collide/toi.h"
#include "pairs/turning_gap.h"
#include "pairs/turning_pose.h"
#include "pairs/turning_start.h"
#include "pairs/turning_window.h"

namespace collide {
namespace {

using internal::kUnitRoundoff;
using internal::TurnBody;
using internal::TurnGap;
using internal::TurnPose;

TurnBody BodyOf(const Turning<Vec2>& t) {
  return internal::MakeTurnBody(&t.shape, 1, 0.0, t.pivot, t.translation,
                                t.angle);
}
TurnBody BodyOf(const Turning<Segment>& t) {
  const Vec2 v[2] = {t.shape.p1, t.shape.p2};
  return internal::MakeTurnBody(v, 2, 0.0, t.pivot, t.translation, t.angle);
}
TurnBody BodyOf(const Turning<Circle>& t) {
  return internal::MakeTurnBody(&t.shape.center, 1, t.shape.radius, t.pivot,
                                t.translation, t.angle);
}
TurnBody BodyOf(const Turning<Capsule>& t) {
  const Vec2 v[2] = {t.shape.p1, t.shape.p2};
  return internal::MakeTurnBody(v, 2, t.shape.radius, t.pivot, t.translation,
                                t.angle);
}
TurnBody BodyOf(const Turning<ConvexPolygon>& t) {
  return internal::MakeTurnBody(t.shape.vertices.data(), t.shape.count, 0.0,
                                t.pivot, t.translation, t.angle);
}

Vec2 FirstVertex(Vec2 point) { return point; }
Vec2 FirstVertex(Segment segment) { return segment.p1; }
Vec2 FirstVertex(Circle circle) { return circle.center; }
Vec2 FirstVertex(const Capsule& capsule) { return capsule.p1; }
Vec2 FirstVertex(const ConvexPolygon& polygon) { return polygon.vertices[0]; }

int32_t VerticesOf(Vec2 point, Vec2* out) {
  out[0] = point;
  return 1;
}
int32_t VerticesOf(Segment segment, Vec2* out) {
  out[0] = segment.p1;
  out[1] = segment.p2;
  return 2;
}
int32_t VerticesOf(Circle circle, Vec2* out) {
  return VerticesOf(circle.center, out);
}
int32_t VerticesOf(const Capsule& capsule, Vec2* out) {
  return VerticesOf(Segment{capsule.p1, capsule.p2}, out);
}
int32_t VerticesOf(const ConvexPolygon& polygon, Vec2* out) {
  for (int32_t i = 0; i < polygon.count; ++i) out[i] = polygon.vertices[i];
  return polygon.count;
}

// The translation casts of toi.h for the same pair: a point mover is a
// ray, a segment mover a capsule of radius 0, a point target under a ray a
// circle of radius 0.
template <typename Mover, typename Target>
std::optional<Hit> Translate(const Turning<Mover>& mover,
                             const Turning<Target>& target,
                             const CastOptions& options) {
  const Moving<Target> moving{target.shape, target.translation};
  if constexpr (std::is_same_v<Mover, Vec2>) {
    const RayInput ray{mover.shape, mover.translation};
    if constexpr (std::is_same_v<Target, Vec2>) {
      return CastRay(
          ray, Moving<Circle>{Circle{target.shape, 0.0}, target.translation},
          options);
    } else {
      return CastRay(ray, moving, options);
    }
  } else if constexpr (std::is_same_v<Mover, Segment>) {
    const CapsuleCast cast{Capsule{mover.shape.p1, mover.shape.p2, 0.0},
                           mover.translation};
    return CastCapsule(cast, moving, options);
  } else if constexpr (std::is_same_v<Mover, Circle>) {
    return CastCircle(CircleCast{mover.shape, mover.translation}, moving,
                      options);
  } else if constexpr (std::is_same_v<Mover, Capsule>) {
    return CastCapsule(CapsuleCast{mover.shape, mover.translation}, moving,
                       options);
  } else {
    return CastPolygon(PolygonCast{mover.shape, mover.translation}, moving,
                       options);
  }
}

// The largest double below x, for finite x > 0: std::nextafter(x, 0)
// without the library call.
inline double NextDown(double x) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) - 1);
}

// t + kTurnBracketWidth rounded down, and at most max_fraction.
double BracketEnd(double t, double max_fraction) {
  double end = t + kTurnBracketWidth;
  if (end - t > kTurnBracketWidth) end = NextDown(end);
  return internal::Min(end, max_fraction);
}

TurnResult FromTranslation(const std::optional<Hit>& hit) {
  TurnResult result;
  if (!hit) return result;
  result.status = hit->status == HitStatus::kInitialOverlap
                      ? TurnStatus::kInitialOverlap
                      : TurnStatus::kHit;
  result.fraction_lo = hit->fraction;
  result.fraction_hi = hit->fraction;
  result.point = hit->point;
  result.normal = hit->normal;
  result.depth = hit->depth;
  return result;
}

// The advancement over one pair of bodies, in the frame whose origin is
// the mover's pivot at fraction 0 (`origin` in world coordinates).
class Advance {
 public:
  // start_a and start_b: the shapes at fraction 0 when neither has a
  // radius (count 0 otherwise).
  Advance(const TurnBody& a, const TurnBody& b, Vec2 origin, Vec2 b_pivot,
          const internal::StartShape& start_a,
          const internal::StartShape& start_b)
      : a_(a), b_(b), origin_(origin), start_a_(start_a), start_b_(start_b) {
    b_base_ = b_pivot - origin;
    crossing_pair_ =
        a.radius == 0.0 && b.radius == 0.0 &&
        ((a.count == 1 && b.count == 2) || (a.count == 2 && b.count == 1));
    b_base_error_ = kUnitRoundoff * internal::L1(b_base_);
    const Vec2 relative = a.translation - b.translation;
    const double slack = 1.0 + 0x1p-40;
    speed_ = (Length(relative) * (1.0 + 4.0 * kUnitRoundoff) +
              2.0 * kUnitRoundoff * internal::L1(relative) +
              std::fabs(a.angle) * a.reach + std::fabs(b.angle) * b.reach) *
             slack;
    absolute_speed_ =
        (Length(a.translation) + Length(b.translation) +
         std::fabs(a.angle) * a.reach + std::fabs(b.angle) * b.reach) *
        slack;
  }

  TurnResult Run(double max_fraction);

 private:
  struct State {
    double t = 0.0;
    TurnPose a;
    TurnPose b;
    TurnGap gap;
  };

  // The poses and gap at t, written over *s (a State is a few hundred
  // bytes: the advancement keeps two and swaps them rather than copying).
  void EvaluateInto(double t, State* s) {
    ++iterations_;
    s->t = t;
    internal::PoseInto(a_, Vec2{}, 0.0, t, &s->a);
    internal::PoseInto(b_, b_base_, b_base_error_, t, &s->b);
    s->gap = internal::GapBetween(s->a, s->b);
  }
  State Evaluate(double t) {
    State s;
    EvaluateInto(t, &s);
    return s;
  }

  // Contact certified at `end`, or a point crossing a segment between
  // `from` and `end`.
  bool ContactBy(const State& from, const State& end) const {
    if (!(end.gap.lower > 0.0) &&
        internal::CertainlyInContact(end.a, end.b, end.gap)) {
      return true;
    }
    const double motion = absolute_speed_ * (end.t - from.t) * (1.0 + 0x1p-40);
    return internal::CertainlyCrossed(from.a, from.b, end.a, end.b, motion);
  }

  // ContactBy(from, end), where the shapes are disjoint on [0, lo) (on
  // (0, lo) after a touching start) and from.t <= lo. A point crossing a
  // segment needs its side certified before the crossing, and Newton-like
  // steps may have brought `from` within rounding of the contact: half a
  // bracket before lo is still in the disjoint cover, and far enough for
  // the side to show.
  bool ContactAfter(const State& from, double lo, const State& end) {
    if (ContactBy(from, end)) return true;
    const double back = lo - 0.5 * kTurnBracketWidth;
    return crossing_pair_ && back > 0.0 && from.t > back &&
           iterations_ < kMaxTurnIterations && ContactBy(Evaluate(back), end);
  }

  TurnResult Result(TurnStatus status, double lo, double hi,
                    const TurnGap& nearest) const {
    TurnResult r;
    r.status = status;
    r.fraction_lo = lo;
    r.fraction_hi = hi;
    r.point = nearest.on_b + origin_;
    r.normal = Normalize(nearest.on_a - nearest.on_b);
    r.iterations = iterations_;
    return r;
  }

  const TurnBody& a_;
  const TurnBody& b_;
  Vec2 origin_;
  internal::StartShape start_a_;
  internal::StartShape start_b_;
  Vec2 b_base_;
  double b_base_error_ = 0.0;
  double speed_ = 0.0;
  double absolute_speed_ = 0.0;
  // A point against a segment, neither with radius: contact is a crossing.
  bool crossing_pair_ = false;
  int32_t iterations_ = 0;
  bool tried_bracket_ = false;
};

// Below this step the advancement tries the bracket past the step's end
// (Advance::Run).
inline constexpr double kTryBracketStep = 0x1p-16;

TurnResult Advance::Run(double max_fraction) {
  // Swept bounding disks: no contact outside [window.enter, window.leave].
  const internal::TurnWindow window =
      internal::SweptWindow(a_, b_, b_base_, b_base_error_, max_fraction);
  if (window.miss) return TurnResult{};
  const double last = internal::Min(max_fraction, window.leave);
  State first;
  State second;
  State* s = &first;
  State* next = &second;
  if (window.enter > 0.0) {
    // Disjoint on [0, enter]; a gap there too small to prove in double
    // (the disks' margin can be below the poses' rounding) starts over
    // from 0.
    EvaluateInto(window.enter, s);
    if (!(s->gap.lower > 0.0)) EvaluateInto(0.0, s);
  } else {
    EvaluateInto(0.0, s);
  }
  if (s->t == 0.0 && !(s->gap.lower > 0.0)) {
    if (internal::CertainlyInContact(s->a, s->b, s->gap)) {
      TurnResult r = Result(TurnStatus::kInitialOverlap, 0.0, 0.0, s->gap);
      r.depth = std::fmax(0.0, -s->gap.upper);
      return r;
    }
    // Within rounding of contact at the start: a hit at 0 only if contact
    // is certified within the first bracket width (turning or moving in).
    const double end = internal::Min(kTurnBracketWidth, max_fraction);
    if (end > 0.0 && ContactBy(*s, Evaluate(end))) {
      return Result(TurnStatus::kInitialOverlap, 0.0, end, s->gap);
    }
    // Turning or moving apart from a touch, proved exactly for shapes
    // without radius: not a hit; the advancement resumes where the gap
    // is proved positive again. Touching at 0 itself is excluded by the
    // touching-start rule.
    const double apart = start_a_.count > 0
                             ? internal::LeavesContactFor(start_a_, start_b_)
                             : 0.0;
    if (!(apart > 0.0)) {
      TurnResult r = Result(TurnStatus::kNearContact, 0.0, 0.0, s->gap);
      r.gap_bound = std::fmax(0.0, s->gap.upper);
      return r;
    }
    if (apart >= last) {
      TurnResult r;
      r.iterations = iterations_;
      return r;
    }
    EvaluateInto(apart, s);
    if (!(s->gap.lower > 0.0)) {
      TurnResult r = Result(TurnStatus::kNearContact, apart, apart, s->gap);
      r.gap_bound = std::fmax(0.0, s->gap.upper);
      return r;
    }
  }
  // Invariant: the shapes are disjoint on [0, s->t] (on (0, s->t] after a
  // touching start that moves apart) and after window.leave, and
  // s->gap.lower > 0; covering [s->t, last] is a miss.
  while (iterations_ < kMaxTurnIterations) {
    // The step taken is the larger of the motion bound's and the
    // separating axis's; once either covers the rest the pair is a miss,
    // so the dearer axis bound is skipped, or cut short, when it cannot
    // change that.
    const double remaining = (last - s->t) * (1.0 + 0x1p-40);
    const double linear = s->gap.lower / speed_ * (1.0 - 0x1p-20);
    const double step =
        remaining < linear
            ? linear
            : internal::Max(linear, internal::SeparatedFor(s->a, a_, s->b, b_,
                                                           s->gap, remaining));
    if (remaining < step) {
      TurnResult r;
      r.iterations = iterations_;
      return r;
    }
    if (step < 0.25 * kTurnBracketWidth) {
      const State end = Evaluate(BracketEnd(s->t, max_fraction));
      if (ContactAfter(*s, s->t, end)) {
        return Result(TurnStatus::kHit, s->t, end.t, s->gap);
      }
    }
    // The cover ends at t + lower / L > t + step; a sum rounded above
    // t + step (possible when step is below an ulp of t times 2^20) is
    // moved one ulp back, which the exact difference next_t - t detects.
    double next_t = s->t + step;
    if (next_t - s->t > step) next_t = NextDown(next_t);
    if (!(next_t > s->t)) break;
    // Near a crossing contact the steps converge like Newton's method:
    // after a step below kTryBracketStep the contact usually lies within
    // a bracket's width past next_t (the remaining error goes as the
    // step's square). So, once per query, the bracket [next_t, next_t +
    // width] is tried at once (the shapes are disjoint on [0, next_t)); a
    // graze that converges slowly fails it and goes on step by step,
    // having spent one evaluation on the try.
    if (!tried_bracket_ && step < kTryBracketStep &&
        iterations_ < kMaxTurnIterations) {
      tried_bracket_ = true;
      const double hi = BracketEnd(next_t, max_fraction);
      if (hi > next_t) {
        const State end = Evaluate(hi);
        if (ContactAfter(*s, next_t, end)) {
          return Result(TurnStatus::kHit, next_t, hi, s->gap);
        }
        if (iterations_ >= kMaxTurnIterations) break;
      }
    }
    EvaluateInto(next_t, next);
    if (next->gap.lower > 0.0) {
      std::swap(s, next);
      continue;
    }
    // Disjoint on [0, next_t); the gap there is within rounding of 0.
    const double hi = BracketEnd(next_t, max_fraction);
    if (internal::CertainlyInContact(next->a, next->b, next->gap)) {
      return Result(TurnStatus::kHit, next_t, next_t, s->gap);
    }
    if (hi > next_t && iterations_ < kMaxTurnIterations) {
      const State end = Evaluate(hi);
      if (ContactAfter(*s, next_t, end)) {
        return Result(TurnStatus::kHit, next_t, hi, next->gap);
      }
    }
    TurnResult r = Result(TurnStatus::kNearContact, next_t, next_t, next->gap);
    r.gap_bound = std::fmax(0.0, next->gap.upper);
    return r;
  }
  if (iterations_ >= kMaxTurnIterations) {
    return Result(TurnStatus::kUndecided, s->t, s->t, s->gap);
  }
  TurnResult r = Result(TurnStatus::kNearContact, s->t, s->t, s->gap);
  r.gap_bound = std::fmax(0.0, s->gap.upper);
  return r;
}

}  // namespace

template <typename Shape>
bool IsValid(const Turning<Shape>& turning) {
  return IsValid(turning.shape) && IsInRange(turning.translation) &&
         IsInRange(turning.pivot) && std::isfinite(turning.angle) &&
         std::fabs(turning.angle) <= kMaxTurnAngle;
}

bool IsValid(const TurnOptions& options) {
  return options.max_fraction >= 0.0 && options.max_fraction <= 1.0;
}

template <typename Mover, typename Target>
TurnResult CastTurning(const Turning<Mover>& mover,
                       const Turning<Target>& target,
                       const TurnOptions& options) {
  COLLIDE_DCHECK(IsValid(mover) && IsValid(target) && IsValid(options));
  if (mover.angle == 0.0 && target.angle == 0.0) {
    return FromTranslation(Translate(
        mover, target, CastOptions{.max_fraction = options.max_fraction}));
  }
  // A shape that does not turn may take any pivot: its first vertex keeps
  // the pair's frame, and so the rounding, at the pair's own scale.
  Turning<Mover> m = mover;
  Turning<Target> t = target;
  if (m.angle == 0.0) m.pivot = FirstVertex(m.shape);
  if (t.angle == 0.0) t.pivot = FirstVertex(t.shape);
  const TurnBody a = BodyOf(m);
  const TurnBody b = BodyOf(t);
  Vec2 a_vertices[kMaxPolygonVertices];
  Vec2 b_vertices[kMaxPolygonVertices];
  internal::StartShape start_a;
  internal::StartShape start_b;
  if (a.radius == 0.0 && b.radius == 0.0) {
    start_a = {a_vertices, VerticesOf(m.shape, a_vertices),
               m.pivot,    m.translation,
               m.angle,    a.reach};
    start_b = {b_vertices, VerticesOf(t.shape, b_vertices),
               t.pivot,    t.translation,
               t.angle,    b.reach};
  }
  Advance advance(a, b, m.pivot, t.pivot, start_a, start_b);
  return advance.Run(options.max_fraction);
}

#define COLLIDE_TURNING_PAIR(M, T)                                            \
  template TurnResult CastTurning<M, T>(const Turning<M>&, const Turning<T>&, \
                                        const TurnOptions&);
#define COLLIDE_TURNING_ROW(M)           \
  COLLIDE_TURNING_PAIR(M, Vec2)          \
  COLLIDE_TURNING_PAIR(M, Segment)       \
  COLLIDE_TURNING_PAIR(M, Circle)        \
  COLLIDE_TURNING_PAIR(M, Capsule)       \
  COLLIDE_TURNING_PAIR(M, ConvexPolygon) \
  template bool IsValid<M>(const Turning<M>&);
COLLIDE_TURNING_ROW(Vec2)
COLLIDE_TURNING_ROW(Segment)
COLLIDE_TURNING_ROW(Circle)
COLLIDE_TURNING_ROW(Capsule)
COLLIDE_TURNING_ROW(ConvexPolygon)
#undef COLLIDE_TURNING_ROW
#undef COLLIDE_TURNING_PAIR

}  // namespace collide
