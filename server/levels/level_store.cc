#include "server/levels/level_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/content_hash.h"
#include "server/levels/level_dir_files.h"
#include "server/levels/level_journal.h"
#include "server/levels/level_snapshot.h"

namespace collide::server {
namespace {

// Makes a rename or unlink in `directory` durable.
absl::Status SyncDirectory(const std::string& directory) {
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", directory));
  }
  absl::Status status;
  if (fsync(fd) != 0) {
    status =
        absl::ErrnoToStatus(errno, absl::StrCat("cannot fsync ", directory));
  }
  close(fd);
  return status;
}

// Whether `served` has the content of `level` (its content hash; the id
// is the same by the caller's lookup).
bool SameContent(const LevelSnapshot* served, const v1::Level& level) {
  return served != nullptr && served->content_hash == ContentHash(level);
}

// A shared store's refusal as the admin call reports it: other content
// than the caller expected is FAILED_PRECONDITION naming
// expected_content_hash (as CheckExpected). Other errors pass as they are:
// ABORTED is then a patch that lost the race to other replicas' writes
// kSharedPatchAttempts times over (gRPC's code for "retry the
// read-modify-write").
absl::Status SharedWriteError(const absl::Status& error,
                              absl::string_view expected_content_hash) {
  if (!absl::IsAborted(error) || expected_content_hash.empty()) return error;
  return absl::FailedPreconditionError(absl::StrCat("expected_content_hash ",
                                                    expected_content_hash,
                                                    " but ", error.message()));
}

}  // namespace

LevelStore::LevelStore(const formats::InputLimits& limits,
                       std::string level_dir, const StoreLimits& store_limits)
    : limits_(limits),
      level_dir_(std::move(level_dir)),
      store_limits_(store_limits) {}

int64_t LevelStore::total_held_bytes() const {
  absl::MutexLock map_lock(&map_mutex_);
  return total_held_bytes_;
}

absl::Status LevelStore::CheckRoomFor(const LevelSnapshot& built) const {
  absl::MutexLock map_lock(&map_mutex_);
  const auto it = levels_.find(built.id);
  const bool replaces = it != levels_.end();
  if (!replaces &&
      static_cast<int64_t>(levels_.size()) >= store_limits_.max_levels) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the server serves ", levels_.size(),
                     " levels, max_levels ", store_limits_.max_levels,
                     ": delete one before adding level \"", built.id, "\""));
  }
  const int64_t after = total_held_bytes_ -
                        (replaces ? HeldBytes(*it->second) : 0) +
                        HeldBytes(built);
  if (after > store_limits_.max_total_level_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("level \"", built.id, "\" holds ", HeldBytes(built),
                     " bytes; with it the server's levels would hold ", after,
                     " bytes, more than max_total_level_bytes ",
                     store_limits_.max_total_level_bytes));
  }
  return absl::OkStatus();
}

std::string LevelStore::PathFor(absl::string_view id) const {
  if (level_dir_.empty()) return "";
  return LevelDirPath(level_dir_, id, formats::kBinaryLevelExtension);
}

std::string LevelStore::JournalFor(absl::string_view id) const {
  return LevelDirPath(level_dir_, id, kJournalExtension);
}

std::string LevelStore::TombstoneFor(absl::string_view id) const {
  return LevelDirPath(level_dir_, id, kTombstoneExtension);
}

absl::StatusOr<LevelStore::PutResult> LevelStore::Put(v1::Level level,
                                                      bool persist,
                                                      const Expected& expected,
                                                      bool journaled) {
  // Validate and build first, with no lock held: this is the slow part and
  // the part that may fail, and until the swap below nothing is changed.
  absl::StatusOr<LevelSnapshot> built =
      MakeLevelSnapshot(std::move(level), /*version=*/0, limits_);
  if (!built.ok()) return built.status();

  absl::MutexLock write_lock(&write_mutex_);
  // With a shared store, only the version is this server's to check.
  if (absl::Status s = CheckExpected(
          Find(built->id).get(),
          shared_ != nullptr
              ? Expected{.content_hash = "", .version = expected.version}
              : expected);
      !s.ok()) {
    return s;
  }
  if (absl::Status room = CheckRoomFor(*built); !room.ok()) return room;
  built->journaled = journaled;
  if (shared_ != nullptr && persist) {
    if (absl::Status s =
            shared_->Write(built->id, expected.content_hash, &*built);
        !s.ok()) {
      return SharedWriteError(s, expected.content_hash);
    }
  } else if (persist) {
    if (absl::Status s = Persist(*built); !s.ok()) return s;
  }
  return SwapIn(*std::move(built));
}

