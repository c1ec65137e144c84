// Internal: the narrow phase of a world cast, one primitive at a time, with
// the rank (query_common.h) each result competes with.
#ifndef COLLIDE_LIB_SRC_WORLD_CASTER_H_
#define COLLIDE_LIB_SRC_WORLD_CASTER_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/double_pairs.h"
#include "exact/sign.h"
#include "pairs/cast_dispatch.h"
#include "pairs/cast_to.h"
#include "pairs/circle_closed_form.h"
#include "pairs/ray_closed_form.h"
#include "pairs/round_closed_form.h"
#include "sweep/axis_box.h"
#include "sweep/only_touches.h"
#include "sweep/out_of_reach.h"
#include "world/one_sided.h"
#include "world/query_common.h"
#include "world/swept_cells.h"

namespace collide::internal {

// A cast's answer for one shape. Its Rank needs the shape's id, read only
// when two answers tie on the fraction (or for a list): most hits are
// compared by fraction alone, and the id is one more scattered read.
struct Candidate {
  Hit hit;
  int32_t shape = 0;
  int32_t part = 0;

  Rank RankIn(const Level& level) const {
    return {hit.fraction, level.id(shape), part,
            hit.status == HitStatus::kInitialOverlap};
  }
};

// Whether a hit on segment `part` of a polyline is the mover sliding along
// a neighbouring segment past their shared vertex onto a convex bend (or a
// collinear continuation): a polyline is one surface, so that is no more a
// hit than sliding off a polygon's edge onto the next (toi.h). Only a kHit
// at a vertex shared with a segment that the motion runs exactly parallel
// to (so the contact at the vertex is a tangent), that the mover touches at
// the start, and whose line does not have `part`'s far end strictly on the
// mover's side (a concave bend rises into the slide: that is a hit). Rare:
// asked only of a polyline's vertex hits.
template <typename Cast>
ABSL_ATTRIBUTE_NOINLINE bool SlidesOntoBend(const Cast& cast,
                                            const PolylineDesc& polyline,
                                            int32_t part, const Hit& hit) {
  if (hit.status != HitStatus::kHit ||
      hit.feature.type != FeatureType::kVertex) {
    return false;
  }
  const absl::Span<const Vec2> v = polyline.vertices;
  const int32_t n = static_cast<int32_t>(v.size());
  const int32_t segments = polyline.closed ? n : n - 1;
  if (segments < 2) return false;
  const int32_t at = hit.feature.index;
  // The neighbour sharing vertex `at`, its far end, and part's far end.
  int32_t neighbour_far;
  int32_t part_far;
  if (at == part) {
    if (part == 0 && !polyline.closed) return false;
    neighbour_far = (at - 1 + n) % n;
    part_far = (part + 1) % n;
  } else {
    if (part + 1 >= segments && !polyline.closed) return false;
    neighbour_far = (at + 1) % n;
    part_far = part;
  }
  const Vec2 shared = v[at];
  const Vec2 far = v[neighbour_far];
  if (far == shared || CrossSign(shared, far, Vec2{}, cast.translation) != 0) {
    return false;
  }
  const std::optional<Hit> start =
      CastTo(cast, Segment{shared, far},
             CastOptions{.max_fraction = 0.0, .stop_at_penetration = true});
  if (!start || start->status != HitStatus::kInitialOverlap) return false;
  // The mover's side of the neighbour's line, from the start contact's
  // normal (along that line's normal, away from it: its sign is certain).
  const double side = Cross(far - shared, start->normal);
  if (side == 0.0) return false;
  return (side > 0.0 ? 1 : -1) * Orient(shared, far, v[part_far]) <= 0;
}

// Whether a ranks before b (Rank order), reading ids only on a tie.
inline bool RanksBefore(const Level& level, const Candidate& a,
                        const Candidate& b) {
  if (a.hit.fraction != b.hit.fraction) return a.hit.fraction < b.hit.fraction;
  return a.RankIn(level) < b.RankIn(level);
}

// The swept-box rejection test of one cast: whether the mover's start box
// (widened by a margin), translated by t * translation for some t in [0,
// limit], meets a cell entry's box (slab test). Per axis the boxes overlap
// between the times the mover's upper side passes the entry's lower one
// and its lower side the entry's upper one, in whichever order the
// motion's sign puts them: the earlier is when the overlap starts, the
// later when it ends. Taken for both axes at once (exact/double_pairs.h), the
// test has no select on the motion's sign (GCC compiled those to branches,
// which the walk's entries mispredicted) and no branch at all.
//
// A zero component has an infinite reciprocal: the products are then
// +-inf (outside: rejected; inside: no constraint) or NaN, for an entry
// side exactly at the widened mover's, which is a margin beyond the true
// mover on an axis it does not move along: such an entry is never met, so
// whatever the min / max make of the NaN is right. A small value type, so
// that the walk's loop can keep it in registers.
struct SweptSlab {
  Lanes inverse;  // 1 / translation per axis
  Lanes lower;    // the widened start box
  Lanes upper;

