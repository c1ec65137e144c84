#include "convex_core.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/dcheck.h"
#include "collide/intersect.h"

namespace collide::internal {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Directions computed from offsets shorter than this share of the
// coordinates' scale are dominated by rounding.
constexpr double kSqrtEpsilon = 1.4901161193847656e-08;  // sqrt(2^-52)

double MaxAbs(Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); }

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

struct Interval {
  double lower;
  double upper;
};

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

Core::Core(Vec2 point, double radius, FeatureMap map)
    : vertices_(own_vertices_),
      normals_(own_normals_),
      count_(1),
      radius_(radius),
      map_(map),
      own_vertices_{point, point} {}

Core::Core(Vec2 p1, Vec2 p2, double radius, FeatureMap map)
    : vertices_(own_vertices_),
      normals_(own_normals_),
      count_(p1 == p2 ? 1 : 2),
      radius_(radius),
      map_(map),
      own_vertices_{p1, p2} {
  const Vec2 n = Normalize(RightPerp(p2 - p1));
  own_normals_[0] = n;
  own_normals_[1] = -n;
}

Core::Core(const ConvexPolygon& polygon, double radius)
    : vertices_(polygon.vertices.data()),
      normals_(polygon.normals.data()),
      count_(polygon.count),
      radius_(radius),
      map_(FeatureMap::kPolygon) {}

Feature Core::EdgeFeature(int edge) const {
  switch (map_) {
    case FeatureMap::kPoint:
      return {FeatureType::kVertex, 0};
    case FeatureMap::kCircle:
      return {FeatureType::kSurface, 0};
    case FeatureMap::kSegment:
      return {FeatureType::kEdge, 0};
    case FeatureMap::kPolygon:
      break;
  }
  return {FeatureType::kEdge, edge};
}

Feature Core::VertexFeature(int vertex) const {
  switch (map_) {
    case FeatureMap::kPoint:
      return {FeatureType::kVertex, 0};
    case FeatureMap::kCircle:
      return {FeatureType::kSurface, 0};
    case FeatureMap::kSegment:
    case FeatureMap::kPolygon:
      break;
  }
  return {FeatureType::kVertex, vertex};
}

