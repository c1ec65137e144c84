#include "visibility/visibility_polygon_edges.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "collide/level.h"
#include "collide/shapes.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "visibility/occluders.h"

namespace collide::internal {
namespace {

using Edge = VisibilityPolygonAccess::Edge;
using Wedge = VisibilityPolygonAccess::Wedge;

// Whether p lies on the closed segment [a, b], exactly.
bool OnSegment(Vec2 p, Vec2 a, Vec2 b) {
  return Orient(a, b, p) == 0 && DotSign(p, a, p, b) <= 0;
}

class Gatherer {
 public:
  Gatherer(Vec2 v, double range, double max_arc_angle, PolygonEdgeSink& sink)
      : v_(v), range_(range), max_arc_angle_(max_arc_angle), sink_(sink) {}

  // The edge a -> b clipped to the range's disc. The disc is convex, so
  // the part inside is one piece; an end outside moves to where the line
  // crosses the circle, |a + s (b - a) - v| = range, s in [0, 1].
  void Add(Vec2 a, Vec2 b, uint64_t shape_id, PolygonVertexKind kind) {
    const bool a_in = DistanceSquaredVs(a, v_, range_, 0.0, 0.0) <= 0;
    const bool b_in = DistanceSquaredVs(b, v_, range_, 0.0, 0.0) <= 0;
    Edge edge{a, b, shape_id, kind, kind};
    if (!a_in || !b_in) {
      const Vec2 d = b - a;
      const Vec2 m = a - v_;
      const double qa = Dot(d, d);
      if (!(qa > 0.0)) return;
      const double half_b = Dot(m, d);
      const double qc = (Length(m) - range_) * (Length(m) + range_);
      // With one end inside, the line meets the circle on the segment
      // whatever the roundings say: an end outside by less than their
      // error must not lose the edge (nor move the crossing off it).
      const bool one_in = a_in || b_in;
      double disc = half_b * half_b - qa * qc;
      if (one_in) {
        disc = std::max(disc, 0.0);
      } else if (!(disc > 0.0)) {
        return;
      }
      // The two roots, the larger-magnitude one without cancellation.
      const double root = std::sqrt(disc);
      const double big = half_b >= 0.0 ? -half_b - root : -half_b + root;
      double s1 = big / qa;
      double s2 = big != 0.0 ? qc / big : s1;
      if (s1 > s2) std::swap(s1, s2);
      if (!one_in && (s1 >= 1.0 || s2 <= 0.0)) return;
      if (!a_in) {
        if (!one_in && s1 <= 0.0) return;
        if (s1 < 1.0) {
          edge.a = s1 > 0.0 ? a + s1 * d : a;
          edge.a_kind = PolygonVertexKind::kArcEnd;
        } else {
          edge.a = b;
          edge.a_kind = PolygonVertexKind::kArcEnd;
        }
      }
      if (!b_in) {
        if (!one_in && s2 >= 1.0) return;
        if (s2 > 0.0) {
          edge.b = s2 < 1.0 ? a + s2 * d : b;
          edge.b_kind = PolygonVertexKind::kArcEnd;
        } else {
          edge.b = a;
          edge.b_kind = PolygonVertexKind::kArcEnd;
        }
      }
      if (edge.a == edge.b) return;
    }
    if (sink_.edge_count < sink_.max_edges) sink_.edges->push_back(edge);
    ++sink_.edge_count;
  }

  void AddWedge(const Wedge& wedge) {
    if (sink_.wedge_count < sink_.max_wedges) sink_.wedges->push_back(wedge);
    ++sink_.wedge_count;
  }

  // The wedge of a solid whose interior lies left of the line a -> b
  // through v (a half-plane of directions).
  void AddHalfPlane(Vec2 a, Vec2 b) {
    AddWedge(Wedge{.a1 = a, .b1 = b, .a2 = a, .b2 = b, .lines = 1});
  }

  // The wedge at a corner v of a counter-clockwise boundary prev -> v ->
  // next: inside both half-planes at a convex corner, either at a reflex one.
  void AddCorner(Vec2 prev, Vec2 next) {
    AddWedge(Wedge{.a1 = prev,
                   .b1 = v_,
                   .a2 = v_,
                   .b2 = next,
                   .lines = 2,
                   .either = Orient(prev, v_, next) < 0});
  }

