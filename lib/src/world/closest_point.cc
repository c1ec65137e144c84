// ClosestPoint: the level point nearest a query point. The spatial hash
// visits rings of cells outwards from the point and stops once no unvisited
// cell can hold anything nearer than the best so far.
#include "pairs/closest_point.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "world/query_common.h"

namespace collide {
namespace {

// The closest point among one layer's shapes: a level's own, or (with
// `removed`) its base's less the removed ones.
std::optional<WorldClosestPoint> ClosestPointIn(Vec2 point, const Level& level,
                                                const uint64_t* removed,
                                                double max_distance,
                                                const QueryFilter& filter) {
  using internal::PointDistance;
  using internal::Rank;
  bool found = false;
  Rank best;
  PointDistance best_distance;
  int32_t best_shape = 0;
  const auto offer = [&](const Rank& rank, const PointDistance& d,
                         int32_t shape) {
    if (found && !(rank < best)) return;
    found = true;
    best = rank;
    best_distance = d;
    best_shape = shape;
  };
  // Inside a solid concave polygon: distance 0 wherever its edges are.
  level.solids().VisitBox(Aabb{point, point}, [&](int32_t item) {
    const int32_t shape = level.solid_shape(item);
    if (internal::Passes(level, shape, filter, removed) &&
        ContainsPoint(level.concave_polygon(shape), point)) {
      offer(Rank{0.0, level.id(shape), -1},
            PointDistance{0.0, point, {FeatureType::kSurface, 0}, false, {}},
            shape);
    }
    return true;
  });
  level.spatial_hash().VisitNear(point, max_distance, [&](int32_t item) {
    const Level::Primitive& p = level.primitive(item);
    if (internal::Passes(level, p.shape, filter, removed)) {
      PointDistance d;
      int32_t part = 0;
      switch (p.kind) {
        case Level::PrimitiveKind::kSegment:
          d = internal::DistanceToSegment(point, p.a, p.b, max_distance);
          break;
        case Level::PrimitiveKind::kCircle:
          d = internal::DistanceToCircle(point, Circle{p.a, p.radius},
                                         max_distance);
          break;
        case Level::PrimitiveKind::kCapsule:
          d = internal::DistanceToCapsule(point, Capsule{p.a, p.b, p.radius},
                                          max_distance);
          break;
        case Level::PrimitiveKind::kConvexPolygon:
          d = internal::DistanceToPolygon(point, level.convex_polygon(p.shape),
                                          max_distance);
          break;
        case Level::PrimitiveKind::kPolylineEdge:
          d = internal::DistanceToSegment(point, p.a, p.b, max_distance);
          part = p.part;
          internal::RenumberChainFeature(
              part,
              static_cast<int32_t>(level.polyline(p.shape).vertices.size()),
              d.feature);
          break;
        case Level::PrimitiveKind::kConcaveEdge:
          d = internal::DistanceToSegment(point, p.a, p.b, max_distance);
          part = p.part;
          internal::RenumberChainFeature(
              part,
              static_cast<int32_t>(
                  level.concave_polygon(p.shape).vertices.size()),
              d.feature);
          break;
      }
      if (d.within) {
        // Within max_distance exactly; its rounded distance may lie a hair
        // beyond it, which the exact answer rules out.
        d.distance = std::min(d.distance, max_distance);
        offer(Rank{d.distance, level.id(p.shape), part}, d, p.shape);
      }
    }
    return found ? best.measure : max_distance;
  });
  if (!found) return std::nullopt;
  WorldClosestPoint result;
  result.point = best_distance.point;
  result.distance = best_distance.distance;
  // From the shape's own direction: at a gap below the point's ulp the
  // reported surface point rounds onto the query point.
  result.normal =
      best_distance.distance > 0.0 ? Normalize(best_distance.away) : Vec2{};
  result.feature = best_distance.feature;
  result.shape_id = level.id(best_shape);
  result.user_data = level.user_data(best_shape);
  return result;
}

}  // namespace

std::optional<WorldClosestPoint> ClosestPoint(Vec2 point, const Level& level,
                                              double max_distance,
                                              const QueryFilter& filter) {
  COLLIDE_DCHECK(IsFinite(point) && max_distance >= 0.0);
  std::optional<WorldClosestPoint> best =
      ClosestPointIn(point, level, nullptr, max_distance, filter);
  if (const Level* base = level.base()) {
    // A shape lives in one layer only: between layers the rank is the
    // distance, then the id.
    const std::optional<WorldClosestPoint> below = ClosestPointIn(
        point, *base, level.removed_from_base().data(), max_distance, filter);
    if (below && (!best || below->distance < best->distance ||
                  (below->distance == best->distance &&
                   below->shape_id < best->shape_id))) {
      best = below;
    }
  }
  return best;
}

}  // namespace collide
