// The exact predicates of lib/src/exact/sign.h against GMP rationals, on
// inputs degenerate by construction (collinear, on the circle, at the
// distance exactly, perpendicular), at huge and tiny magnitudes and with
// 1e9 offsets, and on the same inputs moved by one ulp.
#include <gmpxx.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "collide/vec2.h"
#include "exact/sign.h"
#include "gtest/gtest.h"
#include "random_level.h"

namespace collide::internal {
namespace {

using testing::SplitMix64;

mpq_class Q(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

int Sgn(const mpq_class& q) { return sgn(q); }

int GmpCross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  return Sgn((Q(b.x) - Q(a.x)) * (Q(d.y) - Q(c.y)) -
             (Q(b.y) - Q(a.y)) * (Q(d.x) - Q(c.x)));
}
int GmpDot(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  return Sgn((Q(b.x) - Q(a.x)) * (Q(d.x) - Q(c.x)) +
             (Q(b.y) - Q(a.y)) * (Q(d.y) - Q(c.y)));
}
int GmpDistance(Vec2 p, Vec2 q, double r1, double r2, double r3) {
  const mpq_class dx = Q(p.x) - Q(q.x);
  const mpq_class dy = Q(p.y) - Q(q.y);
  const mpq_class r = Q(r1) + Q(r2) + Q(r3);
  return Sgn(dx * dx + dy * dy - r * r);
}
int GmpLine(Vec2 a, Vec2 b, Vec2 p, double r1, double r2, double r3) {
  const mpq_class ux = Q(b.x) - Q(a.x);
  const mpq_class uy = Q(b.y) - Q(a.y);
  const mpq_class cross = ux * (Q(p.y) - Q(a.y)) - uy * (Q(p.x) - Q(a.x));
  const mpq_class r = Q(r1) + Q(r2) + Q(r3);
  return Sgn(cross * cross - r * r * (ux * ux + uy * uy));
}

// x moved by one unit in the last place (0 to the smallest subnormal).
double Ulp(double x, int direction) {
  return std::nextafter(x, direction > 0 ? HUGE_VAL : -HUGE_VAL);
}

// A similarity that keeps small integers exact: scale by 2^e, then offset
// (kept only when exact for every coordinate the caller passes through).
struct Frame {
  int exponent;
  Vec2 offset;
  Vec2 operator()(Vec2 v) const {
    return {std::ldexp(v.x, exponent) + offset.x,
            std::ldexp(v.y, exponent) + offset.y};
  }
  double Length(double r) const { return std::ldexp(r, exponent); }
};

Frame RandomFrame(SplitMix64& rng) {
  const int exponents[] = {0, -30, 30, -60, 60, -150, 150, 4, -4};
  const double offsets[] = {0.0, 1e6, 1e9, -1e9};
  Frame f{exponents[rng.Below(9)], {0.0, 0.0}};
  if (std::abs(f.exponent) <= 4) {
    f.offset = {offsets[rng.Below(4)], offsets[rng.Below(4)]};
  }
  return f;
}

// Whether f(v) is exactly v 2^e + offset (the sum rounded nothing).
bool Exact(const Frame& f, Vec2 v) {
  const Vec2 w = f(v);
  const Vec2 scaled{std::ldexp(v.x, f.exponent), std::ldexp(v.y, f.exponent)};
  return w.x - f.offset.x == scaled.x && w.x - scaled.x == f.offset.x &&
         w.y - f.offset.y == scaled.y && w.y - scaled.y == f.offset.y;
}

Vec2 SmallPoint(SplitMix64& rng, int range) {
  return {
      static_cast<double>(static_cast<int>(rng.Below(2 * range + 1)) - range),
      static_cast<double>(static_cast<int>(rng.Below(2 * range + 1)) - range)};
}

TEST(ExactSignTest, CollinearPointsHaveOrientationZeroAndNudgesAreExact) {
  SplitMix64 rng(12);
  int zeros = 0;
  for (int i = 0; i < 20000; ++i) {
    const Frame f = RandomFrame(rng);
    const Vec2 a = SmallPoint(rng, 1000);
    const Vec2 u = SmallPoint(rng, 50);
    const double k = static_cast<double>(static_cast<int>(rng.Below(41)) - 20);
    const Vec2 b = a + u;
    const Vec2 c = a + k * u;
    if (!Exact(f, a) || !Exact(f, b) || !Exact(f, c)) continue;
    Vec2 fc = f(c);
    EXPECT_EQ(Orient(f(a), f(b), fc), 0);
    ++zeros;
    // One ulp off the line, either coordinate, either way.
    if (rng.Below(2) == 0) {
      fc.x = Ulp(fc.x, rng.Below(2) ? 1 : -1);
    } else {
      fc.y = Ulp(fc.y, rng.Below(2) ? 1 : -1);
    }
    EXPECT_EQ(Orient(f(a), f(b), fc), GmpCross(f(a), f(b), f(a), fc))
        << i << " exponent " << f.exponent;
  }
  EXPECT_GT(zeros, 10000);
}

TEST(ExactSignTest, PerpendicularVectorsHaveDotZero) {
  SplitMix64 rng(13);
  for (int i = 0; i < 20000; ++i) {
    const Frame f = RandomFrame(rng);
    const Vec2 a = SmallPoint(rng, 1000);
    const Vec2 u = SmallPoint(rng, 100);
    const Vec2 c = SmallPoint(rng, 1000);
    const double k = static_cast<double>(static_cast<int>(rng.Below(21)) - 10);
    const Vec2 b = a + u;
    const Vec2 d = c + k * LeftPerp(u);
    if (!Exact(f, a) || !Exact(f, b) || !Exact(f, c) || !Exact(f, d)) {
      continue;
    }
    EXPECT_EQ(DotSign(f(a), f(b), f(c), f(d)), 0);
    Vec2 fd = f(d);
    fd.x = Ulp(fd.x, rng.Below(2) ? 1 : -1);
    EXPECT_EQ(DotSign(f(a), f(b), f(c), fd), GmpDot(f(a), f(b), f(c), fd));
    EXPECT_EQ(CrossSign(f(a), f(b), f(c), fd), GmpCross(f(a), f(b), f(c), fd));
  }
}

TEST(ExactSignTest, PointsOnTheCircleAreAtTheRadiusSum) {
  // Pythagorean triples: |(3, 4) k| = 5 k, the radius split in three.
  const int triples[][3] = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {20, 21, 29}};
  SplitMix64 rng(14);
  for (int i = 0; i < 20000; ++i) {
    const Frame f = RandomFrame(rng);
    const auto& t = triples[rng.Below(4)];
    const double k = 1.0 + rng.Below(200);
    const Vec2 q = SmallPoint(rng, 1000);
    const Vec2 p = q + Vec2{t[0] * k * (rng.Below(2) ? 1 : -1),
                            t[1] * k * (rng.Below(2) ? 1 : -1)};
    if (!Exact(f, p) || !Exact(f, q)) continue;
    const double r = t[2] * k;
    const double r1 = std::floor(r / 3);
    const double r2 = rng.Below(2) ? std::floor(r / 2) - r1 : 0.0;
    const double r3 = r - r1 - r2;
    EXPECT_EQ(
        DistanceSquaredVs(f(p), f(q), f.Length(r1), f.Length(r2), f.Length(r3)),
        0);
    const double nudged = Ulp(f.Length(r3), rng.Below(2) ? 1 : -1);
    EXPECT_EQ(DistanceSquaredVs(f(p), f(q), f.Length(r1), f.Length(r2), nudged),
              GmpDistance(f(p), f(q), f.Length(r1), f.Length(r2), nudged));
    Vec2 fp = f(p);
    fp.y = Ulp(fp.y, rng.Below(2) ? 1 : -1);
    EXPECT_EQ(
        DistanceSquaredVs(fp, f(q), f.Length(r1), f.Length(r2), f.Length(r3)),
        GmpDistance(fp, f(q), f.Length(r1), f.Length(r2), f.Length(r3)));
  }
}

TEST(ExactSignTest, PointsAtTheLineDistanceAreAtTheRadiusSum) {
  const int triples[][3] = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}};
  SplitMix64 rng(15);
  for (int i = 0; i < 20000; ++i) {
    const Frame f = RandomFrame(rng);
    const auto& t = triples[rng.Below(3)];
    // Line direction (t0, t1) of length t2; unit normal (-t1, t0) / t2:
    // a point t2 * m along the normal is at distance exactly t2 * m.
    const Vec2 a = SmallPoint(rng, 1000);
    const double s = 1.0 + rng.Below(20);
    const Vec2 b = a + Vec2{t[0] * s, t[1] * s};
    const double m = 1.0 + rng.Below(30);
    const double along =
        static_cast<double>(static_cast<int>(rng.Below(41)) - 20);
    const Vec2 p = a + Vec2{t[0] * along - t[1] * m, t[1] * along + t[0] * m};
    if (!Exact(f, a) || !Exact(f, b) || !Exact(f, p)) continue;
    const double r = t[2] * m;
    EXPECT_EQ(LineDistanceVs(f(a), f(b), f(p), f.Length(r), 0.0, 0.0), 0);
    EXPECT_EQ(
        LineDistanceVs(f(a), f(b), f(p), f.Length(r - 1), 1.0 * 0, f.Length(1)),
        0);
    // The same line given by its exact direction (a ray's translation).
    const Vec2 u{std::ldexp(t[0] * s, f.exponent),
                 std::ldexp(t[1] * s, f.exponent)};
    EXPECT_EQ(DirectionDistanceVs(f(a), u, f(p), f.Length(r), 0.0, 0.0), 0);
    EXPECT_EQ(
        DirectionDistanceVs(f(a), u, f(p), f.Length(r - 1), 0.0, f.Length(1)),
        0);
    const double nudged = Ulp(f.Length(r), rng.Below(2) ? 1 : -1);
    EXPECT_EQ(DirectionDistanceVs(f(a), u, f(p), nudged, 0.0, 0.0),
              GmpLine(f(a), f(b), f(p), nudged, 0.0, 0.0));
    EXPECT_EQ(LineDistanceVs(f(a), f(b), f(p), nudged, 0.0, 0.0),
              GmpLine(f(a), f(b), f(p), nudged, 0.0, 0.0));
    Vec2 fp = f(p);
    fp.x = Ulp(fp.x, rng.Below(2) ? 1 : -1);
    EXPECT_EQ(LineDistanceVs(f(a), f(b), fp, f.Length(r), 0.0, 0.0),
              GmpLine(f(a), f(b), fp, f.Length(r), 0.0, 0.0));
  }
}

