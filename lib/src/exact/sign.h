// Internal: exact signs of the small polynomials in the double inputs that
// the start classification decides (orientation, dot products, squared
// distances against a sum of radii): the lowest layer of lib/src.
//
// Each is decided first by a double evaluation with a certified bound on
// its rounding error (Shewchuk's filter: when the value is farther from zero
// than the bound, its sign is certain), and only when the filter cannot
// decide, exactly with expansion arithmetic (a value held as a sum of
// non-overlapping floating-point terms, built with error-free two-sum and
// two-product). Nothing allocates: expansions live on the stack.
//
// The terms are long doubles: x87 extended (64-bit significand) on x86-64,
// IEEE quad on AArch64, both with a 15-bit exponent. Error-free products
// need their low half to stay in range, and in double it does not: the
// product of 18.5 and a 5e-324 translation component already loses its
// low bits, and degree-6 forms of coordinates near the 1e60 bound of
// vec2.h overflow. With exponents down to 2^-16445 and up to 2^16383, every
// form here (degree 12 at most: the deforming segment's) is exact for all
// finite inputs within that bound, subnormals included.
#ifndef COLLIDE_LIB_SRC_EXACT_SIGN_H_
#define COLLIDE_LIB_SRC_EXACT_SIGN_H_

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide::internal {

// Half a unit in the last place of 1: the relative rounding error of one
// double operation.
inline constexpr double kRoundoff = 0x1p-53;
// Shewchuk's bound for orient2d-shaped expressions u.x v.y - u.y v.x (and
// dot products), each of u and v a rounded difference of inputs:
// |computed - exact| <= kCrossErrorBound * (|u.x v.y| + |u.y v.x|).
inline constexpr double kCrossErrorBound = (3.0 + 16.0 * kRoundoff) * kRoundoff;
// A generous relative bound for the other filters here (a few operations on
// non-negative terms each): 64 roundings.
inline constexpr double kFilterRoundings = 64.0 * kRoundoff;
// Those bounds are relative, and hold while no product underflows. One in
// the subnormal range is rounded by up to 2^-1075 absolutely, which a
// relative bound of tiny terms does not cover: each filter here adds this
// slack (times the factors that multiply such a product afterwards), so
// that only values well clear of the subnormal range are decided in
// double. Squares that a form multiplies by large factors are checked
// instead (NormalSquares). The least normal double, many times what a few
// roundings at 2^-1075 need: a subnormal operand costs a microcode assist
// in every add and multiply on AMD's cores (Zen), which would slow every
// filter here.
inline constexpr double kUnderflowSlack = 0x1p-1022;
// Where a square (and what multiplies it) is in double's normal range with
// room to spare, so that its rounding is relative.
inline constexpr double kNormalSquare = 0x1p-1000;

// x rounded to double, beyond double's range to an infinity of its sign
// (converting such a long double is undefined behaviour): for estimates
// and the ratios of two, which the callers clamp.
inline double RoundToDouble(long double x) {
  if (std::abs(x) > std::numeric_limits<double>::max()) {
    return x > 0 ? std::numeric_limits<double>::infinity()
                 : -std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(x);
}

// A value held exactly as a sum of non-overlapping long doubles in
// increasing magnitude, without zeros. Capacity is fixed (no allocation);
// the forms here never need more after compression.
class Expansion {
 public:
  using Term = long double;
  static_assert(std::numeric_limits<Term>::is_iec559 &&
                    std::numeric_limits<Term>::min_exponent <= -16381 &&
                    std::numeric_limits<Term>::max_exponent >= 16384,
                "exact forms need a 15-bit exponent (see the file comment)");
  static constexpr int kCapacity = 48;

  Expansion() = default;
  explicit Expansion(double x) {
    if (x != 0.0) terms_[size_++] = x;
  }
  // Exact a - b and a + b.
  static Expansion Difference(double a, double b);
  static Expansion Sum(double a, double b);

  int sign() const {
    return size_ == 0 ? 0 : (terms_[size_ - 1] > 0.0L ? 1 : -1);
  }
  // The largest term: the value to within its last place.
  Term WideEstimate() const { return size_ == 0 ? 0.0L : terms_[size_ - 1]; }
  // The same rounded to a double of the same sign: a value below double's
  // range gives its smallest subnormal, never a 0 that would read as
  // touching.
  double Estimate() const {
    const double rounded = RoundToDouble(WideEstimate());
    if (rounded == 0.0 && size_ != 0) {
      return std::copysign(std::numeric_limits<double>::denorm_min(), rounded);
    }
    return rounded;
  }
  int size() const { return size_; }

  Expansion operator-() const;
  friend Expansion operator+(const Expansion& e, const Expansion& f);
  friend Expansion operator-(const Expansion& e, const Expansion& f);
  friend Expansion operator*(const Expansion& e, const Expansion& f);

 private:
  Term terms_[kCapacity];
  int size_ = 0;
};

// Where a point p moving by d crosses the line through an edge from a to
// b, against the edge's ends (the closed forms' and SweepPointPolygonZero's
// entering edge): at a + s (b - a) with s = Cross(p - a, d) / Cross(b - a, d),
// and 1 - s = -Cross(p - b, d) / Cross(b - a, d), for motion closing on
// the line (Cross(b - a, d) > 0). So it crosses before a where Cross(p - a, d)
// < 0, past b where Cross(p - b, d) > 0, and on the edge between them where
// neither: each sign from its cross product's filter (kCrossErrorBound),
// neither waiting for a division. m = p - a, mb = p - b.
struct EdgeCrossing {
  double before;
  double before_bound;
  double past;
  double past_bound;

  static EdgeCrossing Of(Vec2 m, Vec2 mb, Vec2 d) {
    const double before_left = m.x * d.y;
    const double before_right = m.y * d.x;
    const double past_left = mb.x * d.y;
    const double past_right = mb.y * d.x;
    return {before_left - before_right,
            kCrossErrorBound * (std::abs(before_left) + std::abs(before_right)),
            past_left - past_right,
            kCrossErrorBound * (std::abs(past_left) + std::abs(past_right))};
  }
  bool BeforeA() const { return -before > before_bound; }
  bool PastB() const { return past > past_bound; }
  // Certainly between the ends, not at or next to either.
  bool Within() const { return before > before_bound && -past > past_bound; }
};

// A vector held exactly, and the exact difference of two points.
struct ExactVec {
  Expansion x, y;
};
inline ExactVec Difference(Vec2 p, Vec2 q) {
  return {Expansion::Difference(p.x, q.x), Expansion::Difference(p.y, q.y)};
}

// Exact fallbacks (exact/sign.cc): signs of the forms below.
int CrossSignExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d);
// Cross(b - a, d - c) to within its last place, of the exact sign: for a
// ratio that the rounded form would get wrong by cancellation (long double,
// so that a ratio of two below double's range keeps its value).
long double CrossEstimate(Vec2 a, Vec2 b, Vec2 c, Vec2 d);
int DotSignExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d);
int DistanceSquaredVsExact(Vec2 p, Vec2 q, double r1, double r2, double r3);
// |p - q|^2 - (r1 + r2 + r3)^2 to within its last place, of the exact
// sign: for a start apart by less than its rounding.
double DistanceSquaredExcessExact(Vec2 p, Vec2 q, double r1, double r2,
                                  double r3);
