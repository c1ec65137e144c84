// The convex cast (SweepCores): a start proved clear cheaply goes straight
// to the clear sweeps here, every other start is classified exactly first
// (start_state.h).

#include "sweep/convex_sweep.h"

#include <algorithm>
#include <optional>

#include "absl/base/attributes.h"
#include "collide/toi.h"
#include "collide/vec2.h"
#include "sweep/core.h"
#include "sweep/corner_normal.h"
#include "sweep/point_sweep.h"
#include "sweep/start_state.h"
#include "sweep/vertex_misses.h"

namespace collide::internal {
namespace {

// SweepClear for a pair one of whose cores is a point (every circle and ray
// cast): that point's one sweep against all of the other core is the whole
// answer. Its own function, so that the common case of such pairs sets up
// no more than it needs; the contact is kept as SweepClear keeps it.
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> SweepClearPoint(
    const Core& a, const Motion& motion, const Core& b, const Grow& grow,
    double max_fraction) {
  std::optional<Hit> best;  // the return value, filled in place: see StartHit
  if (a.count() == 1) {
    if (const std::optional<PointHit> h =
            SweepPoint(a.vertex(0), motion, b, grow, max_fraction)) {
      Hit& hit = best.emplace();
      hit.fraction = h->fraction;
      hit.point = h->core_point + b.radius() * h->normal;
      hit.normal = h->normal;
      hit.feature = h->feature;
      if (grow.value == 0.0) {
        SettleCorner(a, motion, b, /*corner_a=*/0, /*corner_b=*/-1,
                     /*edge_a=*/0, hit);
      }
    }
    return best;
  }
  // b's one vertex seen from a, moving by -d.
  if (const std::optional<PointHit> h =
          SweepPoint(b.vertex(0), motion.Reversed(), a, grow, max_fraction)) {
    Hit& hit = best.emplace();
    hit.fraction = h->fraction;
    const Vec2 normal = -h->normal;
    hit.point = b.vertex(0) + b.radius() * normal;
    hit.normal = normal;
    hit.feature = b.VertexFeature(0);
    // On an edge of a, b's vertex is a vertex-on-edge contact; on one of
    // a's vertices, a corner-to-corner one.
    if (grow.value == 0.0) {
      const bool on_edge = h->feature.type == FeatureType::kEdge;
      const bool on_vertex = h->feature.type == FeatureType::kVertex;
      if (on_edge || on_vertex) {
        SettleCorner(a, motion, b, on_vertex ? h->feature.index : -1,
                     on_edge ? 0 : -1, h->feature.index, hit);
      }
    }
  }
  return best;
}

// The sweep of a pair of extended cores (neither a point: see
// SweepClearPoint) known to start farther apart than grow: each vertex of a
// moving by d against b grown, and each vertex of b moving by -d against a
// grown (in a's frame); the earliest contact wins. kSegments: both cores
// are segments (a capsule or segment cast against a segment or a capsule),
// whose two-vertex loops then unroll with no polygon tests.
template <bool kSegments>
std::optional<Hit> SweepClear(const Core& a, const Motion& motion,
                              const Core& b, const Grow& grow,
                              double max_fraction, const Shadow& shadow) {
  const int a_count = kSegments ? 2 : a.count();
  const int b_count = kSegments ? 2 : b.count();
  const auto sweep_point = [&](Vec2 p, const Motion& m, const Core& core,
                               double limit) {
    return kSegments ? SweepPointSegment(p, m, core, grow, limit)
                     : SweepPoint(p, m, core, grow, limit);
  };
  const Vec2 d = motion.d;
  std::optional<Hit> best;  // the return value, filled in place: see StartHit
  // Contacts rank against `limit`, the best so far; the later vertices'
  // sweeps run to `reach`, a little beyond it. The sweeps decide exactly
  // whether a contact comes by the limit they are given, which is needed
  // at max_fraction (the query's own end) but not at the best so far: the
  // same contact found again from the other core's side lies within
  // rounding of it and would take the exact path every time.
  double limit = max_fraction;
  double reach = max_fraction;
  const auto keep = [&](double fraction, Vec2 core_point, Vec2 normal,
                        Feature feature) {
    Hit& hit = best.emplace();
    hit.fraction = fraction;
    hit.point = core_point + b.radius() * normal;
    hit.normal = normal;
    hit.feature = feature;
    limit = fraction;
    reach = std::min(max_fraction, fraction + 1e-3 * fraction);
  };
  // A contact of a's vertex with b, and of b's vertex j with a (seen from
  // b: the normal turns round).
  // a's vertex in the best contact when that is one of a's vertices
  // meeting b (on a vertex of b: a corner-to-corner contact), else -1.
  int corner_a = -1;
  // b's vertex in the best contact when that is one of b's vertices
  // meeting an edge of a (edge_a), else -1.
  int corner_b = -1;
  int edge_a = 0;
  const auto keep_a = [&](const PointHit& h, int i) {
    keep(h.fraction, h.core_point, h.normal, h.feature);
    corner_a = i;
    corner_b = -1;
  };
  const auto keep_b = [&](const PointHit& h, int j) {
    keep(h.fraction, b.vertex(j), -h.normal, b.VertexFeature(j));
    corner_a = -1;
    corner_b = h.feature.type == FeatureType::kEdge ? j : -1;
    edge_a = h.feature.index;
  };
  const auto settle_corner = [&] {
    if (grow.value == 0.0 && (corner_a >= 0 || corner_b >= 0)) {
      SettleCorner(a, motion, b, corner_a, corner_b, edge_a, *best);
    }
  };
  // a's vertices seen from b.
  const Motion back = motion.Reversed();
  // Edge lines are made only for polygon cores (and left unset otherwise);
  // a's, seen from b, move by -d.
  EdgeLines b_lines;
  EdgeLines a_lines;
  if (b_count >= 3) b_lines = LinesOf(b, d);
  if (a_count >= 3) a_lines = LinesOf(a, -d);
  for (int i = 0, before = a_count - 1; i < a_count; before = i++) {
    if (a_count >= 3 && IsBackVertex(a_lines, a, back, before, i)) continue;
    if (!VertexMayHit(shadow, shadow.a, i, shadow.b, 1.0, reach)) continue;
    const std::optional<PointHit> h =
        b_count >= 3
            ? SweepPointPolygon(a.vertex(i), motion, b, b_lines, grow, reach)
            : sweep_point(a.vertex(i), motion, b, reach);
    if (h && (!best || h->fraction < limit)) keep_a(*h, i);
  }
  for (int j = 0, before = b_count - 1; j < b_count; before = j++) {
    if (b_count >= 3 && IsBackVertex(b_lines, b, motion, before, j)) continue;
    if (!VertexMayHit(shadow, shadow.b, j, shadow.a, -1.0, reach)) continue;
    const std::optional<PointHit> h =
        a_count >= 3
            ? SweepPointPolygon(b.vertex(j), back, a, a_lines, grow, reach)
            : sweep_point(b.vertex(j), back, a, reach);
    // Meeting one of a's vertices is a vertex-vertex contact the loop above
    // has already swept (unless it was skipped); taking it here too could
    // let a rounding-level tie replace a side contact with a nearby vertex
    // one and tilt the normal.
    const bool duplicate = h && h->feature.type != FeatureType::kEdge;
    if (h && !duplicate && (!best || h->fraction < limit)) keep_b(*h, j);
  }
  settle_corner();
  return best;
}

}  // namespace

// SweepClear or SweepClearPoint, as the cores call for.
std::optional<Hit> SweepClearAny(const Core& a, const Motion& motion,
                                 const Core& b, const Grow& grow,
                                 double max_fraction, const Shadow& shadow) {
  if (a.count() == 1 || b.count() == 1) {
    return SweepClearPoint(a, motion, b, grow, max_fraction);
  }
  if (a.count() == 2 && b.count() == 2) {
    return SweepClear<true>(a, motion, b, grow, max_fraction, shadow);
  }
  return SweepClear<false>(a, motion, b, grow, max_fraction, shadow);
}

namespace {

// SweepCores for a start not proved clear cheaply: classified exactly
// first. Out of line, so that the common path neither builds nor returns a
// StartState.
ABSL_ATTRIBUTE_NOINLINE std::optional<Hit> SweepCoresNearStart(
    const Core& a, const Motion& motion, const Core& b,
    const CastOptions& options, const Grow& grow, const Shadow& shadow) {
  const StartState start =
      ClassifyStartExact(a, motion, b, options, /*skin_nearest=*/nullptr);
  if (start.kind != StartKind::kClear) return StartHit(start, b, options);
  if (motion.d == Vec2{}) return std::nullopt;
  return SweepClearAny(a, motion, b, grow, options.max_fraction, shadow);
}

}  // namespace

std::optional<Hit> SweepCores(const Core& a, const Motion& motion,
                              const Core& b, const CastOptions& options) {
  const Vec2 d = motion.d;
  const Grow grow = Grow::Of(a.radius(), b.radius(), options.target_distance);
  const Shadow shadow = ShadowOf(a, d, b, grow.value, options.max_fraction);
  if (ShadowsMiss(shadow, options.max_fraction)) return std::nullopt;
  if (!StartsClear(a, b, grow.value, shadow)) {
    return SweepCoresNearStart(a, motion, b, options, grow, shadow);
  }
  if (d == Vec2{}) return std::nullopt;
  if (a.count() == 1 || b.count() == 1) {
    return SweepClearPoint(a, motion, b, grow, options.max_fraction);
  }
  if (a.count() == 2 && b.count() == 2) {
    return SweepClear<true>(a, motion, b, grow, options.max_fraction, shadow);
  }
  return SweepClear<false>(a, motion, b, grow, options.max_fraction, shadow);
}

}  // namespace collide::internal
