// Seed 000's general case: a moving point against a segment whose endpoints
// move independently. With m(t) = p(t) - a(t) and e(t) = b(t) - a(t), both
// linear in t, the point is on the segment's line when
//   f(t) = cross(e(t), m(t)) = A t^2 + B t + C = 0,
// and on the segment itself when 0 <= m(t).e(t) <= e(t).e(t).
//
// Every decision (where the point starts, which root is the contact, whether
// it is on the segment then, whether it comes by max_fraction) is exact: a
// double evaluation with certified error bounds decides the common case,
// and where a bound cannot, exact_deforming.h decides with expansions.
#include <algorithm>
#include <cmath>
#include <optional>

#include "collide/dcheck.h"
#include "collide/toi.h"
#include "degenerate_normal.h"
#include "exact_deforming.h"
#include "exact_sign.h"

namespace collide {
namespace {

using internal::DeformingContact;
using internal::DeformingDecision;
using internal::DeformingPlace;

// Twice the unit roundoff: every bound below is a first-order running error
// bound, and doubling u covers its second-order terms and the rounding of
// the bound's own evaluation.
constexpr double kU = 2.0 * internal::kRoundoff;

// The motion in double, and bounds on its parts: n_* are |x| + |y| of a
// vector, k_* bound the same for the exact vector and the inputs whose
// rounding it carries.
struct Motion {
  Vec2 m0, dm;  // point relative to the segment's first end
  Vec2 e0, de;  // the segment's direction vector
  Vec2 da;      // the first end's translation
};

Motion MotionOf(const RayInput& ray, const DeformingSegment& segment) {
  Motion m;
  m.da = segment.end.p1 - segment.start.p1;
  m.m0 = ray.origin - segment.start.p1;
  m.dm = ray.translation - m.da;
  m.e0 = segment.start.p2 - segment.start.p1;
  m.de = (segment.end.p2 - segment.start.p2) - m.da;
  return m;
}

double Norm1(Vec2 v) { return std::abs(v.x) + std::abs(v.y); }

// The certified double decision into *decision; false where a bound leaves
// it open. Handles only starts off the segment's line (C certainly
// nonzero).
//
// Error bounds (first order in u, doubled to kU for the rest): a component
// of m0 or e0 is off by at most kU times its vector's n, one of dm (a
// difference of differences) by kU k_dm = kU (n_da + n_dm), one of de by
// kU k_de = kU (n_da + n_db + n_de); a cross or dot product of vectors x,
// y then by n_x err_y + err_x n_y + kU n_x n_y.
bool DecideDeformingFiltered(const Motion& m, Vec2 db, double max_fraction,
                             DeformingDecision* decision) {
  const double n_m0 = Norm1(m.m0);
  const double n_e0 = Norm1(m.e0);
  const double n_da = Norm1(m.da);
  const double k_dm = n_da + Norm1(m.dm);
  const double k_de = n_da + Norm1(db) + Norm1(m.de);
  const double a = Cross(m.de, m.dm);
  const double b = Cross(m.e0, m.dm) + Cross(m.de, m.m0);
  const double c = Cross(m.e0, m.m0);
  const double a_error = 3.0 * kU * k_de * k_dm;
  const double b_error = 4.0 * kU * (n_e0 * k_dm + k_de * n_m0);
  const double c_error = 3.0 * kU * n_e0 * n_m0;
  if (std::abs(c) <= c_error) return false;
  decision->start_side = c > 0.0 ? 1 : -1;

  // The roots of f (ascending) and f's slope sign at the first. Each root
  // is within kU (rounding + 2 spread) |t| + 2 error_at(|t|) / slope_low of
  // an exact one, slope_low bounding |f'| near it.
  double roots[2];
  int count;
  int first_slope;
  double slope_low;
  double rounding = 0.0;
  if (a == 0.0 && a_error == 0.0) {
    // de = 0 exactly (a rigid or still segment): f is linear.
    if (std::abs(b) <= b_error) return b == 0.0 && b_error == 0.0;  // f = C
    roots[0] = -c / b;
    count = 1;
    first_slope = b > 0.0 ? 1 : -1;
    slope_low = 0.5 * (std::abs(b) - b_error);
  } else {
    if (std::abs(a) <= a_error) return false;
    const double bb = b * b;
    const double ac4 = 4.0 * a * c;
    const double disc = bb - ac4;
    const double disc_error =
        (2.0 * std::abs(b) + b_error) * b_error +
        4.0 * (std::abs(a) * c_error + std::abs(c) * a_error +
               a_error * c_error) +
        2.0 * kU * (bb + std::abs(ac4));
    if (disc < -disc_error) return true;  // never on the line
    // Perhaps a tangency; else sqrt(disc - disc_error) >= sqrt(disc) / 2.
    if (disc <= 4.0 * disc_error) return false;
    const double root_disc = std::sqrt(disc);
    // Stable form: q = -(B + sign(B) sqrt(disc)) / 2, roots q / A and C / q.
    const double q = -0.5 * (b + std::copysign(root_disc, b));
    roots[0] = q / a;
    roots[1] = c / q;
    if (roots[0] > roots[1]) std::swap(roots[0], roots[1]);
    count = 2;
    first_slope = a > 0.0 ? -1 : 1;
    // Within an eighth of the roots' spacing sqrt(disc) / |A| of a root,
    // |f'| stays above half of sqrt(disc - disc_error) >= sqrt(disc) / 4.
    slope_low = 0.25 * root_disc;
    // The formula's own rounding: disc's, amplified where |B| dominates.
    rounding = 3.0 * std::abs(b) / (0.5 * root_disc);
  }
  const double spread = 1.0 / slope_low;
  const double a_abs = std::abs(a);

  for (int i = 0; i < count; ++i) {
    const double t = roots[i];
    const double r = std::abs(t) * (1.0 + 1e-6);
    const double error = kU * (4.0 + rounding) * r +
                         (a_error * r * r + b_error * r + c_error) * spread;
    if (error * 16.0 * a_abs > slope_low) return false;
    if (t + error < 0.0) continue;
    if (t - error <= 0.0) return false;
    if (t - error > max_fraction) return true;
    if (t + error > max_fraction) return false;
    // m.e and e.e - m.e at t, bounded for the inputs' and the root's
    // errors: m and e are within err_m, err_e (per component) of the exact
    // ones at the exact root, and at most k_m, k_e in size.
    const double span = t + error;
    const Vec2 mt = m.m0 + t * m.dm;
    const Vec2 et = m.e0 + t * m.de;
    const double k_m = n_m0 + span * k_dm;
    const double k_e = n_e0 + span * k_de;
    const double err_m = 3.0 * kU * k_m + error * k_dm;
    const double err_e = 3.0 * kU * k_e + error * k_de;
    const double dot = Dot(mt, et);
    const double length_squared = Dot(et, et);
    const double dot_error =
        k_m * err_e + err_m * k_e + err_m * err_e + 2.0 * kU * k_m * k_e;
    const double rest = length_squared - dot;
    const double rest_error = dot_error + (2.0 * k_e + err_e) * err_e +
                              3.0 * kU * k_e * k_e + kU * std::abs(dot);
    if (dot < -dot_error || rest < -rest_error) continue;  // beside it
    if (dot <= dot_error || rest <= rest_error) return false;
    decision->hit = true;
    decision->contact = {t, DeformingPlace::kEdge,
                         i == 0 ? first_slope : -first_slope, false};
    return true;
  }
  return true;
}

}  // namespace

std::optional<Hit> CastRay(const RayInput& ray, const DeformingSegment& segment,
                           const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(ray) && IsValid(segment) && IsValid(options));
  COLLIDE_DCHECK(options.target_distance == 0.0);
  const Motion motion = MotionOf(ray, segment);
  DeformingDecision decision;
  if (!DecideDeformingFiltered(motion, segment.end.p2 - segment.start.p2,
                               options.max_fraction, &decision)) {
    decision = internal::DecideDeformingExact(
        {ray.origin, ray.translation, segment.start.p1, segment.start.p2,
         segment.end.p1, segment.end.p2},
        options.max_fraction);
  }

