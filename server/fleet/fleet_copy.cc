#include "server/fleet/fleet_copy.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "proto/formats/file_io.h"
#include "proto/formats/proto_convert.h"

namespace collide::server {
namespace {

constexpr absl::string_view kHeader = "collide fleet copy 1";
constexpr absl::string_view kIndexName = "fleet.index";
constexpr absl::string_view kLevelSuffix = ".binpb";

// Whether `hash` may name a file: lowercase hex, as content hashes are.
bool IsFileSafeHash(absl::string_view hash) {
  if (hash.empty() || hash.size() > 128) return false;
  for (char c : hash) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Whether `name` is a file this copy writes: "{id}.{hash}.binpb", the
// index's or such a file's temporary. Only those are removed, so a copy
// directory pointed at a level directory by mistake loses no level file
// ("{id}.binpb").
bool IsCopyFile(absl::string_view name) {
  if (absl::StartsWith(name, absl::StrCat(kIndexName, ".tmp."))) return true;
  const size_t temporary = name.find(".binpb.tmp.");
  if (temporary != absl::string_view::npos) {
    name = name.substr(0, temporary + kLevelSuffix.size());
  }
  if (!absl::ConsumeSuffix(&name, kLevelSuffix)) return false;
  const size_t dot = name.rfind('.');
  return dot != absl::string_view::npos && dot > 0 &&
         name.size() - dot - 1 == 64 && IsFileSafeHash(name.substr(dot + 1));
}

}  // namespace

FleetCopy::FleetCopy(std::string dir, std::string prefix)
    : dir_(std::move(dir)), prefix_(std::move(prefix)) {}

std::string FleetCopy::IndexPath() const {
  return absl::StrCat(dir_, "/", kIndexName);
}

std::string FleetCopy::LevelPath(absl::string_view id,
                                 absl::string_view hash) const {
  return absl::StrCat(dir_, "/", id, ".", hash, kLevelSuffix);
}

absl::StatusOr<std::vector<std::string>> FleetCopy::Load(
    int64_t max_file_bytes,
    absl::FunctionRef<void(const std::string&, const std::string&)> level) {
  std::vector<std::string> notes;
  if (dir_.empty()) return notes;
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) {
    return absl::FailedPreconditionError(absl::StrCat(
        "level_store_copy_dir ", dir_, ": cannot create: ", error.message()));
  }
  std::string epoch;
  std::map<std::string, Entry> entries;
  absl::StatusOr<std::string> index =
      formats::ReadFileContents(IndexPath(), max_file_bytes);
  if (!index.ok() && !absl::IsNotFound(index.status())) return index.status();
  if (index.ok()) {
    const std::vector<absl::string_view> lines =
        absl::StrSplit(*index, '\n', absl::SkipEmpty());
    const auto bad = [&](absl::string_view why) {
      return absl::DataLossError(absl::StrCat(IndexPath(), ": ", why));
    };
    absl::string_view prefix_line = lines.size() > 1 ? lines[1] : "";
    absl::string_view epoch_line = lines.size() > 2 ? lines[2] : "";
    if (lines.size() < 3 || lines[0] != kHeader ||
        !absl::ConsumePrefix(&prefix_line, "prefix ") ||
        !absl::ConsumePrefix(&epoch_line, "epoch ")) {
      return bad("not a fleet copy index (header, prefix, epoch lines)");
    }
    if (prefix_line != prefix_) {
      notes.push_back(absl::StrCat(IndexPath(), " is a copy of prefix \"",
                                   prefix_line, "\", not \"", prefix_,
                                   "\": not used"));
    } else {
      epoch = std::string(epoch_line);
      for (size_t i = 3; i < lines.size(); ++i) {
        const std::vector<std::string> words =
            absl::StrSplit(lines[i], ' ', absl::SkipEmpty());
        Entry entry;
        if (words.size() != 3 ||
            !formats::ValidateLevelId(words[0], "id").ok() ||
            !absl::SimpleAtoi(words[1], &entry.revision) ||
            !(words[2] == kTombstone || IsFileSafeHash(words[2]))) {
          return bad(absl::StrCat("line ", i + 1,
                                  " is not \"id revision "
                                  "content_hash\""));
        }
        entry.content_hash = words[2];
        entries[words[0]] = entry;
      }
    }
  }
  // Read each level; drop the entries whose file is gone or unreadable.
  std::set<std::string> named;
  for (auto it = entries.begin(); it != entries.end();) {
    const auto& [id, entry] = *it;
    if (entry.content_hash == kTombstone) {
      ++it;
      continue;
    }
    const std::string path = LevelPath(id, entry.content_hash);
    absl::StatusOr<std::string> bytes =
        formats::ReadFileContents(path, max_file_bytes);
    if (!bytes.ok()) {
      notes.push_back(absl::StrCat(
          "dropped level ", id, " from the copy: ", bytes.status().ToString()));
      it = entries.erase(it);
      continue;
    }
    named.insert(path);
    level(id, *bytes);
    ++it;
  }
  for (const auto& file : std::filesystem::directory_iterator(dir_, error)) {
    const std::string path = file.path().string();
    if (path == IndexPath() || named.contains(path)) continue;
    if (IsCopyFile(file.path().filename().string())) {
      std::filesystem::remove(file.path(), error);
    }
  }
  absl::MutexLock lock(&mutex_);
  epoch_ = std::move(epoch);
  entries_ = std::move(entries);
  dirty_ = false;
  return notes;
}

std::string FleetCopy::epoch() const {
  absl::MutexLock lock(&mutex_);
  return epoch_;
}

std::map<std::string, FleetCopy::Entry> FleetCopy::entries() const {
  absl::MutexLock lock(&mutex_);
  return entries_;
}

void FleetCopy::Reset(absl::string_view epoch) {
  absl::MutexLock lock(&mutex_);
  for (const auto& [id, entry] : entries_) {
    if (!dir_.empty() && entry.content_hash != kTombstone) {
      stale_files_.push_back(LevelPath(id, entry.content_hash));
    }
  }
  entries_.clear();
  epoch_ = std::string(epoch);
  dirty_ = true;
}

void FleetCopy::Record(const std::string& id, const Entry& entry,
                       absl::FunctionRef<std::string()> framed, bool force) {
  const bool tombstone = entry.content_hash == kTombstone;
  // An id or hash edited into Redis by hand must not name a path.
  if (!formats::ValidateLevelId(id, "id").ok() ||
      (!tombstone && !IsFileSafeHash(entry.content_hash))) {
    return;
  }
  absl::MutexLock lock(&mutex_);
  auto held = entries_.find(id);
  if (held != entries_.end() && !force &&
      held->second.revision > entry.revision) {
    return;
  }
  if (held != entries_.end() && held->second.revision == entry.revision &&
      held->second.content_hash == entry.content_hash) {
    return;
  }
  const bool same_content =
      held != entries_.end() && held->second.content_hash == entry.content_hash;
  if (!tombstone) {
    // A file dropped before the last Flush and needed again.
    std::erase(stale_files_, LevelPath(id, entry.content_hash));
  }
  if (!dir_.empty() && !tombstone && !same_content) {
    // Written before the index names it; a failure keeps the old entry
    // (the copy then restores the older level, as a lagging replica would).
    if (!formats::WriteFileAtomically(LevelPath(id, entry.content_hash),
                                      framed())
             .ok()) {
      return;
    }
  }
  if (!dir_.empty() && held != entries_.end() && !same_content &&
      held->second.content_hash != kTombstone) {
    stale_files_.push_back(LevelPath(id, held->second.content_hash));
  }
  entries_[id] = entry;
  dirty_ = true;
}

absl::Status FleetCopy::Flush() {
  absl::MutexLock lock(&mutex_);
  if (dir_.empty() || !dirty_) return absl::OkStatus();
  std::string index =
      absl::StrCat(kHeader, "\nprefix ", prefix_, "\nepoch ", epoch_, "\n");
  for (const auto& [id, entry] : entries_) {
    absl::StrAppend(&index, id, " ", entry.revision, " ", entry.content_hash,
                    "\n");
  }
  if (absl::Status s = formats::WriteFileAtomically(IndexPath(), index);
      !s.ok()) {
    return s;
  }
  dirty_ = false;
  std::error_code error;
  for (const std::string& path : stale_files_) {
    std::filesystem::remove(path, error);
  }
  stale_files_.clear();
  return absl::OkStatus();
}

}  // namespace collide::server
