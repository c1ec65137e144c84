// VisibilityPolygon (collide/visibility_polygon.h): a rotational sweep.
//
// The occluders within the range become edges (visibility_polygon_edges.h).
// The directions where the nearest edge can change are the edges' ends, the
// wedges' boundary rays, and where edges cross; the first two are sorted
// exactly by angle (a sector by the exact test against fixed sector
// boundary rays, then Orient within the sector). At each such direction
// the nearest edge is found twice, for the rays just clockwise and just
// counter-clockwise of it, among the edges filed in that sector; the two
// limits give the polygon's vertices on that ray. Between two directions
// the nearest edge changes only where another edge crosses in front of it,
// which a search of the sector's edges finds in angular order: which of
// two crossings comes first, and whether one lies before the next ray, are
// signs of degree-4 forms in the inputs, filtered with an exact fallback.
//
// Which edge is nearest just beside a ray is decided exactly: an edge's
// end on the ray (level vertices collinear with the viewer, shapes
// touching at a vertex) by signs of Orient and Dot, two edges crossing the
// ray in their interiors by their crossing parameters (filtered, with an
// exact fallback), and a tie at one point by which edge hides the other
// beside the ray. Only the emitted crossing points are rounded.
#include "collide/visibility_polygon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

#include "absl/types/span.h"
#include "collide/dcheck.h"
#include "collide/level.h"
#include "collide/shapes.h"
#include "exact/exact_time.h"
#include "exact/sign.h"
#include "visibility/occluders.h"
#include "visibility/visibility_polygon_edges.h"

namespace collide {
namespace {

using Edge = VisibilityPolygonAccess::Edge;
using Direction = VisibilityPolygonAccess::Direction;
using Bin = VisibilityPolygonAccess::Bin;
using Wedge = VisibilityPolygonAccess::Wedge;

// At least this many sectors, and one per kEdgesPerSector edges, so that a
// sector holds few edges.
constexpr int32_t kMinSectors = 256;
constexpr int32_t kEdgesPerSector = 2;
// The most sectors: 2 pi / kMinArcAngle chords.
constexpr int32_t kMaxSectors = 6284;
constexpr int32_t kEntriesPerEdge = 16;
constexpr int32_t kMaxWedges = 64;

// Relative to |v| + range: far beyond the rounding of any distance here.
constexpr double kReachSlack = 1e-9;

// The sine of the angle by which a rounded crossing point may fall before
// the previous vertex's ray and still be emitted: a few hundred roundings
// of the point and of the cross product, far below the error bound.
constexpr double kRayTolerance = 0x1p-44;

constexpr int32_t kRangeLimit = -1;
constexpr int32_t kViewerLimit = -2;

// What a ray just to one side of a direction meets first.
struct Limit {
  int32_t edge = kRangeLimit;  // or kViewerLimit
  // The edge's end `end` (0: a, 1: b) lies on the ray: the limit is that
  // point exactly. Otherwise the edge crosses the ray at parameter t along
  // p - v.
  int32_t end = -1;
  double t = 0.0;
};

// Orient, answering a repeated point without the exact fallback (a
// direction's own point is often an end of the edges tested against it).
int Orient(Vec2 a, Vec2 b, Vec2 c) {
  if (c == b || c == a || a == b) return 0;
  return internal::Orient(a, b, c);
}

bool ViewerInside(const Level& level, Vec2 v, const QueryFilter& filter) {
  if (internal::InsideOccluder(level, nullptr, v, filter)) return true;
  const Level* base = level.base();
  return base != nullptr &&
         internal::InsideOccluder(*base, level.removed_from_base().data(), v,
                                  filter);
}

class Sweep {
 public:
  Sweep(Vec2 v, const VisibilityPolygonOptions& options,
        absl::Span<const Edge> edges, absl::Span<const double> near,
        absl::Span<const Wedge> wedges, absl::Span<const Bin> bins,
        absl::Span<const int32_t> entries, int32_t sectors,
        absl::Span<VisibilityPolygonVertex> out)
      : v_(v),
        range_(options.range),
        edges_(edges),
        near_(near),
        wedges_(wedges),
        bins_(bins),
        entries_(entries),
        sectors_(sectors),
        out_(out),
        scale_(std::abs(v.x) + std::abs(v.y) + options.range) {}