  // Also gives `enter`, the time the widened box first meets the entry's:
  // no contact with the entry's primitive comes before it.
  bool Reaches(const Level::CellEntry& e, double limit, double& enter) const {
    const Lanes a = (Lanes{e.lower_x, e.lower_y} - upper) * inverse;
    const Lanes b = (Lanes{e.upper_x, e.upper_y} - lower) * inverse;
    // std::max(0.0, ...): a box overlapping at the start is entered at 0.
    const double t0 = LaneLargest(LaneMax(Lanes{0.0, 0.0}, LaneMin(a, b)));
    const double t1 = std::min(limit, LaneSmallest(LaneMax(a, b)));
    enter = t0;
    return t0 <= t1;
  }
};

// The last kSize primitives a world cast lets through its box test, so
// that one listed in several of the cells it walks is cast once (S2 C20: a
// third of the casts were repeats). A repeat would give the same answer, or
// none once a nearer hit has narrowed the reach, so skipping it changes
// nothing; one met again after kSize others is cast again, as before.
// Every slot is compared at once (GCC / Clang vector extension: SSE2 on
// x86-64), without a branch per slot: a loop over the slots met so far cost
// about 3 mispredicted branches per S2 C20 query.
class MetPrimitives {
 public:
  // True if `primitive` was met already; otherwise remembers it.
  bool Seen(int32_t primitive) {
    Quad low, high;
    std::memcpy(&low, slots_, sizeof low);
    std::memcpy(&high, slots_ + 4, sizeof high);
    const Halves match =
        std::bit_cast<Halves>((low == primitive) | (high == primitive));
    if ((match.low | match.high) != 0) return true;
    slots_[next_++ % kSize] = primitive;
    return false;
  }

 private:
  using Quad = int32_t __attribute__((vector_size(16)));
  struct Halves {
    uint64_t low, high;
  };
  static constexpr uint32_t kSize = 8;
  // -1: no primitive.
  int32_t slots_[kSize] = {-1, -1, -1, -1, -1, -1, -1, -1};
  uint32_t next_ = 0;
};

// The candidates of a world cast that passed the swept box test, waiting
// for their cast in the order the swept box reaches them (see
// Caster::Sweep). A few at most: sorted by insertion, latest first, so the
// earliest is popped from the back.
class PendingCandidates {
 public:
  struct Candidate {
    double enter;  // SweptSlab::Reaches's bound on its contact time
    int32_t primitive;
  };
  static constexpr int kCapacity = 8;

  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == kCapacity; }
  // The earliest candidate's bound; only when not empty.
  double earliest() const { return items_[size_ - 1].enter; }
  Candidate PopEarliest() { return items_[--size_]; }
  void Clear() { size_ = 0; }

