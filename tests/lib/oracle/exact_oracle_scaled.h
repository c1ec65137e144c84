// Internal to the exact oracle (exact_oracle.cc, exact_oracle_exact.cc):
// every input as an integer at a common power-of-two scale, the integer
// geometry of hulls and distances on those, one convex pair with its start
// and sweep classification, and the bisection on the exact predicates.
#ifndef COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_SCALED_H_
#define COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_SCALED_H_

#include <gmp.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "exact_oracle.h"

namespace collide::oracle {

using Z = mpz_class;
using Q = mpq_class;

// Bisection grid: fractions are multiples of 2^-kGridBits (at least; more
// when max_fraction needs it). The final bracket is 2^-kBracketBits wide.
inline constexpr int kGridBits = 64;
inline constexpr int kBracketBits = 44;

struct ZP {
  Z x;
  Z y;
};

[[noreturn]] inline void Fatal(const char* what) {
  std::fprintf(stderr, "exact_oracle: %s\n", what);
  std::abort();
}

// The smallest k >= 0 with x * 2^k an integer is at most this.
inline int ExponentNeeded(double x) {
  if (x == 0.0) return 0;
  if (!std::isfinite(x)) Fatal("non-finite input");
  int e = 0;
  std::frexp(x, &e);  // x = f * 2^e, f in [0.5, 1), 53 significant bits
  return 53 - e;
}

class ScaleFinder {
 public:
  void Add(double x) { k_ = std::max(k_, ExponentNeeded(x)); }
  void Add(Vec2 v) {
    Add(v.x);
    Add(v.y);
  }
  void Add(const std::vector<Vec2>& points) {
    for (Vec2 p : points) Add(p);
  }
  int k() const { return k_; }

