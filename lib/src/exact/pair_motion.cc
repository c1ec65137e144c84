#include "exact/pair_motion.h"

#include <algorithm>
#include <cmath>

#include "exact/fallback_normal.h"
#include "exact/sign.h"

namespace collide::internal {
namespace {

// Sign of Cross(b - a, p - a) + f Cross(b - a, d1 - d2) (cross) or of the
// same with Dot (along): where p + f (d1 - d2) is against the line a -> b,
// or along it.
int AfterMotionExact(bool cross, Vec2 a, Vec2 b, Vec2 p, Vec2 d1, Vec2 d2,
                     double f) {
  const Expansion ex = Expansion::Difference(b.x, a.x);
  const Expansion ey = Expansion::Difference(b.y, a.y);
  // The exact relative translation.
  const ExactVec d = Difference(d1, d2);
  const Expansion scale(f);
  const Expansion mx = Expansion::Difference(p.x, a.x) + scale * d.x;
  const Expansion my = Expansion::Difference(p.y, a.y) + scale * d.y;
  return (cross ? ex * my - ey * mx : ex * mx + ey * my).sign();
}

int AfterMotion(bool cross, Vec2 a, Vec2 b, Vec2 p, Vec2 d1, Vec2 d2,
                double f) {
  const Vec2 e = b - a;
  const Vec2 m = p - a;
  const Vec2 d = d1 - d2;
  const double ux = cross ? e.x * m.y : e.x * m.x;
  const double uy = cross ? e.y * m.x : e.y * m.y;
  const double vx = cross ? e.x * d.y : e.x * d.x;
  const double vy = cross ? e.y * d.x : e.y * d.y;
  const double value =
      cross ? (ux - uy) + f * (vx - vy) : (ux + uy) + f * (vx + vy);
  const double bound =
      kFilterRoundings * (std::abs(ux) + std::abs(uy) +
                          std::abs(f) * (std::abs(vx) + std::abs(vy))) +
      kUnderflowSlack * (1.0 + std::abs(f));
  if (value > bound) return 1;
  if (-value > bound) return -1;
  return AfterMotionExact(cross, a, b, p, d1, d2, f);
}

// Cross(d1 - d2, p - c)^2 - (r1 + r2 + r3)^2 |d1 - d2|^2: minus the
// discriminant of a point sweep against a circle.
Expansion MotionDistanceExact(Vec2 d1, Vec2 d2, Vec2 p, Vec2 c, double r1,
                              double r2, double r3) {
  // The exact relative translation.
  const ExactVec d = Difference(d1, d2);
  const Expansion cross = d.x * Expansion::Difference(p.y, c.y) -
                          d.y * Expansion::Difference(p.x, c.x);
  const Expansion r = Expansion::Sum(r1, r2) + Expansion(r3);
  return cross * cross - r * r * (d.x * d.x + d.y * d.y);
}

// Whether p + f (d1 - d2), approaching c and on a line that meets the
// circle of radius r1 + r2 + r3 around it, has met it: inside or on it, or
// past its closest approach.
bool MotionReachedCircleExact(Vec2 p, Vec2 d1, Vec2 d2, double f, Vec2 c,
                              double r1, double r2, double r3) {
  // The exact relative translation.
  const ExactVec d = Difference(d1, d2);
  const Expansion scale(f);
  const Expansion wx = Expansion::Difference(p.x, c.x) + scale * d.x;
  const Expansion wy = Expansion::Difference(p.y, c.y) + scale * d.y;
  if ((wx * d.x + wy * d.y).sign() >= 0) return true;
  const Expansion r = Expansion::Sum(r1, r2) + Expansion(r3);
  return (wx * wx + wy * wy - r * r).sign() <= 0;
}

// A contact time clamped to [0, max_fraction], NaN-safe: a quotient of two
// rounded products that both underflow (subnormal inputs; the decisions
// around it are exact, the time is an estimate) reads as 0.
double InRange(double t, double max_fraction) {
  return t > 0.0 ? std::min(t, max_fraction) : 0.0;
}

// x - y as its rounding plus its error, each scaled by 2^exponent: *x_out -
// *y_out = 2^exponent (x - y), exactly. (ldexp: for a subnormal size the
// power itself is beyond double's range.)
void ScaleDifference(double x, double y, int exponent, double* x_out,
                     double* y_out) {
  *x_out = std::ldexp(x - y, exponent);
  *y_out = std::ldexp(-DifferenceError(x, y), exponent);
}

// Below this length (the largest of the offset, the relative translation
// and the grown radius) the root's products, of degree 4 at most, leave
// double's normal range, where their rounding is absolute: a contact
// decided exactly came out at time -inf (q rounding to -0).
inline constexpr double kTinySweep = 0x1p-240;

// The hit of a circle sweep of p by d1 - d2 against c grown by r1 + r2 +
// r3, given that p starts outside and approaches: nullopt if it passes
// wide or comes after max_fraction, else the fraction.
std::optional<double> SweepCircleMotion(Vec2 p, Vec2 d1, Vec2 d2, Vec2 c,
                                        double r1, double r2, double r3,
                                        double max_fraction) {
  const Vec2 d = d1 - d2;
  const Vec2 m = p - c;
  const double grow = r1 + r2 + r3;
  const double size = std::max(
      {std::abs(m.x), std::abs(m.y), std::abs(d.x), std::abs(d.y), grow});
  if (size < kTinySweep && size > 0.0) {
    // The fraction is scale invariant: the same sweep with every length
    // scaled up by a power of two (exactly, differences included), to
    // about 1.
    const int exponent = -std::ilogb(size);
    Vec2 p_scaled, c_scaled, d1_scaled, d2_scaled;
    ScaleDifference(p.x, c.x, exponent, &p_scaled.x, &c_scaled.x);
    ScaleDifference(p.y, c.y, exponent, &p_scaled.y, &c_scaled.y);
    ScaleDifference(d1.x, d2.x, exponent, &d1_scaled.x, &d2_scaled.x);
    ScaleDifference(d1.y, d2.y, exponent, &d1_scaled.y, &d2_scaled.y);
    return SweepCircleMotion(p_scaled, d1_scaled, d2_scaled, c_scaled,
                             std::ldexp(r1, exponent), std::ldexp(r2, exponent),
                             std::ldexp(r3, exponent), max_fraction);
  }
  const double a = Dot(d, d);
  const double b = Dot(d, m);
  const double cross_left = d.x * m.y;
  const double cross_right = d.y * m.x;
  const double cross = cross_left - cross_right;
  const double aa = a * grow * grow;
  double discriminant = aa - cross * cross;
  const double cross_terms = std::abs(cross_left) + std::abs(cross_right);
  // d is rounded (one ulp per component): 64 roundings cover it and the
  // rest. Certainly negative: a miss. Within that of zero, or too close to
  // it for q's bound (exact/sign.h, kClearDiscriminant), the sign and size
  // are taken exactly; so are they where a square in aa left the normal
  // range (its rounding no longer relative).
  const double rounding = kFilterRoundings * (aa + cross_terms * cross_terms);
  const bool underflow = RadiusTimesLengthSquared(grow, d.x, d.y) < 0.0;
  if (discriminant < -rounding && !underflow) return std::nullopt;
  const bool exact =
      underflow || discriminant <= std::max(kClearDiscriminant * aa, rounding);
  if (exact) {
    discriminant = -MotionDistanceExact(d1, d2, p, c, r1, r2, r3).Estimate();
    if (discriminant < 0.0) return std::nullopt;
  }
  const double magnitude = Dot(m, m) + grow * grow;
  double c0 = Dot(m, m) - grow * grow;
  const double q = -b + std::sqrt(discriminant);
  const double q_error =
      exact ? CircleRootErrorExact(d, m, q) : kClearRootError * q;
  // Apart (the caller's test is exact), so c0 > 0: within its rounding, or
  // where its rounding could move t = c0 / q by more than kTimePrecision (a
  // sweep short against the circles), taken exactly (as SweepPointCircle).
  double c0_error = kCircleExcessRoundings * magnitude + kUnderflowSlack;
  if (c0 <= kFilterRoundings * magnitude ||
      8.0 * kRoundoff * magnitude > kTimePrecision * q) {
    c0 = DistanceSquaredExcessExact(p, c, r1, r2, r3);
    if (c0 <= 0.0) return 0.0;
    c0_error = 2.0 * kRoundoff * c0 + kUnderflowSlack;
  }
  // Whether the contact comes by max_fraction: within rounding, exactly.
  const int side = CircleEndSide(c0, c0_error, q, q_error, max_fraction);
  if (side > 0) return std::nullopt;
  if (side == 0 &&
      !MotionReachedCircleExact(p, d1, d2, max_fraction, c, r1, r2, r3)) {
    return std::nullopt;
  }
  return InRange(c0 / q, max_fraction);
}

}  // namespace

bool CastCircleVsMovingCircle(const CircleCast& cast,
                              const Moving<Circle>& target,
                              const CastOptions& options,
                              std::optional<Hit>* hit) {
  const Vec2 p = cast.circle.center;
  const Vec2 c = target.shape.center;
  const double r1 = cast.circle.radius;
  const double r2 = target.shape.radius;
  const double skin = options.target_distance;
  const Vec2 d1 = cast.translation;
  const Vec2 d2 = target.translation;
  const int contact = DistanceSquaredVs(p, c, r1, r2, 0.0);
  // Overlapping, or two points at one place: d plays no part.
  if (contact < 0 || (contact == 0 && r1 + r2 == 0.0)) return false;
  // Sign of (d1 - d2).(p - c): < 0 closing.
  const int closing = DotSign(d2, d1, c, p);
  const auto start_hit = [&](HitStatus status) {
    Hit& h = hit->emplace();
    // Centres at one place (with radii whose square underflows, which the
    // contact test then reads as touching): no direction of their own.
    const Vec2 n = Normalize(p - c);
    h.normal = n != Vec2{} ? n : DegenerateContactNormal(d1 - d2);
    h.point = c + r2 * h.normal;
    h.feature = {FeatureType::kSurface, 0};
    h.status = status;
  };
  hit->reset();
  if (contact == 0) {
    // Touching: moving in, or stopped there; a circle left or slid along is
    // not met again.
    if (closing < 0 || options.stop_at_penetration) {
      start_hit(HitStatus::kInitialOverlap);
    }
    return true;
  }
  if (skin > 0.0 && DistanceSquaredVs(p, c, r1, r2, skin) <= 0) {
    if (closing < 0) start_hit(HitStatus::kHit);
    return true;
  }
  if (closing >= 0) return true;
  const std::optional<double> t =
      SweepCircleMotion(p, d1, d2, c, r1, r2, skin, options.max_fraction);
  if (!t) return true;
  const Vec2 d = d1 - d2;
  Hit& h = hit->emplace();
  h.fraction = *t;
  // The contact offset can round to zero (radii tiny against coordinates
  // near 1e60): then, as for zero radii, face the motion.
  const Vec2 offset = (p - c) + *t * d;
  h.normal = r1 + r2 + skin > 0.0 && offset != Vec2{}
                 ? Normalize(offset)
                 : DegenerateContactNormal(d);
  h.point = c + *t * d2 + r2 * h.normal;
  h.feature = {FeatureType::kSurface, 0};
  return true;
}

bool CastPointVsMovingSegment(const RayInput& ray,
                              const Moving<Segment>& target,
                              const CastOptions& options,
                              std::optional<Hit>* hit) {
  if (options.target_distance != 0.0) return false;
  const Vec2 p = ray.origin;
  const Vec2 a = target.shape.p1;
  const Vec2 c = target.shape.p2;
  const Vec2 d1 = ray.translation;
  const Vec2 d2 = target.translation;
  const double max_fraction = options.max_fraction;
  const Vec2 d = d1 - d2;
  const auto keep = [&](double t, Vec2 core_point, Vec2 normal,
                        Feature feature) {
    Hit& h = hit->emplace();
    h.fraction = t;
    h.point = core_point + t * d2;
    h.normal = normal;
    h.feature = feature;
  };
  if (a == c) {
    // A point target (starting on it is the shared path's start rule): met
    // only by motion exactly through it.
    if (p == a) return false;
    hit->reset();
    if (CrossSign(d2, d1, p, a) != 0 || DotSign(d2, d1, p, a) <= 0) return true;
    if (const std::optional<double> t =
            SweepCircleMotion(p, d1, d2, a, 0.0, 0.0, 0.0, max_fraction)) {
      keep(*t, a, DegenerateContactNormal(d), {FeatureType::kVertex, 0});
    }
    return true;
  }
  const int start_side = Orient(a, c, p);
  // Starting on the segment: a segment has no inside, so the shared path's
  // exact start rule is the answer.
  if (start_side == 0 && DotSign(a, c, a, p) >= 0 && DotSign(a, c, c, p) <= 0) {
    return false;
  }
  hit->reset();
  // Sign of Cross(c - a, d1 - d2): the motion across the segment's line.
  const int across = CrossSign(a, c, d2, d1);
  const Vec2 n = Normalize(RightPerp(c - a));
  if (start_side == 0) {
    // On the line, off the segment: only motion along the line meets it,
    // at the near end, if it comes by max_fraction.
    if (across != 0) return true;
    // Each time from the end it is measured to: along - |e|^2 would cancel.
    const Vec2 e = c - a;
    const double speed = Dot(d, e);
    double t;
    int vertex;
    if (DotSign(a, c, a, p) < 0 && DotSign(a, c, d2, d1) > 0) {
      if (AfterMotion(false, a, c, p, d1, d2, max_fraction) < 0) return true;
      t = -Dot(p - a, e) / speed;
      vertex = 0;
    } else if (DotSign(a, c, c, p) > 0 && DotSign(a, c, d2, d1) < 0) {
      if (AfterMotion(false, c, a, p, d1, d2, max_fraction) < 0) return true;
      t = Dot(p - c, e) / -speed;
      vertex = 1;
    } else {
      return true;
    }
    keep(InRange(t, max_fraction), vertex == 0 ? a : c,
         DegenerateContactNormal(d), {FeatureType::kVertex, vertex});
    return true;
  }
  // Off the line: it must close on the line, reach it by max_fraction, and
  // its line of motion must separate the ends (or pass through one).
  if (across != -start_side) return true;
  if (AfterMotion(true, a, c, p, d1, d2, max_fraction) == start_side) {
    return true;
  }
  const int side_a = CrossSign(d2, d1, p, a);
  const int side_c = CrossSign(d2, d1, p, c);
  if (side_a == side_c) return true;  // passes beside
  const double t = InRange(CrossingTime(a, c, p, d2, d1), max_fraction);
  const Vec2 e = c - a;
  const Vec2 m = p - a;
  // p starts on n's side when it starts to the right of a -> c.
  const Vec2 normal = start_side < 0 ? n : -n;
  if (side_a == 0) {
    keep(t, a, normal, {FeatureType::kVertex, 0});
  } else if (side_c == 0) {
    keep(t, c, normal, {FeatureType::kVertex, 1});
  } else {
    const double length_squared = Dot(e, e);
    const double s =
        length_squared > 0.0
            ? std::clamp(Dot(m + t * d, e) / length_squared, 0.0, 1.0)
            : 0.0;
    keep(t, a + s * e, normal, {FeatureType::kEdge, 0});
  }
  return true;
}

}  // namespace collide::internal