// Cross(b - a, p - a)^2 - (r1 + r2 + r3)^2 |b - a|^2 to within its last
// place, of the exact sign.
double LineDistanceExcessExact(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                               double r3);
// How far a time computed as (value within its rounding) / rate may be off
// the exact one before it is recomputed exactly: 1e-11 of the sweep, well
// within toi.h's 1e-9. The roundings behind it are a few ulps of the
// coordinates' and radii's magnitudes, so short sweeps (against the shapes'
// size) and starts within rounding of contact are those recomputed.
inline constexpr double kTimePrecision = 1e-11;

// A point sweep against a circle (sweep/point_sweep.h, exact/pair_motion.cc)
// with m = p - c and d rounded (a few ulps each), grow = r1 + r2 + r3 rounded:
// c0 = |m|^2 - grow^2 is within kCircleExcessRoundings (|m|^2 + grow^2) of the
// exact value (m's and the dot's 4 roundings, grow^2's 5, the difference's
// one).
inline constexpr double kCircleExcessRoundings = 6.1 * kRoundoff;
// Its discriminant, aa - cross^2 with aa = |d|^2 grow^2, is taken in
// double only beyond k aa (k = kClearDiscriminant) and beyond its own
// rounding bound kFilterRoundings (aa + ct^2), ct = |d.x m.y| + |d.y m.x|.
// Then q = -b + sqrt(discriminant), b = d . m < 0, is within
// kClearRootError q of the exact one: the discriminant is within
// 12.1 u aa + 8.03 u ct sqrt(aa) + 16.1 u^2 ct^2 (cross within 4.01 u ct,
// |cross| < sqrt(aa)), its root within that over the root; with q at
// least the root and |b|, and ct <= 1.43 (q + sqrt(aa)) (from b^2 +
// cross^2 = |d|^2 |m|^2), the three terms over q are at most 12.1 u / k,
// 11.5 u (k^-1/2 + 1 / k) and u / 4 (the rounding bound), and b's error
// 4.01 u (|d.x m.x| + |d.y m.y|) over q at most 5.8 u (1 + k^-1/2):
// 2.64e-9 in all. A path within k of grazing takes it exactly.
inline constexpr double kClearDiscriminant = 1e-6;
inline constexpr double kClearRootError = 3e-9;
// The bound on q = -b + sqrt(discriminant) as above with the discriminant
// exact to within its last place: b's error, the root's two roundings and
// the sum's, and an underflow's.
inline double CircleRootErrorExact(Vec2 d, Vec2 m, double q) {
  return 5.0 * kRoundoff * (std::abs(d.x * m.x) + std::abs(d.y * m.y) + q) +
         kUnderflowSlack;
}
// Where a circle sweep's contact t = c0 / q falls against max_fraction,
// from the sign of c0 - max_fraction q beyond its rounding (c0 within
// c0_error and q within q_error of the exact ones, the product's and the
// difference's roundings added): 1 after it, -1 by it, 0 within rounding
// (for the exact test).
inline int CircleEndSide(double c0, double c0_error, double q, double q_error,
                         double max_fraction) {
  const double reach = max_fraction * q;
  const double end = c0 - reach;
  const double end_error = 1.01 * (c0_error + max_fraction * q_error) +
                           2.0 * kRoundoff * (c0 + reach);
  if (std::abs(end) <= end_error) return 0;
  return end > 0.0 ? 1 : -1;
}
int LineDistanceVsExact(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                        double r3);
int DirectionDistanceVsExact(Vec2 a, Vec2 u, Vec2 p, double r1, double r2,
                             double r3);