  // The nearest thing the ray v -> p meets just to `side` of it (+1
  // counter-clockwise, -1 clockwise), among the edges of `sector`.
  Limit Nearest(Vec2 p, int32_t sector, int side) const {
    for (const Wedge& wedge : wedges_) {
      if (internal::WedgeCovers(wedge, v_, p, side)) {
        return Limit{.edge = kViewerLimit};
      }
    }
    Limit best;
    // A bound past which no edge can be nearer than the best so far (the
    // sector's edges come nearest first): it only skips work.
    double reach = std::numeric_limits<double>::infinity();
    const Bin bin = bins_[sector];
    for (int32_t k = bin.begin; k < bin.end; ++k) {
      const int32_t index = entries_[k];
      if (near_[index] > reach) break;
      const Edge& e = edges_[index];
      const int oa = Orient(v_, p, e.a);
      const int ob = Orient(v_, p, e.b);
      Limit candidate{.edge = index};
      if (oa * ob < 0) {
        // Crosses the ray's line; ahead of v when v lies left of the edge
        // taken from its clockwise end to its counter-clockwise one.
        const Vec2 lo = oa < 0 ? e.a : e.b;
        const Vec2 hi = oa < 0 ? e.b : e.a;
        if (internal::Orient(lo, hi, v_) <= 0) continue;
        const Vec2 d = p - v_;
        const Vec2 w = e.b - e.a;
        candidate.t = Cross(e.a - v_, w) / Cross(d, w);
      } else if (oa == 0 && ob == side) {
        if (internal::DotSign(v_, p, v_, e.a) <= 0) continue;
        candidate.end = 0;
      } else if (ob == 0 && oa == side) {
        if (internal::DotSign(v_, p, v_, e.b) <= 0) continue;
        candidate.end = 1;
      } else {
        continue;
      }
      if (best.edge == kRangeLimit || Nearer(p, side, candidate, best)) {
        best = candidate;
        reach = Reach(p, best);
      }
    }
    return best;
  }

  // Emits the vertices on the ray of a direction group, given its two
  // limits. `arc` marks a chord vertex of the range circle.
  void EmitRay(Vec2 p, const Limit& cw, const Limit& ccw, bool arc,
               int32_t sector, int32_t arriving) {
    if (cw.edge == kRangeLimit && ccw.edge == kRangeLimit) {
      if (arc) Emit(RangePoint(p, sector, true), PolygonVertexKind::kArc, {});
      return;
    }
    if (cw.edge >= 0 && cw.edge == ccw.edge && cw.end < 0 && ccw.end < 0) {
      // One edge on both sides: no corner here, unless the boundary arrives
      // on another edge (one crossing it within rounding of this ray).
      if (arriving != cw.edge) {
        Emit(RayPoint(p, edges_[cw.edge]), PolygonVertexKind::kEdgeCrossing,
             edges_[cw.edge].shape_id);
      }
      return;
    }
    // A range limit next to the edge end where that edge leaves the circle
    // is the same point: keep the edge's.
    if (cw.edge >= 0 && ccw.edge >= 0 && cw.end < 0 && ccw.end < 0) {
      // Two edges crossing on the ray: one vertex where the boundary
      // changes edge, unless they meet it apart (within rounding of a
      // vertex on the ray).
      const Vec2 a = RayPoint(p, edges_[cw.edge]);
      const Vec2 b = RayPoint(p, edges_[ccw.edge]);
      if (a == b) {
        Emit(b, PolygonVertexKind::kEdgeCrossing, edges_[ccw.edge].shape_id);
        return;
      }
    }
    const bool skip_cw = cw.edge == kRangeLimit && IsArcEnd(ccw);
    const bool skip_ccw = ccw.edge == kRangeLimit && IsArcEnd(cw);
    if (!skip_cw) EmitLimit(p, cw, arc, sector);
    if (!skip_ccw) EmitLimit(p, ccw, arc, sector);
  }

