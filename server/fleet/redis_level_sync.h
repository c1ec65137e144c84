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
// Resynchronising: at start and after every reconnect the replica lists the
// index and loads each level whose content hash differs from what it serves
// (and drops tombstoned ones). A level it serves that Redis does not know
// (the bundled default or --level_files on a fresh Redis, or every level
// after Redis restarted empty) is written there unless another replica did
// it first (then that content is loaded): a Redis that lost its data is
// repopulated by the fleet.
//
// While Redis is unreachable the replica serves what it holds; writes fail
// with UNAVAILABLE; the subscriber reconnects with a backoff doubling from
// kMinBackoff to kMaxBackoff, and resynchronises once it is back.
#ifndef COLLIDE_SERVER_FLEET_REDIS_LEVEL_SYNC_H_
#define COLLIDE_SERVER_FLEET_REDIS_LEVEL_SYNC_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "server/fleet/redis_connection.h"
#include "server/levels/level_store.h"

namespace collide::server {

class RedisLevelSync : public SharedLevelWrites {
 public:
  static constexpr absl::Duration kMinBackoff = absl::Milliseconds(50);
  static constexpr absl::Duration kMaxBackoff = absl::Seconds(2);
  // Longest a connection attempt or a command waits.
  static constexpr absl::Duration kTimeout = absl::Seconds(1);

  // `store` must outlive this object; call store.ShareWrites(this) to send
  // its writes here.
  RedisLevelSync(LevelStore& store, RedisAddress address);
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
  // Serves what Redis holds for `id` now.
  absl::Status Apply(absl::string_view id);
  // Writes the level served as `id` to Redis unless Redis has an entry for
  // it; loads Redis's when it has.
  absl::Status Seed(const std::string& id);
  // Whether revision `revision` of `id` is newer than the one applied; if
  // so, records it as applied. Called under the store's writers' lock.
  bool TakeRevision(absl::string_view id, int64_t revision);
  void Run();
  // Waits `wait`, or less when Stop() is called; true when stopping.
  bool SleepUnlessStopping(absl::Duration wait);

  LevelStore& store_;
  const RedisAddress address_;
  const std::string index_key_;
  const std::string channel_;

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