void LevelStore::ShareWrites(SharedLevelWrites* shared) { shared_ = shared; }

absl::StatusOr<LevelStore::PutResult> LevelStore::Patch(
    absl::string_view id, const v1::PatchLevelRequest& request) {
  for (int attempt = 1;; ++attempt) {
    bool stale = false;
    absl::StatusOr<PutResult> patched = PatchOnce(id, request, stale);
    if (!stale || attempt == kSharedPatchAttempts) return patched;
    if (absl::Status s = shared_->Refresh(id); !s.ok()) return s;
  }
}

absl::StatusOr<LevelStore::PutResult> LevelStore::PatchOnce(
    absl::string_view id, const v1::PatchLevelRequest& request, bool& stale) {
  // Under the writers' lock from the start: a patch is built from the level
  // it patches, so two patches must not build from the same one.
  absl::MutexLock write_lock(&write_mutex_);
  std::shared_ptr<const LevelSnapshot> served = Find(id);
  if (served == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("level \"", formats::LevelName(id), "\" not found"));
  }
  if (absl::Status s = CheckExpected(
          served.get(),
          {request.expected_content_hash(), request.expected_version()});
      !s.ok()) {
    return s;
  }
  absl::StatusOr<LevelSnapshot> built =
      PatchSnapshot(*served, request, limits_);
  if (!built.ok()) return built.status();
  if (absl::Status room = CheckRoomFor(*built); !room.ok()) return room;
  if (shared_ != nullptr) {
    // Written only over the level it was built on.
    if (absl::Status s = shared_->Write(id, served->content_hash, &*built);
        !s.ok()) {
      // Built on a level the fleet has moved on from: when the caller
      // named no content, build it again on the newer one.
      stale = absl::IsAborted(s) && request.expected_content_hash().empty();
      return SharedWriteError(s, request.expected_content_hash());
    }
  } else if (built->patch != nullptr && served->journaled) {
    // The directory holds the level patched: the patch alone extends it.
    if (absl::Status s =
            AppendJournalRecord(JournalFor(id), request, served->content_hash);
        !s.ok()) {
      return s;
    }
    built->journaled = true;
  } else if (absl::Status s = Persist(*built); !s.ok()) {
    return s;
  }
  return SwapIn(*std::move(built));
}

absl::Status LevelStore::Persist(LevelSnapshot& built) {
  if (level_dir_.empty()) return absl::OkStatus();
  // Atomic on disk: on failure the old file (and so the old level after a
  // restart) is intact, and the old snapshot keeps serving.
  if (absl::Status s = formats::WriteLevelFile(
          PathFor(built.id),
          built.patch == nullptr ? *built.source : ContentOf(built));
      !s.ok()) {
    return s;
  }
  // After the file: a crash in between leaves both, and at start a level
  // file wins over a tombstone, and a journal left from the old file no
  // longer applies (its records name the old content's hash).
  for (const std::string& path :
       {JournalFor(built.id), TombstoneFor(built.id)}) {
    if (unlink(path.c_str()) == 0) {
      if (absl::Status s = SyncDirectory(level_dir_); !s.ok()) return s;
    } else if (errno != ENOENT) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot remove ", path));
    }
  }
  built.journaled = true;
  return absl::OkStatus();
}

LevelStore::PutResult LevelStore::SwapIn(LevelSnapshot built) {
  built.version = ++last_version_;
  auto snapshot = std::make_shared<const LevelSnapshot>(std::move(built));
  PutResult result;
  result.snapshot = snapshot;
  absl::MutexLock map_lock(&map_mutex_);
  auto [it, inserted] = levels_.try_emplace(snapshot->id, snapshot);
  if (!inserted) {
    total_held_bytes_ -= HeldBytes(*it->second);
    it->second = snapshot;
  }
  total_held_bytes_ += HeldBytes(*snapshot);
  result.created = inserted;
  return result;
}