  // Between the directions through p0 and p1 (less than a half turn apart,
  // in `sector`), starting on `edge`: emits where other edges cross in
  // front, in angular order, and returns the edge the boundary ends on.
  // Which crossing comes first, and whether one lies before p1's ray, are
  // decided exactly (crossings within rounding of each other or of a ray
  // are common at large offsets); only the emitted points are rounded.
  int32_t WalkCrossings(int32_t edge, Vec2 p0, Vec2 p1, int32_t sector) {
    if (edge < 0) return edge;
    const Bin bin = bins_[sector];
    // The edge the boundary left where it came onto `edge` (its crossing
    // with `edge` is where the walk stands), or -1 while it stands on p0's
    // ray.
    int32_t from = -1;
    // The last emitted point's direction: for the output only.
    Vec2 shown = p0;
    // Each step moves to an edge crossing the current one later in angle
    // (or at one point, nearer past it); the sector's size bounds the steps
    // whatever the coordinates.
    for (int32_t step = bin.begin; step <= bin.end; ++step) {
      const Edge& e = edges_[edge];
      const int v_side = internal::Orient(e.a, e.b, v_);
      // An edge crossing e meets it no farther than e's far end.
      const double reach =
          std::max(Length(e.a - v_), Length(e.b - v_)) * (1.0 + 1e-6) +
          kReachSlack * scale_;
      int32_t best = -1;
      for (int32_t k = bin.begin; k < bin.end; ++k) {
        const int32_t index = entries_[k];
        if (near_[index] > reach) break;
        if (index == edge || index == from) continue;
        const Edge& g = edges_[index];
        if (!internal::CrossesProperly(e.a, e.b, g.a, g.b)) continue;
        // g's end counter-clockwise of the ray through the crossing x: x
        // lies inside g, so Cross(x - v, g.b - v) is (1 - s) Cross(g.a - v,
        // g.b - v) for x = g.a + s (g.b - g.a), 0 < s < 1.
        const int turn = internal::Orient(v_, g.a, g.b);
        if (turn == 0) continue;
        const Vec2 ahead = turn > 0 ? g.b : g.a;
        // g comes in front of e past x: its part beyond x lies on v's side
        // of e.
        if (internal::Orient(e.a, e.b, ahead) * v_side <= 0) continue;
        // Strictly before p1's ray (one on it is left to p1's exact
        // limits), and not before where the walk stands.
        if (RaySide(e, g, p1) >= 0) continue;
        if (from < 0 ? RaySide(e, g, p0) < 0
                     : AngleOrder(e, v_side, edges_[from], g) < 0) {
          continue;
        }
        if (best >= 0) {
          const int order = AngleOrder(e, v_side, edges_[best], g);
          if (order > 0) continue;
          // At one point, the nearer just past it: the one whose part
          // beyond lies on v's side of the other.
          if (order == 0) {
            const Edge& b = edges_[best];
            if (internal::Orient(b.a, b.b, ahead) *
                    internal::Orient(b.a, b.b, v_) <=
                0) {
              continue;
            }
          }
        }
        best = index;
      }
      if (best < 0) break;
      // Edges crossing at a grazing angle meet at an ill-conditioned point:
      // one rounded to well before the last vertex's ray would fold the
      // polygon back, so the boundary then switches edge there without a
      // vertex. One within rounding of that ray is kept (the crossing is
      // exactly after it): an edge seen end-on lies wholly within rounding
      // of its ray, and dropping a crossing on it would cut off a corner.
      const Vec2 point = CrossingPoint(e, edges_[best]);
      const Vec2 last = shown - v_;
      const Vec2 next = point - v_;
      if (Cross(last, next) >= -kRayTolerance * Length(last) * Length(next)) {
        Emit(point, PolygonVertexKind::kEdgeCrossing, edges_[best].shape_id);
        shown = point;
      }
      from = edge;
      edge = best;
    }
    return edge;
  }

  // A vertex where the boundary changes onto `limit`'s edge on the ray
  // v -> p.
  void EmitCrossingOn(Vec2 p, const Limit& limit) {
    Emit(RayPoint(p, edges_[limit.edge]), PolygonVertexKind::kEdgeCrossing,
         edges_[limit.edge].shape_id);
  }

  // Drops a last vertex equal to the first (the boundary closed on it).
  int32_t Finish() {
    if (count_ > 1 && last_ == first_) --count_;
    return count_;
  }

 private:
  // Above the distance from v of the point where `limit` meets the ray
  // v -> p, by a margin far beyond its rounding.
  double Reach(Vec2 p, const Limit& limit) const {
    const Edge& e = edges_[limit.edge];
    const double distance = limit.end == 0   ? Length(e.a - v_)
                            : limit.end == 1 ? Length(e.b - v_)
                                             : limit.t * Length(p - v_);
    return distance * (1.0 + 1e-6) + kReachSlack * scale_;
  }

  bool IsArcEnd(const Limit& limit) const {
    if (limit.edge < 0 || limit.end < 0) return false;
    const Edge& e = edges_[limit.edge];
    return (limit.end == 0 ? e.a_kind : e.b_kind) == PolygonVertexKind::kArcEnd;
  }

