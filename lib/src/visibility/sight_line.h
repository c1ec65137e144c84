// Internal: one sight line against the occluders, as Sees decides it and
// as VisibleTargets falls back to: the per-shape test with its quick
// filtered answers, the walk along the cells, and the viewer-inside rule.
#ifndef COLLIDE_LIB_SRC_VISIBILITY_SIGHT_LINE_H_
#define COLLIDE_LIB_SRC_VISIBILITY_SIGHT_LINE_H_

#include <cstdint>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "visibility/occluders.h"

namespace collide::internal {

// A level's layers: itself, and for a patched level its base less the
// removed shapes (bit i of `removed` set: base shape i is gone).
struct SightLayer {
  const Level* level = nullptr;
  const uint64_t* removed = nullptr;
};

inline int SightLayers(const Level& level, SightLayer (&layers)[2]) {
  layers[0] = {&level, nullptr};
  if (const Level* base = level.base()) {
    layers[1] = {base, level.removed_from_base().data()};
    return 2;
  }
  return 1;
}

// Whether the filter passes every shape of the layer and none is
// one-sided, so that no shape record need be read to know one occludes.
inline bool EveryShapeOccludes(const SightLayer& layer,
                               const QueryFilter& filter) {
  return layer.removed == nullptr && filter.ignore_ids.empty() &&
         !layer.level->has_one_sided() &&
         layer.level->EveryShapePasses(filter.mask_bits, filter.category_bits,
                                       filter.group);
}

// Whether v lies strictly inside a solid occluder of any layer.
bool ViewerInside(const Level& level, Vec2 v, const QueryFilter& filter);

// Quick answers of internal::Blocks(p, v, t) where the filtered signs
// alone decide: Apart when p lies strictly on one side of the line vt (a
// segment's two ends, or the four corners of a convex polygon's bounding
// box, which are its vertices' exact minima and maxima), Crossing when a
// segment kind crosses (v, t) properly. Both are exact when they answer;
// Unknown leaves the case to internal::Blocks.
enum class Quick { kApart, kCrossing, kUnknown };

inline bool SegmentKind(Level::PrimitiveKind kind) {
  return kind == Level::PrimitiveKind::kSegment ||
         kind == Level::PrimitiveKind::kPolylineEdge ||
         kind == Level::PrimitiveKind::kConcaveEdge;
}

inline Quick QuickBlocks(const Level::Primitive& p, Vec2 v, Vec2 t) {
  const Vec2 u = t - v;
  if (SegmentKind(p.kind)) {
    const int o1 = FilteredCrossSign(u, p.a - v);
    const int o2 = FilteredCrossSign(u, p.b - v);
    if (o1 != 0 && o1 == o2) return Quick::kApart;
    if (o1 * o2 >= 0) return Quick::kUnknown;
    const Vec2 e = p.b - p.a;
    const int o3 = FilteredCrossSign(e, v - p.a);
    const int o4 = FilteredCrossSign(e, t - p.a);
    return o3 * o4 < 0 ? Quick::kCrossing : Quick::kUnknown;
  }
  if (p.kind == Level::PrimitiveKind::kConvexPolygon) {
    const int o = FilteredCrossSign(u, p.a - v);
    if (o != 0 && FilteredCrossSign(u, Vec2{p.b.x, p.a.y} - v) == o &&
        FilteredCrossSign(u, p.b - v) == o &&
        FilteredCrossSign(u, Vec2{p.a.x, p.b.y} - v) == o) {
      return Quick::kApart;
    }
  }
  return Quick::kUnknown;
}

// Whether the filtered signs alone show (v, t) and (a, b) crossing at one
// point interior to both (CrossesProperly where it is certain).
inline bool SurelyCrossesProperly(Vec2 v, Vec2 t, Vec2 a, Vec2 b) {
  const Vec2 u = t - v;
  const Vec2 e = b - a;
  return FilteredCrossSign(u, a - v) * FilteredCrossSign(u, b - v) < 0 &&
         FilteredCrossSign(e, v - a) * FilteredCrossSign(e, t - a) < 0;
}

// Blocks(level, p, v, t), answered by QuickBlocks where it can. A convex
// polygon crossed properly along a segment between two of its vertices
// (two diagonals, or a triangle's edges) blocks: near the crossing the
// sight line enters the interior.
inline bool BlocksFast(const Level& level, const Level::Primitive& p, Vec2 v,
                       Vec2 t) {
  switch (QuickBlocks(p, v, t)) {
    case Quick::kApart:
      return false;
    case Quick::kCrossing:
      return true;
    case Quick::kUnknown:
      break;
  }
  if (p.kind == Level::PrimitiveKind::kConvexPolygon) {
    const ConvexPolygon& polygon = level.convex_polygon(p.shape);
    const Vec2* w = polygon.vertices.data();
    if (polygon.count >= 4 ? SurelyCrossesProperly(v, t, w[0], w[2]) ||
                                 SurelyCrossesProperly(v, t, w[1], w[3])
                           : SurelyCrossesProperly(v, t, w[0], w[1]) ||
                                 SurelyCrossesProperly(v, t, w[1], w[2])) {
      return true;
    }
  }
  return Blocks(level, p, v, t);
}

// An occluder blocking a sight line, and the layer it belongs to.
struct SightBlocker {
  const Level* level = nullptr;
  const Level::Primitive* primitive = nullptr;
};

// The occluder blocking v -> t (v != t) that a walk of the cells along
// the sight line from `from` to t meets first, or none. `from` is v, or a
// point of [v, t] rounded (within 1e-15 (|v| + |t|)) where the caller has
// tested every occluder that meets [v, from] already. Which shapes occlude
// is decided for the viewer at v. Adds the shapes tested to `tests`.
SightBlocker WalkBlocked(const Level& level, Vec2 v, Vec2 from, Vec2 t,
                         const QueryFilter& filter, int64_t& tests);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VISIBILITY_SIGHT_LINE_H_
