#include "exact/exact_time.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace collide::internal {
namespace {

Expansion Dot(const ExactVec& n, Vec2 p) {
  return n.x * Expansion(p.x) + n.y * Expansion(p.y);
}

// The largest (or smallest) of n . p over the corners.
Expansion Extreme(const ExactVec& n, const Corners& c, bool largest) {
  Expansion best = Dot(n, c.points[0]);
  for (int i = 1; i < c.count; ++i) {
    const Expansion v = Dot(n, c.points[i]);
    const int side = (v - best).sign();
    if (largest ? side > 0 : side < 0) best = v;
  }
  return best;
}

// The sign of t - (lo + hi) / 2, exactly (lo + hi is two doubles' exact sum).
int MidpointSide(const ExactTime& t, double lo, double hi) {
  const Expansion twice = t.numerator + t.numerator;
  return (twice - Expansion::Sum(lo, hi) * t.denominator).sign();
}

bool OddSignificand(double x) { return (std::bit_cast<uint64_t>(x) & 1) != 0; }

}  // namespace

std::optional<ExactTime> FirstContactTime(const Corners& mover,
                                          const Corners& obstacle, Vec2 d) {
  // Two flat shapes (points or segments) give a flat or point-like M, whose
  // bounding lines also run along the edges: those axes are added then.
  const bool flat = mover.count < 3 && obstacle.count < 3;
  std::optional<ExactTime> entry;
  std::optional<ExactTime> exit;  // where the ray leaves M, if it does
  bool any_axis = false;
  for (const Corners* shape : {&mover, &obstacle}) {
    const int edges =
        shape->count < 2 ? 0 : (shape->count == 2 ? 1 : shape->count);
    for (int i = 0; i < edges; ++i) {
      const Vec2 a = shape->points[i];
      const Vec2 b = shape->points[(i + 1) % shape->count];
      const ExactVec e = Difference(b, a);
      if (e.x.sign() == 0 && e.y.sign() == 0) continue;
      any_axis = true;
      const ExactVec axes[4] = {
          {e.y, -e.x}, {-e.y, e.x}, {e.x, e.y}, {-e.x, -e.y}};
      for (int k = 0; k < (flat ? 4 : 2); ++k) {
        const ExactVec& n = axes[k];
        const Expansion rate = Dot(n, d);
        // h(n): the support of obstacle - mover along n.
        const Expansion support = Extreme(n, obstacle, /*largest=*/true) -
                                  Extreme(n, mover, /*largest=*/false);
        if (rate.sign() > 0) {
          // Where the ray leaves this side's half-plane (t = h / rate).
          const ExactTime t{support, rate};
          if (!exit || CompareTimes(t, *exit) < 0) exit = t;
          continue;
        }
        if (rate.sign() == 0) {
          if (support.sign() < 0) return std::nullopt;  // never meets
          continue;
        }
        if (support.sign() >= 0) continue;  // this side holds from the start
        ExactTime t{-support, -rate};
        if (!entry || CompareTimes(t, *entry) > 0) entry = t;
      }
    }
  }
  if (!any_axis || !entry) return std::nullopt;
  // The ray leaves a half-plane before it enters another: it misses M.
  if (exit && CompareTimes(*exit, *entry) < 0) return std::nullopt;
  return entry;
}

int CompareTimes(const ExactTime& a, const ExactTime& b) {
  return (a.numerator * b.denominator - b.numerator * a.denominator).sign();
}

double RoundTime(const ExactTime& t) {
  // Within a unit or two in the last place: each largest term is its
  // expansion to within its own last place (64 bits on x86-64).
  double r =
      RoundToDouble(t.numerator.WideEstimate() / t.denominator.WideEstimate());
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (int step = 0; step < 8; ++step) {
    const double up = std::nextafter(r, kInf);
    const int above = MidpointSide(t, r, up);
    if (above > 0 || (above == 0 && OddSignificand(r))) {
      r = up;
      continue;
    }
    const double down = std::nextafter(r, -kInf);
    const int below = MidpointSide(t, down, r);
    if (below < 0 || (below == 0 && OddSignificand(r))) {
      r = down;
      continue;
    }
    break;
  }
  return r;
}

ExactTime SquaredDistanceToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Expansion one(1.0);
  const ExactVec e = Difference(b, a);
  const ExactVec from_a = Difference(p, a);
  const auto square = [](const ExactVec& v) { return v.x * v.x + v.y * v.y; };
  if ((e.x.sign() == 0 && e.y.sign() == 0) ||
      (from_a.x * e.x + from_a.y * e.y).sign() <= 0) {
    return {square(from_a), one};
  }
  const ExactVec from_b = Difference(p, b);
  if ((from_b.x * e.x + from_b.y * e.y).sign() >= 0) {
    return {square(from_b), one};
  }
  const Expansion cross = e.x * from_a.y - e.y * from_a.x;
  return {cross * cross, square(e)};
}

double RoundSquareRoot(const ExactTime& square) {
  double r = RoundToDouble(std::sqrt(square.numerator.WideEstimate() /
                                     square.denominator.WideEstimate()));
  const Expansion four_n = Expansion(4.0) * square.numerator;
  // The sign of sqrt(square) - (lo + hi) / 2: of 4 N - (lo + hi)^2 D.
  const auto side = [&](double lo, double hi) {
    const Expansion sum = Expansion::Sum(lo, hi);
    return (four_n - sum * sum * square.denominator).sign();
  };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (int step = 0; step < 8; ++step) {
    const double up = std::nextafter(r, kInf);
    const int above = side(r, up);
    if (above > 0 || (above == 0 && OddSignificand(r))) {
      r = up;
      continue;
    }
    const double down = std::nextafter(r, -kInf);
    const int below = side(down, r);
    if (below < 0 || (below == 0 && OddSignificand(r))) {
      r = down;
      continue;
    }
    break;
  }
  return r;
}

}  // namespace collide::internal
