// Internal: the narrow phase of a world cast, one primitive at a time, with
// the rank (query_common.h) each result competes with.
#ifndef COLLIDE_LIB_SRC_QUERY_CAST_H_
#define COLLIDE_LIB_SRC_QUERY_CAST_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/functional/function_ref.h"
#include "cast_dispatch.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "query_common.h"

namespace collide::internal {

struct Candidate {
  Rank rank;
  Hit hit;
  int32_t shape = 0;
};

template <typename Cast>
class Caster {
 public:
  Caster(const Level& level, const Cast& cast, const QueryFilter& filter,
         const CastOptions& options)
      : level_(level),
        cast_(cast),
        filter_(filter),
        options_(options),
        reference_(MoverCore(cast).vertex(0)),
        start_(StartBounds()) {
    const double scale =
        std::max(std::max(std::abs(start_.lower.x), std::abs(start_.lower.y)),
                 std::max(std::abs(start_.upper.x), std::abs(start_.upper.y)));
    margin_ = kMarginShare * (scale + std::abs(cast.translation.x) +
                              std::abs(cast.translation.y) + 1.0);
    inverse_translation_ = {1.0 / cast.translation.x, 1.0 / cast.translation.y};
  }

  // The swept region: the mover's bounds grown by the skin.
  Aabb StartBounds() const {
    Aabb box = BoundsOf(Shape(cast_));
    const Vec2 skin{options_.target_distance, options_.target_distance};
    return {box.lower - skin, box.upper + skin};
  }

  // Every concave polygon holding the mover's reference point, whose edges
  // the sweep may never reach: its answer is the whole-polygon cast.
  template <typename Offer>
  void StartsInside(Offer&& offer) const {
    if (level_.solids().item_count() == 0) return;  // no concave polygons
    level_.solids().VisitBox(Aabb{reference_, reference_}, [&](int32_t item) {
      const int32_t shape = level_.solid_shape(item);
      if (!Passes(level_, shape, filter_)) return true;
      const ConcavePolygon polygon = level_.concave_polygon(shape);
      if (!ContainsPoint(polygon, reference_)) return true;
      concave_done_.Seen(shape);
      std::optional<Hit> hit = CastTo(cast_, polygon, options_);
      if (hit)
        offer(Candidate{{hit->fraction, level_.id(shape), 0}, *hit, shape});
      return true;
    });
  }

  // The cast against primitive `index` within `limit`, or nullopt (missed,
  // filtered out, or a concave polygon answered already).
  std::optional<Candidate> Test(int32_t index, double limit) const {
    if (!MayReach(level_.primitive_bounds(index), limit)) return std::nullopt;
    const Level::Primitive& p = level_.primitive(index);
    if (!Passes(level_, p.shape, filter_)) return std::nullopt;
    CastOptions options = options_;
    options.max_fraction = limit;
    std::optional<Hit> hit;
    int32_t part = 0;
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
        hit = CastTo(cast_, Segment{p.a, p.b}, options);
        break;
      case Level::PrimitiveKind::kCircle:
        hit = CastTo(cast_, Circle{p.a, p.radius}, options);
        break;
      case Level::PrimitiveKind::kCapsule:
        hit = CastTo(cast_, Capsule{p.a, p.b, p.radius}, options);
        break;
      case Level::PrimitiveKind::kConvexPolygon:
        hit = CastTo(cast_, level_.convex_polygon(p.shape), options);
        break;
      case Level::PrimitiveKind::kPolylineEdge:
        hit = CastTo(cast_, Segment{p.a, p.b}, options);
        part = p.part;
        if (hit) {
          RenumberChainFeature(
              p.part,
              static_cast<int32_t>(level_.polyline(p.shape).vertices.size()),
              hit->feature);
        }
        break;
      case Level::PrimitiveKind::kConcaveEdge:
        // The whole polygon, once: its own rules rank its edges.
        if (concave_done_.Seen(p.shape)) return std::nullopt;
        hit = CastTo(cast_, level_.concave_polygon(p.shape), options);
        break;
    }
    if (!hit) return std::nullopt;
    return Candidate{{hit->fraction, level_.id(p.shape), part}, *hit, p.shape};
  }

 private:
  // Widening of the box test below: far beyond the narrow phase's touch
  // tolerance, so the cheap test can only let through, never drop, a hit.
  static constexpr double kMarginShare = 1e-9;

  // Whether the mover's start box, translated by t * translation for some t
  // in [0, limit], meets `box` widened by the margin (slab test): a cheap
  // rejection of most candidates a cell lists.
  bool MayReach(Aabb box, double limit) const {
    double t0 = 0.0;
    double t1 = limit;
    const auto axis = [&](double lower, double upper, double d,
                          double inverse_d, double box_lower,
                          double box_upper) {
      box_lower -= margin_;
      box_upper += margin_;
      if (d == 0.0) return lower <= box_upper && upper >= box_lower;
      // lower + t d <= box_upper and upper + t d >= box_lower; the margin
      // absorbs the rounding of multiplying by the reciprocal.
      double enter = (box_lower - upper) * inverse_d;
      double leave = (box_upper - lower) * inverse_d;
      if (enter > leave) std::swap(enter, leave);
      t0 = std::max(t0, enter);
      t1 = std::min(t1, leave);
      return t0 <= t1;
    };
    return axis(start_.lower.x, start_.upper.x, cast_.translation.x,
                inverse_translation_.x, box.lower.x, box.upper.x) &&
           axis(start_.lower.y, start_.upper.y, cast_.translation.y,
                inverse_translation_.y, box.lower.y, box.upper.y);
  }

  const Level& level_;
  const Cast& cast_;
  const QueryFilter& filter_;
  CastOptions options_;
  // The point the concave casts test for containment (the mover core's
  // vertex 0), so StartsInside asks exactly what they ask.
  Vec2 reference_;
  Aabb start_;
  double margin_ = 0.0;
  // 1 / translation per axis (unused where that component is zero).
  Vec2 inverse_translation_;
  // Concave polygons already cast in this query (see RecentShapes).
  mutable RecentShapes concave_done_;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_QUERY_CAST_H_