absl::StatusOr<LevelStore::SyncResult> LevelStore::SyncLevel(
    v1::Level level, absl::FunctionRef<bool()> still_current, bool journaled) {
  // Checked before building, so that re-reading a file the server wrote
  // itself for a put (or one merely touched) costs a parse, not a build.
  if (std::shared_ptr<const LevelSnapshot> served = Find(level.id());
      SameContent(served.get(), level)) {
    return SyncResult{SyncChange::kUnchanged, std::move(served)};
  }
  absl::StatusOr<LevelSnapshot> built =
      MakeLevelSnapshot(std::move(level), /*version=*/0, limits_);
  if (!built.ok()) return built.status();

  absl::MutexLock write_lock(&write_mutex_);
  // Puts write their file and swap under this lock, so here the file and
  // the store agree: if the file is still the one that was read, the
  // content read is what the directory says now.
  if (!still_current()) return SyncResult{SyncChange::kStale, nullptr};
  if (std::shared_ptr<const LevelSnapshot> served = Find(built->id);
      served != nullptr && served->content_hash == built->content_hash) {
    return SyncResult{SyncChange::kUnchanged, std::move(served)};
  }
  if (absl::Status room = CheckRoomFor(*built); !room.ok()) return room;
  built->journaled = journaled;
  PutResult put = SwapIn(*std::move(built));
  return SyncResult{put.created ? SyncChange::kCreated : SyncChange::kReplaced,
                    std::move(put.snapshot)};
}

LevelStore::SyncResult LevelStore::UnloadLevel(
    absl::string_view id, absl::FunctionRef<bool()> still_current) {
  absl::MutexLock write_lock(&write_mutex_);
  if (!still_current()) return SyncResult{SyncChange::kStale, nullptr};
  absl::MutexLock map_lock(&map_mutex_);
  const auto it = levels_.find(id);
  if (it == levels_.end()) return SyncResult{SyncChange::kUnchanged, nullptr};
  total_held_bytes_ -= HeldBytes(*it->second);
  SyncResult result{SyncChange::kRemoved, std::move(it->second)};
  levels_.erase(it);
  return result;
}

absl::StatusOr<int64_t> LevelStore::Delete(absl::string_view id,
                                           const Expected& expected) {
  absl::MutexLock write_lock(&write_mutex_);
  std::shared_ptr<const LevelSnapshot> served = Find(id);
  if (served == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("level \"", formats::LevelName(id), "\" not found"));
  }
  if (absl::Status s = CheckExpected(
          served.get(),
          shared_ != nullptr
              ? Expected{.content_hash = "", .version = expected.version}
              : expected);
      !s.ok()) {
    return s;
  }
  if (shared_ != nullptr) {
    if (absl::Status s = shared_->Write(id, expected.content_hash, nullptr);
        !s.ok()) {
      return SharedWriteError(s, expected.content_hash);
    }
  } else if (!level_dir_.empty()) {
    // Every file LoadDirectory would read for this id, or the level comes
    // back at the next start. The one the server wrote goes last, so a
    // failure part way leaves the newest state on disk.
    for (int i = kLevelDirExtensionCount - 1; i >= 0; --i) {
      const std::string path =
          LevelDirPath(level_dir_, id, kLevelDirExtensions[i]);
      if (unlink(path.c_str()) != 0 && errno != ENOENT) {
        return absl::ErrnoToStatus(errno, absl::StrCat("cannot remove ", path));
      }
    }
    // The journal after the file it extends: alone it is never read.
    if (const std::string journal = JournalFor(id);
        unlink(journal.c_str()) != 0 && errno != ENOENT) {
      return absl::ErrnoToStatus(errno,
                                 absl::StrCat("cannot remove ", journal));
    }
    // Then the tombstone, so the bundled or --level_files copy of this id
    // does not come back at the next start.
    const std::string tombstone = TombstoneFor(id);
    const int fd =
        open(tombstone.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || fsync(fd) != 0) {
      const absl::Status error =
          absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", tombstone));
      if (fd >= 0) close(fd);
      return error;
    }
    close(fd);
    if (absl::Status s = SyncDirectory(level_dir_); !s.ok()) return s;
  }
  absl::MutexLock map_lock(&map_mutex_);
  total_held_bytes_ -= HeldBytes(*served);
  levels_.erase(levels_.find(id));
  return served->version;
}