// (r1 + r2 + r3)^2 |u|^2 - Cross(u, p - a)^2 (a point sweep's discriminant
// against a circle) for u = u_to - u_from (not rounded), to within its last
// place and of the exact sign.
double DirectionDiscriminantExact(Vec2 a, Vec2 u_from, Vec2 u_to, Vec2 p,
                                  double r1, double r2, double r3);
// OrientAfter's exact form for the motion to - from (not rounded).
int OrientAfterExact(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f);
// The forms below take a motion d as d_to - d_from (not rounded).
int LineDistanceAfterVsExact(Vec2 a, Vec2 b, Vec2 p, Vec2 d_from, Vec2 d_to,
                             double f, double r1, double r2, double r3);
// Whether a point from p by d, approaching a circle around c of radius
// r1 + r2 + r3 that it starts outside of and whose line of motion meets it
// (a point sweep's contact exists), has met it by fraction f: it is inside
// or on the circle then, or already past its closest approach. Exact.
bool SweepReachedCircleExact(Vec2 p, Vec2 d_from, Vec2 d_to, double f, Vec2 c,
                             double r1, double r2, double r3);

// Sign of Cross(u, v) where its filter decides it, u and v each an input or
// a rounded difference of inputs; 0 where rounding could have set it.
inline int FilteredCrossSign(Vec2 u, Vec2 v) {
  const double left = u.x * v.y;
  const double right = u.y * v.x;
  const double det = left - right;
  const double bound =
      kCrossErrorBound * (std::abs(left) + std::abs(right)) + kUnderflowSlack;
  return det > bound ? 1 : (-det > bound ? -1 : 0);
}

// Sign of Cross(b - a, d - c): > 0 when d - c turns counter-clockwise from
// b - a.
inline int CrossSign(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  if (const int sign = FilteredCrossSign(b - a, d - c)) return sign;
  return CrossSignExact(a, b, c, d);
}