 private:
  int k_ = 0;
};

// x 2^k as an integer, shifted in GMP: with a subnormal input k exceeds
// 1074, and x 2^k would overflow a double for every other input.
inline Z ToZ(double x, int k) {
  if (!std::isfinite(x)) Fatal("non-finite input");
  int e = 0;
  const double significand = std::ldexp(std::frexp(x, &e), 53);  // integer
  Z r;
  mpz_set_d(r.get_mpz_t(), significand);
  const int shift = e - 53 + k;
  if (shift >= 0) {
    mpz_mul_2exp(r.get_mpz_t(), r.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
  } else {
    const auto bits = static_cast<mp_bitcnt_t>(-shift);
    if (!mpz_divisible_2exp_p(r.get_mpz_t(), bits)) Fatal("inexact scaling");
    mpz_tdiv_q_2exp(r.get_mpz_t(), r.get_mpz_t(), bits);
  }
  return r;
}

inline ZP ToZ(Vec2 v, int k) { return {ToZ(v.x, k), ToZ(v.y, k)}; }

inline Q Pow2(int e) {
  Q r(1);
  if (e >= 0) {
    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  } else {
    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  }
  return r;
}

inline Q ToQ(double x) { return Q(x); }  // exact

// (a - o) x (b - o).
inline Z Cross3(const ZP& o, const ZP& a, const ZP& b) {
  Z l = a.x - o.x;
  l *= b.y - o.y;
  Z r = a.y - o.y;
  r *= b.x - o.x;
  l -= r;
  return l;
}

// Convex hull, counter-clockwise, without duplicate or collinear points.
// One point when all coincide, two (the extremes) when all are collinear.
inline std::vector<ZP> Hull(std::vector<ZP> p) {
  std::sort(p.begin(), p.end(), [](const ZP& a, const ZP& b) {
    const int c = cmp(a.x, b.x);
    return c < 0 || (c == 0 && cmp(a.y, b.y) < 0);
  });
  p.erase(std::unique(p.begin(), p.end(),
                      [](const ZP& a, const ZP& b) {
                        return a.x == b.x && a.y == b.y;
                      }),
          p.end());
  if (p.size() <= 2) return p;
  std::vector<ZP> h(2 * p.size());
  size_t n = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    while (n >= 2 && sgn(Cross3(h[n - 2], h[n - 1], p[i])) <= 0) --n;
    h[n++] = p[i];
  }
  const size_t lower = n + 1;
  for (size_t i = p.size() - 1; i-- > 0;) {
    while (n >= lower && sgn(Cross3(h[n - 2], h[n - 1], p[i])) <= 0) --n;
    h[n++] = p[i];
  }
  h.resize(n - 1);
  return h;
}

// A non-negative rational num / den (den > 0).
struct Frac {
  Z num;
  Z den;
};

inline bool Less(const Frac& a, const Frac& b) {
  return cmp(a.num * b.den, b.num * a.den) < 0;
}

// Squared distance from q to the segment [a, b].
inline Frac SegmentDistanceSq(const ZP& a, const ZP& b, const ZP& q) {
  const Z ex = b.x - a.x, ey = b.y - a.y;
  const Z wx = q.x - a.x, wy = q.y - a.y;
  const Z l2 = ex * ex + ey * ey;
  if (sgn(l2) == 0) return {wx * wx + wy * wy, Z(1)};
  const Z u = wx * ex + wy * ey;
  if (sgn(u) <= 0) return {wx * wx + wy * wy, Z(1)};
  if (cmp(u, l2) >= 0) {
    const Z vx = q.x - b.x, vy = q.y - b.y;
    return {vx * vx + vy * vy, Z(1)};
  }
  const Z c = ex * wy - ey * wx;
  return {c * c, l2};
}

// The point of [a, b] nearest q.
inline std::pair<Q, Q> SegmentClosestPoint(const ZP& a, const ZP& b,
                                           const ZP& q) {
  const Z ex = b.x - a.x, ey = b.y - a.y;
  const Z wx = q.x - a.x, wy = q.y - a.y;
  const Z l2 = ex * ex + ey * ey;
  if (sgn(l2) == 0) return {Q(a.x), Q(a.y)};
  const Z u = wx * ex + wy * ey;
  if (sgn(u) <= 0) return {Q(a.x), Q(a.y)};
  if (cmp(u, l2) >= 0) return {Q(b.x), Q(b.y)};
  Q s(u, l2);
  s.canonicalize();
  return {Q(a.x) + s * Q(ex), Q(a.y) + s * Q(ey)};
}

// Signed distance from q to the convex polygon h (negative inside), as
// sign * distance^2 = sign * sq.num / sq.den, in h's units squared.
struct SignedSq {
  int sign = 0;
  Frac sq;
};

inline SignedSq SignedDistanceSq(const std::vector<ZP>& h, const ZP& q) {
  const size_t n = h.size();
  if (n == 0) Fatal("empty hull");
  if (n == 1) {
    const Z wx = q.x - h[0].x, wy = q.y - h[0].y;
    Z d2 = wx * wx + wy * wy;
    const int s = sgn(d2) > 0 ? 1 : 0;
    return {s, {std::move(d2), Z(1)}};
  }
  if (n == 2) {
    Frac f = SegmentDistanceSq(h[0], h[1], q);
    return {sgn(f.num) > 0 ? 1 : 0, std::move(f)};
  }
  std::vector<Z> c(n);
  bool inside = true;
  for (size_t i = 0; i < n; ++i) {
    const ZP& a = h[i];
    const ZP& b = h[(i + 1) % n];
    c[i] = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x);
    if (sgn(c[i]) < 0) inside = false;
  }
  bool have = false;
  Frac best;
  for (size_t i = 0; i < n; ++i) {
    const ZP& a = h[i];
    const ZP& b = h[(i + 1) % n];
    Frac f;
    if (inside) {
      const Z ex = b.x - a.x, ey = b.y - a.y;
      f = {c[i] * c[i], ex * ex + ey * ey};
    } else {
      if (sgn(c[i]) >= 0) continue;
      f = SegmentDistanceSq(a, b, q);
    }
    if (!have || Less(f, best)) {
      best = std::move(f);
      have = true;
    }
  }
  const int s = sgn(best.num) == 0 ? 0 : (inside ? -1 : 1);
  return {s, std::move(best)};
}

