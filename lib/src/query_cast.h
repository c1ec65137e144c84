// Internal: the narrow phase of a world cast, one primitive at a time, with
// the rank (query_common.h) each result competes with.
#ifndef COLLIDE_LIB_SRC_QUERY_CAST_H_
#define COLLIDE_LIB_SRC_QUERY_CAST_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include "cast_dispatch.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "query_common.h"
#include "swept_cells.h"
#include "toi_ray_fast.h"

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
    const double margin = kMarginShare * (scale + std::abs(cast.translation.x) +
                                          std::abs(cast.translation.y) + 1.0);
    inverse_translation_ = {1.0 / cast.translation.x, 1.0 / cast.translation.y};
    negative_x_ = std::signbit(inverse_translation_.x);
    negative_y_ = std::signbit(inverse_translation_.y);
    const Vec2 lower = start_.lower - Vec2{margin, margin};
    const Vec2 upper = start_.upper + Vec2{margin, margin};
    lead_ = {negative_x_ ? lower.x : upper.x, negative_y_ ? lower.y : upper.y};
    trail_ = {negative_x_ ? upper.x : lower.x, negative_y_ ? upper.y : lower.y};
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

  // Calls offer(const Candidate&) with the cast against every primitive
  // the swept bounds may reach, in the walk's order (swept_cells.h); a
  // primitive listed in several swept cells may be offered more than once,
  // always with the same answer, which the rank order absorbs. limit()
  // returns the fraction beyond which the caller needs nothing more.
  template <typename Limit, typename Offer>
  void Sweep(Limit&& limit, Offer&& offer) const {
    const int32_t* offsets = level_.spatial_hash().cell_offsets().data();
    const Level::CellEntry* entries = level_.cell_entries().data();
    SweptColumns walk(level_.spatial_hash().grid(), start_, cast_.translation,
                      options_.max_fraction);
    SweptColumn column;
    while (walk.Next(limit(), column)) {
      for (int32_t v = column.v0; v <= column.v1; ++v) {
        const int64_t cell = column.Cell(v);
        const int32_t end = offsets[cell + 1];
        for (int32_t k = offsets[cell]; k < end; ++k) {
          const double reach = limit();
          if (MayReach(entries[k], reach)) Test(entries[k], reach, offer);
        }
      }
    }
  }

 private:
  // Widening of the box test below: far beyond the narrow phase's touch
  // tolerance, so the cheap test can only let through, never drop, a hit.
  static constexpr double kMarginShare = 1e-9;

  // Whether the mover's start box, translated by t * translation for some t
  // in [0, limit], meets the entry's box widened by the margin (slab test):
  // a cheap rejection of most candidates a cell lists, from the entry alone.
  // Per axis, the box is entered when the mover's leading side reaches the
  // box's near side; which sides those are depends only on the sign of the
  // motion, fixed per query. A zero component has an infinite reciprocal:
  // the products are then +-inf (outside: rejected; inside: no constraint)
  // or NaN (exactly touching), which the max / min below ignore, as they
  // ignore any NaN, so the test stays conservative.
  bool MayReach(const Level::CellEntry& e, double limit) const {
    const double lower_x = std::min(e.a.x, e.b.x);
    const double upper_x = std::max(e.a.x, e.b.x);
    const double lower_y = std::min(e.a.y, e.b.y);
    const double upper_y = std::max(e.a.y, e.b.y);
    const double enter_x =
        (negative_x_ ? upper_x - lead_.x : lower_x - lead_.x) *
        inverse_translation_.x;
    const double leave_x =
        (negative_x_ ? lower_x - trail_.x : upper_x - trail_.x) *
        inverse_translation_.x;
    const double enter_y =
        (negative_y_ ? upper_y - lead_.y : lower_y - lead_.y) *
        inverse_translation_.y;
    const double leave_y =
        (negative_y_ ? lower_y - trail_.y : upper_y - trail_.y) *
        inverse_translation_.y;
    const double t0 = std::max(std::max(0.0, enter_x), enter_y);
    const double t1 = std::min(std::min(limit, leave_x), leave_y);
    return t0 <= t1;
  }

  // The per-shape cast against `target`, with the ray's closed forms
  // (toi_ray_fast.h) inlined here as the public CastRay does them, so the
  // answer is the same bits without a call per candidate.
  template <typename Target>
  std::optional<Hit> CastFast(const Target& target,
                              const CastOptions& options) const {
    if constexpr (std::is_same_v<Cast, RayInput> &&
                  !std::is_same_v<Target, Capsule>) {
      if (options.target_distance == 0.0) {
        std::optional<Hit> result;
        if (CastRayClear(cast_, target, options.max_fraction, result)) {
          return result;
        }
      }
    }
    return CastTo(cast_, target, options);
  }

  // The cast against the entry's primitive within `limit`, offered unless
  // it missed, is filtered out, or is a concave polygon answered already.
  // The filter is asked only of hits: it does not change any shape's
  // answer, and most candidates miss, so their shape record is never read.
  template <typename Offer>
  void Test(const Level::CellEntry& e, double limit, Offer&& offer) const {
    CastOptions options = options_;
    options.max_fraction = limit;
    std::optional<Hit> hit;
    int32_t part = 0;
    int32_t shape;
    switch (e.kind) {
      case Level::PrimitiveKind::kSegment:
        hit = CastFast(Segment{e.a, e.b}, options);
        if (!hit) return;
        shape = level_.primitive(e.primitive).shape;
        break;
      case Level::PrimitiveKind::kPolylineEdge: {
        hit = CastFast(Segment{e.a, e.b}, options);
        if (!hit) return;
        const Level::Primitive& p = level_.primitive(e.primitive);
        shape = p.shape;
        part = p.part;
        RenumberChainFeature(
            p.part,
            static_cast<int32_t>(level_.polyline(p.shape).vertices.size()),
            hit->feature);
        break;
      }
      case Level::PrimitiveKind::kConcaveEdge:
        // The whole polygon, once: its own rules rank its edges.
        shape = level_.primitive(e.primitive).shape;
        if (concave_done_.Seen(shape)) return;
        hit = CastFast(level_.concave_polygon(shape), options);
        break;
      case Level::PrimitiveKind::kCircle: {
        const Level::Primitive& p = level_.primitive(e.primitive);
        shape = p.shape;
        hit = CastFast(Circle{p.a, p.radius}, options);
        break;
      }
      case Level::PrimitiveKind::kCapsule: {
        const Level::Primitive& p = level_.primitive(e.primitive);
        shape = p.shape;
        hit = CastFast(Capsule{p.a, p.b, p.radius}, options);
        break;
      }
      case Level::PrimitiveKind::kConvexPolygon:
        shape = level_.primitive(e.primitive).shape;
        hit = CastFast(level_.convex_polygon(shape), options);
        break;
    }
    if (!hit || !Passes(level_, shape, filter_)) return;
    offer(Candidate{{hit->fraction, level_.id(shape), part}, *hit, shape});
  }

  const Level& level_;
  const Cast& cast_;
  const QueryFilter& filter_;
  CastOptions options_;
  // The point the concave casts test for containment (the mover core's
  // vertex 0), so StartsInside asks exactly what they ask.
  Vec2 reference_;
  Aabb start_;
  // 1 / translation per axis (+-inf where that component is zero), its
  // sign, and the start box widened by the margin: per axis, the side that
  // leads the motion and the side that trails it.
  Vec2 inverse_translation_;
  bool negative_x_ = false;
  bool negative_y_ = false;
  Vec2 lead_;
  Vec2 trail_;
  // Concave polygons already cast in this query (see RecentShapes).
  mutable RecentShapes concave_done_;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_QUERY_CAST_H_