  // Only when not full.
  void Push(double enter, int32_t primitive) {
    int at = size_;
    while (at > 0 && items_[at - 1].enter < enter) {
      items_[at] = items_[at - 1];
      --at;
    }
    items_[at] = {enter, primitive};
    ++size_;
  }

 private:
  Candidate items_[kCapacity];
  int size_ = 0;
};

// A polygon of Level::convex_edge_blocks() as a ConvexView
// (pairs/ray_closed_form.h).
struct PackedConvexView {
  const Level::ConvexEdgeBlock* blocks;
  int vertex_count;

  int count() const { return vertex_count; }
  Vec2 vertex(int i) const { return blocks[i >> 2].edges[i & 3].vertex; }
  Vec2 normal(int i) const { return blocks[i >> 2].edges[i & 3].normal; }
};

// kEnteringOnly: offer only contacts the mover would go into, not those
// with a shape it passes beside (PassesBeside: sliding along it, grazing
// its corner), for move validation. A template parameter, so that the
// other queries carry no trace of it.
template <typename Cast, bool kEnteringOnly = false>
class Caster {
 public:
  // `removed`: null, or for the base of a patched level its removed shapes
  // (see Removed in query_common.h).
  Caster(const Level& level, const uint64_t* removed, const Cast& cast,
         const QueryFilter& filter, const CastOptions& options)
      : level_(level),
        removed_(removed),
        cast_(cast),
        filter_(filter),
        options_(options),
        start_(StartBounds()),
        band_(MoverBand(cast, options)),
        filter_passes_all_(removed == nullptr && filter.ignore_ids.empty() &&
                           level.EveryShapePasses(filter.mask_bits,
                                                  filter.category_bits,
                                                  filter.group)) {
    const double scale =
        std::max(std::max(std::abs(start_.lower.x), std::abs(start_.lower.y)),
                 std::max(std::abs(start_.upper.x), std::abs(start_.upper.y)));
    const double margin = kMarginShare * (scale + std::abs(cast.translation.x) +
                                          std::abs(cast.translation.y) + 1.0);
    slab_.inverse = Lanes{1.0 / cast.translation.x, 1.0 / cast.translation.y};
    slab_.lower = LanesOf(start_.lower) - Lanes{margin, margin};
    slab_.upper = LanesOf(start_.upper) + Lanes{margin, margin};
  }

  // The stadium the mover and its skin sweep; none for a ray, whose
  // per-shape casts cost little more than the band's test.
  static MotionBand MoverBand(const Cast& cast, const CastOptions& options) {
    if constexpr (std::is_same_v<Cast, RayInput>) {
      return {};
    } else {
      const Disc disc = BoundingDisc(Shape(cast));
      return {disc.center, disc.radius + options.target_distance,
              cast.translation};
    }
  }

  // The swept region: the mover's bounds grown by the skin.
  Aabb StartBounds() const {
    Aabb box = BoundsOf(Shape(cast_));
    const Vec2 skin{options_.target_distance, options_.target_distance};
    return {box.lower - skin, box.upper + skin};
  }

  // Every concave polygon holding the mover's reference point, whose edges
  // the sweep may never reach: its answer is the whole-polygon cast. The
  // reference point is the mover core's vertex 0, the point the concave
  // casts test for containment, so this asks exactly what they ask.
  template <typename Offer>
  void StartsInside(Offer&& offer) const {
    if (level_.solids().item_count() == 0) return;  // no concave polygons
    const Vec2 reference = MoverCore(cast_).vertex(0);
    level_.solids().VisitBox(Aabb{reference, reference}, [&](int32_t item) {
      const int32_t shape = level_.solid_shape(item);
      if (!Passes(level_, shape, filter_, removed_)) return true;
      const ConcavePolygon polygon = level_.concave_polygon(shape);
      if (!ContainsPoint(polygon, reference)) return true;
      concave_done_.Seen(shape);
      std::optional<Hit> hit = CastTo(cast_, polygon, options_);
      if (hit &&
          !(kEnteringOnly && hit->status == HitStatus::kHit &&
            PassesBeside(MoverCore(cast_), cast_.translation, polygon))) {
        offer(Candidate{*hit, shape, 0});
      }
      return true;
    });
  }

