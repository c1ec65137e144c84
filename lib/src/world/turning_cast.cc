// World casts of turning shapes (collide/turning_query.h): the spatial
// hash walked over the swept box of the disc that holds every pose, each
// candidate primitive answered by the certified pair cast of turning.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <type_traits>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/turning.h"
#include "collide/turning_query.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "world/query_common.h"
#include "world/swing_sector.h"

namespace collide {
namespace {

using internal::Rank;

template <typename T>
Turning<T> Still(const T& shape) {
  return {shape, Vec2{}, 0.0, Vec2{}};
}

// The farthest any point of the mover lies from its pivot.
double Reach(const Turning<Circle>& m) {
  return Length(m.shape.center - m.pivot) + m.shape.radius;
}
double Reach(const Turning<Capsule>& m) {
  return std::max(Length(m.shape.p1 - m.pivot), Length(m.shape.p2 - m.pivot)) +
         m.shape.radius;
}
double Reach(const Turning<ConvexPolygon>& m) {
  double reach = 0.0;
  for (int i = 0; i < m.shape.count; ++i) {
    reach = std::max(reach, Length(m.shape.vertices[i] - m.pivot));
  }
  return reach;
}

// The box of the disc about the pivot that holds the mover in every pose.
// Rotation keeps distances to the pivot, so the exact poses lie within the
// exact reach; the margin covers the rounding of the reach and of the box
// (a few ulps of the coordinates' magnitude) many times over.
template <typename Shape>
Aabb PoseDiscBox(const Turning<Shape>& mover) {
  const double reach = Reach(mover);
  const double scale = reach + std::abs(mover.pivot.x) +
                       std::abs(mover.pivot.y) + std::abs(mover.translation.x) +
                       std::abs(mover.translation.y);
  const double r = reach + 0x1p-40 * scale + 0x1p-1000;
  return {mover.pivot - Vec2{r, r}, mover.pivot + Vec2{r, r}};
}

// The disc's box translating by t * translation, t in [0, limit]: whether it
// meets `box`, by the overlap interval per axis. No pose of the mover
// touches a primitive whose box this misses, so such a primitive is not
// cast; the rounding of the division is far inside PoseDiscBox's margin.
struct SweptDiscBox {
  Aabb start;
  Vec2 translation;

