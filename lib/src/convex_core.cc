#include "convex_core.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "motion_shadow.h"
#include "point_sweep.h"

namespace collide::internal {
namespace {

// Directions computed from offsets shorter than this share of the
// coordinates' scale are dominated by rounding.
constexpr double kSqrtEpsilon = 1.4901161193847656e-08;  // sqrt(2^-52)

// A segment core lists its one segment twice (once per side); distance loops
// need it once.
int DistinctEdges(const Core& core) {
  return core.count() == 2 ? 1 : core.edge_count();
}

// The point of segment [a, b] nearest p, with the feature it lies on
// (vertex 0 = a, vertex 1 = b, or the edge).
struct Nearest {
  Vec2 offset;  // p minus the nearest point
  Vec2 point;
  int vertex;  // 0, 1, or -1 for the edge's interior
};

Nearest NearestOnSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 e = b - a;
  const Vec2 m = p - a;
  const double along = Dot(m, e);
  const double length_squared = Dot(e, e);
  if (along <= 0.0 || length_squared == 0.0) return {m, a, 0};
  if (along >= length_squared) return {p - b, b, 1};
  const double s = along / length_squared;
  return {m - s * e, a + s * e, -1};
}

// Projection of a core's vertices on axis u, relative to origin (subtracting
// first keeps far-from-origin coordinates exact).
Interval Project(const Core& core, Vec2 origin, Vec2 u) {
  Interval result{kInfinity, -kInfinity};
  for (int i = 0; i < core.count(); ++i) {
    const double p = Dot(core.vertex(i) - origin, u);
    result.lower = std::min(result.lower, p);
    result.upper = std::max(result.upper, p);
  }
  return result;
}

// The vertex of a core farthest along u.
int Support(const Core& core, Vec2 u) {
  int best = 0;
  double best_projection = -kInfinity;
  for (int i = 0; i < core.count(); ++i) {
    const double p = Dot(core.vertex(i), u);
    if (p > best_projection) {
      best_projection = p;
      best = i;
    }
  }
  return best;
}

// Separating-axis test over every edge normal of both cores (and a
// segment's direction, which separates collinear segments). Finds the axis
// of least penetration; a negative penetration is a separation. For
// polygons that touch or nearly touch at a vertex and an edge, this axis is
// the exact contact normal, where the closest-point offset is only rounding
// noise.
struct AxisResult {
  double penetration = kInfinity;
  Vec2 axis;        // from b towards a
  int b_edge = -1;  // b's edge whose normal is the axis, if any
  bool two_sided = false;
};

// Calls visit(u, b_edge) for every candidate axis; stops when it returns
// false.
template <typename Visit>
void ForEachAxis(const Core& a, const Core& b, Visit visit) {
  const auto visit_core = [&](const Core& core, bool is_b) {
    for (int i = 0; i < DistinctEdges(core); ++i) {
      if (!visit(core.normal(i), is_b ? i : -1)) return false;
    }
    if (core.count() == 2 &&
        !visit(LeftPerp(core.normal(0)), -1)) {  // the unit direction
      return false;
    }
    return true;
  };
  if (visit_core(a, false)) visit_core(b, true);
}

AxisResult TestAxes(const Core& a, const Core& b) {
  AxisResult result;
  const Vec2 origin = b.vertex(0);
  ForEachAxis(a, b, [&](Vec2 u, int b_edge) {
    const Interval pa = Project(a, origin, u);
    const Interval pb = Project(b, origin, u);
    // Pushing a out along +u takes pb.upper - pa.lower, along -u the other.
    const double push_plus = pb.upper - pa.lower;
    const double push_minus = pa.upper - pb.lower;
    const double penetration = std::min(push_plus, push_minus);
    if (penetration < result.penetration) {
      result.penetration = penetration;
      result.axis = push_plus <= push_minus ? u : -u;
      result.b_edge = b_edge;
      result.two_sided = push_plus == push_minus;
    }
    return true;
  });
  return result;
}

// Whether some axis separates the cores by more than threshold: a cheap
// proof that they start clear, stopping at the first such axis.
bool AxesClearOf(const Core& a, const Core& b, double threshold) {
  // For an edge's own outward normal, its core reaches no further than the
  // edge's line, so one side of each axis is enough: two convex cores are
  // apart exactly when one lies beyond an edge line of the other. (A
  // segment lists both sides as edges; collinear segments need their
  // direction, tested both ways.)
  const auto beyond_edges = [threshold](const Core& core, const Core& other) {
    for (int i = 0; i < core.edge_count(); ++i) {
      const Vec2 n = core.normal(i);
      const Vec2 v = core.vertex(i);
      double nearest = kInfinity;
      for (int k = 0; k < other.count(); ++k) {
        nearest = std::min(nearest, Dot(other.vertex(k) - v, n));
      }
      if (nearest > threshold) return true;
    }
    return false;
  };
  if (beyond_edges(a, b) || beyond_edges(b, a)) return true;
  for (const Core* segment : {&a, &b}) {
    if (segment->count() != 2) continue;
    const Vec2 u = LeftPerp(segment->normal(0));
    const Vec2 origin = b.vertex(0);
    const Interval pa = Project(a, origin, u);
    const Interval pb = Project(b, origin, u);
    if (pa.lower - pb.upper > threshold || pb.lower - pa.upper > threshold) {
      return true;
    }
  }
  return false;
}

}  // namespace