  // Whether `candidate` is strictly nearer than `best` (an edge) along the
  // ray v -> p just to `side` of it. Exact where either is an edge's end on
  // the ray. Where both meet the ray at one point, the nearer just beside
  // the ray is the one the other turns away from v behind.
  bool Nearer(Vec2 p, int side, const Limit& candidate,
              const Limit& best) const {
    const Edge& c = edges_[candidate.edge];
    const Edge& b = edges_[best.edge];
    // The end of an edge off the ray, on `side` (for an edge crossing the
    // ray, its end on that side).
    const auto beside = [&](const Edge& e, const Limit& limit) {
      if (limit.end == 0) return e.b;
      if (limit.end == 1) return e.a;
      return internal::Orient(v_, p, e.a) == side ? e.a : e.b;
    };
    // Whether `e`, through the meeting point, hides `other`'s end x.
    const auto hides = [&](const Edge& e, Vec2 x) {
      return internal::Orient(e.a, e.b, x) * internal::Orient(e.a, e.b, v_) < 0;
    };
    if (candidate.end >= 0 && best.end >= 0) {
      const Vec2 q = candidate.end == 0 ? c.a : c.b;
      const Vec2 r = best.end == 0 ? b.a : b.b;
      const int order = internal::DotSign(v_, p, q, r);
      if (order != 0) return order > 0;
      return hides(c, beside(b, best));
    }
    if (candidate.end >= 0) {
      // The point q against best's line, which the ray crosses ahead of v.
      const Vec2 q = candidate.end == 0 ? c.a : c.b;
      const int at = internal::Orient(b.a, b.b, q);
      if (at != 0) return at * internal::Orient(b.a, b.b, v_) > 0;
      return hides(c, beside(b, best));
    }
    if (best.end >= 0) {
      const Vec2 r = best.end == 0 ? b.a : b.b;
      const int at = internal::Orient(c.a, c.b, r);
      if (at != 0) return at * internal::Orient(c.a, c.b, v_) < 0;
      return hides(c, beside(b, best));
    }
    // Both cross the ray inside them, at t = Cross(a - v, b - a) /
    // Cross(p - v, b - a) along p - v. Apart beyond the rounding of those
    // cross products: by the doubles; otherwise exactly. At one exact
    // point, the nearer beside the ray is the one hiding the other's end
    // on that side.
    const int order = CompareCrossings(p, c, b);
    if (order != 0) return order < 0;
    return hides(c, beside(b, best));
  }

  // The sign of t(e) - t(f) for two edges crossing the ray v -> p.
  int CompareCrossings(Vec2 p, const Edge& e, const Edge& f) const {
    const Vec2 d = p - v_;
    const auto bounds = [&](const Edge& g, double& low, double& high) {
      const Vec2 m = g.a - v_;
      const Vec2 w = g.b - g.a;
      const double n1 = m.x * w.y, n2 = m.y * w.x;
      const double d1 = d.x * w.y, d2 = d.y * w.x;
      double n = n1 - n2, den = d1 - d2;
      double n_error =
          internal::kCrossErrorBound * (std::abs(n1) + std::abs(n2)) +
          internal::kUnderflowSlack;
      double d_error =
          internal::kCrossErrorBound * (std::abs(d1) + std::abs(d2)) +
          internal::kUnderflowSlack;
      if (den < 0.0) {
        n = -n;
        den = -den;
      }
      if (!(den > d_error)) return false;
      // t >= 0 here (the crossing is ahead of v); widened by a relative
      // margin for the divisions' rounding.
      low = std::max(0.0, (n - n_error) / (den + d_error)) * (1.0 - 1e-15);
      high = (n + n_error) / (den - d_error) * (1.0 + 1e-15);
      return true;
    };
    double e_low, e_high, f_low, f_high;
    if (bounds(e, e_low, e_high) && bounds(f, f_low, f_high)) {
      if (e_high < f_low) return -1;
      if (f_high < e_low) return 1;
    }
    return internal::CompareTimes(ExactCrossing(p, e), ExactCrossing(p, f));
  }

  internal::ExactTime ExactCrossing(Vec2 p, const Edge& g) const {
    const internal::ExactVec m = internal::Difference(g.a, v_);
    const internal::ExactVec w = internal::Difference(g.b, g.a);
    const internal::ExactVec d = internal::Difference(p, v_);
    internal::ExactTime t{m.x * w.y - m.y * w.x, d.x * w.y - d.y * w.x};
    if (t.denominator.sign() < 0) {
      t.numerator = -t.numerator;
      t.denominator = -t.denominator;
    }
    return t;
  }

  // A cross product of two rounded differences of inputs, and a bound on
  // its rounding.
  struct Rounded {
    double value;
    double bound;
  };
  static Rounded CrossOf(Vec2 a, Vec2 b) {
    const double left = a.x * b.y;
    const double right = a.y * b.x;
    return {left - right,
            internal::kCrossErrorBound * (std::abs(left) + std::abs(right)) +
                internal::kUnderflowSlack};
  }