  // Calls offer(const Candidate&) with the cast against every primitive
  // the swept bounds may reach; a primitive listed in several swept cells
  // may be offered more than once, always with the same answer, which the
  // rank order absorbs. limit() returns the fraction beyond which the
  // caller needs nothing more.
  //
  // A ray casts each candidate that passes the swept box test as the walk
  // meets it: its casts cost little more than the test. A round or polygon
  // mover's cast costs hundreds of instructions, and neither the order of a
  // column's cells nor a column before the next is the order of contacts:
  // a cast whose hit a nearer one beats later was wasted, as was a repeat
  // of a primitive listed in several cells (S2 C20: 1.7 hits per query, a
  // third of the casts repeats). So its candidates are met once each
  // (MetPrimitives) and wait (PendingCandidates) to be cast earliest box
  // contact first, each once no later column can be entered before it; the
  // first hit then often puts the rest beyond the reach. Any order gives
  // the same answer.
  template <typename Limit, typename Offer>
  void Sweep(Limit&& limit, Offer&& offer) const {
    double reach = limit();
    if constexpr (std::is_same_v<Cast, RayInput>) {
      Walk(
          reach,
          [&](const Level::CellEntry& e, double) {
            Test(e.primitive, reach, offer);
            reach = limit();
          },
          [](const SweptColumns&) {});
    } else {
      MetPrimitives met;
      PendingCandidates pending;
      Walk(
          reach,
          [&](const Level::CellEntry& e, double enter) {
            if (met.Seen(e.primitive)) return;
            if (pending.full()) {
              reach = Drain(pending, pending.earliest(), reach, limit, offer);
            }
            // Its cast reads the primitive's record, a scattered line: on
            // levels larger than the cache, start loading it now, while the
            // walk goes on (S2 C20: 1.4 misses per query).
            __builtin_prefetch(&level_.primitive(e.primitive));
            pending.Push(enter, e.primitive);
          },
          [&](const SweptColumns& walk) {
            if (pending.empty()) return;
            reach = Drain(pending, walk.NextEnter(), reach, limit, offer);
          });
      // None is left that the reach takes in: after the last column, the
      // walk's next entry is +infinity; when the walk stops before a column
      // entered after the reach, every candidate left comes later still.
    }
  }

 private:
  // Calls on_entry(entry, enter) for every cell entry of the cells the
  // swept bounds cross, column by column (swept_cells.h), that passes the
  // swept box test within `reach` (enter: SweptSlab::Reaches's bound), and
  // after_column(walk) after each column. The callbacks may narrow `reach`.
  template <typename OnEntry, typename AfterColumn>
  void Walk(double& reach, OnEntry&& on_entry,
            AfterColumn&& after_column) const {
    const Level::CellEntry* entries = level_.cell_entries().data();
    const SweptSlab slab = slab_;
    for (const SpatialHash::Tier& tier : level_.spatial_hash().tiers()) {
      const int32_t* offsets = tier.offsets.data();
      SweptColumns walk(
          tier.grid, tier.inverse_cell_size, start_, cast_.translation,
          Vec2{slab.inverse[0], slab.inverse[1]}, options_.max_fraction);
      SweptColumn column;
      while (walk.Next(reach, column)) {
        // A column's cells lie a grid row apart, and its candidates are
        // tested cell by cell: on levels larger than the cache, start
        // loading every cell's candidates now, all at once, rather than
        // each after the previous cell's tests.
        for (int32_t v = column.v0; v <= column.v1; ++v) {
          __builtin_prefetch(entries + offsets[column.Cell(v)]);
        }
        for (int32_t v = column.v0; v <= column.v1; ++v) {
          const int64_t cell = column.Cell(v);
          const int32_t end = offsets[cell + 1];
          for (int32_t k = offsets[cell]; k < end; ++k) {
            double enter;
            if (!slab.Reaches(entries[k], reach, enter)) continue;
            on_entry(entries[k], enter);
          }
        }
        after_column(walk);
      }
    }
  }

