#include "exact/within_distance.h"

#include "collide/vec2.h"
#include "exact/sign.h"

namespace collide::internal {
namespace {

// A vertex of hull a or b; a's may be moved by f (to - from) (see
// HullsWithinAfter).
struct Point {
  Vec2 p;
  bool moved = false;
};

// The signs the decisions below take, on points at rest: exact/sign.h's
// filtered predicates.
struct AtRest {
  bool Same(Point a, Point b) const { return a.p == b.p; }
  int Orient(Point a, Point b, Point c) const {
    return internal::Orient(a.p, b.p, c.p);
  }
  int Dot(Point a, Point b, Point c, Point d) const {
    return DotSign(a.p, b.p, c.p, d.p);
  }
  // Sign of |p - q|^2 - (r1 + r2 + r3)^2.
  int DistanceVs(Point p, Point q, double r1, double r2, double r3) const {
    return DistanceSquaredVs(p.p, q.p, r1, r2, r3);
  }
  // Sign of the squared distance from p to the line a b against the radii.
  int LineVs(Point a, Point b, Point p, double r1, double r2, double r3) const {
    return LineDistanceVs(a.p, b.p, p.p, r1, r2, r3);
  }
};

// The same signs with a's points moved by f (to - from), which need not be
// a double: exact expansions throughout (a rare path).
class Moved {
 public:
  Moved(Vec2 from, Vec2 to, double f)
      : dx_(Expansion(f) * Expansion::Difference(to.x, from.x)),
        dy_(Expansion(f) * Expansion::Difference(to.y, from.y)) {}

  bool Same(Point a, Point b) const {
    const ExactVec v = Sub(a, b);
    return v.x.sign() == 0 && v.y.sign() == 0;
  }
  int Orient(Point a, Point b, Point c) const {
    return Cross(Sub(b, a), Sub(c, a)).sign();
  }
  int Dot(Point a, Point b, Point c, Point d) const {
    const ExactVec u = Sub(b, a), v = Sub(d, c);
    return (u.x * v.x + u.y * v.y).sign();
  }
  int DistanceVs(Point p, Point q, double r1, double r2, double r3) const {
    const ExactVec v = Sub(p, q);
    const Expansion r = Expansion::Sum(r1, r2) + Expansion(r3);
    return (v.x * v.x + v.y * v.y - r * r).sign();
  }
  int LineVs(Point a, Point b, Point p, double r1, double r2, double r3) const {
    const ExactVec e = Sub(b, a);
    const Expansion cross = Cross(e, Sub(p, a));
    const Expansion r = Expansion::Sum(r1, r2) + Expansion(r3);
    return (cross * cross - r * r * (e.x * e.x + e.y * e.y)).sign();
  }

 private:
  static Expansion Cross(const ExactVec& u, const ExactVec& v) {
    return u.x * v.y - u.y * v.x;
  }
  // p - q, exactly.
  ExactVec Sub(Point p, Point q) const {
    ExactVec v = Difference(p.p, q.p);
    if (p.moved != q.moved) {
      v.x = p.moved ? v.x + dx_ : v.x - dx_;
      v.y = p.moved ? v.y + dy_ : v.y - dy_;
    }
    return v;
  }