  // An interval holding n / d, or false where d's sign is not certain.
  static bool RatioBounds(Rounded n, Rounded d, double& low, double& high) {
    if (!(std::abs(d.value) > d.bound)) return false;
    if (d.value < 0.0) {
      n.value = -n.value;
      d.value = -d.value;
    }
    const double d_low = d.value - d.bound;
    const double d_high = d.value + d.bound;
    const double n_low = n.value - n.bound;
    const double n_high = n.value + n.bound;
    low = n_low / (n_low >= 0.0 ? d_high : d_low);
    high = n_high / (n_high >= 0.0 ? d_low : d_high);
    // Widened for the roundings of the ends and the divisions.
    low -= std::abs(low) * 0x1p-48 + internal::kUnderflowSlack;
    high += std::abs(high) * 0x1p-48 + internal::kUnderflowSlack;
    return true;
  }

  // Where g's line crosses e: e.a + u (e.b - e.a) with u = Cross(g.a - e.a,
  // h) / Cross(e.b - e.a, h), h = g.b - g.a (not parallel).
  static bool CrossingBounds(const Edge& e, const Edge& g, double& low,
                             double& high) {
    const Vec2 h = g.b - g.a;
    return RatioBounds(CrossOf(g.a - e.a, h), CrossOf(e.b - e.a, h), low, high);
  }
  static internal::ExactTime ExactParameter(const Edge& e, const Edge& g) {
    const internal::ExactVec m = internal::Difference(g.a, e.a);
    const internal::ExactVec w = internal::Difference(e.b, e.a);
    const internal::ExactVec h = internal::Difference(g.b, g.a);
    internal::ExactTime u{m.x * h.y - m.y * h.x, w.x * h.y - w.y * h.x};
    if (u.denominator.sign() < 0) {
      u.numerator = -u.numerator;
      u.denominator = -u.denominator;
    }
    return u;
  }

  // The sign of Cross(x - v, y - v) for x and y where g and f cross e
  // (v_side = Orient(e.a, e.b, v)): > 0 when y comes after x counter-
  // clockwise. With x = e.a + u (e.b - e.a), it is (u_y - u_x)
  // Cross(e.a - v, e.b - e.a), whose second factor has v_side's sign.
  int AngleOrder(const Edge& e, int v_side, const Edge& g,
                 const Edge& f) const {
    double g_low, g_high, f_low, f_high;
    if (CrossingBounds(e, g, g_low, g_high) &&
        CrossingBounds(e, f, f_low, f_high)) {
      if (g_high < f_low) return v_side;
      if (f_high < g_low) return -v_side;
    }
    return v_side *
           internal::CompareTimes(ExactParameter(e, f), ExactParameter(e, g));
  }

  // The sign of Cross(q - v, x - v) for x where g crosses e: > 0 when x lies
  // counter-clockwise of the ray v -> q. With x = e.a + u (e.b - e.a), it
  // is c1 + u c2 for c1 = Cross(q - v, e.a - v), c2 = Cross(q - v, e.b -
  // e.a): the sign of c2 (u - r) for r = -c1 / c2, or c1's where c2 is 0.
  int RaySide(const Edge& e, const Edge& g, Vec2 q) const {
    const Vec2 d = q - v_;
    Rounded c1 = CrossOf(d, e.a - v_);
    const Rounded c2 = CrossOf(d, e.b - e.a);
    c1.value = -c1.value;
    double u_low, u_high, r_low, r_high;
    if (CrossingBounds(e, g, u_low, u_high) &&
        RatioBounds(c1, c2, r_low, r_high)) {
      const int c2_sign = c2.value > 0.0 ? 1 : -1;
      if (u_high < r_low) return -c2_sign;
      if (r_high < u_low) return c2_sign;
    }
    const internal::ExactVec dv = internal::Difference(q, v_);
    const internal::ExactVec m = internal::Difference(e.a, v_);
    const internal::ExactVec w = internal::Difference(e.b, e.a);
    internal::ExactTime r{m.x * dv.y - m.y * dv.x, dv.x * w.y - dv.y * w.x};
    const int c2_sign = r.denominator.sign();
    if (c2_sign == 0) return -r.numerator.sign();
    if (c2_sign < 0) {
      r.numerator = -r.numerator;
      r.denominator = -r.denominator;
    }
    return c2_sign * internal::CompareTimes(ExactParameter(e, g), r);
  }

  // Where the segments of e and g cross (they do, properly): on e.
  static Vec2 CrossingPoint(const Edge& e, const Edge& g) {
    const Vec2 w = e.b - e.a;
    const Vec2 h = g.b - g.a;
    double u = Cross(g.a - e.a, h) / Cross(w, h);
    u = std::clamp(u, 0.0, 1.0);
    return e.a + u * w;
  }