// Sign of the orientation of c against the line a -> b: > 0 when c lies to
// the left (counter-clockwise turn), 0 when collinear.
inline int Orient(Vec2 a, Vec2 b, Vec2 c) { return CrossSign(a, b, a, c); }

// Sign of the orientation of p + f d against the line a -> b, the point a
// mover starting at p reaches at fraction f of translation d (which need
// not be a double): Cross(b - a, p - a) + f Cross(b - a, d). Decides
// whether a sweep has reached a line by exactly max_fraction.
// Cross(b - a, p - a) + f Cross(b - a, d) in double, with a bound on its
// rounding: the filter of OrientAfter and LineDistanceAfterVs.
struct RoundedValue {
  double value;
  double bound;
};
inline RoundedValue CrossAfter(Vec2 a, Vec2 b, Vec2 p, Vec2 d, double f) {
  const Vec2 e = b - a;
  const Vec2 m = p - a;
  return {Cross(e, m) + f * Cross(e, d),
          kFilterRoundings *
                  (std::abs(e.x * m.y) + std::abs(e.y * m.x) +
                   std::abs(f) * (std::abs(e.x * d.y) + std::abs(e.y * d.x))) +
              kUnderflowSlack * (1.0 + std::abs(f))};
}

inline int OrientAfter(Vec2 a, Vec2 b, Vec2 p, Vec2 d, double f) {
  const auto [value, bound] = CrossAfter(a, b, p, d, f);
  if (value > bound) return 1;
  if (-value > bound) return -1;
  return OrientAfterExact(a, b, p, Vec2{}, d, f);
}

// OrientAfter for the motion to - from, not rounded (a pair's relative
// motion, d2 to d1): the filter's many roundings cover that of the
// difference.
inline int OrientAfter(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f) {
  const auto [value, bound] = CrossAfter(a, b, p, to - from, f);
  if (value > bound) return 1;
  if (-value > bound) return -1;
  return OrientAfterExact(a, b, p, from, to, f);
}

// The time t = -Cross(c - a, p - a) / Cross(c - a, d) at which p + t d
// crosses the line through a and c, for the motion d = d_to - d_from (not
// rounded) that is not parallel to it: from the rounded products when their
// rounding moves t by at most a trillionth of the sweep, else from the two
// cross products taken exactly. Negated tests send a NaN t (both products
// cancelling to 0: the rounded motion parallel to a line the exact one is
// not) to the exact path too.
inline double CrossingTime(Vec2 a, Vec2 c, Vec2 p, Vec2 d_from, Vec2 d_to) {
  const Vec2 e = c - a;
  const Vec2 m = p - a;
  const Vec2 d = d_to - d_from;
  const double cm_left = e.x * m.y;
  const double cm_right = e.y * m.x;
  const double cd_left = e.x * d.y;
  const double cd_right = e.y * d.x;
  const double cd = cd_left - cd_right;
  const double t = -(cm_left - cm_right) / cd;
  if (!(2.0 * kCrossErrorBound *
            ((std::abs(cm_left) + std::abs(cm_right)) +
             std::abs(t) * (std::abs(cd_left) + std::abs(cd_right))) <=
        1e-12 * std::abs(cd))) {
    return RoundToDouble(-CrossEstimate(a, c, a, p) /
                         CrossEstimate(a, c, d_from, d_to));
  }
  return t;
}

// Sign of Cross(u, v) for exact vectors u and v (no differences taken).
inline int CrossSign(Vec2 u, Vec2 v) { return CrossSign({}, u, {}, v); }

// Sign of Dot(b - a, d - c).
inline int DotSign(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double ux = b.x - a.x;
  const double uy = b.y - a.y;
  const double vx = d.x - c.x;
  const double vy = d.y - c.y;
  const double left = ux * vx;
  const double right = uy * vy;
  const double dot = left + right;
  const double bound =
      kCrossErrorBound * (std::abs(left) + std::abs(right)) + kUnderflowSlack;
  if (dot > bound) return 1;
  if (-dot > bound) return -1;
  return DotSignExact(a, b, c, d);
}