  // The hit at fraction t (rounded; the decisions are made).
  const auto contact_at = [&](const DeformingContact& contact) {
    const double t = std::clamp(contact.t, 0.0, options.max_fraction);
    const Vec2 e = motion.e0 + t * motion.de;
    const Vec2 m = motion.m0 + t * motion.dm;
    const Vec2 a_t = segment.start.p1 + t * motion.da;
    const Vec2 b_t = segment.start.p2 + t * (segment.end.p2 - segment.start.p2);
    const double length_squared = Dot(e, e);
    Hit hit;
    hit.fraction = t;
    if (contact.collinear || length_squared == 0.0) {
      // Collinear motion meets an end, and a segment shrunk to a point is
      // met there: the contact has no side, so the normal faces the
      // point's motion relative to that end.
      const bool first = contact.place != DeformingPlace::kEnd1;
      hit.point = first ? a_t : b_t;
      hit.normal = internal::DegenerateContactNormal(
          ray.translation - (first ? motion.da : segment.end.p2 -
                                                     segment.start.p2));
      hit.feature = {FeatureType::kVertex, first ? 0 : 1};
      return hit;
    }
    switch (contact.place) {
      case DeformingPlace::kEnd0:
        hit.point = a_t;
        hit.feature = {FeatureType::kVertex, 0};
        break;
      case DeformingPlace::kEnd1:
        hit.point = b_t;
        hit.feature = {FeatureType::kVertex, 1};
        break;
      case DeformingPlace::kEdge:
        hit.point =
            a_t + std::clamp(Dot(m, e) / length_squared, 0.0, 1.0) * e;
        hit.feature = {FeatureType::kEdge, 0};
        break;
    }
    // Normal towards the side the point came from: f falls through zero
    // from that side, so the side is the sign opposite to f's slope (at a
    // tangency, the side it started on).
    const double side = contact.slope != 0       ? -contact.slope
                        : decision.start_side != 0 ? decision.start_side
                                                   : -Cross(e, motion.dm);
    hit.normal = Normalize(side >= 0.0 ? LeftPerp(e) : RightPerp(e));
    return hit;
  };

  // Starting on the segment: it has no inside, so only stop_at_penetration
  // makes the start a hit; otherwise a later contact may be.
  if (decision.start_on && options.stop_at_penetration) {
    const double length_squared = Dot(motion.e0, motion.e0);
    const double s =
        length_squared > 0.0
            ? std::clamp(Dot(motion.m0, motion.e0) / length_squared, 0.0, 1.0)
            : 0.0;
    DeformingContact start;
    start.place = s == 0.0   ? DeformingPlace::kEnd0
                  : s == 1.0 ? DeformingPlace::kEnd1
                             : DeformingPlace::kEdge;
    const double b = Cross(motion.e0, motion.dm) + Cross(motion.de, motion.m0);
    start.slope = b > 0.0 ? 1 : (b < 0.0 ? -1 : 0);
    Hit hit = contact_at(start);
    hit.status = HitStatus::kInitialOverlap;
    return hit;
  }
  if (!decision.hit) return std::nullopt;
  return contact_at(decision.contact);
}

}  // namespace collide