// The point of h nearest q (q outside h).
inline std::pair<Q, Q> ClosestPoint(const std::vector<ZP>& h, const ZP& q) {
  const size_t n = h.size();
  if (n == 1) return {Q(h[0].x), Q(h[0].y)};
  size_t best_i = 0;
  Frac best;
  const size_t edges = n == 2 ? 1 : n;
  for (size_t i = 0; i < edges; ++i) {
    Frac f = SegmentDistanceSq(h[i], h[(i + 1) % n], q);
    if (i == 0 || Less(f, best)) {
      best = std::move(f);
      best_i = i;
    }
  }
  return SegmentClosestPoint(h[best_i], h[(best_i + 1) % n], q);
}

// sign * s^2 in true units, for a hull at scale 2^scale_bits.
inline Q ToTrueUnits(const SignedSq& s, int scale_bits) {
  Q v(s.sq.num, s.sq.den);
  v.canonicalize();
  v /= Pow2(2 * scale_bits);
  if (s.sign < 0) v = -v;
  return v;
}

// sign(x) * x^2: compares like x.
inline Q SignedSquare(const Q& x) { return sgn(x) < 0 ? Q(-x * x) : Q(x * x); }

inline double SignedSqrt(const Q& signed_sq) {
  const double v = signed_sq.get_d();
  return v < 0 ? -std::sqrt(-v) : std::sqrt(v);
}

inline double Diameter(const std::vector<Vec2>& points) {
  double d = 0.0;
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = i + 1; j < points.size(); ++j) {
      d = std::max(d, Length(points[i] - points[j]));
    }
  }
  return d;
}

// ---------------------------------------------------------------------------
// One convex pair: mover core vs obstacle core, in integers at scale 2^k.

struct Pair {
  int k = 0;
  std::vector<ZP> h;  // hull of (mover core - obstacle core), scale 2^k
  ZP d;               // relative translation, scale 2^k
  Z r_k;              // (radii + target distance) * 2^k
  Z r_contact_k;      // radii * 2^k
  Q r;                // radii + target distance
  Q r_contact;        // radii
  Q margin;           // kTangencyEps * L
  Q t_max;            // max_fraction
  Z t_max_num;        // max_fraction = t_max_num / 2^t_max_bits
  int t_max_bits = 0;
  double length_scale = 0.0;
};

inline Pair MakePair(const Core& mover, Vec2 mover_translation,
                     const std::vector<Vec2>& obstacle_points,
                     double obstacle_radius, Vec2 obstacle_translation,
                     double max_fraction, double target_distance,
                     double length_scale, int k) {
  Pair p;
  p.k = k;
  std::vector<ZP> a, b, diff;
  for (Vec2 v : mover.points) a.push_back(ToZ(v, k));
  for (Vec2 v : obstacle_points) b.push_back(ToZ(v, k));
  diff.reserve(a.size() * b.size());
  for (const ZP& u : a) {
    for (const ZP& v : b) diff.push_back({u.x - v.x, u.y - v.y});
  }
  p.h = Hull(std::move(diff));
  const ZP dm = ToZ(mover_translation, k), dob = ToZ(obstacle_translation, k);
  p.d = {dm.x - dob.x, dm.y - dob.y};
  p.r_k =
      ToZ(mover.radius, k) + ToZ(obstacle_radius, k) + ToZ(target_distance, k);
  p.r_contact_k = ToZ(mover.radius, k) + ToZ(obstacle_radius, k);
  p.r_contact = ToQ(mover.radius) + ToQ(obstacle_radius);
  p.r = p.r_contact + ToQ(target_distance);
  p.margin = ToQ(kTangencyEps * length_scale);
  p.length_scale = length_scale;
  if (!(max_fraction > 0.0) || max_fraction > 1.0) Fatal("max_fraction");
  p.t_max = ToQ(max_fraction);
  int e = 0;
  const double f = std::frexp(max_fraction, &e);
  p.t_max_bits = 53 - e;
  p.t_max_num = ToZ(f, 53);
  return p;
}

