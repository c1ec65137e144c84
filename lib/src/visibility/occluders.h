// Internal: which level shapes block sight, and whether one blocks a sight
// line, by the rules of collide/visibility.h.
#ifndef COLLIDE_LIB_SRC_VISIBILITY_OCCLUDERS_H_
#define COLLIDE_LIB_SRC_VISIBILITY_OCCLUDERS_H_

#include <cstdint>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/vec2.h"
#include "exact/sign.h"
#include "world/query_common.h"

namespace collide::internal {

// Whether shape `shape` of `level` occludes for this query: the query
// filter (two-way bits, groups, ignore_ids) and a patched level's
// removals. VisibleTargets skips asking where the filter passes every shape
// (Level::EveryShapePasses, no one-sided shape, no ignore_ids, no patch): a
// rule that can refuse a shape the filter passes must change that test too.
inline bool Occludes(const Level& level, int32_t shape,
                     const QueryFilter& filter, const uint64_t* removed) {
  return Passes(level, shape, filter, removed);
}

// The same for primitive `p` seen from `viewer`: a one-sided segment or
// polyline segment blocks sight only from its front (the left of a -> b,
// as it blocks movers): a viewer strictly in front; one on its line or
// behind it sees through it. Decided exactly.
inline bool Occludes(const Level& level, const Level::Primitive& p, Vec2 viewer,
                     const QueryFilter& filter, const uint64_t* removed) {
  return Passes(level, p.shape, filter, removed) &&
         (!p.one_sided || Orient(p.a, p.b, viewer) > 0);
}

// Whether the open segment (v, t) meets the closed segment [a, b] (a == b
// allowed): the rule for segments and polyline edges. v != t.
bool SegmentBlocks(Vec2 v, Vec2 t, Vec2 a, Vec2 b);

// Whether (v, t) and (a, b) cross at one point interior to both, with v and
// t strictly on opposite sides of the line ab and a and b strictly on
// opposite sides of the line vt. Such a crossing of a segment, or of an
// edge or chord of a solid shape, blocks the sight line.
bool CrossesProperly(Vec2 v, Vec2 t, Vec2 a, Vec2 b);

// Whether the distance from p to the closed segment [a, b] is below r,
// exactly.
bool WithinBelow(Vec2 p, Vec2 a, Vec2 b, double r);

// Whether the open segment (v, t) meets the interior of the solid shape.
bool ConvexBlocks(Vec2 v, Vec2 t, const ConvexPolygon& polygon);
bool ConcaveBlocks(Vec2 v, Vec2 t, absl::Span<const Vec2> vertices);
bool CircleBlocks(Vec2 v, Vec2 t, Vec2 center, double radius);
bool CapsuleBlocks(Vec2 v, Vec2 t, Vec2 p1, Vec2 p2, double radius);

// Whether primitive p of `level` blocks the sight line v -> t (v != t): a
// concave polygon's edge answers for the whole polygon when the sight line
// touches it. Exact.
bool Blocks(const Level& level, const Level::Primitive& p, Vec2 v, Vec2 t);

// Whether v lies strictly inside a solid shape of `level` (one layer)
// that occludes.
bool InsideOccluder(const Level& level, const uint64_t* removed, Vec2 v,
                    const QueryFilter& filter);

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_VISIBILITY_OCCLUDERS_H_