  bool Meets(const Aabb& box, double limit) const {
    double enter = 0.0;
    double leave = limit;
    const double lower[2] = {start.lower.x, start.lower.y};
    const double upper[2] = {start.upper.x, start.upper.y};
    const double box_lower[2] = {box.lower.x, box.lower.y};
    const double box_upper[2] = {box.upper.x, box.upper.y};
    const double d[2] = {translation.x, translation.y};
    for (int axis = 0; axis < 2; ++axis) {
      if (d[axis] == 0.0) {
        if (upper[axis] < box_lower[axis] || lower[axis] > box_upper[axis]) {
          return false;
        }
        continue;
      }
      const double a = (box_lower[axis] - upper[axis]) / d[axis];
      const double b = (box_upper[axis] - lower[axis]) / d[axis];
      enter = std::max(enter, std::min(a, b));
      leave = std::min(leave, std::max(a, b));
    }
    return enter <= leave;
  }
};

double PointBoxDistance(Vec2 p, const Aabb& box) {
  const double dx = std::max({box.lower.x - p.x, 0.0, p.x - box.upper.x});
  const double dy = std::max({box.lower.y - p.y, 0.0, p.y - box.upper.y});
  return std::sqrt(dx * dx + dy * dy);
}

double PointSegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double length2 = Dot(d, d);
  double t = length2 > 0.0 ? Dot(p - a, d) / length2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return Length(p - (a + t * d));
}

// The distance from the segment [a, b] to `box`: 0 when they meet, else the
// least of the ends' distances to the box and the corners' distances to
// the segment (two disjoint convex sets are nearest at a vertex of one).
double SegmentBoxDistance(Vec2 a, Vec2 b, const Aabb& box) {
  if (SweptDiscBox{{a, a}, b - a}.Meets(box, 1.0)) return 0.0;
  double d = std::min(PointBoxDistance(a, box), PointBoxDistance(b, box));
  const Vec2 corners[4] = {box.lower,
                           {box.upper.x, box.lower.y},
                           box.upper,
                           {box.lower.x, box.upper.y}};
  for (const Vec2 c : corners) d = std::min(d, PointSegmentDistance(c, a, b));
  return d;
}

// The bounds of a primitive (a convex polygon's a, b are its bounds).
Aabb PrimitiveBounds(const Level::Primitive& p) {
  const Vec2 r{p.radius, p.radius};
  const Vec2 lower{std::min(p.a.x, p.b.x), std::min(p.a.y, p.b.y)};
  const Vec2 upper{std::max(p.a.x, p.b.x), std::max(p.a.y, p.b.y)};
  switch (p.kind) {
    case Level::PrimitiveKind::kCircle:
      return {p.a - r, p.a + r};
    case Level::PrimitiveKind::kCapsule:
      return {lower - r, upper + r};
    case Level::PrimitiveKind::kConvexPolygon:
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
    case Level::PrimitiveKind::kConcaveEdge:
      break;
  }
  return {lower, upper};
}

template <typename Shape>
TurnResult CastPrimitive(const Turning<Shape>& mover, const Level& level,
                         const Level::Primitive& p,
                         const TurnOptions& options) {
  switch (p.kind) {
    case Level::PrimitiveKind::kCircle:
      return CastTurning(mover, Still(Circle{p.a, p.radius}), options);
    case Level::PrimitiveKind::kCapsule:
      return CastTurning(mover, Still(Capsule{p.a, p.b, p.radius}), options);
    case Level::PrimitiveKind::kConvexPolygon:
      return CastTurning(mover, Still(level.convex_polygons()[p.polygon]),
                         options);
    case Level::PrimitiveKind::kSegment:
    case Level::PrimitiveKind::kPolylineEdge:
    case Level::PrimitiveKind::kConcaveEdge:
      break;
  }
  return CastTurning(mover, Still(Segment{p.a, p.b}), options);
}

// Whether `point` lies on an edge of `polygon` (exact).
bool OnBoundary(const ConcavePolygon& polygon, Vec2 point) {
  const absl::Span<const Vec2> v = polygon.vertices;
  for (size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i];
    const Vec2 b = v[(i + 1) % v.size()];
    if (internal::Orient(a, b, point) != 0) continue;
    if (point.x >= std::min(a.x, b.x) && point.x <= std::max(a.x, b.x) &&
        point.y >= std::min(a.y, b.y) && point.y <= std::max(a.y, b.y)) {
      return true;
    }
  }
  return false;
}

// A concave polygon's answer for a mover whose start reference point it
// holds: strictly inside, the solid mover overlaps it at fraction 0; on
// its boundary, whether the mover's body goes inside is not decided here,
// and the answer is kNearContact at 0 (never a miss).
TurnResult ContainedStart(const ConcavePolygon& polygon, Vec2 reference) {
  TurnResult r;
  r.status = OnBoundary(polygon, reference) ? TurnStatus::kNearContact
                                            : TurnStatus::kInitialOverlap;
  r.point = reference;
  return r;
}

struct TurnCandidate {
  TurnResult result;
  int32_t shape = 0;
  int32_t part = 0;
};

Rank RankOf(const TurnResult& r, uint64_t id, int32_t part) {
  return {r.fraction_lo, id, part, r.status == TurnStatus::kInitialOverlap};
}

// Where a walk may stop once `result` is the best (or the last kept) answer:
// a shape first reachable after this has its contact, and so its bracket's
// low end, after the result's fraction_lo.
double ReachAfter(const TurnResult& result, double max_fraction) {
  return std::min(max_fraction, result.fraction_hi + 2 * kTurnBracketWidth);
}

