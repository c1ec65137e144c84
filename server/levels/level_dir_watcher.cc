#include "server/levels/level_dir_watcher.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/level_dir_files.h"
#include "server/levels/level_journal.h"
#include "server/levels/level_store.h"
#include "server/ops/log.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

constexpr size_t kTombstoneSlot = static_cast<size_t>(kLevelDirExtensionCount);
constexpr size_t kJournalSlot = kTombstoneSlot + 1;

absl::string_view SlotExtension(size_t slot) {
  if (slot == kJournalSlot) return kJournalExtension;
  return slot == kTombstoneSlot ? kTombstoneExtension
                                : kLevelDirExtensions[slot];
}

int64_t Nanoseconds(const timespec& t) {
  return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

// "keeping version 3" / "not served": what a refused file leaves serving.
std::string StillServed(const LevelStore& store, absl::string_view id) {
  const std::shared_ptr<const LevelSnapshot> served = store.Find(id);
  return served == nullptr ? "not served"
                           : absl::StrCat("keeping version ", served->version);
}

}  // namespace

LevelDirWatcher::LevelDirWatcher(LevelStore& store,
                                 LevelDirWatcherOptions options)
    : store_(store), options_(std::move(options)) {}

LevelDirWatcher::~LevelDirWatcher() { Stop(); }

std::optional<LevelDirWatcher::Fingerprint> LevelDirWatcher::StatFile(
    const std::string& path) {
  struct stat st;
  // stat, not lstat: a ConfigMap's level files are symlinks into "..data",
  // and what matters is the file they lead to now. A dangling link or a
  // directory is no file.
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  return Fingerprint{st.st_dev, st.st_ino, st.st_size, Nanoseconds(st.st_mtim),
                     Nanoseconds(st.st_ctim)};
}

absl::StatusOr<LevelDirWatcher::Listing> LevelDirWatcher::ListDirectory()
    const {
  DIR* dir = opendir(options_.level_dir.c_str());
  if (dir == nullptr) {
    return absl::ErrnoToStatus(
        errno,
        absl::StrCat("cannot open level directory ", options_.level_dir));
  }
  Listing listing;
  while (const dirent* entry = readdir(dir)) {
    if (!ParseLevelDirEntry(entry->d_name).has_value()) continue;
    std::optional<Fingerprint> fingerprint =
        StatFile(absl::StrCat(options_.level_dir, "/", entry->d_name));
    // Gone since readdir, or not a file: absent, like any other vanished
    // file.
    if (fingerprint.has_value()) listing.emplace(entry->d_name, *fingerprint);
  }
  closedir(dir);
  return listing;
}

LevelDirWatcher::IdFiles LevelDirWatcher::FilesOf(
    absl::string_view id, const Listing& listing) const {
  IdFiles files;
  for (size_t slot = 0; slot < files.size(); ++slot) {
    const auto it = listing.find(absl::StrCat(id, SlotExtension(slot)));
    if (it != listing.end()) files[slot] = it->second;
  }
  return files;
}

LevelDirWatcher::IdFiles LevelDirWatcher::StatFilesOf(
    absl::string_view id) const {
  IdFiles files;
  for (size_t slot = 0; slot < files.size(); ++slot) {
    files[slot] =
        StatFile(LevelDirPath(options_.level_dir, id, SlotExtension(slot)));
  }
  return files;
}

