// Internal: the edge lines of a convex polygon, one at a time, for the
// closed forms' Cyrus-Beck clipping (pairs/ray_closed_form.h,
// pairs/circle_closed_form.h). A clip takes each line through `Line(i, vertex,
// normal)` and keeps what it needs; the lines may come in any order, so a box
// can give its four in corner order with constant normals instead of looking
// each up.
#ifndef COLLIDE_LIB_SRC_SWEEP_EDGE_CLIP_H_
#define COLLIDE_LIB_SRC_SWEEP_EDGE_CLIP_H_

#include "absl/base/attributes.h"
#include "collide/vec2.h"
#include "sweep/axis_box.h"

namespace collide::internal {

// What one line says about the whole answer: nothing yet, a certain miss,
// or a decision within rounding of its threshold (the general machinery's,
// which decides it exactly). A certain miss and the general machinery's
// exact answer agree, so whichever line ends the clipping first, the
// answer is the same.
enum class ClipVerdict { kGoOn, kMiss, kGeneral };

// Every edge line of `polygon` (a ConvexView: count(), vertex(i),
// normal(i)) in index order, until a verdict other than kGoOn.
template <typename ConvexView, typename Clip>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline ClipVerdict ClipEdges(
    const ConvexView& polygon, Clip& clip) {
  for (int i = 0; i < polygon.count(); ++i) {
    const ClipVerdict verdict =
        clip.Line(i, polygon.vertex(i), polygon.normal(i));
    if (verdict != ClipVerdict::kGoOn) return verdict;
  }
  return ClipVerdict::kGoOn;
}

// A box's four lines in corner order, each normal a constant: the same
// values as AxisBoxView's vertex(i) and normal(i), without their lookups.
template <typename Clip>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline ClipVerdict ClipEdges(
    const AxisBoxView& box, Clip& clip) {
  const Vec2 lo = box.lower;
  const Vec2 hi = box.upper;
  const int start = box.start;
  ClipVerdict verdict = clip.Line((0 - start) & 3, lo, kAxisBoxNormals[0]);
  if (verdict != ClipVerdict::kGoOn) return verdict;
  verdict = clip.Line((1 - start) & 3, {hi.x, lo.y}, kAxisBoxNormals[1]);
  if (verdict != ClipVerdict::kGoOn) return verdict;
  verdict = clip.Line((2 - start) & 3, hi, kAxisBoxNormals[2]);
  if (verdict != ClipVerdict::kGoOn) return verdict;
  return clip.Line((3 - start) & 3, {lo.x, hi.y}, kAxisBoxNormals[3]);
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_EDGE_CLIP_H_