// Sign of Dot(b - a, p + f (to - from) - a): where the point a mover
// starting at p reaches at fraction f of the motion to - from (not rounded)
// lies along the line a -> b, against a. Decides whether a slide along a
// segment has reached its end by exactly max_fraction.
int DotAfterExact(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f);
inline int DotAfter(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f) {
  const Vec2 e = b - a;
  const Vec2 m = p - a;
  const Vec2 d = to - from;
  const double value = Dot(e, m) + f * Dot(e, d);
  const double bound =
      kFilterRoundings *
          (std::abs(e.x * m.x) + std::abs(e.y * m.y) +
           std::abs(f) * (std::abs(e.x * d.x) + std::abs(e.y * d.y))) +
      kUnderflowSlack * (1.0 + std::abs(f));
  if (value > bound) return 1;
  if (-value > bound) return -1;
  return DotAfterExact(a, b, p, from, to, f);
}

// Sign of Dot(u, v) for exact vectors.
inline int DotSign(Vec2 u, Vec2 v) { return DotSign({}, u, {}, v); }

// Sign of |p - q|^2 - (r1 + r2 + r3)^2, radii >= 0 (the sum exact).
inline int DistanceSquaredVs(Vec2 p, Vec2 q, double r1, double r2, double r3) {
  const double dx = p.x - q.x;
  const double dy = p.y - q.y;
  const double r = r1 + r2 + r3;
  const double dd = dx * dx + dy * dy;
  const double rr = r * r;
  const double bound = kFilterRoundings * (dd + rr) + kUnderflowSlack;
  if (dd - rr > bound) return 1;
  if (rr - dd > bound) return -1;
  return DistanceSquaredVsExact(p, q, r1, r2, r3);
}

// r^2 |u|^2, u = (ux, uy), for the filters below, or -1 where a square or
// the product left the normal range (an inexact subnormal, then multiplied
// by up to 2^400): then the exact form decides.
inline double RadiusTimesLengthSquared(double r, double ux, double uy) {
  const double rr = r * r;
  const double uu = ux * ux + uy * uy;
  const double rruu = rr * uu;
  if (r == 0.0 || (ux == 0.0 && uy == 0.0)) return 0.0;
  if (rr >= kNormalSquare && uu >= kNormalSquare && rruu >= kNormalSquare) {
    return rruu;
  }
  return -1.0;
}

// The filter of the forms x^2 - rr below (x within x_bound of its exact
// value, rr within a few roundings of its): the sign of x^2 - rr when the
// intervals decide it, else 0 (then the exact form decides).
inline int SquareVs(double x, double x_bound, double rr) {
  const double low = std::max(0.0, std::abs(x) - x_bound);
  const double high = std::abs(x) + x_bound;
  if (low * low * (1.0 - kFilterRoundings) > rr * (1.0 + kFilterRoundings)) {
    return 1;
  }
  if (high * high * (1.0 + kFilterRoundings) < rr * (1.0 - kFilterRoundings)) {
    return -1;
  }
  return 0;
}

// Sign of Cross(b - a, p - a)^2 - (r1 + r2 + r3)^2 |b - a|^2: the squared
// distance from p to the line through a and b against the squared radius
// sum, times |b - a|^2.
inline int LineDistanceVs(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                          double r3) {
  const double ux = b.x - a.x;
  const double uy = b.y - a.y;
  const double mx = p.x - a.x;
  const double my = p.y - a.y;
  const double left = ux * my;
  const double right = uy * mx;
  const double cross = left - right;
  const double cross_bound =
      kCrossErrorBound * (std::abs(left) + std::abs(right)) + kUnderflowSlack;
  const double rree = RadiusTimesLengthSquared(r1 + r2 + r3, ux, uy);
  // |cross| lies within cross_bound of the exact one: compare its square's
  // interval with rree's, both widened by a relative margin.
  if (rree >= 0.0) {
    if (const int sign = SquareVs(cross, cross_bound, rree); sign != 0) {
      return sign;
    }
  }
  return LineDistanceVsExact(a, b, p, r1, r2, r3);
}

