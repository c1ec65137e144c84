// Exact TOI oracle, exact mode (SolveExact) and the static questions
// (GapSign, LineGapSign): see exact_oracle.h; the scaled integers they work
// on are exact_oracle_scaled.h's.
#include <gmp.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "exact_oracle.h"
#include "exact_oracle_scaled.h"

namespace collide::oracle {

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
