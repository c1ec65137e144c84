#include "reference.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "collide/toi.h"

namespace collide_bench {
namespace {

using collide::Aabb;
using collide::Hit;
using collide::Vec2;

std::optional<Hit> CastOne(const Scene& scene, const QuerySet& set, size_t q,
                           size_t shape) {
  const Vec2 origin = set.origins[q];
  const Vec2 translation = set.translations[q];
  if (set.kind == QueryKind::kRay) {
    const collide::RayInput ray{origin, translation};
    return scene.kind == ShapeKind::kSegment
               ? collide::CastRay(ray, scene.segments[shape])
               : collide::CastRay(ray, scene.polygons[shape]);
  }
  const collide::CircleCast cast{{origin, set.radius}, translation};
  return scene.kind == ShapeKind::kSegment
             ? collide::CastCircle(cast, scene.segments[shape])
             : collide::CastCircle(cast, scene.polygons[shape]);
}

void Keep(const std::optional<Hit>& hit, size_t shape, WorldHit& best) {
  if (!hit || (best.hit && hit->fraction >= best.fraction)) return;
  best.hit = true;
  best.fraction = hit->fraction;
  best.point = hit->point;
  best.shape = static_cast<int64_t>(shape);
}

Aabb SweptBounds(const QuerySet& set, size_t q) {
  const Vec2 a = set.origins[q];
  const Vec2 b = a + set.translations[q];
  const double r = set.radius;
  return {{std::min(a.x, b.x) - r, std::min(a.y, b.y) - r},
          {std::max(a.x, b.x) + r, std::max(a.y, b.y) + r}};
}

}  // namespace

std::vector<WorldHit> ComputeReference(const Scene& scene,
                                       const QuerySet& set) {
  // Shapes ordered by lower x; a shape can only meet the swept bounds if its
  // lower x lies in [swept.lower.x - max_width, swept.upper.x].
  const size_t n = scene.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::vector<Aabb> bounds(n);
  double max_width = 0.0;
  for (size_t i = 0; i < n; ++i) {
    bounds[i] = scene.Bounds(i);
    max_width = std::max(max_width, bounds[i].upper.x - bounds[i].lower.x);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return bounds[a].lower.x < bounds[b].lower.x;
  });
  std::vector<double> lower_x(n);
  std::vector<Aabb> sorted(n);
  for (size_t k = 0; k < n; ++k) {
    sorted[k] = bounds[order[k]];
    lower_x[k] = sorted[k].lower.x;
  }

  std::vector<WorldHit> out(set.size());
  for (size_t q = 0; q < set.size(); ++q) {
    const Aabb s = SweptBounds(set, q);
    const size_t begin = std::lower_bound(lower_x.begin(), lower_x.end(),
                                          s.lower.x - max_width) -
                         lower_x.begin();
    WorldHit best;
    for (size_t k = begin; k < n && lower_x[k] <= s.upper.x; ++k) {
      const Aabb& b = sorted[k];
      if (b.upper.x < s.lower.x || b.upper.y < s.lower.y ||
          b.lower.y > s.upper.y) {
        continue;
      }
      const size_t shape = order[k];
      const std::optional<Hit> hit = CastOne(scene, set, q, shape);
      // Ties in fraction keep the lower shape id, as the full loop does.
      if (hit && best.hit && hit->fraction == best.fraction &&
          static_cast<int64_t>(shape) < best.shape) {
        best.point = hit->point;
        best.shape = static_cast<int64_t>(shape);
      }
      Keep(hit, shape, best);
    }
    out[q] = best;
  }
  return out;
}

int64_t CheckReference(const Scene& scene, const QuerySet& set,
                       const std::vector<WorldHit>& reference, int samples) {
  int64_t differ = 0;
  const size_t step = std::max<size_t>(1, set.size() / samples);
  for (size_t q = 0; q < set.size(); q += step) {
    WorldHit best;
    for (size_t shape = 0; shape < scene.size(); ++shape) {
      Keep(CastOne(scene, set, q, shape), shape, best);
    }
    const WorldHit& r = reference[q];
    if (best.hit != r.hit ||
        (best.hit && (best.fraction != r.fraction || best.shape != r.shape ||
                      best.point != r.point))) {
      ++differ;
    }
  }
  return differ;
}

bool Disagrees(const WorldHit& result, const WorldHit& reference,
               double tolerance) {
  if (result.hit != reference.hit) return true;
  if (!result.hit) return false;
  return collide::Length(result.point - reference.point) > tolerance;
}

}  // namespace collide_bench
