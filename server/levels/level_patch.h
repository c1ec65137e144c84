// PatchLevel's core: the snapshot a level becomes under a patch, built in
// time proportional to the shapes changed since the level was last built
// whole (the base level and its message are shared, not copied), and the
// compare-and-set checks of the admin writes.
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_PATCH_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_PATCH_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/v1/level_service.pb.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"

namespace collide::server {

// Patches accumulate over a shared base level until the shapes they changed
// (added, replaced or removed; distinct ids) pass 1/kRebuildShare of the
// base's;
// the patch then builds the whole level, so the amortized cost stays
// proportional to the changes.
inline constexpr int kRebuildShare = 8;

// The snapshot `current` becomes under `request` (version 0: the store
// assigns it): layered (base, patch set) unless the changes passed
// 1/kRebuildShare, then built whole. Its content_hash is that of the
// patched content, updated per changed shape. Limits: the request's shapes
// are checked as a level's (max_vertices, max_level_vertices and
// max_level_bytes over the shapes built with them), the patched level's
// shape count against max_level_shapes, and everything again when it is
// built whole. Errors as PatchLevel documents (NOT_FOUND for an unknown
// remove id, INVALID_ARGUMENT naming the field, RESOURCE_EXHAUSTED).
absl::StatusOr<LevelSnapshot> PatchSnapshot(
    const LevelSnapshot& current, const v1::PatchLevelRequest& request,
    const formats::InputLimits& limits);

// A write's compare-and-set condition (empty / 0: none).
struct Expected {
  // A content_hash, or kAbsent for "the level must not exist".
  std::string content_hash;
  int64_t version = 0;
};
inline constexpr char kAbsent[] = "absent";

// OK when `served` (null: no level) meets `expected`; else
// FAILED_PRECONDITION naming the field and what is served.
absl::Status CheckExpected(const LevelSnapshot* served,
                           const Expected& expected);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_PATCH_H_
