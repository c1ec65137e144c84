#include "server/levels/level_snapshot.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.pb.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/content_hash.h"
#include "server/ops/server_metrics.h"

namespace collide::server {

absl::StatusOr<LevelSnapshot> MakeLevelSnapshot(
    v1::Level source, int64_t version, const formats::InputLimits& limits) {
  if (absl::Status s = formats::ValidateLevelId(source.id(), "level.id");
      !s.ok()) {
    return s;
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Level> level = formats::LevelFromProto(source, limits);
  if (!level.ok()) return level.status();
  Metrics().level_build_ns.Observe(static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - start)
          .count()));
  LevelSnapshot snapshot;
  snapshot.id = source.id();
  snapshot.version = version;
  snapshot.level = std::make_shared<const Level>(*std::move(level));
  snapshot.source = std::make_shared<const v1::Level>(std::move(source));
  snapshot.shape_sum = SumOfShapes(*snapshot.source);
  snapshot.content_hash = ContentHash(*snapshot.source, snapshot.shape_sum);
  snapshot.source_bytes =
      static_cast<int64_t>(snapshot.source->SpaceUsedLong());
  snapshot.held_bytes = static_cast<int64_t>(snapshot.level->memory_bytes()) +
                        snapshot.source_bytes;
  return snapshot;
}

int64_t HeldBytes(const LevelSnapshot& snapshot) { return snapshot.held_bytes; }

v1::Level ContentOf(const LevelSnapshot& snapshot) {
  if (snapshot.patch == nullptr) return *snapshot.source;
  const LevelSnapshot::SourcePatch& patch = *snapshot.patch;
  v1::Level content;
  content.set_id(snapshot.source->id());
  content.set_cell_size(snapshot.source->cell_size());
  content.set_y_axis(snapshot.source->y_axis());
  content.mutable_shapes()->Reserve(snapshot.source->shapes_size() +
                                    static_cast<int>(patch.shapes.size()));
  absl::flat_hash_set<uint64_t> placed;
  for (const v1::Shape& shape : snapshot.source->shapes()) {
    if (const auto it = patch.shapes.find(shape.id());
        it != patch.shapes.end()) {
      *content.add_shapes() = it->second;
      placed.insert(shape.id());
    } else if (!patch.removed.contains(shape.id())) {
      *content.add_shapes() = shape;
    }
  }
  for (const auto& [id, shape] : patch.shapes) {
    if (!placed.contains(id)) *content.add_shapes() = shape;
  }
  return content;
}

v1::LevelSummary DescribeSnapshot(const LevelSnapshot& snapshot) {
  v1::LevelSummary summary;
  summary.set_level(formats::LevelName(snapshot.id));
  summary.set_version(snapshot.version);
  summary.set_content_hash(snapshot.content_hash);
  if (snapshot.level != nullptr) {
    const Level& level = *snapshot.level;
    summary.set_shape_count(level.total_shape_count());
    formats::ToProto(level.bounds(), summary.mutable_bounds());
    const Level& hashed = level.base() != nullptr ? *level.base() : level;
    summary.set_cell_size(hashed.spatial_hash().grid().cell_size);
    summary.set_memory_bytes(static_cast<int64_t>(level.memory_bytes()));
  }
  return summary;
}

}  // namespace collide::server
