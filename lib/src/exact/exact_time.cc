#include "exact/exact_time.h"

#include <algorithm>
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

Expansion Dot(const ExactVec& u, const ExactVec& v) {
  return u.x * v.x + u.y * v.y;
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

bool IsRatio(const ExactTime& t) {
  return t.root_scale.sign() == 0 || t.radicand.sign() == 0;
}

// The sign of p + q sqrt(c), c >= 0: from the signs of its two parts, and
// where they differ, of p^2 - q^2 c.
int SignPlusRoot(const Expansion& p, const Expansion& q, const Expansion& c) {
  const int sp = p.sign();
  const int sq = c.sign() == 0 ? 0 : q.sign();
  if (sq == 0) return sp;
  if (sp == 0 || sp == sq) return sq;
  return sp * (p * p - q * q * c).sign();
}

// The sign of p + q sqrt(c1) + s sqrt(c2), c1, c2 >= 0: with x = p + q
// sqrt(c1), where x and s sqrt(c2) differ in sign, that of x times the
// sign of x^2 - s^2 c2 = (p^2 + q^2 c1 - s^2 c2) + 2 p q sqrt(c1).
int SignPlusTwoRoots(const Expansion& p, const Expansion& q,
                     const Expansion& c1, const Expansion& s,
                     const Expansion& c2) {
  const int sx = SignPlusRoot(p, q, c1);
  const int ss = c2.sign() == 0 ? 0 : s.sign();
  if (ss == 0) return sx;
  if (sx == 0 || sx == ss) return ss;
  const Expansion pq = p * q;
  return sx * SignPlusRoot(p * p + q * q * c1 - s * s * c2, pq + pq, c1);
}

// The sign of t - (lo + hi) / 2, exactly (lo + hi is two doubles' exact sum):
// of 2 numerator - (lo + hi) denominator - 2 root_scale sqrt(radicand).
int MidpointSide(const ExactTime& t, double lo, double hi) {
  const Expansion twice = t.numerator + t.numerator;
  const Expansion rational = twice - Expansion::Sum(lo, hi) * t.denominator;
  if (IsRatio(t)) return rational.sign();
  return SignPlusRoot(rational, -(t.root_scale + t.root_scale), t.radicand);
}

// t in long double, to a few units in its last place: a root form through
// its conjugate, (n^2 - b^2 c) / (d (n + b sqrt(c))), whose parts have no
// cancellation left (n > 0 for every root form built here).
long double WideTime(const ExactTime& t) {
  if (IsRatio(t)) {
    return t.numerator.WideEstimate() / t.denominator.WideEstimate();
  }
  const Expansion lifted =
      t.numerator * t.numerator - t.root_scale * t.root_scale * t.radicand;
  return lifted.WideEstimate() /
         (t.denominator.WideEstimate() *
          (t.numerator.WideEstimate() +
           t.root_scale.WideEstimate() * std::sqrt(t.radicand.WideEstimate())));
}

bool OddSignificand(double x) { return (std::bit_cast<uint64_t>(x) & 1) != 0; }

}  // namespace

