#include "exact/sign.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace collide::internal {
namespace {

using Term = Expansion::Term;

// Error-free transformations: a + b = x + y and a * b = x + y exactly, with
// x the rounded result.
inline void TwoSum(Term a, Term b, Term& x, Term& y) {
  x = a + b;
  const Term b_virtual = x - a;
  const Term a_virtual = x - b_virtual;
  y = (a - a_virtual) + (b - b_virtual);
}

// Veltkamp's split: a = high + low, each half of the significand (so that
// products of halves are exact). long double has no hardware fused
// multiply-add on x86-64 (fmal is emulated in software), so the product
// below is Dekker's.
inline void Split(Term a, Term& high, Term& low) {
  static constexpr int kHalf = (std::numeric_limits<Term>::digits + 1) / 2;
  static_assert(kHalf < 64);
  // A constant, not a function-local static with its guard on every call.
  static constexpr Term kSplitter =
      static_cast<Term>(std::uint64_t{1} << kHalf) + 1;
  const Term c = kSplitter * a;
  high = c - (c - a);
  low = a - high;
}

inline void TwoProduct(Term a, Term b, Term& x, Term& y) {
  x = a * b;
  Term a_high;
  Term a_low;
  Term b_high;
  Term b_low;
  Split(a, a_high, a_low);
  Split(b, b_high, b_low);
  y = ((a_high * b_high - x) + a_high * b_low + a_low * b_high) + a_low * b_low;
}

// h = e + b (Shewchuk's Grow-Expansion with zero elimination); e has n
// terms, h room for n + 1. Returns h's size.
int GrowExpansion(int n, const Term* e, Term b, Term* h) {
  Term q = b;
  int size = 0;
  for (int i = 0; i < n; ++i) {
    Term sum;
    Term error;
    TwoSum(q, e[i], sum, error);
    q = sum;
    if (error != 0.0) h[size++] = error;
  }
  if (q != 0.0 || size == 0) h[size++] = q;
  if (size == 1 && h[0] == 0.0) size = 0;
  return size;
}

// h = e * b (Scale-Expansion with zero elimination); h room for 2n.
int ScaleExpansion(int n, const Term* e, Term b, Term* h) {
  if (n == 0 || b == 0.0L) return 0;
  int size = 0;
  Term q;
  Term low;
  TwoProduct(e[0], b, q, low);
  if (low != 0.0) h[size++] = low;
  for (int i = 1; i < n; ++i) {
    Term product;
    Term product_low;
    TwoProduct(e[i], b, product, product_low);
    Term sum;
    TwoSum(q, product_low, sum, low);
    if (low != 0.0) h[size++] = low;
    // Fast-Two-Sum: |product| >= |sum| here.
    q = product + sum;
    low = sum - (q - product);
    if (low != 0.0) h[size++] = low;
  }
  if (q != 0.0) h[size++] = q;
  return size;
}

// Compress (Shewchuk): renormalises e in place into a non-overlapping
// expansion of at most n terms, increasing magnitude, no zeros.
int CompressTerms(int n, Term* e) {
  if (n == 0) return 0;
  Term g[2 * Expansion::kCapacity + 2];
  int bottom = n - 1;
  Term q = e[bottom];
  for (int i = n - 2; i >= 0; --i) {
    const Term sum = q + e[i];
    const Term small = e[i] - (sum - q);
    if (small != 0.0) {
      g[bottom--] = sum;
      q = small;
    } else {
      q = sum;
    }
  }
  int top = 0;
  for (int i = bottom + 1; i < n; ++i) {
    const Term sum = g[i] + q;
    const Term small = q - (sum - g[i]);
    if (small != 0.0) e[top++] = small;
    q = sum;
  }
  if (q != 0.0) e[top++] = q;
  return top;
}

}  // namespace

Expansion Expansion::Difference(double a, double b) {
  Expansion result;
  Term x;
  Term y;
  TwoSum(a, -b, x, y);
  if (y != 0.0) result.terms_[result.size_++] = y;
  if (x != 0.0) result.terms_[result.size_++] = x;
  return result;
}

Expansion Expansion::Sum(double a, double b) { return Difference(a, -b); }

Expansion Expansion::operator-() const {
  Expansion result = *this;
  for (int i = 0; i < size_; ++i) result.terms_[i] = -terms_[i];
  return result;
}