// LineDistanceVs for the point p + f d that a mover starting at p reaches at
// fraction f of translation d (not a double): whether a sweep is within
// the radii of a line by exactly max_fraction.
// The motion is d_to - d_from, not rounded (the filter's roundings cover
// its difference's).
inline int LineDistanceAfterVs(Vec2 a, Vec2 b, Vec2 p, Vec2 d_from, Vec2 d_to,
                               double f, double r1, double r2, double r3) {
  const Vec2 e = b - a;
  const auto [cross, cross_bound] = CrossAfter(a, b, p, d_to - d_from, f);
  const double rree = RadiusTimesLengthSquared(r1 + r2 + r3, e.x, e.y);
  if (rree >= 0.0) {
    if (const int sign = SquareVs(cross, cross_bound, rree); sign != 0) {
      return sign;
    }
  }
  return LineDistanceAfterVsExact(a, b, p, d_from, d_to, f, r1, r2, r3);
}

// Sign of Cross(u, p - a)^2 - (r1 + r2 + r3)^2 |u|^2, radii >= 0 (the sum
// exact): the squared distance from p to the line through a along the
// exact vector u, against the squared radius sum, times |u|^2 (a ray's line
// against a circle: the sign of minus the discriminant).
inline int DirectionDistanceVs(Vec2 a, Vec2 u, Vec2 p, double r1, double r2,
                               double r3) {
  const double mx = p.x - a.x;
  const double my = p.y - a.y;
  const double left = u.x * my;
  const double right = u.y * mx;
  const double cross = left - right;
  const double cross_bound =
      kCrossErrorBound * (std::abs(left) + std::abs(right)) + kUnderflowSlack;
  const double rruu = RadiusTimesLengthSquared(r1 + r2 + r3, u.x, u.y);
  if (rruu >= 0.0) {
    if (const int sign = SquareVs(cross, cross_bound, rruu); sign != 0) {
      return sign;
    }
  }
  return DirectionDistanceVsExact(a, u, p, r1, r2, r3);
}

int SideContactAlongSignExact(Vec2 a, Vec2 b, Vec2 v, Vec2 p, Vec2 d_from,
                              Vec2 d_to, double side, double r1, double r2,
                              double r3);

// Where a point from p by d meets the band of half-width r1 + r2 + r3
// around the line through a and b (a capsule's side), against v, a point of
// that line (one of its ends): the sign of Dot(p + t d - v, b - a) at the
// time t when its distance on `side` (+1: the side of RightPerp(b - a))
// falls to the half-width. The point must be closing on the line from that
// side. Times |b - a| (t d)'s denominator, this is
// side |b - a| Cross(p - v, d) - (r1 + r2 + r3) Dot(d, b - a), so that no
// rounded time enters the decision of which feature a contact at a
// capsule's side-to-cap junction meets.
inline int SideContactAlongSign(Vec2 a, Vec2 b, Vec2 v, Vec2 p, Vec2 d_from,
                                Vec2 d_to, double side, double r1, double r2,
                                double r3) {
  const Vec2 d = d_to - d_from;  // the filter's roundings cover this one
  const Vec2 u = b - a;
  const Vec2 m = p - v;
  const double length_squared = u.x * u.x + u.y * u.y;
  const double length = std::sqrt(length_squared);
  const double left = m.x * d.y;
  const double right = m.y * d.x;
  const double along_left = d.x * u.x;
  const double along_right = d.y * u.y;
  const double r = r1 + r2 + r3;
  const double value =
      side * length * (left - right) - r * (along_left + along_right);
  const double bound =
      kFilterRoundings * (length * (std::abs(left) + std::abs(right)) +
                          r * (std::abs(along_left) + std::abs(along_right))) +
      kUnderflowSlack * (1.0 + length + r);
  // A squared length that underflowed (a segment shorter than 2^-500) has
  // lost its relative rounding, and its root more so.
  if (length_squared >= kNormalSquare || (u.x == 0.0 && u.y == 0.0)) {
    if (value > bound) return 1;
    if (-value > bound) return -1;
  }
  return SideContactAlongSignExact(a, b, v, p, d_from, d_to, side, r1, r2, r3);
}

// Where p lies against the simple polygon with these vertices (either
// orientation), exactly: 1 strictly inside, 0 on the boundary, -1 strictly
// outside.
int PointInPolygonExact(absl::Span<const Vec2> vertices, Vec2 p);

// The same for the mean of `points` (not rounded): a convex mover whose
// vertices all lie on the boundary is inside exactly when its mean is.
int MeanInPolygonExact(absl::Span<const Vec2> vertices,
                       absl::Span<const Vec2> points);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_EXACT_SIGN_H_