std::optional<ExactTime> FirstContactTime(const Corners& mover,
                                          const Corners& obstacle,
                                          const ExactVec& d) {
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

bool StartsWithin(const Corners& mover, double mover_radius,
                  const Corners& obstacle, double obstacle_radius,
                  double skin) {
  // The origin in obstacle - mover: no separating axis among the edges'
  // normals (and, for two flat shapes, their directions).
  const bool flat = mover.count < 3 && obstacle.count < 3;
  bool inside = true;
  bool any_axis = false;
  for (const Corners* shape : {&mover, &obstacle}) {
    const int edges =
        shape->count < 2 ? 0 : (shape->count == 2 ? 1 : shape->count);
    for (int i = 0; i < edges && inside; ++i) {
      const ExactVec e =
          Difference(shape->points[(i + 1) % shape->count], shape->points[i]);
      if (e.x.sign() == 0 && e.y.sign() == 0) continue;
      any_axis = true;
      const ExactVec axes[4] = {
          {e.y, -e.x}, {-e.y, e.x}, {e.x, e.y}, {-e.x, -e.y}};
      for (int k = 0; k < (flat ? 4 : 2) && inside; ++k) {
        const Expansion support =
            Extreme(axes[k], obstacle, true) - Extreme(axes[k], mover, false);
        inside = support.sign() >= 0;
      }
    }
  }
  if (!any_axis) inside = obstacle.points[0] == mover.points[0];
  if (inside) return true;
  if (mover_radius == 0.0 && obstacle_radius == 0.0 && skin == 0.0) {
    return false;
  }
  // Within R of a vertex o_i - m_j or of a segment between two of them.
  const Expansion radius =
      Expansion::Sum(mover_radius, obstacle_radius) + Expansion(skin);
  const Expansion radius_squared = radius * radius;
  for (int i = 0; i < obstacle.count; ++i) {
    for (int j = 0; j < mover.count; ++j) {
      const ExactVec p = Difference(obstacle.points[i], mover.points[j]);
      if ((Dot(p, p) - radius_squared).sign() <= 0) return true;
      for (int way = 0; way < 2; ++way) {
        const int i2 = way == 0 ? (i + 1) % obstacle.count : i;
        const int j2 = way == 0 ? j : (j + 1) % mover.count;
        if (i2 == i && j2 == j) continue;
        const ExactVec q = Difference(obstacle.points[i2], mover.points[j2]);
        const ExactVec e{q.x - p.x, q.y - p.y};
        const Expansion along = -Dot(p, e);
        const Expansion length_squared = Dot(e, e);
        if (along.sign() < 0 || (along - length_squared).sign() > 0) continue;
        const Expansion cross = p.x * e.y - p.y * e.x;
        if ((cross * cross - radius_squared * length_squared).sign() <= 0) {
          return true;
        }
      }
    }
  }
  return false;
}

int CompareTimes(const ExactTime& a, const ExactTime& b) {
  const Expansion p = a.numerator * b.denominator - b.numerator * a.denominator;
  if (IsRatio(a) && IsRatio(b)) return p.sign();
  // (na - ba sqrt(ca)) db - (nb - bb sqrt(cb)) da.
  return SignPlusTwoRoots(p, -(a.root_scale * b.denominator), a.radicand,
                          b.root_scale * a.denominator, b.radicand);
}

std::optional<ExactTime> FirstRoundContactTime(
    const Corners& mover, double mover_radius, const Corners& obstacle,
    double obstacle_radius, double skin, const ExactVec& dv) {
  const Expansion radius =
      Expansion::Sum(mover_radius, obstacle_radius) + Expansion(skin);
  const Expansion radius_squared = radius * radius;
  const Expansion speed_squared = Dot(dv, dv);
  if (speed_squared.sign() == 0) return std::nullopt;
  const auto vertex = [&](int i, int j) {
    return Difference(obstacle.points[i], mover.points[j]);
  };
  // The candidates: discs (k < 0: vertex (i, j)) and capsule sides (the
  // segment from vertex (i, j) to (i2, j2)). Built twice: once to place
  // each, once for the exact comparison of those near the earliest.
  struct Candidate {
    int i, j, i2, j2;
  };
  constexpr int kMost = kMaxPolygonVertices * kMaxPolygonVertices * 3;
  Candidate candidates[kMost];
  long double places[kMost];
  int count = 0;
  bool overlap = false;
  // The exact time of a candidate; nullopt when it is not met after the
  // start (sets overlap when the start is within R of it).
  const auto time_of = [&](const Candidate& c) -> std::optional<ExactTime> {
    const ExactVec p = vertex(c.i, c.j);
    if (c.i2 < 0) {
      const Expansion b = Dot(dv, p);
      const Expansion gap = Dot(p, p) - radius_squared;
      if (gap.sign() <= 0) {
        overlap = true;
        return std::nullopt;
      }
      if (b.sign() <= 0) return std::nullopt;
      const Expansion disc = b * b - speed_squared * gap;
      if (disc.sign() < 0) return std::nullopt;
      return ExactTime{b, speed_squared, Expansion(1.0), disc};
    }
    const ExactVec q = vertex(c.i2, c.j2);
    const ExactVec e{q.x - p.x, q.y - p.y};
    if (e.x.sign() == 0 && e.y.sign() == 0) return std::nullopt;  // its disc
    ExactVec n{e.y, -e.x};
    Expansion s = -Dot(n, p);  // n . (origin - p)
    if (s.sign() < 0) {
      n = ExactVec{-n.x, -n.y};
      s = -s;
    }
    const Expansion along = -Dot(p, e);  // (origin - p) . e
    const Expansion length_squared = Dot(e, e);
    const bool beside =
        along.sign() >= 0 && (along - length_squared).sign() <= 0;
    const Expansion normal_squared = Dot(n, n);
    if ((s * s - radius_squared * normal_squared).sign() <= 0) {
      if (beside) overlap = true;
      return std::nullopt;
    }
    const Expansion rate = -Dot(n, dv);
    if (rate.sign() <= 0) return std::nullopt;
    // Where t d lands along the side, times rate: (s - R |n|) (d . e) -
    // (p . e) rate, between 0 and |e|^2 rate.
    const Expansion de = Dot(dv, e);
    const Expansion start = s * de + along * rate;
    const Expansion slope = -(radius * de);
    if (SignPlusRoot(start, slope, normal_squared) < 0 ||
        SignPlusRoot(start - length_squared * rate, slope, normal_squared) >
            0) {
      return std::nullopt;
    }
    return ExactTime{s, rate, radius, normal_squared};
  };
  const auto add = [&](Candidate c) {
    const std::optional<ExactTime> t = time_of(c);
    if (!t) return;
    candidates[count] = c;
    places[count] = WideTime(*t);
    ++count;
  };
  for (int i = 0; i < obstacle.count; ++i) {
    for (int j = 0; j < mover.count; ++j) add({i, j, -1, -1});
  }
  const auto edges = [](const Corners& c) {
    return c.count < 2 ? 0 : (c.count == 2 ? 1 : c.count);
  };
  for (int i = 0; i < edges(obstacle); ++i) {
    for (int j = 0; j < mover.count; ++j) {
      add({i, j, (i + 1) % obstacle.count, j});
    }
  }
  for (int j = 0; j < edges(mover); ++j) {
    for (int i = 0; i < obstacle.count; ++i) {
      add({i, j, i, (j + 1) % mover.count});
    }
  }
  if (overlap || count == 0) return std::nullopt;
  long double earliest = places[0];
  for (int k = 1; k < count; ++k) earliest = std::min(earliest, places[k]);
  const long double reach = earliest * (1.0L + 0x1p-50L);
  std::optional<ExactTime> best;
  for (int k = 0; k < count; ++k) {
    if (places[k] > reach) continue;
    const std::optional<ExactTime> t = time_of(candidates[k]);
    if (t && (!best || CompareTimes(*t, *best) < 0)) best = t;
  }
  return best;
}

double RoundTime(const ExactTime& t) {
  // Within a unit or two in the last place: each largest term is its
  // expansion to within its own last place (64 bits on x86-64).
  double r = RoundToDouble(WideTime(t));
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

ExactTime DistanceLessRadius(const ExactTime& square, double radius) {
  const Expansion& d = square.denominator;
  return {-(Expansion(radius) * d), d, Expansion(-1.0), square.numerator * d};
}

double RoundDistanceLessRadius(const ExactTime& square, double radius) {
  if (radius == 0.0) return RoundSquareRoot(square);
  // The estimate through the conjugate, (N - r^2 D) / (D (sqrt(N / D) + r)):
  // its numerator is exact, so a point a few ulps outside keeps its digits.
  const Expansion r(radius);
  const long double n = square.numerator.WideEstimate();
  const long double d = square.denominator.WideEstimate();
  const long double lifted =
      (square.numerator - r * r * square.denominator).WideEstimate();
  double out = RoundToDouble(
      lifted / (d * (std::sqrt(n / d) + static_cast<long double>(radius))));
  const Expansion four_n = Expansion(4.0) * square.numerator;
  // The sign of sqrt(N / D) - r - (lo + hi) / 2: with T = 2 r + lo + hi,
  // +1 where T <= 0, else that of 4 N - T^2 D.
  const auto side = [&](double lo, double hi) {
    const Expansion t = r + r + Expansion::Sum(lo, hi);
    if (t.sign() <= 0) return 1;
    return (four_n - t * t * square.denominator).sign();
  };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (int step = 0; step < 8; ++step) {
    const double up = std::nextafter(out, kInf);
    const int above = side(out, up);
    if (above > 0 || (above == 0 && OddSignificand(out))) {
      out = up;
      continue;
    }
    const double down = std::nextafter(out, -kInf);
    const int below = side(down, out);
    if (below < 0 || (below == 0 && OddSignificand(out))) {
      out = down;
      continue;
    }
    break;
  }
  return out;
}

}  // namespace collide::internal