Expansion operator+(const Expansion& e, const Expansion& f) {
  // Grow e by each of f's terms; the buffers hold e.size + f.size terms.
  Term a[2 * Expansion::kCapacity + 2];
  Term b[2 * Expansion::kCapacity + 2];
  int n = e.size_;
  for (int i = 0; i < n; ++i) a[i] = e.terms_[i];
  Term* current = a;
  Term* next = b;
  for (int i = 0; i < f.size_; ++i) {
    n = GrowExpansion(n, current, f.terms_[i], next);
    Term* t = current;
    current = next;
    next = t;
  }
  n = CompressTerms(n, current);
  Expansion result;
  // More than kCapacity terms: keep the largest (the value's leading
  // 53 * kCapacity bits, far beyond any form here).
  const int drop = n > Expansion::kCapacity ? n - Expansion::kCapacity : 0;
  for (int i = drop; i < n; ++i) result.terms_[result.size_++] = current[i];
  return result;
}

Expansion operator-(const Expansion& e, const Expansion& f) { return e + -f; }

Expansion operator*(const Expansion& e, const Expansion& f) {
  // The sum over f's terms of e scaled by each, compressed as it grows.
  Expansion result;
  for (int i = 0; i < f.size_; ++i) {
    Expansion scaled;
    Term h[2 * Expansion::kCapacity];
    int n = ScaleExpansion(e.size_, e.terms_, f.terms_[i], h);
    n = CompressTerms(n, h);
    const int drop = n > Expansion::kCapacity ? n - Expansion::kCapacity : 0;
    for (int k = drop; k < n; ++k) scaled.terms_[scaled.size_++] = h[k];
    result = result + scaled;
  }
  return result;
}

namespace {

Expansion CrossExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const Expansion ux = Expansion::Difference(b.x, a.x);
  const Expansion uy = Expansion::Difference(b.y, a.y);
  const Expansion vx = Expansion::Difference(d.x, c.x);
  const Expansion vy = Expansion::Difference(d.y, c.y);
  return ux * vy - uy * vx;
}

}  // namespace

int CrossSignExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  return CrossExact(a, b, c, d).sign();
}

long double CrossEstimate(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  return CrossExact(a, b, c, d).WideEstimate();
}

int OrientAfterExact(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f) {
  const Expansion ex = Expansion::Difference(b.x, a.x);
  const Expansion ey = Expansion::Difference(b.y, a.y);
  const Expansion scale(f);
  const Expansion mx = Expansion::Difference(p.x, a.x) +
                       scale * Expansion::Difference(to.x, from.x);
  const Expansion my = Expansion::Difference(p.y, a.y) +
                       scale * Expansion::Difference(to.y, from.y);
  return (ex * my - ey * mx).sign();
}

int DotAfterExact(Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to, double f) {
  const Expansion scale(f);
  const Expansion mx = Expansion::Difference(p.x, a.x) +
                       scale * Expansion::Difference(to.x, from.x);
  const Expansion my = Expansion::Difference(p.y, a.y) +
                       scale * Expansion::Difference(to.y, from.y);
  return (Expansion::Difference(b.x, a.x) * mx +
          Expansion::Difference(b.y, a.y) * my)
      .sign();
}

bool SweepReachedCircleExact(Vec2 p, Vec2 d_from, Vec2 d_to, double f, Vec2 c,
                             double r1, double r2, double r3) {
  // w = p + f d - c; reached when |w|^2 <= (r1 + r2 + r3)^2 or w.d >= 0.
  const Expansion scale(f);
  const Expansion dx = Expansion::Difference(d_to.x, d_from.x);
  const Expansion dy = Expansion::Difference(d_to.y, d_from.y);
  const Expansion wx = Expansion::Difference(p.x, c.x) + scale * dx;
  const Expansion wy = Expansion::Difference(p.y, c.y) + scale * dy;
  if ((wx * dx + wy * dy).sign() >= 0) return true;
  const Expansion r = Expansion::Sum(r1, r2) + Expansion(r3);
  return (wx * wx + wy * wy - r * r).sign() <= 0;
}

int DotSignExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const Expansion ux = Expansion::Difference(b.x, a.x);
  const Expansion uy = Expansion::Difference(b.y, a.y);
  const Expansion vx = Expansion::Difference(d.x, c.x);
  const Expansion vy = Expansion::Difference(d.y, c.y);
  return (ux * vx + uy * vy).sign();
}