// The stages of a swinging blade's casts (CastLayer): the largest turn of
// one, the most stages, and the most primitives waiting for a later stage.
inline constexpr double kSwingStageTurn = 0.5 * std::numbers::pi;
inline constexpr int32_t kMaxSwingStages = 4;
inline constexpr int32_t kMaxWaiting = 64;

// Visits the answers of one layer (a level's own shapes, or its base's
// less those `removed`): offer(candidate) for each primitive met, then for
// each concave polygon holding the start reference point; reach() bounds
// the walk.
template <typename Shape, typename Offer, typename ReachFn>
void CastLayer(const Turning<Shape>& mover, const Level& level,
               const uint64_t* removed, const QueryFilter& filter,
               const TurnOptions& options, Offer&& offer, ReachFn&& reach) {
  const Vec2 reference = internal::ReferencePoint(mover.shape);
  level.solids().VisitBox(internal::BoundsOf(mover.shape), [&](int32_t item) {
    const int32_t shape = level.solid_shape(item);
    if (!internal::Passes(level, shape, filter, removed)) return true;
    const ConcavePolygon polygon = level.concave_polygon(shape);
    if (ContainsPoint(polygon, reference)) {
      offer(TurnCandidate{ContainedStart(polygon, reference), shape, -1});
    }
    return true;
  });
  const Aabb disc_box = PoseDiscBox(mover);
  const SweptDiscBox swept{disc_box, mover.translation};
  // Every pose lies within the disc of radius disc_radius about the pivot
  // at its place then: a primitive's box farther than that from the
  // pivot's path up to the reach is not met (a relative slack covers the
  // rounding of the distance, a few ulps of the coordinates).
  const double disc_radius = 0.5 * (disc_box.upper.x - disc_box.lower.x);
  const auto near_path = [&](const Aabb& box, double limit) {
    const double d = SegmentBoxDistance(
        mover.pivot, mover.pivot + limit * mover.translation, box);
    return d <= disc_radius * (1.0 + 0x1p-30);
  };
  // The pair cast of a primitive that passes the filter, stopped at
  // `limit`.
  std::optional<internal::SwingSector> sector;
  if constexpr (std::is_same_v<Shape, Capsule>) {
    sector = internal::SwingSector::For(mover);
  }
  const auto cast = [&](const Level::Primitive& p, double limit) {
    // The pair cast stops at the reach. Its advancement does not depend
    // on where the step ends until it gets there, so a candidate whose
    // bracket starts more than a bracket width before the reach (every one
    // that can still rank first) gets the answer the whole step gives; a
    // later one ranks after the kept answers either way, and may end as a
    // miss without advancing that far. So neither the order of the casts
    // nor the reach each one gets changes the answer.
    const TurnResult r =
        CastPrimitive(mover, level, p, TurnOptions{.max_fraction = limit});
    if (r.status != TurnStatus::kMiss) {
      offer(TurnCandidate{r, p.shape, p.part});
    }
  };
  // Any other motion: each primitive the pose disc meets, in the walk's
  // order (the time the disc's box reaches its cell).
  if (!sector) {
    level.spatial_hash().VisitSweep(
        disc_box, mover.translation, options.max_fraction, [&](int32_t item) {
          const Level::Primitive& p = level.primitive(item);
          const Aabb bounds = PrimitiveBounds(p);
          const double limit = reach();
          if (swept.Meets(bounds, limit) && near_path(bounds, limit) &&
              internal::Passes(level, p.shape, filter, removed)) {
            cast(p, limit);
          }
          return reach();
        });
    return;
  }
  // A blade swinging in place reaches only a sector of the disc, and has no
  // direction to walk the cells in, so the casts are ordered by turn
  // instead: the turn is cut into stages of at most kSwingStageTurn
  // radians, and a primitive that the sector up to the first stage's end
  // certainly misses waits (in a fixed buffer) for the first stage whose
  // sector may meet it. Once the reach is below a stage's end, every
  // primitive still waiting is disjoint from the mover up to the reach and
  // cannot rank first. A full buffer casts at once.
  const auto meets = [&](const Aabb& bounds, double limit) {
    return swept.Meets(bounds, limit) && near_path(bounds, limit) &&
           !sector->Misses(bounds, limit);
  };
  const double turn = std::fabs(mover.angle) * options.max_fraction;
  const int32_t stages = static_cast<int32_t>(std::fmax(
      1.0, std::fmin(kMaxSwingStages, std::ceil(turn / kSwingStageTurn))));
  // The sector up to the end of stage k < stages - 1, made on first use.
  std::optional<internal::SwingSector> stage_sectors[kMaxSwingStages - 1];
  const auto stage_end = [&](int32_t k) {
    return options.max_fraction * (k + 1) / stages;
  };
  const auto stage_misses = [&](int32_t k, const Aabb& bounds) {
    if (!stage_sectors[k]) stage_sectors[k] = *sector;
    return stage_sectors[k]->Misses(bounds, stage_end(k));
  };
  struct Waiting {
    int32_t item;
    int32_t stage;
    double limit;  // the reach when it was met
  };
  Waiting waiting[kMaxWaiting];
  int32_t waiting_count = 0;
  level.spatial_hash().VisitSweep(
      disc_box, mover.translation, options.max_fraction, [&](int32_t item) {
        const Level::Primitive& p = level.primitive(item);
        const Aabb bounds = PrimitiveBounds(p);
        const double limit = reach();
        if (!meets(bounds, limit) ||
            !internal::Passes(level, p.shape, filter, removed)) {
          return reach();
        }
        int32_t stage = 0;
        while (stage + 1 < stages && stage_misses(stage, bounds)) ++stage;
        if (stage == 0 || waiting_count == kMaxWaiting) {
          cast(p, limit);
        } else {
          waiting[waiting_count++] = {item, stage, limit};
        }
        return reach();
      });
  for (int32_t stage = 1; stage < stages && waiting_count > 0; ++stage) {
    if (reach() <= stage_end(stage - 1)) return;
    for (int32_t w = 0; w < waiting_count; ++w) {
      if (waiting[w].stage != stage) continue;
      const Level::Primitive& p = level.primitive(waiting[w].item);
      const double limit = reach();
      // Met by the reach when it was larger: met again only if it shrank.
      if (limit < waiting[w].limit && !meets(PrimitiveBounds(p), limit)) {
        continue;
      }
      cast(p, limit);
    }
  }
}

