#include "client/svg/svg_geometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "absl/types/span.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

constexpr double kQuarterTurn = std::numbers::pi / 2.0;
// At most this many samples per quarter turn of arc: bounds the output for
// huge radii, where the tolerance cannot be met anyway.
constexpr int kMaxSamplesPerQuarter = 512;

double DistanceToSegment(Vec2 a, Vec2 b, Vec2 p) {
  const Vec2 ab = b - a;
  const double length_squared = LengthSquared(ab);
  double t = length_squared > 0.0 ? Dot(p - a, ab) / length_squared : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return Length(p - (a + t * ab));
}

Vec2 ClampTo(Vec2 p, const Aabb& rect) {
  return {std::clamp(p.x, rect.lower.x, rect.upper.x),
          std::clamp(p.y, rect.lower.y, rect.upper.y)};
}

// The point a + t * d, on side `side` of `rect` (0 left, 1 right, 2 bottom,
// 3 top; -1: none, t is then 0) with that coordinate set exactly.
Vec2 OnSide(Vec2 a, Vec2 d, double t, int side, const Aabb& rect) {
  if (side < 0) return a;
  Vec2 p = a + t * d;
  switch (side) {
    case 0:
      p.x = rect.lower.x;
      break;
    case 1:
      p.x = rect.upper.x;
      break;
    case 2:
      p.y = rect.lower.y;
      break;
    default:
      p.y = rect.upper.y;
  }
  return p;
}

// One side of the clip rectangle as a half-plane: coordinate `axis` (0 x,
// 1 y) >= value when `keep_above`, else <= value.
struct ClipEdge {
  int axis;
  double value;
  bool keep_above;

  double Coordinate(Vec2 p) const { return axis == 0 ? p.x : p.y; }
  bool Inside(Vec2 p) const {
    return keep_above ? Coordinate(p) >= value : Coordinate(p) <= value;
  }
  // Where segment a-b crosses the edge's line (a and b on opposite sides);
  // the crossing coordinate is set exactly so later edges see it on the line.
  Vec2 Crossing(Vec2 a, Vec2 b) const {
    const double t = (value - Coordinate(a)) / (Coordinate(b) - Coordinate(a));
    Vec2 p = a + t * (b - a);
    (axis == 0 ? p.x : p.y) = value;
    return p;
  }
};

// Appends the samples of the arc of `radius` about `center` from angle
// `start` (radians, counter-clockwise in the coordinates' mathematical
// sense) over `sweep` <= a quarter turn, excluding the arc's end point.
void SampleArcPiece(Vec2 center, double radius, double start, double sweep,
                    const Aabb& rect, double tolerance,
                    std::vector<Vec2>& out) {
  const Vec2 u = {std::cos(start), std::sin(start)};
  const Vec2 v = LeftPerp(u);
  // Rotating the start direction by `offset` rather than evaluating the
  // angle start + offset keeps tiny offsets exact at huge radii.
  auto at = [&](double offset) {
    return center + radius * (std::cos(offset) * u + std::sin(offset) * v);
  };
  out.push_back(at(0.0));

  // The part of the piece that can come near `rect`: all of it when the
  // centre is near the rectangle, else the angles under which the
  // rectangle's circumscribed circle is seen from the centre, widened by
  // half so chords outside it stay clear of the rectangle.
  double lo = 0.0;
  double hi = sweep;
  const Vec2 rect_center = 0.5 * (rect.lower + rect.upper);
  const double rect_radius = 0.5 * Length(rect.upper - rect.lower);
  const Vec2 to_rect = rect_center - center;
  const double rho = Length(to_rect);
  if (rho > 2.0 * rect_radius) {
    const double half_width = 1.5 * std::asin(rect_radius / rho);
    const double delta = std::remainder(
        std::atan2(Cross(u, to_rect), Dot(u, to_rect)), 2.0 * std::numbers::pi);
    lo = sweep;
    hi = sweep;
    for (double shifted : {delta, delta - 2.0 * std::numbers::pi,
                           delta + 2.0 * std::numbers::pi}) {
      const double window_lo = std::max(0.0, shifted - half_width);
      const double window_hi = std::min(sweep, shifted + half_width);
      if (window_lo < window_hi) {
        lo = window_lo;
        hi = window_hi;
        break;
      }
    }
    if (lo >= hi) return;  // the piece stays away from the rectangle
  }
  // The angle step whose chord strays `tolerance` from the arc (sagitta).
  double step = radius > tolerance ? 2.0 * std::acos(1.0 - tolerance / radius)
                                   : kQuarterTurn;
  step = std::max(step, (hi - lo) / kMaxSamplesPerQuarter);
  const int count = static_cast<int>(std::ceil((hi - lo) / step));
  for (int i = 0; i <= count; ++i) {
    const double offset = std::min(hi, lo + i * step);
    if (offset > 0.0 && offset < sweep) out.push_back(at(offset));
  }
}

