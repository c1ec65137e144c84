// The reference every world query is checked against: a plain loop over all
// shapes of a level calling the per-shape functions of toi.h and
// intersect.h, with the rules query.h states (polylines segment by segment,
// ties by fraction, then id, then segment index). Near ties of zero-radius
// contacts are decided on exact times, with both fractions reported
// correctly rounded, through the library's own exact times
// (world/exact_ties.h): this reference checks the walk, and the same-time
// oracle families check those times against GMP.
#ifndef COLLIDE_TESTS_LIB_QUERY_BRUTE_FORCE_H_
#define COLLIDE_TESTS_LIB_QUERY_BRUTE_FORCE_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/exact_time.h"
#include "world/exact_ties.h"

namespace collide::testing {

inline bool BrutePasses(const Level& level, int shape,
                        const QueryFilter& filter) {
  if ((level.category_bits(shape) & filter.mask_bits) == 0) return false;
  return std::find(filter.ignore_ids.begin(), filter.ignore_ids.end(),
                   level.id(shape)) == filter.ignore_ids.end();
}

// Hit a before hit b of one shape's parts or of two shapes with the same
// fraction rank: the smaller fraction, then an initial overlap before a hit.
inline bool RanksBefore(const Hit& a, const Hit& b) {
  if (a.fraction != b.fraction) return a.fraction < b.fraction;
  return a.status == HitStatus::kInitialOverlap &&
         b.status != HitStatus::kInitialOverlap;
}

inline std::optional<Hit> AnyCast(const RayInput& c, const auto& t,
                                  const CastOptions& o) {
  return CastRay(c, t, o);
}
inline std::optional<Hit> AnyCast(const CircleCast& c, const auto& t,
                                  const CastOptions& o) {
  return CastCircle(c, t, o);
}
inline std::optional<Hit> AnyCast(const CapsuleCast& c, const auto& t,
                                  const CastOptions& o) {
  return CastCapsule(c, t, o);
}
inline std::optional<Hit> AnyCast(const PolygonCast& c, const auto& t,
                                  const CastOptions& o) {
  return CastPolygon(c, t, o);
}

// Whether a hit on polyline segment `part` (features renumbered to the
// polyline's) is the mover sliding along a neighbouring segment past their
// shared vertex onto a convex bend or a straight continuation, which a
// polyline does not count (query.h): a kHit at the shared vertex, motion
// parallel to the neighbour, the mover touching the neighbour at the start,
// and part's far end not on the mover's side of the neighbour's line.
template <typename Cast>
bool BruteSlidesOntoBend(const Cast& cast, const PolylineDesc& polyline,
                         int part, const Hit& hit) {
  if (hit.status != HitStatus::kHit ||
      hit.feature.type != FeatureType::kVertex) {
    return false;
  }
  const int n = static_cast<int>(polyline.vertices.size());
  const int segments = polyline.closed ? n : n - 1;
  const int at = hit.feature.index;
  if (segments < 2) return false;
  int neighbour_far;
  int part_far;
  if (at == part) {
    if (part == 0 && !polyline.closed) return false;
    neighbour_far = (at - 1 + n) % n;
    part_far = (part + 1) % n;
  } else {
    if (part + 1 >= segments && !polyline.closed) return false;
    neighbour_far = (at + 1) % n;
    part_far = part;
  }
  const Vec2 shared = polyline.vertices[at];
  const Vec2 far = polyline.vertices[neighbour_far];
  if (far == shared || Cross(far - shared, cast.translation) != 0.0) {
    return false;
  }
  const std::optional<Hit> start =
      AnyCast(cast, Segment{shared, far},
              CastOptions{.max_fraction = 0.0, .stop_at_penetration = true});
  if (!start || start->status != HitStatus::kInitialOverlap) return false;
  const double side = Cross(far - shared, start->normal);
  const double bend = Cross(far - shared, polyline.vertices[part_far] - shared);
  return side != 0.0 && (side > 0.0 ? bend <= 0.0 : bend >= 0.0);
}

// The exact time of a hit on `shape` (segment `part` of a polyline), when
// the world queries decide its near ties exactly.
template <typename Cast>
std::optional<internal::ExactTime> BruteTime(const Cast& cast,
                                             const CastOptions& options,
                                             const Level& level, int shape,
                                             int part, const Hit& hit) {
  return internal::CandidateTime(cast, options, level,
                                 internal::Candidate{hit, shape, part});
}

// One shape's answer to a cast; *part_out (optional): the polyline segment.
template <typename Cast>
std::optional<Hit> BruteShapeCast(const Cast& cast, const Level& level,
                                  int shape, const CastOptions& options,
                                  int* part_out = nullptr) {
  if (part_out != nullptr) *part_out = 0;
  switch (level.kind(shape)) {
    case ShapeKind::kSegment:
      return AnyCast(cast, level.segment(shape), options);
    case ShapeKind::kCircle:
      return AnyCast(cast, level.circle(shape), options);
    case ShapeKind::kCapsule:
      return AnyCast(cast, level.capsule(shape), options);
    case ShapeKind::kConvexPolygon:
      return AnyCast(cast, level.convex_polygon(shape), options);
    case ShapeKind::kConcavePolygon:
      return AnyCast(cast, level.concave_polygon(shape), options);
    case ShapeKind::kPolyline: {
      const PolylineDesc polyline = level.polyline(shape);
      const int n = static_cast<int>(polyline.vertices.size());
      const int segments = polyline.closed ? n : n - 1;
      std::optional<Hit> best;
      int best_part = 0;
      for (int i = 0; i < segments; ++i) {
        std::optional<Hit> hit = AnyCast(
            cast, Segment{polyline.vertices[i], polyline.vertices[(i + 1) % n]},
            options);
        if (!hit) continue;
        if (hit->feature.type == FeatureType::kVertex &&
            hit->feature.index == 1) {
          hit->feature.index = (i + 1) % n;
        } else {
          hit->feature.index = i;
        }
        if (BruteSlidesOntoBend(cast, polyline, i, *hit)) continue;
        if (best && internal::NearTie(hit->fraction, best->fraction)) {
          const auto t = BruteTime(cast, options, level, shape, i, *hit);
          const auto b =
              BruteTime(cast, options, level, shape, best_part, *best);
          if (t && b) {
            const int order = internal::CompareTimes(*t, *b);
            if (internal::RoundingContradicts(order, hit->fraction,
                                              best->fraction)) {
              hit->fraction = internal::RoundTime(*t);
              best->fraction = internal::RoundTime(*b);
            }
            if (order < 0) {
              best = hit;
              best_part = i;
            }
            continue;
          }
        }
        if (!best || RanksBefore(*hit, *best)) {
          best = hit;
          best_part = i;
        }
      }
      if (part_out != nullptr) *part_out = best_part;
      return best;
    }
  }
  return std::nullopt;
}

// Every matching shape's hit, sorted by (fraction, initial overlap before
// hit, id); near ties decided on exact times where the world queries do,
// and the fractions of a tie at equal exact times, or whose rounding
// contradicts the exact order, rewritten to their exact times correctly
// rounded.
template <typename Cast>
std::vector<WorldHit> BruteCastAll(const Cast& cast, const Level& level,
                                   const QueryFilter& filter,
                                   const CastOptions& options) {
  struct Entry {
    WorldHit hit;
    int part = 0;
    std::optional<internal::ExactTime> time;
  };
  std::vector<Entry> entries;
  for (int i = 0; i < level.shape_count(); ++i) {
    if (!BrutePasses(level, i, filter)) continue;
    int part = 0;
    if (std::optional<Hit> hit =
            BruteShapeCast(cast, level, i, options, &part)) {
      entries.push_back({{*hit, level.id(i), level.user_data(i)},
                         part,
                         BruteTime(cast, options, level, i, part, *hit)});
    }
  }
  const auto exact_tie = [](const Entry& a, const Entry& b) {
    return a.time && b.time &&
           internal::NearTie(a.hit.hit.fraction, b.hit.hit.fraction);
  };
  std::sort(entries.begin(), entries.end(),
            [&](const Entry& a, const Entry& b) {
              if (exact_tie(a, b)) {
                const int order = internal::CompareTimes(*a.time, *b.time);
                if (order != 0) return order < 0;
                return a.hit.shape_id < b.hit.shape_id;
              }
              if (a.hit.hit.fraction != b.hit.hit.fraction) {
                return a.hit.hit.fraction < b.hit.hit.fraction;
              }
              if (a.hit.hit.status != b.hit.hit.status) {
                return RanksBefore(a.hit.hit, b.hit.hit);
              }
              return a.hit.shape_id < b.hit.shape_id;
            });
  std::vector<WorldHit> hits;
  for (size_t i = 0; i < entries.size(); ++i) {
    WorldHit h = entries[i].hit;
    for (size_t j = 0; j < entries.size(); ++j) {
      if (j == i || !exact_tie(entries[i], entries[j])) continue;
      const int order =
          internal::CompareTimes(*entries[i].time, *entries[j].time);
      if (order == 0 ||
          internal::RoundingContradicts(order, entries[i].hit.hit.fraction,
                                        entries[j].hit.hit.fraction)) {
        h.hit.fraction = internal::RoundTime(*entries[i].time);
        break;
      }
    }
    hits.push_back(h);
  }
  return hits;
}

template <typename Cast>
std::optional<WorldHit> BruteCast(const Cast& cast, const Level& level,
                                  const QueryFilter& filter,
                                  const CastOptions& options) {
  std::vector<WorldHit> hits = BruteCastAll(cast, level, filter, options);
  if (hits.empty()) return std::nullopt;
  return hits.front();
}

template <typename A, typename B>
bool EitherOverlaps(const A& a, const B& b) {
  if constexpr (requires { Overlaps(a, b); }) {
    return Overlaps(a, b);
  } else {
    return Overlaps(b, a);
  }
}

// Ids of the matching shapes `query` overlaps, ascending.
template <typename Query>
std::vector<ShapeRef> BruteOverlap(const Query& query, const Level& level,
                                   const QueryFilter& filter) {
  std::vector<ShapeRef> refs;
  for (int i = 0; i < level.shape_count(); ++i) {
    if (!BrutePasses(level, i, filter)) continue;
    bool overlaps = false;
    switch (level.kind(i)) {
      case ShapeKind::kSegment:
        overlaps = EitherOverlaps(query, level.segment(i));
        break;
      case ShapeKind::kCircle:
        overlaps = EitherOverlaps(query, level.circle(i));
        break;
      case ShapeKind::kCapsule:
        overlaps = EitherOverlaps(query, level.capsule(i));
        break;
      case ShapeKind::kConvexPolygon:
        overlaps = EitherOverlaps(query, level.convex_polygon(i));
        break;
      case ShapeKind::kConcavePolygon:
        overlaps = EitherOverlaps(query, level.concave_polygon(i));
        break;
      case ShapeKind::kPolyline: {
        const PolylineDesc p = level.polyline(i);
        const size_t n = p.vertices.size();
        const size_t segments = p.closed ? n : n - 1;
        for (size_t k = 0; k < segments && !overlaps; ++k) {
          overlaps = EitherOverlaps(
              query, Segment{p.vertices[k], p.vertices[(k + 1) % n]});
        }
        break;
      }
    }
    if (overlaps) refs.push_back({level.id(i), level.user_data(i)});
  }
  std::sort(refs.begin(), refs.end(), [](const ShapeRef& a, const ShapeRef& b) {
    return a.shape_id < b.shape_id;
  });
  return refs;
}

// Nearest point of segment [a, b] to p, features vertex 0 / 1 and edge 0.
struct BruteNearest {
  double distance;
  Vec2 point;
  Feature feature;
  // From the part towards p: the edge's perpendicular or the offset from
  // the vertex or centre (the normal's direction).
  Vec2 away;
};

inline BruteNearest BruteNearestOnSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 e = b - a;
  const double along = Dot(p - a, e);
  const double ee = Dot(e, e);
  BruteNearest r;
  if (along <= 0.0 || ee == 0.0) {
    r.point = a;
    r.feature = {FeatureType::kVertex, 0};
  } else if (along >= ee) {
    r.point = b;
    r.feature = {FeatureType::kVertex, 1};
  } else {
    // The distance to the line, from the differences (the rounded point may
    // be ulps of the coordinates off it).
    r.point = a + (along / ee) * e;
    r.feature = {FeatureType::kEdge, 0};
    const double cross = Cross(e, p - a);
    r.distance = std::abs(cross) / Length(e);
    r.away = cross > 0.0 ? LeftPerp(e) : RightPerp(e);
    return r;
  }
  r.distance = Length(p - r.point);
  r.away = p - r.point;
  return r;
}

