// A core cast against a solid simple polygon: its edges as one-sided
// segments plus its interior (SweepCoreVsConcave in sweep/convex_sweep.h).
#include "sweep/concave_sweep.h"

#include <algorithm>
#include <optional>

#include "absl/base/attributes.h"
#include "absl/types/span.h"
#include "collide/intersect.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "sweep/convex_sweep.h"
#include "sweep/core.h"
#include "sweep/point_sweep.h"
#include "sweep/separation.h"
#include "sweep/start_state.h"
#include "sweep/vertex_misses.h"

namespace collide::internal {
namespace {

// The start state: clear when StartsClear proves it cheaply, else exact.
StartState ClassifyStart(const Core& a, const Motion& motion, const Core& b,
                         const CastOptions& options, const Shadow& shadow,
                         Candidate* skin_nearest = nullptr) {
  if (StartsClear(a, b, a.radius() + b.radius() + options.target_distance,
                  shadow)) {
    return StartState();
  }
  return ClassifyStartExact(a, motion, b, options, skin_nearest);
}

// Whether p, on the boundary of a simple polygon, moving by `motion`
// enters its interior for every small t > 0: across an edge's interior, the
// motion points inwards; at a convex vertex, strictly inside both edges'
// half-planes; at a reflex one, strictly inside either.
bool EntersPolygon(absl::Span<const Vec2> vertices, double orientation, Vec2 p,
                   const Motion& motion) {
  const Vec2 from = motion.from;
  const Vec2 to = motion.to;
  const int n = static_cast<int>(vertices.size());
  const int o = orientation > 0.0 ? 1 : -1;
  for (int k = 0; k < n; ++k) {
    if (vertices[k] != p) continue;
    const Vec2 before = vertices[k == 0 ? n - 1 : k - 1];
    const Vec2 after = vertices[k + 1 == n ? 0 : k + 1];
    const int turn = o * CrossSign(before, p, p, after);
    const bool left_in = o * CrossSign(before, p, from, to) > 0;
    const bool left_out = o * CrossSign(p, after, from, to) > 0;
    if (turn > 0) return left_in && left_out;
    if (turn < 0) return left_in || left_out;
    return left_in;
  }
  for (int i = 0; i < n; ++i) {
    const Vec2 start = vertices[i];
    const Vec2 end = vertices[i + 1 == n ? 0 : i + 1];
    if (Orient(start, end, p) != 0 || DotSign(start, end, start, p) <= 0 ||
        DotSign(start, end, end, p) >= 0) {
      continue;
    }
    return o * CrossSign(start, end, from, to) > 0;
  }
  return false;
}

// Whether a zero-radius core touching the solid (none of its vertices
// inside it or entering it) still moves in along an edge: an edge of a
// lying on one of the polygon's over a positive length moves in when the
// motion crosses that edge inwards, and a polygon vertex strictly inside
// one of a's edges when the motion enters the solid there. Both hold where
// a's vertices only slide along the polygon's edges (a segment spanning the
// end of a strip, pushed along it). Exact; out of line, for touching
// starts.
ABSL_ATTRIBUTE_NOINLINE bool EdgeEntersPolygon(const Core& a,
                                               absl::Span<const Vec2> vertices,
                                               double orientation,
                                               const Motion& motion) {
  if (a.count() < 2) return false;
  const int o = orientation > 0.0 ? 1 : -1;
  const int n = static_cast<int>(vertices.size());
  const int edges = a.count() == 2 ? 1 : a.count();
  for (int i = 0; i < edges; ++i) {
    const Vec2 u = a.vertex(i);
    const Vec2 v = a.vertex(a.next(i));
    for (int k = 0; k < n; ++k) {
      const Vec2 s = vertices[k];
      const Vec2 e = vertices[k + 1 == n ? 0 : k + 1];
      if (Orient(u, v, s) == 0 && DotSign(u, v, u, s) > 0 &&
          DotSign(v, u, v, s) > 0 &&
          EntersPolygon(vertices, orientation, s, motion)) {
        return true;
      }
      if (Orient(s, e, u) != 0 || Orient(s, e, v) != 0) continue;
      // Along s -> e: [u, v] (ordered) overlaps [s, e] by a positive
      // length when lo < hi, lo < e and hi > s.
      const int order = DotSign(u, v, s, e);
      if (order == 0) continue;
      const Vec2 lo = order > 0 ? u : v;
      const Vec2 hi = order > 0 ? v : u;
      if (DotSign(e, lo, s, e) < 0 && DotSign(s, hi, s, e) > 0 &&
          o * CrossSign(s, e, motion.from, motion.to) > 0) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::optional<Hit> SweepCoreVsConcave(const Core& a, const Motion& motion,
                                      const ConcavePolygon& polygon,
                                      const CastOptions& options) {
  const Vec2 d = motion.d;
  const int n = static_cast<int>(polygon.vertices.size());
  const double contact = a.radius();
  const absl::Span<const Vec2> vertices = polygon.vertices;
  // Where a's vertices lie against the solid, exactly: one strictly inside
  // puts a's core inside (it cannot be partly outside without crossing an
  // edge, an overlap the edges below report too); one on the boundary, with
  // no radius, touches it, and moves in when its motion enters the solid's
  // interior there.
  int inside_vertex = -1;
  int entering_vertex = -1;
  for (int k = 0; k < a.count() && inside_vertex < 0; ++k) {
    const int where = PointInPolygonExact(vertices, a.vertex(k));
    if (where > 0) inside_vertex = k;
    if (where == 0 && contact == 0.0 && entering_vertex < 0 &&
        EntersPolygon(vertices, polygon.orientation, a.vertex(k), motion)) {
      entering_vertex = k;
    }
  }
  const auto escape_hit = [&](bool touching) {
    // Escape across the nearest edge: far enough along its outward normal
    // to clear all of a (exact for a point or circle, a reasonable exit for
    // larger movers).
    Hit hit;
    hit.status = HitStatus::kInitialOverlap;
    double nearest = kInfinity;
    for (int i = 0; i < n; ++i) {
      const Core edge(vertices[i], vertices[(i + 1) % n], 0.0,
                      FeatureMap::kSegment);
      const Separation s = Separate(a, edge);
      if (s.gap >= nearest) continue;
      nearest = s.gap;
      hit.normal = EdgeNormal(polygon, i);
      hit.point = s.point_on_b;
      hit.feature = {FeatureType::kEdge, i};
    }
    double depth = -kInfinity;
    for (int k = 0; k < a.count(); ++k) {
      depth = std::max(depth, Dot(hit.point - a.vertex(k), hit.normal));
    }
    hit.depth = touching ? 0.0 : std::max(0.0, depth) + contact;
    return hit;
  };
  if (inside_vertex < 0 && a.count() >= 2) {
    // Every vertex on the boundary (none outside, or a would cross an edge)
    // may still span the interior, like a chord: its mean decides.
    bool all_on_boundary = true;
    Vec2 points[kMaxPolygonVertices];
    for (int k = 0; k < a.count() && all_on_boundary; ++k) {
      points[k] = a.vertex(k);
      all_on_boundary = PointInPolygonExact(vertices, a.vertex(k)) == 0;
    }
    if (all_on_boundary &&
        MeanInPolygonExact(
            vertices,
            absl::MakeConstSpan(points, static_cast<size_t>(a.count()))) > 0) {
      inside_vertex = 0;
    }
  }
  if (inside_vertex >= 0) return escape_hit(/*touching=*/false);
  // One pass over the edges. An edge whose start state is a hit at
  // fraction 0 (in the skin and closing, in contact, overlapping) decides
  // the answer, the best such edge winning. Otherwise the earliest sweep of
  // an edge that starts clear and faces the motion wins: a solid polygon is
  // entered from outside only through those, and an edge the mover is
  // leaving (a convex piece) is never met again.
  const Grow grow = Grow::Of(contact, 0.0, options.target_distance);
  StartState best_start;
  int best_start_edge = -1;
  // Starts in the skin (and not touching) are judged on the gap to the
  // whole solid, the least over its edges: closing when it closes on one of
  // the nearest (exactly ranked), else no hit at all (toi.h).
  StartState skin_start;
  int skin_edge = -1;
  Candidate skin_nearest{};
  std::optional<Hit> best;
  int best_edge = -1;
  double limit = options.max_fraction;
  bool touching = false;  // some edge's start is a touch
  for (int i = 0; i < n; ++i) {
    const Core edge(polygon.vertices[i], polygon.vertices[(i + 1) % n], 0.0,
                    FeatureMap::kSegment);
    const Shadow shadow =
        ShadowOf(a, d, edge, grow.value, options.max_fraction);
    if (ShadowsMiss(shadow, limit)) continue;
    Candidate nearest{};
    const StartState start =
        ClassifyStart(a, motion, edge, options, shadow, &nearest);
    if (start.kind == StartKind::kSkinApproaching ||
        start.kind == StartKind::kSkinLeaving) {
      const int order =
          skin_edge < 0 ? -1 : CompareCandidates(nearest, skin_nearest);
      if (order < 0 ||
          (order == 0 && start.kind == StartKind::kSkinApproaching)) {
        skin_start = start;
        skin_edge = i;
        skin_nearest = nearest;
      }
      continue;
    }
    if (start.kind != StartKind::kClear) {
      touching |= start.kind == StartKind::kTouchingLeaving ||
                  start.kind == StartKind::kTouchingIn;
      if (StartHit(start, edge, options) &&
          (best_start_edge < 0 || BetterStart(start, best_start))) {
        best_start = start;
        best_start_edge = i;
      }
      continue;
    }
    // Facing: d crosses the edge's line inwards, decided exactly (an edge
    // parallel to the motion is not faced, only grazed).
    if (best_start_edge >= 0 || d == Vec2{} ||
        (polygon.orientation > 0.0 ? 1 : -1) *
                CrossSign(polygon.vertices[i], polygon.vertices[(i + 1) % n],
                          motion.from, motion.to) <=
            0) {
      continue;
    }
    // Swept a little beyond the best so far (SweepClear's `reach`): the
    // contact at a vertex two edges share is found twice.
    const double reach =
        best ? std::min(options.max_fraction, limit + 1e-3 * limit) : limit;
    std::optional<Hit> hit =
        SweepClearAny(a, motion, edge, grow, reach, shadow);
    if (hit && (!best || hit->fraction < limit)) {
      best = hit;
      best_edge = i;
      limit = hit->fraction;
    }
  }
  const auto on_polygon = [&](Hit hit, int edge) {
    if (hit.feature.type == FeatureType::kVertex) {
      hit.feature.index = hit.feature.index == 0 ? edge : (edge + 1) % n;
    } else {
      hit.feature.index = edge;
    }
    return hit;
  };
  if (entering_vertex < 0 && touching && contact == 0.0 &&
      EdgeEntersPolygon(a, vertices, polygon.orientation, motion)) {
    entering_vertex = 0;
  }
  if (entering_vertex >= 0 &&
      (best_start_edge < 0 || best_start.kind != StartKind::kOverlap)) {
    return escape_hit(/*touching=*/true);
  }
  if (best_start_edge >= 0) {
    const Core edge(polygon.vertices[best_start_edge],
                    polygon.vertices[(best_start_edge + 1) % n], 0.0,
                    FeatureMap::kSegment);
    return on_polygon(*StartHit(best_start, edge, options), best_start_edge);
  }
  if (skin_edge >= 0) {
    if (skin_start.kind == StartKind::kSkinApproaching) {
      const Core edge(polygon.vertices[skin_edge],
                      polygon.vertices[(skin_edge + 1) % n], 0.0,
                      FeatureMap::kSegment);
      return on_polygon(*StartHit(skin_start, edge, options), skin_edge);
    }
    // Moving away from the nearest part: no hit at fraction 0, and none
    // later from a convex shape. A concave solid's gap can shrink again, by
    // an edge whose skin the mover starts in and closes on: one that it
    // would go on to touch (within max_fraction) stops it where it is, in
    // the skin (toi.h), so that no move is let through a wall.
    for (int i = 0; i < n; ++i) {
      const Core edge(polygon.vertices[i], polygon.vertices[(i + 1) % n], 0.0,
                      FeatureMap::kSegment);
      const Shadow shadow =
          ShadowOf(a, d, edge, grow.value, options.max_fraction);
      if (ShadowsMiss(shadow, options.max_fraction)) continue;
      const StartState start = ClassifyStart(a, motion, edge, options, shadow);
      if (start.kind != StartKind::kSkinApproaching) continue;
      const Grow touch = Grow::Of(contact, 0.0, 0.0);
      if (SweepClearAny(
              a, motion, edge, touch, options.max_fraction,
              ShadowOf(a, d, edge, touch.value, options.max_fraction))) {
        return on_polygon(*StartHit(start, edge, options), i);
      }
    }
  }
  if (!best) return std::nullopt;
  return on_polygon(*best, best_edge);
}

}  // namespace collide::internal
