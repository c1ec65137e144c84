#include "server/levels/level_patch.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "collide/level.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/content_hash.h"
#include "server/levels/level_snapshot.h"

namespace collide::server {
namespace {

// Whether the (possibly patched) level holds a shape of caller id `id`.
bool Holds(const Level& level, uint64_t id) {
  if (level.FindShape(id)) return true;
  const Level* base = level.base();
  if (base == nullptr) return false;
  const std::optional<int> shape = base->FindShape(id);
  return shape &&
         ((level.removed_from_base()[*shape / 64] >> (*shape % 64)) & 1) == 0;
}

}  // namespace

absl::StatusOr<LevelSnapshot> PatchSnapshot(
    const LevelSnapshot& current, const v1::PatchLevelRequest& request,
    const formats::InputLimits& limits) {
  const Level& level = *current.level;
  // The request's own consistency, then its ids against the level.
  absl::flat_hash_map<uint64_t, int> upserted;  // id -> index in upserts
  for (int i = 0; i < request.upserts_size(); ++i) {
    const auto [it, fresh] = upserted.emplace(request.upserts(i).id(), i);
    if (!fresh) {
      return absl::InvalidArgumentError(
          absl::StrCat("upserts[", i, "].id ", request.upserts(i).id(),
                       " repeats upserts[", it->second, "].id"));
    }
  }
  absl::flat_hash_set<uint64_t> removed;
  for (int i = 0; i < request.remove_ids_size(); ++i) {
    const uint64_t id = request.remove_ids(i);
    if (upserted.contains(id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("remove_ids[", i, "] ", id, " is also in upserts"));
    }
    if (!removed.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("remove_ids[", i, "] ", id, " is repeated"));
    }
    if (!Holds(level, id)) {
      return absl::NotFoundError(absl::StrCat("remove_ids[", i, "] ", id, ": ",
                                              formats::LevelName(current.id),
                                              " holds no shape ", id));
    }
  }

  // What the patches change since the base's message: this request merged
  // into the current patch, and the shape sum updated shape by shape.
  std::shared_ptr<const Level> base =
      current.base != nullptr ? current.base : current.level;
  auto patch = std::make_shared<LevelSnapshot::SourcePatch>();
  if (current.patch != nullptr) *patch = *current.patch;
  ShapeHashSum shape_sum = current.shape_sum;
  // The shape of id `id` the current level holds (Holds(level, id)).
  const auto held = [&](uint64_t id) -> const v1::Shape& {
    if (const auto it = patch->shapes.find(id); it != patch->shapes.end()) {
      return it->second;
    }
    return current.source->shapes(*base->FindShape(id));
  };
  for (const uint64_t id : removed) {
    SubtractShapeHash(shape_sum, ShapeHash(held(id)));
    patch->shapes.erase(id);
    if (base->FindShape(id)) patch->removed.insert(id);
  }
  for (const v1::Shape& upsert : request.upserts()) {
    if (Holds(level, upsert.id())) {
      SubtractShapeHash(shape_sum, ShapeHash(held(upsert.id())));
    }
    if (base->FindShape(upsert.id())) patch->removed.insert(upsert.id());
    v1::Shape& shape = patch->shapes[upsert.id()];
    shape = upsert;
    AddShapeHash(shape_sum, ShapeHash(shape));
  }

  // The layered level: this request's upserts first, so that their errors
  // carry the request's indices, then the earlier patches' shapes.
  google::protobuf::RepeatedPtrField<v1::Shape> overlay;
  overlay.Reserve(static_cast<int>(patch->shapes.size()));
  for (const v1::Shape& upsert : request.upserts()) {
    *overlay.Add() = patch->shapes.at(upsert.id());
  }
  for (const auto& [id, shape] : patch->shapes) {
    if (!upserted.contains(id)) *overlay.Add() = shape;
  }
  const std::vector<uint64_t> base_removed(patch->removed.begin(),
                                           patch->removed.end());
  absl::StatusOr<Level> patched = formats::PatchedLevelFromProto(
      base, base_removed, overlay, "upserts", limits);
  if (!patched.ok()) return patched.status();
  if (patched->total_shape_count() > limits.max_level_shapes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the patched level would hold ", patched->total_shape_count(),
        " shapes, more than max_level_shapes ", limits.max_level_shapes));
  }

  LevelSnapshot snapshot;
  snapshot.id = current.id;
  snapshot.source = current.source;
  snapshot.patch = std::move(patch);
  snapshot.shape_sum = shape_sum;
  snapshot.content_hash = ContentHash(*current.source, shape_sum);
  // Shapes changed since the base: added or replaced, plus removed only.
  int64_t changed = static_cast<int64_t>(snapshot.patch->shapes.size());
  for (const uint64_t id : snapshot.patch->removed) {
    if (!snapshot.patch->shapes.contains(id)) ++changed;
  }
  if (kRebuildShare * changed > base->shape_count()) {
    // The changes outgrew the base: build the level whole, whose cost the
    // patches since the last build pay for (amortized per changed shape).
    absl::StatusOr<LevelSnapshot> whole =
        MakeLevelSnapshot(ContentOf(snapshot), 0, limits);
    if (!whole.ok()) {
      return absl::Status(
          whole.status().code(),
          absl::StrCat("the patched level: ", whole.status().message()));
    }
    return whole;
  }
  snapshot.level = std::make_shared<const Level>(*std::move(patched));
  snapshot.base = std::move(base);
  int64_t patch_bytes = 0;
  for (const auto& [id, shape] : snapshot.patch->shapes) {
    patch_bytes += static_cast<int64_t>(shape.SpaceUsedLong());
  }
  snapshot.source_bytes = current.source_bytes;
  snapshot.held_bytes = static_cast<int64_t>(snapshot.level->memory_bytes()) +
                        snapshot.source_bytes + patch_bytes;
  return snapshot;
}

absl::Status CheckExpected(const LevelSnapshot* served,
                           const Expected& expected) {
  if (expected.content_hash == kAbsent) {
    if (served != nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          "expected_content_hash \"absent\": ", formats::LevelName(served->id),
          " exists with content_hash ", served->content_hash));
    }
    return absl::OkStatus();
  }
  if (!expected.content_hash.empty() &&
      (served == nullptr || served->content_hash != expected.content_hash)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "expected_content_hash ", expected.content_hash, " but ",
        served == nullptr
            ? "the level does not exist"
            : absl::StrCat("the level has ", served->content_hash)));
  }
  if (expected.version != 0 &&
      (served == nullptr || served->version != expected.version)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "expected_version ", expected.version, " but ",
        served == nullptr
            ? "the level does not exist"
            : absl::StrCat("version ", served->version, " is served")));
  }
  return absl::OkStatus();
}

}  // namespace collide::server
