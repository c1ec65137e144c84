// Exact TOI oracle: see exact_oracle.h.
//
// All inputs are doubles, hence dyadic rationals: each case picks one power
// of two 2^k that makes every input coordinate, radius and translation an
// integer, and works in GMP integers (mpz) at that scale. Fractions of the
// step are dyadic t = m / 2^J, so positions at time t are integers at scale
// 2^(k + J). Rationals (mpq) appear only in per-case set-up and
// classification, never in the bisection loop.
#include "exact_oracle.h"

#include <gmp.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace collide::oracle {
namespace {

using Z = mpz_class;
using Q = mpq_class;

// Bisection grid: fractions are multiples of 2^-kGridBits (at least; more
// when max_fraction needs it). The final bracket is 2^-kBracketBits wide.
constexpr int kGridBits = 64;
constexpr int kBracketBits = 44;

struct ZP {
  Z x;
  Z y;
};

[[noreturn]] void Fatal(const char* what) {
  std::fprintf(stderr, "exact_oracle: %s\n", what);
  std::abort();
}

// The smallest k >= 0 with x * 2^k an integer is at most this.
int ExponentNeeded(double x) {
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
Z ToZ(double x, int k) {
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

ZP ToZ(Vec2 v, int k) { return {ToZ(v.x, k), ToZ(v.y, k)}; }

Q Pow2(int e) {
  Q r(1);
  if (e >= 0) {
    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  } else {
    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  }
  return r;
}

Q ToQ(double x) { return Q(x); }  // exact

// (a - o) x (b - o).
Z Cross3(const ZP& o, const ZP& a, const ZP& b) {
  Z l = a.x - o.x;
  l *= b.y - o.y;
  Z r = a.y - o.y;
  r *= b.x - o.x;
  l -= r;
  return l;
}

// Convex hull, counter-clockwise, without duplicate or collinear points.
// One point when all coincide, two (the extremes) when all are collinear.
std::vector<ZP> Hull(std::vector<ZP> p) {
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

bool Less(const Frac& a, const Frac& b) {
  return cmp(a.num * b.den, b.num * a.den) < 0;
}

// Squared distance from q to the segment [a, b].
Frac SegmentDistanceSq(const ZP& a, const ZP& b, const ZP& q) {
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
std::pair<Q, Q> SegmentClosestPoint(const ZP& a, const ZP& b, const ZP& q) {
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

SignedSq SignedDistanceSq(const std::vector<ZP>& h, const ZP& q) {
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
std::pair<Q, Q> ClosestPoint(const std::vector<ZP>& h, const ZP& q) {
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
Q ToTrueUnits(const SignedSq& s, int scale_bits) {
  Q v(s.sq.num, s.sq.den);
  v.canonicalize();
  v /= Pow2(2 * scale_bits);
  if (s.sign < 0) v = -v;
  return v;
}

// sign(x) * x^2: compares like x.
Q SignedSquare(const Q& x) { return sgn(x) < 0 ? Q(-x * x) : Q(x * x); }

double SignedSqrt(const Q& signed_sq) {
  const double v = signed_sq.get_d();
  return v < 0 ? -std::sqrt(-v) : std::sqrt(v);
}

double Diameter(const std::vector<Vec2>& points) {
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

Pair MakePair(const Core& mover, Vec2 mover_translation,
              const std::vector<Vec2>& obstacle_points, double obstacle_radius,
              Vec2 obstacle_translation, double max_fraction,
              double target_distance, double length_scale, int k) {
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

Start ClassifyStart(const Pair& p, double* start_distance) {
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
Sweep ClassifySweep(const Pair& p) {
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
Q MinimizingFraction(const Pair& p) {
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
bool BisectTouch(Pred& pred, int grid_bits, Z* m_lo, Z* m_hi,
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
bool FindToi(const Pair& p, double* t_lo, double* t_hi, const char** error) {
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

ZP Sub(const ZP& a, const ZP& b) { return {a.x - b.x, a.y - b.y}; }
Z CrossZ(const ZP& a, const ZP& b) { return a.x * b.y - a.y * b.x; }
Z DotZ(const ZP& a, const ZP& b) { return a.x * b.x + a.y * b.y; }

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kMiss:
      return "miss";
    case Outcome::kHit:
      return "hit";
    case Outcome::kInitialOverlap:
      return "initial-overlap";
    case Outcome::kSkinHit:
      return "skin-hit";
    case Outcome::kNearTangent:
      return "near-tangent";
    case Outcome::kOracleError:
      return "oracle-error";
  }
  return "?";
}

double LengthScale(const ConvexCase& c) {
  const Vec2 d = c.mover_translation - c.obstacle_translation;
  double l = Length(d) * c.max_fraction;
  l = std::max(l, c.mover.radius + c.obstacle.radius + c.target_distance);
  l = std::max(l, Diameter(c.mover.points) + 2 * c.mover.radius);
  l = std::max(l, Diameter(c.obstacle.points) + 2 * c.obstacle.radius);
  l = std::max(l, Length(c.mover.points[0] - c.obstacle.points[0]));
  return l;
}

double LengthScale(const ConcaveCase& c) {
  ConvexCase cc{c.mover,
                c.mover_translation,
                Core{c.polygon, 0.0},
                c.obstacle_translation,
                c.max_fraction,
                c.target_distance};
  return LengthScale(cc);
}

double LengthScale(const DeformingCase& c) {
  double l = Length(c.translation) * c.max_fraction;
  l = std::max(l, Length(c.start_p2 - c.start_p1));
  l = std::max(l, Length(c.end_p2 - c.end_p1));
  l = std::max(l, Length(c.end_p1 - c.start_p1));
  l = std::max(l, Length(c.end_p2 - c.start_p2));
  l = std::max(l, Length(c.origin - c.start_p1));
  return l;
}

Verdict Solve(const ConvexCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  ScaleFinder scale;
  scale.Add(c.mover.points);
  scale.Add(c.obstacle.points);
  scale.Add(c.mover_translation);
  scale.Add(c.obstacle_translation);
  scale.Add(c.mover.radius);
  scale.Add(c.obstacle.radius);
  scale.Add(c.target_distance);
  const Pair p =
      MakePair(c.mover, c.mover_translation, c.obstacle.points,
               c.obstacle.radius, c.obstacle_translation, c.max_fraction,
               c.target_distance, v.length_scale, scale.k());
  switch (ClassifyStart(p, &v.start_core_distance)) {
    case Start::kOverlap:
      v.outcome = Outcome::kInitialOverlap;
      v.depth = (c.mover.radius + c.obstacle.radius) - v.start_core_distance;
      return v;
    case Start::kTouchNear:
      v.outcome = Outcome::kNearTangent;
      v.note = "touching at the start";
      return v;
    case Start::kSkinCloser:
      v.outcome = Outcome::kSkinHit;
      return v;
    case Start::kSkinAway:
      v.outcome = Outcome::kMiss;
      return v;
    case Start::kSkinNear:
      v.outcome = Outcome::kNearTangent;
      v.note = "in the skin, moving along";
      return v;
    case Start::kSkinEdgeNear:
      v.outcome = Outcome::kNearTangent;
      v.note = "at the skin's edge at the start";
      return v;
    case Start::kSeparated:
      break;
  }
  switch (ClassifySweep(p)) {
    case Sweep::kMiss:
      v.outcome = Outcome::kMiss;
      return v;
    case Sweep::kNear:
      v.outcome = Outcome::kNearTangent;
      v.note = "grazing sweep";
      return v;
    case Sweep::kHit:
      break;
  }
  if (!FindToi(p, &v.t_lo, &v.t_hi, &v.note)) {
    v.outcome = Outcome::kOracleError;
    return v;
  }
  v.outcome = Outcome::kHit;
  return v;
}

bool InsidePolygon(const std::vector<Vec2>& polygon, Vec2 p,
                   bool* on_boundary) {
  ScaleFinder scale;
  scale.Add(polygon);
  scale.Add(p);
  const int k = scale.k();
  const ZP q = ToZ(p, k);
  const size_t n = polygon.size();
  std::vector<ZP> v;
  v.reserve(n);
  for (Vec2 x : polygon) v.push_back(ToZ(x, k));
  bool inside = false;
  if (on_boundary != nullptr) *on_boundary = false;
  for (size_t i = 0; i < n; ++i) {
    const ZP& a = v[i];
    const ZP& b = v[(i + 1) % n];
    const int c = sgn(Cross3(a, b, q));
    if (c == 0) {
      // On the edge's line: on the edge when between its ends.
      const ZP ab = Sub(b, a), aq = Sub(q, a);
      if (sgn(DotZ(aq, ab)) >= 0 && cmp(DotZ(aq, ab), DotZ(ab, ab)) <= 0) {
        if (on_boundary != nullptr) *on_boundary = true;
        return false;
      }
    }
    const bool a_above = cmp(a.y, q.y) > 0, b_above = cmp(b.y, q.y) > 0;
    if (a_above != b_above) {
      // The edge crosses the horizontal line through q: to the right of q
      // when q is left of the upward edge.
      const bool right = cmp(b.y, a.y) > 0 ? c > 0 : c < 0;
      if (right) inside = !inside;
    }
  }
  return inside;
}

namespace {

// The common power of two that makes every input of `c` an integer (both
// solvers of concave cases work on the same scaled values).
int ScaleOf(const ConcaveCase& c) {
  ScaleFinder scale;
  scale.Add(c.mover.points);
  scale.Add(c.polygon);
  scale.Add(c.mover_translation);
  scale.Add(c.obstacle_translation);
  scale.Add(c.mover.radius);
  scale.Add(c.target_distance);
  return scale.k();
}

}  // namespace

Verdict Solve(const ConcaveCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  const int k = ScaleOf(c);
  const size_t n = c.polygon.size();
  std::vector<Pair> pairs;
  std::vector<Start> starts;
  std::vector<double> start_distance(n);
  pairs.reserve(n);
  double min_distance = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<Vec2> edge{c.polygon[i], c.polygon[(i + 1) % n]};
    pairs.push_back(MakePair(c.mover, c.mover_translation, edge, 0.0,
                             c.obstacle_translation, c.max_fraction,
                             c.target_distance, v.length_scale, k));
    starts.push_back(ClassifyStart(pairs.back(), &start_distance[i]));
    if (i == 0 || start_distance[i] < min_distance) {
      min_distance = start_distance[i];
    }
  }
  v.start_core_distance = min_distance;
  auto any = [&](Start s) {
    return std::find(starts.begin(), starts.end(), s) != starts.end();
  };
  if (any(Start::kOverlap)) {
    v.outcome = Outcome::kInitialOverlap;
    return v;
  }
  if (any(Start::kTouchNear)) {
    v.outcome = Outcome::kNearTangent;
    v.note = "touching at the start";
    return v;
  }
  // Clear of every edge: the whole mover is inside or outside the solid.
  if (InsidePolygon(c.polygon, c.mover.points[0])) {
    v.outcome = Outcome::kInitialOverlap;
    v.start_core_distance = -min_distance;
    return v;
  }
  if (any(Start::kSkinEdgeNear) || any(Start::kSkinNear)) {
    v.outcome = Outcome::kNearTangent;
    v.note = "at the skin's edge or moving along it at the start";
    return v;
  }
  const bool skin_closer = any(Start::kSkinCloser);
  const bool skin_away = any(Start::kSkinAway);
  if (skin_closer || skin_away) {
    // The gap is the smallest edge distance; it shrinks at t = 0 when it
    // shrinks for the nearest edges. Nearly equal nearest edges that
    // disagree have no verdict.
    const double m = kTangencyEps * v.length_scale;
    bool closer = false, away = false;
    for (size_t i = 0; i < n; ++i) {
      if (start_distance[i] > min_distance + 4 * m) continue;
      closer |= starts[i] == Start::kSkinCloser;
      away |= starts[i] == Start::kSkinAway;
    }
    if (closer && !away) {
      v.outcome = Outcome::kSkinHit;
      return v;
    }
    if (closer || skin_closer) {
      v.outcome = Outcome::kNearTangent;
      v.note = "in the skin of several edges, moving away from the nearest";
      return v;
    }
  }
  bool hit = false;
  for (size_t i = 0; i < n; ++i) {
    if (starts[i] != Start::kSeparated) continue;  // in the skin, moving away
    const Sweep s = ClassifySweep(pairs[i]);
    if (s == Sweep::kMiss) continue;
    if (s == Sweep::kNear) {
      v.outcome = Outcome::kNearTangent;
      v.note = "grazing sweep of an edge";
      return v;
    }
    double lo = 0.0, hi = 0.0;
    if (!FindToi(pairs[i], &lo, &hi, &v.note)) {
      v.outcome = Outcome::kOracleError;
      return v;
    }
    if (!hit || hi < v.t_hi) {
      v.t_hi = hi;
    }
    if (!hit || lo < v.t_lo) {
      v.t_lo = lo;
    }
    hit = true;
  }
  if (hit && skin_away) {
    // In the skin of one part, moving away from it, later reaching another:
    // the contract does not say which answer is right.
    v.outcome = Outcome::kNearTangent;
    v.note = "leaves the skin of one edge and reaches another";
    return v;
  }
  v.outcome = hit ? Outcome::kHit : Outcome::kMiss;
  return v;
}

// ---------------------------------------------------------------------------
// Deforming segment: f(t) = cross(S0 + t Sv, P0 + t Pv) = A t^2 + B t + C,
// with S = b - a and P = p - a.

namespace {

struct Deform {
  ZP p0, pv, s0, sv;  // scale 2^k
  Z a, b, c;          // f's coefficients, scale 2^2k
  int k = 0;
};

Q EvalF(const Deform& d, const Q& t) {
  return (Q(d.a) * t + Q(d.b)) * t + Q(d.c);
}

// -1: s < eps or s > 1 - eps is impossible to decide... see callers.
// Returns +1 when the point is clearly within the segment at t (eps <= s <=
// 1 - eps), -1 when clearly outside (s < -eps or s > 1 + eps), 0 otherwise
// or when the segment is shorter than min_length.
int WithinSegment(const Deform& d, const Q& t, const Q& eps,
                  const Q& min_length_sq) {
  const Q px = Q(d.p0.x) + t * Q(d.pv.x), py = Q(d.p0.y) + t * Q(d.pv.y);
  const Q sx = Q(d.s0.x) + t * Q(d.sv.x), sy = Q(d.s0.y) + t * Q(d.sv.y);
  const Q len2 = sx * sx + sy * sy;
  if (len2 <= min_length_sq) return 0;
  const Q dot = px * sx + py * sy;  // s = dot / len2
  if (dot >= eps * len2 && dot <= (1 - eps) * len2) return 1;
  if (dot < -eps * len2 || dot > (1 + eps) * len2) return -1;
  return 0;
}

}  // namespace

Verdict Solve(const DeformingCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  ScaleFinder scale;
  scale.Add(c.origin);
  scale.Add(c.translation);
  scale.Add(c.start_p1);
  scale.Add(c.start_p2);
  scale.Add(c.end_p1);
  scale.Add(c.end_p2);
  const int k = scale.k();
  Deform d;
  d.k = k;
  const ZP o = ToZ(c.origin, k), tr = ToZ(c.translation, k);
  const ZP a0 = ToZ(c.start_p1, k), b0 = ToZ(c.start_p2, k);
  const ZP a1 = ToZ(c.end_p1, k), b1 = ToZ(c.end_p2, k);
  const ZP da = Sub(a1, a0), db = Sub(b1, b0);
  d.p0 = Sub(o, a0);
  d.pv = Sub(tr, da);
  d.s0 = Sub(b0, a0);
  d.sv = Sub(db, da);
  d.a = CrossZ(d.sv, d.pv);
  d.b = CrossZ(d.s0, d.pv) + CrossZ(d.sv, d.p0);
  d.c = CrossZ(d.s0, d.p0);
  const Q eps = ToQ(kTangencyEps);
  const Q margin = ToQ(kTangencyEps * v.length_scale) * Pow2(k);  // scale k
  const Q margin_sq = margin * margin;
  const Q t_max = ToQ(c.max_fraction);

  // Starting on (or within the margin of) the segment: no verdict.
  {
    const Frac f = SegmentDistanceSq(a0, b0, o);
    Q dist_sq(f.num, f.den);
    dist_sq.canonicalize();
    if (dist_sq <= margin_sq) {
      v.outcome = Outcome::kNearTangent;
      v.note = "starts on the segment";
      return v;
    }
  }
  const int f0_sign = sgn(d.c);
  if (sgn(d.a) == 0 && sgn(d.b) == 0) {
    v.outcome = f0_sign == 0 ? Outcome::kNearTangent : Outcome::kMiss;
    v.note = "moves along the segment's line";
    return v;
  }
  if (f0_sign == 0) {
    v.outcome = Outcome::kNearTangent;
    v.note = "starts on the segment's line";
    return v;
  }
  // Pieces of [0, t_max] where f is monotone.
  std::vector<Q> cuts{Q(0)};
  if (sgn(d.a) != 0) {
    Q tv(-d.b, 2 * d.a);
    tv.canonicalize();
    // Near a double root inside the step: the point passes within the margin
    // of the line at the moment f is extremal.
    const Q span = eps;
    if (tv >= -span && tv <= t_max + span) {
      const Q f = EvalF(d, tv);
      const Q sx = Q(d.s0.x) + tv * Q(d.sv.x), sy = Q(d.s0.y) + tv * Q(d.sv.y);
      // |f| / |S| is the distance of p from the line (scale 2^k).
      if (f * f <= (sx * sx + sy * sy) * margin_sq) {
        v.outcome = Outcome::kNearTangent;
        v.note = "near a double root";
        return v;
      }
    }
    if (tv > 0 && tv < t_max) cuts.push_back(tv);
  }
  cuts.push_back(t_max);
  if (sgn(EvalF(d, t_max)) == 0) {
    v.outcome = Outcome::kNearTangent;
    v.note = "root at max_fraction";
    return v;
  }
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    Q lo = cuts[i], hi = cuts[i + 1];
    const int slo = sgn(EvalF(d, lo)), shi = sgn(EvalF(d, hi));
    if (slo == 0 || shi == 0) {
      v.outcome = Outcome::kNearTangent;
      v.note = "exact root at a piece boundary";
      return v;
    }
    if (slo == shi) continue;
    for (int step = 0; step < 50; ++step) {
      Q mid = (lo + hi) / 2;
      if (sgn(EvalF(d, mid)) == slo) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    if (lo < eps || hi > t_max - eps) {
      v.outcome = Outcome::kNearTangent;
      v.note = "root within eps of 0 or max_fraction";
      return v;
    }
    const int w_lo = WithinSegment(d, lo, eps, margin_sq);
    const int w_hi = WithinSegment(d, hi, eps, margin_sq);
    if (w_lo == 1 && w_hi == 1) {
      // The point comes from the side f had just before the root (earlier
      // roots off the segment may have flipped it since t = 0).
      v.side = slo;
      v.outcome = Outcome::kHit;
      v.t_lo = lo.get_d();
      v.t_hi = hi.get_d();
      return v;
    }
    if (w_lo == -1 && w_hi == -1) continue;
    v.outcome = Outcome::kNearTangent;
    v.note = "meets the segment's line near an end (or a degenerate segment)";
    return v;
  }
  v.outcome = Outcome::kMiss;
  return v;
}

// ---------------------------------------------------------------------------
// Exact mode (SolveExact): no tangency band. Every decision is the sign of
// an exact polynomial in the scaled inputs; only the reported bracket of an
// irrational TOI is approximate.

namespace {

// The largest double <= q, and the smallest double >= q.
double RoundDown(const Q& q) {
  double d = q.get_d();  // truncates towards zero: within one step
  while (Q(d) > q) d = std::nextafter(d, -HUGE_VAL);
  return d;
}
double RoundUp(const Q& q) {
  double d = q.get_d();
  while (Q(d) < q) d = std::nextafter(d, HUGE_VAL);
  return d;
}

// t_lo < t <= t_hi in doubles.
void BracketQ(const Q& t, double* t_lo, double* t_hi) {
  *t_hi = RoundUp(t);
  double lo = RoundDown(t);
  if (Q(lo) == t) lo = std::nextafter(lo, -HUGE_VAL);
  *t_lo = lo;
}

Q Dyadic(const Z& m, int bits) {
  Q r(m);
  mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(bits));
  return r;
}

// dist(-t d, H) <= radius (strict: <) at a rational t >= 0, radius_k the
// radius at scale 2^k.
bool WithinAt(const Pair& p, const Q& t, const Z& radius_k, bool strict) {
  const Z& num = t.get_num();
  const Z& den = t.get_den();
  std::vector<ZP> hs;
  hs.reserve(p.h.size());
  for (const ZP& h : p.h) hs.push_back({h.x * den, h.y * den});
  const ZP q{Z(-num * p.d.x), Z(-num * p.d.y)};
  const SignedSq s = SignedDistanceSq(hs, q);
  if (s.sign < 0) return true;
  Z rr = radius_k * den;
  rr *= rr;
  const int c = cmp(s.sq.num, Z(rr * s.sq.den));
  return strict ? c < 0 : c <= 0;
}

size_t Bits(const Z& z) { return mpz_sizeinbase(z.get_mpz_t(), 2); }

// A fraction t = 2^-B so small that every polynomial the predicates
// evaluate (degree <= 8 in the scaled inputs, integer coefficients) has the
// sign at t that it has on (0, t]: B exceeds the bit length of every
// coefficient (a positive root of an integer polynomial with a non-zero
// lowest coefficient is at least 1 / (1 + max |coefficient|)).
int EpsilonBits(const std::vector<const Pair*>& pairs) {
  size_t bits = 1;
  for (const Pair* p : pairs) {
    for (const ZP& h : p->h) bits = std::max({bits, Bits(h.x), Bits(h.y)});
    bits = std::max({bits, Bits(p->d.x), Bits(p->d.y), Bits(p->r_k)});
  }
  return static_cast<int>(10 * bits + 64);
}

// The swept set comes within R: hit over [0, max_fraction].
bool SweptHits(const Pair& p) {
  if (sgn(p.d.x) == 0 && sgn(p.d.y) == 0) return false;
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
  return s <= SignedSquare(p.r);
}

// First contact of a separated start whose sweep hits: bisection on the
// dyadic grid, exact at a rational minimiser when the contact set holds no
// grid point (a tangency).
bool FindToiExact(const Pair& p, double* t_lo, double* t_hi,
                  const char** error) {
  const int grid_bits = std::max(kGridBits, p.t_max_bits);
  Predicate pred(p, grid_bits);
  Z m_hi;
  if (pred.prefix()) {
    if (pred.size() < 2) {
      // A point meets a point: -t d = h.
      const ZP& h = p.h[0];
      if (sgn(Z(p.d.x * h.y - p.d.y * h.x)) != 0) {
        *error = "point meets point off the line of motion";
        return false;
      }
      Q t(Z(-(h.x * p.d.x + h.y * p.d.y)), Z(p.d.x * p.d.x + p.d.y * p.d.y));
      t.canonicalize();
      if (sgn(t) <= 0 || t > p.t_max) {
        *error = "point meets point outside the step";
        return false;
      }
      BracketQ(t, t_lo, t_hi);
      return true;
    }
    mpz_mul_2exp(m_hi.get_mpz_t(), p.t_max_num.get_mpz_t(),
                 static_cast<mp_bitcnt_t>(grid_bits - p.t_max_bits));
  } else {
    const Q t = MinimizingFraction(p);
    if (!WithinAt(p, t, p.r_k, false)) {
      *error = "no contact at the minimising fraction";
      return false;
    }
    Q ts = t;
    mpq_mul_2exp(ts.get_mpq_t(), ts.get_mpq_t(),
                 static_cast<mp_bitcnt_t>(grid_bits));
    Z m_f;
    mpz_fdiv_q(m_f.get_mpz_t(), ts.get_num_mpz_t(), ts.get_den_mpz_t());
    if (pred(m_f)) {
      m_hi = m_f;
    } else {
      // The contact interval holds t but no grid point <= t.
      *t_lo = RoundDown(Dyadic(m_f, grid_bits));
      *t_hi = RoundUp(t);
      return true;
    }
  }
  Z m_lo;
  if (!BisectTouch(pred, grid_bits, &m_lo, &m_hi, error)) return false;
  *t_lo = RoundDown(Dyadic(m_lo, grid_bits));
  *t_hi = RoundUp(Dyadic(m_hi, grid_bits));
  return true;
}

// The gap shrinks at t = 0 (start outside contact, d != 0): w . d < 0 with
// w the nearest difference vector.
bool GapShrinks(const Pair& p) {
  if (sgn(p.d.x) == 0 && sgn(p.d.y) == 0) return false;
  const auto [wx, wy] = ClosestPoint(p.h, {Z(0), Z(0)});
  return sgn(Q(wx * Q(p.d.x) + wy * Q(p.d.y))) < 0;
}

Q EpsilonFraction(int bits) { return Dyadic(Z(1), bits); }

// The first contact of a separated start whose sweep hits, when it is
// rational: with R = 0 the entry time of the line -t d into H; for a graze
// (the line never comes closer to H than R) the first time it is at R, at
// a vertex of H nearest the line. False for a penetrating contact with
// R > 0 (an irrational time in general).
bool RationalFirstContact(const Pair& p, Q* t) {
  const std::vector<ZP>& h = p.h;
  const size_t n = h.size();
  const Z dd = p.d.x * p.d.x + p.d.y * p.d.y;
  if (sgn(dd) == 0) return false;
  std::vector<Z> sigma(n), proj(n);
  bool pos = false, neg = false, zero = false;
  for (size_t i = 0; i < n; ++i) {
    sigma[i] = p.d.x * h[i].y - p.d.y * h[i].x;
    proj[i] = h[i].x * p.d.x + h[i].y * p.d.y;
    pos |= sgn(sigma[i]) > 0;
    neg |= sgn(sigma[i]) < 0;
    zero |= sgn(sigma[i]) == 0;
  }
  auto param = [&](const Z& pr) {
    Q r(Z(-pr), dd);
    r.canonicalize();
    return r;
  };
  bool have = false;
  auto take = [&](const Q& c) {
    if (!have || c < *t) *t = c;
    have = true;
  };
  if (sgn(p.r_k) == 0) {
    if (!(pos && neg) && !zero) return false;
    for (size_t i = 0; i < n; ++i) {
      if (sgn(sigma[i]) == 0) take(param(proj[i]));
    }
    const size_t edges = n <= 1 ? 0 : (n == 2 ? 1 : n);
    for (size_t i = 0; i < edges; ++i) {
      const size_t j = (i + 1) % n;
      if (sgn(sigma[i]) * sgn(sigma[j]) < 0) {
        Q c(Z(-(sigma[i] * proj[j] - sigma[j] * proj[i])),
            Z((sigma[i] - sigma[j]) * dd));
        c.canonicalize();
        take(c);
      }
    }
    return have && sgn(*t) > 0;
  }
  if ((pos && neg) || zero) return false;
  const Z r2dd = p.r_k * p.r_k * dd;
  for (size_t i = 0; i < n; ++i) {
    if (cmp(Z(sigma[i] * sigma[i]), r2dd) < 0) return false;
  }
  for (size_t i = 0; i < n; ++i) {
    if (cmp(Z(sigma[i] * sigma[i]), r2dd) == 0) take(param(proj[i]));
  }
  return have && sgn(*t) > 0;
}

// Crossing number on integers: 1 strictly inside, 0 on the boundary, -1
// strictly outside.
int InsideZ(const std::vector<ZP>& v, const ZP& q) {
  const size_t n = v.size();
  bool inside = false;
  for (size_t i = 0; i < n; ++i) {
    const ZP& a = v[i];
    const ZP& b = v[(i + 1) % n];
    const int c = sgn(Cross3(a, b, q));
    if (c == 0) {
      const ZP ab{b.x - a.x, b.y - a.y}, aq{q.x - a.x, q.y - a.y};
      const Z dot = aq.x * ab.x + aq.y * ab.y;
      if (sgn(dot) >= 0 && cmp(dot, Z(ab.x * ab.x + ab.y * ab.y)) <= 0) {
        return 0;
      }
    }
    const bool a_above = cmp(a.y, q.y) > 0, b_above = cmp(b.y, q.y) > 0;
    if (a_above != b_above) {
      const bool right = cmp(b.y, a.y) > 0 ? c > 0 : c < 0;
      if (right) inside = !inside;
    }
  }
  return inside ? 1 : -1;
}

}  // namespace

Verdict SolveExact(const ConvexCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  ScaleFinder scale;
  scale.Add(c.mover.points);
  scale.Add(c.obstacle.points);
  scale.Add(c.mover_translation);
  scale.Add(c.obstacle_translation);
  scale.Add(c.mover.radius);
  scale.Add(c.obstacle.radius);
  scale.Add(c.target_distance);
  const Pair p =
      MakePair(c.mover, c.mover_translation, c.obstacle.points,
               c.obstacle.radius, c.obstacle_translation, c.max_fraction,
               c.target_distance, v.length_scale, scale.k());
  const Q s0 = ToTrueUnits(SignedDistanceSq(p.h, {Z(0), Z(0)}), p.k);
  v.start_core_distance = SignedSqrt(s0);
  const Q rc2 = SignedSquare(p.r_contact);
  if (s0 < rc2) {
    v.outcome = Outcome::kInitialOverlap;
    v.depth = (c.mover.radius + c.obstacle.radius) - v.start_core_distance;
    return v;
  }
  if (s0 == rc2) {
    v.touching_start = true;
    const bool in = WithinAt(p, EpsilonFraction(EpsilonBits({&p})),
                             p.r_contact_k, /*strict=*/true);
    v.outcome = in ? Outcome::kInitialOverlap : Outcome::kMiss;
    v.depth = 0.0;
    v.note = in ? "touching, moving in" : "touching, moving away or along";
    return v;
  }
  if (s0 <= SignedSquare(p.r)) {
    v.outcome = GapShrinks(p) ? Outcome::kSkinHit : Outcome::kMiss;
    return v;
  }
  if (!SweptHits(p)) {
    v.outcome = Outcome::kMiss;
    return v;
  }
  if (!FindToiExact(p, &v.t_lo, &v.t_hi, &v.note)) {
    v.outcome = Outcome::kOracleError;
    return v;
  }
  v.outcome = Outcome::kHit;
  return v;
}

Verdict SolveExact(const ConcaveCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  const int k = ScaleOf(c);
  const size_t n = c.polygon.size();
  std::vector<Pair> pairs;
  std::vector<Q> s0(n);
  pairs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<Vec2> edge{c.polygon[i], c.polygon[(i + 1) % n]};
    pairs.push_back(MakePair(c.mover, c.mover_translation, edge, 0.0,
                             c.obstacle_translation, c.max_fraction,
                             c.target_distance, v.length_scale, k));
    s0[i] = ToTrueUnits(SignedDistanceSq(pairs[i].h, {Z(0), Z(0)}), k);
  }
  const Q min_s0 = *std::min_element(s0.begin(), s0.end());
  v.start_core_distance = SignedSqrt(min_s0);
  const Q rc2 = SignedSquare(pairs[0].r_contact);
  const Q r2 = SignedSquare(pairs[0].r);
  if (min_s0 < rc2) {
    v.outcome = Outcome::kInitialOverlap;
    return v;
  }
  // An interior point of the mover's core (the mean of its points) against
  // the solid, at a fraction t = num / den of the step: scale by m * den.
  std::vector<ZP> poly;
  for (Vec2 x : c.polygon) poly.push_back(ToZ(x, k));
  const Z m(static_cast<unsigned long>(c.mover.points.size()));
  ZP sum{Z(0), Z(0)};
  for (Vec2 x : c.mover.points) {
    const ZP z = ToZ(x, k);
    sum.x += z.x;
    sum.y += z.y;
  }
  const ZP& d = pairs[0].d;
  auto core_inside = [&](const Q& t) {
    const Z& num = t.get_num();
    const Z& den = t.get_den();
    std::vector<ZP> scaled;
    for (const ZP& x : poly) scaled.push_back({x.x * m * den, x.y * m * den});
    const ZP q{Z(sum.x * den + m * num * d.x), Z(sum.y * den + m * num * d.y)};
    return InsideZ(scaled, q);
  };
  // Whether one of the mover's core points is strictly inside the solid at
  // t (a zero-radius mover sliding along a wall into a corner pokes a
  // vertex in while its mean and every edge contact stay on the boundary).
  auto vertex_inside = [&](const Q& t) {
    const Z& num = t.get_num();
    const Z& den = t.get_den();
    std::vector<ZP> scaled;
    for (const ZP& x : poly) scaled.push_back({x.x * den, x.y * den});
    for (Vec2 x : c.mover.points) {
      const ZP z = ToZ(x, k);
      if (InsideZ(scaled,
                  {Z(z.x * den + num * d.x), Z(z.y * den + num * d.y)}) > 0) {
        return true;
      }
    }
    return false;
  };
  if (core_inside(Q(0)) > 0) {
    v.outcome = Outcome::kInitialOverlap;
    return v;
  }
  std::vector<bool> skip(n, false);
  if (min_s0 == rc2) {
    v.touching_start = true;
    std::vector<const Pair*> ptrs;
    for (const Pair& p : pairs) ptrs.push_back(&p);
    const Q eps = EpsilonFraction(EpsilonBits(ptrs));
    bool in = core_inside(eps) > 0 || vertex_inside(eps);
    for (size_t i = 0; i < n && !in; ++i) {
      in = WithinAt(pairs[i], eps, pairs[i].r_contact_k, /*strict=*/true);
    }
    if (in) {
      v.outcome = Outcome::kInitialOverlap;
      v.depth = 0.0;
      v.note = "touching, moving in";
      return v;
    }
    // Moving away from or along every touched edge: by convexity of each
    // edge's distance it never comes closer to those; sweep the others.
    for (size_t i = 0; i < n; ++i) skip[i] = s0[i] == rc2;
    v.note = "touching, moving away or along";
  }
  // In the skin of the nearest untouched edges: the gap min_i dist_i
  // shrinks at t = 0 when it shrinks for one of the nearest.
  Q nearest;
  bool any_skin = false;
  for (size_t i = 0; i < n; ++i) {
    if (skip[i] || s0[i] > r2) continue;
    if (!any_skin || s0[i] < nearest) nearest = s0[i];
    any_skin = true;
  }
  if (any_skin) {
    for (size_t i = 0; i < n; ++i) {
      if (!skip[i] && s0[i] == nearest && GapShrinks(pairs[i])) {
        v.outcome = Outcome::kSkinHit;
        return v;
      }
    }
    // Moving away from the nearest: no hit at t = 0. But a concave
    // solid's gap can shrink again (toi.h): an edge whose skin the mover
    // starts in, closes on and goes on to touch by max_fraction stops it
    // at t = 0; the edges outside the skin are swept below.
    for (size_t i = 0; i < n; ++i) {
      if (skip[i] || s0[i] > r2 || !GapShrinks(pairs[i])) continue;
      const std::vector<Vec2> edge{c.polygon[i], c.polygon[(i + 1) % n]};
      const Pair touch = MakePair(c.mover, c.mover_translation, edge, 0.0,
                                  c.obstacle_translation, c.max_fraction, 0.0,
                                  v.length_scale, k);
      if (SweptHits(touch)) {
        v.outcome = Outcome::kSkinHit;
        v.note = "in the skin, moving away from the nearest, onto another edge";
        return v;
      }
    }
    if (!v.touching_start) v.note = "in the skin, moving away";
  }
  // After a start in the skin, moving away from the nearest, a later hit
  // comes only from an edge that faces the motion (as a solid is entered
  // from outside) and that the mover starts outside the skin of, when it
  // reaches that skin (toi.h).
  Q twice_area = 0;
  for (size_t i = 0; i < n; ++i) {
    const Vec2 a = c.polygon[i];
    const Vec2 b = c.polygon[(i + 1) % n];
    twice_area += Q(a.x) * Q(b.y) - Q(b.x) * Q(a.y);
  }
  const Q rel_x = Q(c.mover_translation.x) - Q(c.obstacle_translation.x);
  const Q rel_y = Q(c.mover_translation.y) - Q(c.obstacle_translation.y);
  auto faces_motion = [&](size_t i) {
    const Vec2 a = c.polygon[i];
    const Vec2 b = c.polygon[(i + 1) % n];
    // The outward normal is RightPerp(b - a) for a counter-clockwise solid.
    const Q along_normal =
        (Q(b.y) - Q(a.y)) * rel_x - (Q(b.x) - Q(a.x)) * rel_y;
    return sgn(twice_area) * sgn(along_normal) < 0;
  };
  // After a touching start that moves away or along, a contact with
  // another edge at t* is a hit (tangents count, toi.h), unless that edge
  // shares a vertex with a touched edge the mover is still touching then
  // and the mover does not move into the solid right after: sliding past
  // the end of a touched surface onto the next edge, at a convex corner or
  // a collinear continuation. An edge that does not adjoin a touched one
  // (the far lip of a notch the mover bridges) is a new contact. Such
  // contacts come at a rational t*: for zero radii the entry time of a line
  // into a convex set, for a graze (the line of motion never comes closer
  // than R) the time of closest approach.
  std::vector<const Pair*> all;
  for (const Pair& p : pairs) all.push_back(&p);
  auto overlap_after = [&](const Q& t) {
    const int bits = EpsilonBits(all) + 4 * static_cast<int>(Bits(t.get_num()) +
                                                             Bits(t.get_den()));
    const Q te = t + EpsilonFraction(bits);
    if (core_inside(te) > 0 || vertex_inside(te)) return true;
    for (const Pair& p : pairs) {
      if (WithinAt(p, te, p.r_contact_k, /*strict=*/true)) return true;
    }
    return false;
  };
  // Whether the mover touches, at t, a vertex `edge` shares with a touched
  // edge: the contact is then the slide's own, at the touched surface's end.
  auto touching_adjoining = [&](size_t edge, const Q& t) {
    const size_t before = (edge + n - 1) % n;
    const size_t after = (edge + 1) % n;
    for (const auto& [neighbour, vertex] :
         {std::pair{before, edge}, std::pair{after, after}}) {
      if (!skip[neighbour]) continue;
      const std::vector<Vec2> point{c.polygon[vertex], c.polygon[vertex]};
      const Pair at = MakePair(c.mover, c.mover_translation, point, 0.0,
                               c.obstacle_translation, c.max_fraction, 0.0,
                               v.length_scale, k);
      if (WithinAt(at, t, at.r_k, false)) return true;
    }
    return false;
  };
  bool hit = false;
  for (size_t i = 0; i < n; ++i) {
    if (skip[i] || s0[i] <= r2) continue;
    if (any_skin && !faces_motion(i)) continue;
    if (!SweptHits(pairs[i])) continue;
    double lo = 0.0, hi = 0.0;
    Q t_exact;
    if (v.touching_start && RationalFirstContact(pairs[i], &t_exact)) {
      if (touching_adjoining(i, t_exact) && !overlap_after(t_exact)) continue;
      BracketQ(t_exact, &lo, &hi);
    } else if (!FindToiExact(pairs[i], &lo, &hi, &v.note)) {
      v.outcome = Outcome::kOracleError;
      return v;
    }
    if (!hit || hi < v.t_hi) v.t_hi = hi;
    if (!hit || lo < v.t_lo) v.t_lo = lo;
    hit = true;
  }
  v.outcome = hit ? Outcome::kHit : Outcome::kMiss;
  return v;
}

// ---------------------------------------------------------------------------
// Deforming segment, exact.

namespace {

// x + y sqrt(D), D >= 0.
struct Surd {
  Q x;
  Q y;
  Z D;
};

int SignSurd(const Q& x, const Q& y, const Z& D) {
  const int sx = sgn(x);
  const int sy = sgn(D) == 0 ? 0 : sgn(y);
  if (sy == 0) return sx;
  if (sx == 0 || sx == sy) return sy;
  const int c = cmp(Q(x * x), Q(y * y * Q(D)));
  return c > 0 ? sx : (c < 0 ? sy : 0);
}

int Compare(const Surd& a, const Q& c) { return SignSurd(a.x - c, a.y, a.D); }

// A quadratic g2 t^2 + g1 t + g0.
struct Poly {
  Z g2, g1, g0;
};

Poly DotPoly(const ZP& a0, const ZP& av, const ZP& b0, const ZP& bv) {
  return {av.x * bv.x + av.y * bv.y,
          a0.x * bv.x + a0.y * bv.y + av.x * b0.x + av.y * b0.y,
          a0.x * b0.x + a0.y * b0.y};
}

Poly Minus(const Poly& a, const Poly& b) {
  return {a.g2 - b.g2, a.g1 - b.g1, a.g0 - b.g0};
}

bool IsZero(const Poly& g) {
  return sgn(g.g2) == 0 && sgn(g.g1) == 0 && sgn(g.g0) == 0;
}

int SignAt(const Poly& g, const Q& t) {
  return sgn(Q((Q(g.g2) * t + Q(g.g1)) * t + Q(g.g0)));
}

// Sign of g at a root r = x + y sqrt(D) of f = A t^2 + B t + C (A != 0 when
// r is irrational): g mod f is linear, alpha t + beta.
int SignAtRoot(const Poly& g, const Surd& r, const Poly& f) {
  if (sgn(r.y) == 0 || sgn(r.D) == 0) return SignAt(g, r.x);
  Q ratio(g.g2, f.g2);
  ratio.canonicalize();
  const Q alpha = Q(g.g1) - ratio * Q(f.g1);
  const Q beta = Q(g.g0) - ratio * Q(f.g0);
  return SignSurd(alpha * r.x + beta, alpha * r.y, r.D);
}

// The real roots of f (not identically zero), ascending, with the sign f
// has just before each.
struct Root {
  Surd r;
  int side = 0;
};

std::vector<Root> Roots(const Poly& f) {
  std::vector<Root> out;
  if (sgn(f.g2) == 0) {
    if (sgn(f.g1) == 0) return out;
    Q t(Z(-f.g0), f.g1);
    t.canonicalize();
    out.push_back({{t, Q(0), Z(0)}, -sgn(f.g1)});
    return out;
  }
  const Z D = f.g1 * f.g1 - 4 * f.g2 * f.g0;
  if (sgn(D) < 0) return out;
  Q x(Z(-f.g1), Z(2 * f.g2));
  x.canonicalize();
  Q y(Z(1), Z(2 * f.g2));
  y.canonicalize();
  if (sgn(D) == 0) {
    out.push_back({{x, Q(0), Z(0)}, sgn(f.g2)});
    return out;
  }
  Surd lo{x, y, D}, hi{x, Q(-y), D};
  if (mpz_perfect_square_p(D.get_mpz_t())) {
    Z s;
    mpz_sqrt(s.get_mpz_t(), D.get_mpz_t());
    lo = {Q(x + y * Q(s)), Q(0), Z(0)};
    hi = {Q(x - y * Q(s)), Q(0), Z(0)};
  }
  if (SignSurd(lo.x - hi.x, lo.y - hi.y, D) > 0) std::swap(lo, hi);
  out.push_back({lo, sgn(f.g2)});
  out.push_back({hi, -sgn(f.g2)});
  return out;
}

void BracketSurd(const Surd& r, double* t_lo, double* t_hi) {
  if (sgn(r.y) == 0 || sgn(r.D) == 0) {
    BracketQ(r.x, t_lo, t_hi);
    return;
  }
  // x and y sqrt(D) may cancel to a root far smaller than either (inputs
  // at 2^-1074 beside ones near 1): the precision covers their sizes, so
  // that the double nearest the root is within a step or two of it.
  const auto bits = [](const Q& q) {
    return mpz_sizeinbase(q.get_num_mpz_t(), 2) +
           mpz_sizeinbase(q.get_den_mpz_t(), 2);
  };
  const mp_bitcnt_t precision =
      256 + 2 * (bits(r.x) + bits(r.y) + mpz_sizeinbase(r.D.get_mpz_t(), 2));
  mpf_class sq(0, precision);
  mpf_class dd(r.D, precision);
  mpf_sqrt(sq.get_mpf_t(), dd.get_mpf_t());
  const mpf_class val =
      mpf_class(r.x, precision) + mpf_class(r.y, precision) * sq;
  double lo = val.get_d(), hi = lo;
  for (int step = 0; Compare(r, Q(lo)) <= 0; ++step) {
    if (step == 64) Fatal("surd bracket");
    lo = std::nextafter(lo, -HUGE_VAL);
  }
  for (int step = 0; Compare(r, Q(hi)) > 0; ++step) {
    if (step == 64) Fatal("surd bracket");
    hi = std::nextafter(hi, HUGE_VAL);
  }
  *t_lo = lo;
  *t_hi = hi;
}

}  // namespace

Verdict SolveExact(const DeformingCase& c) {
  Verdict v;
  v.length_scale = LengthScale(c);
  ScaleFinder scale;
  scale.Add(c.origin);
  scale.Add(c.translation);
  scale.Add(c.start_p1);
  scale.Add(c.start_p2);
  scale.Add(c.end_p1);
  scale.Add(c.end_p2);
  const int k = scale.k();
  const ZP o = ToZ(c.origin, k), tr = ToZ(c.translation, k);
  const ZP a0 = ToZ(c.start_p1, k), b0 = ToZ(c.start_p2, k);
  const ZP a1 = ToZ(c.end_p1, k), b1 = ToZ(c.end_p2, k);
  const ZP da = Sub(a1, a0), db = Sub(b1, b0);
  const ZP p0 = Sub(o, a0), pv = Sub(tr, da);   // P(t) = p(t) - a(t)
  const ZP s0 = Sub(b0, a0), sv = Sub(db, da);  // S(t) = b(t) - a(t)
  const Poly f{CrossZ(sv, pv), CrossZ(s0, pv) + CrossZ(sv, p0), CrossZ(s0, p0)};
  const Poly dot = DotPoly(p0, pv, s0, sv);
  const Poly len2 = DotPoly(s0, sv, s0, sv);
  const Poly pp = DotPoly(p0, pv, p0, pv);
  const Poly rest = Minus(len2, dot);
  const Q t_max = ToQ(c.max_fraction);
  // On the segment at a root r of `of`: 0 <= P.S <= S.S, and P = 0 when the
  // segment is a point.
  auto on_segment = [&](const Surd& r, const Poly& of) {
    if (SignAtRoot(dot, r, of) < 0 || SignAtRoot(rest, r, of) < 0) {
      return false;
    }
    return SignAtRoot(len2, r, of) > 0 || SignAtRoot(pp, r, of) == 0;
  };
  const Surd zero{Q(0), Q(0), Z(0)};
  const bool start_on = sgn(f.g0) == 0 && on_segment(zero, f);
  v.touching_start = start_on;
  if (IsZero(f)) {
    // On the segment's line throughout: contact when P.S enters [0, S.S].
    if (start_on) {
      v.outcome = Outcome::kMiss;
      v.note = "starts on the segment, moving along its line";
      return v;
    }
    std::vector<Root> events;
    for (const Poly* g : {&dot, &rest}) {
      if (IsZero(*g)) continue;
      for (const Root& r : Roots(*g)) {
        if (Compare(r.r, Q(0)) <= 0 || Compare(r.r, t_max) > 0) continue;
        if (sgn(r.r.y) != 0 && sgn(r.r.D) != 0) {
          v.outcome = Outcome::kNearTangent;
          v.note = "collinear motion with an irrational entry time";
          return v;
        }
        events.push_back(r);
      }
    }
    std::sort(events.begin(), events.end(),
              [](const Root& a, const Root& b) { return a.r.x < b.r.x; });
    for (const Root& r : events) {
      if (on_segment(r.r, f)) {
        v.outcome = Outcome::kHit;
        v.note = "collinear entry";
        BracketSurd(r.r, &v.t_lo, &v.t_hi);
        return v;
      }
    }
    v.outcome = Outcome::kMiss;
    return v;
  }
  for (const Root& r : Roots(f)) {
    if (Compare(r.r, Q(0)) <= 0 || Compare(r.r, t_max) > 0) continue;
    if (!on_segment(r.r, f)) continue;
    v.outcome = Outcome::kHit;
    v.side = r.side;
    BracketSurd(r.r, &v.t_lo, &v.t_hi);
    return v;
  }
  v.outcome = Outcome::kMiss;
  if (start_on) v.note = "starts on the segment, leaves it";
  return v;
}

// ---------------------------------------------------------------------------
// Static questions: overlap and closest point.

namespace {

// sign(dist(0, h) - r) for the hull h and r >= 0 at the same scale, and the
// difference rounded in true units (scale 2^k).
int HullGapSign(const std::vector<ZP>& h, const Z& r, int k, double* gap) {
  const SignedSq s = SignedDistanceSq(h, ZP{Z(0), Z(0)});
  if (gap != nullptr) {
    // r in true units through GMP: at scale 2^k (past 2^1074 when an input
    // is subnormal) r itself may exceed double.
    *gap = SignedSqrt(ToTrueUnits(s, k)) - Q(Q(r) / Pow2(k)).get_d();
  }
  if (s.sign < 0) return -1;
  if (s.sign == 0) return sgn(r) > 0 ? -1 : 0;
  // distance^2 = num / den against r^2.
  const int c = cmp(s.sq.num, Z(r * r * s.sq.den));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::vector<ZP> DifferenceHull(const std::vector<Vec2>& a,
                               const std::vector<Vec2>& b, int k) {
  std::vector<ZP> diff;
  for (Vec2 u : a) {
    const ZP zu = ToZ(u, k);
    for (Vec2 v : b) {
      const ZP zv = ToZ(v, k);
      diff.push_back({zu.x - zv.x, zu.y - zv.y});
    }
  }
  return Hull(std::move(diff));
}

}  // namespace

int GapSign(const Core& a, const Core& b, double extra, double* gap) {
  ScaleFinder scale;
  scale.Add(a.points);
  scale.Add(b.points);
  scale.Add(a.radius);
  scale.Add(b.radius);
  scale.Add(extra);
  const int k = scale.k();
  const Z r = ToZ(a.radius, k) + ToZ(b.radius, k) + ToZ(extra, k);
  return HullGapSign(DifferenceHull(a.points, b.points, k), r, k, gap);
}

int GapSign(const Core& a, const std::vector<Vec2>& polygon, double extra,
            double* gap) {
  ScaleFinder scale;
  scale.Add(a.points);
  scale.Add(polygon);
  scale.Add(a.radius);
  scale.Add(extra);
  const int k = scale.k();
  const Z r = ToZ(a.radius, k) + ToZ(extra, k);
  // The grown core is connected: it overlaps the solid when it comes within
  // r of an edge or when (apart from every edge) its first point is inside.
  int sign = 1;
  double best = 0.0;
  const size_t n = polygon.size();
  for (size_t i = 0; i < n; ++i) {
    double g = 0.0;
    const int s = HullGapSign(
        DifferenceHull(a.points, {polygon[i], polygon[(i + 1) % n]}, k), r, k,
        &g);
    sign = std::min(sign, s);
    if (i == 0 || g < best) best = g;
  }
  if (sign > 0 && InsidePolygon(polygon, a.points[0])) {
    sign = -1;
    best = -best;
  }
  if (gap != nullptr) *gap = best;
  return sign;
}

int LineGapSign(const Core& a, Vec2 d, const Core& b) {
  ScaleFinder scale;
  scale.Add(a.points);
  scale.Add(b.points);
  scale.Add(a.radius);
  scale.Add(b.radius);
  scale.Add(d);
  const int k = scale.k();
  const std::vector<ZP> h = DifferenceHull(a.points, b.points, k);
  const ZP zd = ToZ(d, k);
  // Projections on n = (-d.y, d.x): H spans [lo, hi] across the line.
  bool first = true;
  Z lo, hi;
  for (const ZP& v : h) {
    const Z p = zd.x * v.y - zd.y * v.x;
    if (first || cmp(p, lo) < 0) lo = p;
    if (first || cmp(p, hi) > 0) hi = p;
    first = false;
  }
  const Z m = cmp(lo, Z(-hi)) > 0 ? lo : Z(-hi);
  if (sgn(m) < 0) return -1;
  const Z r = ToZ(a.radius, k) + ToZ(b.radius, k);
  // m against r |n|, both >= 0: squared.
  const int c = cmp(Z(m * m), Z(r * r * (zd.x * zd.x + zd.y * zd.y)));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace collide::oracle
