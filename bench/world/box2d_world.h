// Box2D 2.4.1 beside collide: the scene's shapes in one b2DynamicTree (the
// broad-phase a b2World uses, without the fixture indirection), queried the
// way b2World::RayCast does it.
// - Rays: b2DynamicTree::RayCast, each candidate's own b2EdgeShape /
//   b2PolygonShape::RayCast, the callback clipping maxFraction to the best.
// - Circle casts: b2DynamicTree::Query over the swept bounds, then b2ShapeCast
//   (GJK conservative advancement) per candidate, closest kept.
// Shapes are converted to float once; polygons get radius 0 (not
// b2_polygonRadius) so the geometry equals collide's.
#ifndef COLLIDE_BENCH_WORLD_BOX2D_WORLD_H_
#define COLLIDE_BENCH_WORLD_BOX2D_WORLD_H_

#include <box2d/b2_dynamic_tree.h>
#include <box2d/b2_edge_shape.h>
#include <box2d/b2_polygon_shape.h>

#include <vector>

#include "scenes.h"

namespace collide_bench {

class Box2dWorld {
 public:
  explicit Box2dWorld(const Scene& scene);
  Box2dWorld(const Box2dWorld&) = delete;
  Box2dWorld& operator=(const Box2dWorld&) = delete;

  WorldHit CastRay(collide::Vec2 origin, collide::Vec2 translation) const;
  WorldHit CastCircle(collide::Vec2 center, double radius,
                      collide::Vec2 translation) const;

  int32 tree_height() const { return tree_.GetHeight(); }

 private:
  ShapeKind kind_;
  b2DynamicTree tree_;
  std::vector<b2EdgeShape> edges_;        // kSegment
  std::vector<b2PolygonShape> polygons_;  // kBox
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_BOX2D_WORLD_H_
