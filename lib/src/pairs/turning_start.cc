// Touching starts of turning shapes without radius.
#include "pairs/turning_start.h"

#include <cmath>
#include <limits>

#include "exact/sign.h"
#include "pairs/turning_pose.h"

namespace collide::internal {
namespace {

constexpr double u = kUnitRoundoff;

// The orientation of x against p -> q: the exact sign, the double value
// and a bound on the value's error.
struct Side {
  int sign;
  double value;
  double error;
};
Side SideOf(Vec2 p, Vec2 q, Vec2 x) {
  const Vec2 d = q - p;
  const Vec2 e = x - p;
  const double value = Cross(d, e);
  // Two rounded differences, two products and their difference.
  const double error =
      8.0 * u * (L1(d) * L1(e)) + std::numeric_limits<double>::denorm_min();
  return {Orient(p, q, x), value, error};
}

// The velocity of the point x of a shape at fraction 0.
Vec2 VelocityAt(const StartShape& s, Vec2 x) {
  return s.translation + s.angle * LeftPerp(x - s.pivot);
}

// With the line p -> q weakly separating the shapes (every vertex of
// `left` on its left or on it, every vertex of `right` on its right or on
// it), the share of the step over which the gap along the line's normal
// stays positive, or 0.
double SeparatedAlong(Vec2 p, Vec2 q, const StartShape& right,
                      const StartShape& left) {
  const Vec2 d = q - p;
  const double scale = L1(d) * (1.0 + 4.0 * u);  // >= |LeftPerp(q - p)|
  const double k = scale *
                   (right.angle * right.angle * right.reach +
                    left.angle * left.angle * left.reach) *
                   (1.0 + 0x1p-40);
  const double speeds = L1(right.translation) + L1(left.translation) +
                        std::fabs(right.angle) * right.reach +
                        std::fabs(left.angle) * left.reach;
  const double rate_error = 16.0 * u * scale * speeds * 2.0;
  const Vec2 n = LeftPerp(d);
  double shortest = std::numeric_limits<double>::infinity();
  for (int32_t j = 0; j < left.count; ++j) {
    const Vec2 y = left.vertices[j];
    const Side sy = SideOf(p, q, y);
    const double y_low =
        sy.sign == 0 ? 0.0 : std::fmax(0.0, sy.value - sy.error);
    const double y_rate = Dot(n, VelocityAt(left, y));
    for (int32_t i = 0; i < right.count; ++i) {
      const Vec2 x = right.vertices[i];
      const Side sx = SideOf(p, q, x);
      const double x_low =
          sx.sign == 0 ? 0.0 : std::fmax(0.0, -sx.value - sx.error);
      const double h = y_low + x_low;  // <= the exact gap along n
      const double v = y_rate - Dot(n, VelocityAt(right, x)) - rate_error;
      // First positive root of h + v s - k s^2 / 2: 2 v / k for a pair
      // touching at 0 (which must move apart, v > 0), else as in
      // SeparatedFor.
      double root = std::numeric_limits<double>::infinity();
      if (h == 0.0) {
        if (!(v > 0.0)) return 0.0;
        if (k > 0.0) root = 2.0 * v / k;
      } else {
        const double denominator = std::sqrt(v * v + 2.0 * k * h) - v;
        if (denominator > 0.0) root = 2.0 * h / denominator;
      }
      shortest = root < shortest ? root : shortest;
    }
  }
  return shortest * (1.0 - 0x1p-40);
}

// Every vertex of `shape` on the side `sign` of p -> q, or on the line.
bool AllOnSide(Vec2 p, Vec2 q, const StartShape& shape, int sign) {
  for (int32_t i = 0; i < shape.count; ++i) {
    if (Orient(p, q, shape.vertices[i]) == -sign) return false;
  }
  return true;
}

double TryEdgesOf(const StartShape& owner, const StartShape& other) {
  if (owner.count < 2) return 0.0;
  const int32_t edges = owner.count == 2 ? 1 : owner.count;
  for (int32_t e = 0; e < edges; ++e) {
    const Vec2 p = owner.vertices[e];
    const Vec2 q = owner.vertices[(e + 1) % owner.count];
    if (p == q) continue;
    // The other shape on the left and the owner on the right, or the
    // reverse (a segment has both sides).
    for (const int side : {1, -1}) {
      if (!AllOnSide(p, q, other, side) || !AllOnSide(p, q, owner, -side)) {
        continue;
      }
      const double s = side > 0 ? SeparatedAlong(p, q, owner, other)
                                : SeparatedAlong(q, p, owner, other);
      if (s > 0.0) return s;
    }
  }
  return 0.0;
}

}  // namespace

double LeavesContactFor(const StartShape& a, const StartShape& b) {
  const double s = TryEdgesOf(a, b);
  if (s > 0.0) return s;
  return TryEdgesOf(b, a);
}

}  // namespace collide::internal
