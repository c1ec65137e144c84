// LevelSnapshot: one immutable version of a level as the server serves it.
// The level store swaps whole snapshots (shared_ptr<const LevelSnapshot>), so
// a batch holding one keeps its level alive and unchanged while it runs.
#ifndef COLLIDE_SERVER_LEVEL_SNAPSHOT_H_
#define COLLIDE_SERVER_LEVEL_SNAPSHOT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.pb.h"
#include "proto/formats/input_limits.h"

namespace collide::server {

struct LevelSnapshot {
  // The level id (the {level_id} of "levels/{level_id}").
  std::string id;
  // Assigned by the store; reported with every query result computed on it.
  int64_t version = 0;
  // The built level queries run on. Never null in a snapshot from
  // MakeLevelSnapshot.
  std::shared_ptr<const Level> level;
  // The message it was built from (what is persisted and described), with
  // id set. Never null in a snapshot from MakeLevelSnapshot.
  std::shared_ptr<const v1::Level> source;
};

// Validates `source` (LevelFromProto in proto_convert.h, with its error
// messages and codes), builds the level and wraps both with `version`.
// source.id must be a valid level id (INVALID_ARGUMENT "level.id ...").
absl::StatusOr<LevelSnapshot> MakeLevelSnapshot(
    v1::Level source, int64_t version, const formats::InputLimits& limits);

// The memory a served snapshot holds: the built level plus the message it
// was built from (what StoreLimits::max_total_level_bytes counts).
int64_t HeldBytes(const LevelSnapshot& snapshot);

// What DescribeLevel / ListLevels / PutLevel report for the snapshot: its
// name, version, shape count, bounds, the cell size the spatial hash uses,
// and the built level's memory bytes.
v1::LevelSummary DescribeSnapshot(const LevelSnapshot& snapshot);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVEL_SNAPSHOT_H_
