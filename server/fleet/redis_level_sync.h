// RedisLevelSync: the shared level store of a fleet (--level_store=
// redis://host:port/prefix). Every replica writes its level changes to
// Redis and applies the changes every replica makes, so a put, patch or
// delete on any replica reaches them all.
//
// In Redis (keys under the prefix):
//   {prefix}:index        hash: level id -> "{revision} {content_hash}",
//                         content_hash "deleted" for a deleted level (a
//                         tombstone, so a bundled level stays deleted)
//   {prefix}:level:{id}   the level's content: the framed binary level
//                         file bytes (level_frame.h), whole after every
//                         write (a patch stores the patched level whole:
//                         simple, and each write costs the level's size)
//   {prefix}:epoch        the store's epoch (below)
//   {prefix}:restored     hash: level id -> the entry a replica wrote back
//                         from its copy, until a write replaces it
//   {prefix}:changes      channel: the id of each level written
// A write is one Lua script (EVAL): it compares the index's content hash
// with the expected one, stores the content, bumps the revision, and
// publishes the id, all atomically. Revisions are per level and only grow
// while Redis keeps its data; a replica applies a level only if its
// revision is newer than the one it applied last, so a late notification
// never undoes a newer write.
//
// Applying: a subscriber thread receives each id, reads the index entry and
// content in one script, builds the level outside any lock and swaps it in
// (LevelStore::SyncLevel, UnloadLevel). Levels get this server's own
// version numbers; content_hash is the identity shared by the fleet.
//
// The store's epoch: {prefix}:epoch holds a random id written once, when
// the store is initialised, atomically with its first levels; every write
// script checks it, so no write lands in a store that lost its data. A
// replica keeps a FleetCopy of what it last held from the store (epoch,
// entries, tombstones; on disk with --level_store_copy_dir) and, when it
// finds the store:
//   - without an epoch and without an index (new, or it lost its data):
//     initialises it in one script, unless another replica did first:
//     with its copy when it holds one of this store (the epoch kept, every
//     level and tombstone at its revision, each marked in {prefix}:restored),
//     else with its base levels (the bundled default, --level_files) at
//     revision 1 (a brand-new fleet);
//   - with the epoch of its copy: writes back each entry of its copy that
//     the store lacks, or holds at a lower revision still marked restored
//     (restored from a replica that knew less), so the newest copy wins
//     and no write made since the restore is undone;
//   - with another epoch (another store, or one re-initialised by a
//     replica without a copy): takes the store's levels, dropping the
//     copy's;
//   - with an index but no epoch (written by a server that kept no epoch):
//     gives it an epoch.
// Then it loads every level whose content hash differs from what it serves,
// drops tombstoned ones, writes a base level the store has no entry for
// (not even a tombstone: a level added to --level_files later), and stops
// serving any other level the store does not hold. So a bundled or
// --level_files level is never written over a tombstone, and a delete
// stays deleted after Redis loses its data as long as one replica that
// saw it, or its copy directory, survives.
//
// Resynchronising: at start and after every reconnect, and within about
// kEpochCheckInterval of the store losing its epoch (FLUSHALL, a restart
// without persistence) or a write finding it gone.
//
// While Redis is unreachable the replica serves what it holds; writes fail
// with UNAVAILABLE; the subscriber reconnects with a backoff doubling from
// kMinBackoff to kMaxBackoff, and resynchronises once it is back.
#ifndef COLLIDE_SERVER_FLEET_REDIS_LEVEL_SYNC_H_
#define COLLIDE_SERVER_FLEET_REDIS_LEVEL_SYNC_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collide/v1/geometry.pb.h"
#include "server/fleet/fleet_copy.h"
#include "server/fleet/redis_connection.h"
#include "server/levels/level_store.h"

namespace collide::server {

class RedisLevelSync : public SharedLevelWrites {
 public:
  static constexpr absl::Duration kMinBackoff = absl::Milliseconds(50);
  static constexpr absl::Duration kMaxBackoff = absl::Seconds(2);
  // Longest a connection attempt or a command waits.
  static constexpr absl::Duration kTimeout = absl::Seconds(1);

  // How often the subscriber checks that the store still has its epoch.
  static constexpr absl::Duration kEpochCheckInterval = absl::Seconds(1);

  // The levels every replica loads at start (the bundled default,
  // --level_files), by id: written to a new store, and to an initialised
  // store that has no entry for them.
  using BaseLevels =
      std::map<std::string, std::shared_ptr<const v1::Level>, std::less<>>;

