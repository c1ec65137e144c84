// ClosestPoint: the level point nearest a query point. The spatial hash
// visits rings of cells outwards from the point and stops once no unvisited
// cell can hold anything nearer than the best so far.
#include "pairs/closest_point.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "exact/exact_time.h"
#include "world/query_common.h"

namespace collide {
namespace {

// Distances this close (relative) are a near tie, decided on exact
// distances: far wider than a distance's rounding.
constexpr double kNearTieShare = 0x1p-40;

// The distance from `point` (outside the primitive: distance > 0) to a
// primitive, exactly: the squared distance to its core and, for a circle
// or capsule, the radius to subtract from its square root.
struct ExactDistance {
  internal::ExactTime square;
  double radius = 0.0;
};

std::optional<ExactDistance> DistanceTo(const Level& level,
                                        const Level::Primitive& p, Vec2 point) {
  using internal::SquaredDistanceToSegment;
  switch (p.kind) {
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
    case Level::PrimitiveKind::kConcaveEdge:
      return ExactDistance{SquaredDistanceToSegment(point, p.a, p.b)};
    case Level::PrimitiveKind::kCircle:
      return ExactDistance{SquaredDistanceToSegment(point, p.a, p.a), p.radius};
    case Level::PrimitiveKind::kCapsule:
      return ExactDistance{SquaredDistanceToSegment(point, p.a, p.b), p.radius};
    case Level::PrimitiveKind::kConvexPolygon: {
      const ConvexPolygon& polygon = level.convex_polygon(p.shape);
      std::optional<internal::ExactTime> best;
      for (int i = 0; i < polygon.count; ++i) {
        const internal::ExactTime d =
            SquaredDistanceToSegment(point, polygon.vertices[i],
                                     polygon.vertices[(i + 1) % polygon.count]);
        if (!best || internal::CompareTimes(d, *best) < 0) best = d;
      }
      return ExactDistance{*best};
    }
  }
  return std::nullopt;
}

// A near tie between two positive distances to primitives a and b, decided
// on exact values, out of line (rare): whether a ranks before b, with both
// distances rewritten to their exact values correctly rounded where their
// rounding contradicts the exact order (RoundingContradicts: equal exact
// distances are then one double). Squared distances where neither shape is
// round; where one is (a circle or capsule of positive radius), the root
// forms sqrt(square) - radius (degree 20 in the inputs after CompareTimes'
// two squarings); nullopt (the rounded order stands) where a distance its
// own function placed elsewhere is not this one.
// a and b may be of different layers (a patched level's base and its own).
ABSL_ATTRIBUTE_NOINLINE std::optional<bool> SettleDistanceTie(
    Vec2 point, const Level& level_a, int32_t item_a, internal::Rank& a,
    const Level& level_b, int32_t item_b, internal::Rank& b) {
  const std::optional<ExactDistance> da =
      DistanceTo(level_a, level_a.primitive(item_a), point);
  if (!da) return std::nullopt;
  const std::optional<ExactDistance> db =
      DistanceTo(level_b, level_b.primitive(item_b), point);
  if (!db) return std::nullopt;
  const bool round = da->radius != 0.0 || db->radius != 0.0;
  const int order =
      round ? internal::CompareTimes(
                  internal::DistanceLessRadius(da->square, da->radius),
                  internal::DistanceLessRadius(db->square, db->radius))
            : internal::CompareTimes(da->square, db->square);
  if (internal::RoundingContradicts(order, a.measure, b.measure)) {
    const double ra = internal::RoundDistanceLessRadius(da->square, da->radius);
    const double rb = internal::RoundDistanceLessRadius(db->square, db->radius);
    // A distance its own function placed elsewhere is not this one.
    if (std::abs(ra - a.measure) > kNearTieShare * a.measure ||
        std::abs(rb - b.measure) > kNearTieShare * b.measure) {
      return std::nullopt;
    }
    a.measure = ra;
    b.measure = rb;
  }
  if (order != 0) return order < 0;
  return a < b;
}

// One layer's closest point, with its primitive (-1 inside a concave
// polygon) and rank, for the tie between layers.
struct LayerClosest {
  WorldClosestPoint result;
  int32_t item = -1;
  internal::Rank rank;
};

// Whether two distances are a near tie, decided on exact distances.
bool NearDistanceTie(double a, double b) {
  return a > 0.0 && b > 0.0 &&
         std::abs(a - b) <= kNearTieShare * std::max(a, b);
}

// The closest point among one layer's shapes: a level's own, or (with
// `removed`) its base's less the removed ones.
std::optional<LayerClosest> ClosestPointIn(Vec2 point, const Level& level,
                                           const uint64_t* removed,
                                           double max_distance,
                                           const QueryFilter& filter) {
  using internal::PointDistance;
  using internal::Rank;
  bool found = false;
  Rank best;
  PointDistance best_distance;
  int32_t best_shape = 0;
  int32_t best_item = -1;  // its primitive; -1 inside a concave polygon
  // `item`: the primitive measured, -1 for a point inside a concave polygon.
  const auto offer = [&](Rank rank, const PointDistance& d, int32_t shape,
                         int32_t item) {
    if (found && item >= 0 && best_item >= 0 &&
        NearDistanceTie(rank.measure, best.measure) &&
        (shape != best_shape || rank.part != best.part)) {
      const std::optional<bool> before =
          SettleDistanceTie(point, level, item, rank, level, best_item, best);
      if (before) {
        best_distance.distance = best.measure;
        if (!*before) return;
        best = rank;
        best_distance = d;
        best_distance.distance = rank.measure;
        best_shape = shape;
        best_item = item;
        return;
      }
    }
    if (found && !(rank < best)) return;
    found = true;
    best = rank;
    best_distance = d;
    best_shape = shape;
    best_item = item;
  };
  // Inside a solid concave polygon: distance 0 wherever its edges are.
  level.solids().VisitBox(Aabb{point, point}, [&](int32_t item) {
    const int32_t shape = level.solid_shape(item);
    if (internal::Passes(level, shape, filter, removed) &&
        ContainsPoint(level.concave_polygon(shape), point)) {
      offer(Rank{0.0, level.id(shape), -1},
            PointDistance{0.0, point, {FeatureType::kSurface, 0}, false, {}},
            shape, -1);
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
        offer(Rank{d.distance, level.id(p.shape), part}, d, p.shape, item);
      }
    }
    // A little past the best, so that a primitive tied with it is still
    // measured.
    return found ? std::min(max_distance,
                            best.measure * (1.0 + 2.0 * kNearTieShare))
                 : max_distance;
  });
  if (!found) return std::nullopt;
  LayerClosest layer;
  layer.item = best_item;
  layer.rank = best;
  WorldClosestPoint& result = layer.result;
  result.point = best_distance.point;
  result.distance = best_distance.distance;
  // From the shape's own direction: at a gap below the point's ulp the
  // reported surface point rounds onto the query point.
  result.normal =
      best_distance.distance > 0.0 ? Normalize(best_distance.away) : Vec2{};
  result.feature = best_distance.feature;
  result.shape_id = level.id(best_shape);
  result.user_data = level.user_data(best_shape);
  return layer;
}

}  // namespace