WorldHit ToWorldHit(const TurnResult& r, uint64_t id, uint64_t user_data) {
  Hit hit;
  hit.fraction = r.fraction_lo;
  hit.point = r.point;
  hit.normal = r.normal;
  hit.depth = r.depth;
  hit.feature = Feature{FeatureType::kSurface, 0};
  hit.status = r.status == TurnStatus::kInitialOverlap
                   ? HitStatus::kInitialOverlap
                   : HitStatus::kHit;
  return WorldHit{hit, id, user_data};
}

TurnBracket BracketOf(const TurnResult& r) {
  return {r.status, r.fraction_hi, r.gap_bound, r.iterations};
}

// The translating path's answer as a bracket of zero width.
TurnBracket BracketOf(const Hit& hit) {
  return {hit.status == HitStatus::kInitialOverlap ? TurnStatus::kInitialOverlap
                                                   : TurnStatus::kHit,
          hit.fraction, 0.0, 0};
}

std::optional<WorldHit> CastTranslating(const Turning<Circle>& m,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastCircle(CircleCast{m.shape, m.translation}, level, filter, options);
}
std::optional<WorldHit> CastTranslating(const Turning<Capsule>& m,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastCapsule(CapsuleCast{m.shape, m.translation}, level, filter,
                     options);
}
std::optional<WorldHit> CastTranslating(const Turning<ConvexPolygon>& m,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const CastOptions& options) {
  return CastPolygon(PolygonCast{m.shape, m.translation}, level, filter,
                     options);
}
ListResult CastTranslatingAll(const Turning<Circle>& m, const Level& level,
                              absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastCircleAll(CircleCast{m.shape, m.translation}, level, hits, filter,
                       options);
}
ListResult CastTranslatingAll(const Turning<Capsule>& m, const Level& level,
                              absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastCapsuleAll(CapsuleCast{m.shape, m.translation}, level, hits,
                        filter, options);
}
ListResult CastTranslatingAll(const Turning<ConvexPolygon>& m,
                              const Level& level, absl::Span<WorldHit> hits,
                              const QueryFilter& filter,
                              const CastOptions& options) {
  return CastPolygonAll(PolygonCast{m.shape, m.translation}, level, hits,
                        filter, options);
}