namespace {

Expansion RadiusSum(double r1, double r2, double r3) {
  return Expansion::Sum(r1, r2) + Expansion(r3);
}

// Cross(u, p - a)^2 - (r1 + r2 + r3)^2 |u|^2 for u = u_to - u_from,
// exactly.
Expansion DirectionDistanceExact(Vec2 a, Vec2 u_from, Vec2 u_to, Vec2 p,
                                 double r1, double r2, double r3) {
  const Expansion ux = Expansion::Difference(u_to.x, u_from.x);
  const Expansion uy = Expansion::Difference(u_to.y, u_from.y);
  const Expansion cross = ux * Expansion::Difference(p.y, a.y) -
                          uy * Expansion::Difference(p.x, a.x);
  const Expansion r = RadiusSum(r1, r2, r3);
  const Expansion rr = r * r;
  return cross * cross - rr * (ux * ux + uy * uy);
}

}  // namespace

namespace {

Expansion DistanceSquaredExcess(Vec2 p, Vec2 q, double r1, double r2,
                                double r3) {
  const Expansion dx = Expansion::Difference(p.x, q.x);
  const Expansion dy = Expansion::Difference(p.y, q.y);
  const Expansion r = RadiusSum(r1, r2, r3);
  return dx * dx + dy * dy - r * r;
}

}  // namespace

int DistanceSquaredVsExact(Vec2 p, Vec2 q, double r1, double r2, double r3) {
  return DistanceSquaredExcess(p, q, r1, r2, r3).sign();
}

double DistanceSquaredExcessExact(Vec2 p, Vec2 q, double r1, double r2,
                                  double r3) {
  return DistanceSquaredExcess(p, q, r1, r2, r3).Estimate();
}

namespace {

Expansion LineDistanceExcess(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                             double r3) {
  const Expansion ux = Expansion::Difference(b.x, a.x);
  const Expansion uy = Expansion::Difference(b.y, a.y);
  const Expansion mx = Expansion::Difference(p.x, a.x);
  const Expansion my = Expansion::Difference(p.y, a.y);
  const Expansion cross = ux * my - uy * mx;
  const Expansion r = RadiusSum(r1, r2, r3);
  return cross * cross - r * r * (ux * ux + uy * uy);
}

}  // namespace

int LineDistanceVsExact(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                        double r3) {
  return LineDistanceExcess(a, b, p, r1, r2, r3).sign();
}

double LineDistanceExcessExact(Vec2 a, Vec2 b, Vec2 p, double r1, double r2,
                               double r3) {
  return LineDistanceExcess(a, b, p, r1, r2, r3).Estimate();
}

int LineDistanceAfterVsExact(Vec2 a, Vec2 b, Vec2 p, Vec2 d_from, Vec2 d_to,
                             double f, double r1, double r2, double r3) {
  const Expansion ux = Expansion::Difference(b.x, a.x);
  const Expansion uy = Expansion::Difference(b.y, a.y);
  const Expansion scale(f);
  const Expansion mx = Expansion::Difference(p.x, a.x) +
                       scale * Expansion::Difference(d_to.x, d_from.x);
  const Expansion my = Expansion::Difference(p.y, a.y) +
                       scale * Expansion::Difference(d_to.y, d_from.y);
  const Expansion cross = ux * my - uy * mx;
  const Expansion r = RadiusSum(r1, r2, r3);
  return (cross * cross - r * r * (ux * ux + uy * uy)).sign();
}

double DirectionDiscriminantExact(Vec2 a, Vec2 u_from, Vec2 u_to, Vec2 p,
                                  double r1, double r2, double r3) {
  return -DirectionDistanceExact(a, u_from, u_to, p, r1, r2, r3).Estimate();
}

int DirectionDistanceVsExact(Vec2 a, Vec2 u, Vec2 p, double r1, double r2,
                             double r3) {
  return DirectionDistanceExact(a, Vec2{}, u, p, r1, r2, r3).sign();
}

namespace {

// Sign of a sqrt(u) - b, u >= 0, compared through squares: a^2 u - b^2 (of
// degree six in the inputs, in range for long double terms).
int SignOfRootForm(const Expansion& a, const Expansion& u, const Expansion& b) {
  const int a_sign = u.sign() == 0 ? 0 : a.sign();
  const int b_sign = b.sign();
  if (a_sign <= 0 && b_sign >= 0) return a_sign == 0 && b_sign == 0 ? 0 : -1;
  if (a_sign >= 0 && b_sign <= 0) return 1;
  // a and b of one sign: a sqrt(u) - b has it when a^2 u > b^2.
  const int squares = (a * a * u - b * b).sign();
  return a_sign > 0 ? squares : -squares;
}

}  // namespace

