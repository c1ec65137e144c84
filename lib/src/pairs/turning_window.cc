// Swept bounding disks of a turning pair, with verified roots.
#include "pairs/turning_window.h"

#include <cmath>
#include <limits>

namespace collide::internal {
namespace {

constexpr double u = kUnitRoundoff;
constexpr double kTiny = std::numeric_limits<double>::denorm_min();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A disk holding the body at every fraction: its centre starts at
// `center` (relative to the body's pivot) and moves by the body's
// translation; `radius` includes the shape's radius and every rounding of
// the vertices' offsets and of the disk's own computation.
struct Disk {
  Vec2 center;
  double radius;
};

Disk DiskOf(const TurnBody& body) {
  // A turning body: reach bounds every true vertex's distance from the
  // pivot, which is where the rotation leaves it.
  if (body.angle != 0.0) return {Vec2{}, body.reach + body.radius};
  Vec2 lower = body.offsets[0];
  Vec2 upper = body.offsets[0];
  for (int32_t i = 1; i < body.count; ++i) {
    const Vec2 o = body.offsets[i];
    lower = {Min(lower.x, o.x), Min(lower.y, o.y)};
    upper = {Max(upper.x, o.x), Max(upper.y, o.y)};
  }
  // The centre is the double computed here; the radius is measured from
  // it: each difference rounds by u per coordinate and the length by a
  // few u relative, which 2^-40 and the 4u term cover.
  const Vec2 center = 0.5 * (lower + upper);
  double largest = 0.0;
  for (int32_t i = 0; i < body.count; ++i) {
    const double d = Length(body.offsets[i] - center);
    largest = d > largest ? d : largest;
  }
  const double radius = largest * (1.0 + 0x1p-40) +
                        4.0 * u * (body.largest_offset_l1 + L1(center)) +
                        body.offset_error;
  return {center, radius + body.radius};
}

// At fraction t on the exact line D0 + t V (doubles D0 and V): whether
// |D0 + t V| > r is certain, and the certain sign of (D0 + t V) . V, the
// half-slope of |D0 + t V|^2 (0 when unknown).
struct Check {
  bool apart = false;
  int slope = 0;
};

Check CheckAt(Vec2 d0, Vec2 v, double r, double t) {
  const Vec2 tv = t * v;
  const Vec2 p = d0 + tv;
  // Each coordinate of tv and of p rounds by u of its magnitude.
  const double e = 2.0 * u * (L1(tv) + L1(p)) + 4.0 * kTiny;
  Check check;
  check.apart = Length(p) * (1.0 - 4.0 * u) - e > r;
  const double s = Dot(p, v);
  const double s_error =
      e * L1(v) + 4.0 * u * (std::fabs(p.x * v.x) + std::fabs(p.y * v.y)) +
      8.0 * kTiny;
  check.slope = s > s_error ? 1 : (s < -s_error ? -1 : 0);
  return check;
}

// The exact line's distance from the origin exceeds r (V != 0).
bool LineApart(Vec2 d0, Vec2 v, double r) {
  const double cross = std::fabs(Cross(d0, v));
  const double cross_error =
      2.0 * u * (std::fabs(d0.x * v.y) + std::fabs(d0.y * v.x)) + 4.0 * kTiny;
  const double length = Length(v) * (1.0 + 4.0 * u);
  return (cross - cross_error) * (1.0 - 4.0 * u) > r * length;
}

}  // namespace

TurnWindow SweptWindow(const TurnBody& a, const TurnBody& b, Vec2 b_base,
                       double b_base_error, double max_fraction) {
  TurnWindow window;
  window.leave = kInfinity;
  const Disk disk_a = DiskOf(a);
  const Disk disk_b = DiskOf(b);
  // The centres' offset and relative motion, with bounds on how far the
  // computed doubles are from the true ones (t <= 1 scales the motion's).
  const Vec2 d0 = (b_base + disk_b.center) - disk_a.center;
  const Vec2 v = b.translation - a.translation;
  const double d0_error =
      b_base_error +
      2.0 * u * (L1(b_base) + L1(disk_b.center) + L1(disk_a.center) + L1(d0));
  const double v_error = 2.0 * u * L1(v);
  const double r =
      (disk_a.radius + disk_b.radius + d0_error + v_error) * (1.0 + 0x1p-40);
  const Check start = CheckAt(d0, v, r, 0.0);
  if (v == Vec2{}) {
    window.miss = start.apart;
    return window;
  }
  // Apart at 0 and parting: |D0 + t V|^2 is convex, so apart for ever.
  if (start.apart && start.slope > 0) {
    window.miss = true;
    return window;
  }
  const double qa = Dot(v, v);
  const double qb = Dot(d0, v);
  const double qc = Dot(d0, d0) - r * r;
  const double discriminant = qb * qb - qa * qc;
  if (!(discriminant >= 0.0) || !(qa > 0.0)) {
    // The closest approach stays outside the disks' sum, or the roots
    // are not usable: only the line's distance decides.
    window.miss = start.apart && LineApart(d0, v, r);
    return window;
  }
  const double root = std::sqrt(discriminant);
  // Apart and approaching at `enter`: apart on [0, enter] (the squared
  // distance is convex and still falling there).
  if (start.apart && qb < 0.0) {
    const double first = qc / (root - qb);
    for (const double shrink : {1.0 - 0x1p-24, 1.0 - 0x1p-12}) {
      const double t = first * shrink;
      if (!(t > 0.0)) break;
      const Check c = CheckAt(d0, v, r, t);
      if (c.apart && c.slope < 0) {
        window.enter = t;
        break;
      }
    }
    if (window.enter >= max_fraction) {
      window.miss = true;
      return window;
    }
  }
  // Apart and parting at `leave`: apart for every t >= leave.
  const double last = qb < 0.0 ? (root - qb) / qa : -qc / (root + qb);
  for (const double grow : {1.0 + 0x1p-24, 1.0 + 0x1p-12}) {
    const double t = last * grow;
    if (!(t > 0.0) || !(t < kInfinity)) break;
    const Check c = CheckAt(d0, v, r, t);
    if (c.apart && c.slope > 0) {
      window.leave = t;
      break;
    }
  }
  return window;
}

}  // namespace collide::internal
