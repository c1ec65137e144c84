#include "server/level_snapshot.h"

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
#include "server/server_metrics.h"

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
  return snapshot;
}

int64_t HeldBytes(const LevelSnapshot& snapshot) {
  return static_cast<int64_t>(snapshot.level->memory_bytes()) +
         static_cast<int64_t>(snapshot.source->SpaceUsedLong());
}

v1::LevelSummary DescribeSnapshot(const LevelSnapshot& snapshot) {
  v1::LevelSummary summary;
  summary.set_level(formats::LevelName(snapshot.id));
  summary.set_version(snapshot.version);
  if (snapshot.level != nullptr) {
    const Level& level = *snapshot.level;
    summary.set_shape_count(level.shape_count());
    formats::ToProto(level.bounds(), summary.mutable_bounds());
    summary.set_cell_size(level.spatial_hash().grid().cell_size);
    summary.set_memory_bytes(static_cast<int64_t>(level.memory_bytes()));
  }
  return summary;
}

}  // namespace collide::server