  // Where the ray v -> p meets edge e (crossing its line): on e.
  Vec2 RayPoint(Vec2 p, const Edge& e) const {
    const Vec2 d = p - v_;
    const Vec2 w = e.b - e.a;
    double u = Cross(e.a - v_, d) / Cross(d, w);
    u = std::clamp(u, 0.0, 1.0);
    return e.a + u * w;
  }

  Vec2 RangePoint(Vec2 p, int32_t sector, bool on_boundary) const {
    if (on_boundary) {
      const double angle = 2.0 * std::numbers::pi * sector / sectors_;
      return {v_.x + range_ * std::cos(angle), v_.y + range_ * std::sin(angle)};
    }
    return v_ + range_ * Normalize(p - v_);
  }

  void EmitLimit(Vec2 p, const Limit& limit, bool arc, int32_t sector) {
    if (limit.edge == kViewerLimit) {
      Emit(v_, PolygonVertexKind::kViewer, {});
      return;
    }
    if (limit.edge == kRangeLimit) {
      Emit(RangePoint(p, sector, arc), PolygonVertexKind::kArcEnd, {});
      return;
    }
    const Edge& e = edges_[limit.edge];
    if (limit.end == 0) {
      Emit(e.a, e.a_kind, e.shape_id);
    } else if (limit.end == 1) {
      Emit(e.b, e.b_kind, e.shape_id);
    } else {
      Emit(RayPoint(p, e), PolygonVertexKind::kRayHit, e.shape_id);
    }
  }

  void Emit(Vec2 point, PolygonVertexKind kind,
            std::optional<uint64_t> shape_id) {
    if (count_ > 0 && point == last_) return;
    if (count_ < static_cast<int32_t>(out_.size())) {
      out_[count_] = VisibilityPolygonVertex{point, kind, shape_id};
    }
    if (count_ == 0) first_ = point;
    last_ = point;
    ++count_;
  }

  Vec2 v_;
  double range_;
  absl::Span<const Edge> edges_;
  absl::Span<const double> near_;
  absl::Span<const Wedge> wedges_;
  absl::Span<const Bin> bins_;
  absl::Span<const int32_t> entries_;
  int32_t sectors_;
  absl::Span<VisibilityPolygonVertex> out_;
  double scale_;
  int32_t count_ = 0;
  Vec2 first_{};
  Vec2 last_{};
};

// The sector of direction q from v: the k with q in [A_k, A_{k+1}) by
// exact tests against the boundary rays A (each less than a half turn
// from the next), starting from an atan2 estimate.
class Sectors {
 public:
  Sectors(Vec2 v, int32_t count, absl::Span<const Direction> boundaries)
      : v_(v), count_(count), boundaries_(boundaries) {}

  int32_t Of(Vec2 q) const {
    double angle = std::atan2(q.y - v_.y, q.x - v_.x);
    if (angle < 0.0) angle += 2.0 * std::numbers::pi;
    int32_t k = static_cast<int32_t>(angle / (2.0 * std::numbers::pi) * count_);
    k = std::clamp(k, int32_t{0}, count_ - 1);
    const int32_t estimate = k;
    for (int step = 0; step < 8; ++step) {
      const Vec2 start = boundaries_[k].point;
      const Vec2 end = boundaries_[(k + 1) % count_].point;
      const int from_start = internal::Orient(v_, start, q);
      const bool after_start =
          from_start > 0 ||
          (from_start == 0 && internal::DotSign(v_, start, v_, q) > 0);
      if (!after_start) {
        k = (k - 1 + count_) % count_;
      } else if (internal::Orient(v_, end, q) >= 0) {
        k = (k + 1) % count_;
      } else {
        return k;
      }
    }
    return estimate;
  }

