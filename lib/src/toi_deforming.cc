// Seed 000's general case: a moving point against a segment whose endpoints
// move independently. With m(t) = p(t) - a(t) and e(t) = b(t) - a(t), both
// linear in t, the point is on the segment's line when
//   f(t) = cross(e(t), m(t)) = A t^2 + B t + C = 0,
// and on the segment itself when 0 <= s(t) = m.e / e.e <= 1.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "collide/dcheck.h"
#include "collide/toi.h"
#include "degenerate_normal.h"

namespace collide {
namespace {

// Real roots of a t^2 + b t + c = 0 in ascending order, via the stable form
// (q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q) because the
// textbook formula loses the small root when b^2 >> 4ac. A zero a gives the
// linear root; an identically zero polynomial gives none (the caller handles
// it).
struct Roots {
  int count = 0;
  std::array<double, 2> values{};
};

Roots SolveQuadratic(double a, double b, double c) {
  Roots roots;
  if (a == 0.0) {
    if (b != 0.0) roots.values[roots.count++] = -c / b;
    return roots;
  }
  const double discriminant = b * b - 4.0 * a * c;
  if (discriminant < 0.0) return roots;
  const double q = -0.5 * (b + std::copysign(std::sqrt(discriminant), b));
  if (q == 0.0) {  // b == 0 and c == 0: a double root at zero
    roots.values[roots.count++] = 0.0;
    return roots;
  }
  double r1 = q / a;
  double r2 = c / q;
  if (r1 > r2) std::swap(r1, r2);
  roots.values[roots.count++] = r1;
  if (r2 != r1) roots.values[roots.count++] = r2;
  return roots;
}

struct Motion {
  Vec2 m0, dm;  // point relative to the segment's first end
  Vec2 e0, de;  // the segment's direction vector
};

}  // namespace

std::optional<Hit> CastRay(const RayInput& ray, const DeformingSegment& segment,
                           const CastOptions& options) {
  COLLIDE_DCHECK(IsValid(ray) && IsValid(segment) && IsValid(options));
  COLLIDE_DCHECK(options.target_distance == 0.0);
  const Vec2 da = segment.end.p1 - segment.start.p1;
  const Vec2 db = segment.end.p2 - segment.start.p2;
  const Motion motion{ray.origin - segment.start.p1, ray.translation - da,
                      segment.start.p2 - segment.start.p1, db - da};
  const double a = Cross(motion.de, motion.dm);
  const double b = Cross(motion.e0, motion.dm) + Cross(motion.de, motion.m0);
  const double c = Cross(motion.e0, motion.m0);

  // The contact at fraction t, if the point is on the segment then.
  const auto contact_at = [&](double t, double slope) -> std::optional<Hit> {
    const Vec2 e = motion.e0 + t * motion.de;
    const Vec2 m = motion.m0 + t * motion.dm;
    const double length_squared = Dot(e, e);
    Hit hit;
    hit.fraction = t;
    const Vec2 a_t = segment.start.p1 + t * da;
    if (length_squared == 0.0) {
      // The segment has shrunk to a point: contact only if the point is there
      // (seed 000 calls this no collision; it is a point contact).
      if (m != Vec2{}) return std::nullopt;
      hit.point = a_t;
      hit.normal = internal::DegenerateContactNormal(ray.translation - da);
      hit.feature = {FeatureType::kVertex, 0};
      return hit;
    }
    const double along = Dot(m, e);
    if (along < 0.0 || along > length_squared) return std::nullopt;
    const double s = along / length_squared;
    hit.point = a_t + s * e;
    // Normal towards the side the point came from: f falls through zero
    // from that side, so the side is the sign opposite to f's slope.
    const double side =
        slope != 0.0 ? -slope : (c != 0.0 ? c : -Cross(e, motion.dm));
    hit.normal = Normalize(side >= 0.0 ? LeftPerp(e) : RightPerp(e));
    hit.feature = s == 0.0   ? Feature{FeatureType::kVertex, 0}
                  : s == 1.0 ? Feature{FeatureType::kVertex, 1}
                             : Feature{FeatureType::kEdge, 0};
    return hit;
  };

  // Starting on the segment: it has no inside, so only stop_at_penetration
  // makes this a hit.
  if (c == 0.0) {
    std::optional<Hit> start = contact_at(0.0, b);
    if (start) {
      if (!options.stop_at_penetration) return std::nullopt;
      start->status = HitStatus::kInitialOverlap;
      return start;
    }
  }
  if (a == 0.0 && b == 0.0 && c == 0.0) {
    // Always on the moving line: contact when the point reaches an end,
    // where m.e = 0 or (m - e).e = 0, both quadratic in t.
    const Vec2 me0 = motion.m0 - motion.e0;
    const Vec2 dme = motion.dm - motion.de;
    const Roots reach_first =
        SolveQuadratic(Dot(motion.dm, motion.de),
                       Dot(motion.m0, motion.de) + Dot(motion.dm, motion.e0),
                       Dot(motion.m0, motion.e0));
    const Roots reach_second = SolveQuadratic(
        Dot(dme, motion.de), Dot(me0, motion.de) + Dot(dme, motion.e0),
        Dot(me0, motion.e0));
    std::optional<Hit> best;
    for (int end = 0; end < 2; ++end) {
      const Roots& roots = end == 0 ? reach_first : reach_second;
      // The normal faces the point's motion relative to the end it meets.
      const Vec2 relative = ray.translation - (end == 0 ? da : db);
      for (int i = 0; i < roots.count; ++i) {
        const double t = roots.values[i];
        if (t <= 0.0 || t > options.max_fraction) continue;
        if (best && t >= best->fraction) continue;
        std::optional<Hit> hit = contact_at(t, 0.0);
        if (hit) {
          hit->normal = internal::DegenerateContactNormal(relative);
          best = hit;
        }
      }
    }
    return best;
  }
  const Roots roots = SolveQuadratic(a, b, c);
  for (int i = 0; i < roots.count; ++i) {
    const double t = roots.values[i];
    if (t < 0.0 || t > options.max_fraction) continue;
    std::optional<Hit> hit = contact_at(t, 2.0 * a * t + b);
    if (hit) return hit;
  }
  return std::nullopt;
}

}  // namespace collide