Separation Separate(const Core& a, const Core& b) {
  Separation result;
  if (a.count() == 1 && b.count() == 1) {
    const Vec2 offset = a.vertex(0) - b.vertex(0);
    result.gap = Length(offset);
    result.two_sided = result.gap == 0.0;
    result.normal = result.two_sided ? Vec2{0.0, 1.0} : Normalize(offset);
    result.point_on_b = b.vertex(0);
    result.feature_b = b.VertexFeature(0);
    return result;
  }
  const AxisResult axes = TestAxes(a, b);
  if (axes.penetration >= 0.0) {
    result.gap = -axes.penetration;
    result.normal = axes.axis;
    result.two_sided = axes.two_sided;
    // a's deepest vertex, pushed back onto b's boundary.
    const Vec2 deepest = a.vertex(Support(a, -axes.axis));
    result.point_on_b = deepest + axes.penetration * axes.axis;
    result.feature_b = axes.b_edge >= 0
                           ? b.EdgeFeature(axes.b_edge)
                           : b.VertexFeature(Support(b, axes.axis));
    return result;
  }
  // Disjoint: the nearest pair involves a vertex of one core.
  double best = kInfinity;
  Vec2 best_offset;
  const auto consider = [&](Vec2 offset, Vec2 point_on_b, Feature feature) {
    const double d2 = LengthSquared(offset);
    if (d2 < best) {
      best = d2;
      best_offset = offset;
      result.point_on_b = point_on_b;
      result.feature_b = feature;
    }
  };
  for (int i = 0; i < a.count(); ++i) {
    if (b.count() == 1) {
      consider(a.vertex(i) - b.vertex(0), b.vertex(0), b.VertexFeature(0));
      continue;
    }
    for (int j = 0; j < DistinctEdges(b); ++j) {
      const int next = b.next(j);
      const Nearest n =
          NearestOnSegment(a.vertex(i), b.vertex(j), b.vertex(next));
      consider(n.offset, n.point,
               n.vertex < 0 ? b.EdgeFeature(j)
                            : b.VertexFeature(n.vertex == 0 ? j : next));
    }
  }
  for (int j = 0; j < b.count(); ++j) {
    for (int i = 0; i < DistinctEdges(a); ++i) {
      const Nearest n =
          NearestOnSegment(b.vertex(j), a.vertex(i), a.vertex(a.next(i)));
      consider(-n.offset, b.vertex(j), b.VertexFeature(j));
    }
  }
  result.gap = std::sqrt(best);
  // At a gap of rounding size the offset's direction is noise; the best
  // separating axis is then the contact normal (exact for a vertex on an
  // edge, one of the valid normals for two vertices).
  const double noise =
      kSqrtEpsilon * (MaxAbs(a.vertex(0) - b.vertex(0)) + MaxAbs(best_offset));
  result.normal = result.gap > noise ? Normalize(best_offset) : axes.axis;
  return result;
}