  // Widening of the box test below: far beyond the narrow phase's touch
  // tolerance, so the cheap test can only let through, never drop, a hit.
  static constexpr double kMarginShare = 1e-9;

  // The per-shape cast against `target`, with the ray's closed forms
  // (pairs/ray_closed_form.h) inlined here as the public CastRay does them, so
  // the answer is the same bits without a call per candidate. The general
  // machinery gets the query's own max_fraction, not the best so far: it
  // decides exactly whether a contact comes by then, which must not depend
  // on the order the walk meets the shapes in (the walk ranks its answer).
  // The closed forms take both.
  template <typename Target>
  std::optional<Hit> CastFast(const Target& target,
                              const CastOptions& options) const {
    const auto general = [&] { return CastTo(cast_, target, options_); };
    if constexpr (std::is_same_v<Cast, RayInput> &&
                  !std::is_same_v<Target, Capsule>) {
      if (options.target_distance == 0.0) {
        return CastRayClear(cast_, target, options.max_fraction,
                            options_.max_fraction, general);
      }
    }
    if constexpr (std::is_same_v<Cast, RayInput> &&
                  std::is_same_v<Target, Capsule>) {
      if (options.target_distance == 0.0) {
        return CastPointClearCapsule(
            cast_.origin, cast_.translation, target.p1, target.p2,
            Grow::Of(0.0, target.radius, 0.0), target.radius,
            options_.max_fraction, general);
      }
    }
    if constexpr (std::is_same_v<Cast, CapsuleCast> &&
                  std::is_same_v<Target, Circle>) {
      if (options.target_distance == 0.0) {
        return CastCapsuleClearRound(cast_, target.center, target.radius,
                                     {FeatureType::kSurface, 0},
                                     options_.max_fraction, general);
      }
    }
    if constexpr (std::is_same_v<Cast, CircleCast> &&
                  std::is_same_v<Target, Circle>) {
      if (options.target_distance == 0.0) {
        return CastPointClearCircle(
            cast_.circle.center, cast_.translation, target.center,
            Grow::Of(cast_.circle.radius, target.radius, 0.0), target.radius,
            {FeatureType::kSurface, 0}, options_.max_fraction, general);
      }
    }
    if constexpr (std::is_same_v<Cast, CircleCast> &&
                  (std::is_same_v<Target, Segment> ||
                   std::is_same_v<Target, Capsule>)) {
      if (options.target_distance == 0.0) {
        const Capsule capsule = AsCapsule(target);
        return CastPointClearCapsule(
            cast_.circle.center, cast_.translation, capsule.p1, capsule.p2,
            Grow::Of(cast_.circle.radius, capsule.radius, 0.0), capsule.radius,
            options_.max_fraction, general);
      }
    }
    return general();
  }

