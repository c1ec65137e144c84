// Certified distance bounds and contact certificates for turning pairs.
#include "pairs/turning_gap.h"

#include <cmath>
#include <limits>

namespace collide::internal {
namespace {

constexpr double u = kUnitRoundoff;

// The nearest point of segment [p, q] to x (p == q allowed), and the
// direction from x towards it. The computed point lies within a few
// roundings of the segment's extent of a true point of the segment, and
// its distance to x exceeds the true distance by at most that much. The
// direction is the edge's normal when the nearest point is inside the
// edge: the difference of two nearly equal points would carry their
// rounding into its angle.
struct Nearest {
  Vec2 point;
  Vec2 towards;
};
inline Nearest NearestOnSegment(Vec2 x, Vec2 p, Vec2 q) {
  const Vec2 pq = q - p;
  const double length_squared = Dot(pq, pq);
  if (!(length_squared > 0.0)) return {p, p - x};
  const double tau = Dot(x - p, pq) / length_squared;
  if (tau <= 0.0) return {p, p - x};
  if (tau >= 1.0) return {q, q - x};
  const Vec2 normal = LeftPerp(pq);
  return {p + tau * pq, Cross(pq, x - p) > 0.0 ? -normal : normal};
}

// The number of edges of a pose: a point has one degenerate edge, a
// segment one, a polygon one per vertex.
inline int32_t EdgeCount(const TurnPose& pose) {
  return pose.count <= 2 ? 1 : pose.count;
}
inline Vec2 EdgeEnd(const TurnPose& pose, int32_t i) {
  // The next vertex, wrapping to the first (a point's edge ends where it
  // starts); no division.
  return pose.vertices[i + 1 == pose.count ? 0 : i + 1];
}

// Updates the nearest pair with the vertices of `from` against the edges
// of `to`; the axis points from a towards b.
inline void NearestVertexEdge(const TurnPose& from, const TurnPose& to,
                              bool from_is_a, double* best, TurnGap* gap) {
  const int32_t edges = EdgeCount(to);
  for (int32_t i = 0; i < from.count; ++i) {
    const Vec2 x = from.vertices[i];
    for (int32_t e = 0; e < edges; ++e) {
      const Vec2 p = to.vertices[e];
      const Vec2 q = EdgeEnd(to, e);
      const Nearest nearest = NearestOnSegment(x, p, q);
      const double d2 = LengthSquared(x - nearest.point);
      if (d2 < *best) {
        *best = d2;
        const double sign = from_is_a ? 1.0 : -1.0;
        gap->on_a = from_is_a ? x : nearest.point;
        gap->on_b = from_is_a ? nearest.point : x;
        gap->axis = sign * nearest.towards;
        gap->end_axes[0] = sign * (p - x);
        gap->end_axes[1] = sign * (q - x);
      }
    }
  }
}

// The orientation of x against the directed line p -> q (positive on its
// left) and a bound on its error, given the poses' error bounds.
struct Orient {
  double value;
  double error;
};
inline Orient OrientOf(Vec2 p, Vec2 q, Vec2 x, double error_pq,
                       double error_x) {
  const Vec2 pq = q - p;
  const Vec2 px = x - p;
  const double e = error_pq + error_x;
  const double a = L1(pq);
  const double b = L1(px);
  return {Cross(pq, px), 3.0 * e * (a + b) + 4.0 * e * e + 8.0 * u * a * b +
                             std::numeric_limits<double>::denorm_min()};
}

inline bool CertainlyLeft(Orient o) { return o.value > o.error; }
inline bool CertainlyRight(Orient o) { return o.value < -o.error; }

// A vertex of `inner` strictly inside polygon `outer` (count >= 3).
bool VertexInside(const TurnPose& inner, const TurnPose& outer) {
  if (outer.count < 3) return false;
  for (int32_t i = 0; i < inner.count; ++i) {
    bool inside = true;
    for (int32_t e = 0; e < outer.count && inside; ++e) {
      inside =
          CertainlyLeft(OrientOf(outer.vertices[e], EdgeEnd(outer, e),
                                 inner.vertices[i], outer.error, inner.error));
    }
    if (inside) return true;
  }
  return false;
}

// Endpoints of [p, q] certainly on opposite sides of the line r -> s.
inline bool Straddles(Vec2 p, Vec2 q, double error_pq, Vec2 r, Vec2 s,
                      double error_rs) {
  const Orient op = OrientOf(r, s, p, error_rs, error_pq);
  const Orient oq = OrientOf(r, s, q, error_rs, error_pq);
  return (CertainlyLeft(op) && CertainlyRight(oq)) ||
         (CertainlyRight(op) && CertainlyLeft(oq));
}

bool EdgesCross(const TurnPose& a, const TurnPose& b) {
  if (a.count < 2 || b.count < 2) return false;
  for (int32_t i = 0; i < EdgeCount(a); ++i) {
    const Vec2 p = a.vertices[i];
    const Vec2 q = EdgeEnd(a, i);
    for (int32_t j = 0; j < EdgeCount(b); ++j) {
      const Vec2 r = b.vertices[j];
      const Vec2 s = EdgeEnd(b, j);
      if (Straddles(p, q, a.error, r, s, b.error) &&
          Straddles(r, s, b.error, p, q, a.error)) {
        return true;
      }
    }
  }
  return false;
}

// Whether the point stays strictly inside the segment's extent (by more
// than `margin`) and on which side of its line it certainly is: +1 left,
// -1 right, 0 unknown or outside the extent.
int SideWithin(Vec2 x, double error_x, Vec2 p, Vec2 q, double error_pq,
               double motion) {
  const Vec2 pq = q - p;
  const double length = Length(pq);
  if (!(length > 0.0)) return 0;
  const double e = error_x + error_pq;
  const double reach = Max(L1(x - p), L1(x - q));
  // The projection's own error, and how far it can drift while every
  // vertex moves at most `motion`: the point and the ends move, and the
  // segment's direction turns by at most 2 * 2 motion / length.
  const double margin = 2.0 * e + 16.0 * u * (reach + L1(pq)) +
                        motion * (2.0 + 4.0 * reach / length);
  if (!(Dot(x - p, pq) > margin * length * (1.0 + 0x1p-40)) ||
      !(Dot(x - q, p - q) > margin * length * (1.0 + 0x1p-40))) {
    return 0;
  }
  const Orient o = OrientOf(p, q, x, error_pq, error_x);
  if (CertainlyLeft(o)) return 1;
  if (CertainlyRight(o)) return -1;
  return 0;
}

// The projections of a and b on `axis` (from a towards b) apart by more
// than `errors`: each dot product rounds by at most a few u times the
// pose's size, which `errors` covers with room to spare.
bool Separates(const TurnPose& a, const TurnPose& b, Vec2 direction,
               double errors, Vec2* separating) {
  const Vec2 axis = Normalize(direction);
  *separating = axis;
  if (axis == Vec2{}) return false;
  double a_max = -std::numeric_limits<double>::infinity();
  double b_min = std::numeric_limits<double>::infinity();
  for (int32_t i = 0; i < a.count; ++i) {
    const double d = Dot(axis, a.vertices[i]);
    a_max = d > a_max ? d : a_max;
  }
  for (int32_t i = 0; i < b.count; ++i) {
    const double d = Dot(axis, b.vertices[i]);
    b_min = d < b_min ? d : b_min;
  }
  return b_min - a_max > errors;
}

// Some edge normal of either hull separates them (the separating axis
// test, for nearest pairs chosen within rounding of a tie between a vertex
// and an edge next to it).
bool EdgeNormalSeparates(const TurnPose& a, const TurnPose& b, double errors,
                         Vec2* separating) {
  if (a.count >= 2) {
    for (int32_t e = 0; e < EdgeCount(a); ++e) {
      const Vec2 normal = RightPerp(EdgeEnd(a, e) - a.vertices[e]);
      if (Separates(a, b, normal, errors, separating) ||
          Separates(a, b, -normal, errors, separating)) {
        return true;
      }
    }
  }
  if (b.count >= 2) {
    for (int32_t e = 0; e < EdgeCount(b); ++e) {
      const Vec2 normal = RightPerp(EdgeEnd(b, e) - b.vertices[e]);
      if (Separates(a, b, normal, errors, separating) ||
          Separates(a, b, -normal, errors, separating)) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

TurnGap GapBetween(const TurnPose& a, const TurnPose& b) {
  TurnGap gap;
  double best = std::numeric_limits<double>::infinity();
  NearestVertexEdge(a, b, /*from_is_a=*/true, &best, &gap);
  NearestVertexEdge(b, a, /*from_is_a=*/false, &best, &gap);
  const double d = std::sqrt(best);
  const double size = Max(a.largest_l1, b.largest_l1);
  const double radii = a.radius + b.radius;
  const double rounding = 64.0 * u * (size + radii);
  const double errors = a.error + b.error + rounding;
  gap.upper = d * (1.0 + 4.0 * u) + errors - radii;
  gap.lower = -1.0;
  if (!(d > errors)) return gap;
  // The hulls are disjoint if their projections on the nearest pair's
  // axis are apart by more than the errors. Where the nearest point is
  // within rounding of an edge's end, the edge's normal may not separate
  // (the other hull's corner reaches past the end): the directions to the
  // edge's ends are tried next.
  Vec2* const separating = &gap.separating;
  if (!Separates(a, b, gap.axis, errors, separating) &&
      !Separates(a, b, gap.end_axes[0], errors, separating) &&
      !Separates(a, b, gap.end_axes[1], errors, separating) &&
      !EdgeNormalSeparates(a, b, errors, separating)) {
    return gap;
  }
  gap.errors = errors;
  // Disjoint hulls: their distance is the smallest vertex-to-edge distance.
  gap.lower = d * (1.0 - 4.0 * u) - errors - radii;
  return gap;
}

namespace {

// The first root of h + v s - k s^2 / 2 (h > 0), rationalized: 2h /
// (sqrt(v^2 + 2kh) - v), which stays accurate when v > 0; infinity when
// the bound never reaches 0.
inline double FirstRoot(double h, double v, double k) {
  const double denominator = std::sqrt(v * v + 2.0 * k * h) - v;
  return denominator > 0.0 ? 2.0 * h / denominator
                           : std::numeric_limits<double>::infinity();
}

// The axis fixed in the level's frame.
double FixedAxisSeparatedFor(const TurnPose& a, const TurnBody& body_a,
                             const TurnPose& b, const TurnBody& body_b,
                             const TurnGap& gap) {
  const Vec2 n = gap.separating;
  // Along a fixed axis n, a vertex's projection n . x(t) has derivative
  // n . T + angle * Cross(x - pivot, n) and second derivative at most
  // angle^2 * reach in magnitude, so each vertex pair's projected gap h
  // satisfies h(t + s) >= h + v s - K s^2 / 2 with K the two bounds'
  // sum. Values and derivatives are computed from the poses, so both are
  // lowered by their error bounds first.
  const double k = (body_a.angle * body_a.angle * body_a.reach +
                    body_b.angle * body_b.angle * body_b.reach) *
                   (1.0 + 0x1p-40);
  const double size = Max(a.largest_l1, b.largest_l1);
  const double speed_size =
      L1(body_a.translation) + L1(body_b.translation) +
      std::fabs(body_a.angle) * (body_a.reach + 2.0 * size) +
      std::fabs(body_b.angle) * (body_b.reach + 2.0 * size);
  const double value_error = gap.errors + a.radius + b.radius;
  const double rate_error = 2.0 * (std::fabs(body_a.angle) * a.error +
                                   std::fabs(body_b.angle) * b.error) +
                            32.0 * u * speed_size;
  const double a_speed = Dot(n, body_a.translation);
  const double b_speed = Dot(n, body_b.translation);
  double shortest = std::numeric_limits<double>::infinity();
  for (int32_t j = 0; j < b.count; ++j) {
    const Vec2 y = b.vertices[j];
    const double y_along = Dot(n, y);
    const double y_rate = b_speed + body_b.angle * Cross(y - b.pivot, n);
    for (int32_t i = 0; i < a.count; ++i) {
      const Vec2 x = a.vertices[i];
      // n is unit to within rounding: 2^-40 of the gap covers dividing by
      // its length.
      const double h = (y_along - Dot(n, x)) * (1.0 - 0x1p-40) - value_error;
      if (!(h > 0.0)) return 0.0;
      const double v = y_rate -
                       (a_speed + body_a.angle * Cross(x - a.pivot, n)) -
                       rate_error;
      const double root = FirstRoot(h, v, k);
      shortest = root < shortest ? root : shortest;
    }
  }
  return shortest * (1.0 - 0x1p-40);
}

// The axis m (unit, from F towards O) fixed in F's frame: it turns with F
// about F's pivot. F's hull stays behind the line through F's support
// point along m, which moves with F, so only O's vertices w move relative
// to it; each one's height over it, phi(s) = m(s) . (w(s) - p_F(s)) minus
// F's (constant) support, has derivative
//   m . (T_O - T_F) + angle_O Cross(w - p_O, m) + angle_F Cross(m, w - p_F)
// and, writing d = w - p_F and V = T_O - T_F, second derivative (in F's
// frame, d'' - 2 angle_F J d' - angle_F^2 d) at most
//   angle_O^2 reach_O + 2 |angle_F| (|V| + |angle_O| reach_O)
//     + angle_F^2 (|d| + |V| + |angle_O| reach_O)
// over a step of at most 1. Near a contact of O's vertex with F's edge,
// m is that edge's normal and turns with it, so the step converges on the
// contact like Newton's method where an axis fixed in the level lags
// behind the edge's far end.
double FrameSeparatedFor(const TurnPose& f, const TurnBody& body_f,
                         const TurnPose& o, const TurnBody& body_o, Vec2 m,
                         double value_error) {
  double support = -std::numeric_limits<double>::infinity();
  for (int32_t i = 0; i < f.count; ++i) {
    const double d = Dot(m, f.vertices[i]);
    support = d > support ? d : support;
  }
  const double af = std::fabs(body_f.angle);
  const double ao = std::fabs(body_o.angle);
  const double size =
      Max(f.largest_l1, o.largest_l1) + L1(f.pivot) + L1(o.pivot);
  // |V| <= L1(T_O) + L1(T_F); |d| <= L1(w) + L1(p_F) plus the pose error.
  const double relative = L1(body_o.translation) + L1(body_f.translation);
  const double o_speed = relative + ao * body_o.reach;
  const double k_base = (ao * ao * body_o.reach + 2.0 * af * o_speed +
                         af * af * (o_speed + o.error + f.error));
  const double speed_size =
      relative + ao * (body_o.reach + 2.0 * size) + af * 2.0 * size;
  const double rate_error =
      2.0 * (ao * 2.0 * o.error + af * (o.error + f.error)) +
      32.0 * u * speed_size;
  const double along = Dot(m, body_o.translation - body_f.translation);
  double shortest = std::numeric_limits<double>::infinity();
  for (int32_t j = 0; j < o.count; ++j) {
    const Vec2 w = o.vertices[j];
    // m is unit to within rounding: 2^-40 of the gap covers it.
    const double h = (Dot(m, w) - support) * (1.0 - 0x1p-40) - value_error;
    if (!(h > 0.0)) return 0.0;
    const Vec2 d = w - f.pivot;
    const double v = along + body_o.angle * Cross(w - o.pivot, m) +
                     body_f.angle * Cross(m, d) - rate_error;
    const double k = (k_base + af * af * L1(d)) * (1.0 + 0x1p-40);
    const double root = FirstRoot(h, v, k);
    shortest = root < shortest ? root : shortest;
  }
  return shortest * (1.0 - 0x1p-40);
}

}  // namespace

double SeparatedFor(const TurnPose& a, const TurnBody& body_a,
                    const TurnPose& b, const TurnBody& body_b,
                    const TurnGap& gap, double enough) {
  // With a shape that does not turn, its frame is the level's and the
  // axis fixed in the level adds nothing; with both turning, it can beat
  // either frame (its curvature has no Coriolis term).
  const double value_error = gap.errors + a.radius + b.radius;
  const double in_a =
      FrameSeparatedFor(a, body_a, b, body_b, gap.separating, value_error);
  if (in_a > enough) return in_a;
  const double in_b = Max(
      in_a,
      FrameSeparatedFor(b, body_b, a, body_a, -gap.separating, value_error));
  if (in_b > enough) return in_b;
  const double fixed = body_a.angle != 0.0 && body_b.angle != 0.0
                           ? FixedAxisSeparatedFor(a, body_a, b, body_b, gap)
                           : 0.0;
  return Max(fixed, in_b);
}

bool CertainlyInContact(const TurnPose& a, const TurnPose& b,
                        const TurnGap& gap) {
  if (gap.upper <= 0.0) return true;
  return VertexInside(a, b) || VertexInside(b, a) || EdgesCross(a, b);
}

bool CertainlyCrossed(const TurnPose& a0, const TurnPose& b0,
                      const TurnPose& a1, const TurnPose& b1, double motion) {
  if (a0.radius != 0.0 || b0.radius != 0.0) return false;
  const bool point_is_a = a0.count == 1 && b0.count == 2;
  if (!point_is_a && !(a0.count == 2 && b0.count == 1)) return false;
  const TurnPose& x0 = point_is_a ? a0 : b0;
  const TurnPose& s0 = point_is_a ? b0 : a0;
  const TurnPose& x1 = point_is_a ? a1 : b1;
  const TurnPose& s1 = point_is_a ? b1 : a1;
  const int before = SideWithin(x0.vertices[0], x0.error, s0.vertices[0],
                                s0.vertices[1], s0.error, motion);
  const int after = SideWithin(x1.vertices[0], x1.error, s1.vertices[0],
                               s1.vertices[1], s1.error, motion);
  return before != 0 && after == -before;
}

}  // namespace collide::internal
