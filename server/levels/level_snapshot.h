// LevelSnapshot: one immutable version of a level as the server serves it.
// The level store swaps whole snapshots (shared_ptr<const LevelSnapshot>), so
// a batch holding one keeps its level alive and unchanged while it runs.
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_SNAPSHOT_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.pb.h"
#include "proto/formats/input_limits.h"
#include "server/levels/content_hash.h"

namespace collide::server {

struct LevelSnapshot {
  // The level id (the {level_id} of "levels/{level_id}").
  std::string id;
  // Assigned by the store; reported with every query result computed on it.
  int64_t version = 0;
  // The built level queries run on. Never null in a snapshot from
  // MakeLevelSnapshot.
  std::shared_ptr<const Level> level;
  // For a patched level: the level `level` is layered over (level->base()),
  // shared with the snapshots patched from the same base; else null.
  std::shared_ptr<const Level> base;
  // The message it was built from (what is persisted and described), with
  // id set. Never null in a snapshot from MakeLevelSnapshot. For a patched
  // level: the message `base` was built from; `patch` says what changed
  // since (ContentOf puts them together).
  std::shared_ptr<const v1::Level> source;
  // Patched levels only (else null): what the patches changed since source.
  struct SourcePatch {
    // The shapes added or replaced, by id.
    std::map<uint64_t, v1::Shape> shapes;
    // The ids of source's shapes removed or replaced.
    absl::flat_hash_set<uint64_t> removed;
  };
  std::shared_ptr<const SourcePatch> patch;
  // The content's identity (content_hash.h), the same for the same content
  // everywhere, and shape_sum, from which a patch updates it.
  std::string content_hash;
  ShapeHashSum shape_sum{};
  // HeldBytes, computed once, and the part of it that is source's.
  int64_t held_bytes = 0;
  int64_t source_bytes = 0;
  // Whether the level directory's "{id}.binpb" plus its patch journal
  // (level_journal.h) hold exactly this version, so that its next patch
  // may be appended to the journal; otherwise (no directory, a bundled,
  // --level_files or hand-written level) the next patch writes the whole
  // level file first.
  bool journaled = false;
};

// The level's content as one message (id set): a copy of source, with the
// patch applied (replaced shapes in their place, added ones after the rest
// in ascending id).
v1::Level ContentOf(const LevelSnapshot& snapshot);

// Validates `source` (LevelFromProto in proto_convert.h, with its error
// messages and codes), builds the level and wraps both with `version`.
// source.id must be a valid level id (INVALID_ARGUMENT "level.id ...").
absl::StatusOr<LevelSnapshot> MakeLevelSnapshot(
    v1::Level source, int64_t version, const formats::InputLimits& limits);

// The memory a served snapshot holds: the built level (its base included)
// plus the messages it was built from (what
// StoreLimits::max_total_level_bytes counts).
int64_t HeldBytes(const LevelSnapshot& snapshot);

// What DescribeLevel / ListLevels / PutLevel report for the snapshot: its
// name, version, shape count, bounds, the cell size the spatial hash uses,
// and the built level's memory bytes.
v1::LevelSummary DescribeSnapshot(const LevelSnapshot& snapshot);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_SNAPSHOT_H_