bool LevelDirWatcher::Apply(const std::string& id, const IdFiles& files) {
  // Run by the store with its writers' lock held, right before it changes
  // anything: the decision below was made on `files`, and a put or delete
  // that rewrote them since (under that lock) makes it stale.
  const auto still_current = [&] { return StatFilesOf(id) == files; };
  const std::string name = LogValue(formats::LevelName(id));
  const std::string dir = LogValue(options_.level_dir);
  // The id's files now say what is served: no skipped file any more.
  const auto settled = [&] {
    if (options_.skipped != nullptr) options_.skipped->Clear(id);
    return true;
  };

  for (size_t slot = 0; slot < kTombstoneSlot; ++slot) {
    if (!files[slot].has_value()) continue;
    // The preferred level file decides, as at start (LoadDirectory).
    const std::string path =
        LevelDirPath(options_.level_dir, id, SlotExtension(slot));
    // The server's binary file comes with its patch journal.
    absl::StatusOr<LevelDirLevel> read = ReadLevelDirLevel(
        options_.level_dir, id, SlotExtension(slot), options_.max_file_bytes);
    if (read.ok() && !read->journal_stopped.empty()) {
      Log("level %s: patch journal replayed in part: %s", name,
          LogValue(read->journal_stopped));
    }
    absl::StatusOr<LevelStore::SyncResult> synced =
        read.ok() ? store_.SyncLevel(std::move(read->level), still_current,
                                     read->journaled)
                  : absl::StatusOr<LevelStore::SyncResult>(read.status());
    if (!synced.ok()) {
      // Changed since listed (a save still being written, say): the next
      // poll sees the change and reads it again, so this is no news yet.
      if (!still_current()) return true;
      // Logged once: the file is tried again only when it changes.
      Metrics().level_load_failures.Add();
      LogAt(LogSeverity::kWarning,
            {{"level_id", id}, {"path", path}, {"status", synced.status()}},
            "level %s: ignoring %s (%s): %s", name, LogValue(path),
            StillServed(store_, id), LogValue(synced.status()));
      if (options_.skipped != nullptr) {
        options_.skipped->Skip(id, path, synced.status());
      }
      return true;
    }
    switch (synced->change) {
      case LevelStore::SyncChange::kCreated:
      case LevelStore::SyncChange::kReplaced:
        LogAt(LogSeverity::kInfo,
              {{"level_id", id},
               {"path", path},
               {"version", synced->snapshot->version},
               {"shapes", synced->snapshot->level->shape_count()}},
              "level %s %s from %s: version %d, %d shapes", name,
              synced->change == LevelStore::SyncChange::kCreated ? "loaded"
                                                                 : "replaced",
              LogValue(path), synced->snapshot->version,
              synced->snapshot->level->shape_count());
        return settled();
      case LevelStore::SyncChange::kStale:
        return false;
      default:
        return settled();
    }
  }

  const auto base = options_.base_levels.find(id);
  if (!files[kTombstoneSlot].has_value() &&
      base != options_.base_levels.end()) {
    // The directory's copy overrode a bundled or --level_files level;
    // without it a restart would serve that level, so serve it now.
    absl::StatusOr<LevelStore::SyncResult> synced =
        store_.SyncLevel(*base->second.source, still_current);
    if (!synced.ok()) {
      // It loaded at start with the same limits: our bug.
      Metrics().level_load_failures.Add();
      LogAt(LogSeverity::kError,
            {{"level_id", id},
             {"origin", base->second.origin},
             {"status", synced.status()}},
            "level %s: cannot restore it from %s: %s", name,
            LogValue(base->second.origin), LogValue(synced.status()));
      return settled();
    }
    if (synced->change == LevelStore::SyncChange::kStale) return false;
    if (synced->change != LevelStore::SyncChange::kUnchanged) {
      Log("level %s restored from %s (no file for it in %s): version %d", name,
          LogValue(base->second.origin), dir, synced->snapshot->version);
    }
    return settled();
  }

  const LevelStore::SyncResult unloaded = store_.UnloadLevel(id, still_current);
  if (unloaded.change == LevelStore::SyncChange::kStale) return false;
  if (unloaded.change == LevelStore::SyncChange::kRemoved) {
    Log("level %s dropped (%s in %s): was version %d", name,
        files[kTombstoneSlot].has_value() ? "deleted" : "its file is gone", dir,
        unloaded.snapshot->version);
  }
  return settled();
}

void LevelDirWatcher::Prime() {
  absl::MutexLock lock(&poll_mutex_);
  absl::StatusOr<Listing> listing = ListDirectory();
  // Unlistable now: every file found later counts as new, and is compared
  // with what is served before anything is swapped.
  seen_ = listing.ok() ? *std::move(listing) : Listing();
}

void LevelDirWatcher::Poll() {
  absl::MutexLock lock(&poll_mutex_);
  absl::StatusOr<Listing> listing = ListDirectory();
  if (!listing.ok()) {
    if (listing.status().ToString() != listing_error_) {
      listing_error_ = listing.status().ToString();
      Log("level directory: %s; levels stay as they are",
          LogValue(listing_error_));
    }
    polls_completed_.fetch_add(1);
    return;
  }
  if (!listing_error_.empty()) {
    Log("level directory %s readable again", LogValue(options_.level_dir));
    listing_error_.clear();
  }

  // Ids with a file added, removed or changed since the last poll (both
  // listings are sorted by name: one merge pass), plus those to redo.
  std::set<std::string> changed = std::move(retry_);
  retry_.clear();
  auto old_it = seen_.begin();
  auto new_it = listing->begin();
  const auto note = [&](const std::string& file_name) {
    changed.insert(ParseLevelDirEntry(file_name)->id);
  };
  while (old_it != seen_.end() || new_it != listing->end()) {
    if (new_it == listing->end() ||
        (old_it != seen_.end() && old_it->first < new_it->first)) {
      note((old_it++)->first);
    } else if (old_it == seen_.end() || new_it->first < old_it->first) {
      note((new_it++)->first);
    } else {
      if (!(old_it->second == new_it->second)) note(new_it->first);
      ++old_it;
      ++new_it;
    }
  }
  for (const std::string& id : changed) {
    if (!Apply(id, FilesOf(id, *listing))) retry_.insert(id);
  }
  seen_ = *std::move(listing);
  polls_completed_.fetch_add(1);
}

void LevelDirWatcher::Start() {
  if (options_.poll_interval <= absl::ZeroDuration() || thread_.joinable()) {
    return;
  }
  thread_ = std::thread([this] { Run(); });
}

void LevelDirWatcher::Run() {
  while (true) {
    {
      absl::MutexLock lock(&stop_mutex_);
      if (stop_mutex_.AwaitWithTimeout(absl::Condition(&stopping_),
                                       options_.poll_interval)) {
        return;
      }
    }
    Poll();
  }
}

void LevelDirWatcher::Stop() {
  {
    absl::MutexLock lock(&stop_mutex_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

}  // namespace collide::server
