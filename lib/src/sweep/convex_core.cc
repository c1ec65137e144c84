#include "sweep/convex_core.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/base/attributes.h"
#include "collide/dcheck.h"
#include "collide/intersect.h"
#include "exact/within_distance.h"
#include "exact/sign.h"
#include "sweep/vertex_misses.h"
#include "sweep/point_sweep.h"

namespace collide::internal {
namespace {

// A start whose contact time is estimated below this share of the
// translation is reported at fraction 0 (see ClassifyStart).
constexpr double kNearStartFraction = 1e-10;
// ... when the shapes are in contact by this fraction (2^-30, within the
// fraction tolerance of toi.h) or by max_fraction if that is smaller.
constexpr double kNearStartReach = 0x1p-30;

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

// Whether some edge line separates the cores by more than threshold: a
// cheap proof that they start clear, stopping at the first such axis. Only
// a certain answer counts: the distances must exceed threshold (a rounded
// sum of radii and skin, grown by its own rounding) by their rounding bound
// (the rounded normal's few ulps and the dot product's, against the
// offsets' size).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool AxesClearOf(const Core& a,
                                                     const Core& b,
                                                     double threshold) {
  // For an edge's own outward normal, its core reaches no further than the
  // edge's line, so one side of each axis is enough: two convex cores are
  // apart exactly when one lies beyond an edge line of the other. (Collinear
  // segments, apart only along their direction, are left to the exact
  // classification.) Every offset between the cores' vertices is within
  // twice `reach` (max norm) of zero, which bounds all the rounding at once.
  const Vec2 origin = b.vertex(0);
  double reach = 0.0;
  for (int k = 0; k < a.count(); ++k) {
    reach = std::max(reach, MaxAbs(a.vertex(k) - origin));
  }
  for (int k = 1; k < b.count(); ++k) {
    reach = std::max(reach, MaxAbs(b.vertex(k) - origin));
  }
  const double limit =
      threshold * (1.0 + kFilterRoundings) + 4.0 * kFilterRoundings * reach;
  const auto beyond_edges = [limit](const Core& core, const Core& other) {
    for (int i = 0; i < core.edge_count(); ++i) {
      const Vec2 n = core.normal(i);
      const Vec2 v = core.vertex(i);
      double nearest = kInfinity;
      for (int k = 0; k < other.count(); ++k) {
        nearest = std::min(nearest, Dot(other.vertex(k) - v, n));
      }
      if (nearest > limit) return true;
    }
    return false;
  };
  return beyond_edges(a, b) || beyond_edges(b, a);
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

namespace {

// A cheap lower bound on the distance from p to core b certainly exceeds
// `threshold`: a polygon's edge-plane distances and a segment's line
// distance never exceed the true distance. Each is taken less its rounding
// bound (see AxesClearOf).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool PointClearOf(Vec2 p, const Core& b,
                                                      double threshold) {
  const double limit = threshold * (1.0 + kFilterRoundings);
  if (b.count() == 1) {
    return LengthSquared(p - b.vertex(0)) * (1.0 - kFilterRoundings) >
           limit * limit;
  }
  if (b.count() == 2) {
    const Vec2 m = p - b.vertex(0);
    if (std::abs(Dot(m, b.normal(0))) >
        limit + kFilterRoundings * (std::abs(m.x) + std::abs(m.y))) {
      return true;
    }
    // Within the band around the line: beyond an end (certainly, the
    // projection's rounding allowed for) the distance is the end's.
    const Vec2 e = b.vertex(1) - b.vertex(0);
    const double along = Dot(m, e);
    const double along_error =
        kFilterRoundings * (std::abs(m.x * e.x) + std::abs(m.y * e.y));
    const double length_squared = Dot(e, e);
    Vec2 end_offset;
    if (along < -along_error) {
      end_offset = m;
    } else if (along - length_squared >
               along_error + kFilterRoundings * length_squared) {
      end_offset = p - b.vertex(1);
    } else {
      return false;
    }
    return LengthSquared(end_offset) * (1.0 - kFilterRoundings) > limit * limit;
  }
  for (int i = 0; i < b.count(); ++i) {
    const Vec2 m = p - b.vertex(i);
    if (Dot(m, b.normal(i)) >
        limit + kFilterRoundings * (std::abs(m.x) + std::abs(m.y))) {
      return true;
    }
  }
  return false;
}

// How the cores' point sets (radii not included) meet, exactly.
enum class CoreMeet { kApart, kTouching, kOverlapping };

struct CoreContact {
  CoreMeet meet = CoreMeet::kApart;
  // Touching only: core a moving by d overlaps b for every small t > 0.
  bool moving_in = false;
};

// Separating axes, exactly: every edge line of either core and each
// segment's direction. The cores are apart when one axis separates them
// strictly; otherwise they meet, and they only touch when some axis
// separates them weakly (a line through the contact with each core on its
// closed side). Such lines are supporting lines of the Minkowski difference
// at the contact, and among them are the lines of all its edges there, so a
// touching a moves in exactly when d crosses every one of them strictly
// inwards: d points into the interior of the tangent cone (at a vertex,
// strictly between its edges). Cores whose difference has no interior (two
// parallel segments, a point and a segment, two points) never overlap: a
// segment has no inside.
CoreContact ExactContact(const Core& a, const Motion& motion, const Core& b) {
  CoreContact result;
  if (a.count() == 1 && b.count() == 1) {
    if (a.vertex(0) == b.vertex(0)) result.meet = CoreMeet::kTouching;
    return result;
  }
  bool weak = false;
  bool in = true;
  // mover is +1 when x is a (moving by d), -1 when x is b (a approaching it
  // is x moving by -d).
  const auto edges_separate = [&](const Core& x, const Core& y, int mover) {
    for (int i = 0; i < x.edge_count(); ++i) {
      const Vec2 p = x.vertex(i);
      const Vec2 q = x.vertex(x.next(i));
      // y is outside when to the right of p -> q (x counter-clockwise).
      int most = -1;
      for (int k = 0; k < y.count() && most < 1; ++k) {
        most = std::max(most, Orient(p, q, y.vertex(k)));
      }
      if (most < 0) return true;
      if (most == 0) {
        weak = true;
        // x's outward normal is RightPerp(q - p): x closes on y across the
        // line when its motion has Cross(q - p, motion) < 0.
        if (mover * CrossSign(p, q, motion.from, motion.to) >= 0) in = false;
      }
    }
    return false;
  };
  const auto direction_separates = [&](const Core& x, const Core& y,
                                       int mover) {
    if (x.count() != 2) return false;
    const Vec2 p = x.vertex(0);
    const Vec2 q = x.vertex(1);
    int least = 1;  // y beyond q along q - p
    int most = -1;  // y before p
    for (int k = 0; k < y.count(); ++k) {
      least = std::min(least, DotSign(p, q, q, y.vertex(k)));
      most = std::max(most, DotSign(p, q, p, y.vertex(k)));
    }
    if (least > 0 || most < 0) return true;
    const int along = DotSign(p, q, motion.from, motion.to);
    if (least == 0) {
      weak = true;
      if (mover * along <= 0) in = false;
    }
    if (most == 0) {
      weak = true;
      if (mover * along >= 0) in = false;
    }
    return false;
  };
  if (edges_separate(a, b, 1) || edges_separate(b, a, -1) ||
      direction_separates(a, b, 1) || direction_separates(b, a, -1)) {
    return result;
  }
  const bool flat =
      a.count() <= 2 && b.count() <= 2 &&
      (a.count() == 1 || b.count() == 1 ||
       CrossSign(a.vertex(0), a.vertex(1), b.vertex(0), b.vertex(1)) == 0);
  if (flat) {
    result.meet = CoreMeet::kTouching;
  } else if (weak) {
    result.meet = CoreMeet::kTouching;
    result.moving_in = in;
  } else {
    result.meet = CoreMeet::kOverlapping;
  }
  return result;
}

// A candidate for the nearest pair of two apart cores: a vertex of one
// against a vertex of the other, or against the interior of an edge of the
// other onto which it projects strictly inside (the distance between convex
// sets is always reached at one of these).
struct Candidate {
  Vec2 p;      // the vertex
  Vec2 e0;     // the other core's vertex, or its edge's start
  Vec2 e1;     // the edge's end (edge candidates)
  bool edge;   // vertex against edge
  int w_sign;  // sign of d . w, w the difference from b's point to a's
  int side;    // +1 when p is a's vertex, -1 when b's
};

// The unit direction of w (from b's point towards a's) for a candidate, to a
// few ulps: from the vertex offset, or the edge's own direction (never from
// the difference of nearly equal points).
Vec2 CandidateNormal(const Candidate& c) {
  if (!c.edge) return Normalize(c.p - c.e0);
  const Vec2 e = c.e1 - c.e0;
  const Vec2 towards_p =
      Normalize(Orient(c.e0, c.e1, c.p) > 0 ? LeftPerp(e) : RightPerp(e));
  return c.side * towards_p;
}

// Exact comparison of two candidates' squared distances: the sign of
// dist(x)^2 - dist(y)^2, with a vertex pair's |p - e0|^2 and an edge's
// Cross(e1 - e0, p - e0)^2 / |e1 - e0|^2 compared without dividing.
int CompareCandidates(const Candidate& x, const Candidate& y) {
  const auto parts = [](const Candidate& c, Expansion* num, Expansion* den) {
    if (!c.edge) {
      const Expansion dx = Expansion::Difference(c.p.x, c.e0.x);
      const Expansion dy = Expansion::Difference(c.p.y, c.e0.y);
      *num = dx * dx + dy * dy;
      *den = Expansion(1.0);
      return;
    }
    const Expansion ux = Expansion::Difference(c.e1.x, c.e0.x);
    const Expansion uy = Expansion::Difference(c.e1.y, c.e0.y);
    const Expansion mx = Expansion::Difference(c.p.x, c.e0.x);
    const Expansion my = Expansion::Difference(c.p.y, c.e0.y);
    const Expansion cross = ux * my - uy * mx;
    *num = cross * cross;
    *den = ux * ux + uy * uy;
  };
  Expansion xn;
  Expansion xd;
  Expansion yn;
  Expansion yd;
  parts(x, &xn, &xd);
  parts(y, &yn, &yd);
  return (xn * yd - yn * xd).sign();
}

// A candidate's squared distance as an interval certainly holding it.
Interval CandidateRange(const Candidate& c) {
  if (!c.edge) {
    const double dd = LengthSquared(c.p - c.e0);
    return {dd * (1.0 - kFilterRoundings), dd * (1.0 + kFilterRoundings)};
  }
  const Vec2 u = c.e1 - c.e0;
  const Vec2 m = c.p - c.e0;
  const double left = u.x * m.y;
  const double right = u.y * m.x;
  const double cross = std::abs(left - right);
  const double bound = kCrossErrorBound * (std::abs(left) + std::abs(right));
  const double low = std::max(0.0, cross - bound);
  const double high = cross + bound;
  const double uu = LengthSquared(u);
  return {low * low / uu * (1.0 - kFilterRoundings),
          high * high / uu * (1.0 + kFilterRoundings)};
}

// Calls visit(candidate) for every candidate pair of apart cores a and b
// (a moving by d).
template <typename Visit>
void ForEachCandidate(const Core& a, const Motion& motion, const Core& b,
                      Visit visit) {
  // A vertex p of `mover_side` core against the other core's edges; sign
  // +1 when p is a's (w = p - edge point), -1 when b's.
  const auto vertex_edges = [&](Vec2 p, const Core& other, int sign) {
    for (int j = 0; j < DistinctEdges(other); ++j) {
      const Vec2 e0 = other.vertex(j);
      const Vec2 e1 = other.vertex(other.next(j));
      if (DotSign(e0, e1, e0, p) <= 0 || DotSign(e0, e1, e1, p) >= 0) {
        continue;  // projects onto an end: a vertex pair
      }
      // |e|^2 d . w = Cross(e, m) Cross(e, d) for w the perpendicular from
      // the line to p.
      const int w_sign =
          sign * Orient(e0, e1, p) * CrossSign(e0, e1, motion.from, motion.to);
      visit(Candidate{p, e0, e1, true, w_sign, sign});
    }
  };
  for (int i = 0; i < a.count(); ++i) {
    for (int j = 0; j < b.count(); ++j) {
      visit(Candidate{a.vertex(i), b.vertex(j), b.vertex(j), false,
                      DotSign(b.vertex(j), a.vertex(i), motion.from, motion.to),
                      1});
    }
    vertex_edges(a.vertex(i), b, 1);
  }
  for (int j = 0; j < b.count(); ++j) vertex_edges(b.vertex(j), a, -1);
}

// Where apart cores stand against distance r1 + r2 + r3 > 0: some
// candidate nearer (below), one exactly at it (at, with its d . w sign), or
// all farther.
struct DistanceState {
  bool below = false;
  bool at = false;
  Candidate at_candidate;
};

DistanceState DistanceAgainst(const Core& a, const Motion& motion,
                              const Core& b, double r1, double r2, double r3) {
  DistanceState state;
  ForEachCandidate(a, motion, b, [&](const Candidate& c) {
    if (state.below) return;
    const int s = c.edge ? LineDistanceVs(c.e0, c.e1, c.p, r1, r2, r3)
                         : DistanceSquaredVs(c.p, c.e0, r1, r2, r3);
    if (s < 0) state.below = true;
    if (s == 0 && !state.at) {
      state.at = true;
      state.at_candidate = c;
    }
  });
  return state;
}

// A nearest candidate of apart cores, whose w_sign is the sign of d . w
// for w from b's nearest point to a's: the gap's derivative at t = 0. The
// nearest candidates are found by their certified distance ranges; only
// when those leave candidates of different signs in the running (or
// rank_all asks for the nearest pair itself, for its direction) are they
// compared exactly.
Candidate NearestCandidate(const Core& a, const Motion& motion, const Core& b,
                           bool rank_all = false) {
  constexpr int kMaxCandidates = 4 * kMaxPolygonVertices * kMaxPolygonVertices;
  Candidate candidates[kMaxCandidates];
  Interval ranges[kMaxCandidates];
  int n = 0;
  double best_upper = kInfinity;
  ForEachCandidate(a, motion, b, [&](const Candidate& c) {
    if (n == kMaxCandidates) return;
    candidates[n] = c;
    ranges[n] = CandidateRange(c);
    best_upper = std::min(best_upper, ranges[n].upper);
    ++n;
  });
  int best = -1;
  bool mixed = false;
  for (int i = 0; i < n; ++i) {
    if (ranges[i].lower > best_upper) continue;
    if (best < 0) {
      best = i;
    } else if (candidates[i].w_sign != candidates[best].w_sign) {
      mixed = true;
    }
  }
  if (!mixed && !rank_all) return candidates[best];
  best = -1;
  for (int i = 0; i < n; ++i) {
    if (ranges[i].lower > best_upper) continue;
    if (best < 0 || CompareCandidates(candidates[i], candidates[best]) < 0) {
      best = i;
    }
  }
  return candidates[best];
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

// The start state, decided exactly (exact_sign.h): overlapping, touching or
// apart by signs of the cores' exact geometry against the exact sum of the
// radii (and skin), and moving in or closer by the sign of the gap's
// derivative at t = 0. No tolerance, nothing scaled by the translation.
// For a start in the skin, *skin_nearest (when given) receives the nearest
// candidate pair that decided closing or not, so that a caller taking the
// gap over several cores (a concave polygon's edges) can rank them exactly.
ABSL_ATTRIBUTE_NOINLINE StartState
ClassifyStartExact(const Core& a, const Motion& motion, const Core& b,
                   const CastOptions& options, Candidate* skin_nearest);

// Whether the cores certainly start farther apart than `clearance` (the sum
// of the radii and the skin, as Grow rounds it): most casts start well
// clear, which the shadows, a plane or an axis test prove cheaply (each
// only when certain, rounding included), skipping the exact classification
// (out of line: it is rare).
inline bool StartsClear(const Core& a, const Core& b, double clearance,
                        const Shadow& shadow) {
  return ShadowsApart(shadow, clearance) ||
         (a.count() == 1 ? PointClearOf(a.vertex(0), b, clearance)
                         : AxesClearOf(a, b, clearance));
}

StartState ClassifyStart(const Core& a, const Motion& motion, const Core& b,
                         const CastOptions& options, const Shadow& shadow,
                         Candidate* skin_nearest = nullptr) {
  if (StartsClear(a, b, a.radius() + b.radius() + options.target_distance,
                  shadow)) {
    return StartState();
  }
  return ClassifyStartExact(a, motion, b, options, skin_nearest);
}

StartState ClassifyStartExact(const Core& a, const Motion& motion,
                              const Core& b, const CastOptions& options,
                              Candidate* skin_nearest) {
  const Vec2 d = motion.d;
  const double contact = a.radius() + b.radius();
  StartState state;
  const bool radii = a.radius() > 0.0 || b.radius() > 0.0;
  const bool skin = options.target_distance > 0.0;
  const CoreContact meet = ExactContact(a, motion, b);
  // Apart cores' nearest pair, when found: its normal is exact to a few
  // ulps, where the nearest-point offset of a small gap is not.
  Candidate nearest{};
  bool have_nearest = false;
  bool in_skin = false;
  bool overlap_apart = false;  // overlapping by the radii, cores apart
  if (meet.meet == CoreMeet::kOverlapping ||
      (radii && meet.meet == CoreMeet::kTouching)) {
    state.kind = StartKind::kOverlap;
  } else if (meet.meet == CoreMeet::kTouching) {
    state.kind =
        meet.moving_in ? StartKind::kTouchingIn : StartKind::kTouchingLeaving;
  } else {
    // Apart cores: the gap against the radii, then against the skin.
    if (radii) {
      const DistanceState at_contact =
          DistanceAgainst(a, motion, b, a.radius(), b.radius(), 0.0);
      if (at_contact.below) {
        state.kind = StartKind::kOverlap;
        overlap_apart = true;
      } else if (at_contact.at) {
        state.kind = at_contact.at_candidate.w_sign < 0
                         ? StartKind::kTouchingIn
                         : StartKind::kTouchingLeaving;
        nearest = at_contact.at_candidate;
        have_nearest = true;
      }
    }
    if (state.kind == StartKind::kClear && skin) {
      const DistanceState at_skin = DistanceAgainst(
          a, motion, b, a.radius(), b.radius(), options.target_distance);
      in_skin = at_skin.below || at_skin.at;
    }
    if (in_skin) {
      nearest = NearestCandidate(a, motion, b);
      have_nearest = true;
      state.kind = nearest.w_sign < 0 ? StartKind::kSkinApproaching
                                      : StartKind::kSkinLeaving;
    }
  }
  if (state.kind == StartKind::kClear) {
    // Apart from the skin (or contact) by a few roundings of the shapes'
    // own scale and closing on it at first order: the exact contact time is
    // then within the sweeps' rounding of 0, where their formulas (a band's
    // line distance, a polygon's edge lines) may already see the start
    // inside and miss the contact altogether (issue 7: a slide stopped at
    // the skin and turned back in). Reported as the hit at fraction 0 it is
    // to within the fraction tolerance. Only for a positive grow, where the
    // gap is smooth; the translation's length plays no part in "near".
    const double grow = contact + options.target_distance;
    if (grow > 0.0) {
      const Separation separation = Separate(a, b);
      const double excess = separation.gap - grow;
      const double scale = MaxAbs(a.vertex(0) - b.vertex(0)) + grow +
                           MaxAbs(a.vertex(a.count() - 1) - a.vertex(0)) +
                           MaxAbs(b.vertex(b.count() - 1) - b.vertex(0));
      const double closing = -Dot(d, separation.normal);
      // The hit at 0 stands for a contact that certainly comes within the
      // fraction tolerance and by max_fraction: exactly, the shapes are in
      // contact at that fraction (their gap is convex in time, so the
      // first contact comes by then).
      if (excess <= kTouchRoundings * scale && closing > 0.0 &&
          excess <= kNearStartFraction * closing &&
          HullsWithinAfter(HullOf(a), motion.from, motion.to,
                           std::min(options.max_fraction, kNearStartReach),
                           HullOf(b), options.target_distance)) {
        nearest = NearestCandidate(a, motion, b);
        if (nearest.w_sign < 0) {
          state.kind = StartKind::kSkinApproaching;
          state.separation = separation;
          state.separation.normal = CandidateNormal(nearest);
          state.gap = std::max(separation.gap - contact, 0.0);
          if (skin_nearest != nullptr) *skin_nearest = nearest;
        }
      }
    }
    return state;
  }
  // The reported separation (normal, point, feature, depth) is computed in
  // doubles; only the decisions above are exact.
  state.separation = Separate(a, b);
  state.gap = state.separation.gap - contact;
  if (overlap_apart &&
      state.separation.gap <=
          1e-6 * (MaxAbs(a.vertex(0)) + MaxAbs(b.vertex(0)) +
                  MaxAbs(a.vertex(a.count() - 1) - a.vertex(0)) +
                  MaxAbs(b.vertex(b.count() - 1) - b.vertex(0)))) {
    // Overlapping by the radii with the cores all but touching: the escape
    // direction is that of the nearest pair, ranked exactly. (A corner a
    // few ulps beside the other core and an edge beside it can be nearer
    // than rounding tells, and their directions differ entirely; farther
    // apart, the rounded separation's direction is good to 1e-10.)
    nearest = NearestCandidate(a, motion, b, /*rank_all=*/true);
    have_nearest = true;
  }
  if (have_nearest) state.separation.normal = CandidateNormal(nearest);
  if (in_skin && skin_nearest != nullptr) *skin_nearest = nearest;
  switch (state.kind) {
    case StartKind::kTouchingIn:
    case StartKind::kTouchingLeaving:
      state.gap = 0.0;
      break;
    case StartKind::kOverlap:
      state.gap = std::min(state.gap, 0.0);
      break;
    default:
      state.gap = std::max(state.gap, 0.0);
      break;
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

// Whether normal n separates core a, moved by fraction d, from core b
// touching it at b's vertex j, to within rounding of their coordinates:
// every vertex of a on or beyond the plane through the vertex, every
// vertex of b on or behind it.
bool SeparatesBeyondRounding(const Core& a, Vec2 d, double fraction,
                             const Core& b, int j, Vec2 n) {
  const Vec2 q = b.vertex(j);
  const Vec2 shift = fraction * d;
  double worst = kInfinity;
  double scale = MaxAbs(q) + MaxAbs(shift);
  for (int k = 0; k < a.count(); ++k) {
    worst = std::min(worst, Dot((a.vertex(k) + shift) - q, n));
    scale = std::max(scale, MaxAbs(a.vertex(k)) + MaxAbs(shift) + MaxAbs(q));
  }
  for (int k = 0; k < b.count(); ++k) {
    worst = std::min(worst, Dot(q - b.vertex(k), n));
    scale = std::max(scale, MaxAbs(b.vertex(k)) + MaxAbs(q));
  }
  return worst >= -1e-12 * scale;
}

// A contact normal for cores a (moved by fraction d) and b touching at a's
// vertex i and b's vertex j, both without radius: a point contact between
// two corners, where the normal is not given by an edge and must be one that
// separates the pair (every normal of the cone both vertices share is a
// valid answer) and does not point along a's motion d. Of the valid ones
// among the sweep's own normal and the edge normals at either corner, the
// one that opposes the motion least is taken: a mover sliding along a
// surface onto a corner level with it (a crate along a floor of tiles, onto
// the next tile) touches it with the surface's normal, across which it
// moves along, not with the tile's side, which would stop it dead. When
// rounding leaves none valid, the one that separates best (one of the edge
// normals separates: the separating axis theorem). A point core keeps the
// sweep's normal, against the motion.
Vec2 CornerNormal(const Core& a, Vec2 d, double fraction, int i, const Core& b,
                  int j, Vec2 normal) {
  const Vec2 q = b.vertex(j);
  const Vec2 shift = fraction * d;
  double scale = MaxAbs(q) + MaxAbs(shift);
  for (int k = 0; k < a.count(); ++k) {
    scale = std::max(scale, MaxAbs(a.vertex(k)) + MaxAbs(shift) + MaxAbs(q));
  }
  for (int k = 0; k < b.count(); ++k) {
    scale = std::max(scale, MaxAbs(b.vertex(k)) + MaxAbs(q));
  }
  // A normal pointing along the motion beyond its rounding cannot be the
  // contact's: a was outside b before.
  const double along_tolerance = 1e-12 * (std::abs(d.x) + std::abs(d.y));
  const auto separation = [&](Vec2 n) {
    if (Dot(n, d) > along_tolerance) return -kInfinity;
    double worst = kInfinity;
    for (int k = 0; k < a.count(); ++k) {
      worst = std::min(worst, Dot((a.vertex(k) + shift) - q, n));
    }
    for (int k = 0; k < b.count(); ++k) {
      worst = std::min(worst, Dot(q - b.vertex(k), n));
    }
    return worst;
  };
  // Valid: separating to within the rounding of the coordinates and of
  // the contact's time (1e-12 of the sweep).
  const double valid = -(kTouchRoundings * scale + along_tolerance);
  Vec2 least_opposing = normal;
  double least_dot = Dot(normal, d);
  double least_separation = separation(normal);
  bool found = least_separation >= valid;
  // A point meeting a corner has no direction of its own: toi.h's normal
  // against the motion, which the sweep gives, stands when valid.
  if (found && (a.count() < 2 || b.count() < 2)) return normal;
  Vec2 best_separating = normal;
  double best = least_separation;
  const auto consider = [&](Vec2 n) {
    const double s = separation(n);
    if (s > best) {
      best = s;
      best_separating = n;
    }
    if (s < valid) return;
    // Opposing the motion less wins; two that oppose it alike (within
    // rounding: a segment's two normals across a slide along it) go to
    // the one that separates better.
    const double dot = Dot(n, d);
    if (!found || dot > least_dot + along_tolerance ||
        (dot >= least_dot - along_tolerance && s > least_separation)) {
      least_opposing = n;
      least_dot = dot;
      least_separation = s;
      found = true;
    }
  };
  if (b.count() >= 2) {
    consider(b.normal(j));
    consider(b.normal(b.previous(j)));
  }
  if (a.count() >= 2) {
    consider(-a.normal(i));
    consider(-a.normal(a.previous(i)));
  }
  return found ? least_opposing : best_separating;
}

// The end of core c's edge `edge` (as a feature index) within rounding of
// x, a point met on that edge, or -1. A contact strictly inside an edge has
// the edge's normal, which separates (a convex mover crossing the edge's
// line elsewhere would overlap the other core); only one at an end can be
// corner to corner. "Within rounding" is generous (1e-9 of the coordinates
// and the edge, and 1e-12 of `sweep`, the magnitude of the positions the
// contact point was computed from: a long sweep's rounding), as the test it
// gates is only a check.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline int EndAt(const Core& c, int edge, Vec2 x,
                                              Vec2 shift, double sweep) {
  const int start = c.count() == 2 ? 0 : edge;
  const int end = c.next(start);
  const Vec2 p = c.vertex(start) + shift;
  const Vec2 q = c.vertex(end) + shift;
  const double near =
      1e-9 * (MaxAbs(p) + MaxAbs(q) + MaxAbs(q - p)) + 1e-12 * sweep;
  if (MaxAbs(p - x) <= near) return start;
  if (MaxAbs(q - x) <= near) return end;
  return -1;
}

// SettleCorner's rare parts, out of line: a vertex-on-edge contact within
// EndAt's reach of the end of its edge (a's vertex i and b's vertex j the
// corners; on_b when the edge is b's, whose end then becomes the contact
// point), and a's vertex corner_a on one of b's.
ABSL_ATTRIBUTE_NOINLINE void SettleEdgeEnd(const Core& a, Vec2 d, const Core& b,
                                           int i, int j, bool on_b, Hit& best) {
  if (SeparatesBeyondRounding(a, d, best.fraction, b, j, best.normal)) return;
  best.normal = CornerNormal(a, d, best.fraction, i, b, j, best.normal);
  if (on_b) {
    best.point = b.vertex(j);
    best.feature = b.VertexFeature(j);
  }
}
ABSL_ATTRIBUTE_NOINLINE void SettleVertexCorner(const Core& a, Vec2 d,
                                                const Core& b, int corner_a,
                                                Hit& best) {
  best.normal = CornerNormal(a, d, best.fraction, corner_a, b,
                             best.feature.index, best.normal);
}

// Without radii, a corner-to-corner contact's normal is chosen after the
// sweep (CornerNormal), once: for a's vertex corner_a meeting b (on a
// vertex of b), and for a vertex-on-edge contact (a's vertex corner_a on
// b's edge, or b's vertex corner_b on a's edge edge_a) whose normal does not
// separate the pair beyond rounding: the vertex then landed within rounding
// of the edge's end, on which the other core's edge lies (the true contact
// is corner to corner; the two sweeps' times tie to rounding and the
// edge's won). Only the tests of the common contacts inline: most sweeps
// have radii, and most contacts are clear of every end.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SettleCorner(const Core& a, Vec2 d,
                                                      const Core& b,
                                                      int corner_a,
                                                      int corner_b, int edge_a,
                                                      Hit& best) {
  const auto sweep = [&] {
    return MaxAbs(a.vertex(0)) + MaxAbs(b.vertex(0)) +
           best.fraction * MaxAbs(d);
  };
  if (corner_b >= 0) {
    if (a.count() < 2) return;
    const int i =
        EndAt(a, edge_a, b.vertex(corner_b), best.fraction * d, sweep());
    if (i >= 0) SettleEdgeEnd(a, d, b, i, corner_b, /*on_b=*/false, best);
    return;
  }
  if (best.feature.type == FeatureType::kVertex) {
    SettleVertexCorner(a, d, b, corner_a, best);
    return;
  }
  if (best.feature.type != FeatureType::kEdge || b.count() < 2) return;
  const int j = EndAt(b, best.feature.index, best.point, Vec2{}, sweep());
  if (j >= 0) SettleEdgeEnd(a, d, b, corner_a, j, /*on_b=*/true, best);
}

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
        SettleCorner(a, motion.d, b, /*corner_a=*/0, /*corner_b=*/-1,
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
        SettleCorner(a, motion.d, b, on_vertex ? h->feature.index : -1,
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
      SettleCorner(a, d, b, corner_a, corner_b, edge_a, *best);
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