  // A circle's outline from v, which lies outside it: the tangent lines at
  // the points T(phi) = c + radius (cos phi, sin phi) for phi from base -
  // alpha to base + alpha (base the direction from c to v, alpha =
  // acos(radius / |v - c|): T(base -+ alpha) are the tangent points), in k
  // steps of delta = 2 alpha / k <= max_arc_angle. Tangent lines at steps j
  // and j + 1 meet at c + radius / cos(delta / 2) (cos, sin)(phi_j + delta
  // / 2); those k corners, joined in order, are the outline (the first and
  // last lie on the tangent rays from v, whose parts beyond them hide no
  // area). k >= 2, since one step's corner would be v itself.
  void AddCircleOutline(Vec2 c, double radius, uint64_t shape_id) {
    const Vec2 w = v_ - c;
    const double distance = Length(w);
    if (!(distance > radius)) return;
    const double alpha = std::acos(radius / distance);
    const double base = std::atan2(w.y, w.x);
    const int k =
        std::max(2, static_cast<int>(std::ceil(2.0 * alpha / max_arc_angle_)));
    const double delta = 2.0 * alpha / k;
    const double reach = radius / std::cos(0.5 * delta);
    Vec2 previous{};
    for (int j = 0; j < k; ++j) {
      const double phi = base - alpha + (j + 0.5) * delta;
      const Vec2 corner{c.x + reach * std::cos(phi),
                        c.y + reach * std::sin(phi)};
      if (j > 0)
        Add(previous, corner, shape_id, PolygonVertexKind::kRoundPoint);
      previous = corner;
    }
  }

  void AddShape(const Level& level, const Level::Primitive& p) {
    const uint64_t id = level.id(p.shape);
    switch (p.kind) {
      case Level::PrimitiveKind::kSegment:
      case Level::PrimitiveKind::kPolylineEdge:
        // A wall along a line through v hides only that line's points.
        if (p.a != p.b && Orient(p.a, p.b, v_) != 0) {
          Add(p.a, p.b, id, PolygonVertexKind::kLevelVertex);
        }
        return;
      case Level::PrimitiveKind::kConvexPolygon: {
        const ConvexPolygon& polygon = level.convex_polygon(p.shape);
        const int n = polygon.count;
        for (int i = 0; i < n; ++i) {
          const Vec2 a = polygon.vertices[i];
          const Vec2 b = polygon.vertices[(i + 1) % n];
          if (OnSegment(v_, a, b)) {
            // On the boundary (not inside: the caller checked): at a
            // corner (v == b; the edge starting there is skipped) or on
            // an edge's interior.
            if (v_ == a) continue;
            if (v_ == b) {
              AddCorner(a, polygon.vertices[(i + 2) % n]);
            } else {
              AddHalfPlane(a, b);
            }
            // Nothing else of a convex shape hides anything from its
            // boundary.
            return;
          }
        }
        for (int i = 0; i < n; ++i) {
          const Vec2 a = polygon.vertices[i];
          const Vec2 b = polygon.vertices[(i + 1) % n];
          if (Orient(a, b, v_) < 0) {
            Add(a, b, id, PolygonVertexKind::kLevelVertex);
          }
        }
        return;
      }
      case Level::PrimitiveKind::kConcaveEdge: {
        const ConcavePolygon polygon = level.concave_polygon(p.shape);
        const int n = static_cast<int>(polygon.vertices.size());
        const int i = p.part;
        // Counter-clockwise order: reversed when the polygon is clockwise.
        const bool ccw = polygon.orientation > 0.0;
        const Vec2 a = ccw ? p.a : p.b;
        const Vec2 b = ccw ? p.b : p.a;
        if (OnSegment(v_, a, b)) {
          if (v_ == b) {
            // The corner v: the next edge counter-clockwise leaves b.
            const int next_index = ccw ? (i + 2) % n : (i - 1 + n) % n;
            AddCorner(a, polygon.vertices[next_index]);
          } else if (v_ != a) {
            AddHalfPlane(a, b);
          }
          return;
        }
        if (Orient(a, b, v_) < 0)
          Add(a, b, id, PolygonVertexKind::kLevelVertex);
        return;
      }
      case Level::PrimitiveKind::kCircle: {
        if (p.radius == 0.0) return;
        if (DistanceSquaredVs(v_, p.a, p.radius, 0.0, 0.0) == 0) {
          // Into the disc: directions d with Dot(d, c - v) > 0, the left
          // of v -> v + RightPerp(c - v).
          AddHalfPlane(v_, v_ + RightPerp(p.a - v_));
          return;
        }
        AddCircleOutline(p.a, p.radius, id);
        return;
      }
      case Level::PrimitiveKind::kCapsule: {
        if (p.radius == 0.0) return;
        const Vec2 axis = p.b - p.a;
        const double length_squared = Dot(axis, axis);
        // The nearest axis point to v, and whether v is on the boundary.
        double s =
            length_squared > 0.0 ? Dot(v_ - p.a, axis) / length_squared : 0.0;
        s = std::clamp(s, 0.0, 1.0);
        const Vec2 nearest = p.a + s * axis;
        if (!WithinBelow(v_, p.a, p.b, p.radius) &&
            OnCapsuleBoundary(p.a, p.b, p.radius)) {
          AddHalfPlane(v_, v_ + RightPerp(nearest - v_));
          return;
        }
        AddCircleOutline(p.a, p.radius, id);
        if (p.a == p.b) return;
        AddCircleOutline(p.b, p.radius, id);
        const Vec2 n = p.radius * Normalize(LeftPerp(axis));
        Add(p.a + n, p.b + n, id, PolygonVertexKind::kRoundPoint);
        Add(p.b - n, p.a - n, id, PolygonVertexKind::kRoundPoint);
        return;
      }
    }
  }

