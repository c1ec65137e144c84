// Internal: axis-aligned rectangles among a level's convex polygons. A
// city of crates or a tile map is mostly such boxes; recognised at build
// time, a box's vertices and normals follow from its bounding box and a
// start corner, so a ray's closed form (pairs/ray_closed_form.h) reads the box
// from the primitive's own cache line instead of from a separate polygon
// record.
#ifndef COLLIDE_LIB_SRC_SWEEP_AXIS_BOX_H_
#define COLLIDE_LIB_SRC_SWEEP_AXIS_BOX_H_

#include <cstring>

#include "absl/base/attributes.h"
#include "collide/shapes.h"
#include "collide/vec2.h"

namespace collide::internal {

// Corner k of a box, counter-clockwise from the lower left: (lower.x,
// lower.y), (upper.x, lower.y), (upper.x, upper.y), (lower.x, upper.y); the
// outward normal of the edge from corner k to k + 1, with the zero signs
// MakeConvexPolygon gives them (RightPerp of the edge, normalized).
inline constexpr Vec2 kAxisBoxNormals[4] = {
    {0.0, -1.0}, {1.0, -0.0}, {0.0, 1.0}, {-1.0, -0.0}};

// A box as a ConvexView (see CastRayClearConvex): vertex i is corner (i +
// start) % 4.
struct AxisBoxView {
  Vec2 lower;
  Vec2 upper;
  int start;

  int count() const { return 4; }
  // Inline always: a call costs as much as the selection.
  ABSL_ATTRIBUTE_ALWAYS_INLINE Vec2 vertex(int i) const {
    const int k = (i + start) & 3;
    return {k == 1 || k == 2 ? upper.x : lower.x, k >= 2 ? upper.y : lower.y};
  }
  Vec2 normal(int i) const { return kAxisBoxNormals[(i + start) & 3]; }
};

// The polygon `box` stands for, bit for bit (count 4, unused slots zero):
// a cast other than a skinless ray's takes a ConvexPolygon, and building it
// from the primitive's bounds reads one cache line where the level's
// polygon record spans three.
inline ConvexPolygon ToConvexPolygon(const AxisBoxView& box) {
  const Vec2 corners[4] = {box.lower,
                           {box.upper.x, box.lower.y},
                           box.upper,
                           {box.lower.x, box.upper.y}};
  ConvexPolygon polygon;
  polygon.count = 4;
  for (int i = 0; i < 4; ++i) {
    polygon.vertices[i] = corners[(i + box.start) & 3];
    polygon.normals[i] = kAxisBoxNormals[(i + box.start) & 3];
  }
  return polygon;
}

// The start for which AxisBoxView{box.lower, box.upper, start} gives
// exactly (bit for bit) the vertices and normals of `polygon`, or -1 when
// none does; box is the polygon's bounding box.
inline int AxisBoxStart(const ConvexPolygon& polygon, Aabb box) {
  if (polygon.count != 4) return -1;
  const auto same = [](Vec2 a, Vec2 b) {
    return std::memcmp(&a, &b, sizeof(Vec2)) == 0;
  };
  for (int start = 0; start < 4; ++start) {
    const AxisBoxView view{box.lower, box.upper, start};
    bool all = true;
    for (int i = 0; i < 4 && all; ++i) {
      all = same(view.vertex(i), polygon.vertices[i]) &&
            same(view.normal(i), polygon.normals[i]);
    }
    if (all) return start;
  }
  return -1;
}

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_SWEEP_AXIS_BOX_H_