  // The cast against a convex polygon primitive: a skinless ray's or
  // circle's closed form (pairs/ray_closed_form.h, pairs/circle_closed_form.h)
  // on the primitive's own bounds for an axis-aligned box, or on the level's
  // packed copy (the same arithmetic on the same values as the public
  // casts, so the same bits); any other cast on the ConvexPolygon, rebuilt from
  // the bounds for a box (the same values: on levels larger than the cache the
  // polygon record's three lines cost more than the cast).
  std::optional<Hit> CastConvex(const Level::Primitive& p,
                                const CastOptions& options) const {
    const auto general = [&] {
      return CastTo(cast_, level_.convex_polygons()[p.polygon], options_);
    };
    if constexpr (std::is_same_v<Cast, RayInput>) {
      if (options.target_distance == 0.0) {
        if (p.box_start >= 0) {
          return CastRayClearBox(cast_, AxisBoxView{p.a, p.b, p.box_start},
                                 options.max_fraction, options_.max_fraction,
                                 general);
        }
        return CastRayClearConvex(
            cast_,
            PackedConvexView{level_.convex_edge_blocks().data() + p.edge_block,
                             p.vertex_count},
            options.max_fraction, options_.max_fraction, general);
      }
    }
    if constexpr (std::is_same_v<Cast, CircleCast>) {
      if (options.target_distance == 0.0) {
        if (p.box_start >= 0) {
          const AxisBoxView box{p.a, p.b, p.box_start};
          return CastCircleClearConvex(
              cast_, box, options.max_fraction, options_.max_fraction,
              [&] { return CastTo(cast_, ToConvexPolygon(box), options_); });
        }
        return CastCircleClearConvex(
            cast_,
            PackedConvexView{level_.convex_edge_blocks().data() + p.edge_block,
                             p.vertex_count},
            options.max_fraction, options_.max_fraction, general);
      }
    }
    if (p.box_start >= 0) {
      return CastTo(cast_, ToConvexPolygon(AxisBoxView{p.a, p.b, p.box_start}),
                    options_);
    }
    return general();
  }

  // Casts, earliest first, against pending's candidates whose bound is no
  // later than `until`, and returns the reach left (limit() after the last
  // cast). Once a bound is after the reach, which each cast's offer may
  // bring nearer, no candidate left can be hit by then: pending is cleared.
  // Out of line, and the one place the casts are inlined into, so that the
  // walk's loop keeps its registers.
  template <typename Limit, typename Offer>
  ABSL_ATTRIBUTE_NOINLINE double Drain(PendingCandidates& pending, double until,
                                       double reach, Limit&& limit,
                                       Offer&& offer) const {
    while (!pending.empty() && pending.earliest() <= until) {
      const PendingCandidates::Candidate c = pending.PopEarliest();
      if (c.enter > reach) {
        pending.Clear();
        break;
      }
      Test(c.primitive, reach, offer);
      reach = limit();
    }
    return reach;
  }

