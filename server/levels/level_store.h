// LevelStore: the levels the server serves, by id, each an immutable
// LevelSnapshot. A put builds the new level completely outside any lock and
// then swaps the map entry, so a query holding a snapshot (a shared_ptr
// copied out under the lock) keeps running on its version while later
// lookups see the new one; nobody ever sees half a level.
//
// With a level directory, puts and deletes are persisted there first (one
// binary file per level, "{id}.binpb", written atomically by
// WriteLevelFile) and LoadDirectory() reads them back at start, so a
// restart loses nothing. A put or delete whose file operation fails changes
// nothing: the old level keeps serving and its file stays intact.
// LevelDirWatcher keeps the store in step with files that others add,
// change or remove there while the server runs (SyncLevel, UnloadLevel).
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_STORE_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_patch.h"
#include "server/levels/level_snapshot.h"

namespace collide::server {

// How much the store as a whole may hold (server-wide, over all levels).
struct StoreLimits {
  // Levels served at once; a put of one more is RESOURCE_EXHAUSTED.
  int32_t max_levels = 1024;
  // Bytes held by all levels served (HeldBytes: built level plus its
  // message), counting a level being replaced by its new version only; a
  // put or load that would exceed it is RESOURCE_EXHAUSTED. The default
  // fits the 1 GiB container of docker/k8s with room for the process and
  // for old versions that queries still hold while a level is replaced.
  int64_t max_total_level_bytes = int64_t{640} << 20;
};

// Where a store's writes go first when a fleet shares its levels (a shared
// level store: RedisLevelSync), instead of the level directory.
class SharedLevelWrites {
 public:
  virtual ~SharedLevelWrites() = default;

  // Writes `written` (null: deletes the level) as level `id`'s content in
  // the shared store, atomically with the check that the shared store's
  // content hash of `id` is `applies_to` ("" : any content; kAbsent: no
  // level). Called with the store's writers' lock held, so the level
  // served changes in the order of the shared writes. Errors: ABORTED when
  // the shared store holds other content (the message says what),
  // UNAVAILABLE when it cannot be reached (the write may or may not have
  // happened: a later resynchronisation serves whichever it was).
  virtual absl::Status Write(absl::string_view id, absl::string_view applies_to,
                             const LevelSnapshot* written) = 0;

  // Serves what the shared store holds for `id` now (without the store's
  // locks held), so a patch built on an older level can be built again.
  virtual absl::Status Refresh(absl::string_view id) = 0;
};

class LevelStore {
 public:
  // `level_dir` empty: levels live in memory only. Otherwise the directory
  // must exist; puts and deletes are persisted there.
  LevelStore(const formats::InputLimits& limits, std::string level_dir,
             const StoreLimits& store_limits = {});

  LevelStore(const LevelStore&) = delete;
  LevelStore& operator=(const LevelStore&) = delete;

  // What Put did.
  struct PutResult {
    std::shared_ptr<const LevelSnapshot> snapshot;
    // The id was not served before.
    bool created = false;
  };

  // Validates and builds `level` (its id must be set and valid), persists
  // it when the store has a directory and `persist` is set, and swaps it in
  // with a new version, larger than every version handed out before.
  // Errors: those of MakeLevelSnapshot (INVALID_ARGUMENT naming the field,
  // RESOURCE_EXHAUSTED over the limits), RESOURCE_EXHAUSTED over the
  // StoreLimits (naming max_levels or max_total_level_bytes), or the file
  // error; either way the old level (if any) keeps serving and its file is
  // untouched.
  // With `expected` set, the put happens only if the level served then
  // meets it (CheckExpected: FAILED_PRECONDITION otherwise). A persisted
  // put rewrites "{id}.binpb" and removes the patch journal; `journaled`
  // (for levels loaded from the directory, not persisted) says the
  // directory's binary file and journal already hold exactly `level`.
  absl::StatusOr<PutResult> Put(v1::Level level, bool persist = true,
                                const Expected& expected = {},
                                bool journaled = false);

