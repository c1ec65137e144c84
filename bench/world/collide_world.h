// collide's side of the world benchmark: a Level built from the scene's
// shapes (ids = scene indices), queried with CastRay / CastCircle for the
// closest hit.
#ifndef COLLIDE_BENCH_WORLD_COLLIDE_WORLD_H_
#define COLLIDE_BENCH_WORLD_COLLIDE_WORLD_H_

#include <cstddef>
#include <memory>

#include "scenes.h"

namespace collide_bench {

class CollideWorld {
 public:
  // cell_size: the level's spatial hash cell (0: automatic).
  explicit CollideWorld(const Scene& scene, double cell_size = 0.0);
  ~CollideWorld();
  CollideWorld(const CollideWorld&) = delete;
  CollideWorld& operator=(const CollideWorld&) = delete;

  // Level statistics worth printing next to the build time.
  void PrintStats() const;
  // Seconds Level::Create took (shape descriptions already made).
  double build_seconds() const { return build_seconds_; }
  // Level::memory_bytes(): heap owned by the level, hash included.
  size_t memory_bytes() const;

  WorldHit CastRay(collide::Vec2 origin, collide::Vec2 translation) const;
  WorldHit CastCircle(collide::Vec2 center, double radius,
                      collide::Vec2 translation) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  double build_seconds_ = 0.0;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_COLLIDE_WORLD_H_