template <typename Shape>
std::optional<WorldTurnHit> CastClosest(const Turning<Shape>& mover,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const TurnOptions& options) {
  COLLIDE_DCHECK(IsValid(mover) && IsValid(options));
  if (mover.angle == 0.0) {
    const std::optional<WorldHit> hit =
        CastTranslating(mover, level, filter,
                        CastOptions{.max_fraction = options.max_fraction});
    if (!hit) return std::nullopt;
    return WorldTurnHit{*hit, BracketOf(hit->hit)};
  }
  bool found = false;
  TurnCandidate best;
  const Level* best_layer = &level;
  uint64_t best_id = 0;
  const auto collect = [&](const Level& layer, const uint64_t* removed) {
    const auto offer = [&](const TurnCandidate& c) {
      const uint64_t id = layer.id(c.shape);
      if (!found || RankOf(c.result, id, c.part) <
                        RankOf(best.result, best_id, best.part)) {
        best = c;
        best_id = id;
        best_layer = &layer;
        found = true;
      }
    };
    const auto reach = [&] {
      return found ? ReachAfter(best.result, options.max_fraction)
                   : options.max_fraction;
    };
    CastLayer(mover, layer, removed, filter, options, offer, reach);
  };
  collect(level, nullptr);
  if (const Level* base = level.base()) {
    collect(*base, level.removed_from_base().data());
  }
  if (!found) return std::nullopt;
  return WorldTurnHit{
      ToWorldHit(best.result, best_id, best_layer->user_data(best.shape)),
      BracketOf(best.result)};
}

// The sorted all-hits list in the caller's spans. While collecting, each
// entry's user_data holds its shape index (bits 32..62), its part (low
// half) and its layer (bit 63, set for a patched level's base); Finish
// puts the real user data back.
class TurnHitList {
 public:
  TurnHitList(absl::Span<WorldHit> hits, absl::Span<TurnBracket> brackets)
      : hits_(hits), brackets_(brackets) {}

  void Offer(const TurnCandidate& c, uint64_t id, bool in_base) {
    const Rank rank = RankOf(c.result, id, c.part);
    for (int32_t i = 0; i < count_; ++i) {
      if (hits_[i].shape_id != id) continue;
      if (!(rank < RankAt(i))) return;
      Erase(i);
      break;
    }
    const int32_t capacity = static_cast<int32_t>(hits_.size());
    if (count_ == capacity) {
      truncated_ = true;
      if (capacity == 0 || !(rank < RankAt(count_ - 1))) return;
      --count_;
    }
    int32_t at = count_;
    while (at > 0 && rank < RankAt(at - 1)) {
      hits_[at] = hits_[at - 1];
      brackets_[at] = brackets_[at - 1];
      --at;
    }
    hits_[at] = ToWorldHit(c.result, id, Pack(c.shape, c.part, in_base));
    brackets_[at] = BracketOf(c.result);
    ++count_;
  }

  double Limit(double max_fraction) const {
    if (!truncated_ || count_ == 0) return max_fraction;
    return std::min(max_fraction,
                    brackets_[count_ - 1].fraction_hi + 2 * kTurnBracketWidth);
  }