namespace {

// A cheap lower bound on the distance from p to core b exceeds `threshold`:
// a polygon's edge-plane distances and a segment's line distance never
// exceed the true distance.
bool PointClearOf(Vec2 p, const Core& b, double threshold) {
  if (b.count() == 1) {
    return LengthSquared(p - b.vertex(0)) > threshold * threshold;
  }
  if (b.count() == 2) {
    return std::abs(Dot(p - b.vertex(0), b.normal(0))) > threshold;
  }
  for (int i = 0; i < b.count(); ++i) {
    if (Dot(p - b.vertex(i), b.normal(i)) > threshold) return true;
  }
  return false;
}

// How a pair starts, before any motion.
enum class StartKind {
  kClear,            // farther apart than the skin: the sweep decides
  kSkinLeaving,      // within the skin, not closing
  kSkinApproaching,  // within the skin and closing: a kHit at fraction 0
  kTouchingLeaving,  // in contact, moving away or along
  kTouchingIn,       // in contact and moving further in
  kOverlap,          // overlapping beyond rounding
};

struct StartState {
  StartKind kind = StartKind::kClear;
  Separation separation;
  double gap = 0.0;  // between the shapes, radii included
};

StartState ClassifyStart(const Core& a, Vec2 d, const Core& b,
                         const CastOptions& options, const Shadow& shadow) {
  const double contact = a.radius() + b.radius();
  const double tolerance = TouchTolerance(a, b, d);
  StartState state;
  // Most casts start well clear, which the shadows, a plane or an axis test
  // prove cheaply, skipping the full separation test.
  const double clearance = contact + options.target_distance + tolerance;
  if (ShadowsApart(shadow, clearance)) return state;
  if (a.count() == 1 ? PointClearOf(a.vertex(0), b, clearance)
                     : AxesClearOf(a, b, clearance)) {
    return state;
  }
  state.separation = Separate(a, b);
  state.gap = state.separation.gap - contact;
  // Closing on the contact normal by more than rounding: an exact slide
  // along a surface gives a dot product of a few ulps of either sign.
  const bool moving_in =
      !state.separation.two_sided &&
      Dot(d, state.separation.normal) < -kTouchRoundings * MaxAbs(d);
  if (state.gap < -tolerance) {
    state.kind = StartKind::kOverlap;
  } else if (state.gap <= tolerance) {
    state.kind =
        moving_in ? StartKind::kTouchingIn : StartKind::kTouchingLeaving;
  } else if (state.gap <= options.target_distance + tolerance) {
    // Within rounding of the skin counts as at the skin, as within rounding
    // of contact counts as touching: the sweeps below measure the gap by
    // other formulas (a band's line distance, a polygon's edge lines), and
    // a start a few ulps outside the skin by this measure may already be a
    // few ulps inside by theirs, where they would miss the contact
    // altogether (issue 7: a slide stopped at the skin from one shape and
    // turned back into it).
    state.kind =
        moving_in ? StartKind::kSkinApproaching : StartKind::kSkinLeaving;
  }
  return state;
}

// The hit at fraction 0 a start state calls for, if any.
std::optional<Hit> StartHit(const StartState& state, const Core& b,
                            const CastOptions& options) {
  // Filled in place: copying a just-written Hit stalls on store forwarding.
  std::optional<Hit> result;
  switch (state.kind) {
    case StartKind::kClear:
    case StartKind::kSkinLeaving:
      return result;
    case StartKind::kTouchingLeaving:
      if (!options.stop_at_penetration) return result;
      break;
    case StartKind::kSkinApproaching:
    case StartKind::kTouchingIn:
    case StartKind::kOverlap:
      break;
  }
  Hit& hit = result.emplace();
  hit.point =
      state.separation.point_on_b + b.radius() * state.separation.normal;
  hit.normal = state.separation.normal;
  hit.feature = state.separation.feature_b;
  if (state.kind != StartKind::kSkinApproaching) {
    hit.status = HitStatus::kInitialOverlap;
    hit.depth = std::max(0.0, -state.gap);
  }
  return result;
}

// Whether start state x makes a better fraction-0 answer than y (both
// giving a hit): deeper overlap first, then contact, then the nearest point
// within the skin.
bool BetterStart(const StartState& x, const StartState& y) {
  const auto rank = [](StartKind kind) {
    return kind == StartKind::kTouchingLeaving ? StartKind::kTouchingIn : kind;
  };
  if (rank(x.kind) != rank(y.kind)) return rank(x.kind) > rank(y.kind);
  return x.gap < y.gap;
}

// The sweep of a pair known to start farther apart than grow: each vertex
// of a moving by d against b grown, and each vertex of b moving by -d
// against a grown (in a's frame); the earliest contact wins.
std::optional<Hit> SweepClear(const Core& a, Vec2 d, const Core& b, double grow,
                              double max_fraction, const Shadow& shadow) {
  std::optional<Hit> best;  // the return value, filled in place: see StartHit
  double limit = max_fraction;
  const auto keep = [&](double fraction, Vec2 core_point, Vec2 normal,
                        Feature feature) {
    Hit& hit = best.emplace();
    hit.fraction = fraction;
    hit.point = core_point + b.radius() * normal;
    hit.normal = normal;
    hit.feature = feature;
    limit = fraction;
  };
  // A contact of a's vertex with b, and of b's vertex j with a (seen from
  // b: the normal turns round).
  const auto keep_a = [&](const PointHit& h) {
    keep(h.fraction, h.core_point, h.normal, h.feature);
  };
  const auto keep_b = [&](const PointHit& h, int j) {
    keep(h.fraction, b.vertex(j), -h.normal, b.VertexFeature(j));
  };
  // A point core's one sweep against all of the other core is the whole
  // answer.
  if (a.count() == 1) {
    if (const std::optional<PointHit> h =
            SweepPoint(a.vertex(0), d, b, grow, limit)) {
      keep_a(*h);
    }
    return best;
  }
  if (b.count() == 1) {
    if (const std::optional<PointHit> h =
            SweepPoint(b.vertex(0), -d, a, grow, limit)) {
      keep_b(*h, 0);
    }
    return best;
  }
  // Edge lines are made only for polygon cores (and left unset otherwise);
  // a's, seen from b, move by -d.
  EdgeLines b_lines;
  EdgeLines a_lines;
  if (b.count() >= 3) b_lines = LinesOf(b, d);
  if (a.count() >= 3) a_lines = LinesOf(a, -d);
  for (int i = 0; i < a.count(); ++i) {
    if (a.count() >= 3 && IsBackVertex(a, a_lines, i)) continue;
    if (!VertexMayHit(shadow, shadow.a, i, shadow.b, 1.0, limit)) continue;
    const std::optional<PointHit> h =
        b.count() >= 3
            ? SweepPointPolygon(a.vertex(i), d, b, b_lines, grow, limit)
            : SweepPoint(a.vertex(i), d, b, grow, limit);
    if (h && (!best || h->fraction < limit)) keep_a(*h);
  }
  for (int j = 0; j < b.count(); ++j) {
    if (b.count() >= 3 && IsBackVertex(b, b_lines, j)) continue;
    if (!VertexMayHit(shadow, shadow.b, j, shadow.a, -1.0, limit)) continue;
    const std::optional<PointHit> h =
        a.count() >= 3
            ? SweepPointPolygon(b.vertex(j), -d, a, a_lines, grow, limit)
            : SweepPoint(b.vertex(j), -d, a, grow, limit);
    // Meeting one of a's vertices is a vertex-vertex contact the loop above
    // has already swept (unless it was skipped); taking it here too could
    // let a rounding-level tie replace a side contact with a nearby vertex
    // one and tilt the normal.
    const bool duplicate = h && h->feature.type != FeatureType::kEdge;
    if (h && !duplicate && (!best || h->fraction < limit)) keep_b(*h, j);
  }
  return best;
}

}  // namespace

