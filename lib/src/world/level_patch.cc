// Level::Patch: a level layered over a shared base. Only the added shapes
// are built (into the new level's own arrays); the base is shared as is and
// its removed shapes are masked by one bit each, which the queries test.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/level.h"
#include "collide/shapes.h"

namespace collide {

absl::StatusOr<Level> Level::Patch(std::shared_ptr<const Level> base,
                                   absl::Span<const uint64_t> removed_ids,
                                   absl::Span<const ShapeDesc> added,
                                   const LevelOptions& options) {
  if (base == nullptr) return absl::InvalidArgumentError("base is null");
  if (base->base() != nullptr) {
    return absl::InvalidArgumentError(
        "base is itself patched; patch its base instead");
  }
  std::vector<uint64_t> removed((base->shape_count() + 63) / 64, 0);
  for (size_t i = 0; i < removed_ids.size(); ++i) {
    const std::optional<int> shape = base->FindShape(removed_ids[i]);
    if (!shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("removed_ids[", i, "] ", removed_ids[i],
                       " is not a shape of the base level"));
    }
    uint64_t& word = removed[*shape / 64];
    const uint64_t bit = uint64_t{1} << (*shape % 64);
    if ((word & bit) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "removed_ids[", i, "] ", removed_ids[i], " is repeated"));
    }
    word |= bit;
  }
  for (size_t i = 0; i < added.size(); ++i) {
    const std::optional<int> shape = base->FindShape(added[i].id);
    if (shape && (removed[*shape / 64] >> (*shape % 64) & 1) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shapes[", i, "].id ", added[i].id, " is a base shape not removed"));
    }
  }
  absl::StatusOr<Level> level = Create(added, options);
  if (!level.ok()) return level.status();
  if (added.empty()) {
    level->bounds_ = base->bounds();
  } else if (base->shape_count() > 0) {
    const Aabb b = base->bounds();
    level->bounds_.lower = {std::min(level->bounds_.lower.x, b.lower.x),
                            std::min(level->bounds_.lower.y, b.lower.y)};
    level->bounds_.upper = {std::max(level->bounds_.upper.x, b.upper.x),
                            std::max(level->bounds_.upper.y, b.upper.y)};
  }
  level->removed_count_ = static_cast<int>(removed_ids.size());
  level->removed_from_base_ = std::move(removed);
  level->base_ = std::move(base);
  return level;
}

}  // namespace collide
