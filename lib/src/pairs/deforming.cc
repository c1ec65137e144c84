// A moving point against a segment whose endpoints
// move independently. With m(t) = p(t) - a(t) and e(t) = b(t) - a(t), both
// linear in t, the point is on the segment's line when
//   f(t) = cross(e(t), m(t)) = A t^2 + B t + C = 0,
// and on the segment itself when 0 <= m(t).e(t) <= e(t).e(t).
//
// Every decision (where the point starts, which root is the contact, whether
// it is on the segment then, whether it comes by max_fraction) is exact: a
// double evaluation with certified error bounds decides the common case,
// and where a bound cannot, exact/deforming_segment.h decides with expansions.
#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "collide/dcheck.h"
#include "collide/toi.h"
#include "exact/deforming_segment.h"
#include "exact/double_pairs.h"
#include "exact/fallback_normal.h"
#include "exact/pair_motion.h"
#include "exact/sign.h"

namespace collide {
namespace {

using internal::DeformingContact;
using internal::DeformingDecision;
using internal::DeformingPlace;

// Twice the unit roundoff: every bound below is a first-order running error
// bound, and doubling u covers its second-order terms and the rounding of
// the bound's own evaluation.
constexpr double kU = 2.0 * internal::kRoundoff;

// The motion in double, and its scale: the largest component of its six
// vectors. Worked on both components at once (exact/double_pairs.h: the same
// roundings), straight from the inputs: a pair of lanes loaded from two
// separate stores would wait for both. The filter keeps the vectors in
// lanes (its cross and dot products too): split into scalars they went
// through the stack.
struct LaneMotion {
  internal::Lanes m0, dm;  // point relative to the segment's first end
  internal::Lanes e0, de;  // the segment's direction vector
  internal::Lanes da, db;  // the ends' translations
  double scale;
};

ABSL_ATTRIBUTE_ALWAYS_INLINE inline LaneMotion LaneMotionOf(
    const RayInput& ray, const DeformingSegment& segment) {
  using internal::LaneAbs;
  using internal::LaneMax;
  using internal::Lanes;
  using internal::LanesOf;
  const Lanes a0 = LanesOf(segment.start.p1);
  const Lanes da = LanesOf(segment.end.p1) - a0;
  const Lanes db = LanesOf(segment.end.p2) - LanesOf(segment.start.p2);
  const Lanes m0 = LanesOf(ray.origin) - a0;
  const Lanes dm = LanesOf(ray.translation) - da;
  const Lanes e0 = LanesOf(segment.start.p2) - a0;
  const Lanes de = db - da;
  const Lanes most = LaneMax(LaneMax(LaneMax(LaneAbs(m0), LaneAbs(e0)),
                                     LaneMax(LaneAbs(da), LaneAbs(db))),
                             LaneMax(LaneAbs(dm), LaneAbs(de)));
  return {m0, dm, e0, de, da, db, internal::LaneLargest(most)};
}

// The same motion as vectors, for the exact path's hit.
struct Motion {
  Vec2 m0, dm;
  Vec2 e0, de;
  Vec2 da, db;
};

Motion MotionOf(const RayInput& ray, const DeformingSegment& segment) {
  const LaneMotion m = LaneMotionOf(ray, segment);
  using internal::VecOf;
  return {VecOf(m.m0), VecOf(m.dm), VecOf(m.e0),
          VecOf(m.de), VecOf(m.da), VecOf(m.db)};
}

// What the double filter decides: a miss, a hit (FilteredHit), or nothing
// (a bound leaves it to the exact path).
enum class Filtered { kMiss, kHit, kOpen };

// A contact the filter certified, on the segment's edge: its time, its
// place along the segment (m.e / e.e), the segment's direction vector e
// then, and the sign of f's slope there (never 0: not a tangency).
struct FilteredHit {
  double t;
  double along;
  Vec2 e;
  int slope;
};

// The certified double decision, for starts off the segment's line (C
// certainly nonzero); kOpen otherwise and where a bound leaves it open.
//
// Error bounds, with S the largest component of m0, e0, da, db, dm, de
// (first order in u, doubled to kU for the rest): each component of those
// is within eps = 1.5 kU S of the exact one (dm and de are differences of
// differences: up to three roundings of size <= S); a cross product of two
// of them within 4 S eps + 2 eps^2 + 2 kU S^2 <= E = 10 kU S^2, so A and C
// are within E and B within 2 E.
Filtered DecideDeformingFiltered(const LaneMotion& m,
                                 const DeformingSegment& segment,
                                 double max_fraction, FilteredHit* hit) {
  const double scale = m.scale;
  const double scale_squared = scale * scale;
  const double e = 10.0 * kU * scale_squared;
  using internal::LaneCross;
  using internal::LaneDot;
  const double c = LaneCross(m.e0, m.m0);
  // The bounds take rounding as relative: below scale 2^-240, products of
  // the inputs (S^4 in disc) can fall under the normal range, where it is
  // not, so the exact path takes those.
  if (std::abs(c) <= e || scale < 0x1p-240) return Filtered::kOpen;

  // The roots of f (ascending) and f's slope sign at the first. Each root
  // is within the formula's rounding plus f's error at |t| over slope_low
  // of an exact one, slope_low bounding |f'| near it: within
  // error_rate (r + 1)^2 for any r >= |t|.
  double first_root;
  double second_root = 0.0;
  int count;
  int first_slope;
  double slope_low;
  double error_rate;
  double a = 0.0;
  if (m.de[0] == 0.0 && m.de[1] == 0.0) {
    // A rigid or still segment, exactly when both ends' translations are
    // exact (then A = 0 and B = Cross(e0, dm)): f is linear.
    if (!internal::IsExactDifference(segment.end.p1, segment.start.p1) ||
        !internal::IsExactDifference(segment.end.p2, segment.start.p2)) {
      return Filtered::kOpen;
    }
    const double b = LaneCross(m.e0, m.dm);
    if (std::abs(b) <= e) return Filtered::kOpen;  // perhaps along the line
    first_root = -c / b;
    count = 1;
    first_slope = b > 0.0 ? 1 : -1;
    slope_low = 0.5 * (std::abs(b) - e);
    // The division's kU r, and B's error E r + C's E over slope_low
    // (4 r <= (r + 1)^2); raised to 9 kU + ..., which the bounds on the
    // contact's place below rely on (it is above that anyway).
    error_rate = 9.0 * kU + e / slope_low;
  } else {
    a = LaneCross(m.de, m.dm);
    if (std::abs(a) <= e) return Filtered::kOpen;
    const double b = LaneCross(m.e0, m.dm) + LaneCross(m.de, m.m0);
    const double disc = b * b - 4.0 * a * c;
    // (2|B| + 2E) 2E + 4 (|A| E + |C| E + E^2) + 2 kU (B^2 + 4 |AC|) with
    // |A|, |C| <= 2 S^2 and |B| <= 4 S^2.
    const double disc_error = 40.0 * scale_squared * e;
    if (disc < -disc_error) return Filtered::kMiss;  // never on the line
    // Perhaps a tangency; else sqrt(disc - disc_error) >= sqrt(disc) / 2.
    if (disc <= 4.0 * disc_error) return Filtered::kOpen;
    const double root_disc = std::sqrt(disc);
    // Stable form: q = -(B + sign(B) sqrt(disc)) / 2, roots q / A and C / q.
    const double q = -0.5 * (b + std::copysign(root_disc, b));
    first_root = std::min(q / a, c / q);
    second_root = std::max(q / a, c / q);
    count = 2;
    first_slope = a > 0.0 ? -1 : 1;
    // Within an eighth of the roots' spacing sqrt(disc) / |A| of a root,
    // |f'| stays above half of sqrt(disc - disc_error) >= sqrt(disc) / 4.
    slope_low = 0.25 * root_disc;
    // The formula's own rounding, kU (4 + 6 |B| / sqrt(disc)) r (disc's,
    // amplified where |B| dominates), and f's error at r, A's E r^2 + B's
    // 2 E r + C's E = E (r + 1)^2, over slope_low: with |B| <= 4 S^2,
    // sqrt(disc) <= sqrt(32) S^2 and 4 r <= (r + 1)^2, at most
    // kU (1 + 46 S^2 / sqrt(disc)) (r + 1)^2 <= 52 kU S^2 / sqrt(disc)
    // (r + 1)^2, itself at least 52 / sqrt(32) kU > 9 kU.
    error_rate = 52.0 * kU * scale_squared / root_disc;
  }
  const double a_abs = std::abs(a);
  // A root's error bound at r >= |t|, and whether it holds: within it f's
  // slope stays clear of zero.
  const auto root_error = [&](double r) ABSL_ATTRIBUTE_ALWAYS_INLINE {
    return error_rate * ((r + 1.0) * (r + 1.0));
  };
  const auto bounded = [&](double error) ABSL_ATTRIBUTE_ALWAYS_INLINE {
    return !(error * 16.0 * a_abs > slope_low);
  };
  // For a root in [0, max_fraction], the bound at r = max_fraction and the
  // bounds on the contact's place that follow from it: none waits for the
  // root (at most about four times the bound at the root itself, for
  // max_fraction <= 1), so the root's branches wait only for the root.
  //
  // m.e and e.e - m.e at t: the components of m and e are at most
  // S (1 + t + error) <= k = S (1 + max_fraction) (0 < t - error and
  // t + error <= max_fraction) and within eps = 3 kU k + error S of the
  // exact ones at the exact root; a dot product of them is then within
  // 4 k eps + 2 eps^2 + 2 kU k^2 <= 15 kU k^2 + 6 error S k (2 error <=
  // max_fraction, so 2 error S <= k; kU k^2 terms rounded up), and e.e - m.e
  // within twice that and 2 kU k^2 more. error_rate is at least 9 kU (both
  // cases above) and S <= k, so 8 error k^2 and 16 error k^2 bound them.
  const double k = scale * (1.0 + max_fraction);
  const double reach = max_fraction * (1.0 + 1e-6) + 1.0;
  const double error_within = error_rate * (reach * reach);
  const bool bounded_within = bounded(error_within);
  const double dot_error = error_rate * (8.0 * (reach * reach) * (k * k));
  const double rest_error = 2.0 * dot_error;

  // Each root in turn (unrolled: the roots stay in registers): kHit with
  // *hit filled, kMiss when it comes after max_fraction, kOpen where a
  // bound leaves it to the exact path, kNext where that root is no contact
  // (before the start, or beside the segment). Each branch first asks the
  // rounded value and then whether its bound agrees (nearly always): a
  // mispredicted branch waits only for the value.
  enum class Verdict { kHit, kMiss, kOpen, kNext };
  const auto try_root = [&](double t, int slope) ABSL_ATTRIBUTE_ALWAYS_INLINE {
    if (t < 0.0) {
      const double error = root_error(-t * (1.0 + 1e-6));
      if (ABSL_PREDICT_TRUE(bounded(error) && t + error < 0.0)) {
        return Verdict::kNext;
      }
      return Verdict::kOpen;
    }
    if (t > max_fraction) {
      const double error = root_error(t * (1.0 + 1e-6));
      if (ABSL_PREDICT_TRUE(bounded(error) && t - error > max_fraction)) {
        return Verdict::kMiss;
      }
      return Verdict::kOpen;
    }
    if (ABSL_PREDICT_FALSE(!bounded_within || !(t - error_within > 0.0) ||
                           t + error_within > max_fraction)) {
      return Verdict::kOpen;  // NaN too
    }
    const internal::Lanes mt = m.m0 + t * m.dm;
    const internal::Lanes et = m.e0 + t * m.de;
    const double dot = LaneDot(mt, et);
    const double rest = LaneDot(et, et) - dot;
    if (dot < 0.0 || rest < 0.0) {
      if (ABSL_PREDICT_TRUE(dot < -dot_error || rest < -rest_error)) {
        return Verdict::kNext;
      }
      return Verdict::kOpen;
    }
    if (ABSL_PREDICT_FALSE(dot <= dot_error || rest <= rest_error)) {
      return Verdict::kOpen;
    }
    *hit = {t, dot / (rest + dot), internal::VecOf(et), slope};
    return Verdict::kHit;
  };
  Verdict verdict = try_root(first_root, first_slope);
  if (verdict == Verdict::kNext && count == 2) {
    verdict = try_root(second_root, -first_slope);
  }
  return verdict == Verdict::kHit    ? Filtered::kHit
         : verdict == Verdict::kOpen ? Filtered::kOpen
                                     : Filtered::kMiss;
}

// The hit from the exact decisions (exact/deforming_segment.h), for what the
// filter leaves open: touching starts, tangencies, contacts at an end or
// at max_fraction, collinear motion. Out of line: the common path keeps
// its values in registers.
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> CastRayExact(
    const RayInput& ray, const DeformingSegment& segment,
    const CastOptions& options) {
  const Motion motion = MotionOf(ray, segment);
  DeformingDecision decision = internal::DecideDeformingExact(
      {ray.origin, ray.translation, segment.start.p1, segment.start.p2,
       segment.end.p1, segment.end.p2},
      options.max_fraction);

  // Starting on the segment: it has no inside, so only stop_at_penetration
  // makes the start a hit; otherwise a later contact may be.
  std::optional<Hit> result;  // filled in place
  // The contact, read in place (a copy of the decision's, just written
  // field by field, would be read back whole and stall on store forwarding);
  // a start on the segment writes its own over it.
  DeformingContact& contact = decision.contact;
  HitStatus status = HitStatus::kHit;
  if (decision.start_on && options.stop_at_penetration) {
    contact.t = 0.0;
    contact.collinear = false;
    const double length_squared = Dot(motion.e0, motion.e0);
    const double s =
        length_squared > 0.0
            ? std::clamp(Dot(motion.m0, motion.e0) / length_squared, 0.0, 1.0)
            : 0.0;
    contact.place = s == 0.0   ? DeformingPlace::kEnd0
                    : s == 1.0 ? DeformingPlace::kEnd1
                               : DeformingPlace::kEdge;
    contact.along = s;
    const double b = Cross(motion.e0, motion.dm) + Cross(motion.de, motion.m0);
    contact.slope = b > 0.0 ? 1 : (b < 0.0 ? -1 : 0);
    status = HitStatus::kInitialOverlap;
  } else if (!decision.hit) {
    return result;
  }

  // The hit at fraction t (rounded; the decisions are made).
  Hit& hit = result.emplace();
  hit.status = status;
  // A time estimate of subnormal inputs can underflow to 0 / 0 (NaN); the
  // decision is made, and such a time is indistinguishable from the start.
  // (Stopgap: the exact time for subnormal inputs is still to be done.)
  const double t = std::isnan(contact.t)
                       ? 0.0
                       : std::clamp(contact.t, 0.0, options.max_fraction);
  hit.fraction = t;
  const Vec2 e = motion.e0 + t * motion.de;
  const Vec2 a_t = segment.start.p1 + t * motion.da;
  const double length_squared = Dot(e, e);
  if (contact.collinear || length_squared == 0.0) {
    // Collinear motion meets an end, and a segment shrunk to a point is met
    // there: the contact has no side, so the normal faces the point's
    // motion relative to that end.
    const bool first = contact.place != DeformingPlace::kEnd1;
    hit.point = first ? a_t : segment.start.p2 + t * motion.db;
    hit.normal = internal::DegenerateContactNormal(
        ray.translation - (first ? motion.da : motion.db));
    hit.feature = {FeatureType::kVertex, first ? 0 : 1};
    return result;
  }
  switch (contact.place) {
    case DeformingPlace::kEnd0:
      hit.point = a_t;
      hit.feature = {FeatureType::kVertex, 0};
      break;
    case DeformingPlace::kEnd1:
      hit.point = segment.start.p2 + t * motion.db;
      hit.feature = {FeatureType::kVertex, 1};
      break;
    case DeformingPlace::kEdge: {
      const double along =
          contact.along >= 0.0
              ? contact.along
              : std::clamp(Dot(motion.m0 + t * motion.dm, e) / length_squared,
                           0.0, 1.0);
      hit.point = a_t + along * e;
      hit.feature = {FeatureType::kEdge, 0};
      break;
    }
  }
  // Normal towards the side the point came from: f falls through zero from
  // that side, so the side is the sign opposite to f's slope (at a
  // tangency, the side it started on).
  const double side = contact.slope != 0         ? -contact.slope
                      : decision.start_side != 0 ? decision.start_side
                                                 : -Cross(e, motion.dm);
  hit.normal = Normalize(side >= 0.0 ? LeftPerp(e) : RightPerp(e));
  return result;
}

}  // namespace

std::optional<Hit> CastRay(const RayInput& ray, const DeformingSegment& segment,
                           const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(ray) && IsValid(segment) && IsValid(options));
  COLLIDE_DCHECK(options.target_distance == 0.0);
  const LaneMotion motion = LaneMotionOf(ray, segment);
  FilteredHit filtered;
  switch (DecideDeformingFiltered(motion, segment, options.max_fraction,
                                  &filtered)) {
    case Filtered::kMiss:
      return std::nullopt;
    case Filtered::kOpen:
      return CastRayExact(ray, segment, options);
    case Filtered::kHit:
      break;
  }
  // On the segment's edge at 0 < t <= max_fraction, f's slope nonzero: the
  // normal faces the side the point came from, opposite to that slope.
  const double t = filtered.t;
  const Vec2 e = filtered.e;
  return Hit{
      .fraction = t,
      .point = segment.start.p1 + t * internal::VecOf(motion.da) +
               filtered.along * e,
      .normal = Normalize(filtered.slope < 0 ? LeftPerp(e) : RightPerp(e)),
      .depth = 0.0,
      .feature = {FeatureType::kEdge, 0},
      .status = HitStatus::kHit};
}

}  // namespace collide