  ListResult Finish(const Level& level) {
    for (int32_t i = 0; i < count_; ++i) {
      const uint64_t packed = hits_[i].user_data;
      const Level& layer = (packed & kInBase) != 0 ? *level.base() : level;
      hits_[i].user_data =
          layer.user_data(static_cast<int32_t>((packed & ~kInBase) >> 32));
    }
    return {count_, truncated_};
  }

 private:
  static constexpr uint64_t kInBase = uint64_t{1} << 63;

  static uint64_t Pack(int32_t shape, int32_t part, bool in_base) {
    return (uint64_t{static_cast<uint32_t>(shape)} << 32) |
           static_cast<uint32_t>(part) | (in_base ? kInBase : 0);
  }
  Rank RankAt(int32_t i) const {
    return {hits_[i].hit.fraction, hits_[i].shape_id,
            static_cast<int32_t>(static_cast<uint32_t>(hits_[i].user_data)),
            brackets_[i].status == TurnStatus::kInitialOverlap};
  }
  void Erase(int32_t i) {
    for (int32_t j = i; j + 1 < count_; ++j) {
      hits_[j] = hits_[j + 1];
      brackets_[j] = brackets_[j + 1];
    }
    --count_;
  }

  absl::Span<WorldHit> hits_;
  absl::Span<TurnBracket> brackets_;
  int32_t count_ = 0;
  bool truncated_ = false;
};

template <typename Shape>
ListResult CastAll(const Turning<Shape>& mover, const Level& level,
                   absl::Span<WorldHit> hits, absl::Span<TurnBracket> brackets,
                   const QueryFilter& filter, const TurnOptions& options) {
  COLLIDE_DCHECK(IsValid(mover) && IsValid(options));
  COLLIDE_DCHECK(brackets.size() == hits.size());
  if (mover.angle == 0.0) {
    const ListResult result =
        CastTranslatingAll(mover, level, hits, filter,
                           CastOptions{.max_fraction = options.max_fraction});
    for (int32_t i = 0; i < result.count; ++i) {
      brackets[i] = BracketOf(hits[i].hit);
    }
    return result;
  }
  TurnHitList list(hits, brackets);
  const auto collect = [&](const Level& layer, const uint64_t* removed) {
    const bool in_base = removed != nullptr;
    CastLayer(
        mover, layer, removed, filter, options,
        [&](const TurnCandidate& c) {
          list.Offer(c, layer.id(c.shape), in_base);
        },
        [&] { return list.Limit(options.max_fraction); });
  };
  collect(level, nullptr);
  if (const Level* base = level.base()) {
    collect(*base, level.removed_from_base().data());
  }
  return list.Finish(level);
}

}  // namespace

std::optional<WorldTurnHit> CastTurning(const Turning<Circle>& mover,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const TurnOptions& options) {
  return CastClosest(mover, level, filter, options);
}
std::optional<WorldTurnHit> CastTurning(const Turning<Capsule>& mover,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const TurnOptions& options) {
  return CastClosest(mover, level, filter, options);
}
std::optional<WorldTurnHit> CastTurning(const Turning<ConvexPolygon>& mover,
                                        const Level& level,
                                        const QueryFilter& filter,
                                        const TurnOptions& options) {
  return CastClosest(mover, level, filter, options);
}

ListResult CastTurningAll(const Turning<Circle>& mover, const Level& level,
                          absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter,
                          const TurnOptions& options) {
  return CastAll(mover, level, hits, brackets, filter, options);
}
ListResult CastTurningAll(const Turning<Capsule>& mover, const Level& level,
                          absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter,
                          const TurnOptions& options) {
  return CastAll(mover, level, hits, brackets, filter, options);
}
ListResult CastTurningAll(const Turning<ConvexPolygon>& mover,
                          const Level& level, absl::Span<WorldHit> hits,
                          absl::Span<TurnBracket> brackets,
                          const QueryFilter& filter,
                          const TurnOptions& options) {
  return CastAll(mover, level, hits, brackets, filter, options);
}

}  // namespace collide
