#include "core_within.h"

#include <algorithm>
#include <cmath>

#include "collide/vec2.h"
#include "convex_core.h"
#include "exact_sign.h"

namespace collide::internal {
namespace {

// Whether p lies on the closed segment [a, b] (a == b: is a).
bool OnSegment(Vec2 p, Vec2 a, Vec2 b) {
  if (a == b) return p == a;
  return Orient(a, b, p) == 0 && DotSign(a, b, a, p) >= 0 &&
         DotSign(b, a, b, p) >= 0;
}

// Whether the closed segments [a, b] and [c, d] meet.
bool SegmentsMeet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  if (a == b) return OnSegment(a, c, d);
  if (c == d) return OnSegment(c, a, b);
  const int c_side = Orient(a, b, c), d_side = Orient(a, b, d);
  const int a_side = Orient(c, d, a), b_side = Orient(c, d, b);
  if (c_side * d_side < 0 && a_side * b_side < 0) return true;
  // Otherwise they meet only where an end lies on the other segment.
  return (c_side == 0 && OnSegment(c, a, b)) ||
         (d_side == 0 && OnSegment(d, a, b)) ||
         (a_side == 0 && OnSegment(a, c, d)) ||
         (b_side == 0 && OnSegment(b, c, d));
}

// Whether p lies in the closed hull of the core's vertices (polygons are
// counter-clockwise).
bool InHull(Vec2 p, const Core& core) {
  if (core.count() <= 2) {
    return OnSegment(p, core.vertex(0), core.vertex(core.count() - 1));
  }
  for (int i = 0; i < core.count(); ++i) {
    if (Orient(core.vertex(i), core.vertex(core.next(i)), p) < 0) return false;
  }
  return true;
}

// The core's edges as segments: none for a point (its one vertex stands
// for it), one for a segment.
int Edges(const Core& core) {
  return core.count() == 1 ? 1 : (core.count() == 2 ? 1 : core.count());
}

bool CoresWithinExact(const Core& a, const Core& b, double extra) {
  if (HullsMeet(a, b)) return true;
  // Apart: the nearest pair is a vertex of one and an edge (or the vertex)
  // of the other.
  const auto vertex_near_edges = [&](const Core& v, const Core& e) {
    for (int i = 0; i < v.count(); ++i) {
      for (int j = 0; j < Edges(e); ++j) {
        if (PointWithinSegment(v.vertex(i), e.vertex(j), e.vertex(e.next(j)),
                               a.radius(), b.radius(), extra)) {
          return true;
        }
      }
    }
    return false;
  };
  return vertex_near_edges(a, b) || vertex_near_edges(b, a);
}

}  // namespace

bool PointWithinSegment(Vec2 p, Vec2 a, Vec2 b, double r1, double r2,
                        double r3) {
  if (a == b || DotSign(a, b, a, p) <= 0) {
    return DistanceSquaredVs(p, a, r1, r2, r3) <= 0;
  }
  if (DotSign(b, a, b, p) <= 0) return DistanceSquaredVs(p, b, r1, r2, r3) <= 0;
  return LineDistanceVs(a, b, p, r1, r2, r3) <= 0;
}

bool HullsMeet(const Core& a, const Core& b) {
  for (int i = 0; i < a.count(); ++i) {
    if (InHull(a.vertex(i), b)) return true;
  }
  for (int j = 0; j < b.count(); ++j) {
    if (InHull(b.vertex(j), a)) return true;
  }
  // Neither holds a vertex of the other: they meet only where edges cross.
  for (int i = 0; i < Edges(a); ++i) {
    for (int j = 0; j < Edges(b); ++j) {
      if (SegmentsMeet(a.vertex(i), a.vertex(a.next(i)), b.vertex(j),
                       b.vertex(b.next(j)))) {
        return true;
      }
    }
  }
  return false;
}

double Magnitude(const Core& core) {
  double m = 0.0;
  for (int i = 0; i < core.count(); ++i) {
    m = std::max({m, std::abs(core.vertex(i).x), std::abs(core.vertex(i).y)});
  }
  return m;
}

bool CoresWithin(const Core& a, const Core& b, double extra) {
  const double reach = a.radius() + b.radius() + extra;
  const double gap = Separate(a, b).gap;
  const double bound =
      DistanceRoundingBound(Magnitude(a) + Magnitude(b) + std::abs(gap), reach);
  if (gap < reach - bound) return true;
  if (gap > reach + bound) return false;
  return CoresWithinExact(a, b, extra);
}

}  // namespace collide::internal