enum class Start {
  kOverlap,       // signed distance < radii - margin
  kTouchNear,     // within the margin of touching
  kSkinCloser,    // in the skin, moving closer
  kSkinAway,      // in the skin, moving away (or not moving)
  kSkinNear,      // in the skin, moving nearly along
  kSkinEdgeNear,  // within the margin of the skin's edge
  kSeparated,     // farther than radii + target distance + margin
};

inline Start ClassifyStart(const Pair& p, double* start_distance) {
  const ZP origin{Z(0), Z(0)};
  const SignedSq s = SignedDistanceSq(p.h, origin);
  const Q s0 = ToTrueUnits(s, p.k);
  *start_distance = SignedSqrt(s0);
  if (s0 < SignedSquare(p.r_contact - p.margin)) return Start::kOverlap;
  if (s0 <= SignedSquare(p.r_contact + p.margin)) return Start::kTouchNear;
  if (s0 > SignedSquare(p.r + p.margin)) return Start::kSeparated;
  if (s0 >= SignedSquare(p.r - p.margin)) return Start::kSkinEdgeNear;
  // Inside the skin, outside contact: the core's answer depends on whether
  // the gap shrinks at t = 0, i.e. on the sign of w . d with w the nearest
  // difference vector (from the obstacle to the mover).
  if (sgn(p.d.x) == 0 && sgn(p.d.y) == 0) return Start::kSkinAway;
  const auto [wx, wy] = ClosestPoint(p.h, origin);
  const Q dot = wx * Q(p.d.x) + wy * Q(p.d.y);
  const Q w2 = wx * wx + wy * wy;
  const Q d2 = Q(p.d.x * p.d.x + p.d.y * p.d.y);
  const Q eps = ToQ(kTangencyEps);
  if (dot * dot <= eps * eps * w2 * d2) return Start::kSkinNear;
  return sgn(dot) < 0 ? Start::kSkinCloser : Start::kSkinAway;
}

enum class Sweep { kMiss, kHit, kNear };

// Hit or miss over [0, max_fraction] for a start farther than R + margin.
inline Sweep ClassifySweep(const Pair& p) {
  if (sgn(p.d.x) == 0 && sgn(p.d.y) == 0) return Sweep::kMiss;
  const int bits = p.t_max_bits;
  const mp_bitcnt_t ubits = static_cast<mp_bitcnt_t>(bits);
  std::vector<ZP> pts;
  pts.reserve(2 * p.h.size());
  const Z sx = p.t_max_num * p.d.x, sy = p.t_max_num * p.d.y;
  for (const ZP& v : p.h) {
    ZP s;
    mpz_mul_2exp(s.x.get_mpz_t(), v.x.get_mpz_t(), ubits);
    mpz_mul_2exp(s.y.get_mpz_t(), v.y.get_mpz_t(), ubits);
    pts.push_back(s);
    pts.push_back({s.x + sx, s.y + sy});
  }
  const std::vector<ZP> swept = Hull(std::move(pts));
  const Q s = ToTrueUnits(SignedDistanceSq(swept, {Z(0), Z(0)}), p.k + bits);
  if (s > SignedSquare(p.r + p.margin)) return Sweep::kMiss;
  if (s >= SignedSquare(p.r - p.margin)) return Sweep::kNear;
  return Sweep::kHit;
}

