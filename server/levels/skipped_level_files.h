// SkippedLevelFiles: the level directory's files that the server could not
// load (unreadable, empty, truncated, corrupted, or holding an invalid
// level), by level id. A bad file is skipped so that one broken file cannot
// keep a replica from starting; this list is how operators find out without
// reading logs: ListLevels returns it, and the health service reports
// kHealthService NOT_SERVING while it is not empty.
//
// Filled at start (CollideServer's directory load) and kept current by the
// level directory watcher: an id leaves the list when its file loads, or
// when it no longer has a level file. Thread-safe.
#ifndef COLLIDE_SERVER_LEVELS_SKIPPED_LEVEL_FILES_H_
#define COLLIDE_SERVER_LEVELS_SKIPPED_LEVEL_FILES_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace collide::server {

class SkippedLevelFiles {
 public:
  // The grpc.health.v1 service name whose status says whether every level
  // file in the level directory is served: SERVING when none is skipped.
  // The whole server ("") stays SERVING either way: it serves the rest.
  static constexpr char kHealthService[] = "collide.level_dir";

  struct File {
    std::string level_id;
    std::string path;
    // Why it was skipped (its message starts with the path).
    absl::Status error;
  };

  // Called with `all_loaded` (the list is empty) whenever that changes,
  // under the list's lock (keep it short; it must not call back in).
  void SetObserver(std::function<void(bool all_loaded)> observer);

  // Records that `level_id`'s file `path` was skipped for `error`,
  // replacing what was recorded for that id.
  void Skip(absl::string_view level_id, absl::string_view path,
            absl::Status error);
  // `level_id` has no skipped file any more (it loaded, or is gone).
  void Clear(absl::string_view level_id);

  // Sorted by level id.
  std::vector<File> List() const;
  bool empty() const;

 private:
  void Notify(bool was_empty) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  mutable absl::Mutex mutex_;
  std::map<std::string, File, std::less<>> files_ ABSL_GUARDED_BY(mutex_);
  std::function<void(bool)> observer_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_SKIPPED_LEVEL_FILES_H_
