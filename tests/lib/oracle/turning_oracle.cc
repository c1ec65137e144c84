// The turning oracle: MPFR intervals at 256 bits, directed rounding.
#include "turning_oracle.h"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace collide::oracle {
namespace {

constexpr mpfr_prec_t kBits = 256;

// A closed interval [lo, hi] of reals; every operation rounds lo down and
// hi up, so the exact result of the exact operands is always inside.
class Iv {
 public:
  Iv() {
    mpfr_init2(lo_, kBits);
    mpfr_init2(hi_, kBits);
    mpfr_set_zero(lo_, 1);
    mpfr_set_zero(hi_, 1);
  }
  explicit Iv(double d) : Iv() {
    mpfr_set_d(lo_, d, MPFR_RNDD);
    mpfr_set_d(hi_, d, MPFR_RNDU);
  }
  Iv(const Iv& o) : Iv() {
    mpfr_set(lo_, o.lo_, MPFR_RNDD);
    mpfr_set(hi_, o.hi_, MPFR_RNDU);
  }
  Iv& operator=(const Iv& o) {
    mpfr_set(lo_, o.lo_, MPFR_RNDD);
    mpfr_set(hi_, o.hi_, MPFR_RNDU);
    return *this;
  }
  ~Iv() {
    mpfr_clear(lo_);
    mpfr_clear(hi_);
  }
  double Lo() const { return mpfr_get_d(lo_, MPFR_RNDD); }
  double Hi() const { return mpfr_get_d(hi_, MPFR_RNDU); }
  bool Positive() const { return mpfr_sgn(lo_) > 0; }
  bool Negative() const { return mpfr_sgn(hi_) < 0; }
  // A point of the interval (its midpoint, rounded): an exact number to
  // build axes from.
  Iv Mid() const {
    Iv m;
    mpfr_add(m.lo_, lo_, hi_, MPFR_RNDN);
    mpfr_div_2ui(m.lo_, m.lo_, 1, MPFR_RNDN);
    mpfr_set(m.hi_, m.lo_, MPFR_RNDN);
    return m;
  }