  // Applies a PatchLevel request (PatchSnapshot) to the level it names,
  // under the writers' lock so concurrent writes apply one after the other
  // and each expected version is checked against the level it patches;
  // persists the patch and swaps it in. Persisting appends the patch to the
  // journal "{id}.patches" (level_journal.h) when the directory holds the
  // level it patches as "{id}.binpb" plus journal (cost: the patch's
  // size); otherwise, and when the patch rebuilt the level whole, it
  // rewrites "{id}.binpb" and removes the journal (cost: the level's size).
  // Errors: NOT_FOUND (no such level), those of CheckExpected and
  // PatchSnapshot, the limits and file errors of Put; the old level keeps
  // serving.
  absl::StatusOr<PutResult> Patch(absl::string_view id,
                                  const v1::PatchLevelRequest& request);

  // Removes level `id` and its files (journal included) in the level
  // directory, and leaves a
  // tombstone "{id}.deleted" there so that a copy loaded at every start (the
  // bundled default, --level_files) stays deleted. Returns the version that
  // was served. NOT_FOUND when the id is not served; a file error leaves the
  // level served.
  absl::StatusOr<int64_t> Delete(absl::string_view id,
                                 const Expected& expected = {});

  // The snapshot now served for `id`, or null. Callers keep the pointer for
  // as long as they query it (one batch), whatever puts happen meanwhile.
  std::shared_ptr<const LevelSnapshot> Find(absl::string_view id) const;

  // Every snapshot now served, sorted by id.
  std::vector<std::shared_ptr<const LevelSnapshot>> List() const;

  // What LoadDirectory does with a level file that cannot be loaded.
  enum class BadLevelFile {
    // Skip it (reported in DirectoryLoad::refused), load the others.
    kSkip,
    // Stop at it and return its error (levels loaded before it stay).
    kFail,
  };

  // What LoadDirectory did.
  struct DirectoryLoad {
    // Ids loaded, in order.
    std::vector<std::string> loaded;
    // A level file skipped (kSkip only).
    struct Refused {
      std::string id;
      std::string path;
      // Its message starts with the path.
      absl::Status error;
    };
    std::vector<Refused> refused;
    // Patch journals whose replay stopped early (ReplayJournal: a torn last
    // record, records left from an older level file), saying why; the level
    // loaded is the one reached, and its next patch rewrites its file.
    std::vector<std::string> journal_notes;
  };

  // Loads every level file of the level directory ("{id}.binpb", "{id}.pb",
  // "{id}.json" or the Tiled map "{id}.tmj"; for an id with several, .binpb
  // wins, being the one the server writes, and .tmj loses) into the store,
  // replacing levels of the same id, without rewriting them. A file's level id
  // is its file name; a different id inside the file is INVALID_ARGUMENT. A
  // file that cannot be read, is empty, truncated or corrupted (DATA_LOSS),
  // or holds an invalid level is skipped or fails the load, as `bad_file`
  // says; a skipped file's id keeps what was served before (the bundled or
  // --level_files level, if any). Hidden files and temporary files are
  // ignored. Then every id with a tombstone and no level file in the directory
  // is removed from the store (a put after the delete would have written a
  // file, which wins). Errors: the directory cannot be listed, or (kFail) the
  // first bad file. OK with nothing to do when the store has no directory.
  absl::StatusOr<DirectoryLoad> LoadDirectory(
      BadLevelFile bad_file = BadLevelFile::kSkip);

  // Removes the temporary files that interrupted writes left in the level
  // directory ("{level file name}.tmp.{pid}") when their writer cannot be
  // another live server: the pid is this process's own (a restarted
  // container's pid 1, say) or the file was last modified over
  // kStaleTemporaryAge ago; younger ones may be a replica's write in
  // progress and stay. Returns the paths removed (none without a
  // directory, or when it cannot be listed: LoadDirectory reports that).
  std::vector<std::string> RemoveLeftoverTemporaries();

  // How long a temporary file must be left untouched before
  // RemoveLeftoverTemporaries takes it for the leftover of a dead writer (a
  // write takes milliseconds).
  static constexpr absl::Duration kStaleTemporaryAge = absl::Minutes(1);

  // How SyncLevel or UnloadLevel changed the store.
  enum class SyncChange {
    // SyncLevel: the served level already has exactly this content (no new
    // version). UnloadLevel: no level of that id was served.
    kUnchanged,
    kCreated,
    kReplaced,
    kRemoved,
    // still_current() said the directory moved on: nothing changed.
    kStale,
  };
  struct SyncResult {
    SyncChange change = SyncChange::kUnchanged;
    // Served now (kUnchanged from SyncLevel, kCreated, kReplaced), or the
    // one removed (kRemoved); else null.
    std::shared_ptr<const LevelSnapshot> snapshot;
  };

