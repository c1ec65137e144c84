// Separating axes and distance between two cores at rest: Separate's
// rounded gap, normal and nearest feature, and the exact "within a reach"
// decision CoresWithin builds on it.
#include "sweep/separation.h"

#include <algorithm>
#include <cmath>

#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "exact/within_distance.h"
#include "sweep/core.h"

namespace collide::internal {
namespace {

// Directions computed from offsets shorter than this share of the
// coordinates' scale are dominated by rounding.
constexpr double kSqrtEpsilon = 1.4901161193847656e-08;  // sqrt(2^-52)

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

}  // namespace

Hull HullOf(const Core& core) {
  Hull hull;
  hull.count = core.count();
  hull.radius = core.radius();
  for (int i = 0; i < core.count(); ++i) hull.vertices[i] = core.vertex(i);
  return hull;
}

bool CoresWithin(const Core& a, const Core& b, double extra) {
  const double reach = a.radius() + b.radius() + extra;
  const double gap = Separate(a, b).gap;
  // The largest coordinate of each core, and the gap's own size.
  double magnitude = std::abs(gap);
  for (const Core* core : {&a, &b}) {
    double largest = 0.0;
    for (int i = 0; i < core->count(); ++i) {
      largest = std::max(largest, MaxAbs(core->vertex(i)));
    }
    magnitude += largest;
  }
  const double bound = DistanceRoundingBound(magnitude, reach);
  if (gap < reach - bound) return true;
  if (gap > reach + bound) return false;
  return HullsWithin(HullOf(a), HullOf(b), extra);
}

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

}  // namespace collide::internal