inline BruteNearest BruteGrow(Vec2 p, BruteNearest core, double radius) {
  if (core.distance <= radius) return {0.0, p, core.feature, {}};
  return {core.distance - radius,
          core.point + (radius / core.distance) * (p - core.point),
          core.feature, core.away};
}

// The nearest of a closed or open chain's segments (ties: lowest index).
inline BruteNearest BruteNearestOnChain(Vec2 p, absl::Span<const Vec2> v,
                                        bool closed) {
  const int n = static_cast<int>(v.size());
  const int segments = closed ? n : n - 1;
  BruteNearest best{};
  for (int i = 0; i < segments; ++i) {
    BruteNearest d = BruteNearestOnSegment(p, v[i], v[(i + 1) % n]);
    if (d.feature.type == FeatureType::kVertex && d.feature.index == 1) {
      d.feature.index = (i + 1) % n;
    } else {
      d.feature.index = i;
    }
    if (i == 0 || d.distance < best.distance) best = d;
  }
  return best;
}

inline std::optional<WorldClosestPoint> BruteClosestPoint(
    Vec2 p, const Level& level, double max_distance,
    const QueryFilter& filter) {
  std::optional<WorldClosestPoint> best;
  for (int i = 0; i < level.shape_count(); ++i) {
    if (!BrutePasses(level, i, filter)) continue;
    BruteNearest d{};
    switch (level.kind(i)) {
      case ShapeKind::kSegment: {
        const Segment s = level.segment(i);
        d = BruteNearestOnSegment(p, s.p1, s.p2);
        break;
      }
      case ShapeKind::kCircle: {
        const Circle c = level.circle(i);
        d = BruteGrow(p,
                      {Length(p - c.center),
                       c.center,
                       {FeatureType::kSurface, 0},
                       p - c.center},
                      c.radius);
        break;
      }
      case ShapeKind::kCapsule: {
        const Capsule c = level.capsule(i);
        d = BruteGrow(p, BruteNearestOnSegment(p, c.p1, c.p2), c.radius);
        break;
      }
      case ShapeKind::kConvexPolygon: {
        const ConvexPolygon& polygon = level.convex_polygon(i);
        d = ContainsPoint(polygon, p)
                ? BruteNearest{0.0, p, {FeatureType::kSurface, 0}, {}}
                : BruteNearestOnChain(
                      p,
                      absl::MakeConstSpan(polygon.vertices.data(),
                                          static_cast<size_t>(polygon.count)),
                      true);
        break;
      }
      case ShapeKind::kConcavePolygon: {
        const ConcavePolygon polygon = level.concave_polygon(i);
        d = ContainsPoint(polygon, p)
                ? BruteNearest{0.0, p, {FeatureType::kSurface, 0}, {}}
                : BruteNearestOnChain(p, polygon.vertices, true);
        break;
      }
      case ShapeKind::kPolyline: {
        const PolylineDesc polyline = level.polyline(i);
        d = BruteNearestOnChain(p, polyline.vertices, polyline.closed);
        break;
      }
    }
    if (d.distance > max_distance) continue;
    if (best &&
        (best->distance < d.distance ||
         (best->distance == d.distance && best->shape_id < level.id(i)))) {
      continue;
    }
    best = WorldClosestPoint{
        d.point,   d.distance,  d.distance > 0.0 ? Normalize(d.away) : Vec2{},
        d.feature, level.id(i), level.user_data(i)};
  }
  return best;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_LIB_QUERY_BRUTE_FORCE_H_