  Expansion dx_, dy_;
};

// A hull's vertices as Points.
struct Side {
  const Hull& hull;
  bool moved;
  Point vertex(int i) const { return {hull.vertices[i], moved}; }
  Point next_vertex(int i) const {
    return vertex(i + 1 == hull.count ? 0 : i + 1);
  }
  int count() const { return hull.count; }
  // Its edges as segments: one for a point (its vertex twice) or a segment.
  int edges() const { return hull.count <= 2 ? 1 : hull.count; }
};

// Whether p lies on the closed segment [a, b] (a == b: is a).
template <typename Signs>
bool OnSegment(const Signs& s, Point p, Point a, Point b) {
  if (s.Same(a, b)) return s.Same(p, a);
  return s.Orient(a, b, p) == 0 && s.Dot(a, b, a, p) >= 0 &&
         s.Dot(b, a, b, p) >= 0;
}

// Whether the closed segments [a, b] and [c, d] meet.
template <typename Signs>
bool SegmentsMeet(const Signs& s, Point a, Point b, Point c, Point d) {
  if (s.Same(a, b)) return OnSegment(s, a, c, d);
  if (s.Same(c, d)) return OnSegment(s, c, a, b);
  const int c_side = s.Orient(a, b, c), d_side = s.Orient(a, b, d);
  const int a_side = s.Orient(c, d, a), b_side = s.Orient(c, d, b);
  if (c_side * d_side < 0 && a_side * b_side < 0) return true;
  // Otherwise they meet only where an end lies on the other segment.
  return (c_side == 0 && OnSegment(s, c, a, b)) ||
         (d_side == 0 && OnSegment(s, d, a, b)) ||
         (a_side == 0 && OnSegment(s, a, c, d)) ||
         (b_side == 0 && OnSegment(s, b, c, d));
}

// Whether p lies in the closed hull of the core's vertices (polygons are
// counter-clockwise).
template <typename Signs>
bool InHull(const Signs& s, Point p, const Side& core) {
  if (core.count() <= 2) {
    return OnSegment(s, p, core.vertex(0), core.vertex(core.count() - 1));
  }
  for (int i = 0; i < core.count(); ++i) {
    if (s.Orient(core.vertex(i), core.next_vertex(i), p) < 0) return false;
  }
  return true;
}

template <typename Signs>
bool PointWithin(const Signs& s, Point p, Point a, Point b, double r1,
                 double r2, double r3) {
  if (s.Same(a, b) || s.Dot(a, b, a, p) <= 0) {
    return s.DistanceVs(p, a, r1, r2, r3) <= 0;
  }
  if (s.Dot(b, a, b, p) <= 0) return s.DistanceVs(p, b, r1, r2, r3) <= 0;
  return s.LineVs(a, b, p, r1, r2, r3) <= 0;
}

template <typename Signs>
bool Meet(const Signs& s, const Side& a, const Side& b) {
  for (int i = 0; i < a.count(); ++i) {
    if (InHull(s, a.vertex(i), b)) return true;
  }
  for (int j = 0; j < b.count(); ++j) {
    if (InHull(s, b.vertex(j), a)) return true;
  }
  // Neither holds a vertex of the other: they meet only where edges cross.
  for (int i = 0; i < a.edges(); ++i) {
    for (int j = 0; j < b.edges(); ++j) {
      if (SegmentsMeet(s, a.vertex(i), a.next_vertex(i), b.vertex(j),
                       b.next_vertex(j))) {
        return true;
      }
    }
  }
  return false;
}

template <typename Signs>
bool WithinExact(const Signs& s, const Side& a, const Side& b, double extra) {
  if (Meet(s, a, b)) return true;
  // Apart: the nearest pair is a vertex of one and an edge (or the vertex)
  // of the other.
  const double ra = a.hull.radius, rb = b.hull.radius;
  const auto vertex_near_edges = [&](const Side& v, const Side& e) {
    for (int i = 0; i < v.count(); ++i) {
      for (int j = 0; j < e.edges(); ++j) {
        if (PointWithin(s, v.vertex(i), e.vertex(j), e.next_vertex(j), ra, rb,
                        extra)) {
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
  return PointWithin(AtRest{}, {p}, {a}, {b}, r1, r2, r3);
}

bool HullsWithin(const Hull& a, const Hull& b, double extra) {
  return WithinExact(AtRest{}, Side{a, false}, Side{b, false}, extra);
}

bool HullsWithinAfter(const Hull& a, Vec2 from, Vec2 to, double f,
                      const Hull& b, double extra) {
  return WithinExact(Moved(from, to, f), Side{a, true}, Side{b, false}, extra);
}

}  // namespace collide::internal
