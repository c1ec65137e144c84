// Exact TOI oracle, band mode (Solve): see exact_oracle.h. The exact mode
// (SolveExact) and the static questions are in exact_oracle_exact.cc.
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

#include "exact_oracle_scaled.h"

namespace collide::oracle {

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

}  // namespace collide::oracle