std::shared_ptr<const LevelSnapshot> LevelStore::Find(
    absl::string_view id) const {
  absl::MutexLock lock(&map_mutex_);
  const auto it = levels_.find(id);
  return it == levels_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const LevelSnapshot>> LevelStore::List() const {
  absl::MutexLock lock(&map_mutex_);
  std::vector<std::shared_ptr<const LevelSnapshot>> result;
  result.reserve(levels_.size());
  for (const auto& [id, snapshot] : levels_) result.push_back(snapshot);
  return result;
}

std::vector<std::string> LevelStore::RemoveLeftoverTemporaries() {
  std::vector<std::string> removed;
  if (level_dir_.empty()) return removed;
  DIR* dir = opendir(level_dir_.c_str());
  if (dir == nullptr) return removed;
  std::vector<std::pair<std::string, int64_t>> temporaries;
  while (const dirent* entry = readdir(dir)) {
    if (std::optional<int64_t> pid = LevelDirTemporaryPid(entry->d_name)) {
      temporaries.emplace_back(entry->d_name, *pid);
    }
  }
  closedir(dir);
  for (const auto& [name, pid] : temporaries) {
    const std::string path = absl::StrCat(level_dir_, "/", name);
    struct stat info;
    if (lstat(path.c_str(), &info) != 0) continue;  // gone meanwhile
    const absl::Time modified = absl::TimeFromTimespec(info.st_mtim);
    if (pid != getpid() && absl::Now() - modified < kStaleTemporaryAge) {
      continue;
    }
    if (unlink(path.c_str()) == 0) removed.push_back(path);
  }
  return removed;
}

absl::StatusOr<LevelStore::DirectoryLoad> LevelStore::LoadDirectory(
    BadLevelFile bad_file) {
  DirectoryLoad result;
  if (level_dir_.empty()) return result;

  // id -> (extension rank, file name): the preferred file per id. A sorted
  // map so levels load in a reproducible order.
  std::map<std::string, std::pair<int, std::string>> files;
  std::vector<std::string> tombstones;
  DIR* dir = opendir(level_dir_.c_str());
  if (dir == nullptr) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open level directory ", level_dir_));
  }
  while (const dirent* entry = readdir(dir)) {
    std::optional<LevelDirEntry> parsed = ParseLevelDirEntry(entry->d_name);
    if (!parsed.has_value()) continue;
    if (parsed->rank == LevelDirEntry::kJournal) continue;  // read with .binpb
    if (parsed->rank == LevelDirEntry::kTombstone) {
      tombstones.push_back(std::move(parsed->id));
      continue;
    }
    auto [it, inserted] =
        files.try_emplace(parsed->id, parsed->rank, entry->d_name);
    if (!inserted && parsed->rank < it->second.first) {
      it->second = {parsed->rank, entry->d_name};
    }
  }
  closedir(dir);

  for (auto& [id, file] : files) {
    const std::string path = absl::StrCat(level_dir_, "/", file.second);
    absl::StatusOr<LevelDirLevel> read =
        ReadLevelDirLevel(level_dir_, id, kLevelDirExtensions[file.first],
                          limits_.max_message_bytes);
    absl::Status error = read.status();
    if (read.ok()) {
      if (!read->journal_stopped.empty()) {
        result.journal_notes.push_back(read->journal_stopped);
      }
      // Already on disk: loading must not rewrite (or fail on a read-only
      // directory).
      absl::StatusOr<PutResult> put =
          Put(std::move(read->level), /*persist=*/false, /*expected=*/{},
              read->journaled);
      if (put.ok()) {
        result.loaded.push_back(id);
        continue;
      }
      error = absl::Status(put.status().code(),
                           absl::StrCat(path, ": ", put.status().message()));
    }
    if (bad_file == BadLevelFile::kFail) return error;
    result.refused.push_back({id, path, std::move(error)});
  }
  // Deleted since it was loaded from the bundled default or a level file
  // (a level file of the same id in the directory is newer and wins).
  for (const std::string& id : tombstones) {
    if (files.count(id) > 0) continue;
    absl::MutexLock map_lock(&map_mutex_);
    const auto it = levels_.find(id);
    if (it == levels_.end()) continue;
    total_held_bytes_ -= HeldBytes(*it->second);
    levels_.erase(it);
  }
  return result;
}

absl::StatusOr<std::shared_ptr<const LevelSnapshot>> FindLevel(
    const LevelStore& store, absl::string_view name, absl::string_view field) {
  absl::StatusOr<std::string> id = formats::ParseLevelName(name, field);
  if (!id.ok()) return id.status();
  std::shared_ptr<const LevelSnapshot> snapshot = store.Find(*id);
  if (snapshot == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(field, " \"", name, "\" not found"));
  }
  return snapshot;
}

}  // namespace collide::server
