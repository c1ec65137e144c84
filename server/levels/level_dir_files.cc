#include "server/levels/level_dir_files.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/level_file.h"
#include "proto/formats/proto_convert.h"
#include "server/levels/level_journal.h"

namespace collide::server {

std::optional<LevelDirEntry> ParseLevelDirEntry(absl::string_view file_name) {
  if (file_name.empty() || file_name[0] == '.') return std::nullopt;
  const size_t dot = file_name.rfind('.');
  if (dot == absl::string_view::npos) return std::nullopt;
  const absl::string_view extension = file_name.substr(dot);
  LevelDirEntry entry;
  entry.id = std::string(file_name.substr(0, dot));
  if (!formats::ValidateLevelId(entry.id, "file name").ok())
    return std::nullopt;
  if (extension == kTombstoneExtension) {
    entry.rank = LevelDirEntry::kTombstone;
    return entry;
  }
  if (extension == kJournalExtension) {
    entry.rank = LevelDirEntry::kJournal;
    return entry;
  }
  for (int rank = 0; rank < kLevelDirExtensionCount; ++rank) {
    if (extension == kLevelDirExtensions[rank]) {
      entry.rank = rank;
      return entry;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> LevelDirTemporaryPid(absl::string_view file_name) {
  const size_t marker = file_name.rfind(".tmp.");
  if (marker == absl::string_view::npos) return std::nullopt;
  const absl::string_view digits = file_name.substr(marker + 5);
  // At most 18 digits: no overflow.
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  int64_t pid = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    pid = pid * 10 + (c - '0');
  }
  const std::optional<LevelDirEntry> entry =
      ParseLevelDirEntry(file_name.substr(0, marker));
  if (!entry.has_value() || entry->rank == LevelDirEntry::kTombstone) {
    return std::nullopt;
  }
  return pid;
}

std::string LevelDirPath(absl::string_view dir, absl::string_view id,
                         absl::string_view extension) {
  return absl::StrCat(dir, "/", id, extension);
}

absl::StatusOr<v1::Level> ReadLevelDirFile(const std::string& path,
                                           absl::string_view id,
                                           int64_t max_bytes) {
  absl::StatusOr<v1::Level> level = formats::ReadLevelFile(path, max_bytes);
  if (!level.ok()) return level.status();
  if (level->id().empty()) {
    level->set_id(std::string(id));
  } else if (level->id() != id) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": level.id \"", level->id(),
                     "\" does not match the file name (\"", id, "\")"));
  }
  return level;
}

absl::StatusOr<LevelDirLevel> ReadLevelDirLevel(absl::string_view dir,
                                                absl::string_view id,
                                                absl::string_view extension,
                                                int64_t max_bytes) {
  LevelDirLevel read;
  absl::StatusOr<v1::Level> level =
      ReadLevelDirFile(LevelDirPath(dir, id, extension), id, max_bytes);
  if (!level.ok()) return level.status();
  read.level = *std::move(level);
  if (extension != formats::kBinaryLevelExtension) return read;
  absl::StatusOr<JournalReplay> replay = ReplayJournal(
      LevelDirPath(dir, id, kJournalExtension), max_bytes, read.level);
  if (!replay.ok()) return replay.status();
  read.journaled = replay->complete;
  read.journal_stopped = replay->stopped;
  return read;
}

}  // namespace collide::server