TEST(ExactSignTest, RandomNearDegenerateInputsAgreeWithGmp) {
  // Points a few ulps from collinear, at every scale: the filter's bound
  // must send each undecidable one to the exact path.
  SplitMix64 rng(16);
  for (int i = 0; i < 50000; ++i) {
    const double scale =
        std::ldexp(1.0, static_cast<int>(rng.Below(200)) - 100);
    const Vec2 a{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const Vec2 b{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const double s = rng.Uniform(-3, 3);
    Vec2 c = a + s * (b - a);
    for (int k = static_cast<int>(rng.Below(4)); k > 0; --k) {
      c.x = Ulp(c.x, rng.Below(2) ? 1 : -1);
    }
    ASSERT_EQ(Orient(a, b, c), GmpCross(a, b, a, c)) << i;
    ASSERT_EQ(DotSign(a, b, a, c), GmpDot(a, b, a, c)) << i;
    const double r = Length(c - a) * rng.Uniform(0.999999, 1.000001);
    ASSERT_EQ(DistanceSquaredVs(c, a, r, 0.0, 0.0),
              GmpDistance(c, a, r, 0.0, 0.0))
        << i;
    const double h = std::abs(Cross(b - a, c - a)) / Length(b - a);
    ASSERT_EQ(LineDistanceVs(a, b, c, h, 0.0, 0.0),
              GmpLine(a, b, c, h, 0.0, 0.0))
        << i;
  }
}

// Sign of side |u| Cross(p - v, d) - r Dot(d, u), u = b - a, through
// squares in exact rationals.
int GmpSideContactAlong(Vec2 a, Vec2 b, Vec2 v, Vec2 p, Vec2 d, double side,
                        double r) {
  const mpq_class ux = Q(b.x) - Q(a.x);
  const mpq_class uy = Q(b.y) - Q(a.y);
  const mpq_class x = (Q(p.x) - Q(v.x)) * Q(d.y) - (Q(p.y) - Q(v.y)) * Q(d.x);
  const mpq_class left = side > 0 ? x : mpq_class(-x);
  const mpq_class right = Q(r) * (Q(d.x) * ux + Q(d.y) * uy);
  const mpq_class uu = ux * ux + uy * uy;
  const int ls = Sgn(uu) == 0 ? 0 : Sgn(left);  // times |u| = 0
  const int rs = Sgn(right);
  if (ls <= 0 && rs >= 0) return ls == 0 && rs == 0 ? 0 : -1;
  if (ls >= 0 && rs <= 0) return 1;
  const int squares = Sgn(left * left * uu - right * right);
  return ls > 0 ? squares : -squares;
}

// A circle of radius 10 sliding along the segment (-15, -20) -> (18, 24)
// at its radius touches exactly at the segment's start (25 / 105 of the
// way): along is 0 there at every scale up to the 1e60 bound, where the
// squared form (degree six) would overflow unscaled, and a one-ulp nudge
// of the start decides it.
TEST(ExactSignTest, SideContactAlongIsExactAtEveryScale) {
  SplitMix64 rng(18);
  for (const int exponent : {0, -60, 60, -150, 150, 190}) {
    const Frame f{exponent, {0.0, 0.0}};
    const Vec2 a = f({-15, -20});
    const Vec2 b = f({18, 24});
    const Vec2 p = f({-38, -34});
    const Vec2 d = f({63, 84});
    const double r = f.Length(10);
    EXPECT_EQ(SideContactAlongSign(a, b, a, p, Vec2{}, d, -1.0, r, 0.0, 0.0), 0)
        << exponent;
    EXPECT_EQ(SideContactAlongSign(a, b, a, p, Vec2{}, d, 1.0, r, 0.0, 0.0), -1)
        << exponent;
    for (int i = 0; i < 200; ++i) {
      Vec2 q = p;
      Vec2 e = d;
      for (int k = static_cast<int>(rng.Below(3)); k > 0; --k) {
        q.x = Ulp(q.x, rng.Below(2) ? 1 : -1);
        e.y = Ulp(e.y, rng.Below(2) ? 1 : -1);
      }
      const Vec2 v = rng.Below(2) ? a : b;
      ASSERT_EQ(SideContactAlongSign(a, b, v, q, Vec2{}, e, -1.0, r, 0.0, 0.0),
                GmpSideContactAlong(a, b, v, q, e, -1.0, r))
          << exponent << " " << i;
    }
  }
}

// The forms that take a motion as to - from (a pair's relative motion,
// d2 to d1) against GMP on that difference unrounded: the moved point lands
// on (or at radius r from) the line for the rounded difference, so that
// the sign hangs on the bits rounding dropped.
TEST(ExactSignTest, MotionFormsTakeTheUnroundedDifference) {
  SplitMix64 rng(19);
  int undecided_by_rounding = 0;
  for (int i = 0; i < 20000; ++i) {
    const double scale = std::ldexp(1.0, static_cast<int>(rng.Below(40)));
    const Vec2 a{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const Vec2 b{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const Vec2 p{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const Vec2 q = a + rng.Uniform(-2, 2) * (b - a);
    const Vec2 from{rng.Uniform(-1, 1) * scale, rng.Uniform(-1, 1) * scale};
    const Vec2 to = (q - p) + from;  // to - from is q - p, rounded twice
    const double f = 1.0;
    const mpq_class dx = Q(to.x) - Q(from.x);
    const mpq_class dy = Q(to.y) - Q(from.y);
    const mpq_class ux = Q(b.x) - Q(a.x);
    const mpq_class uy = Q(b.y) - Q(a.y);
    const mpq_class cross =
        ux * (Q(p.y) - Q(a.y) + Q(f) * dy) - uy * (Q(p.x) - Q(a.x) + Q(f) * dx);
    ASSERT_EQ(OrientAfter(a, b, p, from, to, f), Sgn(cross)) << i;
    if (OrientAfter(a, b, p, Vec2{}, to - from, f) != Sgn(cross)) {
      ++undecided_by_rounding;
    }
    const double r = std::abs(Cross(b - a, (p + (to - from)) - a)) /
                     Length(b - a) * rng.Uniform(0.999999, 1.000001);
    const mpq_class rr = Q(r) * Q(r);
    ASSERT_EQ(LineDistanceAfterVs(a, b, p, from, to, f, r, 0.0, 0.0),
              Sgn(cross * cross - rr * (ux * ux + uy * uy)))
        << i;
  }
  // The rounded difference alone gets a share of them wrong: the cases
  // test what they mean to.
  EXPECT_GT(undecided_by_rounding, 100);
}

TEST(ExactSignTest, ExpansionProductsAndSumsAreExact) {
  SplitMix64 rng(17);
  for (int i = 0; i < 5000; ++i) {
    double x[6];
    mpq_class exact[6];
    for (int k = 0; k < 6; ++k) {
      x[k] = rng.Uniform(-1, 1) *
             std::ldexp(1.0, static_cast<int>(rng.Below(160)) - 80);
      exact[k] = Q(x[k]);
    }
    const Expansion e =
        Expansion::Difference(x[0], x[1]) * Expansion::Sum(x[2], x[3]) -
        Expansion(x[4]) * Expansion(x[5]);
    const mpq_class want =
        (exact[0] - exact[1]) * (exact[2] + exact[3]) - exact[4] * exact[5];
    ASSERT_EQ(e.sign(), Sgn(want)) << i;
    // The square cancels exactly against itself.
    EXPECT_EQ((e * e - e * e).sign(), 0);
  }
}

// Magnitudes from the smallest subnormal to the 1e60 bound, and 0: drawn
// for every input, large parts cancel exactly (equal values, zeros) and
// subnormal ones decide, products of them far below double's range.
double AnyMagnitude(SplitMix64& rng) {
  static constexpr double kPool[] = {
      0.0, 0x1p-1074, 0x1p-1073, 0x1.8p-1073, 0x1p-1064, 0x1p-1000, 0.5,
      1.0, 3.0,       18.5,      1e6,         0x1p100,   1e60};
  const double v = kPool[rng.Below(std::size(kPool))];
  return rng.Below(2) ? v : -v;
}
Vec2 AnyPoint(SplitMix64& rng) {
  return {AnyMagnitude(rng), AnyMagnitude(rng)};
}

// Cross(b - a, p + f (to - from) - a) (cross) or the same with Dot, exactly.
mpq_class GmpAfter(bool cross, Vec2 a, Vec2 b, Vec2 p, Vec2 from, Vec2 to,
                   double f) {
  const mpq_class ux = Q(b.x) - Q(a.x);
  const mpq_class uy = Q(b.y) - Q(a.y);
  const mpq_class mx = Q(p.x) - Q(a.x) + Q(f) * (Q(to.x) - Q(from.x));
  const mpq_class my = Q(p.y) - Q(a.y) + Q(f) * (Q(to.y) - Q(from.y));
  return cross ? mpq_class(ux * my - uy * mx) : mpq_class(ux * mx + uy * my);
}

TEST(ExactSignTest, SubnormalInputsAreDecidedExactly) {
  SplitMix64 rng(20);
  int subnormal_products = 0;
  for (int i = 0; i < 40000; ++i) {
    const Vec2 a = AnyPoint(rng);
    const Vec2 b = AnyPoint(rng);
    const Vec2 p = AnyPoint(rng);
    const Vec2 from = AnyPoint(rng);
    const Vec2 to = AnyPoint(rng);
    const double r1 = std::abs(AnyMagnitude(rng));
    const double r2 = std::abs(AnyMagnitude(rng));
    const double f = 0.25 * static_cast<double>(rng.Below(5));
    const double side = rng.Below(2) ? 1.0 : -1.0;
    if (std::abs((b.x - a.x) * (p.y - a.y)) < 0x1p-969) ++subnormal_products;
    ASSERT_EQ(Orient(a, b, p), GmpCross(a, b, a, p)) << i;
    ASSERT_EQ(CrossSign(a, b, from, to), GmpCross(a, b, from, to)) << i;
    ASSERT_EQ(DotSign(a, b, from, to), GmpDot(a, b, from, to)) << i;
    ASSERT_EQ(DistanceSquaredVs(p, a, r1, r2, 0.0),
              GmpDistance(p, a, r1, r2, 0.0))
        << i;
    ASSERT_EQ(LineDistanceVs(a, b, p, r1, r2, 0.0),
              GmpLine(a, b, p, r1, r2, 0.0))
        << i;
    ASSERT_EQ(OrientAfter(a, b, p, from, to, f),
              Sgn(GmpAfter(true, a, b, p, from, to, f)))
        << i;
    ASSERT_EQ(DotAfter(a, b, p, from, to, f),
              Sgn(GmpAfter(false, a, b, p, from, to, f)))
        << i;
    const mpq_class line = GmpAfter(true, a, b, p, from, to, f);
    const mpq_class ux = Q(b.x) - Q(a.x);
    const mpq_class uy = Q(b.y) - Q(a.y);
    const mpq_class r = Q(r1) + Q(r2);
    ASSERT_EQ(LineDistanceAfterVs(a, b, p, from, to, f, r1, r2, 0.0),
              Sgn(line * line - r * r * (ux * ux + uy * uy)))
        << i;
    // The estimates keep the exact sign even below double's range.
    ASSERT_EQ(Sgn(Q(DistanceSquaredExcessExact(p, a, r1, r2, 0.0))),
              GmpDistance(p, a, r1, r2, 0.0))
        << i;
    ASSERT_EQ(Sgn(Q(LineDistanceExcessExact(a, b, p, r1, r2, 0.0))),
              GmpLine(a, b, p, r1, r2, 0.0))
        << i;
    const long double cross = CrossEstimate(a, b, from, to);
    ASSERT_EQ(cross > 0 ? 1 : (cross < 0 ? -1 : 0), GmpCross(a, b, from, to))
        << i;
    // Motion from - from + to: from = 0 so that GMP takes d = to exactly.
    ASSERT_EQ(SideContactAlongSign(a, b, a, p, Vec2{}, to, side, r1, 0.0, 0.0),
              GmpSideContactAlong(a, b, a, p, to, side, r1))
        << i;
  }
  // Most cases multiply subnormals or cancel to them: the cases test what
  // they mean to.
  EXPECT_GT(subnormal_products, 10000);
}

// Forms of degree 12 (the deforming segment's) over the whole range: a
// product of twelve differences against the same with a subnormal (or any
// other magnitude) added to its first factor, so that the products cancel
// down to that term times the other eleven: from 2^-12888 to 2^2412, exact
// in long double terms.
TEST(ExactSignTest, DegreeTwelveFormsAreExactOverTheWholeRange) {
  SplitMix64 rng(21);
  for (int i = 0; i < 3000; ++i) {
    Expansion rest(1.0);
    mpq_class exact_rest(1);
    for (int k = 0; k < 11; ++k) {
      const double x = AnyMagnitude(rng);
      const double y = AnyMagnitude(rng);
      rest = rest * Expansion::Difference(x, y);
      exact_rest *= Q(x) - Q(y);
    }
    const double x = AnyMagnitude(rng);
    const double y = AnyMagnitude(rng);
    const double added = AnyMagnitude(rng);
    const Expansion first = Expansion::Difference(x, y);
    const Expansion product = first * rest;
    const Expansion moved = (first + Expansion(added)) * rest;
    const mpq_class exact_first = Q(x) - Q(y);
    const mpq_class exact_product = exact_first * exact_rest;
    const mpq_class exact_moved = (exact_first + Q(added)) * exact_rest;
    ASSERT_EQ(product.sign(), Sgn(exact_product)) << i;
    ASSERT_EQ((moved - product).sign(), Sgn(exact_moved - exact_product)) << i;
  }
}

TEST(ExactSignTest, PointInPolygonIsExactOnTheBoundary) {
  // An L-shaped solid, 1e9 away: its vertices and edge midpoints are on the
  // boundary, one ulp in or out is decided exactly.
  const double o = 1e9;
  const std::vector<Vec2> l = {{o, o},         {o + 4, o},     {o + 4, o + 1},
                               {o + 1, o + 1}, {o + 1, o + 4}, {o, o + 4}};
  for (size_t i = 0; i < l.size(); ++i) {
    EXPECT_EQ(PointInPolygonExact(l, l[i]), 0);
    const Vec2 mid = 0.5 * (l[i] + l[(i + 1) % l.size()]);
    EXPECT_EQ(PointInPolygonExact(l, mid), 0);
  }
  EXPECT_EQ(PointInPolygonExact(l, {o + 1, Ulp(o + 2, -1)}), 0);
  EXPECT_EQ(PointInPolygonExact(l, {Ulp(o + 1, -1), o + 2}), 1);
  EXPECT_EQ(PointInPolygonExact(l, {Ulp(o + 1, 1), o + 2}), -1);
  EXPECT_EQ(PointInPolygonExact(l, {o + 2, Ulp(o + 1, -1)}), 1);
  EXPECT_EQ(PointInPolygonExact(l, {o + 2, Ulp(o + 1, 1)}), -1);
  EXPECT_EQ(PointInPolygonExact(l, {o + 0.5, o + 0.5}), 1);
  EXPECT_EQ(PointInPolygonExact(l, {o + 2, o + 2}), -1);
  // A chord between two edges: both ends on the boundary, its mean inside.
  const std::vector<Vec2> chord = {{o, o + 3}, {o + 1, o + 2}};
  EXPECT_EQ(MeanInPolygonExact(l, chord), 1);
  const std::vector<Vec2> along = {{o + 4, o}, {o + 4, o + 1}};
  EXPECT_EQ(MeanInPolygonExact(l, along), 0);
  const std::vector<Vec2> across = {{o + 1, o + 1}, {o + 2, o + 2}};
  EXPECT_EQ(MeanInPolygonExact(l, across), -1);
}

}  // namespace
}  // namespace collide::internal
