#include "collide_world.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/spatial_hash.h"

namespace collide_bench {
namespace {

WorldHit ToWorldHit(const std::optional<collide::WorldHit>& hit) {
  WorldHit out;
  if (!hit) return out;
  out.hit = true;
  out.fraction = hit->hit.fraction;
  out.point = hit->hit.point;
  out.shape = static_cast<int64_t>(hit->shape_id);
  return out;
}

}  // namespace

struct CollideWorld::Impl {
  collide::Level level;
};

CollideWorld::CollideWorld(const Scene& scene, double cell_size) {
  // Shape ids are scene indices. Boxes go in as the same four corners the
  // reference casts against, so both see bitwise the same polygons.
  std::vector<collide::ShapeDesc> shapes(scene.size());
  for (size_t i = 0; i < scene.size(); ++i) {
    shapes[i].id = i;
    if (scene.kind == ShapeKind::kSegment) {
      shapes[i].geometry = scene.segments[i];
    } else {
      const collide::ConvexPolygon& p = scene.polygons[i];
      shapes[i].geometry =
          collide::PolygonDesc{absl::MakeConstSpan(p.vertices.data(), p.count)};
    }
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<collide::Level> level =
      collide::Level::Create(shapes, {.cell_size = cell_size});
  build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!level.ok()) {
    std::fprintf(stderr, "Level::Create failed: %s\n",
                 std::string(level.status().message()).c_str());
    std::exit(1);
  }
  impl_ = std::make_unique<Impl>(Impl{*std::move(level)});
}

CollideWorld::~CollideWorld() = default;

size_t CollideWorld::memory_bytes() const {
  return impl_->level.memory_bytes();
}

void CollideWorld::PrintStats() const {
  const collide::Level& level = impl_->level;
  std::printf("  collide level: %.2f MiB (memory_bytes), %lld entries;",
              static_cast<double>(level.memory_bytes()) / (1024.0 * 1024.0),
              static_cast<long long>(level.spatial_hash().entry_count()));
  for (const collide::SpatialHash::Tier& tier : level.spatial_hash().tiers()) {
    std::printf(" grid %d x %d cells of %.3g,", tier.grid.columns,
                tier.grid.rows, tier.grid.cell_size);
  }
  std::printf("\n");
}

WorldHit CollideWorld::CastRay(collide::Vec2 origin,
                               collide::Vec2 translation) const {
  return ToWorldHit(
      collide::CastRay(collide::RayInput{origin, translation}, impl_->level));
}

WorldHit CollideWorld::CastCircle(collide::Vec2 center, double radius,
                                  collide::Vec2 translation) const {
  return ToWorldHit(collide::CastCircle(
      collide::CircleCast{{center, radius}, translation}, impl_->level));
}

}  // namespace collide_bench
