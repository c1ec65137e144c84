// FleetCopy: what one replica last held from the fleet's level store (the
// store's epoch and each level's index entry, tombstones included), so
// that a Redis that lost its data is restored from the replicas rather
// than re-seeded with the bundled and --level_files levels (which would
// undo deletes). Kept in memory always; with a directory
// (--level_store_copy_dir) also on disk, so it survives the replica's own
// restart:
//   {dir}/fleet.index            "collide fleet copy 1", "prefix {prefix}",
//                                "epoch {epoch}", then one line per level:
//                                "{id} {revision} {content_hash}"
//                                (content_hash "deleted": a tombstone);
//                                replaced atomically
//   {dir}/{id}.{content_hash}.binpb   the level's framed binary bytes
// A level's file is written (atomically, fsynced) before the index that
// names it, so the index only ever names whole files; level files of that
// form it does not name (a write cut short, a level replaced) and leftover
// temporaries are removed by Load. Other files are left alone (a level
// directory's "{id}.binpb" is not of that form).
// Cost: a level change writes the level's bytes once more, and the index
// (one line per level) again.
#ifndef COLLIDE_SERVER_FLEET_FLEET_COPY_H_
#define COLLIDE_SERVER_FLEET_FLEET_COPY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace collide::server {

class FleetCopy {
 public:
  // A level's entry in the store's index.
  struct Entry {
    int64_t revision = 0;
    // The level's content hash, or kTombstone.
    std::string content_hash;
  };
  static constexpr absl::string_view kTombstone = "deleted";

  // `dir` empty: memory only. `prefix`: the store's key prefix; a copy on
  // disk made for another prefix is not used.
  FleetCopy(std::string dir, std::string prefix);

  FleetCopy(const FleetCopy&) = delete;
  FleetCopy& operator=(const FleetCopy&) = delete;

  // Reads the copy on disk (none: an empty copy; one for another prefix:
  // ignored, with OK) and removes files its index does not name. For each
  // level entry, `level` is called with its id and framed bytes; an entry
  // whose file cannot be read is dropped from the copy and reported in the
  // returned notes. Errors: the directory cannot be created or listed, or
  // the index is malformed (DATA_LOSS naming it).
  absl::StatusOr<std::vector<std::string>> Load(
      int64_t max_file_bytes,
      absl::FunctionRef<void(const std::string& id, const std::string& framed)>
          level);

  // The store epoch the copy belongs to ("" when it holds none).
  std::string epoch() const;
  // Every entry, by id.
  std::map<std::string, Entry> entries() const;

  // Starts the copy over for the store with `epoch`: no entries.
  void Reset(absl::string_view epoch);

  // Records that the replica holds `entry` for `id` (its bytes from
  // `framed`, called only when the copy on disk lacks them), unless the
  // copy holds a newer revision and `force` is not set. Written to disk by
  // Flush().
  void Record(const std::string& id, const Entry& entry,
              absl::FunctionRef<std::string()> framed, bool force = false);

  // Writes the index when it changed since the last Flush (with a
  // directory). An error leaves the previous index in place.
  absl::Status Flush();

 private:
  std::string IndexPath() const;
  std::string LevelPath(absl::string_view id, absl::string_view hash) const;

  const std::string dir_;
  const std::string prefix_;
  mutable absl::Mutex mutex_;
  std::string epoch_ ABSL_GUARDED_BY(mutex_);
  std::map<std::string, Entry> entries_ ABSL_GUARDED_BY(mutex_);
  bool dirty_ ABSL_GUARDED_BY(mutex_) = false;
  // Level files the index on disk may still name but the copy no longer
  // needs: removed once the next Flush has replaced that index.
  std::vector<std::string> stale_files_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_FLEET_FLEET_COPY_H_