 private:
  Vec2 v_;
  int32_t count_;
  absl::Span<const Direction> boundaries_;
};

}  // namespace

VisibilityPolygonScratch::VisibilityPolygonScratch(int32_t max_edges)
    : max_edges_(std::max(max_edges, int32_t{0})) {
  edges_.reserve(max_edges_);
  near_.reserve(max_edges_);
  directions_.reserve(2 * static_cast<size_t>(max_edges_) + kMaxSectors +
                      8 * kMaxWedges);
  entries_.reserve(static_cast<size_t>(max_edges_) * kEntriesPerEdge);
  bins_.reserve(kMaxSectors);
  wedges_.reserve(kMaxWedges);
}

size_t VisibilityPolygonScratch::memory_bytes() const {
  return edges_.capacity() * sizeof(Edge) + near_.capacity() * sizeof(double) +
         directions_.capacity() * sizeof(Direction) +
         entries_.capacity() * sizeof(int32_t) +
         bins_.capacity() * sizeof(Bin) + wedges_.capacity() * sizeof(Wedge);
}

bool IsValid(const VisibilityPolygonOptions& options) {
  return std::isfinite(options.range) && options.range > 0.0 &&
         options.range <= kMaxCoordinate &&
         options.max_arc_angle >= VisibilityPolygonOptions::kMinArcAngle &&
         options.max_arc_angle <= std::numbers::pi / 2.0;
}

VisibilityPolygonResult VisibilityPolygon(
    const Level& level, Vec2 viewer, const VisibilityPolygonOptions& options,
    absl::Span<VisibilityPolygonVertex> out, VisibilityPolygonScratch& scratch,
    const QueryFilter& filter) {
  COLLIDE_DCHECK(IsValid(viewer) && IsValid(options));
  const Vec2 v = viewer;
  VisibilityPolygonResult result;
  if (ViewerInside(level, v, filter)) {
    result.viewer_inside = true;
    return result;
  }
  std::vector<Edge>& edges = VisibilityPolygonAccess::edges(scratch);
  std::vector<Direction>& directions =
      VisibilityPolygonAccess::directions(scratch);
  std::vector<int32_t>& entries = VisibilityPolygonAccess::entries(scratch);
  std::vector<double>& near = VisibilityPolygonAccess::near(scratch);
  std::vector<Bin>& bins = VisibilityPolygonAccess::bins(scratch);
  std::vector<Wedge>& wedges = VisibilityPolygonAccess::wedges(scratch);
  edges.clear();
  near.clear();
  directions.clear();
  entries.clear();
  bins.clear();
  wedges.clear();

  internal::PolygonEdgeSink sink{.edges = &edges,
                                 .wedges = &wedges,
                                 .max_edges = scratch.max_edges(),
                                 .max_wedges = kMaxWedges};
  internal::GatherPolygonEdges(level, v, options.range, options.max_arc_angle,
                               filter, sink);
  if (sink.edge_count > scratch.max_edges() || sink.wedge_count > kMaxWedges) {
    result.status = VisibilityPolygonStatus::kScratchTooSmall;
    result.needed = sink.edge_count;
    return result;
  }

  // Sector boundaries: the chords' directions 2 pi j / chords, each split
  // into `split` sectors so that there are at least kMinSectors and one per
  // kEdgesPerSector edges (at most kMaxSectors). Their
  // points lie far enough from v that rounding them turns their direction
  // by at most about 1e-10 radians.
  const int32_t chords = static_cast<int32_t>(
      std::ceil(2.0 * std::numbers::pi / options.max_arc_angle));
  const int32_t wanted = std::max(
      kMinSectors, static_cast<int32_t>(edges.size()) / kEdgesPerSector);
  const int32_t split =
      std::min((wanted + chords - 1) / chords, kMaxSectors / chords);
  const int32_t sectors = chords * split;
  const double far =
      std::max(options.range, 0x1p-20 * (std::abs(v.x) + std::abs(v.y)));
  for (int32_t j = 0; j < sectors; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / sectors;
    directions.push_back(Direction{
        .point = {v.x + far * std::cos(angle), v.y + far * std::sin(angle)},
        .sector = j,
        .role = static_cast<uint8_t>(j % split == 0 ? 2 : 1)});
  }
  const Sectors sector_of(v, sectors,
                          absl::MakeConstSpan(directions.data(), sectors));

  // The edges' ends, and each edge filed in the sectors it spans (the
  // shorter way round: no edge passes through v).
  bins.resize(sectors);
  const int32_t edge_count = static_cast<int32_t>(edges.size());
  for (const Edge& e : edges) {
    directions.push_back({.point = e.a, .sector = sector_of.Of(e.a)});
    directions.push_back({.point = e.b, .sector = sector_of.Of(e.b)});
  }
  const auto span_of = [&](int32_t i, int32_t& first, int32_t& count) {
    const int32_t sa = directions[sectors + 2 * i].sector;
    const int32_t sb = directions[sectors + 2 * i + 1].sector;
    const bool b_ccw = internal::Orient(v, edges[i].a, edges[i].b) >= 0;
    first = b_ccw ? sa : sb;
    const int32_t last = b_ccw ? sb : sa;
    count = (last - first + sectors) % sectors + 1;
  };
  int64_t total = 0;
  for (int32_t i = 0; i < edge_count; ++i) {
    int32_t first, count;
    span_of(i, first, count);
    total += count;
  }
  if (total <= static_cast<int64_t>(entries.capacity())) {
    for (int32_t i = 0; i < edge_count; ++i) {
      int32_t first, count;
      span_of(i, first, count);
      for (int32_t k = 0; k < count; ++k) ++bins[(first + k) % sectors].end;
    }
    int32_t offset = 0;
    for (Bin& bin : bins) {
      bin.begin = offset;
      offset += bin.end;
      bin.end = bin.begin;
    }
    entries.resize(total);
    for (int32_t i = 0; i < edge_count; ++i) {
      int32_t first, count;
      span_of(i, first, count);
      for (int32_t k = 0; k < count; ++k) {
        entries[bins[(first + k) % sectors].end++] = i;
      }
    }
  } else {
    // Too many for the sectors' lists: every sector searches every edge
    // (the same answers, more work).
    for (int32_t i = 0; i < edge_count; ++i) entries.push_back(i);
    for (Bin& bin : bins) bin = Bin{0, edge_count};
  }
  // Each sector's edges nearest first, so that a search can stop early.
  for (const Edge& e : edges) {
    const Vec2 d = e.b - e.a;
    const double length_squared = Dot(d, d);
    const double s =
        length_squared > 0.0
            ? std::clamp(Dot(v - e.a, d) / length_squared, 0.0, 1.0)
            : 0.0;
    near.push_back(Length(e.a + s * d - v));
  }
  const auto nearer = [&](int32_t a, int32_t b) { return near[a] < near[b]; };
  if (total <= static_cast<int64_t>(entries.capacity())) {
    for (const Bin& bin : bins) {
      std::sort(entries.begin() + bin.begin, entries.begin() + bin.end, nearer);
    }
  } else {
    std::sort(entries.begin(), entries.end(), nearer);
  }

  // The wedges' boundary rays: both rays of each line through v (its
  // points other than v exactly, the others rounded).
  for (const Wedge& w : wedges) {
    const Vec2 lines[2][2] = {{w.a1, w.b1}, {w.a2, w.b2}};
    for (int k = 0; k < w.lines; ++k) {
      const Vec2 a = lines[k][0];
      const Vec2 b = lines[k][1];
      const Vec2 rays[4] = {a, b, v + (b - a), v - (b - a)};
      for (const Vec2 ray : rays) {
        if (ray != v) {
          directions.push_back({.point = ray, .sector = sector_of.Of(ray)});
        }
      }
    }
  }

  // Directions by angle from +x: by sector, then counter-clockwise within
  // it (a sector is narrower than a half turn), a sector's boundary first.
  std::sort(directions.begin(), directions.end(),
            [&](const Direction& a, const Direction& b) {
              if (a.sector != b.sector) return a.sector < b.sector;
              const int o = Orient(v, a.point, b.point);
              if (o != 0) return o > 0;
              return a.role > b.role;
            });

  // Groups of directions on one ray; group g is [begin, next).
  const int32_t direction_count = static_cast<int32_t>(directions.size());
  const auto group_end = [&](int32_t begin) {
    int32_t end = begin + 1;
    while (end < direction_count &&
           directions[end].sector == directions[begin].sector &&
           Orient(v, directions[begin].point, directions[end].point) == 0) {
      ++end;
    }
    return end;
  };

  Sweep sweep(v, options, edges, near, wedges, bins, entries, sectors, out);
  // The edge the boundary arrives on at each direction (from the walk
  // before it); at the first, the one it leaves on, so no vertex is forced
  // there until the walk round the turn comes back to it.
  int32_t arriving = kRangeLimit - 10;
  Limit first_cw;
  Vec2 first_point{};
  for (int32_t begin = 0; begin < direction_count;) {
    const int32_t end = group_end(begin);
    const Direction& d = directions[begin];  // the highest role sorts first
    const int32_t sector = d.sector;
    const int32_t cw_sector =
        d.role > 0 ? (sector - 1 + sectors) % sectors : sector;
    const Limit cw = sweep.Nearest(d.point, cw_sector, -1);
    const Limit ccw = sweep.Nearest(d.point, sector, +1);
    if (begin == 0) {
      first_cw = cw;
      first_point = d.point;
      arriving = cw.edge;
    }
    sweep.EmitRay(d.point, cw, ccw, d.role == 2, sector, arriving);
    const Vec2 next =
        end < direction_count ? directions[end].point : directions[0].point;
    arriving = sweep.WalkCrossings(ccw.edge, d.point, next, sector);
    begin = end;
  }
  // Round the turn: arriving at the first direction on another edge than
  // its clockwise limit's, the boundary changes edge there.
  if (arriving != first_cw.edge && first_cw.edge >= 0 && first_cw.end < 0) {
    sweep.EmitCrossingOn(first_point, first_cw);
  }
  const int32_t count = sweep.Finish();
  if (count > static_cast<int32_t>(out.size())) {
    result.status = VisibilityPolygonStatus::kOutputTooSmall;
    result.needed = count;
    return result;
  }
  result.vertex_count = count;
  return result;
}

}  // namespace collide
