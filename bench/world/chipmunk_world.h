// Chipmunk2D 7.0.3 beside collide: the scene's shapes as static shapes of one
// cpSpace (doubles), indexed by a spatial hash or by the default
// bounding-box tree (cpSpaceReindexStatic, then cpBBTreeOptimize).
// - Rays: cpSpaceSegmentQueryFirst with radius 0.
// - Circle casts: its radius segment query misses hits (the index walks the
//   centre line only), so the correct workaround: cpSpaceBBQuery over the
//   swept bounds, then cpShapeSegmentQuery(radius) per candidate, closest
//   kept; for segments also Chipmunk's CircleSegmentQuery on both end caps,
//   which cpSegmentShape's own query skips whenever the path crosses a side
//   face (it then loses earlier cap contacts). CastCircleShipped() is the
//   workaround without that fix, CastCircleNative() the radius query itself;
//   both only to count their disagreements.
#ifndef COLLIDE_BENCH_WORLD_CHIPMUNK_WORLD_H_
#define COLLIDE_BENCH_WORLD_CHIPMUNK_WORLD_H_

#include <vector>

#include "scenes.h"

struct cpSpace;
struct cpShape;

namespace collide_bench {

enum class ChipmunkIndex { kSpatialHash, kBBTree };

class ChipmunkWorld {
 public:
  // cell_size and cell_count matter only for kSpatialHash.
  ChipmunkWorld(const Scene& scene, ChipmunkIndex index, double cell_size = 0,
                int cell_count = 0);
  ~ChipmunkWorld();
  ChipmunkWorld(const ChipmunkWorld&) = delete;
  ChipmunkWorld& operator=(const ChipmunkWorld&) = delete;

  WorldHit CastRay(collide::Vec2 origin, collide::Vec2 translation) const;
  WorldHit CastCircle(collide::Vec2 center, double radius,
                      collide::Vec2 translation) const;
  WorldHit CastCircleShipped(collide::Vec2 center, double radius,
                             collide::Vec2 translation) const;
  WorldHit CastCircleNative(collide::Vec2 center, double radius,
                            collide::Vec2 translation) const;

 private:
  WorldHit ToWorldHit(const void* info) const;
  WorldHit SweptQuery(collide::Vec2 center, double radius,
                      collide::Vec2 translation, bool segment_caps) const;

  bool segments_;
  cpSpace* space_ = nullptr;
  std::vector<cpShape*> shapes_;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_CHIPMUNK_WORLD_H_