std::optional<WorldClosestPoint> ClosestPoint(Vec2 point, const Level& level,
                                              double max_distance,
                                              const QueryFilter& filter) {
  COLLIDE_DCHECK(IsFinite(point) && max_distance >= 0.0);
  std::optional<LayerClosest> best =
      ClosestPointIn(point, level, nullptr, max_distance, filter);
  if (const Level* base = level.base()) {
    // A shape lives in one layer only: between layers the rank is the
    // distance (a near tie decided on exact distances, as within a layer),
    // then the id.
    std::optional<LayerClosest> below = ClosestPointIn(
        point, *base, level.removed_from_base().data(), max_distance, filter);
    if (below) {
      std::optional<bool> before;
      if (best && below->item >= 0 && best->item >= 0 &&
          NearDistanceTie(below->rank.measure, best->rank.measure)) {
        before = SettleDistanceTie(point, *base, below->item, below->rank,
                                   level, best->item, best->rank);
        below->result.distance = below->rank.measure;
        best->result.distance = best->rank.measure;
      }
      if (!before) {
        before = !best || below->result.distance < best->result.distance ||
                 (below->result.distance == best->result.distance &&
                  below->result.shape_id < best->result.shape_id);
      }
      if (*before) best = below;
    }
  }
  if (!best) return std::nullopt;
  return best->result;
}

}  // namespace collide
