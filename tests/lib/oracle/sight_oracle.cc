#include "sight_oracle.h"

#include <gmpxx.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace collide::oracle {
namespace {

struct QV {
  mpq_class x, y;
};
QV Of(Vec2 p) { return {mpq_class(p.x), mpq_class(p.y)}; }
QV Sub(const QV& a, const QV& b) { return {a.x - b.x, a.y - b.y}; }
mpq_class CrossQ(const QV& a, const QV& b) { return a.x * b.y - a.y * b.x; }
mpq_class DotQ(const QV& a, const QV& b) { return a.x * b.x + a.y * b.y; }

// Squared distance from p to the closed segment [a, b].
mpq_class PointSegmentSquared(const QV& p, const QV& a, const QV& b) {
  const QV d = Sub(b, a);
  const mpq_class dd = DotQ(d, d);
  mpq_class s = 0;
  if (dd != 0) {
    s = DotQ(Sub(p, a), d) / dd;
    if (s < 0) s = 0;
    if (s > 1) s = 1;
  }
  const QV q{a.x + s * d.x - p.x, a.y + s * d.y - p.y};
  return DotQ(q, q);
}

// Whether the closed segments [a, b] and [c, d] share a point.
bool SegmentsMeet(const QV& a, const QV& b, const QV& c, const QV& d) {
  const QV r = Sub(b, a);
  const QV s = Sub(d, c);
  const mpq_class den = CrossQ(r, s);
  const QV ca = Sub(c, a);
  if (den != 0) {
    const mpq_class u = CrossQ(ca, s) / den;  // along [a, b]
    const mpq_class w = CrossQ(ca, r) / den;  // along [c, d]
    return u >= 0 && u <= 1 && w >= 0 && w <= 1;
  }
  return PointSegmentSquared(a, c, d) == 0 ||
         PointSegmentSquared(b, c, d) == 0 ||
         PointSegmentSquared(c, a, b) == 0 || PointSegmentSquared(d, a, b) == 0;
}

// -1 outside, 0 on the boundary, 1 strictly inside (crossing number with
// the boundary checked first).
int PointInOutline(const std::vector<QV>& poly, const QV& p) {
  const size_t n = poly.size();
  for (size_t i = 0; i < n; ++i) {
    if (PointSegmentSquared(p, poly[i], poly[(i + 1) % n]) == 0) return 0;
  }
  bool inside = false;
  for (size_t i = 0; i < n; ++i) {
    const QV& a = poly[i];
    const QV& b = poly[(i + 1) % n];
    if ((a.y > p.y) != (b.y > p.y)) {
      const mpq_class x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (x > p.x) inside = !inside;
    }
  }
  return inside ? 1 : -1;
}

std::vector<QV> Outline(const SightOccluder& o) {
  std::vector<QV> q;
  for (Vec2 p : o.points) q.push_back(Of(p));
  return q;
}

// Parameters s in (0, 1) along v + s (t - v) where the line meets the
// closed segment [a, b]: the crossing, or both ends of a collinear overlap.
void BoundaryParameters(const QV& v, const QV& t, const QV& a, const QV& b,
                        std::vector<mpq_class>* out) {
  const QV r = Sub(t, v);
  const QV s = Sub(b, a);
  const mpq_class den = CrossQ(r, s);
  const QV av = Sub(a, v);
  if (den != 0) {
    const mpq_class u = CrossQ(av, s) / den;
    const mpq_class w = CrossQ(av, r) / den;
    if (w >= 0 && w <= 1 && u > 0 && u < 1) out->push_back(u);
    return;
  }
  if (CrossQ(av, r) != 0) return;  // parallel, apart
  const mpq_class rr = DotQ(r, r);
  for (const QV* e : {&a, &b}) {
    const mpq_class u = DotQ(Sub(*e, v), r) / rr;
    if (u > 0 && u < 1) out->push_back(u);
  }
}

}  // namespace

bool InViewExact(const SightViewer& viewer, Vec2 target) {
  const QV v = Of(viewer.position);
  const QV p = Sub(Of(target), v);
  if (p.x == 0 && p.y == 0) return true;
  if (viewer.range.has_value()) {
    const mpq_class r(*viewer.range);
    if (DotQ(p, p) > r * r) return false;
  }
  if (!viewer.cone.has_value()) return true;
  const QV right = Of(viewer.cone->first);
  const QV left = Of(viewer.cone->second);
  // Angles measured counter-clockwise from right, exactly by quadrant:
  // in view when p's is at most left's.
  const auto half = [&](const QV& w) {
    // 0: [0, pi) from right, 1: [pi, 2 pi).
    const int c = sgn(CrossQ(right, w));
    if (c > 0) return 0;
    if (c < 0) return 1;
    return DotQ(right, w) > 0 ? 0 : 1;
  };
  const int hp = half(p);
  const int hl = half(left);
  if (hp != hl) return hp < hl;
  // Same half turn: p no further than left.
  return sgn(CrossQ(p, left)) >= 0;
}

