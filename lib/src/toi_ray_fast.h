// Internal: closed-form ray casts for the pairs that dominate level queries
// (bullets against walls, pillars and crates), without a skin. Each handles
// a ray that starts clearly away from the shape, returning true with the
// answer in `result`, and returns false otherwise, leaving starts in or near
// contact to the general machinery of convex_core.h, so both paths give the
// same semantics.
#ifndef COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
#define COLLIDE_LIB_SRC_TOI_RAY_FAST_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "convex_core.h"

namespace collide::internal {

// Defined here so that each folds into its public CastRay and fills the
// caller's return value in place: these calls take ~10 ns, and copying a
// just-written optional<Hit> stalls on store forwarding for a share of that.
inline double FastMaxAbs(Vec2 v) {
  return std::max(std::abs(v.x), std::abs(v.y));
}
inline bool CastRayClear(const RayInput& ray, Segment segment,
                         double max_fraction, std::optional<Hit>& result) {
  const Vec2 e = segment.p2 - segment.p1;
  const Vec2 m = ray.origin - segment.p1;
  const Vec2 d = ray.translation;
  const double length_squared = Dot(e, e);
  // |e| times the signed distance of the origin from the line, and its rate.
  const double cm = Cross(e, m);
  const double cd = Cross(e, d);
  const double tolerance = kTouchRoundings * (FastMaxAbs(m) + FastMaxAbs(d));
  if (length_squared == 0.0 ||
      cm * cm <= tolerance * tolerance * length_squared) {
    return false;  // a point, or starting on or near the line
  }
  if (cm * cd >= 0.0) return true;  // not closing on the line
  const double t = -cm / cd;
  if (t > max_fraction) return true;
  const double along = Dot(m + t * d, e);
  if (along < 0.0 || along > length_squared) return true;
  Hit& hit = result.emplace();
  hit.fraction = t;
  hit.point = segment.p1 + (along / length_squared) * e;
  hit.normal = (1.0 / std::sqrt(length_squared)) *
               (cm > 0.0 ? LeftPerp(e) : RightPerp(e));
  hit.feature = along == 0.0              ? Feature{FeatureType::kVertex, 0}
                : along == length_squared ? Feature{FeatureType::kVertex, 1}
                                          : Feature{FeatureType::kEdge, 0};
  return true;
}

inline bool CastRayClear(const RayInput& ray, Circle circle,
                         double max_fraction, std::optional<Hit>& result) {
  const Vec2 m = ray.origin - circle.center;
  const Vec2 d = ray.translation;
  const double r = circle.radius;
  const double reach =
      r + kTouchRoundings * (FastMaxAbs(m) + r + FastMaxAbs(d));
  const double c0 = Dot(m, m) - r * r;
  if (r == 0.0 || Dot(m, m) <= reach * reach) return false;
  const double b = Dot(d, m);
  if (b >= 0.0) return true;
  // Discriminant as a r^2 - (d x m)^2 and the root as c / q: see
  // SweepPointCircle.
  const double cross = Cross(d, m);
  const double discriminant = Dot(d, d) * r * r - cross * cross;
  if (discriminant < 0.0) return true;
  const double t = c0 / (-b + std::sqrt(discriminant));
  if (t > max_fraction) return true;
  Hit& hit = result.emplace();
  hit.fraction = t;
  hit.normal = Normalize(m + t * d);
  hit.point = circle.center + r * hit.normal;
  hit.feature = {FeatureType::kSurface, 0};
  return true;
}

// A convex polygon, read through `polygon.count()`, `vertex(i)` and
// `normal(i)` (the outward normal of edge i, from vertex i to i + 1), so a
// level can keep a packed copy and get the same answer, bit for bit.
template <typename ConvexView>
bool CastRayClearConvex(const RayInput& ray, const ConvexView& polygon,
                        double max_fraction, std::optional<Hit>& result) {
  const Vec2 p = ray.origin;
  const Vec2 d = ray.translation;
  // Cyrus-Beck clipping; the largest edge-plane distance also tells whether
  // the ray starts clearly outside.
  double t_enter = -std::numeric_limits<double>::infinity();
  double t_exit = std::numeric_limits<double>::infinity();
  double outside = -std::numeric_limits<double>::infinity();
  int enter = -1;
  const int count = polygon.count();
  for (int i = 0; i < count; ++i) {
    const Vec2 n = polygon.normal(i);
    const double distance = Dot(p - polygon.vertex(i), n);
    const double rate = Dot(d, n);
    outside = std::max(outside, distance);
    if (rate < 0.0) {
      const double t = distance / -rate;
      if (t > t_enter) {
        t_enter = t;
        enter = i;
      }
    } else if (rate > 0.0) {
      t_exit = std::min(t_exit, distance / -rate);
    } else if (distance > 0.0) {
      t_exit = -std::numeric_limits<double>::infinity();  // parallel, outside
    }
  }
  const double tolerance =
      kTouchRoundings * (FastMaxAbs(p - polygon.vertex(0)) + FastMaxAbs(d));
  if (outside <= tolerance) return false;
  // Starting outside, a line that enters the polygon before the start has
  // already left it.
  if (enter < 0 || t_enter < 0.0 || t_enter > t_exit ||
      t_enter > max_fraction) {
    return true;
  }
  const int next = enter + 1 == count ? 0 : enter + 1;
  const Vec2 a = polygon.vertex(enter);
  const Vec2 e = polygon.vertex(next) - a;
  const double length_squared = Dot(e, e);
  const double s =
      std::clamp(Dot((p - a) + t_enter * d, e) / length_squared, 0.0, 1.0);
  Hit& hit = result.emplace();
  hit.fraction = t_enter;
  hit.point = a + s * e;
  hit.normal = polygon.normal(enter);
  hit.feature = s == 0.0   ? Feature{FeatureType::kVertex, enter}
                : s == 1.0 ? Feature{FeatureType::kVertex, next}
                           : Feature{FeatureType::kEdge, enter};
  return true;
}

// ConvexPolygon as a ConvexView.
struct ConvexPolygonView {
  const ConvexPolygon& polygon;
  int count() const { return polygon.count; }
  Vec2 vertex(int i) const { return polygon.vertices[i]; }
  Vec2 normal(int i) const { return polygon.normals[i]; }
};

inline bool CastRayClear(const RayInput& ray, const ConvexPolygon& polygon,
                         double max_fraction, std::optional<Hit>& result) {
  return CastRayClearConvex(ray, ConvexPolygonView{polygon}, max_fraction,
                            result);
}

// A solid simple polygon: the closed form against each edge facing the ray
// (outward normal against the motion), earliest wins, first edge on ties as
// in SweepCoreVsConcave. A start inside or on the boundary, or near any
// facing edge's line, is left to the general machinery.
inline bool CastRayClear(const RayInput& ray, const ConcavePolygon& polygon,
                         double max_fraction, std::optional<Hit>& result) {
  if (ContainsPoint(polygon, ray.origin)) return false;
  const int n = static_cast<int>(polygon.vertices.size());
  double limit = max_fraction;
  int best_edge = -1;
  for (int i = 0; i < n; ++i) {
    const int next = i + 1 == n ? 0 : i + 1;
    const Segment edge{polygon.vertices[i], polygon.vertices[next]};
    // Outward normal orientation * RightPerp(e): facing the ray when
    // orientation * cross(d, e) < 0.
    if (polygon.orientation * Cross(ray.translation, edge.p2 - edge.p1) >=
        0.0) {
      continue;
    }
    std::optional<Hit> hit;
    if (!CastRayClear(ray, edge, limit, hit)) {
      result.reset();
      return false;
    }
    if (hit && (best_edge < 0 || hit->fraction < limit)) {
      Hit& best = result.emplace();
      best = *hit;
      best.feature.index = best.feature.type == FeatureType::kVertex
                               ? (best.feature.index == 0 ? i : next)
                               : i;
      limit = hit->fraction;
      best_edge = i;
    }
  }
  return true;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_TOI_RAY_FAST_H_