  // `store` must outlive this object; call store.ShareWrites(this) to send
  // its writes here. `copy_dir`: where to keep the FleetCopy ("": memory
  // only).
  RedisLevelSync(LevelStore& store, RedisAddress address, BaseLevels base,
                 std::string copy_dir);

  // Serves the levels of the copy on disk and drops its tombstoned ones
  // (at start, before Resync, so a replica that starts while Redis is down
  // serves what the fleet last held). Returns lines for the log; an error
  // when the copy directory cannot be used.
  absl::StatusOr<std::vector<std::string>> LoadCopy(int64_t max_file_bytes);
  // Stops the thread if running.
  ~RedisLevelSync() override;
  RedisLevelSync(const RedisLevelSync&) = delete;
  RedisLevelSync& operator=(const RedisLevelSync&) = delete;

  // One resynchronisation now, on the calling thread (at start, so the
  // server listens with the fleet's levels loaded). UNAVAILABLE when Redis
  // cannot be reached; the thread Start() runs keeps trying.
  absl::Status Resync();

  // Subscribes and applies changes on a thread of its own, reconnecting
  // and resynchronising after every loss of the connection.
  void Start();
  // Stops and joins the thread (within about kPollWait). Idempotent.
  void Stop();

  // SharedLevelWrites.
  absl::Status Write(absl::string_view id, absl::string_view applies_to,
                     const LevelSnapshot* written) override;
  absl::Status Refresh(absl::string_view id) override;

  std::string url() const;

 private:
  // How long the subscriber waits for a message before checking Stop().
  static constexpr absl::Duration kPollWait = absl::Milliseconds(100);

  // Runs `args` on the command connection (connecting first if needed).
  absl::StatusOr<RedisReply> Command(const std::vector<std::string>& args)
      ABSL_LOCKS_EXCLUDED(command_mutex_);
  // Serves what Redis holds for `id` now and records it in the copy
  // (`in_resync`: even over a newer revision of the copy, and not flushed).
  // UNAVAILABLE when the store's epoch is not the copy's.
  absl::Status Apply(absl::string_view id, bool in_resync = false);
  // Writes base level `id` to Redis unless Redis has an entry for it, then
  // serves Redis's.
  absl::Status Seed(const std::string& id);
  // One resynchronisation pass over the store as read; sets `again` when it
  // changed the store and the pass must start over.
  absl::Status ResyncOnce(bool& again);
  // Initialises a store without epoch or index (see the file comment).
  absl::Status Initialise();
  // Writes back the copy's entries the store lost; `again` when any was.
  absl::Status RestoreLost(
      const std::map<std::string, std::string, std::less<>>& index,
      bool& again);
  // Loads, drops and seeds levels to match `index` (the store's, read
  // under the copy's epoch).
  absl::Status ApplyIndex(
      const std::map<std::string, std::string, std::less<>>& index);
  // Asks the subscriber to resynchronise (from a write that found the
  // store's epoch gone, under the store's writers' lock).
  void RequestResync();
  // Whether revision `revision` of `id` is newer than the one applied; if
  // so, records it as applied. Called under the store's writers' lock.
  bool TakeRevision(absl::string_view id, int64_t revision);
  void Run();
  // Waits `wait`, or less when Stop() is called; true when stopping.
  bool SleepUnlessStopping(absl::Duration wait);

  LevelStore& store_;
  const RedisAddress address_;
  const BaseLevels base_;
  const std::string index_key_;
  const std::string epoch_key_;
  const std::string restored_key_;
  const std::string channel_;
  FleetCopy copy_;
  // Serialises resynchronisations (start, subscriber).
  absl::Mutex resync_mutex_;
  std::atomic<bool> resync_requested_{false};

  absl::Mutex command_mutex_;
  std::unique_ptr<RedisConnection> command_ ABSL_GUARDED_BY(command_mutex_);

  // Revision applied per level id (taken under the store's writers' lock,
  // then this one).
  absl::Mutex revisions_mutex_;
  absl::flat_hash_map<std::string, int64_t> revisions_
      ABSL_GUARDED_BY(revisions_mutex_);

  absl::Mutex stop_mutex_;
  bool stopping_ ABSL_GUARDED_BY(stop_mutex_) = false;
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_FLEET_REDIS_LEVEL_SYNC_H_
