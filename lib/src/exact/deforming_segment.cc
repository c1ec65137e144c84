#include "exact/deforming_segment.h"

#include <cmath>

#include "exact/sign.h"

namespace collide::internal {
namespace {

ExactVec operator-(const ExactVec& u, const ExactVec& v) {
  return {u.x - v.x, u.y - v.y};
}
Expansion CrossOf(const ExactVec& u, const ExactVec& v) {
  return u.x * v.y - u.y * v.x;
}
Expansion DotOf(const ExactVec& u, const ExactVec& v) {
  return u.x * v.x + u.y * v.y;
}

// c2 t^2 + c1 t + c0.
struct Poly {
  Expansion c2, c1, c0;
  bool IsZero() const {
    return c2.sign() == 0 && c1.sign() == 0 && c0.sign() == 0;
  }
};

// (u0 + t u1) . (v0 + t v1).
Poly DotPoly(const ExactVec& u0, const ExactVec& u1, const ExactVec& v0,
             const ExactVec& v1) {
  return {DotOf(u1, v1), DotOf(u0, v1) + DotOf(u1, v0), DotOf(u0, v0)};
}

// Sign of x + y sqrt(d), d >= 0.
int SignWithRoot(const Expansion& x, const Expansion& y, const Expansion& d) {
  const int sx = x.sign();
  const int sy = d.sign() == 0 ? 0 : y.sign();
  if (sy == 0) return sx;
  if (sx == 0 || sx == sy) return sy;
  return sx * (x * x - y * y * d).sign();
}

// A real root of `of`: (-c1 + s sqrt(disc)) / 2 c2, or -c0 / c1 when c2 = 0.
struct Root {
  const Poly* of;
  int s;
  Expansion disc;
};

// Sign of g at the root. For quadratic h = root.of:
// h2 g(t) - g2 h(t) = U t + V, so at the root h2 g(r) = U r + V and
// 2 h2^2 g(r) = W + s U sqrt(disc) with W = 2 h2 V - U h1.
int SignAt(const Poly& g, const Root& root) {
  const Poly& h = *root.of;
  if (h.c2.sign() != 0) {
    const Expansion u = h.c2 * g.c1 - g.c2 * h.c1;
    const Expansion v = h.c2 * g.c0 - g.c2 * h.c0;
    const Expansion w = (h.c2 + h.c2) * v - u * h.c1;
    return SignWithRoot(w, root.s > 0 ? u : -u, root.disc);
  }
  // h1^2 g(-h0 / h1).
  return (g.c2 * h.c0 * h.c0 - g.c1 * h.c0 * h.c1 + g.c0 * h.c1 * h.c1).sign();
}

// The real roots of h (not identically zero) in ascending order.
int RootsOf(const Poly& h, Root roots[2]) {
  const int s2 = h.c2.sign();
  if (s2 == 0) {
    if (h.c1.sign() == 0) return 0;
    roots[0] = {&h, 0, Expansion()};
    return 1;
  }
  const Expansion four_ac = Expansion(4.0) * h.c2 * h.c0;
  const Expansion disc = h.c1 * h.c1 - four_ac;
  const int sd = disc.sign();
  if (sd < 0) return 0;
  if (sd == 0) {
    roots[0] = {&h, 1, disc};
    return 1;
  }
  roots[0] = {&h, -s2, disc};
  roots[1] = {&h, s2, disc};
  return 2;
}

// The root's value, rounded (the stable form: no -b + sqrt cancellation),
// from the coefficients' long double estimates: those of degree four stay
// in range there whatever the inputs' exponents.
double Estimate(const Root& root) {
  const Poly& h = *root.of;
  const long double a = h.c2.WideEstimate();
  const long double b = h.c1.WideEstimate();
  const long double c = h.c0.WideEstimate();
  if (a == 0.0L) return RoundToDouble(-c / b);
  const long double sd = std::sqrt(root.disc.WideEstimate());
  if (b == 0.0L) return RoundToDouble(root.s * sd / (2.0L * a));
  const long double q = -0.5L * (b + std::copysign(sd, b));
  // q / a is the root with s = -sign(b).
  return RoundToDouble((root.s < 0) == (b > 0.0L) ? q / a : c / q);
}

}  // namespace

DeformingDecision DecideDeformingExact(const DeformingInputs& in,
                                       double max_fraction) {
  const ExactVec m0 = Difference(in.origin, in.a0);
  const ExactVec da = Difference(in.a1, in.a0);
  const ExactVec db = Difference(in.b1, in.b0);
  const ExactVec dm =
      ExactVec{Expansion(in.translation.x), Expansion(in.translation.y)} - da;
  const ExactVec e0 = Difference(in.b0, in.a0);
  const ExactVec de = db - da;
  const Poly f{CrossOf(de, dm), CrossOf(e0, dm) + CrossOf(de, m0),
               CrossOf(e0, m0)};
  const Poly dot = DotPoly(m0, dm, e0, de);
  const Poly len2 = DotPoly(e0, de, e0, de);
  const Poly pp = DotPoly(m0, dm, m0, dm);
  const Poly rest{len2.c2 - dot.c2, len2.c1 - dot.c1, len2.c0 - dot.c0};
  const Poly after_start{Expansion(), Expansion(1.0), Expansion()};
  const Poly after_max{Expansion(), Expansion(1.0), Expansion(-max_fraction)};

  DeformingDecision decision;
  decision.start_side = f.c0.sign();
  decision.start_on = decision.start_side == 0 && dot.c0.sign() >= 0 &&
                      rest.c0.sign() >= 0 &&
                      (len2.c0.sign() > 0 || pp.c0.sign() == 0);

  // Where on the segment the point is at the root, if on it.
  const auto place_at = [&](const Root& root, DeformingPlace* place) {
    const int along = SignAt(dot, root);
    if (along < 0) return false;
    const int before_end = SignAt(rest, root);
    if (before_end < 0) return false;
    if (SignAt(len2, root) == 0) {
      *place = DeformingPlace::kEnd0;  // shrunk to a point: on it or not
      return SignAt(pp, root) == 0;
    }
    *place = along == 0        ? DeformingPlace::kEnd0
             : before_end == 0 ? DeformingPlace::kEnd1
                               : DeformingPlace::kEdge;
    return true;
  };
  const auto in_range = [&](const Root& root) {
    return SignAt(after_start, root) > 0 && SignAt(after_max, root) <= 0;
  };

  if (f.IsZero()) {
    // On the moving line throughout: contact where m.e enters [0, e.e],
    // which happens at a root of m.e or of e.e - m.e. Starting on the
    // segment, the point moves along it.
    if (decision.start_on) return decision;
    for (const Poly* g : {&dot, &rest}) {
      if (g->IsZero()) continue;
      Root roots[2];
      const int count = RootsOf(*g, roots);
      for (int i = 0; i < count; ++i) {
        DeformingPlace place;
        if (!in_range(roots[i]) || !place_at(roots[i], &place)) continue;
        const double t = Estimate(roots[i]);
        if (decision.hit && decision.contact.t <= t) continue;
        decision.hit = true;
        decision.contact = {t, place, 0, true};
      }
    }
    return decision;
  }
  Root roots[2];
  const int count = RootsOf(f, roots);
  for (int i = 0; i < count; ++i) {
    DeformingPlace place;
    if (!in_range(roots[i]) || !place_at(roots[i], &place)) continue;
    // f' at the root is s sqrt(disc) (or f1 for a linear f).
    const int slope = f.c2.sign() == 0
                          ? f.c1.sign()
                          : (roots[i].disc.sign() == 0 ? 0 : roots[i].s);
    decision.hit = true;
    decision.contact = {Estimate(roots[i]), place, slope, false};
    return decision;
  }
  return decision;
}

}  // namespace collide::internal
