#include "sweep/corner_normal.h"

#include <algorithm>
#include <cmath>

#include "collide/toi.h"
#include "collide/vec2.h"
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

}  // namespace

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

}  // namespace collide::internal