  mpfr_t lo_;
  mpfr_t hi_;
};

Iv operator+(const Iv& a, const Iv& b) {
  Iv r;
  mpfr_add(r.lo_, a.lo_, b.lo_, MPFR_RNDD);
  mpfr_add(r.hi_, a.hi_, b.hi_, MPFR_RNDU);
  return r;
}
Iv operator-(const Iv& a, const Iv& b) {
  Iv r;
  mpfr_sub(r.lo_, a.lo_, b.hi_, MPFR_RNDD);
  mpfr_sub(r.hi_, a.hi_, b.lo_, MPFR_RNDU);
  return r;
}
Iv operator*(const Iv& a, const Iv& b) {
  Iv r;
  mpfr_t p;
  mpfr_init2(p, kBits);
  const mpfr_srcptr xs[2] = {a.lo_, a.hi_};
  const mpfr_srcptr ys[2] = {b.lo_, b.hi_};
  bool first = true;
  for (mpfr_srcptr x : xs) {
    for (mpfr_srcptr y : ys) {
      mpfr_mul(p, x, y, MPFR_RNDD);
      if (first || mpfr_less_p(p, r.lo_)) mpfr_set(r.lo_, p, MPFR_RNDD);
      mpfr_mul(p, x, y, MPFR_RNDU);
      if (first || mpfr_greater_p(p, r.hi_)) mpfr_set(r.hi_, p, MPFR_RNDU);
      first = false;
    }
  }
  mpfr_clear(p);
  return r;
}
Iv Sqrt(const Iv& a) {
  Iv r;
  if (mpfr_sgn(a.lo_) > 0) mpfr_sqrt(r.lo_, a.lo_, MPFR_RNDD);
  if (mpfr_sgn(a.hi_) > 0) mpfr_sqrt(r.hi_, a.hi_, MPFR_RNDU);
  return r;
}

struct IvVec {
  Iv x;
  Iv y;
};
IvVec operator-(const IvVec& a, const IvVec& b) {
  return {a.x - b.x, a.y - b.y};
}
Iv Dot(const IvVec& a, const IvVec& b) { return a.x * b.x + a.y * b.y; }
Iv Cross(const IvVec& a, const IvVec& b) { return a.x * b.y - a.y * b.x; }
IvVec Mid(const IvVec& a) { return {a.x.Mid(), a.y.Mid()}; }
Vec2 Approx(const IvVec& a) {
  return {0.5 * (a.x.Lo() + a.x.Hi()), 0.5 * (a.y.Lo() + a.y.Hi())};
}

struct Pose {
  std::vector<IvVec> v;
  double radius = 0.0;
};

// The pose at fraction t: pivot + t * T + R(angle t) (vertex - pivot), with
// angle * t exact at 256 bits and its sine and cosine rounded outwards, in
// a frame whose origin is `origin` (so that the approximate positions that
// choose the nearest pair keep their digits far from the level's origin).
Pose PoseAt(const TurnShape& s, double t, Vec2 origin) {
  Pose pose;
  pose.radius = s.radius;
  mpfr_t phi;
  mpfr_init2(phi, kBits);
  mpfr_set_d(phi, s.angle, MPFR_RNDN);
  mpfr_mul_d(phi, phi, t, MPFR_RNDN);  // exact: 106 bits at most
  Iv c;
  Iv sn;
  mpfr_cos(c.lo_, phi, MPFR_RNDD);
  mpfr_cos(c.hi_, phi, MPFR_RNDU);
  mpfr_sin(sn.lo_, phi, MPFR_RNDD);
  mpfr_sin(sn.hi_, phi, MPFR_RNDU);
  mpfr_clear(phi);
  const Iv tt(t);
  const Iv px = (Iv(s.pivot.x) - Iv(origin.x)) + Iv(s.translation.x) * tt;
  const Iv py = (Iv(s.pivot.y) - Iv(origin.y)) + Iv(s.translation.y) * tt;
  for (const Vec2 vertex : s.vertices) {
    const Iv ox = Iv(vertex.x) - Iv(s.pivot.x);
    const Iv oy = Iv(vertex.y) - Iv(s.pivot.y);
    pose.v.push_back({px + (c * ox - sn * oy), py + (sn * ox + c * oy)});
  }
  return pose;
}

size_t EdgeCount(const Pose& p) { return p.v.size() <= 2 ? 1 : p.v.size(); }
size_t EdgeEnd(const Pose& p, size_t i) {
  return p.v.size() == 1 ? 0 : (i + 1) % p.v.size();
}

// The nearest vertex-to-edge pair, chosen on approximate positions (the
// choice only affects how tight the bounds are, never their validity).
struct Pair {
  bool vertex_of_a = true;
  size_t vertex = 0;
  size_t edge = 0;
  double tau = 0.0;  // position on the edge, in [0, 1]
  bool interior = false;
};

void Nearest(const Pose& from, const Pose& to, bool from_is_a, double* best,
             Pair* pair) {
  for (size_t i = 0; i < from.v.size(); ++i) {
    const Vec2 x = Approx(from.v[i]);
    for (size_t e = 0; e < EdgeCount(to); ++e) {
      const Vec2 p = Approx(to.v[e]);
      const Vec2 q = Approx(to.v[EdgeEnd(to, e)]);
      const Vec2 pq = q - p;
      double tau = 0.0;
      if (LengthSquared(pq) > 0.0) {
        tau = std::clamp(collide::Dot(x - p, pq) / LengthSquared(pq), 0.0, 1.0);
      }
      const double d2 = LengthSquared(x - (p + tau * pq));
      if (d2 < *best) {
        *best = d2;
        *pair = {from_is_a, i, e, tau, tau > 0.0 && tau < 1.0};
      }
    }
  }
}

Pair NearestPair(const Pose& a, const Pose& b) {
  double best = INFINITY;
  Pair pair;
  Nearest(a, b, true, &best, &pair);
  Nearest(b, a, false, &best, &pair);
  return pair;
}

// The gap between the projections of a and b on `axis` (from a towards
// b) over the axis' length, rounded down; -1 when not positive.
double AxisGap(const Pose& a, const Pose& b, const IvVec& axis) {
  Iv a_max;
  Iv b_min;
  for (size_t i = 0; i < a.v.size(); ++i) {
    const Iv d = Dot(axis, a.v[i]);
    if (i == 0 || mpfr_greater_p(d.hi_, a_max.hi_)) a_max = d;
  }
  for (size_t i = 0; i < b.v.size(); ++i) {
    const Iv d = Dot(axis, b.v[i]);
    if (i == 0 || mpfr_less_p(d.lo_, b_min.lo_)) b_min = d;
  }
  Iv gap;
  mpfr_sub(gap.lo_, b_min.lo_, a_max.hi_, MPFR_RNDD);
  if (mpfr_sgn(gap.lo_) <= 0) return -1.0;
  const Iv length = Sqrt(Dot(axis, axis));
  Iv r;
  mpfr_div(r.lo_, gap.lo_, length.hi_, MPFR_RNDD);
  return r.Lo();
}

IvVec Negated(const IvVec& v) { return {Iv(0.0) - v.x, Iv(0.0) - v.y}; }

// A rigorous lower bound on the distance (hulls minus radii): the best
// projection gap over three axes built at 256 bits from the nearest pair
// (the edge's normal, and the directions from the vertex to the edge's
// two ends); any axis gives a valid bound.
double LowerBound(const Pose& a, const Pose& b, const Pair& pair) {
  const Pose& from = pair.vertex_of_a ? a : b;
  const Pose& to = pair.vertex_of_a ? b : a;
  const IvVec x = Mid(from.v[pair.vertex]);
  const IvVec p = Mid(to.v[pair.edge]);
  const IvVec q = Mid(to.v[EdgeEnd(to, pair.edge)]);
  const IvVec pq = q - p;
  IvVec normal{Iv(0.0) - pq.y, pq.x};
  if (Cross(pq, x - p).Lo() > 0.0) normal = Negated(normal);
  IvVec axes[3] = {normal, p - x, q - x};  // from the vertex to the edge
  double best = -1.0;
  for (IvVec& axis : axes) {
    if (!pair.vertex_of_a) axis = Negated(axis);
    best = std::max(best, AxisGap(a, b, axis));
  }
  // Near a tie between a vertex and the edge next to it the chosen pair's
  // axes may not separate: every edge normal of both hulls is tried then.
  if (!(best > 0.0)) {
    for (const Pose* pose : {&a, &b}) {
      if (pose->v.size() < 2) continue;
      for (size_t e = 0; e < EdgeCount(*pose); ++e) {
        const IvVec d = Mid(pose->v[EdgeEnd(*pose, e)]) - Mid(pose->v[e]);
        const IvVec normal{d.y, Iv(0.0) - d.x};
        best = std::max(best, AxisGap(a, b, normal));
        best = std::max(best, AxisGap(a, b, Negated(normal)));
      }
    }
  }
  if (!(best > 0.0)) return -1.0;
  Iv r(best);
  mpfr_sub_d(r.lo_, r.lo_, a.radius, MPFR_RNDD);
  mpfr_sub_d(r.lo_, r.lo_, b.radius, MPFR_RNDD);
  return r.Lo();
}

bool Left(const IvVec& p, const IvVec& q, const IvVec& x) {
  return Cross(q - p, x - p).Positive();
}
bool Right(const IvVec& p, const IvVec& q, const IvVec& x) {
  return Cross(q - p, x - p).Negative();
}

bool VertexInside(const Pose& inner, const Pose& outer) {
  if (outer.v.size() < 3) return false;
  for (const IvVec& x : inner.v) {
    bool inside = true;
    for (size_t e = 0; e < outer.v.size() && inside; ++e) {
      inside = Left(outer.v[e], outer.v[EdgeEnd(outer, e)], x);
    }
    if (inside) return true;
  }
  return false;
}

bool Straddle(const IvVec& p, const IvVec& q, const IvVec& r, const IvVec& s) {
  return (Left(r, s, p) && Right(r, s, q)) || (Right(r, s, p) && Left(r, s, q));
}

bool EdgesCross(const Pose& a, const Pose& b) {
  if (a.v.size() < 2 || b.v.size() < 2) return false;
  for (size_t i = 0; i < EdgeCount(a); ++i) {
    for (size_t j = 0; j < EdgeCount(b); ++j) {
      const IvVec& p = a.v[i];
      const IvVec& q = a.v[EdgeEnd(a, i)];
      const IvVec& r = b.v[j];
      const IvVec& s = b.v[EdgeEnd(b, j)];
      if (Straddle(p, q, r, s) && Straddle(r, s, p, q)) return true;
    }
  }
  return false;
}

// The nearest pair's true points within the radii of each other.
bool WithinRadii(const Pose& a, const Pose& b, const Pair& pair) {
  const double radii = a.radius + b.radius;
  if (!(radii > 0.0)) return false;
  const Pose& from = pair.vertex_of_a ? a : b;
  const Pose& to = pair.vertex_of_a ? b : a;
  const IvVec& x = from.v[pair.vertex];
  const IvVec& p = to.v[pair.edge];
  const IvVec& q = to.v[EdgeEnd(to, pair.edge)];
  const Iv tau(pair.tau);
  const IvVec y{p.x + tau * (q.x - p.x), p.y + tau * (q.y - p.y)};
  const IvVec d = x - y;
  const Iv d2 = Dot(d, d);
  const Iv r = Iv(radii) * Iv(radii);
  return mpfr_lessequal_p(d2.hi_, r.lo_);
}

bool InContact(const Pose& a, const Pose& b) {
  return WithinRadii(a, b, NearestPair(a, b)) || VertexInside(a, b) ||
         VertexInside(b, a) || EdgesCross(a, b);
}

// A point (no radius) on certainly opposite sides of a segment's line at
// two fractions, its projection inside the segment by more than it can
// drift while every vertex moves at most `motion`.
int Side(const IvVec& x, const IvVec& p, const IvVec& q, double motion) {
  const Vec2 pq = Approx(q) - Approx(p);
  const double length = Length(pq);
  if (!(length > 0.0)) return 0;
  const double reach =
      std::max(Length(Approx(x) - Approx(p)), Length(Approx(x) - Approx(q))) *
          1.01 +
      1e-300;
  const double margin = motion * (2.0 + 4.0 * reach / (0.99 * length));
  const Iv need = Iv(margin) * Sqrt(Dot(q - p, q - p));
  if (!mpfr_greater_p(Dot(x - p, q - p).lo_, need.hi_)) return 0;
  if (!mpfr_greater_p(Dot(x - q, p - q).lo_, need.hi_)) return 0;
  if (Left(p, q, x)) return 1;
  if (Right(p, q, x)) return -1;
  return 0;
}

bool Crossed(const Pose& a0, const Pose& b0, const Pose& a1, const Pose& b1,
             double motion) {
  if (a0.radius != 0.0 || b0.radius != 0.0) return false;
  const bool point_is_a = a0.v.size() == 1 && b0.v.size() == 2;
  if (!point_is_a && !(a0.v.size() == 2 && b0.v.size() == 1)) return false;
  const Pose& x0 = point_is_a ? a0 : b0;
  const Pose& s0 = point_is_a ? b0 : a0;
  const Pose& x1 = point_is_a ? a1 : b1;
  const Pose& s1 = point_is_a ? b1 : a1;
  const int before = Side(x0.v[0], s0.v[0], s0.v[1], motion);
  const int after = Side(x1.v[0], s1.v[0], s1.v[1], motion);
  return before != 0 && after == -before;
}

double Reach(const TurnShape& s) {
  double r = 0.0;
  for (const Vec2 v : s.vertices) r = std::max(r, Length(v - s.pivot));
  return r * (1.0 + 1e-12) + 1e-300;
}

double Size(const TurnShape& a, const TurnShape& b) {
  return Reach(a) + Reach(b) + Length(a.pivot - b.pivot) +
         Length(a.translation) + Length(b.translation) + a.radius + b.radius;
}

struct State {
  double t = 0.0;
  Pose a;
  Pose b;
  double lower = -1.0;
};

}  // namespace