void SampleArc(Vec2 center, double radius, double start, double sweep,
               const Aabb& rect, double tolerance, std::vector<Vec2>& out) {
  const int pieces =
      std::max(1, static_cast<int>(std::ceil(sweep / kQuarterTurn - 1e-9)));
  const double piece = sweep / pieces;
  for (int i = 0; i < pieces; ++i) {
    SampleArcPiece(center, radius, start + i * piece, piece, rect, tolerance,
                   out);
  }
}

}  // namespace

std::vector<Vec2> ConvexHull(absl::Span<const Vec2> points) {
  std::vector<Vec2> sorted(points.begin(), points.end());
  std::sort(sorted.begin(), sorted.end(), [](Vec2 a, Vec2 b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (sorted.size() <= 2) return sorted;
  // Andrew's monotone chain: the lower hull left to right, then the upper
  // hull right to left, popping every turn that is not strictly
  // counter-clockwise (which also drops collinear points).
  std::vector<Vec2> hull(2 * sorted.size());
  size_t k = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    while (k >= 2 &&
           Cross(hull[k - 1] - hull[k - 2], sorted[i] - hull[k - 2]) <= 0.0) {
      --k;
    }
    hull[k++] = sorted[i];
  }
  for (size_t i = sorted.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower &&
           Cross(hull[k - 1] - hull[k - 2], sorted[i] - hull[k - 2]) <= 0.0) {
      --k;
    }
    hull[k++] = sorted[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

double DistanceToConvex(absl::Span<const Vec2> hull, Vec2 point) {
  if (hull.empty()) return INFINITY;
  if (hull.size() == 1) return Length(point - hull[0]);
  if (hull.size() == 2) return DistanceToSegment(hull[0], hull[1], point);
  bool inside = true;
  double distance = INFINITY;
  for (size_t i = 0; i < hull.size(); ++i) {
    const Vec2 a = hull[i];
    const Vec2 b = hull[(i + 1) % hull.size()];
    if (Cross(b - a, point - a) < 0.0) inside = false;
    distance = std::min(distance, DistanceToSegment(a, b, point));
  }
  return inside ? 0.0 : distance;
}

Aabb BoundsOf(absl::Span<const Vec2> points, double radius) {
  Aabb box = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
  for (Vec2 p : points) {
    box.lower = {std::min(box.lower.x, p.x), std::min(box.lower.y, p.y)};
    box.upper = {std::max(box.upper.x, p.x), std::max(box.upper.y, p.y)};
  }
  box.lower = box.lower - Vec2{radius, radius};
  box.upper = box.upper + Vec2{radius, radius};
  return box;
}

bool Contains(const Aabb& outer, const Aabb& inner) {
  return inner.lower.x >= outer.lower.x && inner.lower.y >= outer.lower.y &&
         inner.upper.x <= outer.upper.x && inner.upper.y <= outer.upper.y;
}

bool Overlaps(const Aabb& a, const Aabb& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x &&
         a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}

std::vector<Vec2> ClipPolygon(absl::Span<const Vec2> polygon,
                              const Aabb& rect) {
  std::vector<Vec2> current(polygon.begin(), polygon.end());
  const ClipEdge edges[] = {{0, rect.lower.x, true},
                            {0, rect.upper.x, false},
                            {1, rect.lower.y, true},
                            {1, rect.upper.y, false}};
  std::vector<Vec2> next;
  for (const ClipEdge& edge : edges) {
    next.clear();
    for (size_t i = 0; i < current.size(); ++i) {
      const Vec2 a = current[i];
      const Vec2 b = current[(i + 1) % current.size()];
      const bool a_inside = edge.Inside(a);
      const bool b_inside = edge.Inside(b);
      if (a_inside) next.push_back(a);
      if (a_inside != b_inside) next.push_back(edge.Crossing(a, b));
    }
    current.swap(next);
  }
  // Rounding in a crossing can leave a coordinate a hair outside an edge
  // clipped earlier: the promise is that nothing lies outside `rect`.
  for (Vec2& p : current) p = ClampTo(p, rect);
  return current;
}

std::vector<std::vector<Vec2>> ClipChain(absl::Span<const Vec2> points,
                                         bool closed, const Aabb& rect) {
  std::vector<std::vector<Vec2>> pieces;
  const size_t edge_count =
      points.size() < 2 ? 0 : (closed ? points.size() : points.size() - 1);
  bool continues = false;  // the previous edge ended inside, unclipped
  for (size_t i = 0; i < edge_count; ++i) {
    const Vec2 a = points[i];
    const Vec2 b = points[(i + 1) % points.size()];
    const Vec2 d = b - a;
    // Liang-Barsky: p * t <= q for each side of the rectangle. The side
    // that sets t0 (t1) is remembered: the point there gets that side's
    // coordinate exactly, which a + t * d loses when a and b are far apart.
    double t0 = 0.0;
    double t1 = 1.0;
    int side0 = -1;
    int side1 = -1;
    bool visible = true;
    const double p[4] = {-d.x, d.x, -d.y, d.y};
    const double q[4] = {a.x - rect.lower.x, rect.upper.x - a.x,
                         a.y - rect.lower.y, rect.upper.y - a.y};
    for (int side = 0; side < 4 && visible; ++side) {
      if (p[side] == 0.0) {
        if (q[side] < 0.0) visible = false;
      } else {
        const double t = q[side] / p[side];
        if (p[side] < 0.0 && t > t0) {
          t0 = t;
          side0 = side;
        } else if (p[side] > 0.0 && t < t1) {
          t1 = t;
          side1 = side;
        }
        if (t0 > t1) visible = false;
      }
    }
    if (!visible) {
      continues = false;
      continue;
    }
    const Vec2 from = ClampTo(OnSide(a, d, t0, side0, rect), rect);
    const Vec2 to = side1 < 0 ? ClampTo(b, rect)
                              : ClampTo(OnSide(a, d, t1, side1, rect), rect);
    if (!(continues && side0 < 0)) pieces.push_back({from});
    pieces.back().push_back(to);
    continues = side1 < 0;
  }
  return pieces;
}

std::vector<Vec2> RoundedOutline(absl::Span<const Vec2> hull, double radius,
                                 const Aabb& rect, double tolerance) {
  std::vector<Vec2> outline;
  if (hull.size() == 1) {
    SampleArc(hull[0], radius, 0.0, 2.0 * std::numbers::pi, rect, tolerance,
              outline);
    return outline;
  }
  // Around each vertex, an arc from the outward normal of the edge arriving
  // there to that of the edge leaving it; the straight offset edges join the
  // arcs' ends. A 2-point hull is a stadium: two edges, two half turns.
  const size_t n = hull.size();
  std::vector<double> normal_angle(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec2 normal = RightPerp(hull[(i + 1) % n] - hull[i]);
    normal_angle[i] = std::atan2(normal.y, normal.x);
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t next = (i + 1) % n;
    double sweep = normal_angle[next] - normal_angle[i];
    if (sweep < 0.0) sweep += 2.0 * std::numbers::pi;
    // A convex counter-clockwise hull turns by (0, pi] at each vertex; a
    // value near a full turn is a rounding artefact of a straight one.
    if (sweep > 1.5 * std::numbers::pi) sweep = 0.0;
    SampleArc(hull[next], radius, normal_angle[i], sweep, rect, tolerance,
              outline);
    outline.push_back(hull[next] + radius * Vec2{std::cos(normal_angle[next]),
                                                 std::sin(normal_angle[next])});
  }
  return outline;
}

}  // namespace collide::client::svg_internal