bool BlocksExact(const SightOccluder& o, Vec2 vd, Vec2 td) {
  const QV v = Of(vd);
  const QV t = Of(td);
  if (v.x == t.x && v.y == t.y) return false;
  switch (o.kind) {
    case SightOccluder::Kind::kSegment: {
      const std::vector<QV> q = Outline(o);
      const size_t n = q.size();
      const size_t segments = o.closed ? n : n - 1;
      for (size_t i = 0; i < segments; ++i) {
        const QV& a = q[i];
        const QV& b = q[(i + 1) % n];
        // A point of [a, b] on (v, t): the closed segments meet somewhere
        // other than at v or t alone.
        if (!SegmentsMeet(v, t, a, b)) continue;
        std::vector<mpq_class> s;
        BoundaryParameters(v, t, a, b, &s);
        if (!s.empty()) return true;
        // Collinear overlap covering (v, t) without an end inside it.
        const QV r = Sub(t, v);
        if (CrossQ(Sub(a, v), r) == 0 && CrossQ(Sub(b, v), r) == 0) {
          const mpq_class rr = DotQ(r, r);
          const mpq_class ua = DotQ(Sub(a, v), r) / rr;
          const mpq_class ub = DotQ(Sub(b, v), r) / rr;
          if (std::min(ua, ub) <= 0 && std::max(ua, ub) >= 1) return true;
        }
      }
      return false;
    }
    case SightOccluder::Kind::kPolygon: {
      const std::vector<QV> q = Outline(o);
      const size_t n = q.size();
      std::vector<mpq_class> s = {mpq_class(0), mpq_class(1)};
      for (size_t i = 0; i < n; ++i) {
        BoundaryParameters(v, t, q[i], q[(i + 1) % n], &s);
      }
      std::sort(s.begin(), s.end());
      const QV r = Sub(t, v);
      for (size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] == s[i + 1]) continue;
        const mpq_class m = (s[i] + s[i + 1]) / 2;
        if (PointInOutline(q, QV{v.x + m * r.x, v.y + m * r.y}) > 0) {
          return true;
        }
      }
      return false;
    }
    case SightOccluder::Kind::kCircle: {
      if (o.radius == 0) return false;
      const mpq_class r(o.radius);
      return PointSegmentSquared(Of(o.points[0]), v, t) < r * r;
    }
    case SightOccluder::Kind::kCapsule: {
      if (o.radius == 0) return false;
      const mpq_class r(o.radius);
      const QV a = Of(o.points[0]);
      const QV b = Of(o.points[1]);
      if (SegmentsMeet(v, t, a, b)) return true;
      const mpq_class d = std::min(
          std::min(PointSegmentSquared(a, v, t), PointSegmentSquared(b, v, t)),
          std::min(PointSegmentSquared(v, a, b), PointSegmentSquared(t, a, b)));
      return d < r * r;
    }
  }
  return false;
}

bool InsideExact(const SightOccluder& o, Vec2 vd) {
  const QV v = Of(vd);
  switch (o.kind) {
    case SightOccluder::Kind::kSegment:
      return false;
    case SightOccluder::Kind::kPolygon:
      return PointInOutline(Outline(o), v) > 0;
    case SightOccluder::Kind::kCircle: {
      const mpq_class r(o.radius);
      const QV d = Sub(v, Of(o.points[0]));
      return DotQ(d, d) < r * r;
    }
    case SightOccluder::Kind::kCapsule: {
      const mpq_class r(o.radius);
      return PointSegmentSquared(v, Of(o.points[0]), Of(o.points[1])) < r * r;
    }
  }
  return false;
}

bool SeesExact(const std::vector<SightOccluder>& occluders,
               const SightViewer& viewer, Vec2 target) {
  if (!InViewExact(viewer, target)) return false;
  for (const SightOccluder& o : occluders) {
    if (InsideExact(o, viewer.position)) return false;
  }
  for (const SightOccluder& o : occluders) {
    if (BlocksExact(o, viewer.position, target)) return false;
  }
  return true;
}

}  // namespace collide::oracle