// dist(-t d, H) <= R for t = m / 2^J (or, when R = 0 and H has no area,
// "the segment from 0 to -t d meets H", which is monotone in t).
class Predicate {
 public:
  Predicate(const Pair& p, int grid_bits) : d_(p.d) {
    const mp_bitcnt_t j = static_cast<mp_bitcnt_t>(grid_bits);
    const size_t n = p.h.size();
    hj_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      mpz_mul_2exp(hj_[i].x.get_mpz_t(), p.h[i].x.get_mpz_t(), j);
      mpz_mul_2exp(hj_[i].y.get_mpz_t(), p.h[i].y.get_mpz_t(), j);
    }
    Z rj;
    mpz_mul_2exp(rj.get_mpz_t(), p.r_k.get_mpz_t(), j);
    rj2_ = rj * rj;
    prefix_ = sgn(p.r_k) == 0 && n <= 2;
    const size_t edges = n == 1 ? 0 : (n == 2 ? 1 : n);
    for (size_t i = 0; i < edges; ++i) {
      const ZP& a = p.h[i];
      const ZP& b = p.h[(i + 1) % n];
      ZP e{b.x - a.x, b.y - a.y};
      Z l2 = e.x * e.x + e.y * e.y;
      Z l2j;
      mpz_mul_2exp(l2j.get_mpz_t(), l2.get_mpz_t(), j);
      rj2l2_.push_back(rj2_ * l2);
      l2j_.push_back(std::move(l2j));
      e_.push_back(std::move(e));
    }
  }

  bool prefix() const { return prefix_; }
  size_t size() const { return hj_.size(); }

  bool operator()(const Z& m) {
    mpz_mul(qx_.get_mpz_t(), m.get_mpz_t(), d_.x.get_mpz_t());
    mpz_neg(qx_.get_mpz_t(), qx_.get_mpz_t());
    mpz_mul(qy_.get_mpz_t(), m.get_mpz_t(), d_.y.get_mpz_t());
    mpz_neg(qy_.get_mpz_t(), qy_.get_mpz_t());
    if (prefix_) return PrefixMeets();
    const size_t n = hj_.size();
    if (n == 1) {
      SetW(0);
      return WithinOfW();
    }
    if (n == 2) {
      SetW(0);
      Cross(0);
      return EdgeWithin(0);
    }
    bool outside = false;
    for (size_t i = 0; i < n; ++i) {
      SetW(i);
      Cross(i);
      if (sgn(c_) < 0) {
        outside = true;
        if (EdgeWithin(i)) return true;
      }
    }
    return !outside;
  }

 private:
  void SetW(size_t i) {
    mpz_sub(wx_.get_mpz_t(), qx_.get_mpz_t(), hj_[i].x.get_mpz_t());
    mpz_sub(wy_.get_mpz_t(), qy_.get_mpz_t(), hj_[i].y.get_mpz_t());
  }
  void Cross(size_t i) {
    mpz_mul(c_.get_mpz_t(), e_[i].x.get_mpz_t(), wy_.get_mpz_t());
    mpz_mul(t_.get_mpz_t(), e_[i].y.get_mpz_t(), wx_.get_mpz_t());
    mpz_sub(c_.get_mpz_t(), c_.get_mpz_t(), t_.get_mpz_t());
  }
  bool WithinOfW() {
    mpz_mul(t_.get_mpz_t(), wx_.get_mpz_t(), wx_.get_mpz_t());
    mpz_addmul(t_.get_mpz_t(), wy_.get_mpz_t(), wy_.get_mpz_t());
    return cmp(t_, rj2_) <= 0;
  }
  // Distance from q to edge i within R; w = q - hj[i], c = cross(e, w).
  bool EdgeWithin(size_t i) {
    mpz_mul(u_.get_mpz_t(), wx_.get_mpz_t(), e_[i].x.get_mpz_t());
    mpz_addmul(u_.get_mpz_t(), wy_.get_mpz_t(), e_[i].y.get_mpz_t());
    if (sgn(u_) <= 0) return WithinOfW();
    if (cmp(u_, l2j_[i]) >= 0) {
      const ZP& b = hj_[(i + 1) % hj_.size()];
      mpz_sub(wx_.get_mpz_t(), qx_.get_mpz_t(), b.x.get_mpz_t());
      mpz_sub(wy_.get_mpz_t(), qy_.get_mpz_t(), b.y.get_mpz_t());
      return WithinOfW();
    }
    mpz_mul(t_.get_mpz_t(), c_.get_mpz_t(), c_.get_mpz_t());
    return cmp(t_, rj2l2_[i]) <= 0;
  }
  // Segment [0, q] against segment hj[0] hj[1] (or the point hj[0]).
  bool PrefixMeets() {
    if (hj_.size() == 1) {
      // 0, q and h collinear with h between them.
      const ZP& h = hj_[0];
      if (sgn(Z(qx_ * h.y - qy_ * h.x)) != 0) return false;
      const Z dot = qx_ * h.x + qy_ * h.y;
      const Z qq = qx_ * qx_ + qy_ * qy_;
      return sgn(dot) >= 0 && cmp(dot, qq) <= 0;
    }
    const ZP& a = hj_[0];
    const ZP& b = hj_[1];
    const Z ex = b.x - a.x, ey = b.y - a.y;
    const int o1 = sgn(Z(ex * (-a.y) - ey * (-a.x)));
    const int o2 = sgn(Z(ex * (qy_ - a.y) - ey * (qx_ - a.x)));
    const int o3 = sgn(Z(qx_ * a.y - qy_ * a.x));
    const int o4 = sgn(Z(qx_ * b.y - qy_ * b.x));
    if (o1 == 0 && o2 == 0) {
      // Collinear: do the projections on the line overlap?
      const Z pa = a.x * ex + a.y * ey, pb = b.x * ex + b.y * ey;
      const Z p0(0), pq = qx_ * ex + qy_ * ey;
      const Z lo1 = std::min(p0, pq), hi1 = std::max(p0, pq);
      return cmp(lo1, pb) <= 0 && cmp(pa, hi1) <= 0;
    }
    return o1 * o2 <= 0 && o3 * o4 <= 0;
  }

  ZP d_;
  std::vector<ZP> hj_;
  std::vector<ZP> e_;
  std::vector<Z> l2j_;
  std::vector<Z> rj2l2_;
  Z rj2_;
  bool prefix_ = false;
  Z qx_, qy_, wx_, wy_, c_, t_, u_;
};

