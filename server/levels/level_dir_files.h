// The files of a level directory (--level_dir), as the level store and the
// level directory watcher both read them: "{id}.binpb" (what the server
// writes), "{id}.pb" or "{id}.json" (what people write), and "{id}.deleted"
// tombstones a delete leaves. One set of rules, so what a restart loads and
// what a running server reloads never disagree.
#ifndef COLLIDE_SERVER_LEVELS_LEVEL_DIR_FILES_H_
#define COLLIDE_SERVER_LEVELS_LEVEL_DIR_FILES_H_

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/level_file.h"

namespace collide::server {

// Level file extensions a level directory may hold, most preferred first:
// the server writes binary, so a binary file is the newest admin state even
// if a hand-written JSON twin sits beside it; a Tiled map is the source the
// others may have been made from. (A delete removes every one, so a deleted
// level's .tmj goes too.)
inline constexpr absl::string_view kLevelDirExtensions[] = {
    formats::kBinaryLevelExtension, ".pb", ".json", ".tmj"};
inline constexpr int kLevelDirExtensionCount =
    static_cast<int>(std::size(kLevelDirExtensions));

// The marker a delete leaves, so that a level from the bundled default or
// --level_files, loaded at every start, stays deleted. A persisted put of
// the same id removes it; a level file of the same id wins over it.
inline constexpr absl::string_view kTombstoneExtension = ".deleted";

// What one directory entry is.
struct LevelDirEntry {
  // The level id: the file name without its extension.
  std::string id;
  // Index into kLevelDirExtensions (lower is preferred), kTombstone or
  // kJournal.
  int rank = 0;

  static constexpr int kTombstone = -1;
  // The patch journal "{id}.patches" (level_journal.h), which extends the
  // "{id}.binpb" file and is read with it.
  static constexpr int kJournal = -2;
};

// Parses a file name of the level directory. nullopt for everything that
// is neither a level file nor a tombstone: hidden names (".", "..", and
// Kubernetes ConfigMap volumes' "..data" and "..2024_..." entries), other
// extensions (WriteLevelFile's temporaries "{id}.binpb.tmp.{pid}"), and
// names whose id is not a valid level id.
std::optional<LevelDirEntry> ParseLevelDirEntry(absl::string_view file_name);

// The writer's pid when `file_name` is a temporary file that
// WriteFileAtomically (file_io.h) leaves behind when a write is
// interrupted: "{level file name}.tmp.{pid}", e.g. "arena.binpb.tmp.123";
// else nullopt.
std::optional<int64_t> LevelDirTemporaryPid(absl::string_view file_name);

// "{dir}/{id}{extension}".
std::string LevelDirPath(absl::string_view dir, absl::string_view id,
                         absl::string_view extension);

// Reads the level file at `path` for level `id` (ReadLevelFile's errors):
// an empty level.id takes `id`; a different one is INVALID_ARGUMENT naming
// the file, since the file name is what a restart would serve it as.
absl::StatusOr<v1::Level> ReadLevelDirFile(const std::string& path,
                                           absl::string_view id,
                                           int64_t max_bytes);

// A level as the directory holds it (LoadDirectory and the watcher both
// read levels this way).
struct LevelDirLevel {
  v1::Level level;
  // The server's own file whose journal replayed completely: the directory
  // holds exactly `level`, so the next patch may append to the journal.
  bool journaled = false;
  // Why the journal's replay stopped early ("" when it did not).
  std::string journal_stopped;
};

// ReadLevelDirFile of the level file at `path` ("{dir}/{id}{extension}"),
// and for the server's binary file the journal "{dir}/{id}.patches"
// replayed onto it (ReplayJournal). Errors: ReadLevelDirFile's, and a
// journal that cannot be read.
absl::StatusOr<LevelDirLevel> ReadLevelDirLevel(absl::string_view dir,
                                                absl::string_view id,
                                                absl::string_view extension,
                                                int64_t max_bytes);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_LEVEL_DIR_FILES_H_