OracleAnswer TurningOracle(const TurnShape& a, const TurnShape& b,
                           double max_fraction, int max_evaluations) {
  OracleAnswer answer;
  const double slack = 1.0 + 1e-12;
  const double speed =
      (Length(a.translation - b.translation) + std::fabs(a.angle) * Reach(a) +
       std::fabs(b.angle) * Reach(b)) *
          slack +
      1e-300;
  const double absolute_speed =
      (Length(a.translation) + Length(b.translation) +
       std::fabs(a.angle) * Reach(a) + std::fabs(b.angle) * Reach(b)) *
      slack;
  // A gap below this is reported kNear: far below what double resolves.
  const double near = 0x1p-60 * Size(a, b);
  auto evaluate = [&](double t) {
    ++answer.evaluations;
    State s;
    s.t = t;
    s.a = PoseAt(a, t, a.pivot);
    s.b = PoseAt(b, t, a.pivot);
    s.lower = LowerBound(s.a, s.b, NearestPair(s.a, s.b));
    return s;
  };
  auto contact_by = [&](const State& from, const State& end) {
    return InContact(end.a, end.b) ||
           Crossed(from.a, from.b, end.a, end.b,
                   absolute_speed * (end.t - from.t) * slack);
  };
  auto finish = [&](OracleKind kind, double lo, double hi) {
    answer.kind = kind;
    answer.lo = lo;
    answer.hi = hi;
    return answer;
  };
  State s = evaluate(0.0);
  if (InContact(s.a, s.b)) return finish(OracleKind::kHit, 0.0, 0.0);
  if (!(s.lower > 0.0)) {
    const double end = std::min(kOracleWidth, max_fraction);
    if (end > 0.0 && contact_by(s, evaluate(end))) {
      return finish(OracleKind::kHit, 0.0, end);
    }
    // A touching start that does not go in: judged from kOracleSkip on.
    if (max_fraction <= kOracleSkip) return finish(OracleKind::kNear, 0.0, 0.0);
    s = evaluate(kOracleSkip);
    answer.judged_from = kOracleSkip;
    if (InContact(s.a, s.b)) {
      return finish(OracleKind::kHit, kOracleSkip, kOracleSkip);
    }
    if (!(s.lower > 0.0)) {
      return finish(OracleKind::kNear, kOracleSkip, kOracleSkip);
    }
  }
  mpfr_t sum;
  mpfr_init2(sum, kBits);
  int fine = 0;
  while (answer.evaluations < max_evaluations) {
    const double step = s.lower / speed * (1.0 - 1e-12);
    mpfr_set_d(sum, s.t, MPFR_RNDN);
    mpfr_add_d(sum, sum, step, MPFR_RNDD);
    if (mpfr_cmp_d(sum, max_fraction) > 0) {
      mpfr_clear(sum);
      return finish(OracleKind::kMiss, 0.0, 0.0);
    }
    const double next_t = mpfr_get_d(sum, MPFR_RNDD);
    if (step < 0.25 * kOracleWidth && (fine++ % 4) == 0) {
      const State end = evaluate(std::min(s.t + kOracleWidth, max_fraction));
      if (contact_by(s, end)) {
        mpfr_clear(sum);
        return finish(OracleKind::kHit, s.t, end.t);
      }
    }
    if (s.lower < near || !(next_t > s.t)) {
      mpfr_clear(sum);
      return finish(OracleKind::kNear, s.t, s.t);
    }
    State next = evaluate(next_t);
    if (next.lower > 0.0) {
      s = next;
      continue;
    }
    mpfr_clear(sum);
    if (InContact(next.a, next.b)) {
      return finish(OracleKind::kHit, next_t, next_t);
    }
    const double hi = std::min(next_t + kOracleWidth, max_fraction);
    if (hi > next_t && contact_by(s, evaluate(hi))) {
      return finish(OracleKind::kHit, next_t, hi);
    }
    return finish(OracleKind::kNear, next_t, next_t);
  }
  mpfr_clear(sum);
  return finish(OracleKind::kUndecided, s.t, s.t);
}

}  // namespace collide::oracle
