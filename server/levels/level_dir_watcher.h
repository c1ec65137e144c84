// LevelDirWatcher: keeps the levels a server serves in step with its level
// directory (--level_dir) while it runs, so that the directory is the
// fleet's source of truth: every replica mounting the same directory (a
// Docker bind mount, a Kubernetes ConfigMap or shared volume) serves the
// same levels, and updating the files updates every replica.
//
// Every poll_interval it lists the directory and compares each level
// file's fingerprint (device, inode, size, mtime and ctime in ns, taken by
// stat() through symlinks) with the previous poll's. For each level id
// whose files changed it makes the store serve what a fresh start with the
// same flags would serve:
//   - a level file ({id}.binpb, else .pb, else .json) -> that file's level,
//     swapped in atomically (LevelStore::SyncLevel) unless its content
//     equals the served level's: a file the server wrote for a put, read
//     back, or a file merely touched, is not a new version;
//   - no level file, a tombstone ({id}.deleted) -> the level is dropped;
//   - no level file, no tombstone, and the id came from the bundled default
//     or --level_files -> that level is served again (the directory's copy
//     overrode it; removing the copy removes the override);
//   - nothing at all -> the level is dropped.
// A file that cannot be read or parsed, or holds an invalid level, is
// logged and skipped: the old level (if any) keeps serving, and the file is
// tried again when it next changes (an editor's half-written save is simply
// retried when the save completes). A directory that cannot be listed is
// logged once and changes nothing: a transient unmount does not drop the
// fleet's levels.
//
// Why polling and not inotify: inotify sees no events for changes made on
// the host side of many bind mounts (Docker Desktop's file sharing, NFS,
// other network file systems), and a Kubernetes ConfigMap volume updates
// by renaming a new "..data" symlink into place, so the level files (links
// through "..data") change without any event naming them. stat() through
// the links sees every one of these. A poll costs one readdir and one stat
// per file, negligible at a one-second interval for the handful of levels a
// server holds. The known blind spot: a same-size rewrite in place of the
// same inode within one kernel timestamp tick (a few ms) of the previous
// poll's stat looks unchanged; rename-into-place saves (editors, kubectl,
// WriteLevelFile) always get a new inode.
//
// Thread safety: Poll() and the thread it runs on are serialized with each
// other; puts and deletes through the level store may run concurrently
// (see LevelStore::SyncLevel's `still_current`).
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_DIR_WATCHER_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_DIR_WATCHER_H_

#include <sys/types.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collide/v1/geometry.pb.h"
#include "server/levels/level_dir_files.h"
#include "server/levels/level_store.h"
#include "server/levels/skipped_level_files.h"

namespace collide::server {

// A level served when the level directory has no file for its id.
struct BaseLevel {
  std::shared_ptr<const v1::Level> source;
  // Where it came from, for log lines ("the bundled default", a path).
  std::string origin;
};

struct LevelDirWatcherOptions {
  // The directory to watch (must be the store's level directory).
  std::string level_dir;
  // Time between polls; Start() runs no thread when it is not positive.
  absl::Duration poll_interval = absl::Seconds(1);
  // Largest level file read (formats::InputLimits::max_message_bytes).
  int64_t max_file_bytes = 64 << 20;
  // By id: the bundled default and --level_files levels, which a restart
  // would serve for an id with no level file and no tombstone.
  std::map<std::string, BaseLevel, std::less<>> base_levels;
  // Where refused files are recorded, and cleared when their id settles (a
  // file loads, or the id has none); null: only logged. Must outlive the
  // watcher.
  SkippedLevelFiles* skipped = nullptr;
};

class LevelDirWatcher {
 public:
  // `store` must outlive the watcher.
  LevelDirWatcher(LevelStore& store, LevelDirWatcherOptions options);
  // Stops the thread if running.
  ~LevelDirWatcher();
  LevelDirWatcher(const LevelDirWatcher&) = delete;
  LevelDirWatcher& operator=(const LevelDirWatcher&) = delete;

  // Records the directory as it is now without loading anything, so the
  // next poll acts only on later changes. Call it just before
  // LevelStore::LoadDirectory() loads the directory at start: a file that
  // changes in between is then seen as changed, read again, and (its
  // content being what LoadDirectory read, or newer) served right.
  void Prime();

  // One poll: lists the directory and applies every change since the last
  // poll (or Prime), logging one line per level loaded, replaced, restored,
  // dropped, or file refused.
  void Poll();

  // Starts polling every poll_interval on a thread of its own (no-op when
  // the interval is not positive or the thread runs already).
  void Start();

  // Stops and joins the thread; returns after any poll in progress ends.
  // Idempotent; the watcher may not be started again.
  void Stop();

  // Polls completed so far (Poll() calls and the thread's), so tests can
  // wait for "a full poll after this change" instead of sleeping.
  int64_t polls_completed() const { return polls_completed_.load(); }

 private:
  // What stat() says about a file, through symlinks: any change to its
  // content through a write or a rename-into-place changes one of these.
  struct Fingerprint {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    int64_t mtime_ns = 0;
    int64_t ctime_ns = 0;
    bool operator==(const Fingerprint&) const = default;
  };
  // The files of one id: one slot per kLevelDirExtensions entry, then the
  // tombstone, then the patch journal; nullopt where there is none.
  using IdFiles = std::array<std::optional<Fingerprint>,
                             static_cast<size_t>(kLevelDirExtensionCount) + 2>;
  // Level files and tombstones of the directory, by file name.
  using Listing = std::map<std::string, Fingerprint>;

  static std::optional<Fingerprint> StatFile(const std::string& path);
  absl::StatusOr<Listing> ListDirectory() const;
  IdFiles FilesOf(absl::string_view id, const Listing& listing) const;
  IdFiles StatFilesOf(absl::string_view id) const;
  // Makes the store serve what `files` say for `id`. False when the
  // directory changed under it (try again next poll).
  bool Apply(const std::string& id, const IdFiles& files);
  void Run();

  LevelStore& store_;
  const LevelDirWatcherOptions options_;

  // Serializes polls; guards what the last poll saw.
  absl::Mutex poll_mutex_;
  Listing seen_ ABSL_GUARDED_BY(poll_mutex_);
  // Ids whose change went stale under a concurrent put: redone next poll.
  std::set<std::string> retry_ ABSL_GUARDED_BY(poll_mutex_);
  // The last listing error logged, so a lasting one is logged once.
  std::string listing_error_ ABSL_GUARDED_BY(poll_mutex_);
  std::atomic<int64_t> polls_completed_{0};

  absl::Mutex stop_mutex_;
  bool stopping_ ABSL_GUARDED_BY(stop_mutex_) = false;
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_DIR_WATCHER_H_