  // The cast against the primitive within `limit`, offered unless
  // it missed, is filtered out, or is a concave polygon answered already.
  // The filter is asked only of hits (it does not change any shape's
  // answer, and most candidates miss), and not at all when it passes every
  // shape, so the shape records are read only for the winner.
  // Always inlined: in Drain, the one place a round or polygon mover's
  // casts are made, that takes fewer instructions than a call per cast.
  template <typename Offer>
  ABSL_ATTRIBUTE_ALWAYS_INLINE void Test(int32_t primitive, double limit,
                                         Offer&& offer) const {
    const Level::Primitive& p = level_.primitive(primitive);
    if constexpr (!std::is_same_v<Cast, RayInput>) {
      if (BandMisses(p, limit)) return;
    }
    CastOptions options = options_;
    options.max_fraction = limit;
    std::optional<Hit> hit;
    int32_t part = 0;
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
        if (p.one_sided && !MovesIntoFront(p.a, p.b, cast_.translation)) {
          return;
        }
        hit = CastFast(Segment{p.a, p.b}, options);
        break;
      case Level::PrimitiveKind::kCircle:
        hit = CastFast(Circle{p.a, p.radius}, options);
        break;
      case Level::PrimitiveKind::kCapsule:
        hit = CastFast(Capsule{p.a, p.b, p.radius}, options);
        break;
      case Level::PrimitiveKind::kConvexPolygon:
        hit = CastConvex(p, options);
        break;
      case Level::PrimitiveKind::kPolylineEdge:
        if (p.one_sided && !MovesIntoFront(p.a, p.b, cast_.translation)) {
          return;
        }
        hit = CastFast(Segment{p.a, p.b}, options);
        part = p.part;
        if (hit) {
          const PolylineDesc polyline = level_.polyline(p.shape);
          RenumberChainFeature(p.part,
                               static_cast<int32_t>(polyline.vertices.size()),
                               hit->feature);
          if (hit->feature.type == FeatureType::kVertex &&
              SlidesOntoBend(cast_, polyline, p.part, *hit)) {
            return;
          }
        }
        break;
      case Level::PrimitiveKind::kConcaveEdge:
        // The whole polygon, once: its own rules rank its edges.
        if (concave_done_.Seen(p.shape)) return;
        hit = CastFast(level_.concave_polygon(p.shape), options);
        break;
    }
    if (!hit ||
        !(filter_passes_all_ || Passes(level_, p.shape, filter_, removed_))) {
      return;
    }
    if (p.one_sided && hit->status == HitStatus::kInitialOverlap &&
        !OneSidedStartStands(cast_, p.a, p.b, options_)) {
      return;
    }
    if constexpr (kEnteringOnly) {
      if (hit->status == HitStatus::kHit && PassedBeside(p)) return;
    }
    offer(Candidate{*hit, p.shape, part});
  }

  // Whether the mover passes beside primitive p (PassesBeside; for a
  // concave polygon's edge, the whole solid it stands for).
  bool PassedBeside(const Level::Primitive& p) const {
    const Core mover = MoverCore(cast_);
    const Vec2 d = cast_.translation;
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
      case Level::PrimitiveKind::kPolylineEdge:
        return PassesBeside(mover, d,
                            Core(p.a, p.b, 0.0, FeatureMap::kSegment));
      case Level::PrimitiveKind::kCircle:
        return PassesBeside(mover, d, Core(p.a, p.radius, FeatureMap::kCircle));
      case Level::PrimitiveKind::kCapsule:
        return PassesBeside(mover, d,
                            Core(p.a, p.b, p.radius, FeatureMap::kSegment));
      case Level::PrimitiveKind::kConvexPolygon:
        if (p.box_start >= 0) {
          const ConvexPolygon box =
              ToConvexPolygon(AxisBoxView{p.a, p.b, p.box_start});
          return PassesBeside(mover, d, Core(box, 0.0));
        }
        return PassesBeside(mover, d,
                            Core(level_.convex_polygons()[p.polygon], 0.0));
      case Level::PrimitiveKind::kConcaveEdge:
        return PassesBeside(mover, d, level_.concave_polygon(p.shape));
    }
    return false;
  }

  // Whether the mover's stadium (band_) misses the primitive, so its cast
  // need not run. Not asked of convex polygons (their swept box test was
  // about as tight), nor of a concave polygon's edge, whose entry stands
  // for the whole polygon.
  bool BandMisses(const Level::Primitive& p, double limit) const {
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
      case Level::PrimitiveKind::kPolylineEdge:
        return band_.MissesSegment(p.a, p.b, 0.0, limit);
      case Level::PrimitiveKind::kCircle:
        return band_.MissesSegment(p.a, p.a, p.radius, limit);
      case Level::PrimitiveKind::kCapsule:
        return band_.MissesSegment(p.a, p.b, p.radius, limit);
      case Level::PrimitiveKind::kConvexPolygon:
      case Level::PrimitiveKind::kConcaveEdge:
        break;
    }
    return false;
  }

  const Level& level_;
  const uint64_t* removed_;
  const Cast& cast_;
  const QueryFilter& filter_;
  CastOptions options_;
  Aabb start_;
  MotionBand band_;
  // Whether every shape passes filter_ and none is removed, so hits need
  // not read their shape.
  bool filter_passes_all_;
  SweptSlab slab_;
  // Concave polygons already cast in this query (see RecentShapes).
  mutable RecentShapes concave_done_;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_CASTER_H_