// A fraction in [0, max_fraction] where the distance is smallest (any point
// of the zero set when the line of motion crosses H).
inline Q MinimizingFraction(const Pair& p) {
  const std::vector<ZP>& h = p.h;
  const size_t n = h.size();
  const Z dd = p.d.x * p.d.x + p.d.y * p.d.y;
  std::vector<Z> sigma(n), proj(n);
  bool pos = false, neg = false, zero = false;
  for (size_t i = 0; i < n; ++i) {
    sigma[i] = p.d.x * h[i].y - p.d.y * h[i].x;
    proj[i] = h[i].x * p.d.x + h[i].y * p.d.y;
    const int s = sgn(sigma[i]);
    pos |= s > 0;
    neg |= s < 0;
    zero |= s == 0;
  }
  auto param = [&](const Z& pr) {  // t with -t d = the point's foot
    Q t(-pr, dd);
    t.canonicalize();
    return t;
  };
  Q t;
  if (n == 1 || (!(pos && neg) && !zero)) {
    size_t best = 0;
    for (size_t i = 1; i < n; ++i) {
      if (mpz_cmpabs(sigma[i].get_mpz_t(), sigma[best].get_mpz_t()) < 0)
        best = i;
    }
    t = param(proj[best]);
  } else {
    std::vector<Q> cuts;
    for (size_t i = 0; i < n; ++i) {
      if (sgn(sigma[i]) == 0) cuts.push_back(param(proj[i]));
    }
    const size_t edges = n == 2 ? 1 : n;
    for (size_t i = 0; i < edges; ++i) {
      const size_t j = (i + 1) % n;
      if (sgn(sigma[i]) * sgn(sigma[j]) < 0) {
        Q c(-(sigma[i] * proj[j] - sigma[j] * proj[i]),
            (sigma[i] - sigma[j]) * dd);
        c.canonicalize();
        cuts.push_back(c);
      }
    }
    const Q c1 = *std::min_element(cuts.begin(), cuts.end());
    const Q c2 = *std::max_element(cuts.begin(), cuts.end());
    const Q lo = std::max(c1, Q(0)), hi = std::min(c2, p.t_max);
    if (lo <= hi) {
      t = (lo + hi) / 2;
    } else {
      t = c2 < 0 ? Q(0) : p.t_max;
    }
  }
  if (t < 0) t = 0;
  if (t > p.t_max) t = p.t_max;
  return t;
}