int SideContactAlongSignExact(Vec2 a, Vec2 b, Vec2 v, Vec2 p, Vec2 d_from,
                              Vec2 d_to, double side, double r1, double r2,
                              double r3) {
  const Expansion ux = Expansion::Difference(b.x, a.x);
  const Expansion uy = Expansion::Difference(b.y, a.y);
  const Expansion dx = Expansion::Difference(d_to.x, d_from.x);
  const Expansion dy = Expansion::Difference(d_to.y, d_from.y);
  const Expansion cross = Expansion::Difference(p.x, v.x) * dy -
                          Expansion::Difference(p.y, v.y) * dx;
  const Expansion along = dx * ux + dy * uy;
  return SignOfRootForm(side > 0.0 ? cross : -cross, ux * ux + uy * uy,
                        RadiusSum(r1, r2, r3) * along);
}

// Where p lies against a simple polygon, exactly: 1 strictly inside, 0 on
// the boundary, -1 strictly outside (crossing number on exact signs).
int PointInPolygonExact(absl::Span<const Vec2> vertices, Vec2 p) {
  const size_t n = vertices.size();
  if (n == 0) return -1;
  bool inside = false;
  // Edge start -> end, from the closing edge (n - 1 -> 0) on: the answer
  // does not depend on the order.
  Vec2 start = vertices[n - 1];
  for (size_t i = 0; i < n; start = vertices[i], ++i) {
    const Vec2 end = vertices[i];
    // Only an edge whose height range holds p.y can hold p or cross the
    // ray from p towards +x: one straddling it (half-open, so a vertex at
    // p's height counts once), or one with an end at that height. Both
    // ends strictly above or strictly below it: the differences' signs are
    // exact (a difference of doubles rounds to 0 only between equal ones),
    // and a product that underflows to 0 takes the full test below.
    if ((start.y - p.y) * (end.y - p.y) > 0.0) continue;
    const bool start_above = start.y > p.y;
    const bool end_above = end.y > p.y;
    const int side = Orient(start, end, p);
    if (side == 0 && std::min(start.x, end.x) <= p.x &&
        p.x <= std::max(start.x, end.x) && std::min(start.y, end.y) <= p.y &&
        p.y <= std::max(start.y, end.y)) {
      return 0;
    }
    if (start_above == end_above) continue;
    if (end_above ? side > 0 : side < 0) inside = !inside;
  }
  return inside ? 1 : -1;
}

// Where the mean of `points` lies against the simple polygon, exactly (as
// PointInPolygonExact): every test on the mean m = S / k is a sign of a sum
// over the points (Cross(b - a, m - a) k = sum of Cross(b - a, v - a)).
int MeanInPolygonExact(absl::Span<const Vec2> vertices,
                       absl::Span<const Vec2> points) {
  const auto orient_sum = [&](Vec2 a, Vec2 b) {
    const Expansion ux = Expansion::Difference(b.x, a.x);
    const Expansion uy = Expansion::Difference(b.y, a.y);
    Expansion sum;
    for (const Vec2 v : points) {
      sum = sum + (ux * Expansion::Difference(v.y, a.y) -
                   uy * Expansion::Difference(v.x, a.x));
    }
    return sum.sign();
  };
  // Sign of m.x - c (axis 0) or m.y - c (axis 1), times k.
  const auto compare = [&](double c, int axis) {
    Expansion sum;
    for (const Vec2 v : points) {
      sum = sum + Expansion::Difference(axis == 0 ? v.x : v.y, c);
    }
    return sum.sign();
  };
  const size_t n = vertices.size();
  bool inside = false;
  for (size_t i = 0; i < n; ++i) {
    const Vec2 start = vertices[i];
    const Vec2 end = vertices[i + 1 == n ? 0 : i + 1];
    const int side = orient_sum(start, end);
    if (side == 0 && compare(std::min(start.x, end.x), 0) >= 0 &&
        compare(std::max(start.x, end.x), 0) <= 0 &&
        compare(std::min(start.y, end.y), 1) >= 0 &&
        compare(std::max(start.y, end.y), 1) <= 0) {
      return 0;
    }
    const bool start_above = compare(start.y, 1) < 0;
    const bool end_above = compare(end.y, 1) < 0;
    if (start_above == end_above) continue;
    if (end_above ? side > 0 : side < 0) inside = !inside;
  }
  return inside ? 1 : -1;
}

}  // namespace collide::internal