double TouchTolerance(const Core& a, const Core& b, Vec2 d) {
  const double scale =
      MaxAbs(a.vertex(0) - b.vertex(0)) + a.radius() + b.radius() + MaxAbs(d);
  return kTouchRoundings * scale;
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

std::optional<double> SweepPointCircle(Vec2 p, Vec2 d, Vec2 c, double grow,
                                       double max_fraction) {
  const Vec2 m = p - c;
  const double b = Dot(d, m);
  if (b >= 0.0) return std::nullopt;  // not approaching
  const double a = Dot(d, d);
  // Discriminant of |m + t d|^2 = grow^2 written as a grow^2 - (d x m)^2,
  // which avoids the cancellation of b^2 - a c when the path passes far
  // from the centre.
  const double cross = Cross(d, m);
  const double discriminant = a * grow * grow - cross * cross;
  if (discriminant < 0.0) return std::nullopt;
  const double c0 = Dot(m, m) - grow * grow;
  if (c0 <= 0.0) return 0.0;
  // Smaller root in the stable form c / q (no -b - sqrt cancellation).
  const double t = c0 / (-b + std::sqrt(discriminant));
  if (t > max_fraction) return std::nullopt;
  return t;
}

namespace {

// Contact of a point sweep with a circle around b's vertex `vertex`.
std::optional<PointHit> SweepPointVertex(Vec2 p, Vec2 d, const Core& b,
                                         int vertex, double grow,
                                         double max_fraction) {
  const Vec2 c = b.vertex(vertex);
  const std::optional<double> t = SweepPointCircle(p, d, c, grow, max_fraction);
  if (!t) return std::nullopt;
  const Vec2 offset = (p - c) + *t * d;
  // A zero grow meets the vertex itself: face the mover.
  const Vec2 normal = grow > 0.0 ? Normalize(offset) : Normalize(-d);
  return PointHit{*t, normal, c, b.VertexFeature(vertex)};
}

// Point against segment [b0, b1] grown by `grow` (a capsule): the side
// lines first, then the end caps.
std::optional<PointHit> SweepPointSegment(Vec2 p, Vec2 d, const Core& b,
                                          double grow, double max_fraction) {
  const Vec2 a = b.vertex(0);
  const Vec2 e = b.vertex(1) - a;
  const Vec2 m = p - a;
  const Vec2 n = b.normal(0);
  const double distance = Dot(m, n);  // signed distance to the line
  const double rate = Dot(d, n);
  const double side = distance >= 0.0 ? 1.0 : -1.0;
  const auto cap = [&](int vertex) {
    return SweepPointVertex(p, d, b, vertex, grow, max_fraction);
  };
  if (side * rate < 0.0) {
    // Time at which the distance to the line falls to grow.
    const double t = (side * distance - grow) / (-side * rate);
    if (t > max_fraction) return std::nullopt;
    if (t >= 0.0) {
      const double along = Dot(m + t * d, e);
      const double length_squared = Dot(e, e);
      if (along < 0.0) return cap(0);
      if (along > length_squared) return cap(1);
      const Feature feature = along == 0.0 ? b.VertexFeature(0)
                              : along == length_squared
                                  ? b.VertexFeature(1)
                                  : b.EdgeFeature(side > 0.0 ? 0 : 1);
      return PointHit{t, side * n, a + (along / length_squared) * e, feature};
    }
  } else if (std::abs(distance) > grow) {
    return std::nullopt;  // outside the band and not closing on it
  }
  // Inside the band but beyond an end: only the caps can be met.
  std::optional<PointHit> first = cap(0);
  std::optional<PointHit> second = cap(1);
  if (!first) return second;
  if (second && second->fraction < first->fraction) return second;
  return first;
}

// A polygon core's edge lines as seen by points moving by d: per edge, the
// rate at which the signed distance changes, and the line's offset from a
// local origin (offsets from the origin, not from zero, keep the
// far-from-origin precision of subtracting coordinates first). Computed
// once per sweep instead of once per swept vertex.
struct EdgeLines {
  Vec2 origin;
  double offset[kMaxPolygonVertices];
  double rate[kMaxPolygonVertices];
};

EdgeLines LinesOf(const Core& b, Vec2 d) {
  EdgeLines lines;  // only the first b.count() entries are used
  lines.origin = b.vertex(0);
  for (int i = 0; i < b.count(); ++i) {
    lines.offset[i] = Dot(b.vertex(i) - lines.origin, b.normal(i));
    lines.rate[i] = Dot(d, b.normal(i));
  }
  return lines;
}

// Whether vertex i of polygon core b cannot be the first contact with points
// moving by the d of `lines` relative to it: both edges meeting there face
// away from (or along) those points' motion, so every contact normal at the
// vertex does too.
bool IsBackVertex(const Core& b, const EdgeLines& lines, int i) {
  return lines.rate[b.previous(i)] >= 0.0 && lines.rate[i] >= 0.0;
}

// SweepPoint against a polygon core (count >= 3) with its lines known.
std::optional<PointHit> SweepPointPolygon(Vec2 p, Vec2 d, const Core& b,
                                          const EdgeLines& lines, double grow,
                                          double max_fraction) {
  // Cyrus-Beck clipping against b's edge lines moved out by grow: the grown
  // polygon lies inside that clipped region and differs from it only in the
  // corner zones, where the vertex circles decide.
  const Vec2 local = p - lines.origin;
  double t_enter = -kInfinity;
  double t_exit = kInfinity;
  int enter = -1;
  for (int i = 0; i < b.count(); ++i) {
    const double distance = Dot(local, b.normal(i)) - lines.offset[i] - grow;
    const double rate = lines.rate[i];
    if (rate < 0.0) {
      // Only a line still ahead can be where the point enters; one already
      // crossed leaves the entry to the others or to a corner zone.
      if (distance > 0.0) {
        const double t = distance / -rate;
        if (t > max_fraction) return std::nullopt;  // enters too late
        if (t > t_enter) {
          t_enter = t;
          enter = i;
        }
      }
    } else if (distance > 0.0) {
      return std::nullopt;  // outside this line and not closing on it
    } else if (rate > 0.0) {
      t_exit = std::min(t_exit, distance / -rate);
    }
  }
  if (t_enter > t_exit) return std::nullopt;
  if (enter < 0) {
    // Already inside every moved edge line: in a corner zone.
    if (grow == 0.0) return std::nullopt;
    std::optional<PointHit> best;
    for (int j = 0; j < b.count(); ++j) {
      const std::optional<PointHit> h =
          SweepPointVertex(p, d, b, j, grow, max_fraction);
      if (h && (!best || h->fraction < best->fraction)) best = h;
    }
    return best;
  }
  const int next = b.next(enter);
  const Vec2 a = b.vertex(enter);
  const Vec2 e = b.vertex(next) - a;
  const double along = Dot((p - a) + t_enter * d, e);
  const double length_squared = Dot(e, e);
  if (grow > 0.0 && along < 0.0) {
    return SweepPointVertex(p, d, b, enter, grow, max_fraction);
  }
  if (grow > 0.0 && along > length_squared) {
    return SweepPointVertex(p, d, b, next, grow, max_fraction);
  }
  const double s = std::clamp(along / length_squared, 0.0, 1.0);
  const Feature feature = s == 0.0   ? b.VertexFeature(enter)
                          : s == 1.0 ? b.VertexFeature(next)
                                     : b.EdgeFeature(enter);
  return PointHit{t_enter, b.normal(enter), a + s * e, feature};
}

}  // namespace

std::optional<PointHit> SweepPoint(Vec2 p, Vec2 d, const Core& b, double grow,
                                   double max_fraction) {
  if (b.count() == 1) return SweepPointVertex(p, d, b, 0, grow, max_fraction);
  if (b.count() == 2) return SweepPointSegment(p, d, b, grow, max_fraction);
  return SweepPointPolygon(p, d, b, LinesOf(b, d), grow, max_fraction);
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

// Both cores projected on the motion d ("along") and on LeftPerp(d)
// ("across"), unnormalised (|d| times the distances), relative to b's first
// vertex. A point moving by d keeps its across value and gains |d|^2 of
// along per unit of fraction, and the other core grown by `grow` lies
// within its across and along ranges widened by grow |d|. So a vertex whose
// across value is outside that widened range, or whose along value is past
// it or cannot reach it by the current limit, cannot meet it: a cheap proof,
// before the exact point sweeps, that a vertex (or the whole pair, when the
// ranges themselves are apart) misses. The widening includes a margin of
// many rounding errors, so that only sweeps that miss by far more than
// rounding are skipped. Only pairs of extended cores moving by a nonzero d
// have shadows (present): a point core is one sweep, which is no dearer.
struct Shadow {
  bool present = false;
  double a_across[kMaxPolygonVertices];
  double a_along[kMaxPolygonVertices];
  double b_across[kMaxPolygonVertices];
  double b_along[kMaxPolygonVertices];
  Interval a_across_range;
  Interval a_along_range;
  Interval b_across_range;
  Interval b_along_range;
  double length;  // |d|
  double travel;  // |d|^2
  double margin;  // rounding allowance, in the projections' units
  double reach;   // grow |d| + margin
};

Shadow ShadowOf(const Core& a, Vec2 d, const Core& b, double grow,
                double max_fraction) {
  Shadow shadow;
  if (a.count() < 2 || b.count() < 2 || d == Vec2{}) return shadow;
  shadow.present = true;
  const Vec2 origin = b.vertex(0);
  const Vec2 across = LeftPerp(d);
  const auto project = [&](const Core& core, double* across_values,
                           double* along_values, Interval& across_range,
                           Interval& along_range) {
    across_range = {kInfinity, -kInfinity};
    along_range = {kInfinity, -kInfinity};
    for (int i = 0; i < core.count(); ++i) {
      const Vec2 v = core.vertex(i) - origin;
      across_values[i] = Dot(v, across);
      along_values[i] = Dot(v, d);
      across_range.lower = std::min(across_range.lower, across_values[i]);
      across_range.upper = std::max(across_range.upper, across_values[i]);
      along_range.lower = std::min(along_range.lower, along_values[i]);
      along_range.upper = std::max(along_range.upper, along_values[i]);
    }
  };
  project(a, shadow.a_across, shadow.a_along, shadow.a_across_range,
          shadow.a_along_range);
  project(b, shadow.b_across, shadow.b_along, shadow.b_across_range,
          shadow.b_along_range);
  shadow.travel = Dot(d, d);
  shadow.length = std::sqrt(shadow.travel);
  const double grown = grow * shadow.length;
  // Each projection is |v| |d| times a cosine, and |v| |d| is at most
  // |across| + |along| of the range ends. Twice the touching tolerance
  // (relative to these, grow and the motion) also makes the margin, divided
  // by |d|, exceed TouchTolerance, so shadows apart by the reach prove a
  // clear start too.
  const double extent =
      std::max({-shadow.a_across_range.lower, shadow.a_across_range.upper,
                -shadow.b_across_range.lower, shadow.b_across_range.upper}) +
      std::max({-shadow.a_along_range.lower, shadow.a_along_range.upper,
                -shadow.b_along_range.lower, shadow.b_along_range.upper});
  shadow.margin =
      2.0 * kTouchRoundings *
      (extent + grown + std::max(1.0, max_fraction) * shadow.travel);
  shadow.reach = grown + shadow.margin;
  return shadow;
}

// Whether the shadows show that no vertex of either core can meet the other
// within max_fraction: the cores' across ranges are apart, or b is behind a
// or beyond its reach along the motion. Such a pair also starts clear.
bool ShadowsMiss(const Shadow& s, double max_fraction) {
  return s.present &&
         (s.a_across_range.lower > s.b_across_range.upper + s.reach ||
          s.b_across_range.lower > s.a_across_range.upper + s.reach ||
          s.b_along_range.upper + s.reach < s.a_along_range.lower ||
          s.b_along_range.lower - s.reach >
              s.a_along_range.upper + max_fraction * s.travel);
}

// Whether b starts ahead of a along the motion by more than `clearance`.
bool ShadowsApart(const Shadow& s, double clearance) {
  return s.present && s.b_along_range.lower - s.a_along_range.upper >
                          clearance * s.length + s.margin;
}

// Whether vertex i of a, moving by d, may meet b by fraction `limit`.
bool AVertexMayHit(const Shadow& s, int i, double limit) {
  return !s.present ||
         (s.a_across[i] >= s.b_across_range.lower - s.reach &&
          s.a_across[i] <= s.b_across_range.upper + s.reach &&
          s.a_along[i] <= s.b_along_range.upper + s.reach &&
          s.a_along[i] + limit * s.travel >= s.b_along_range.lower - s.reach);
}

// Whether vertex j of b, moving by -d relative to a, may meet a by
// fraction `limit`.
bool BVertexMayHit(const Shadow& s, int j, double limit) {
  return !s.present ||
         (s.b_across[j] >= s.a_across_range.lower - s.reach &&
          s.b_across[j] <= s.a_across_range.upper + s.reach &&
          s.b_along[j] >= s.a_along_range.lower - s.reach &&
          s.b_along[j] - limit * s.travel <= s.a_along_range.upper + s.reach);
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
    if (!AVertexMayHit(shadow, i, limit)) continue;
    const std::optional<PointHit> h =
        b.count() >= 3
            ? SweepPointPolygon(a.vertex(i), d, b, b_lines, grow, limit)
            : SweepPoint(a.vertex(i), d, b, grow, limit);
    if (h && (!best || h->fraction < limit)) keep_a(*h);
  }
  for (int j = 0; j < b.count(); ++j) {
    if (b.count() >= 3 && IsBackVertex(b, b_lines, j)) continue;
    if (!BVertexMayHit(shadow, j, limit)) continue;
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