// Narrows [0, m_hi] (grid points of 2^-grid_bits) to a bracket of
// kBracketBits' width with pred false at m_lo and true at m_hi, pred being
// "the shapes touch" on the grid. False with *error when pred is false at
// m_hi or true at 0.
template <typename Pred>
inline bool BisectTouch(Pred& pred, int grid_bits, Z* m_lo, Z* m_hi,
                        const char** error) {
  if (!pred(*m_hi)) {
    *error = "no fraction found where the shapes touch";
    return false;
  }
  *m_lo = 0;
  if (pred(*m_lo)) {
    *error = "touching at fraction 0 after a separated start";
    return false;
  }
  Z width(1);
  mpz_mul_2exp(width.get_mpz_t(), width.get_mpz_t(),
               static_cast<mp_bitcnt_t>(grid_bits - kBracketBits));
  Z mid;
  while (cmp(Z(*m_hi - *m_lo), width) > 0) {
    mpz_add(mid.get_mpz_t(), m_lo->get_mpz_t(), m_hi->get_mpz_t());
    mpz_fdiv_q_2exp(mid.get_mpz_t(), mid.get_mpz_t(), 1);
    if (pred(mid)) {
      mpz_swap(m_hi->get_mpz_t(), mid.get_mpz_t());
    } else {
      mpz_swap(m_lo->get_mpz_t(), mid.get_mpz_t());
    }
  }
  return true;
}

// Bisection for t* given a start farther than R + margin and a clear hit.
inline bool FindToi(const Pair& p, double* t_lo, double* t_hi,
                    const char** error) {
  const int grid_bits = std::max(kGridBits, p.t_max_bits);
  Predicate pred(p, grid_bits);
  Z m_hi;
  if (pred.prefix()) {
    if (pred.size() < 2) {
      *error = "clear hit of a point by a point";
      return false;
    }
    mpz_mul_2exp(m_hi.get_mpz_t(), p.t_max_num.get_mpz_t(),
                 static_cast<mp_bitcnt_t>(grid_bits - p.t_max_bits));
  } else {
    Q t = MinimizingFraction(p);
    mpq_mul_2exp(t.get_mpq_t(), t.get_mpq_t(),
                 static_cast<mp_bitcnt_t>(grid_bits));
    mpz_fdiv_q(m_hi.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  }
  Z m_lo;
  if (!BisectTouch(pred, grid_bits, &m_lo, &m_hi, error)) return false;
  *t_lo = std::ldexp(m_lo.get_d(), -grid_bits);
  *t_hi = std::ldexp(m_hi.get_d(), -grid_bits);
  return true;
}

inline ZP Sub(const ZP& a, const ZP& b) { return {a.x - b.x, a.y - b.y}; }
inline Z CrossZ(const ZP& a, const ZP& b) { return a.x * b.y - a.y * b.x; }
inline Z DotZ(const ZP& a, const ZP& b) { return a.x * b.x + a.y * b.y; }

// The common power of two that makes every input of `c` an integer (both
// solvers of concave cases work on the same scaled values).
inline int ScaleOf(const ConcaveCase& c) {
  ScaleFinder scale;
  scale.Add(c.mover.points);
  scale.Add(c.polygon);
  scale.Add(c.mover_translation);
  scale.Add(c.obstacle_translation);
  scale.Add(c.mover.radius);
  scale.Add(c.target_distance);
  return scale.k();
}

}  // namespace collide::oracle

#endif  // COLLIDE_TESTS_LIB_ORACLE_EXACT_ORACLE_SCALED_H_