  // For the level directory watcher: serves `level` (id set) without
  // persisting it (it came from the directory), unless the level served
  // under its id already has the same content: then kUnchanged and no new
  // version, so the file a put wrote, read back, is not a reload.
  // `still_current` runs with the writers' lock held right before the swap
  // (puts and deletes write their files under that lock); false abandons
  // the change (kStale). The watcher uses it to check the file is still the
  // one it read, so a read that raced a put can never replace the put's
  // newer level. Errors: those of Put; the old level keeps serving.
  // `journaled`: as for Put.
  absl::StatusOr<SyncResult> SyncLevel(v1::Level level,
                                       absl::FunctionRef<bool()> still_current,
                                       bool journaled = false);

  // For the level directory watcher: stops serving `id` without touching
  // any file (kRemoved; kUnchanged if not served), unless `still_current`,
  // run as in SyncLevel, returns false (kStale).
  SyncResult UnloadLevel(absl::string_view id,
                         absl::FunctionRef<bool()> still_current);

  // From now on, puts, patches and deletes are written to `shared` (which
  // must outlive the store's writes) before they are served, instead of
  // being persisted to the level directory. With a shared store the
  // expected content hash of a put or delete is checked by the shared
  // store (the fleet's truth) rather than against the level served here;
  // an expected version, a counter of this server, is checked here. A
  // patch is built on the level served here and written only if the
  // shared store still holds that level; when it holds a newer one (this
  // replica has not applied it yet) the patch is refreshed and built again,
  // up to kSharedPatchAttempts times. Call before serving writes.
  void ShareWrites(SharedLevelWrites* shared);
  static constexpr int kSharedPatchAttempts = 3;

  const std::string& level_dir() const { return level_dir_; }
  // HeldBytes summed over the levels served now.
  int64_t total_held_bytes() const;

 private:
  // Where a level's file lives ("" without a directory).
  std::string PathFor(absl::string_view id) const;
  // Where a level's patch journal lives (with a directory only).
  std::string JournalFor(absl::string_view id) const;
  // Where the marker of a deleted level lives (with a directory only).
  std::string TombstoneFor(absl::string_view id) const;
  // OK when serving `built` (replacing the level of its id, if any) keeps
  // the store within its StoreLimits; else RESOURCE_EXHAUSTED saying which.
  absl::Status CheckRoomFor(const LevelSnapshot& built) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mutex_);
  // Writes `built`'s level file (with a directory; `built` whole), removes
  // its journal and tombstone, and marks it journaled.
  absl::Status Persist(LevelSnapshot& built)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mutex_);
  // Gives `built` the next version and serves it.
  PutResult SwapIn(LevelSnapshot built)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mutex_);

  // Patch under the writers' lock; sets `stale` when the shared store
  // holds a newer level than the one patched.
  absl::StatusOr<PutResult> PatchOnce(absl::string_view id,
                                      const v1::PatchLevelRequest& request,
                                      bool& stale);

  const formats::InputLimits limits_;
  const std::string level_dir_;
  SharedLevelWrites* shared_ = nullptr;
  const StoreLimits store_limits_;

  // Serializes writers (Put's persist-and-swap, Delete) so the file on
  // disk and the served snapshot always change in the same order. Building
  // a level happens before taking it, so slow puts do not block each other's
  // validation, and readers never wait on it.
  absl::Mutex write_mutex_;
  int64_t last_version_ ABSL_GUARDED_BY(write_mutex_) = 0;

  // Guards only the map itself; held for a lookup or a pointer swap.
  mutable absl::Mutex map_mutex_;
  std::map<std::string, std::shared_ptr<const LevelSnapshot>, std::less<>>
      levels_ ABSL_GUARDED_BY(map_mutex_);
  // HeldBytes of everything in levels_.
  int64_t total_held_bytes_ ABSL_GUARDED_BY(map_mutex_) = 0;
};

// The snapshot served for the resource name `name` ("levels/{level_id}"),
// as the services resolve a request's level: INVALID_ARGUMENT naming
// `field` for a malformed name, NOT_FOUND "{field} \"levels/x\" not found"
// for an id the store does not serve.
absl::StatusOr<std::shared_ptr<const LevelSnapshot>> FindLevel(
    const LevelStore& store, absl::string_view name, absl::string_view field);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_STORE_H_