 private:
  // Whether the distance from v to [a, b] is exactly radius.
  bool OnCapsuleBoundary(Vec2 a, Vec2 b, double radius) const {
    if (DotSign(a, b, a, v_) <= 0) {
      return DistanceSquaredVs(v_, a, radius, 0.0, 0.0) == 0;
    }
    if (DotSign(b, a, b, v_) <= 0) {
      return DistanceSquaredVs(v_, b, radius, 0.0, 0.0) == 0;
    }
    return LineDistanceVs(a, b, v_, radius, 0.0, 0.0) == 0;
  }

  Vec2 v_;
  double range_;
  double max_arc_angle_;
  PolygonEdgeSink& sink_;
};

}  // namespace

void GatherPolygonEdges(const Level& level, Vec2 v, double range,
                        double max_arc_angle, const QueryFilter& filter,
                        PolygonEdgeSink& sink) {
  Gatherer gatherer(v, range, max_arc_angle, sink);
  const Level* layers[2] = {&level, level.base()};
  const uint64_t* removed[2] = {nullptr, level.removed_from_base().data()};
  // The box of the disc, an ulp-scale wider so that no rounding of its
  // corners loses a shape that reaches the circle.
  const double slack = 4e-16 * (std::abs(v.x) + std::abs(v.y) + range) +
                       std::numeric_limits<double>::denorm_min();
  const double reach = range + slack;
  const Aabb box{{v.x - reach, v.y - reach}, {v.x + reach, v.y + reach}};
  for (int i = 0; i < 2 && layers[i] != nullptr; ++i) {
    const Level& layer = *layers[i];
    layer.spatial_hash().VisitBox(box, [&](int32_t item) {
      const Level::Primitive& p = layer.primitive(item);
      if (!Occludes(layer, p, v, filter, removed[i])) return true;
      gatherer.AddShape(layer, p);
      return true;
    });
  }
}

bool WedgeCovers(const VisibilityPolygonAccess::Wedge& wedge, Vec2 v, Vec2 p,
                 int side) {
  // The side of the ray v -> p is the direction d + side * eps LeftPerp(d),
  // d = p - v: left of a -> b when Cross(b - a, d) > 0, or when it is 0 and
  // side * Dot(b - a, d) > 0.
  const auto left_of = [&](Vec2 a, Vec2 b) {
    const int cross = CrossSign(a, b, v, p);
    if (cross != 0) return cross > 0;
    return side * DotSign(a, b, v, p) > 0;
  };
  const bool first = left_of(wedge.a1, wedge.b1);
  if (wedge.lines == 1) return first;
  const bool second = left_of(wedge.a2, wedge.b2);
  return wedge.either ? (first || second) : (first && second);
}

}  // namespace collide::internal
