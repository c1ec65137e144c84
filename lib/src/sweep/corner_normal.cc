#include "sweep/corner_normal.h"

#include <algorithm>
#include <cmath>

#include "collide/toi.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "sweep/core.h"

namespace collide::internal {
namespace {

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

// Where point p, moving by `motion` relative to the core holding the edge
// from `end` to `other`, meets that edge's line, against its end `end`,
// exactly: 1 strictly inside the edge (on other's side), 0 exactly at the
// end, -1 beyond it. The point's path crosses the line at end + k (other -
// end), and Cross(p - end, d) = k Cross(other - end, d): no time enters.
// The same for the edge's core moving by -d (both signs turn).
int EndSide(Vec2 p, Vec2 end, Vec2 other, const Motion& motion) {
  return CrossSign(end, p, motion.from, motion.to) *
         CrossSign(end, other, motion.from, motion.to);
}

// Whether polygon core c's edge k, touched at other's vertex v, has other's
// neighbouring vertices on or outside its line: the edge's normal then
// separates the pair at that contact (both convex), which is then a first
// contact; otherwise another part of `other` crossed the line first. Exact,
// and free of the contact's time (a translation keeps every sign).
bool EdgeSupports(const Core& c, int k, const Core& other, int v) {
  const Vec2 from = c.vertex(k);
  const Vec2 to = c.vertex(c.next(k));
  const Vec2 at = other.vertex(v);
  return other.count() < 2 ||
         (CrossSign(from, to, at, other.vertex(other.previous(v))) <= 0 &&
          CrossSign(from, to, at, other.vertex(other.next(v))) <= 0);
}

// The other end of polygon core c's edge k.
int OtherEnd(const Core& c, int k, int end) { return end == k ? c.next(k) : k; }

}  // namespace

ABSL_ATTRIBUTE_NOINLINE void SettleEdgeEnd(const Core& a, const Motion& motion,
                                           const Core& b, int i, int j,
                                           int other, bool on_b, Hit& best) {
  const Vec2 d = motion.d;
  const Vec2 p = a.vertex(i);
  const Vec2 q = b.vertex(j);
  if (a.count() >= 3 && b.count() >= 3) {
    // The edge the sweep met, and a candidate's test: `edge_core`'s edge k
    // at its vertex `end`, met by `vertex_core`'s vertex v.
    const int met = on_b ? (other == b.next(j) ? j : b.previous(j))
                         : (other == a.next(i) ? i : a.previous(i));
    // Facing: the vertex closes on the edge's line from outside (a's
    // vertices move by d against b's outward normals, b's by -d against
    // a's): Dot(d, RightPerp(e)) = -Cross(e, d).
    const auto first = [&](const Core& edge_core, int k, int end,
                           const Core& vertex_core, int v) {
      const int facing =
          CrossSign(edge_core.vertex(k), edge_core.vertex(edge_core.next(k)),
                    motion.from, motion.to);
      return (&edge_core == &b ? facing > 0 : facing < 0) &&
             EndSide(vertex_core.vertex(v), edge_core.vertex(end),
                     edge_core.vertex(OtherEnd(edge_core, k, end)),
                     motion) > 0 &&
             EdgeSupports(edge_core, k, vertex_core, v);
    };
    if (on_b ? first(b, met, j, a, i) : first(a, met, i, b, j)) return;
    const int side = on_b ? EndSide(p, q, b.vertex(other), motion)
                          : EndSide(q, p, a.vertex(other), motion);
    if (side != 0) {
      for (const int k : {i, a.previous(i)}) {
        if ((on_b || k != met) && first(a, k, i, b, j)) {
          best.normal = -a.normal(k);
          best.point = q;
          best.feature = b.VertexFeature(j);
          return;
        }
      }
      for (const int k : {j, b.previous(j)}) {
        if ((!on_b || k != met) && first(b, k, j, a, i)) {
          best.normal = b.normal(k);
          best.point = q;
          best.feature = b.EdgeFeature(k);
          return;
        }
      }
    }
  }
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

}  // namespace collide::internal