std::optional<Hit> SweepCores(const Core& a, Vec2 d, const Core& b,
                              const CastOptions& options) {
  const double grow = a.radius() + b.radius() + options.target_distance;
  const Shadow shadow = ShadowOf(a, d, b, grow, options.max_fraction);
  if (ShadowsMiss(shadow, options.max_fraction)) return std::nullopt;
  const StartState start = ClassifyStart(a, d, b, options, shadow);
  if (start.kind != StartKind::kClear) return StartHit(start, b, options);
  if (d == Vec2{}) return std::nullopt;
  return SweepClear(a, d, b, grow, options.max_fraction, shadow);
}

std::optional<Hit> SweepCoreVsConcave(const Core& a, Vec2 d,
                                      const ConcavePolygon& polygon,
                                      const CastOptions& options) {
  const int n = static_cast<int>(polygon.vertices.size());
  const double contact = a.radius();
  if (ContainsPoint(polygon, a.vertex(0))) {
    // a's reference point is inside the solid. Escape across the nearest
    // edge: far enough along its outward normal to clear all of a (exact
    // for a point or circle, a reasonable exit for larger movers).
    Hit hit;
    hit.status = HitStatus::kInitialOverlap;
    double nearest = kInfinity;
    double tolerance = 0.0;
    for (int i = 0; i < n; ++i) {
      const Core edge(polygon.vertices[i], polygon.vertices[(i + 1) % n], 0.0,
                      FeatureMap::kSegment);
      const Separation s = Separate(a, edge);
      if (s.gap >= nearest) continue;
      nearest = s.gap;
      tolerance = TouchTolerance(a, edge, d);
      hit.normal = EdgeNormal(polygon, i);
      hit.point = s.point_on_b;
      hit.feature = {FeatureType::kEdge, i};
    }
    double depth = -kInfinity;
    for (int k = 0; k < a.count(); ++k) {
      depth = std::max(depth, Dot(hit.point - a.vertex(k), hit.normal));
    }
    hit.depth = std::max(0.0, depth) + contact;
    if (nearest + contact > tolerance) return hit;
    // A point on the boundary touches the solid: a hit only when moving into
    // it; moving out or along, the edges below decide what comes next.
    if (Dot(d, hit.normal) < -kTouchRoundings * MaxAbs(d) ||
        options.stop_at_penetration) {
      hit.depth = 0.0;
      return hit;
    }
  }
  // One pass over the edges. An edge whose start state is a hit at
  // fraction 0 (in the skin and closing, in contact, overlapping) decides
  // the answer, the best such edge winning. Otherwise the earliest sweep of
  // an edge that starts clear and faces the motion wins: a solid polygon is
  // entered from outside only through those, and an edge the mover is
  // leaving (a convex piece) is never met again.
  const double grow = contact + options.target_distance;
  StartState best_start;
  int best_start_edge = -1;
  std::optional<Hit> best;
  int best_edge = -1;
  double limit = options.max_fraction;
  for (int i = 0; i < n; ++i) {
    const Core edge(polygon.vertices[i], polygon.vertices[(i + 1) % n], 0.0,
                    FeatureMap::kSegment);
    const Shadow shadow = ShadowOf(a, d, edge, grow, options.max_fraction);
    if (ShadowsMiss(shadow, limit)) continue;
    const StartState start = ClassifyStart(a, d, edge, options, shadow);
    if (start.kind != StartKind::kClear) {
      if (StartHit(start, edge, options) &&
          (best_start_edge < 0 || BetterStart(start, best_start))) {
        best_start = start;
        best_start_edge = i;
      }
      continue;
    }
    if (best_start_edge >= 0 || d == Vec2{} ||
        Dot(d, EdgeNormal(polygon, i)) >= 0.0) {
      continue;
    }
    std::optional<Hit> hit = SweepClear(a, d, edge, grow, limit, shadow);
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
  if (best_start_edge >= 0) {
    const Core edge(polygon.vertices[best_start_edge],
                    polygon.vertices[(best_start_edge + 1) % n], 0.0,
                    FeatureMap::kSegment);
    return on_polygon(*StartHit(best_start, edge, options), best_start_edge);
  }
  if (!best) return std::nullopt;
  return on_polygon(*best, best_edge);
}

}  // namespace collide::internal
